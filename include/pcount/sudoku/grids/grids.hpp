#pragma once
/// @file
/// Sudoku grid counts: box shapes, the reduced-grid normalisation and its
/// exact multiplier, and the tree search over reduced grids (the oracle for
/// the small shapes 2x2, 2x3, 3x2).
///
/// A grid with boxes of R rows × C columns has side N = R·C; every row,
/// column and box holds each digit 0..N-1 once (printed 1..N).
///
/// Reduced grid (both methods use the same definition, so reduced counts of
/// `search` and `bands` can be compared): row 0 is 0,1,…,N-1 and the rest of
/// box 0 — the ×C matrix M of rows 1..R-1, columns 0..C-1, holding the
/// digits C..N-1 — has its smallest digit C at (1,0), row 1 increasing and
/// column 0 increasing. Relabelling digits (N!), permuting box 0's columns
/// (C!, digits 0..C-1 relabelled back) and permuting rows 1..R-1 ((R-1)!)
/// act freely on grids (M's entries are distinct), and each orbit holds one
/// reduced grid, so  grids = N!·C!·(R-1)!·reduced  for R ≥ 2.
/// 2x3: 6528 reduced (the normalisation of seed 001), 28,200,960 grids.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "pcount/bigint.hpp"
#include "pcount/engine/task.hpp"
#include "pcount/sudoku/box_shape.hpp"

namespace pcount::sudoku {

/// The multiplier N!·C!·(R-1)! from reduced grids to all grids (see the file
/// comment). Throws std::invalid_argument when R < 1 or C < 1.
[[nodiscard]] BigInt reduced_multiplier(BoxShape shape);

/// The reduced-grid search tree (satisfies engine::TreeProblem) for shapes
/// with R ≥ 2, C ≥ 2 and N = R·C ≤ 9. Cells are filled in row-major order
/// from row 1 (row 0 is fixed to 0..N-1) with row/column/box bitmasks; the
/// box-0 cells obey the reduced-grid order conditions. A node's children
/// fill its next cell with each allowed digit in increasing order.
/// count_subtree adds the reduced grids below the node to counter 0 and the
/// nodes visited to Tally::nodes; while the run wants parts
/// (engine/split.hpp) it gives subtrees of its task away.
class GridSearchTree {
public:
  /// count_subtree splits while it runs (engine::SplitsWhileRunning).
  static constexpr bool kSplitsWhileRunning = true;

  /// Most grid side this search handles.
  static constexpr int kMaxSide = 9;

  /// A partially filled grid: cells 0..pos-1 (row-major) are filled.
  struct Node {
    int pos = 0;                                           ///< next cell to fill
    std::array<std::uint8_t, kMaxSide * kMaxSide> cell{};  ///< digits 0..N-1
    std::array<std::uint16_t, kMaxSide> row{};             ///< digits used per row
    std::array<std::uint16_t, kMaxSide> col{};             ///< digits used per column
    std::array<std::uint16_t, kMaxSide> box{};             ///< digits used per box
  };

  /// Throws std::invalid_argument when R < 2, C < 2 or R·C > 9 (the CLI
  /// refuses such shapes earlier with a user message).
  explicit GridSearchTree(BoxShape shape);

  [[nodiscard]] BoxShape shape() const { return shape_; }
  [[nodiscard]] Node root() const;
  [[nodiscard]] std::vector<Node> children(const Node& node) const;
  void count_subtree(const Node& node, engine::Tally& tally) const;

  /// Digits allowed in the node's next cell (bit d = digit d); 0 when none
  /// or when the grid is full.
  [[nodiscard]] std::uint32_t candidates(const Node& node) const;

private:
  BoxShape shape_;
  int n_;
  std::uint32_t full_;
  std::array<std::uint8_t, kMaxSide * kMaxSide> box_of_{};
};

}  // namespace pcount::sudoku
