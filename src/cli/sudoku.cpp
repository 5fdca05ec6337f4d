#include "cli/problems.hpp"

namespace pcount::cli {
void add_sudoku_options(po::options_description&) {}
int run_sudoku(const Invocation&) { throw InvalidArgument("--sudoku", "not available yet"); }
}  // namespace pcount::cli
