// Fuzz target: the sudoku puzzle parser and solvers, and the puzzle-file
// reader of `count --puzzle-file`.
//
// Input: byte 0 chooses the mode and box shape, the rest is puzzle text.
//  - modes 0–2: parse_puzzle with one of several box shapes; a puzzle that
//    parses and has side ≤ 9 is solved up to 2 solutions by every kernel
//    that applies. Properties: the kernels agree on the count, the first
//    solution is a solution (checked by is_solution, independent of the
//    solvers), and to_line() parses back to the same cells.
//  - mode 3: the text is a puzzle file given to `count --puzzle-file`;
//    properties: exit status 0, 1 or 2, and status 2 prints exactly one
//    line on stderr starting "count: " and nothing on stdout.
#include <array>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "cli/problems.hpp"
#include "fuzz_support.hpp"
#include "pcount/sudoku/puzzle.hpp"
#include "pcount/sudoku/solver.hpp"

namespace {

using pcount::fuzz::broken;
namespace sudoku = pcount::sudoku;

constexpr std::array<sudoku::BoxShape, 8> kShapes{{{3, 3}, {2, 3}, {3, 2}, {2, 2}, {1, 4}, {2, 4}, {4, 4}, {3, 4}}};

void parse_and_solve(const sudoku::BoxShape& shape, std::string_view text) {
  sudoku::Puzzle puzzle;
  try {
    puzzle = sudoku::parse_puzzle(text, shape);
  } catch (const sudoku::PuzzleError&) {
    return;  // a clear refusal is the expected outcome for most inputs
  }
  if (puzzle.cells.size() != static_cast<std::size_t>(shape.cells())) broken("parsed puzzle has the wrong size");
  if (sudoku::parse_puzzle(sudoku::to_line(puzzle.cells), shape).cells != puzzle.cells)
    broken("to_line does not parse back to the same cells");
  if (shape.side() > 9) return;  // sparse 12×12 and 16×16 puzzles can take long to refute

  std::array<sudoku::Kernel, 3> kernels{sudoku::Kernel::general, sudoku::Kernel::fast9, sudoku::Kernel::simd9};
  const std::size_t used = shape == sudoku::BoxShape{3, 3} ? 3 : 1;
  std::uint64_t first_count = 0;
  for (std::size_t k = 0; k < used; ++k) {
    const sudoku::SolveResult r = sudoku::solve(puzzle, 2, kernels[k]);
    if (r.solutions > 2) broken("more solutions reported than the limit");
    if (r.solutions > 0 && !sudoku::is_solution(puzzle, r.first)) broken("first solution is not a solution");
    if (r.solutions == 0 && !r.first.empty()) broken("a first solution without a count");
    if (k == 0) first_count = r.solutions;
    else if (r.solutions != first_count)
      broken("kernels disagree: general " + std::to_string(first_count) + ", " +
             sudoku::kernel_name(kernels[k]) + " " + std::to_string(r.solutions));
  }
}

void puzzle_file(std::string_view text) {
  const auto path = pcount::fuzz::scratch_dir() / "puzzles.txt";
  pcount::fuzz::write_file(path, text);
  const std::string p = path.string();
  const char* argv[] = {"count", "--puzzle-file", p.c_str(), "--threads", "1", "--limit", "2", "--quiet"};
  std::ostringstream out, err;
  const int status = pcount::driver::main(static_cast<int>(std::size(argv)), argv, pcount::cli::count_program(), out, err);
  if (status != 0 && status != 1 && status != 2) broken("exit status " + std::to_string(status));
  if (err.str().rfind("count: internal error", 0) == 0 || err.str().find("\ncount: internal error") != std::string::npos) broken("internal error: " + err.str());
  if (status == 2) {
    const std::string e = err.str();
    if (!out.str().empty()) broken("exit 2 printed on stdout");
    if (e.rfind("count: ", 0) != 0 || e.find('\n') != e.size() - 1) broken("exit 2 without one 'count: ' line: " + e);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const unsigned mode = data[0] % 4;
  if (mode == 3) puzzle_file(text);
  else parse_and_solve(kShapes[(data[0] / 4) % kShapes.size()], text);
  return 0;
}
