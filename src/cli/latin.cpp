#include "cli/problems.hpp"

namespace pcount::cli {
void add_latin_options(po::options_description&) {}
int run_latin(const Invocation&) { throw InvalidArgument("--latin", "not available yet"); }
}  // namespace pcount::cli
