#include "cli/problems.hpp"

namespace pcount::cli {
void add_kirkman_options(po::options_description&) {}
int run_kirkman(const Invocation&) { throw InvalidArgument("--kirkman", "not available yet"); }
}  // namespace pcount::cli
