#pragma once
// The `count` program: every problem of pcount under one driver.
#include "pcount/driver/program.hpp"

namespace pcount::cli {

/// The `count` program (src/cli/problems.cpp): its name, summary and problem
/// table — the one place where a problem joins `count`.
[[nodiscard]] const driver::Program& count_program();

}  // namespace pcount::cli
