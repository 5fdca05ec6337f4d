#pragma once
/// @file
/// The 8 symmetries of the square (the dihedral group D4) acting on N-Queens
/// placements, and the Burnside count of distinct solutions.
///
/// A placement is a permutation `p` of 0..N-1: the queen of row r stands in
/// column p[r]. Squares are (row, column) with 0 ≤ row, column < N.

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "pcount/u128.hpp"

namespace pcount::queens {

/// The elements of D4 in a fixed order; the enum value is the index used in
/// stabiliser bit masks (bit i = element i).
enum class Symmetry : std::uint8_t {
  identity = 0,
  rot90 = 1,       ///< quarter turn clockwise: (r, c) → (c, N-1-r)
  rot180 = 2,      ///< half turn: (r, c) → (N-1-r, N-1-c)
  rot270 = 3,      ///< quarter turn anticlockwise: (r, c) → (N-1-c, r)
  mirror_cols = 4, ///< left–right mirror: (r, c) → (r, N-1-c)
  mirror_rows = 5, ///< top–bottom mirror: (r, c) → (N-1-r, c)
  transpose = 6,   ///< main diagonal: (r, c) → (c, r)
  antitranspose = 7///< anti-diagonal: (r, c) → (N-1-c, N-1-r)
};

/// All 8 symmetries, identity first.
inline constexpr std::array<Symmetry, 8> kSymmetries = {
    Symmetry::identity,    Symmetry::rot90,       Symmetry::rot180,    Symmetry::rot270,
    Symmetry::mirror_cols, Symmetry::mirror_rows, Symmetry::transpose, Symmetry::antitranspose};

/// A square of the board.
struct Square {
  int row = 0;
  int col = 0;
  friend bool operator==(const Square&, const Square&) = default;
};

/// Image of square `s` of an n×n board under `g`.
[[nodiscard]] constexpr Square map_square(Symmetry g, Square s, int n) {
  const int m = n - 1;
  switch (g) {
    case Symmetry::identity: return s;
    case Symmetry::rot90: return {s.col, m - s.row};
    case Symmetry::rot180: return {m - s.row, m - s.col};
    case Symmetry::rot270: return {m - s.col, s.row};
    case Symmetry::mirror_cols: return {s.row, m - s.col};
    case Symmetry::mirror_rows: return {m - s.row, s.col};
    case Symmetry::transpose: return {s.col, s.row};
    case Symmetry::antitranspose: return {m - s.col, m - s.row};
  }
  return s;
}

/// Image of placement `p` (a permutation, size N) under `g`: the placement
/// holding the images of p's queens. Requires p to be a permutation.
[[nodiscard]] std::vector<int> map_placement(Symmetry g, std::span<const int> p);

/// True when `p` is a solution: a permutation of 0..N-1 with no two queens on
/// a common diagonal.
[[nodiscard]] bool is_solution(std::span<const int> p);

/// The canonical form of a placement: the lexicographically smallest of its
/// 8 images (row 0's column first).
[[nodiscard]] std::vector<int> canonical(std::span<const int> p);

/// The four numbers one N-Queens count produces, and the Burnside identity
/// tying them together.
struct QueensCounts {
  u128 all = 0;       ///< Q(N), all solutions (OEIS A000170)
  u128 distinct = 0;  ///< U(N), solutions distinct under D4 (OEIS A002562)
  u128 rot180 = 0;    ///< P(N), solutions fixed by the half turn, 90° ones included (OEIS A032522)
  u128 rot90 = 0;     ///< R(N), solutions fixed by the quarter turn (OEIS A033148)
  friend bool operator==(const QueensCounts&, const QueensCounts&) = default;
};

/// Distinct solutions by Burnside's lemma over D4:
/// U = (Q + P + 2R + 4F)/8, where F = solutions fixed by a reflection, which
/// is 0 for N > 1 (two queens would face each other) and 1 for N = 1.
/// Throws pcount::InternalError when the sum is not divisible by 8 (a sign
/// that one of the counts is wrong), CountOverflow on overflow.
[[nodiscard]] QueensCounts burnside(int n, u128 all, u128 rot180, u128 rot90);

/// Human-readable name of a symmetry, e.g. "rot90".
[[nodiscard]] std::string_view name(Symmetry g);

}  // namespace pcount::queens
