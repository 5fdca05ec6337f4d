#pragma once
/// @file
/// Reduced Latin squares and rectangles by tree search (the oracle method).
///
/// Reduced form: row 0 is 0..n-1 and column 0 is 0..k-1 (k rows). The
/// search fills cells row-major with bitmasks (candidates = symbols unused
/// in the row and in the column). For full squares (k ≥ n-1; R(n-1,n) =
/// R(n)) three exact shortcuts apply (docs/latin.md "Method 1"):
/// - the second row is reduced to its cycle type λ (all parts ≥ 2) with
///   weight w(λ) = n!/(z_λ·(n-1)) (the completions of [id; σ] depend only on
///   the cycle type of σ);
/// - the last row is forced;
/// - the last two rows are counted in closed form, 2^(cycles-1).
/// Known values: R(n) OEIS A000315; R(k,n) McKay & Wanless 2005 (table in
/// docs/latin.md; sources in docs/sources.md).

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "pcount/bigint.hpp"
#include "pcount/engine/task.hpp"
#include "pcount/u128.hpp"

namespace pcount::latin {

/// Largest order the tree search accepts.
inline constexpr int kMaxSearchOrder = 16;

/// A cycle type λ ⊢ n with every part ≥ 2 (the cycle type of a reduced
/// second row), parts in non-increasing order.
struct CycleType {
  std::vector<int> parts;
  /// w(λ) = n!/(z_λ·(n-1)): the number of reduced second rows of this type.
  u128 weight = 0;
};

/// All cycle types of derangements of n (parts ≥ 2), in lexicographically
/// decreasing order of the parts, each with its weight. Throws
/// InvalidArgument("order") for n < 2 or n > kMaxSearchOrder, and
/// InternalError if a weight is not a whole number. Sum of the weights =
/// derangements(n)/(n-1) (OEIS A000255 shifted).
[[nodiscard]] std::vector<CycleType> cycle_types(int n);

/// Number of completions of the last two rows in reduced form: given a
/// Latin rectangle of n-2 rows whose column c still misses the two symbols
/// of bitmask `missing[c]` (exactly two bits set, each symbol missing from
/// exactly two columns), the completions number 2^(cycles-1), cycles being
/// the cycles of the column–symbol graph of the missing pairs. n ≥ 2.
[[nodiscard]] std::uint64_t last_two_rows(const std::uint32_t* missing, int n);

/// The search tree of reduced k×n Latin rectangles (k = n or n-1: reduced
/// Latin squares), for engine::make_tree_job (satisfies
/// engine::TreeProblem). Counter 0 = reduced rectangles (squares) in the
/// subtree (weights included); Tally::nodes = cells placed.
///
/// Tree shape: for squares (n ≥ 2) the root's children are the cycle types
/// of the second row (in cycle_types order), each carrying its weight; below
/// that, and for rectangles from the root, each level fills one cell
/// (row-major, column 0 preset to the row index), children in increasing
/// symbol order.
class LatinTree {
public:
  /// A search state: rows 0..row-1 complete, row `row` filled up to column
  /// col-1 (1 ≤ col < n), or a terminal state (row ≥ stop row).
  struct Node {
    std::array<std::uint16_t, kMaxSearchOrder> col_used{};  ///< symbols used per column
    std::uint16_t row_used = 0;  ///< symbols used in the current row
    std::uint8_t row = 0;
    std::uint8_t col = 1;
    bool types_root = false;     ///< the root of a square: children are the cycle types
    std::uint64_t weight = 1;    ///< multiplicity of this subtree (w(λ))
  };

  /// Reduced k×n rectangles, 1 ≤ n ≤ 16, 1 ≤ k ≤ n (k ≥ n-1 counts R(n)).
  /// Throws InvalidArgument("order") / ("--rows") when out of range.
  LatinTree(int n, int k);

  [[nodiscard]] int n() const { return n_; }
  [[nodiscard]] int rows() const { return k_; }
  /// Whether this tree counts full squares (k ≥ n-1).
  [[nodiscard]] bool square() const { return square_; }

  /// count_subtree gives parts of its subtree away while the run wants
  /// them (engine/split.hpp).
  static constexpr bool kSplitsWhileRunning = true;

  [[nodiscard]] Node root() const;
  [[nodiscard]] std::vector<Node> children(const Node& node) const;
  void count_subtree(const Node& node, engine::Tally& tally) const;

private:
  [[nodiscard]] Node start_row(Node node) const;  // column 0 of `row` preset
  [[nodiscard]] bool terminal(const Node& node) const;
  int n_;
  int k_;
  bool square_;
  int stop_row_;  // squares: n-2 (closed form); rectangles: k
  std::uint32_t full_;
  std::vector<CycleType> types_;
};

/// The `--list` job: every reduced k×n Latin rectangle (square for k = n),
/// one per line, by a plain cell-by-cell fill (row-major, symbols in
/// increasing order; no cycle-type shortcut), split at `depth` (-1: the
/// shallowest depth giving `min_tasks` tasks). A line is the rows as symbol
/// strings separated by spaces, symbols 1–9 then A–G for 10–16
/// ("1234 2143 3412 4321"), or with `json` {"rows":["1234",...]}; the output
/// is in lexicographic order. Counter 0 ("reduced") = rectangles written; a
/// task stops after `limit` of them when limit > 0. " split=D" is appended to
/// the fingerprint. Throws InvalidArgument("order") / ("--rows").
[[nodiscard]] engine::Job make_list_job(int n, int k, int depth, std::size_t min_tasks, std::string fingerprint,
                                        bool json, std::uint64_t limit);

/// L(n) = n!·(n-1)!·R(n): all Latin squares of order n from the reduced count.
[[nodiscard]] BigInt all_squares(int n, u128 reduced);

/// All k×n Latin rectangles from the reduced count:
/// n!·(n-1)!/(n-k)!·R(k,n). For k ≥ n-1 this is L(n).
[[nodiscard]] BigInt all_rectangles(int n, int k, u128 reduced);

/// The self-check of Stones & Wanless (2010): R(n) mod n is 0 for composite
/// n and 1 for prime n (n ≥ 3; R(1) = R(2) = 1 pass trivially). Throws
/// InternalError naming n and the residue when `reduced` fails it.
void check_mod_n(int n, u128 reduced);

/// Whether n is prime.
[[nodiscard]] bool is_prime(int n);

}  // namespace pcount::latin
