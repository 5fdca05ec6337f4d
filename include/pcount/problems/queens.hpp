#pragma once
/// @file
/// The command-line problems of the queens kernels (library pcount_problems,
/// src/problems/), for driver::main; the `count` program lists them in
/// src/cli/problems.cpp. They stay in the kernel's namespace.
#include <span>

#include "pcount/driver/problem.hpp"

namespace pcount::queens {

/// `--queens N` (1 ≤ N ≤ 32): all, distinct (under the 8 symmetries of the
/// square) and rotation-symmetric solutions; methods search and
/// constellations; --show/--ascii/--svg draw distinct solutions. Known
/// values: OEIS A000170 (all), A002562 (distinct).
[[nodiscard]] std::span<const driver::Problem> problems();

}  // namespace pcount::queens
