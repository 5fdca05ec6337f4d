#pragma once
/// @file
/// Regular bipartite graphs between columns and symbols, their ordered
/// 1-factorisations, and nauty canonical forms (McKay & Rogoyski 1995,
/// McKay & Wanless 2005; docs/latin.md, docs/sources.md).
///
/// A k×n Latin rectangle is an ordered 1-factorisation of the k-regular
/// bipartite graph G (column c — symbol s when s appears in column c): row i
/// is perfect matching i. N(G) = number of ordered 1-factorisations.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pcount/u128.hpp"

namespace pcount::latin {

/// Largest order the class method handles: n² adjacency bits fit a u128
/// canonical key for n ≤ 11.
inline constexpr int kMaxClassOrder = 11;

/// A bipartite graph on n columns and n symbols, 1 ≤ n ≤ kMaxClassOrder:
/// adj[c] = bitmask of the symbols adjacent to column c.
struct BipGraph {
  int n = 0;
  std::array<std::uint32_t, kMaxClassOrder> adj{};

  /// The complement K_{n,n} − G.
  [[nodiscard]] BipGraph complement() const;
  /// Degree of every vertex if G is regular, else -1.
  [[nodiscard]] int regular_degree() const;
  friend bool operator==(const BipGraph&, const BipGraph&) = default;
};

/// Decodes one graph6 line as written by nauty's genbg for an n+n bipartite
/// graph: vertices 0..n-1 are the columns, n..2n-1 the symbols. Throws
/// std::runtime_error when the line is malformed, has a vertex count other
/// than 2n, or an edge inside one side.
[[nodiscard]] BipGraph from_graph6(std::string_view line, int n);

/// Canonical form and automorphism group size of a bipartite graph, with the
/// colour partition {columns | symbols} (nauty densenauty; work buffers are
/// thread_local, so this is safe to call from several threads).
struct Canonical {
  /// The canonically relabelled adjacency, bit c·n + s: equal for two graphs
  /// exactly when they are isomorphic by a column and a symbol permutation.
  u128 key = 0;
  /// |Aut(G)| for automorphisms preserving both sides.
  std::uint64_t automorphisms = 0;
};

/// nauty's canonical form of `g`. Throws InternalError if nauty reports a
/// group too large to hold exactly.
[[nodiscard]] Canonical canonical(const BipGraph& g);

/// A cheap isomorphism invariant (about 100× faster than canonical()): two
/// rounds of colour refinement seeded with common-neighbour counts on both
/// sides, folded with order-independent 64-bit mixing. Isomorphic graphs
/// (by column and symbol permutations) always get the same value; different
/// classes usually, but not always, get different values — FactorTable
/// checks which values are unique among its classes and falls back to the
/// canonical form for the others, so lookups stay exact.
[[nodiscard]] std::uint64_t invariant_key(const BipGraph& g);

/// invariant_key with a third round of refinement: about 25 % dearer and
/// sharper. FactorTable uses it only for graphs whose invariant_key is
/// shared by two classes (1,423 of the 7,454 3-regular 11+11 classes; 453
/// by this key), before falling back to the canonical form, which costs
/// about 60 invariant keys (bench/latin.cpp).
[[nodiscard]] std::uint64_t deep_invariant_key(const BipGraph& g);

/// N(G) for a d-regular graph by DFS: one matching at a time, column 0's
/// symbols used in increasing order (then × d!), the last two matchings in
/// closed form 2^(cycles-1). Throws InternalError if g is not regular.
[[nodiscard]] u128 count_factorisations(const BipGraph& g);

/// Calls f(H) for H = G − M over every perfect matching M of G that contains
/// the edge (column 0, lowest symbol of column 0); returns how many there
/// were. With these, N(G) = d·Σ_M N(G − M) for d-regular G (peeling).
template <class F>
std::uint64_t for_each_peel(const BipGraph& g, F&& f);

/// The rooted edge pivot: N(G) = d·Σ_{M ∋ e} N(G − M) holds for every edge
/// e, so peeling at the edge that the fewest perfect matchings contain does
/// the fewest lookups. Returns that edge's column and symbol (ties: the
/// first in column, then symbol order), from the permanent's forward and
/// backward programmes over symbol sets (2ⁿ·d steps each). g must have an
/// edge in every column.
struct RootEdge {
  int column = 0;
  int symbol = 0;
};
[[nodiscard]] RootEdge fewest_matchings_edge(const BipGraph& g);

/// for_each_peel over the perfect matchings that contain the edge
/// (`root.column`, `root.symbol`) instead; H is handed over with that
/// column moved to position 0 (a relabelling, which lookups ignore).
template <class F>
std::uint64_t for_each_peel_at(const BipGraph& g, RootEdge root, F&& f);

/// All n+n k-regular bipartite graphs have as many labelled copies as
/// (n!)² / |Aut|; this helper returns (n!)² (n ≤ kMaxClassOrder).
[[nodiscard]] u128 labelled_factor(int n);

// ---------------------------------------------------------------- inline

namespace detail {
template <class F>
struct Peeler {
  const BipGraph& g;
  F& f;
  BipGraph h;
  std::uint64_t count = 0;
  void step(int c, std::uint32_t used) {
    if (c == g.n) {
      ++count;
      f(static_cast<const BipGraph&>(h));
      return;
    }
    std::uint32_t avail = g.adj[static_cast<std::size_t>(c)] & ~used;
    while (avail) {
      const std::uint32_t b = avail & (0u - avail);
      avail ^= b;
      h.adj[static_cast<std::size_t>(c)] ^= b;
      step(c + 1, used | b);
      h.adj[static_cast<std::size_t>(c)] ^= b;
    }
  }
};
}  // namespace detail

template <class F>
std::uint64_t for_each_peel(const BipGraph& g, F&& f) {
  if (g.n == 0 || g.adj[0] == 0) return 0;
  detail::Peeler<F> p{g, f, g};
  const std::uint32_t first = g.adj[0] & (0u - g.adj[0]);
  p.h.adj[0] ^= first;
  p.step(1, first);
  return p.count;
}

template <class F>
std::uint64_t for_each_peel_at(const BipGraph& g, RootEdge root, F&& f) {
  BipGraph moved = g;
  std::swap(moved.adj[0], moved.adj[static_cast<std::size_t>(root.column)]);
  const std::uint32_t first = 1u << root.symbol;
  if (!(moved.adj[0] & first)) return 0;
  detail::Peeler<F> p{moved, f, moved};
  p.h.adj[0] ^= first;
  p.step(1, first);
  return p.count;
}

}  // namespace pcount::latin
