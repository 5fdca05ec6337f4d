#pragma once
/// @file
/// The command-line problems of this concept, for driver::main (the `count`
/// program lists them in src/cli/problems.cpp).
#include <span>

#include "pcount/driver/driver.hpp"

namespace pcount::games {

/// `--bulls-and-cows` and `--mastermind`: a strategy evaluated over every secret.
[[nodiscard]] std::span<const driver::Problem> code_problems();

/// `--tictactoe`: game-tree statistics and minimax values.
[[nodiscard]] std::span<const driver::Problem> tictactoe_problems();

}  // namespace pcount::games
