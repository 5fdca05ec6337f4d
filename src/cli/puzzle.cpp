#include "cli/problems.hpp"

namespace pcount::cli {
void add_puzzle_options(po::options_description&) {}
int run_puzzle(const Invocation&) { throw InvalidArgument("--puzzle", "not available yet"); }
int run_puzzle_file(const Invocation&) { throw InvalidArgument("--puzzle-file", "not available yet"); }
}  // namespace pcount::cli
