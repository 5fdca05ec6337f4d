#pragma once
/// @file
/// The command-line problems of the designs kernels (library pcount_problems,
/// src/problems/), for driver::main; the `count` program lists them in
/// src/cli/problems.cpp. They stay in the kernel's namespace.
#include <span>

#include "pcount/driver/problem.hpp"

namespace pcount::designs {

/// `--kirkman`: Kirkman's 15 schoolgirls — count the solutions (2,021,760
/// with day 1 fixed, days unordered), --classes (7 up to isomorphism, over 4
/// Steiner triple systems; Cole 1922) or --find one.
[[nodiscard]] std::span<const driver::Problem> problems();

}  // namespace pcount::designs
