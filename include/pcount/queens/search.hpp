#pragma once
/// @file
/// N-Queens by bitboard tree search (Somers 2002): one queen per row, masks
/// for occupied columns and both diagonals, diagonals shifted one step per
/// row. Counts Q(N) (OEIS A000170); the symmetric counts P(N) (OEIS A032522)
/// and R(N) (OEIS A033148) come from their own constrained searches, which
/// place a queen together with its rotated images.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pcount/engine/task.hpp"
#include "pcount/queens/symmetry.hpp"

namespace pcount::queens {

/// Largest board side the queens counters accept (masks are 32 bits wide).
inline constexpr int kMaxN = 32;

/// The N-Queens search tree for the depth-split coordinator
/// (satisfies engine::TreeProblem). A node is a partial placement of the
/// first `row` rows; its children place a queen in row `row`, in column
/// order 0..N-1. count_subtree adds the number of completions to counter 0
/// and the nodes visited to Tally::nodes; while the run wants parts
/// (engine/split.hpp) it gives subtrees of its task away.
class QueensTree {
public:
  /// count_subtree splits while it runs (engine::SplitsWhileRunning).
  static constexpr bool kSplitsWhileRunning = true;

  /// A partial placement: rows 0..row-1 filled; masks over the N columns.
  struct Node {
    int row = 0;
    std::uint32_t cols = 0;   ///< columns in use
    std::uint32_t diag1 = 0;  ///< attacked squares of this row along ↙ diagonals
    std::uint32_t diag2 = 0;  ///< attacked squares of this row along ↘ diagonals
  };

  /// Board side 1 ≤ n ≤ 32; throws InvalidArgument("n") otherwise.
  explicit QueensTree(int n);

  /// Board side.
  [[nodiscard]] int n() const { return n_; }
  /// The empty board.
  [[nodiscard]] Node root() const { return Node{}; }
  /// The placements of one more queen in row `node.row`, by increasing
  /// column; empty for a full board.
  [[nodiscard]] std::vector<Node> children(const Node& node) const;
  /// Adds the completions of `node` to counter kAll and the nodes visited
  /// to `tally.nodes` (throws CountOverflow on overflow).
  void count_subtree(const Node& node, engine::Tally& tally) const;

private:
  int n_;
  std::uint32_t full_;
};

/// Number of solutions of the n×n board fixed by `rotation` (Symmetry::rot180
/// gives P(n), OEIS A032522; Symmetry::rot90 gives R(n), OEIS A033148), by a
/// search that fills the lowest empty row with a queen and all its images
/// under the rotation at once. `nodes` (if not null) gets the nodes visited
/// added. Throws InvalidArgument("n") for n outside 1..32 and
/// std::invalid_argument for another symmetry.
[[nodiscard]] u128 count_rotation_symmetric(int n, Symmetry rotation, u128* nodes = nullptr);

/// Runs one of the two symmetric-search tasks every queens job ends with:
/// adds count_rotation_symmetric(n, rot180 when `half_turn`, else rot90) to
/// counter `counter` of `out` and its nodes to out.nodes. Throws like
/// count_rotation_symmetric, and CountOverflow.
void add_rotation_symmetric(int n, bool half_turn, std::size_t counter, engine::Tally& out);

/// Counter indices of the jobs built by make_search_job.
enum SearchCounter : std::size_t { kAll = 0, kRot180 = 1, kRot90 = 2 };

/// The `--method search` job: the QueensTree split at `depth` (tasks
/// 0..T-1, counter kAll), then one task for the half-turn search (id T,
/// counter kRot180) and one for the quarter-turn search (id T+1, counter
/// kRot90). Throws InvalidArgument for a bad n or depth.
[[nodiscard]] engine::Job make_search_job(int n, int depth, const std::string& fingerprint);

/// Automatic split depth for the search job: the shallowest depth giving at
/// least `min_tasks` tree tasks.
[[nodiscard]] int auto_search_depth(int n, std::size_t min_tasks);

/// The `--list` job: like make_search_job (the same tree, split and
/// counters, so search_counts applies), but each tree task also writes its
/// solutions, one per line, in DFS order (columns tried in increasing
/// order, so the whole output is in lexicographic order of the column
/// lists): the column of the queen of each row, 1-based, space-separated
/// ("2 4 1 3"), or with `json` one object per line ({"columns":[2,4,1,3]}).
/// A task stops after `limit` solutions when limit > 0 (--list K; its
/// counts are then partial). The two symmetric tasks print nothing.
[[nodiscard]] engine::Job make_list_job(int n, int depth, const std::string& fingerprint, bool json,
                                        std::uint64_t limit);

/// Reads Q, P and R from a finished search job's totals and applies
/// burnside() (throws InternalError on a failed check).
[[nodiscard]] QueensCounts search_counts(int n, const engine::Tally& totals);

}  // namespace pcount::queens
