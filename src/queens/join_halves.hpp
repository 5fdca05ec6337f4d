#pragma once
// Internal to the queens join (src/queens/join*.cpp): the board cut across
// into two halves, the task's constraints on each half (Geometry, Half).
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <random>
#include <utility>

#include "pcount/queens/join.hpp"

namespace pcount::queens::join_detail {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

inline u32 bit(int c) { return c < 0 ? 0u : (1u << c); }

/// x with column c moved to n − 1 − c.
u32 mirror_columns(u32 x, int n);

/// The board, the cut and the task's constraints on each half.
struct Geometry {
  int n = 0;
  int rows = 0;   ///< a = ⌊n/2⌋ rows per half
  int outer = 0;  ///< outer columns (outer/2 each side)
  bool odd = false;
  u32 full = 0;
  u32 outer_mask = 0;   ///< the outer columns
  int group_shift = 0;  ///< the inner columns are bits group_shift..group_shift+inner-1
  u32 group_mask = 0;   ///< (1 << inner) - 1
  /// The join also uses the reflection in the main diagonal (even n from 4
  /// to 24, where the group and λ fit one 32-bit word; see DiagonalClass).
  bool diagonal = false;

  Geometry(int n_, int outer_, bool use_diagonal = true) : n(n_), rows(n_ / 2), outer(outer_), odd(n_ % 2 == 1) {
    full = n == 32 ? ~0u : (1u << n) - 1u;
    const int side = outer / 2;
    const u32 low = (1u << side) - 1u;
    outer_mask = low | (low << (n - side));
    group_shift = side;
    group_mask = (1u << (n - outer)) - 1u;
    diagonal = use_diagonal && !odd && n >= 4 && n <= 24 && (n - outer) + rows <= 32;
  }
  /// Column set of the bottom half that fits a top half with columns `top` (and middle queen m).
  [[nodiscard]] u32 complement(u32 top, int m) const { return full & ~top & ~bit(m); }
};

/// The images of (middle, top columns) under the mirror and the top–bottom
/// turn, identity first.
std::array<std::pair<int, u32>, 4> images(const Geometry& g, int m, u32 top);

/// One half's placements: rows 0..a-1 of the board (for the bottom half,
/// the board turned upside down), queens only on allowed squares, every
/// `must` column used. They are built as two parts that meet on row h
/// (PartList): the upper rows 0..h−1 and the lower rows h..a−1.
struct Half {
  const Geometry* g = nullptr;
  bool top = true;
  int m = -1;
  std::array<u32, 32> allowed{};  ///< per row: allowed columns minus the middle queen's diagonals
  u32 must = 0;
  /// λ, the left rows of a placement: bit a−1−r set when the queen of its
  /// row r (counted from its own edge of the board) stands in a left column
  /// (< a). Kept only for even n ≤ 24, where the join uses the diagonal
  /// reflection; else no column counts as left and λ = 0.
  u32 left_columns = 0;  ///< the left columns' mask, 2^a − 1 (0: λ not kept)
  /// Placements whose first d ≤ prune_rows rows already make min(λ, ~λ)
  /// fall below the task's threshold are dropped by every group's join
  /// (DiagonalOrder); the upper part is not extended past such rows.
  /// prune_threshold has prune_rows bits; prune_rows = 0 prunes nothing.
  int prune_rows = 0;
  u32 prune_threshold = 0;

  Half(const Geometry& geo, bool is_top, int middle, u32 allowed_columns, u32 must_columns)
      : g(&geo), top(is_top), m(middle), must(must_columns) {
    if (geo.diagonal) left_columns = (1u << geo.rows) - 1u;
    for (int r = 0; r < geo.rows; ++r) {
      u32 a = allowed_columns & ~bit(middle);
      if (middle >= 0) {  // the middle queen (row a, column m) attacks (r, m ± (a - r))
        const int d = geo.rows - r;
        if (middle + d < geo.n) a &= ~bit(middle + d);
        if (middle - d >= 0) a &= ~bit(middle - d);
      }
      allowed[static_cast<std::size_t>(r)] = a;
    }
  }

  /// λ's bit for a queen `q` in row r: set when q stands in a left column.
  [[nodiscard]] u32 left_bit(u32 q, int r) const { return static_cast<u32>(q <= left_columns) << (g->rows - 1 - r); }
  /// Whether a prefix of r rows with left rows `lam` (bits a−1..a−r) can
  /// still make a placement that some group keeps.
  [[nodiscard]] bool kept_prefix(int r, u32 lam) const {
    if (r > prune_rows || r == 0) return true;
    const u32 prefix = lam >> (g->rows - r), ones = (1u << r) - 1u;
    return std::min(prefix, prefix ^ ones) >= (prune_threshold >> (prune_rows - r));
  }

  /// One random root-to-leaf path: the product of the branching factors
  /// (an unbiased estimate of the placements, Knuth 1975).
  double probe(std::mt19937_64& rng) const;
};

/// The task's top half: its outer columns must be used, the others are barred.
Half top_half(const Geometry& g, const JoinTask& t);
/// The task's bottom half: the outer columns the top half leaves free (and
/// not the middle queen's) must be used.
Half bottom_half(const Geometry& g, const JoinTask& t);

}  // namespace pcount::queens::join_detail
