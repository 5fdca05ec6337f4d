#pragma once
/// @file
/// The box shape of a sudoku: one type for grid counts and puzzles alike.

#include <string>

namespace pcount::sudoku {

/// A box shape: boxes of `rows` rows × `cols` columns (the user's RxC). The
/// grid side is N = rows·cols, and there are N boxes; e.g. 3x3 (N = 9),
/// 2x3 (N = 6: two rows of three cells per box).
struct BoxShape {
  int rows = 3;  ///< R, rows of a box
  int cols = 3;  ///< C, columns of a box
  /// Grid side N = R·C.
  [[nodiscard]] constexpr int side() const { return rows * cols; }
  /// Cells of the grid, N².
  [[nodiscard]] constexpr int cells() const { return side() * side(); }
  /// Box index (0..N-1, row-major over boxes) of cell (row, col), 0-based.
  [[nodiscard]] constexpr int box_of(int row, int col) const { return (row / rows) * rows + col / cols; }
  /// "RxC", e.g. "2x3".
  [[nodiscard]] std::string name() const { return std::to_string(rows) + "x" + std::to_string(cols); }
  friend constexpr bool operator==(const BoxShape&, const BoxShape&) = default;
};

}  // namespace pcount::sudoku
