#pragma once
/// @file
/// The command-line problems of the games kernels (library pcount_problems,
/// src/problems/), for driver::main; the `count` program lists them in
/// src/cli/problems.cpp. They stay in the kernel's namespace.
#include <span>

#include "pcount/driver/problem.hpp"

namespace pcount::games {

/// `--bulls-and-cows` and `--mastermind`: a strategy evaluated over every secret.
[[nodiscard]] std::span<const driver::Problem> code_problems();

/// `--tictactoe`: game-tree statistics and minimax values.
[[nodiscard]] std::span<const driver::Problem> tictactoe_problems();

}  // namespace pcount::games
