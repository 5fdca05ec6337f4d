#include "pcount/latin/bipartite.hpp"

#include "pcount/graph/canonical.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "pcount/errors.hpp"
#include "pcount/engine/task.hpp"
#include "pcount/latin/search.hpp"


namespace pcount::latin {

BipGraph BipGraph::complement() const {
  BipGraph c;
  c.n = n;
  const std::uint32_t full = (1u << n) - 1u;
  for (int i = 0; i < n; ++i) c.adj[static_cast<std::size_t>(i)] = full & ~adj[static_cast<std::size_t>(i)];
  return c;
}

int BipGraph::regular_degree() const {
  if (n == 0) return 0;
  const int d = std::popcount(adj[0]);
  std::array<int, kMaxClassOrder> sym_deg{};
  for (int c = 0; c < n; ++c) {
    const std::uint32_t a = adj[static_cast<std::size_t>(c)];
    if (std::popcount(a) != d || (a >> n) != 0) return -1;
    for (int s = 0; s < n; ++s)
      if (a >> s & 1u) ++sym_deg[static_cast<std::size_t>(s)];
  }
  for (int s = 0; s < n; ++s)
    if (sym_deg[static_cast<std::size_t>(s)] != d) return -1;
  return d;
}

BipGraph from_graph6(std::string_view line, int n) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  const int v = 2 * n;
  if (n < 1 || n > kMaxClassOrder) throw std::runtime_error("graph6: order out of range");
  if (line.empty() || line[0] != static_cast<char>(v + 63))
    throw std::runtime_error("graph6: expected " + std::to_string(v) + " vertices in '" + std::string(line) + "'");
  const std::size_t bits = static_cast<std::size_t>(v) * static_cast<std::size_t>(v - 1) / 2;
  if (line.size() != 1 + (bits + 5) / 6)
    throw std::runtime_error("graph6: wrong length in '" + std::string(line) + "'");
  BipGraph g;
  g.n = n;
  std::size_t k = 0;
  for (int j = 1; j < v; ++j)
    for (int i = 0; i < j; ++i, ++k) {
      const int ch = line[1 + k / 6] - 63;
      if (ch < 0 || ch > 63) throw std::runtime_error("graph6: bad character in '" + std::string(line) + "'");
      if (!((ch >> (5 - k % 6)) & 1)) continue;
      if ((i < n) == (j < n)) throw std::runtime_error("graph6: edge inside one side in '" + std::string(line) + "'");
      g.adj[static_cast<std::size_t>(i)] |= 1u << (j - n);
    }
  return g;
}

Canonical canonical(const BipGraph& g) {
  // The graph on n column vertices and n symbol vertices, the two sides as
  // two colour cells (so no labelling swaps them).
  thread_local graph::ColouredGraph work;
  thread_local graph::CanonicalForm form;
  const int n = g.n;
  const int cells[2] = {n, n};
  work.reset(cells);
  for (int c = 0; c < n; ++c)
    for (std::uint32_t a = g.adj[static_cast<std::size_t>(c)]; a; a &= a - 1)
      work.add_edge(c, n + std::countr_zero(a));
  graph::canonical_form(work, form);
  Canonical out;
  for (int c = 0; c < n; ++c)
    for (int s = 0; s < n; ++s)
      if (form.has_edge(c, n + s)) out.key |= u128{1} << (c * n + s);
  out.automorphisms = form.automorphisms();
  return out;
}

