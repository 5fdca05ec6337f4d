#pragma once
// Internal helpers shared by the band kernels (src/sudoku/bands_*.cpp) for
// bipartite column–digit graphs given as one digit mask per column.
#include <algorithm>
#include <array>
#include <span>
#include <cstdint>

#include "pcount/u128.hpp"
#include "pcount/graph/canonical.hpp"

namespace pcount::sudoku::detail {

/// Cycles of a 2-regular bipartite graph on n ≤ 32 columns and n digits
/// (adj[c] = the two digits of column c).
inline int cycles_of_two_factor(const std::uint32_t* adj, int n) {
  std::array<std::uint32_t, 32> digit_cols{};  // digit → columns holding it
  for (int c = 0; c < n; ++c)
    for (std::uint32_t m = adj[c]; m; m &= m - 1) digit_cols[static_cast<std::size_t>(__builtin_ctz(m))] |= 1u << c;
  std::uint32_t unvisited = n == 32 ? ~0u : (1u << n) - 1u;
  int cycles = 0;
  while (unvisited) {
    ++cycles;
    int col = __builtin_ctz(unvisited);
    std::uint32_t came = adj[col] & (0u - adj[col]);
    for (;;) {
      unvisited &= ~(1u << col);
      const std::uint32_t leave = adj[col] & ~came;  // the other digit
      const int next = __builtin_ctz(digit_cols[static_cast<std::size_t>(__builtin_ctz(leave))] & ~(1u << col));
      came = leave;
      if (!(unvisited & (1u << next))) break;
      col = next;
    }
  }
  return cycles;
}

/// Canonical key of a bipartite graph with n ≤ 11 columns and n digits: the
/// n² adjacency bits of nauty's canonical labelling, with the colour
/// classes {columns | digits}. With `invariant_cells`, before nauty the
/// vertices are split into cells by an isomorphism invariant (per column,
/// how many other columns share 0, 1, 2, … digits with it; likewise per
/// digit), columns before digits, cells in increasing invariant order: nauty
/// then starts from a finer partition than {columns | digits}, which on
/// regular graphs its refinement cannot split (several times faster for
/// 4-regular 10 + 10 graphs). Isomorphic graphs get equal keys (the
/// invariant and the cell order are preserved by isomorphisms), and equal
/// keys are equal relabelled adjacency matrices, so isomorphic graphs. One
/// object per thread (it keeps nauty buffers).
class BipartiteCanoniser {
public:
  static constexpr int kMaxColumns = 11;

  explicit BipartiteCanoniser(int n, bool invariant_cells = false) : n_(n), invariant_cells_(invariant_cells) {}

  u128 key(const std::uint32_t* cols) {
    if (!invariant_cells_) {
      const int cells[2] = {n_, n_};
      g_.reset(cells);
      for (int col = 0; col < n_; ++col)
        for (std::uint32_t m = cols[col]; m; m &= m - 1) g_.add_edge(col, n_ + __builtin_ctz(m));
      return canonical_bits();
    }
    std::array<std::uint32_t, kMaxColumns> digit_cols{};
    for (int c = 0; c < n_; ++c)
      for (std::uint32_t m = cols[c]; m; m &= m - 1) digit_cols[static_cast<std::size_t>(__builtin_ctz(m))] |= 1u << c;
    // Vertex v (columns 0..n-1, digits n..2n-1) sorts by (invariant, v).
    std::array<std::uint64_t, 2 * kMaxColumns> order{};
    side_order(cols, 0, order.data());
    side_order(digit_cols.data(), n_, order.data() + n_);
    std::array<int, 2 * kMaxColumns> cells{};
    std::array<int, 2 * kMaxColumns> position{};
    int cell_count = 0;
    for (int i = 0; i < 2 * n_; ++i) {
      const auto v = static_cast<int>(order[static_cast<std::size_t>(i)] & 0xFF);
      position[static_cast<std::size_t>(v)] = i;
      const bool new_cell = i == 0 || i == n_ ||
                            (order[static_cast<std::size_t>(i)] >> 8) != (order[static_cast<std::size_t>(i - 1)] >> 8);
      if (new_cell) ++cell_count;
      ++cells[static_cast<std::size_t>(cell_count - 1)];
    }
    g_.reset(std::span<const int>(cells.data(), static_cast<std::size_t>(cell_count)));
    for (int col = 0; col < n_; ++col)
      for (std::uint32_t m = cols[col]; m; m &= m - 1)
        g_.add_edge(position[static_cast<std::size_t>(col)], position[static_cast<std::size_t>(n_ + __builtin_ctz(m))]);
    return canonical_bits();
  }

private:
  u128 canonical_bits() {
    graph::canonical_form(g_, form_);
    u128 k = 0;
    for (int col = 0; col < n_; ++col)
      for (int d = 0; d < n_; ++d)
        if (form_.has_edge(col, n_ + d)) k |= static_cast<u128>(1) << (col * n_ + d);
    return k;
  }

  /// order[i] = invariant << 8 | (first + i) for the n vertices of one side
  /// (masks = their neighbourhoods), sorted.
  void side_order(const std::uint32_t* masks, int first, std::uint64_t* order) const {
    for (int v = 0; v < n_; ++v) {
      std::uint64_t inv = 0;  // 4 bits per overlap size: how many others share that many
      for (int w = 0; w < n_; ++w)
        if (w != v) inv += std::uint64_t{1} << (4 * __builtin_popcount(masks[v] & masks[w]));
      order[v] = inv << 8 | static_cast<std::uint64_t>(first + v);
    }
    std::sort(order, order + n_);
  }

  int n_;
  bool invariant_cells_;
  graph::ColouredGraph g_;
  graph::CanonicalForm form_;
};

}  // namespace pcount::sudoku::detail
