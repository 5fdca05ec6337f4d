// GCC 12 reports a false -Wrestrict inside std::string assignment as inlined
// into cpp_int::str() (GCC bug 105329); the code is correct. The warning is
// emitted after inlining, so it is silenced for this whole file.
#pragma GCC diagnostic ignored "-Wrestrict"

#include "pcount/engine/u128.hpp"

#include "pcount/engine/errors.hpp"

#include <stdexcept>

#include "pcount/engine/bigint.hpp"

namespace pcount {

BigInt to_big(u128 value) {
  BigInt big = high64(value);
  big <<= 64;
  big += low64(value);
  return big;
}

std::string to_string(const BigInt& value) { return value.str(); }

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

BigInt factorial(int n) {
  if (n < 0) throw std::invalid_argument("factorial of a negative number");
  BigInt f = 1;
  for (int i = 2; i <= n; ++i) f *= i;
  return f;
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
