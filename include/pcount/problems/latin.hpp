#pragma once
/// @file
/// The command-line problems of the latin kernels (library pcount_problems,
/// src/problems/), for driver::main; the `count` program lists them in
/// src/cli/problems.cpp. They stay in the kernel's namespace.
#include <span>

#include "pcount/driver/problem.hpp"

namespace pcount::latin {

/// `--latin N [--rows K]`: reduced Latin squares R(N) (OEIS A000315) and
/// rectangles R(K,N), with all Latin squares L(N) (A002860) derived; methods
/// search and classes (nauty graph classes, --cache-dir).
[[nodiscard]] std::span<const driver::Problem> problems();

}  // namespace pcount::latin