namespace {

constexpr std::uint64_t mix(std::uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// One refinement round over the pairs of a side (co[k] = the k-th pair's
/// common-neighbour count, pairs (a, b), a < b, in order): each vertex's
/// colour plus `weight` times the sum of the others' colours, each rotated
/// by 5·count + `offset` (distinct for counts 0..11), mixed once. Each pair
/// is visited once and feeds both ends; `out` and `in` do not overlap.
[[gnu::always_inline]] inline void refine_round(int n, const std::uint8_t* co, const std::uint64_t* __restrict in,
                                                std::uint64_t* __restrict out, int offset, std::uint64_t weight) {
  std::uint64_t h[kMaxClassOrder] = {};
  std::size_t k = 0;
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b, ++k) {
      const int r = 5 * co[k] + offset;
      h[a] += std::rotl(in[b], r);
      h[b] += std::rotl(in[a], r);
    }
  for (int a = 0; a < n; ++a) out[a] = mix(in[a] + weight * h[a]);
}

/// One side's colours without a hash per pair: round 0 = the histogram of
/// the common-neighbour counts with the other vertices of the side (4 bits
/// per count value: counts ≤ 10, values ≤ 11), mixed once; round 1 =
/// refine_round of round 0; `deep` (deep_invariant_key) refines round 1
/// once more.
void refine(int n, const std::uint32_t* adj, std::uint64_t* round1, bool deep) {
  std::uint8_t co[kMaxClassOrder * (kMaxClassOrder - 1) / 2];
  std::uint64_t round0[kMaxClassOrder] = {};
  std::size_t k = 0;
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b, ++k) {
      const int v = std::popcount(adj[a] & adj[b]);
      co[k] = static_cast<std::uint8_t>(v);
      round0[a] += std::uint64_t{1} << (4 * v);
      round0[b] += std::uint64_t{1} << (4 * v);
    }
  for (int a = 0; a < n; ++a) round0[a] = mix(round0[a]);
  refine_round(n, co, round0, round1, 1, 0x51ed2701ull);
  if (!deep) return;
  std::uint64_t round2[kMaxClassOrder];
  refine_round(n, co, round1, round2, 3, 0x9e3779b97f4a7c15ull);
  std::copy(round2, round2 + n, round1);
}

}  // namespace

namespace {

std::uint64_t invariant_key_of(const BipGraph& g, bool deep) {
  const int n = g.n;
  std::uint32_t sym[kMaxClassOrder] = {};
  for (int c = 0; c < n; ++c) {
    std::uint32_t a = g.adj[static_cast<std::size_t>(c)];
    while (a) {
      const int s = std::countr_zero(a);
      a &= a - 1;
      sym[s] |= 1u << c;
    }
  }
  std::uint64_t c1[kMaxClassOrder], s1[kMaxClassOrder];
  refine(n, g.adj.data(), c1, deep);
  refine(n, sym, s1, deep);
  // Cross round: each column with the colours of its symbols, and back
  // (round-1 colours are mixed already, so they are summed as they are).
  std::uint64_t key = 0;
  for (int c = 0; c < n; ++c) {
    std::uint64_t h = 0;
    for (std::uint32_t a = g.adj[static_cast<std::size_t>(c)]; a; a &= a - 1) h += s1[std::countr_zero(a)];
    key += mix(c1[c] + 0x2545f4914f6cdd1dull * h);
  }
  for (int s = 0; s < n; ++s) {
    std::uint64_t h = 0;
    for (std::uint32_t a = sym[s]; a; a &= a - 1) h += c1[std::countr_zero(a)];
    key += mix(std::rotl(s1[s], 17) + 0x9e3779b97f4a7c15ull * h);
  }
  return key;
}

}  // namespace

std::uint64_t invariant_key(const BipGraph& g) { return invariant_key_of(g, false); }

std::uint64_t deep_invariant_key(const BipGraph& g) { return invariant_key_of(g, true); }

namespace {
struct Factoriser {
  int n;
  int d;
  std::array<std::uint32_t, kMaxClassOrder> rem;
  std::array<std::uint32_t, kMaxClassOrder> col0;  // column 0's symbols in increasing order
  u128 leaves = 0;
  engine::StopPoll<> poll{};  // stop check every 2¹⁶ matchings (each ≥ n cell nodes)

