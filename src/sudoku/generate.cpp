// Reproducible puzzle sets of any box shape (generate.hpp).
#include "pcount/sudoku/generate.hpp"

#include <bit>
#include <numeric>
#include <utility>

#include "pcount/sudoku/solver.hpp"
#include "pcount/sudoku/solver_kernels.hpp"

namespace pcount::sudoku {

namespace {

using detail::GeneralKernel;

/// A draw in [0, k), k ≥ 1 (rng() % k: the bias is below 2^-50 for k ≤ 256).
std::size_t below(std::mt19937_64& rng, std::size_t k) { return static_cast<std::size_t>(rng() % k); }

template <class T>
void shuffle(std::vector<T>& v, std::mt19937_64& rng) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(rng, i)]);
}

/// Depth-first search for one completion of `s`, values of each branching
/// cell in random order; false when there is none or after `budget` nodes.
bool complete(const GeneralKernel& kernel, GeneralKernel::State& s, std::mt19937_64& rng, std::uint64_t& budget) {
  if (kernel.solved(s)) return true;
  const detail::Branch br = kernel.choose(s);
  std::vector<int> values;
  for (std::uint32_t m = br.candidates; m; m &= m - 1) values.push_back(std::countr_zero(m));
  shuffle(values, rng);
  for (int v : values) {
    if (budget == 0) return false;
    --budget;
    GeneralKernel::State t = s;
    if (kernel.assign(t, br.cell, v) && complete(kernel, t, rng, budget)) {
      s = t;
      return true;
    }
  }
  return false;
}

/// A random order of `groups` groups of `size` consecutive indices, each
/// group's members shuffled too: new index → old index.
std::vector<int> block_permutation(int groups, int size, std::mt19937_64& rng) {
  std::vector<int> order(static_cast<std::size_t>(groups));
  std::iota(order.begin(), order.end(), 0);
  shuffle(order, rng);
  std::vector<int> map;
  for (int g : order) {
    std::vector<int> inner(static_cast<std::size_t>(size));
    std::iota(inner.begin(), inner.end(), g * size);
    shuffle(inner, rng);
    map.insert(map.end(), inner.begin(), inner.end());
  }
  return map;
}

}  // namespace

std::vector<std::uint8_t> random_grid(const BoxShape& shape, std::mt19937_64& rng) {
  check_shape(shape);
  const int n = shape.side();
  const Puzzle empty{shape, std::vector<std::uint8_t>(static_cast<std::size_t>(shape.cells()), 0)};
  const GeneralKernel kernel(empty);
  GeneralKernel::State s;
  for (;;) {  // restarts after a search that ran too long (rare, heavy-tailed)
    std::uint64_t budget = 100'000;
    if (kernel.start(s) && complete(kernel, s, rng, budget)) break;
  }
  std::vector<std::uint8_t> grid(static_cast<std::size_t>(shape.cells()));
  kernel.write(s, grid.data());
  // Relabel digits; permute bands (C of R rows) and stacks (R of C columns).
  std::vector<int> digit(static_cast<std::size_t>(n));
  std::iota(digit.begin(), digit.end(), 1);
  shuffle(digit, rng);
  const std::vector<int> row = block_permutation(shape.cols, shape.rows, rng);
  const std::vector<int> col = block_permutation(shape.rows, shape.cols, rng);
  std::vector<std::uint8_t> out(grid.size());
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      out[static_cast<std::size_t>(r * n + c)] = static_cast<std::uint8_t>(
          digit[static_cast<std::size_t>(grid[static_cast<std::size_t>(row[static_cast<std::size_t>(r)] * n + col[static_cast<std::size_t>(c)])] - 1)]);
  return out;
}

Puzzle random_puzzle(const BoxShape& shape, int clues, std::mt19937_64& rng) {
  Puzzle p{shape, random_grid(shape, rng)};
  std::vector<int> order(p.cells.size());
  std::iota(order.begin(), order.end(), 0);
  shuffle(order, rng);
  int left = static_cast<int>(p.cells.size());
  for (int i : order) {
    if (left <= clues) break;
    const std::uint8_t v = p.cells[static_cast<std::size_t>(i)];
    p.cells[static_cast<std::size_t>(i)] = 0;
    const SolveResult r = solve(p, 2, Kernel::general);
    if (r.solutions == 1 && !r.limit_reached) --left;
    else p.cells[static_cast<std::size_t>(i)] = v;
  }
  return p;
}

std::mt19937_64 puzzle_rng(std::uint64_t seed, std::uint64_t index) {
  // SplitMix64 (Steele, Lea & Flood 2014) of the seed and the index.
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (index + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return std::mt19937_64(z ^ (z >> 31));
}

}  // namespace pcount::sudoku
