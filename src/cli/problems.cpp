// The `count` program's problem table: the one place where a problem joins
// `count`. A problem is defined in src/problems/ (options, plan, report;
// library pcount_problems) on top of its kernel library and added here.
#include "cli/problems.hpp"

#include <vector>

#include "pcount/problems/designs.hpp"
#include "pcount/problems/games.hpp"
#include "pcount/problems/latin.hpp"
#include "pcount/problems/queens.hpp"
#include "pcount/problems/sudoku.hpp"

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
