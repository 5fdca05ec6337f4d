#pragma once
// The number of possible second days of Kirkman's schoolgirls problem (132,192
// with day 1 = ABC DEF GHI JKL MNO), by a plain enumeration sharing nothing
// with the library's search: for tests and benchmarks.
#include <cstdint>

namespace pcount::test {

/// Partitions of the girls left in `free` (a 15-bit mask) into rows of 3 that
/// take at most one girl from each row of day 1 (girls 3k, 3k+1, 3k+2): a
/// plain enumeration sharing nothing with the library's search.
inline std::uint64_t plain_second_days(unsigned free) {
  if (free == 0) return 1;
  const int a = __builtin_ctz(free);
  std::uint64_t n = 0;
  for (int b = a + 1; b < 15; ++b)
    for (int c = b + 1; c < 15; ++c) {
      if (!((free >> b) & 1u) || !((free >> c) & 1u)) continue;
      if (a / 3 == b / 3 || a / 3 == c / 3 || b / 3 == c / 3) continue;  // two girls of one day-1 row
      n += plain_second_days(free & ~((1u << a) | (1u << b) | (1u << c)));
    }
  return n;
}

/// The number of possible second days, by the plain enumeration (132,192).
inline std::uint64_t plain_second_day_count() {
  static const std::uint64_t n = plain_second_days(0x7FFFu);
  return n;
}

}  // namespace pcount::test
