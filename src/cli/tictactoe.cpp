#include "cli/problems.hpp"

namespace pcount::cli {
void add_tictactoe_options(po::options_description&) {}
int run_tictactoe(const Invocation&) { throw InvalidArgument("--tictactoe", "not available yet"); }
}  // namespace pcount::cli
