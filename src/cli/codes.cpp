#include "cli/problems.hpp"

namespace pcount::cli {
void add_codes_options(po::options_description&) {}
int run_bulls_and_cows(const Invocation&) { throw InvalidArgument("--bulls-and-cows", "not available yet"); }
int run_mastermind(const Invocation&) { throw InvalidArgument("--mastermind", "not available yet"); }
}  // namespace pcount::cli
