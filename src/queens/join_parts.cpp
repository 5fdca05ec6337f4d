// The queens join's parts: each half's upper and lower rows listed by
// column set, and a group's half placements joined from them (join_parts.hpp).
#include "join_parts.hpp"

#include <algorithm>

#include "join_fit_mask.hpp"

namespace pcount::queens::join_detail {

namespace {

/// Builds a half's PartList: a depth-first walk over its rows [first,
/// last) that records each placement in walk order, then a radix sort of
/// them by column set.
struct PartBuilder {
  const Half& half;
  int first = 0, last = 0;
  std::vector<u64>&item, &spare, &meet, &key;
  std::vector<u32>& lam;

  /// Per row and column of the half: a queen's diagonals on row h and its
  /// share of the key (reordered).
  std::array<std::array<u64, 32>, 32> meet_of{}, key_of{};

  PartBuilder(const Half& half_, const KeyOrder& order, int h, PartBuffers& buffers)
      : half(half_), item(buffers.item), spare(buffers.spare), meet(buffers.meet), key(buffers.key), lam(buffers.lam) {
    const Geometry& g = *half.g;
    // the row the half's key describes: a top half's attacks on the row
    // below it (past the middle row for odd n), a bottom half's own last row
    const int boundary = g.rows - 1 + (half.top ? (g.odd ? 2 : 1) : 0);
    for (int r = 0; r < g.rows; ++r)
      for (int c = 0; c < g.n; ++c) {
        const u64 b = project(bit(c), boundary - r);  // ↘ low, ↙ high: a top key; a bottom key has them swapped
        const u64 k = half.top ? b : (b >> g.n) | ((b & ((u64{1} << g.n) - 1)) << g.n);
        meet_of[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] = project(bit(c), h - r);
        key_of[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] = order(k);
      }
  }

  /// The queen q of row r projected d rows down (d < 0: up) onto another
  /// row: its ↘ diagonal in the low n bits, its ↙ diagonal above.
  [[nodiscard]] u64 project(u32 q, int d) const {
    const u32 full = half.g->full;
    const u32 down = d >= 0 ? (q << d) & full : q >> -d, up = d >= 0 ? q >> d : (q << -d) & full;
    return u64{down} | (u64{up} << half.g->n);
  }

  void walk(int r, u32 cols, u32 dl, u32 dr, u64 m, u64 k, u32 lam_bits) {
    if (r == last) {
      item.push_back((u64{cols} << 32) | meet.size());
      meet.push_back(m);
      key.push_back(k);
      lam.push_back(lam_bits);
      return;
    }
    if (first == 0) {  // the upper part: the must columns and the pruning prefix
      if (std::popcount(half.must & ~cols) > half.g->rows - r || !half.kept_prefix(r, lam_bits)) return;
    }
    const auto& meets = meet_of[static_cast<std::size_t>(r)];
    const auto& keys = key_of[static_cast<std::size_t>(r)];
    u32 free = half.allowed[static_cast<std::size_t>(r)] & ~(cols | dl | dr);
    while (free) {
      const u32 q = free & (0u - free);
      free ^= q;
      const auto c = static_cast<std::size_t>(std::countr_zero(q));
      walk(r + 1, cols | q, ((dl | q) << 1) & half.g->full, (dr | q) >> 1, m | meets[c], k | keys[c],
           lam_bits | half.left_bit(q, r));
    }
  }
  void build(int from, int to, PartList& out) {
    first = from;
    last = to;
    item.clear();
    meet.clear();
    key.clear();
    lam.clear();
    walk(first, 0, 0, 0, 0, 0, 0);
    sort_items();
    const std::size_t count = item.size();
    out.sets.clear();
    out.first.clear();
    out.meet.resize(count);
    out.key.resize(count);
    out.lam.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      const auto set = static_cast<u32>(item[i] >> 32);
      const auto at = static_cast<std::size_t>(item[i] & 0xffffffffu);
      if (out.sets.empty() || out.sets.back() != set) {
        out.sets.push_back(set);
        out.first.push_back(static_cast<u32>(i));
      }
      out.meet[i] = meet[at];
      out.key[i] = key[at];
      out.lam[i] = lam[at];
    }
    out.first.push_back(static_cast<u32>(count));
    out.index();
  }