  void matching(int i) {
    poll.tick();
    if (i == d - 2) {
      std::uint32_t missing[kMaxClassOrder];
      for (int c = 0; c < n; ++c) missing[c] = rem[static_cast<std::size_t>(c)];
      leaves += last_two_rows(missing, n);
      return;
    }
    const std::uint32_t b = col0[static_cast<std::size_t>(i)];
    rem[0] ^= b;
    cell(i, 1, b);
    rem[0] ^= b;
  }
  void cell(int i, int c, std::uint32_t used) {
    if (c == n) {
      matching(i + 1);
      return;
    }
    std::uint32_t avail = rem[static_cast<std::size_t>(c)] & ~used;
    while (avail) {
      const std::uint32_t b = avail & (0u - avail);
      avail ^= b;
      rem[static_cast<std::size_t>(c)] ^= b;
      cell(i, c + 1, used | b);
      rem[static_cast<std::size_t>(c)] ^= b;
    }
  }
};
}  // namespace

u128 count_factorisations(const BipGraph& g) {
  const int d = g.regular_degree();
  if (d < 0) throw InternalError("count_factorisations: graph is not regular");
  if (d <= 1) return 1;
  Factoriser f{g.n, d, g.adj, {}, 0};
  std::uint32_t a = g.adj[0];
  for (int i = 0; i < d; ++i) {
    f.col0[static_cast<std::size_t>(i)] = a & (0u - a);
    a &= a - 1;
  }
  f.matching(0);
  u128 df = 1;
  for (int i = 2; i <= d; ++i) df *= static_cast<u128>(i);
  return checked_mul(f.leaves, df);
}

RootEdge fewest_matchings_edge(const BipGraph& g) {
  const int n = g.n;
  const std::uint32_t full = (1u << n) - 1u;
  // fwd[S]: matchings of columns 0..|S|−1 onto S; bwd[U]: of columns
  // n−|U|..n−1 onto U. Counts of perfect matchings fit 64 bits (≤ 11!).
  thread_local std::vector<std::uint64_t> fwd, bwd;
  fwd.assign(std::size_t{1} << n, 0);
  bwd.assign(std::size_t{1} << n, 0);
  fwd[0] = 1;
  bwd[0] = 1;
  for (std::uint32_t s = 0; s < full; ++s) {
    const int c = std::popcount(s);
    if (fwd[s])
      for (std::uint32_t a = g.adj[static_cast<std::size_t>(c)] & ~s; a; a &= a - 1) fwd[s | (a & (0u - a))] += fwd[s];
    if (bwd[s])
      for (std::uint32_t a = g.adj[static_cast<std::size_t>(n - 1 - c)] & ~s; a; a &= a - 1)
        bwd[s | (a & (0u - a))] += bwd[s];
  }
  std::array<std::array<std::uint64_t, kMaxClassOrder>, kMaxClassOrder> through{};
  for (std::uint32_t s = 0; s < full; ++s) {
    if (!fwd[s]) continue;
    const int c = std::popcount(s);
    for (std::uint32_t a = g.adj[static_cast<std::size_t>(c)] & ~s; a; a &= a - 1) {
      const std::uint32_t b = a & (0u - a);
      through[static_cast<std::size_t>(c)][static_cast<std::size_t>(std::countr_zero(b))] +=
          fwd[s] * bwd[full & ~(s | b)];
    }
  }
  RootEdge best;
  std::uint64_t fewest = ~std::uint64_t{0};
  for (int c = 0; c < n; ++c)
    for (std::uint32_t a = g.adj[static_cast<std::size_t>(c)]; a; a &= a - 1) {
      const int s = std::countr_zero(a);
      if (through[static_cast<std::size_t>(c)][static_cast<std::size_t>(s)] < fewest) {
        fewest = through[static_cast<std::size_t>(c)][static_cast<std::size_t>(s)];
        best = RootEdge{c, s};
      }
    }
  return best;
}

u128 labelled_factor(int n) {
  u128 f = 1;
  for (int i = 2; i <= n; ++i) f *= static_cast<u128>(i);
  return f * f;
}

}  // namespace pcount::latin
