#include "pcount/engine/hash.hpp"

#include <cstdio>

namespace pcount::engine {

std::uint32_t fnv1a(std::string_view text, std::uint32_t seed) {
  std::uint32_t h = seed;
  for (char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 16777619u;
  }
  return h;
}

std::uint64_t fnv1a64(std::string_view text, std::uint64_t seed) {
  std::uint64_t h = seed;
  for (char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= kFnv1a64Prime;
  }
  return h;
}

std::string fnv1a64_digest(std::string_view text) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a64(text)));
  return std::string("fnv1a64:") + hex;
}

void WordFnv1a64::add(std::string_view bytes) {
  const char* p = bytes.data();
  std::size_t n = bytes.size();
  count_ += n;
  while (fill_ != 0 && n != 0) {
    word_ |= std::uint64_t{static_cast<unsigned char>(*p++)} << (8 * fill_++);
    --n;
    if (fill_ == 8) flush();
  }
  Fnv1a64 h = hash_;  // a local: the bytes' char type may alias the member
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t w = 0;
    for (int i = 0; i < 8; ++i) w |= std::uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
    h.add_word(w);
  }
  hash_ = h;
  for (; n != 0; --n) word_ |= std::uint64_t{static_cast<unsigned char>(*p++)} << (8 * fill_++);
}

std::uint64_t WordFnv1a64::value() const {
  WordFnv1a64 h = *this;
  if (h.fill_ != 0) h.flush();
  h.hash_.add_word(count_);
  return h.hash_.value();
}

void WordFnv1a64::flush() {
  hash_.add_word(word_);
  word_ = 0;
  fill_ = 0;
}

}  // namespace pcount::engine
