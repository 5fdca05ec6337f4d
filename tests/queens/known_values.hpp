#pragma once
// Known N-Queens counts for N = 1..18.
//   all      Q(N)  OEIS A000170
//   distinct U(N)  OEIS A002562
//   rot180   P(N)  OEIS A032522 (solutions fixed by the half turn, 90° ones included)
//   rot90    R(N)  OEIS A033148
// OEIS conventions for N = 1..3: the single queen of N = 1 counts as one
// solution that is fixed by every symmetry; N = 2, 3 have none.
// Cross-check: U = (Q + P + 2R)/8 for N ≥ 2 (Burnside; docs/queens.md).
#include <array>
#include <cstdint>

namespace pcount::test {

struct QueensKnown {
  int n;
  std::uint64_t all, distinct, rot180, rot90;
};

inline constexpr std::array<QueensKnown, 18> kQueensKnown = {{
    {1, 1, 1, 1, 1},
    {2, 0, 0, 0, 0},
    {3, 0, 0, 0, 0},
    {4, 2, 1, 2, 2},
    {5, 10, 2, 2, 2},
    {6, 4, 1, 4, 0},
    {7, 40, 6, 8, 0},
    {8, 92, 12, 4, 0},
    {9, 352, 46, 16, 0},
    {10, 724, 92, 12, 0},
    {11, 2680, 341, 48, 0},
    {12, 14200, 1787, 80, 8},
    {13, 73712, 9233, 136, 8},
    {14, 365596, 45752, 420, 0},
    {15, 2279184, 285053, 1240, 0},
    {16, 14772512, 1846955, 3000, 64},
    {17, 95815104, 11977939, 8152, 128},
    {18, 666090624, 83263591, 18104, 0},
}};

/// The known values of board side n (1 ≤ n ≤ 18).
inline const QueensKnown& queens_known(int n) { return kQueensKnown[static_cast<std::size_t>(n - 1)]; }

}  // namespace pcount::test
