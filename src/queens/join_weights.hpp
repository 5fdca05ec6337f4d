#pragma once
// Internal to the queens join (src/queens/join*.cpp): the weights of the
// reflection in the main diagonal (DiagonalOrder, Weighting) and the plan
// of a task's groups (which to join, with what class size and threshold).
// The vectorised join (join_kernel.ipp) calls Weighting::shortfall; what it
// calls here is always inlined, so no copy built for a wider instruction
// set is shared with other files.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "pcount/queens/join.hpp"

namespace pcount::queens::join_detail {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

struct Geometry;
struct Half;

/// The reflection in the main diagonal, (r, c) → (c, r), which does not
/// keep the cut across the board, used through two set invariants of a
/// solution X of the even n×n board (a = n/2): S(X), the columns of its top
/// half's queens, and L(X), the rows of its left half's queens (columns <
/// a). The reflection swaps them, S(DX) = L(X) and L(DX) = S(X), while the
/// turn and the mirror act on both as complement and reversal (i ↦ n−1−i).
/// With c(·) the least of a set's four images under complement and
/// reversal (as numbers below), n(S, L) the solutions with those sets,
/// n(S, L) = n(L, S), so
///   Q = Σ_{S,L} n(S, L) = Σ_{S,L} f · n(S, L),  f = 2, 1, 0 as c(L) >, =, < c(S),
/// (f(S,L) + f(L,S) = 2), and each group (one S) counts only its pairs with
/// f > 0, the weight 2 for most of them: half the key pairs of the join drop
/// out. For k = |S ∩ left| ∈ {0, a} (k = |L ∩ top| too) the weight is 1.
///
/// A set X ⊆ {0..n−1} of size a is the number (hi, lo) = (Σ_{i∈X, i<a}
/// 2^(a−1−i), Σ_{i∈X, i≥a} 2^(n−1−i)), hi the high a bits. For a pair
/// (top placement, bottom placement) L = (λ_t, R(λ_b)), λ being the
/// placement's left rows (Half::left_columns) and R the reversal of a bits; the
/// four images of L have the high parts λ_t, ~λ_t, λ_b, ~λ_b: a placement
/// whose min(λ, ~λ) is below c(S)'s high part has f = 0 with every partner,
/// above it leaves the decision to the partner, equal to it (a tie) needs
/// the whole comparison.
struct DiagonalOrder {
  int a = 0;
  u32 ones = 0;              ///< 2^a − 1
  std::vector<u32> reverse;  ///< reversal of a bits

  explicit DiagonalOrder(int rows) : a(rows), ones((1u << rows) - 1u), reverse(std::size_t{1} << rows) {
    for (u32 x = 0; x <= ones; ++x)
      for (int i = 0; i < a; ++i)
        if ((x >> i) & 1u) reverse[x] |= 1u << (a - 1 - i);
  }
  /// c: the least of the four images of the set (hi, lo).
  [[nodiscard, gnu::always_inline]] u32 least(u32 hi, u32 lo) const {
    const u32 rh = reverse[lo], rl = reverse[hi];
    return std::min(
        {(hi << a) | lo, ((hi ^ ones) << a) | (lo ^ ones), (rh << a) | rl, ((rh ^ ones) << a) | (rl ^ ones)});
  }
  /// c(S) of a column set (bit i = column i).
  [[nodiscard]] u32 of_columns(u32 columns) const {
    return least(reverse[columns & ones], reverse[(columns >> a) & ones]);
  }
  /// c(L) of the pair with left rows λ_t (top) and λ_b (bottom).
  [[nodiscard, gnu::always_inline]] u32 of_rows(u32 lam_top, u32 lam_bottom) const {
    return least(lam_top, reverse[lam_bottom]);
  }
};

/// λ's flag for a placement that ties (min(λ, ~λ) equal to c(S)'s high part).
constexpr std::uint16_t kTie = 0x8000;

/// What the task does with one group (column set of the top half).
struct GroupPlan {
  bool join = false;      ///< the least column set of its class in this task
  bool weighted = false;  ///< pairs weighted by the diagonal reflection (f)
  u32 size = 0;           ///< the class size under the mirror and the turn
  u32 least = 0;          ///< c(S) (weighted groups)
  u32 threshold = 0;      ///< c(S)'s high part (weighted groups)
};

/// How a group joined with the diagonal reflection weights its pairs: λ
/// (with kTie) of each key of both sides, in the order of the keys given to
/// count_disjoint, and c(S).
struct Weighting {
  const std::uint16_t* top_lams = nullptr;
  const std::uint16_t* bottom_lams = nullptr;
  const DiagonalOrder* order = nullptr;
  u32 least = 0;
  /// 2 − f for the pair: 0, 1 or 2 as c(L) >, =, < c(S).
  [[nodiscard, gnu::always_inline]] u32 shortfall(std::uint16_t top_lam, std::uint16_t bottom_lam) const {
    const u32 c = order->of_rows(top_lam & ~kTie, bottom_lam & ~kTie);
    return c > least ? 0u : c == least ? 1u : 2u;
  }
};

/// Which groups (column sets t.outer | gi << g.group_shift) task `t` joins,
/// and how: only the least column set of its class among those the task
/// enumerates, weighted by the class size; plan[gi] for each gi.
void plan_groups(const Geometry& g, const JoinTask& t, const DiagonalOrder& reflection, std::vector<GroupPlan>& plan);

/// Sets both halves' pruning prefix (Half::prune_rows, prune_threshold)
/// where the join weighs by the diagonal reflection.
void prune_halves(const Geometry& g, const JoinTask& t, const DiagonalOrder& reflection, Half& top, Half& bottom);

}  // namespace pcount::queens::join_detail
