#pragma once
/// @file
/// The command-line problems of the sudoku kernels (library pcount_problems,
/// src/problems/), for driver::main; the `count` program lists them in
/// src/cli/problems.cpp. They stay in the kernel's namespace.
#include <span>

#include "pcount/driver/problem.hpp"

namespace pcount::sudoku {

/// `--sudoku RxC`: sudoku grids with R×C boxes (e.g. 3x3: 6,670,903,752,021,072,936,960,
/// OEIS A107739); methods search and bands.
[[nodiscard]] std::span<const driver::Problem> grid_problems();

/// `--puzzle P` (the solutions of one puzzle) and `--puzzle-file F` (every
/// puzzle of a file, one result line each).
[[nodiscard]] std::span<const driver::Problem> puzzle_problems();

}  // namespace pcount::sudoku
