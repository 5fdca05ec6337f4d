// GCC 12 reports a false -Wrestrict inside std::string assignment as inlined
// into cpp_int::str() (GCC bug 105329); the code is correct. The warning is
// emitted after inlining, so it is silenced for this whole file.
#pragma GCC diagnostic ignored "-Wrestrict"

#include "pcount/bigint.hpp"

#include <stdexcept>

namespace pcount {

BigInt to_big(u128 value) {
  BigInt big = high64(value);
  big <<= 64;
  big += low64(value);
  return big;
}

std::string to_string(const BigInt& value) { return value.str(); }

BigInt factorial(int n) {
  if (n < 0) throw std::invalid_argument("factorial of a negative number");
  BigInt f = 1;
  for (int i = 2; i <= n; ++i) f *= i;
  return f;
}

}  // namespace pcount
