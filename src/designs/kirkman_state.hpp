#pragma once
// Internal: the partial schedule of Kirkman's schoolgirls and the row
// generators the searches share: the count, --find and --list
// (src/designs/kirkman.cpp) and the isomorphism classes
// (src/designs/kirkman_classes.cpp).
#include <algorithm>
#include <array>
#include <cstdint>

#include "pcount/designs/kirkman.hpp"

namespace pcount::designs::kirkman {

/// The set of all 15 girls, bit g = girl g.
inline constexpr std::uint16_t kAll = 0x7FFF;

/// The lowest girl of a non-empty set.
inline int low(unsigned m) { return __builtin_ctz(m); }
/// The set of girl g alone.
inline std::uint16_t girl_bit(int g) { return static_cast<std::uint16_t>(1u << g); }

/// A partial schedule: complete days plus the rows of the current day.
struct State {
  std::array<std::uint16_t, kGirls> used{};        ///< used[g]: girls g has walked with
  std::uint16_t placed = 0;                        ///< girls in a row of the current day
  std::int8_t days = 0;                            ///< complete days
  std::int8_t rows = 0;                            ///< rows of the current day
  std::array<std::uint16_t, kDays * kRows> row{};  ///< rows in placement order (for --find)
};

/// `s` with the row {g, a, b} placed (a new day begins after the fifth row).
inline State place(const State& s, int g, int a, int b) {
  State c = s;
  const auto t = static_cast<std::uint16_t>(girl_bit(g) | girl_bit(a) | girl_bit(b));
  c.used[static_cast<std::size_t>(g)] |= static_cast<std::uint16_t>(girl_bit(a) | girl_bit(b));
  c.used[static_cast<std::size_t>(a)] |= static_cast<std::uint16_t>(girl_bit(g) | girl_bit(b));
  c.used[static_cast<std::size_t>(b)] |= static_cast<std::uint16_t>(girl_bit(g) | girl_bit(a));
  c.row[static_cast<std::size_t>(c.days * kRows + c.rows)] = t;
  c.placed = static_cast<std::uint16_t>(c.placed | t);
  if (++c.rows == kRows) {
    c.rows = 0;
    c.placed = 0;
    ++c.days;
  }
  return c;
}

/// Rows that may be placed next, as (a, b) partners of the lowest unplaced
/// girl g. With `canonical`, a new day's first row (g = A) must hold the
/// lowest girl not yet paired with A, which lists unordered days once.
template <class F>
void for_each_row(const State& s, bool canonical, F&& f) {
  const int g = low(~s.placed & kAll);
  unsigned free = kAll & ~static_cast<unsigned>(s.placed | s.used[static_cast<std::size_t>(g)] | girl_bit(g));
  if (canonical && s.rows == 0 && free) free &= 0u - free;  // only the lowest as a
  const unsigned open = kAll & ~static_cast<unsigned>(s.placed | girl_bit(g));
  while (free) {
    const int a = low(free);
    free &= free - 1;
    unsigned bs = open &
                  ~static_cast<unsigned>(s.used[static_cast<std::size_t>(g)] | s.used[static_cast<std::size_t>(a)]) &
                  ~((2u << a) - 1u);
    while (bs) {
      const int b = low(bs);
      bs &= bs - 1;
      f(g, a, b);
    }
  }
}

/// The rows the searches try next. A new day starts with A's canonical row;
/// inside a day any girl may be placed next, so take the unplaced girl with
/// the fewest possible partners (each partition of the day is still listed
/// once); a girl with fewer than two means a dead end: no row is offered.
template <class F>
void for_each_next_row(const State& s, F&& f) {
  if (s.rows == 0) {
    for_each_row(s, true, f);
    return;
  }
  const unsigned open = kAll & ~static_cast<unsigned>(s.placed);
  int g = -1;
  unsigned best = 0;
  int best_n = kGirls;
  for (unsigned m = open; m; m &= m - 1) {
    const int h = low(m);
    const unsigned avail = open & ~static_cast<unsigned>(s.used[static_cast<std::size_t>(h)] | girl_bit(h));
    const int n = __builtin_popcount(avail);
    if (n < 2) return;
    if (n < best_n) {
      best_n = n;
      best = avail;
      g = h;
    }
  }
  for (unsigned as = best; as; as &= as - 1) {
    const int a = low(as);
    unsigned bs = best & ~static_cast<unsigned>(s.used[static_cast<std::size_t>(a)]) & ~((2u << a) - 1u);
    while (bs) {
      const int b = low(bs);
      bs &= bs - 1;
      f(g, a, b);
    }
  }
}

/// The schedule after day 1 = ABC DEF GHI JKL MNO.
inline State after_first_day() {
  State s;
  for (int r = 0; r < kRows; ++r) s = place(s, 3 * r, 3 * r + 1, 3 * r + 2);
  return s;
}

/// Day `d` (complete) of `s`, rows ordered by their lowest girl.
inline Day day_of(const State& s, int d) {
  Day day{};
  for (std::size_t r = 0; r < kRows; ++r) day[r] = s.row[static_cast<std::size_t>(d * kRows) + r];
  std::sort(day.begin(), day.end(), [](std::uint16_t x, std::uint16_t y) { return low(x) < low(y); });
  return day;
}

/// Day 1 and then day `d` as the second day.
inline State with_second_day(const Day& d) {
  State s = after_first_day();
  for (std::uint16_t t : d) {
    unsigned m = t;
    const int g = low(m);
    m &= m - 1;
    const int a = low(m);
    m &= m - 1;
    s = place(s, g, a, low(m));
  }
  return s;
}

}  // namespace pcount::designs::kirkman