  /// Least significant digit first radix sort of `item` by column set.
  void sort_items() {
    constexpr int digit = 11;
    constexpr std::size_t radix = std::size_t{1} << digit;
    std::array<u32, radix> counts{};
    spare.resize(item.size());
    for (int shift = 32; shift < 32 + half.g->n; shift += digit) {
      counts.fill(0);
      for (const u64 x : item) ++counts[(x >> shift) & (radix - 1)];
      u32 sum = 0;
      for (u32& c : counts) sum += std::exchange(c, sum);
      for (const u64 x : item) spare[counts[(x >> shift) & (radix - 1)]++] = x;
      item.swap(spare);
    }
  }
};

/// The lower parts of one column set, as raw arrays (no reloads of the
/// vectors' data pointers between the stores of a loop).
struct LowerRange {
  const u64* __restrict meet;
  const u64* __restrict key;
  const u32* __restrict lam;
  u32 n;
};

/// Appends (ku | key, lu | λ) for each lower part of `r` whose diagonals
/// miss `mu` at keys[end], lams[end], …; returns the new end. A mask of the
/// fits first (about one lower part in 8 fits). Always inlined: called
/// from two loops of build_group, it was otherwise kept out of line, a
/// call per upper part. kOneMask: the caller knows r.n ≤ 64, so one mask
/// covers the range (its loop bounds then stay the same for every upper
/// part of a range, and the compiler takes them out of the loop).
template <bool kOneMask>
[[gnu::always_inline]] inline u32 append_fits(u64 mu, u64 ku, u32 lu, const LowerRange& r, u64* __restrict keys,
                                              std::uint16_t* __restrict lams, u32 end) {
  for (u32 v = 0; v < r.n; v += 64) {
    for (u64 fits = fit_mask(mu, r.meet + v, kOneMask ? r.n : std::min(r.n - v, 64u)); fits != 0; fits &= fits - 1) {
      const u32 x = v + static_cast<u32>(std::countr_zero(fits));
      keys[end] = ku | r.key[x];
      lams[end++] = static_cast<std::uint16_t>(lu | r.lam[x]);
    }
    if constexpr (kOneMask) break;
  }
  return end;
}

/// Appends each pair of an upper part with λ-prefix tied to the threshold
/// and a lower part of `r` that fits it: clear (keys, lams at `clear`) when
/// the lower part's λ bits beat the threshold's, a tie (tie_keys, tie_lams
/// at `ties`, kTie set) when they equal it. The fits are found by mask
/// first, as in append_fits (kOneMask as there); only they are compared.
template <bool kOneMask>
void append_ties(u64 mu, u64 ku, u32 lu, u32 flip, u32 low_threshold, const LowerRange& r, u64* __restrict keys,
                 std::uint16_t* __restrict lams, GroupSide& side, u32& clear, u32& ties) {
  grow_to(side.tie_keys, ties + r.n);
  grow_to(side.tie_lams, ties + r.n);
  u64* __restrict tie_keys = side.tie_keys.data();
  std::uint16_t* __restrict tie_lams = side.tie_lams.data();
  for (u32 v = 0; v < r.n; v += 64) {
    for (u64 fits = fit_mask(mu, r.meet + v, kOneMask ? r.n : std::min(r.n - v, 64u)); fits != 0; fits &= fits - 1) {
      const u32 x = v + static_cast<u32>(std::countr_zero(fits));
      const u32 low = r.lam[x] ^ flip, lam = lu | r.lam[x];
      if (low > low_threshold) {
        keys[clear] = ku | r.key[x];
        lams[clear++] = static_cast<std::uint16_t>(lam);
      } else if (low == low_threshold) {
        tie_keys[ties] = ku | r.key[x];
        tie_lams[ties++] = static_cast<std::uint16_t>(lam | kTie);
      }
    }
    if constexpr (kOneMask) break;
  }
}

}  // namespace

void build_parts(const Half& half, const KeyOrder& order, int h, PartBuffers& buffers, PartList& upper,
                 PartList& lower) {
  PartBuilder b(half, order, h, buffers);
  b.build(0, h, upper);
  b.build(h, half.g->rows, lower);
}

