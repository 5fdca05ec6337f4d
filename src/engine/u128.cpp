#include "pcount/u128.hpp"

#include <stdexcept>

#include "pcount/errors.hpp"

namespace pcount {

std::string to_string(u128 value) {
  // Digits from the right, 19 at a time (10^19 < 2^64), without a big integer.
  constexpr std::uint64_t kChunk = 10'000'000'000'000'000'000ULL;
  char buf[40];
  char* end = buf + sizeof buf;
  char* p = end;
  do {
    std::uint64_t part = static_cast<std::uint64_t>(value % kChunk);
    value /= kChunk;
    for (int i = 0; i < 19 && (part != 0 || value != 0); ++i) {
      *--p = static_cast<char>('0' + part % 10);
      part /= 10;
    }
  } while (value != 0);
  if (p == end) *--p = '0';
  return std::string(p, end);
}

u128 parse_u128(std::string_view text) {
  if (text.empty()) throw std::invalid_argument("empty count");
  u128 v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') throw std::invalid_argument("count has a non-digit: " + printable(text, 48));
    v = checked_add(checked_mul(v, 10), static_cast<u128>(c - '0'));
  }
  return v;
}

}  // namespace pcount
