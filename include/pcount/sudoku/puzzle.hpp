#pragma once
/// @file
/// Sudoku puzzles: box shapes, parsing with precise error messages, and
/// printing grids.
///
/// A puzzle of box shape R×C has side N = R·C (N ≤ 16) and N² cells, read
/// row by row. Cell values are written 1-9 then A, B, C, ... (case-insensitive)
/// for 10..16; '.' or '0' is a blank. Whitespace is ignored.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pcount/errors.hpp"
#include "pcount/sudoku/box_shape.hpp"

namespace pcount::sudoku {

/// Largest grid side the puzzle solvers accept (candidate sets are 16-bit).
inline constexpr int kMaxSide = 16;

/// Checks that 1 ≤ R, C and R·C ≤ kMaxSide; throws InvalidArgument(argument)
/// naming the shape otherwise.
void check_shape(const BoxShape& shape, const std::string& argument = "box_shape");

/// A puzzle: `cells[row·N + col]` is 0 for a blank or the value 1..N.
struct Puzzle {
  BoxShape shape;
  std::vector<std::uint8_t> cells;
};

/// A puzzle text that is not a valid puzzle. `row()` and `column()` (1-based)
/// name the offending cell, or are 0 when the fault is not one cell (wrong
/// length). The argument is the option that carried the puzzle.
class PuzzleError : public InvalidArgument {
public:
  PuzzleError(std::string argument, const std::string& message, int row, int column)
      : InvalidArgument(std::move(argument), message), row_(row), column_(column) {}
  [[nodiscard]] int row() const noexcept { return row_; }
  [[nodiscard]] int column() const noexcept { return column_; }

private:
  int row_;
  int column_;
};

/// Parses a puzzle of the given shape (see the file comment for the format).
/// Throws PuzzleError(argument, ...) for: a character that is not a value of
/// this shape, a blank or whitespace ("row r, column c: bad character ..."); a
/// wrong number of cells ("expected 81 cells, got 80"); two equal clues in a
/// row, column or box ("row r, column c: digit d repeats in column c (already
/// at row r', column c)"). Checks are made in that order; the first fault is
/// reported. Throws InvalidArgument("box_shape") for a bad shape.
[[nodiscard]] Puzzle parse_puzzle(std::string_view text, const BoxShape& shape = {},
                                  const std::string& argument = "puzzle");

/// The character for value v (0 → '.', 1..9 → '1'..'9', 10.. → 'A'..).
[[nodiscard]] char value_char(int v);

/// The cells as one line of N² characters (as accepted by parse_puzzle).
[[nodiscard]] std::string to_line(const std::vector<std::uint8_t>& cells);

/// The cells as N lines with boxes separated by " | " and lines of dashes,
/// each line ending in '\n'.
[[nodiscard]] std::string to_grid(const std::vector<std::uint8_t>& cells, const BoxShape& shape);

/// True when `grid` is a complete solution of `puzzle`: every cell holds a
/// value 1..N, every row, column and box holds each value once, and every clue
/// of the puzzle is kept. Checks the rules directly (used by self-checks and
/// tests; independent of the solvers).
[[nodiscard]] bool is_solution(const Puzzle& puzzle, const std::vector<std::uint8_t>& grid);

/// is_solution for 3x3 boxes without allocation: `clues` and `grid` are 81
/// values each, row-major, 0 = blank clue. The batch solver's self-check of
/// every first solution (about 350 instructions on x86-64 with AVX2).
[[nodiscard]] bool is_solution9(const std::uint8_t* clues, const std::uint8_t* grid);

}  // namespace pcount::sudoku
