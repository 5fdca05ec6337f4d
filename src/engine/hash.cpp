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
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string fnv1a64_digest(std::string_view text) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a64(text)));
  return std::string("fnv1a64:") + hex;
}

}  // namespace pcount::engine
