#pragma once
/// @file
/// Reproducible sudoku puzzle sets of any box shape (side ≤ 16), for the
/// benchmarks and tests of the general solver (data/sudoku/README.md).
///
/// Method: a random full grid by randomized depth-first search (the general
/// kernel's propagation, its branching cell, the values of that cell in a
/// random order), then a random relabelling of the digits and random
/// permutations of rows within bands, of bands, of columns within stacks
/// and of stacks (each maps a grid to a grid). Then clues are removed in a
/// random order, each removal kept only when the puzzle still has exactly
/// one solution (solve(p, 2) with the general kernel), until `clues` remain
/// or every cell has been tried once (then the puzzle is minimal: no single
/// clue can be removed). This is the usual "dig holes" generator; it draws
/// minimal puzzles far from uniformly, and the sets are benchmarks, not
/// samples with a known distribution.
///
/// Reproducibility: puzzle i of a set depends only on (shape, seed, i,
/// clues) and on this code (the search order of the general kernel), via
/// std::mt19937_64, whose output the C++ standard fixes; draws in a range
/// use rng() % k (no standard-library distribution, whose results differ
/// between libraries).

#include <cstdint>
#include <random>
#include <vector>

#include "pcount/sudoku/puzzle.hpp"

namespace pcount::sudoku {

/// A random full grid of `shape` (values 1..N, row-major) drawn with `rng`.
/// Throws InvalidArgument("box_shape") for a shape check_shape refuses.
[[nodiscard]] std::vector<std::uint8_t> random_grid(const BoxShape& shape, std::mt19937_64& rng);

/// A puzzle with one solution, dug out of random_grid(shape, rng) down to
/// `clues` clues (0, or any number the digging cannot reach: down to a
/// minimal puzzle). Throws InvalidArgument("box_shape") as random_grid.
[[nodiscard]] Puzzle random_puzzle(const BoxShape& shape, int clues, std::mt19937_64& rng);

/// The generator of puzzle `index` of the set with seed `seed`: an
/// mt19937_64 seeded with a SplitMix64 mix of the two, so that each puzzle
/// can be made alone and in any order.
[[nodiscard]] std::mt19937_64 puzzle_rng(std::uint64_t seed, std::uint64_t index);

}  // namespace pcount::sudoku
