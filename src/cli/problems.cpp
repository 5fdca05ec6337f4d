// The `count` program's problem table: the one place where a problem joins
// `count`. A problem is defined in its concept folder (src/<concept>/
// problem.cpp: options, plan, report) and added here.
#include "cli/problems.hpp"

#include <vector>

#include "pcount/designs/problem.hpp"
#include "pcount/games/problem.hpp"
#include "pcount/latin/problem.hpp"
#include "pcount/queens/problem.hpp"
#include "pcount/sudoku/problem.hpp"

namespace pcount::cli {

const driver::Program& count_program() {
  static const std::vector<driver::Problem> table = [] {
    std::vector<driver::Problem> all;
    for (const auto part : {latin::problems(), sudoku::grid_problems(), queens::problems(),
                            sudoku::puzzle_problems(), games::code_problems(), designs::problems(),
                            games::tictactoe_problems()})
      all.insert(all.end(), part.begin(), part.end());
    return all;
  }();
  static const driver::Program program{"count", "Counts combinatorial objects exactly, in parallel", table};
  return program;
}

}  // namespace pcount::cli