/// Fills `side` with the half placements of column set `columns` (upper
/// and lower parts with complementary column sets, h upper rows) that
/// group plan `p` keeps (DiagonalOrder: weighted groups drop those with
/// min(λ, ~λ) below the threshold). The upper part holds λ's high h bits,
/// which decide the comparison unless they tie with the threshold's.
/// The (upper, lower) column-set pairs are looked up first, so that the
/// next pair's lower parts are fetched while this pair's are joined.
void build_group(const PartList& upper, const PartList& lower, u32 columns, int rows, int h, const GroupPlan& p,
                 GroupSide& side) {
  const int low_bits = rows - h;
  const u32 low_ones = (1u << low_bits) - 1u, high_ones = (1u << h) - 1u;
  const u32 high_threshold = p.threshold >> low_bits, low_threshold = p.threshold & low_ones;
  std::vector<PartPair>& pairs = side.pairs;
  pairs.clear();
  std::size_t most = 0;
  for (u32 cu = columns;; cu = (cu - 1) & columns) {  // the upper part's column sets
    if (std::popcount(cu) == h) {
      const auto [u0, u1] = upper.range(cu);
      const auto [v0, v1] = u0 == u1 ? std::pair<u32, u32>{0, 0} : lower.range(columns ^ cu);
      if (v0 != v1) {
        pairs.push_back(PartPair{u0, u1, v0, v1});
        most += std::size_t{u1 - u0} * (v1 - v0);
      }
    }
    if (cu == 0) break;
  }
  grow_to(side.keys, most + 1);
  grow_to(side.lams, most + 1);
  u32 clear = 0, ties = 0;
  u64* __restrict keys = side.keys.data();
  std::uint16_t* __restrict lams = side.lams.data();
  const u64* __restrict um = upper.meet.data();
  const u64* __restrict uk = upper.key.data();
  const u32* __restrict ul = upper.lam.data();
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (i + 1 < pairs.size()) {
      const u32 next = pairs[i + 1].v0;
      __builtin_prefetch(lower.meet.data() + next);
      __builtin_prefetch(lower.key.data() + next);
      __builtin_prefetch(lower.lam.data() + next);
    }
    const PartPair& q = pairs[i];
    const LowerRange r{lower.meet.data() + q.v0, lower.key.data() + q.v0, lower.lam.data() + q.v0, q.v1 - q.v0};
    if (!p.weighted) {  // every fitting pair is clear
      if (r.n <= 64)
        for (u32 u = q.u0; u < q.u1; ++u) clear = append_fits<true>(um[u], uk[u], ul[u], r, keys, lams, clear);
      else
        for (u32 u = q.u0; u < q.u1; ++u) clear = append_fits<false>(um[u], uk[u], ul[u], r, keys, lams, clear);
      continue;
    }
    auto weighted = [&](auto one_mask) {  // one_mask: std::bool_constant<r.n <= 64>
      for (u32 u = q.u0; u < q.u1; ++u) {
        const u64 mu = um[u], ku = uk[u];
        const u32 lu = ul[u], prefix = lu >> low_bits;
        const u32 high = std::min(prefix, prefix ^ high_ones);
        if (high > high_threshold) {  // every fitting pair is clear
          clear = append_fits<decltype(one_mask)::value>(mu, ku, lu, r, keys, lams, clear);
        } else if (high == high_threshold) {                // the lower part decides
          const u32 flip = prefix == high ? 0u : low_ones;  // min(λ, ~λ) is ~λ when λ's prefix is the larger
          append_ties<decltype(one_mask)::value>(mu, ku, lu, flip, low_threshold, r, keys, lams, side, clear, ties);
        }
      }
    };
    if (r.n <= 64)
      weighted(std::true_type{});
    else
      weighted(std::false_type{});
  }
  grow_to(side.keys, std::size_t{clear} + ties + 1);
  grow_to(side.lams, std::size_t{clear} + ties + 1);
  std::copy_n(side.tie_keys.begin(), ties, side.keys.begin() + clear);
  std::copy_n(side.tie_lams.begin(), ties, side.lams.begin() + clear);
  side.count = clear + ties;
}

}  // namespace pcount::queens::join_detail
