// The problem table: the one place where the `count` program registers a
// problem. A new problem adds one line here and one file src/cli/<name>.cpp
// defining its run (and options) function.
#include "cli/cli.hpp"
#include "cli/problems.hpp"

namespace pcount::cli {

std::span<const ProblemEntry> problems() {
  static const ProblemEntry table[] = {
      {"latin", "N", "reduced Latin squares R(N) and all Latin squares L(N), 1 ≤ N ≤ 16", "latin",
       add_latin_options, run_latin},
      {"sudoku", "RxC", "sudoku grids with boxes of R rows × C columns, e.g. 2x3, 3x3", "sudoku",
       add_sudoku_options, run_sudoku},
      {"queens", "N", "N-Queens solutions: all, distinct under symmetry, symmetric ones, 1 ≤ N ≤ 32", "queens",
       add_queens_options, run_queens},
      {"puzzle", "P", "solutions of one sudoku puzzle (81 cells, '.' or 0 for a blank)", "puzzle",
       add_puzzle_options, run_puzzle},
      {"puzzle-file", "F", "solve every puzzle of file F (one per line, '-' = stdin)", "puzzle", nullptr,
       run_puzzle_file},
      {"bulls-and-cows", "", "evaluate a bulls-and-cows strategy over all 5040 secrets", "codes",
       add_codes_options, run_bulls_and_cows},
      {"mastermind", "", "evaluate a Mastermind strategy (4 pegs, 6 colours) over all 1296 secrets", "codes",
       nullptr, run_mastermind},
      {"kirkman", "", "Kirkman's 15 schoolgirls: count the solutions (or --find one)", "kirkman",
       add_kirkman_options, run_kirkman},
      {"tictactoe", "", "tic-tac-toe game-tree statistics and minimax values", "tictactoe",
       add_tictactoe_options, run_tictactoe},
  };
  return table;
}

}  // namespace pcount::cli
