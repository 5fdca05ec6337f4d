#pragma once
/// @file
/// N-Queens by bitboard tree search (Somers 2002): one queen per row, masks
/// for occupied columns and both diagonals, diagonals shifted one step per
/// row. Counts Q(N), OEIS A000170.

#include <cstdint>
#include <vector>

#include "pcount/engine/task.hpp"

namespace pcount::queens {

/// The N-Queens search tree for the depth-split coordinator
/// (satisfies engine::TreeProblem). A node is a partial placement of the
/// first `row` rows; its children place a queen in row `row`, in column
/// order 0..N-1. count_subtree adds the number of completions to counter 0
/// and the nodes visited to Tally::nodes.
class QueensTree {
public:
  /// A partial placement: rows 0..row-1 filled; masks over the N columns.
  struct Node {
    int row = 0;
    std::uint32_t cols = 0;   ///< columns in use
    std::uint32_t diag1 = 0;  ///< attacked squares of this row along ↙ diagonals
    std::uint32_t diag2 = 0;  ///< attacked squares of this row along ↘ diagonals
  };

  /// Board side 1 ≤ n ≤ 32; throws InvalidArgument("--queens") otherwise.
  explicit QueensTree(int n);

  [[nodiscard]] int n() const { return n_; }
  [[nodiscard]] Node root() const { return Node{}; }
  [[nodiscard]] std::vector<Node> children(const Node& node) const;
  void count_subtree(const Node& node, engine::Tally& tally) const;

private:
  int n_;
  std::uint32_t full_;
};

}  // namespace pcount::queens
