#pragma once
// Internal helpers shared by the band kernels (src/sudoku/bands_*.cpp) for
// bipartite column–digit graphs given as one digit mask per column.
#include <array>
#include <cstdint>

#include "pcount/engine/u128.hpp"
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

/// Canonical key of a bipartite graph with n ≤ 11 columns and n digits
/// (colour classes {columns | digits}, so columns never map to digits): the
/// n² adjacency bits of nauty's canonical labelling. Equal keys ⇔
/// isomorphic graphs. One object per thread (it keeps nauty buffers).
class BipartiteCanoniser {
public:
  static constexpr int kMaxColumns = 11;

  explicit BipartiteCanoniser(int n) : n_(n) {}

  u128 key(const std::uint32_t* cols) {
    const int cells[2] = {n_, n_};  // columns | digits
    g_.reset(cells);
    for (int col = 0; col < n_; ++col)
      for (std::uint32_t m = cols[col]; m; m &= m - 1) g_.add_edge(col, n_ + __builtin_ctz(m));
    graph::canonical_form(g_, form_);
    u128 k = 0;
    for (int col = 0; col < n_; ++col)
      for (int d = 0; d < n_; ++d)
        if (form_.has_edge(col, n_ + d)) k |= static_cast<u128>(1) << (col * n_ + d);
    return k;
  }

private:
  int n_;
  graph::ColouredGraph g_;
  graph::CanonicalForm form_;
};

}  // namespace pcount::sudoku::detail
