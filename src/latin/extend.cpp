#include "pcount/latin/extend.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pcount/errors.hpp"

namespace pcount::latin {

namespace {

/// The subsets of {0, …, n−1} grouped by size, and each subset's rank in
/// its group: a dense index for the programme's states.
struct SubsetRanks {
  std::array<std::vector<std::uint32_t>, kMaxClassOrder + 1> by_size;
  std::vector<std::uint32_t> rank;  // rank[mask] = position of mask in by_size[popcount(mask)]
  explicit SubsetRanks(int n) : rank(std::size_t{1} << n) {
    for (std::uint32_t m = 0; m < (1u << n); ++m) {
      auto& group = by_size[static_cast<std::size_t>(std::popcount(m))];
      rank[m] = static_cast<std::uint32_t>(group.size());
      group.push_back(m);
    }
  }
};

const SubsetRanks& subset_ranks(int n) {
  static const std::array<SubsetRanks, kMaxClassOrder + 1> all = [] {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::array<SubsetRanks, kMaxClassOrder + 1>{SubsetRanks(static_cast<int>(I))...};
    }
    (std::make_index_sequence<kMaxClassOrder + 1>{});
  }();
  return all[static_cast<std::size_t>(n)];
}

/// X_1(H), the permanent: state = the symbols used by the first c columns.
template <class T>
T one_row(const BipGraph& h, const SubsetRanks& r) {
  thread_local std::vector<T> cur, next;
  cur.assign(1, T{1});
  for (int c = 0; c < h.n; ++c) {
    const auto& sets = r.by_size[static_cast<std::size_t>(c)];
    next.assign(r.by_size[static_cast<std::size_t>(c) + 1].size(), T{0});
    for (std::size_t i = 0; i < sets.size(); ++i) {
      const T v = cur[i];
      if (v == 0) continue;
      for (std::uint32_t a = h.adj[static_cast<std::size_t>(c)] & ~sets[i]; a; a &= a - 1)
        next[r.rank[sets[i] | (a & (0u - a))]] += v;
    }
    cur.swap(next);
  }
  return cur[0];
}

/// out[t][k] = Σ_{x ∈ T∩adj} in[rank(T − x)][k] for every set T of size
/// c+1 (sets_next, t its rank) and k < len: one column's move of one row,
/// applied to the first index of a matrix whose rows hold `len` counts.
template <class T>
void add_down_rows(const T* in, T* out, std::size_t len, const std::vector<std::uint32_t>& sets_next, std::uint32_t adj,
                   const SubsetRanks& r) {
  for (std::size_t t = 0; t < sets_next.size(); ++t) {
    T* __restrict o = out + t * len;
    std::uint32_t a = sets_next[t] & adj;
    if (a == 0) {
      std::fill(o, o + len, T{0});
      continue;
    }
    const auto row = [&](std::uint32_t b) { return in + std::size_t{r.rank[sets_next[t] ^ b]} * len; };
    std::copy(row(a & (0u - a)), row(a & (0u - a)) + len, o);
    for (a &= a - 1; a; a &= a - 1) {
      const T* __restrict i = row(a & (0u - a));
      for (std::size_t k = 0; k < len; ++k) o[k] += i[k];
    }
  }
}

/// out[j][i] = in[i][j] for i0 ≤ i < i1, j0 ≤ j < j1 (row lengths in_len and
/// out_len); full 8×8 tiles take the unrolled path.
template <class T>
void transpose_tile(const T* in, std::size_t in_len, T* out, std::size_t out_len, std::size_t i0, std::size_t i1,
                    std::size_t j0, std::size_t j1) {
  constexpr std::size_t kTile = 8;
  if (i1 - i0 == kTile && j1 - j0 == kTile) {
    T tile[kTile][kTile];
    for (std::size_t i = 0; i < kTile; ++i)
      for (std::size_t j = 0; j < kTile; ++j) tile[j][i] = in[(i0 + i) * in_len + j0 + j];
    for (std::size_t j = 0; j < kTile; ++j)
      for (std::size_t i = 0; i < kTile; ++i) out[(j0 + j) * out_len + i0 + i] = tile[j][i];
    return;
  }
  for (std::size_t i = i0; i < i1; ++i)
    for (std::size_t j = j0; j < j1; ++j) out[j * out_len + i] = in[i * in_len + j];
}

/// Copies the lower triangle of an n×n matrix onto the upper one, in 8×8
/// tiles (the diagonal tiles entry by entry).
template <class T>
void mirror_lower(T* f, std::size_t n) {
  constexpr std::size_t kTile = 8;
  for (std::size_t i0 = 0; i0 < n; i0 += kTile) {
    const std::size_t i1 = std::min(n, i0 + kTile);
    for (std::size_t i = i0; i < i1; ++i)
      for (std::size_t j = i0; j < i; ++j) f[j * n + i] = f[i * n + j];
    for (std::size_t j0 = 0; j0 < i0; j0 += kTile) transpose_tile(f, n, f, n, i0, i1, j0, j0 + kTile);
  }
}

/// Work space of two_rows: three matrices of up to C(n,⌊n/2⌋)² counts, the
/// gather lists of the second pass and the index lists of one symbol's
/// correction.
template <class T>
struct TwoRowBuffers {
  std::vector<T> cur, down, next;
  std::vector<std::uint32_t> from, to, offsets, sources;
  explicit TwoRowBuffers(std::size_t cells) : cur(cells), down(cells), next(cells) {}
};

/// One column of two_rows: f (C(n,c)² counts in b.cur) to f' (C(n,c+1)² in
/// b.next) for the symbols adj of the column.
template <class T>
void two_rows_column(TwoRowBuffers<T>& b, const std::vector<std::uint32_t>& sets,
                     const std::vector<std::uint32_t>& sets_next, std::uint32_t adj, const SubsetRanks& r) {
  const std::size_t m = sets.size(), m1 = sets_next.size();
  add_down_rows(b.cur.data(), b.down.data(), m, sets_next, adj, r);  // (D·f)[T2][S1]
  // (D·(D·f)ᵀ)[T1][T2] = Σ_{x∈T1∩A} (D·f)[T2][T1−x], filled for T1 ≤ T2 as
  // row T2 of the lower triangle: a gather inside one row of D·f.
  b.offsets.clear();
  b.sources.clear();
  for (std::size_t t = 0; t < m1; ++t) {
    b.offsets.push_back(static_cast<std::uint32_t>(b.sources.size()));
    for (std::uint32_t a = sets_next[t] & adj; a; a &= a - 1)
      b.sources.push_back(r.rank[sets_next[t] ^ (a & (0u - a))]);
  }
  b.offsets.push_back(static_cast<std::uint32_t>(b.sources.size()));
  const std::uint32_t* __restrict offsets = b.offsets.data();
  const std::uint32_t* __restrict sources = b.sources.data();
  for (std::size_t t2 = 0; t2 < m1; ++t2) {
    const T* __restrict d = &b.down[t2 * m];
    T* __restrict o = &b.next[t2 * m1];
    for (std::size_t t1 = 0; t1 <= t2; ++t1) {
      T sum{0};
      for (std::uint32_t k = offsets[t1]; k < offsets[t1 + 1]; ++k) sum += d[sources[k]];
      o[t1] = sum;
    }
  }
  for (std::uint32_t a = adj; a; a &= a - 1) {  // both rows took symbol x
    const std::uint32_t x = a & (0u - a);
    b.from.clear();
    b.to.clear();
    for (std::size_t j = 0; j < m; ++j)
      if ((sets[j] & x) == 0) {
        b.from.push_back(static_cast<std::uint32_t>(j));
        b.to.push_back(r.rank[sets[j] | x]);
      }
    // S ↦ S ∪ {x} keeps the order of ranks, so u ≤ v stays in the lower triangle.
    const std::uint32_t* __restrict from = b.from.data();
    const std::uint32_t* __restrict to = b.to.data();
    for (std::size_t v = 0; v < b.from.size(); ++v) {
      const T* __restrict i = &b.cur[std::size_t{from[v]} * m];
      T* __restrict o = &b.next[std::size_t{to[v]} * m1];
      for (std::size_t u = 0; u <= v; ++u) o[to[u]] -= i[from[u]];
    }
  }
  mirror_lower(b.next.data(), m1);
}

/// X_2(H): state = the symbol sets (S1, S2) of both rows after c columns,
/// a C(n,c)×C(n,c) matrix f, symmetric because swapping the rows maps
/// solutions to solutions. Column c moves both rows:
///   f'(T1,T2) = Σ_{x∈T1∩A} Σ_{y∈T2∩A} f(T1−x, T2−y) − Σ_{x∈T1∩T2∩A} f(T1−x, T2−x)
/// with A the symbols adjacent to c. The double sum is D·f·Dᵀ for the
/// one-row move D: whole-row additions for D·f, then a gather inside each
/// row of D·f for the lower triangle of (D·f)·Dᵀ; the second sum removes
/// the moves that give both rows the same symbol; the lower triangle is
/// then mirrored (two_rows_column). Counts wrap modulo 2^64 (or 2^128) in
/// between and the result is exact whenever it fits (fits_64).
template <class T>
T two_rows(const BipGraph& h, const SubsetRanks& r) {
  const std::size_t widest = r.by_size[static_cast<std::size_t>(h.n / 2)].size();
  thread_local std::vector<std::unique_ptr<TwoRowBuffers<T>>> per_order(kMaxClassOrder + 1);
  auto& slot = per_order[static_cast<std::size_t>(h.n)];
  if (!slot) slot = std::make_unique<TwoRowBuffers<T>>(widest * widest);
  TwoRowBuffers<T>& b = *slot;
  b.cur[0] = T{1};
  for (int c = 0; c < h.n; ++c) {
    two_rows_column(b, r.by_size[static_cast<std::size_t>(c)], r.by_size[static_cast<std::size_t>(c) + 1],
                    h.adj[static_cast<std::size_t>(c)], r);
    b.cur.swap(b.next);
  }
  return b.cur[0];
}

/// Whether X_e(H) fits 64 bits: a column offers at most d(d−1)…(d−e+1)
/// choices, so (that)ⁿ bounds the count, and sums taken modulo 2^64 are
/// then exact.
bool fits_64(const BipGraph& h, int e) {
  int d = 0;
  for (int c = 0; c < h.n; ++c) d = std::max(d, std::popcount(h.adj[static_cast<std::size_t>(c)]));
  double per_column = 1;
  for (int i = 0; i < e; ++i) per_column *= std::max(d - i, 1);
  return std::pow(per_column, h.n) < 1.8e19;
}

}  // namespace

u128 row_extensions(const BipGraph& h, int e) {
  if (e < 0 || e > kMaxExtensionRows)
    throw InvalidArgument(
        "rows", "row extension adds 0 to " + std::to_string(kMaxExtensionRows) + " rows, got " + std::to_string(e));
  if (h.n < 1 || h.n > kMaxClassOrder) throw InternalError("row_extensions: order out of range");
  if (e == 0) return 1;
  const SubsetRanks& r = subset_ranks(h.n);
  if (fits_64(h, e)) return e == 1 ? one_row<std::uint64_t>(h, r) : two_rows<std::uint64_t>(h, r);
  return e == 1 ? one_row<u128>(h, r) : two_rows<u128>(h, r);
}

}  // namespace pcount::latin
