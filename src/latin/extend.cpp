#include "pcount/latin/extend.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
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

/// X_2(H): state = the symbol sets of both rows after c columns, indexed
/// rank(S1)·C(n,c) + rank(S2). Swapping the two rows maps solutions to
/// solutions, so f(S1,S2) = f(S2,S1) and only the states with
/// rank(S1) ≤ rank(S2) are kept: a kept state with S1 ≠ S2 stands for
/// itself and its mirror, whose moves are the mirrored moves. The loops run
/// state row, first row's symbol, second set, so the writes stay in one row
/// of the next layer (1.5× faster than second set outside; twice the speed
/// of the unfolded programme, bench/latin.cpp BM_RowExtensions).
template <class T>
T two_rows(const BipGraph& h, const SubsetRanks& r) {
  thread_local std::vector<T> cur, next;
  cur.assign(1, T{1});
  for (int c = 0; c < h.n; ++c) {
    const auto& sets = r.by_size[static_cast<std::size_t>(c)];
    const std::size_t m = sets.size();
    const std::size_t m1 = r.by_size[static_cast<std::size_t>(c) + 1].size();
    next.assign(m1 * m1, T{0});
    const std::uint32_t adj = h.adj[static_cast<std::size_t>(c)];
    for (std::size_t i1 = 0; i1 < m; ++i1) {
      const std::uint32_t s1 = sets[i1];
      const T* row = &cur[i1 * m];
      for (std::uint32_t x = adj & ~s1; x; x &= x - 1) {
        const std::uint32_t b1 = x & (0u - x);
        const std::size_t t1 = r.rank[s1 | b1];
        T* out = &next[t1 * m1];
        if (const T v = row[i1]; v != 0)  // S2 = S1: its own mirror
          for (std::uint32_t y = adj & ~s1 & ~b1; y; y &= y - 1) {
            const std::size_t t2 = r.rank[s1 | (y & (0u - y))];
            if (t1 <= t2) out[t2] += v;
          }
        for (std::size_t i2 = i1 + 1; i2 < m; ++i2) {
          const T v = row[i2];
          if (v == 0) continue;
          const std::uint32_t s2 = sets[i2];
          for (std::uint32_t y = adj & ~s2 & ~b1; y; y &= y - 1) {
            const std::size_t t2 = r.rank[s2 | (y & (0u - y))];
            if (t1 < t2)
              out[t2] += v;
            else if (t1 > t2)
              next[t2 * m1 + t1] += v;
            else
              out[t2] += v + v;  // the move and its mirror reach the same state
          }
        }
      }
    }
    cur.swap(next);
  }
  return cur[0];
}

/// Whether every partial count of X_e(H) fits 64 bits: a column offers at
/// most d(d−1)…(d−e+1) choices, so (that)ⁿ bounds the sum over states.
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
