// N-Queens by meet in the middle: half placements keyed by their column set
// and boundary diagonals, joined by disjoint keys (include/pcount/queens/join.hpp).
#include "pcount/queens/join.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "pcount/engine/simd.hpp"
#include "pcount/errors.hpp"
#include "pcount/queens/search.hpp"

namespace pcount::queens {

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

u32 bit(int c) { return c < 0 ? 0u : (1u << c); }

u32 mirror_columns(u32 x, int n) {
  u32 r = 0;
  for (int c = 0; c < n; ++c)
    if ((x >> c) & 1u) r |= 1u << (n - 1 - c);
  return r;
}

/// The board, the cut and the task's constraints on each half.
struct Geometry {
  int n = 0;
  int rows = 0;        ///< a = ⌊n/2⌋ rows per half
  int outer = 0;       ///< outer columns (outer/2 each side)
  bool odd = false;
  u32 full = 0;
  u32 outer_mask = 0;  ///< the outer columns
  int group_shift = 0; ///< the inner columns are bits group_shift..group_shift+inner-1
  u32 group_mask = 0;  ///< (1 << inner) - 1
  /// The join also uses the reflection in the main diagonal (even n from 4
  /// to 24, where the group and λ fit one 32-bit word; see DiagonalClass).
  bool diagonal = false;

  Geometry(int n_, int outer_, bool use_diagonal = true) : n(n_), rows(n_ / 2), outer(outer_), odd(n_ % 2 == 1) {
    full = n == 32 ? ~0u : (1u << n) - 1u;
    const int side = outer / 2;
    const u32 low = (1u << side) - 1u;
    outer_mask = low | (low << (n - side));
    group_shift = side;
    group_mask = (1u << (n - outer)) - 1u;
    diagonal = use_diagonal && !odd && n >= 4 && n <= 24 && (n - outer) + rows <= 32;
  }
  /// Column set of the bottom half that fits a top half with columns `top` (and middle queen m).
  [[nodiscard]] u32 complement(u32 top, int m) const { return full & ~top & ~bit(m); }
};

/// The images of (middle, top columns) under the mirror and the top–bottom
/// turn, identity first.
std::array<std::pair<int, u32>, 4> images(const Geometry& g, int m, u32 top) {
  const int mm = m < 0 ? -1 : g.n - 1 - m;
  const u32 flip = g.complement(top, m);
  return {{{m, top}, {m, flip}, {mm, mirror_columns(top, g.n)}, {mm, mirror_columns(flip, g.n)}}};
}

/// One half's placements: rows 0..a-1 of the board (for the bottom half,
/// the board turned upside down), queens only on allowed squares, every
/// `must` column used. They are built as two parts that meet on row h
/// (PartList): the upper rows 0..h−1 and the lower rows h..a−1.
struct Half {
  const Geometry* g = nullptr;
  bool top = true;
  int m = -1;
  std::array<u32, 32> allowed{};  ///< per row: allowed columns minus the middle queen's diagonals
  u32 must = 0;
  /// λ, the left rows of a placement: bit a−1−r set when the queen of its
  /// row r (counted from its own edge of the board) stands in a left column
  /// (< a). Kept only for even n ≤ 24, where the join uses the diagonal
  /// reflection; else no column counts as left and λ = 0.
  u32 left_columns = 0;  ///< the left columns' mask, 2^a − 1 (0: λ not kept)
  /// Placements whose first d ≤ prune_rows rows already make min(λ, ~λ)
  /// fall below the task's threshold are dropped by every group's join
  /// (DiagonalOrder); the upper part is not extended past such rows.
  /// prune_threshold has prune_rows bits; prune_rows = 0 prunes nothing.
  int prune_rows = 0;
  u32 prune_threshold = 0;

  Half(const Geometry& geo, bool is_top, int middle, u32 allowed_columns, u32 must_columns)
      : g(&geo), top(is_top), m(middle), must(must_columns) {
    if (geo.diagonal) left_columns = (1u << geo.rows) - 1u;
    for (int r = 0; r < geo.rows; ++r) {
      u32 a = allowed_columns & ~bit(middle);
      if (middle >= 0) {  // the middle queen (row a, column m) attacks (r, m ± (a - r))
        const int d = geo.rows - r;
        if (middle + d < geo.n) a &= ~bit(middle + d);
        if (middle - d >= 0) a &= ~bit(middle - d);
      }
      allowed[static_cast<std::size_t>(r)] = a;
    }
  }

  /// λ's bit for a queen `q` in row r: set when q stands in a left column.
  [[nodiscard]] u32 left_bit(u32 q, int r) const { return static_cast<u32>(q <= left_columns) << (g->rows - 1 - r); }
  /// Whether a prefix of r rows with left rows `lam` (bits a−1..a−r) can
  /// still make a placement that some group keeps.
  [[nodiscard]] bool kept_prefix(int r, u32 lam) const {
    if (r > prune_rows || r == 0) return true;
    const u32 prefix = lam >> (g->rows - r), ones = (1u << r) - 1u;
    return std::min(prefix, prefix ^ ones) >= (prune_threshold >> (prune_rows - r));
  }

  /// One random root-to-leaf path: the product of the branching factors
  /// (an unbiased estimate of the placements, Knuth 1975).
  double probe(std::mt19937_64& rng) const {
    if (g->rows == 0) return 1.0;
    double product = 1.0;
    u32 cols = 0, dl = 0, dr = 0;
    for (int r = 0; r < g->rows; ++r) {
      const u32 need = must & ~cols;
      const int left = g->rows - r;
      if (std::popcount(need) > left) return 0.0;
      u32 free = allowed[static_cast<std::size_t>(r)] & ~(cols | dl | dr);
      if (std::popcount(need) == left) free &= need;
      const int k = std::popcount(free);
      if (k == 0) return 0.0;
      product *= k;
      int pick = static_cast<int>(std::uniform_int_distribution<int>(0, k - 1)(rng));
      u32 q = free;
      while (pick-- > 0) q &= q - 1;
      q &= 0u - q;
      cols |= q;
      dl = ((dl | q) << 1) & g->full;
      dr = (dr | q) >> 1;
    }
    return product;
  }
};

Half top_half(const Geometry& g, const JoinTask& t) {
  return Half(g, true, t.middle, g.full & ~(g.outer_mask & ~t.outer), t.outer);
}
Half bottom_half(const Geometry& g, const JoinTask& t) {
  const u32 bottom_outer = g.outer_mask & ~t.outer & ~bit(t.middle);
  return Half(g, false, t.middle, g.full & ~(g.outer_mask & ~bottom_outer), bottom_outer);
}

/// A permutation of the 2n key bits that puts the boundary squares most
/// often held by both a top and a bottom key at the top: the i-th most
/// contested goes to bit 2n − 1 − i, the others keep their order below.
/// Sorting keys into 2^b buckets by their first b contested bits is then a
/// shift, and the bits still to test after bucketing are the low 2n − b
/// bits (at most 32 for n ≤ 22 once b = 12, so 16 keys fit one vector).
struct KeyOrder {
  std::array<std::array<u64, 256>, 8> table{};
  int width = 0;      ///< 2n key bits
  int contested = 0;  ///< how many bits are ordered at the top (at most 16)

  explicit KeyOrder(int n) : width(2 * n) {
    // Both families are attacked most often near the centre column
    // (n − 1)/2 (measured bit by bit at N = 16 and 18): the ↙ family from
    // ⌈(n−1)/2⌉ outwards, the ↘ family from ⌊(n−1)/2⌋ outwards, in turn.
    std::vector<int> order;  // key bits, most contested first
    const int up = n / 2, down = (n - 1) / 2;
    for (int d = 0; d < 2 * n && order.size() < 16; ++d) {
      const int step = (d + 1) / 2, sign = d % 2 == 0 ? 1 : -1;  // offsets 0, -1, +1, -2, +2, ...
      const int c1 = up - sign * step, c2 = down + sign * step;
      if (c1 >= 0 && c1 < n) order.push_back(c1);                           // top ↙ family: key bits 0..n-1
      if (c2 >= 0 && c2 < n && order.size() < 16) order.push_back(n + c2);  // top ↘ family: key bits n..2n-1
    }
    contested = static_cast<int>(order.size());
    std::vector<int> destination(static_cast<std::size_t>(width), -1);
    for (int k = 0; k < contested; ++k) destination[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] = width - 1 - k;
    int next = 0;
    for (int b = 0; b < width; ++b)
      if (destination[static_cast<std::size_t>(b)] < 0) destination[static_cast<std::size_t>(b)] = next++;
    for (int b = 0; b < width; ++b)
      for (int v = 0; v < 256; ++v)
        if ((v >> (b % 8)) & 1)
          table[static_cast<std::size_t>(b / 8)][static_cast<std::size_t>(v)] |= u64{1} << destination[static_cast<std::size_t>(b)];
  }
  [[nodiscard]] u64 operator()(u64 key) const {
    // unrolled for the key widths of the join's usual n (a loop over the
    // bytes was measured slower)
    switch ((width + 7) / 8) {
      case 4: return bytes<4>(key);
      case 5: return bytes<5>(key);
      case 6: return bytes<6>(key);
      default: return bytes<8>(key);
    }
  }
  template <std::size_t B>
  [[nodiscard]] u64 bytes(u64 key) const {
    u64 r = 0;
    for (std::size_t i = 0; i < B; ++i) r |= table[i][(key >> (8 * i)) & 255u];
    return r;
  }
};

/// Makes `v` hold at least `n` elements. Buffers only grow: a shrink and
/// a regrowth would zero the regrown part on every task (std::vector
/// value-initialises), which cost a few per cent at N = 20.
template <class V>
void grow_to(V& v, std::size_t n) {
  if (v.size() < n) v.resize(n);
}

/// Per-worker buffers, kept between tasks (their capacity is the worker's
/// share of the job's memory).
struct Scratch {
  std::vector<u64> top_sorted, bottom_sorted;      ///< one group's keys sorted into buckets (64-bit)
  std::vector<u32> top_sorted32, bottom_sorted32;  ///< the same when the untested bits fit 32
  std::vector<u32> top_offsets, bottom_offsets, top_counts, bottom_counts, top_zeros, bottom_zeros, index, position;
  std::vector<std::uint16_t> top_bucket_lams, bottom_bucket_lams;  ///< the same for one group's buckets
  std::vector<u32> top_ties, bottom_ties;  ///< ties per bucket (the last keys of each)
  std::vector<struct GroupPlan> plan;      ///< per group of the task
};

/// The reflection in the main diagonal, (r, c) → (c, r), which does not
/// keep the cut across the board, used through two set invariants of a
/// solution X of the even n×n board (a = n/2): S(X), the columns of its top
/// half's queens, and L(X), the rows of its left half's queens (columns <
/// a). The reflection swaps them, S(DX) = L(X) and L(DX) = S(X), while the
/// turn and the mirror act on both as complement and reversal (i ↦ n−1−i).
/// With c(·) the least of a set's four images under complement and
/// reversal (as numbers below), n(S, L) the solutions with those sets,
/// n(S, L) = n(L, S), so
///   Q = Σ_{S,L} n(S, L) = Σ_{S,L} f · n(S, L),  f = 2, 1, 0 as c(L) >, =, < c(S),
/// (f(S,L) + f(L,S) = 2), and each group (one S) counts only its pairs with
/// f > 0, the weight 2 for most of them: half the key pairs of the join drop
/// out. For k = |S ∩ left| ∈ {0, a} (k = |L ∩ top| too) the weight is 1.
///
/// A set X ⊆ {0..n−1} of size a is the number (hi, lo) = (Σ_{i∈X, i<a}
/// 2^(a−1−i), Σ_{i∈X, i≥a} 2^(n−1−i)), hi the high a bits. For a pair
/// (top placement, bottom placement) L = (λ_t, R(λ_b)), λ being the
/// placement's left rows (Half::left_columns) and R the reversal of a bits; the
/// four images of L have the high parts λ_t, ~λ_t, λ_b, ~λ_b: a placement
/// whose min(λ, ~λ) is below c(S)'s high part has f = 0 with every partner,
/// above it leaves the decision to the partner, equal to it (a tie) needs
/// the whole comparison.
struct DiagonalOrder {
  int a = 0;
  u32 ones = 0;                ///< 2^a − 1
  std::vector<u32> reverse;    ///< reversal of a bits

  explicit DiagonalOrder(int rows) : a(rows), ones((1u << rows) - 1u), reverse(std::size_t{1} << rows) {
    for (u32 x = 0; x <= ones; ++x)
      for (int i = 0; i < a; ++i)
        if ((x >> i) & 1u) reverse[x] |= 1u << (a - 1 - i);
  }
  /// c: the least of the four images of the set (hi, lo).
  [[nodiscard]] u32 least(u32 hi, u32 lo) const {
    const u32 rh = reverse[lo], rl = reverse[hi];
    return std::min({(hi << a) | lo, ((hi ^ ones) << a) | (lo ^ ones), (rh << a) | rl, ((rh ^ ones) << a) | (rl ^ ones)});
  }
  /// c(S) of a column set (bit i = column i).
  [[nodiscard]] u32 of_columns(u32 columns) const {
    return least(reverse[columns & ones], reverse[(columns >> a) & ones]);
  }
  /// c(L) of the pair with left rows λ_t (top) and λ_b (bottom).
  [[nodiscard]] u32 of_rows(u32 lam_top, u32 lam_bottom) const { return least(lam_top, reverse[lam_bottom]); }
};

/// λ's flag for a placement that ties (min(λ, ~λ) equal to c(S)'s high part).
constexpr std::uint16_t kTie = 0x8000;

/// What the task does with one group (column set of the top half).
struct GroupPlan {
  bool join = false;     ///< the least column set of its class in this task
  bool weighted = false; ///< pairs weighted by the diagonal reflection (f)
  u32 size = 0;          ///< the class size under the mirror and the turn
  u32 least = 0;         ///< c(S) (weighted groups)
  u32 threshold = 0;     ///< c(S)'s high part (weighted groups)
};

/// The placements of rows [first, last) of a half (rows counted from the
/// half's own edge), grouped by column set. A half placement is an upper
/// part (rows 0..h−1) and a lower part (rows h..a−1) with disjoint column
/// sets whose diagonals do not meet; both parts' diagonals are projected
/// onto row h, where two queens on one diagonal would both leave a bit
/// (the board is convex), so the parts fit when their `meet` words are
/// disjoint. The half placement's key and λ are the ORs of its parts'
/// (KeyOrder moves single bits, so the parts' keys are reordered already).
struct PartList {
  std::vector<u32> sets;   ///< the distinct column sets
  std::vector<u32> first;  ///< the placements with column set sets[i]: first[i] .. first[i+1]
  std::vector<u64> meet;   ///< its diagonals on row h: ↘ family in bits 0..n−1, ↙ in n..2n−1
  std::vector<u64> key;    ///< its share of the half's diagonal key, reordered by KeyOrder
  std::vector<u32> lam;    ///< its share of λ
  std::vector<u32> slots;  ///< open addressing: 1 + the index in `sets` of a set hashed there, 0 for none
  int slot_bits = 0;

  [[nodiscard]] std::size_t slot(u32 set) const {
    return static_cast<std::size_t>((u64{set} * 0x9e3779b97f4a7c15ull) >> (64 - slot_bits));
  }
  /// Makes the hash table of `sets` (at most half full).
  void index() {
    slot_bits = std::max(4, static_cast<int>(std::bit_width(sets.size())) + 1);
    slots.assign(std::size_t{1} << slot_bits, 0);
    const std::size_t mask = slots.size() - 1;
    for (std::size_t i = 0; i < sets.size(); ++i) {
      std::size_t at = slot(sets[i]);
      while (slots[at] != 0) at = (at + 1) & mask;
      slots[at] = static_cast<u32>(i + 1);
    }
  }
  /// The placements with column set `set`: {begin, end}, empty when none.
  [[nodiscard]] std::pair<u32, u32> range(u32 set) const {
    const std::size_t mask = slots.size() - 1;
    for (std::size_t at = slot(set);; at = (at + 1) & mask) {
      const u32 i = slots[at];
      if (i == 0) return {0, 0};
      if (sets[i - 1] == set) return {first[i - 1], first[i]};
    }
  }
};

/// PartBuilder's buffers, kept by each worker between tasks (a builder
/// per task would grow them from empty every time).
struct PartBuffers {
  std::vector<u64> item, spare;  ///< column set << 32 | walk index
  std::vector<u64> meet, key;
  std::vector<u32> lam;
};

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

/// The parts of one upper column set and of its complement in the lower
/// rows: upper [u0, u1), lower [v0, v1).
struct PartPair {
  u32 u0, u1, v0, v1;
};

/// A group's half placements, as count_disjoint and Weighting take them:
/// the keys kept (clear ones first, then the ties) and their λ (kTie set
/// on the ties).
struct GroupSide {
  std::vector<u64> keys, tie_keys;
  std::vector<std::uint16_t> lams, tie_lams;
  u32 count = 0;
  std::vector<PartPair> pairs;  ///< build_group's work list
};

/// Bit i of the result: (mu & meet[i]) == 0, for i < n ≤ 64 (four at a time
/// where the build targets AVX2).
u64 fit_mask(u64 mu, const u64* meet, u32 n) {
  u64 fits = 0;
  u32 i = 0;
#if defined(__AVX2__)
  const __m256i m = _mm256_set1_epi64x(static_cast<long long>(mu));
  for (; i + 4 <= n; i += 4) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(meet + i));
    const __m256i z = _mm256_cmpeq_epi64(_mm256_and_si256(x, m), _mm256_setzero_si256());
    fits |= static_cast<u64>(_mm256_movemask_pd(_mm256_castsi256_pd(z))) << i;
  }
  if (i < n) {  // the last 1 to 3: a masked load reads only those
    const __m256i live = _mm256_cmpgt_epi64(_mm256_set1_epi64x(n - i), _mm256_setr_epi64x(0, 1, 2, 3));
    const __m256i x = _mm256_maskload_epi64(reinterpret_cast<const long long*>(meet + i), live);
    const __m256i z = _mm256_and_si256(_mm256_cmpeq_epi64(_mm256_and_si256(x, m), _mm256_setzero_si256()), live);
    fits |= static_cast<u64>(_mm256_movemask_pd(_mm256_castsi256_pd(z))) << i;
  }
#else
  for (; i < n; ++i) fits |= u64{(mu & meet[i]) == 0} << i;
#endif
  return fits;
}

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

/// Per worker: the parts of the task's two halves and one group's half
/// placements of each.
struct Parts {
  PartList top_upper, top_lower, bottom_upper, bottom_lower;
  GroupSide top, bottom;
  PartBuffers buffers;  ///< PartBuilder's
};

/// How a group joined with the diagonal reflection weights its pairs: λ
/// (with kTie) of each key of both sides, in the order of the keys given to
/// count_disjoint, and c(S).
struct Weighting {
  const std::uint16_t* top_lams = nullptr;
  const std::uint16_t* bottom_lams = nullptr;
  const DiagonalOrder* order = nullptr;
  u32 least = 0;
  /// 2 − f for the pair: 0, 1 or 2 as c(L) >, =, < c(S).
  [[nodiscard]] u32 shortfall(std::uint16_t top_lam, std::uint16_t bottom_lam) const {
    const u32 c = order->of_rows(top_lam & ~kTie, bottom_lam & ~kTie);
    return c > least ? 0u : c == least ? 1u : 2u;
  }
};

/// Keys a bucketed array holds past its last bucket, so that key_fit_mask
/// may read whole vectors past the end of a range.
constexpr std::size_t kReadPast = 8;

/// bucket's scatter: its buffers as raw arrays.
template <class T>
struct ScatterArgs {
  const u64* keys;
  std::size_t count;
  u64 low_mask;
  const u32* __restrict index;  ///< each key's bucket
  u32* __restrict position;     ///< each bucket's next slot
  T* __restrict out;
  const std::uint16_t* lams;
  std::uint16_t* __restrict lams_out;
  u32* __restrict zeros;
};

/// Writes each key's low bits (and λ when kLams) to its bucket's next slot,
/// counting the zero keys per bucket when kZeros; a copy per case, so the
/// loop tests nothing but the zero key.
template <class T, bool kLams, bool kZeros>
void scatter(const ScatterArgs<T>& a) {
  for (std::size_t i = 0; i < a.count; ++i) {
    const T v = static_cast<T>(a.keys[i] & a.low_mask);
    const u32 b = a.index[i];
    const u32 at = a.position[b]++;
    a.out[at] = v;
    if constexpr (kLams) a.lams_out[at] = a.lams[i];
    if constexpr (kZeros) a.zeros[b] += v == 0 ? 1u : 0u;
  }
}

/// Sorts `keys` (already reordered by KeyOrder, `width` bits) into 2^bits
/// buckets by their top `bits` bits, keeping the other bits as T; each bucket is filled up to a
/// multiple of `pad` with all-ones keys (they meet every nonzero key of the
/// other side; the join takes back their fits with zero keys). For a
/// padded side (`pad` > 1) `counts` receives the number of keys per bucket,
/// for the unpadded side `zeros` the number of zero keys per bucket.
template <class T>
void bucket(const u64* keys, std::size_t count, int width, int bits, Scratch& s, std::vector<T>& out,
            std::vector<u32>& offsets, std::size_t pad, std::vector<u32>& counts, std::vector<u32>& zeros,
            const std::uint16_t* lams = nullptr, std::vector<std::uint16_t>* lams_out = nullptr,
            std::vector<u32>* ties = nullptr) {
  const std::size_t buckets = std::size_t{1} << bits;
  const int low = width - bits;
  const u64 low_mask = low >= 64 ? ~u64{0} : (u64{1} << low) - 1;
  offsets.assign(buckets + 1, 0);
  grow_to(s.index, count);
  for (std::size_t i = 0; i < count; ++i) {
    const u32 b = bits == 0 ? 0 : static_cast<u32>(keys[i] >> low);
    s.index[i] = b;
    ++offsets[b + 1];
  }
  // Buffers only grow: the scatter writes every key slot, and only the
  // padding slots are filled apart (a full fill per group cost about a
  // tenth of the run at N = 20).
  if (pad > 1) {
    counts.assign(offsets.begin() + 1, offsets.end());
    for (std::size_t b = 1; b <= buckets; ++b) offsets[b] = static_cast<u32>((offsets[b] + pad - 1) / pad * pad);
  }
  for (std::size_t b = 0; b < buckets; ++b) offsets[b + 1] += offsets[b];
  s.position.assign(offsets.begin(), offsets.end() - 1);
  grow_to(out, offsets[buckets] + kReadPast);
  if (pad > 1)
    for (std::size_t b = 0; b < buckets; ++b)
      std::fill(out.begin() + offsets[b] + counts[b], out.begin() + offsets[b + 1], static_cast<T>(~T{0}));
  if (pad == 1) zeros.assign(buckets, 0);  // zero keys matter on the unpadded side only
  if (lams != nullptr) {
    // the input holds its ties last, so the stable scatter keeps them last
    // in every bucket
    grow_to(*lams_out, offsets[buckets]);
    ties->assign(buckets, 0);
  }
  std::uint16_t* lo = lams != nullptr ? lams_out->data() : nullptr;
  const ScatterArgs<T> a{keys, count, low_mask, s.index.data(), s.position.data(), out.data(), lams, lo, zeros.data()};
  if (lams != nullptr)
    pad == 1 ? scatter<T, true, true>(a) : scatter<T, true, false>(a);
  else
    pad == 1 ? scatter<T, false, true>(a) : scatter<T, false, false>(a);
  if (lams != nullptr)  // the ties, the input's last keys
    for (std::size_t i = count; i > 0 && (lams[i - 1] & kTie) != 0; --i) ++(*ties)[s.index[i - 1]];
}

/// One vector of W bytes of keys: 64 (16 keys of 32 bits or 8 of 64) on
/// the AVX-512 path, 32 on the AVX2 path, 16 on the SSE4.1 one. Each width
/// is compiled for its own instruction set (count_disjoint_path below) and
/// picked at run time (engine::simd_path()), so a portable x86-64-v3 build
/// still joins 64 bytes at a time where the CPU has AVX-512. A vector wider
/// than the instruction set's registers is lowered lane by lane (scalar
/// compares): the join of a portable build whose keys always went 64 bytes
/// at a time was about six times slower than its AVX-512 build
/// (results/queens.md, 2026-11-25).
template <class T, std::size_t W>
struct VectorOf;
template <>
struct VectorOf<u32, 16> {
  typedef u32 type __attribute__((vector_size(16)));
};
template <>
struct VectorOf<u32, 32> {
  typedef u32 type __attribute__((vector_size(32)));
};
template <>
struct VectorOf<u32, 64> {
  typedef u32 type __attribute__((vector_size(64)));
};
template <>
struct VectorOf<u64, 16> {
  typedef u64 type __attribute__((vector_size(16)));
};
template <>
struct VectorOf<u64, 32> {
  typedef u64 type __attribute__((vector_size(32)));
};
template <>
struct VectorOf<u64, 64> {
  typedef u64 type __attribute__((vector_size(64)));
};
template <class T, std::size_t W>
using Lanes = typename VectorOf<T, W>::type;

#define PCOUNT_JOIN_INLINE inline __attribute__((always_inline))
#if defined(__x86_64__) && defined(__GNUC__)
#define PCOUNT_JOIN_AVX512 __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq")))
#define PCOUNT_JOIN_AVX2 __attribute__((target("avx2,bmi,bmi2,fma,popcnt")))
#else
#define PCOUNT_JOIN_AVX512
#define PCOUNT_JOIN_AVX2
#endif

#if defined(__x86_64__) && defined(__GNUC__)
/// count_block for 32-bit keys on the AVX-512 path: the top key broadcast
/// from memory into the test (vptestnmd … {1to16}) and the fits subtracted
/// under the mask, two instructions per 16 pairs where the generic loop
/// needs four (and, test, mask to vector, add).
PCOUNT_JOIN_AVX512 inline void count_block_avx512(const u32* top, u32 t0, u32 t1, const u32* bottom, u32 b0, u32 b1,
                                                  Lanes<u32, 64>& acc) {
  const __m512i one = _mm512_set1_epi32(1);
  __m512i a1 = reinterpret_cast<__m512i>(acc), a2 = _mm512_setzero_si512();
  u32 y = b0;
  for (; y + 32 <= b1; y += 32) {
    const __m512i v = _mm512_loadu_si512(bottom + y), v2 = _mm512_loadu_si512(bottom + y + 16);
    for (u32 x = t0; x < t1; ++x) {
      const __m512i k = _mm512_set1_epi32(static_cast<int>(top[x]));
      a1 = _mm512_mask_sub_epi32(a1, _mm512_testn_epi32_mask(k, v), a1, one);  // −1 where the pair fits
      a2 = _mm512_mask_sub_epi32(a2, _mm512_testn_epi32_mask(k, v2), a2, one);
    }
  }
  for (; y < b1; y += 16) {
    const __m512i v = _mm512_loadu_si512(bottom + y);
    for (u32 x = t0; x < t1; ++x)
      a1 = _mm512_mask_sub_epi32(a1, _mm512_testn_epi32_mask(_mm512_set1_epi32(static_cast<int>(top[x])), v), a1, one);
  }
  acc = reinterpret_cast<Lanes<u32, 64>>(_mm512_add_epi32(a1, a2));
}
#endif

/// Adds to `acc` (lane by lane, as −1 per pair) the pairs (x in top[t0, t1),
/// y in bottom[b0, b1)) with x & y == 0; b1 − b0 is a multiple of the lanes.
/// Inlined into the per-path functions, so compiled for their instruction set.
template <class T, std::size_t W>
PCOUNT_JOIN_INLINE void count_block(const T* top, u32 t0, u32 t1, const T* bottom, u32 b0, u32 b1, Lanes<T, W>& acc) {
  constexpr u32 lanes = W / sizeof(T);
#if defined(__x86_64__) && defined(__GNUC__)
  if constexpr (std::is_same_v<T, u32> && W == 64) {
    count_block_avx512(top, t0, t1, bottom, b0, b1, acc);
    return;
  }
#endif
  Lanes<T, W> acc2{};
  u32 y = b0;
  for (; y + 8 * lanes <= b1; y += 8 * lanes) {
    Lanes<T, W> v0, v1, v2, v3, v4, v5, v6, v7;  // named, so that they stay in registers
    __builtin_memcpy(&v0, bottom + y, sizeof v0);
    __builtin_memcpy(&v1, bottom + y + lanes, sizeof v1);
    __builtin_memcpy(&v2, bottom + y + 2 * lanes, sizeof v2);
    __builtin_memcpy(&v3, bottom + y + 3 * lanes, sizeof v3);
    __builtin_memcpy(&v4, bottom + y + 4 * lanes, sizeof v4);
    __builtin_memcpy(&v5, bottom + y + 5 * lanes, sizeof v5);
    __builtin_memcpy(&v6, bottom + y + 6 * lanes, sizeof v6);
    __builtin_memcpy(&v7, bottom + y + 7 * lanes, sizeof v7);
    for (u32 x = t0; x < t1; ++x) {
      acc += (top[x] & v0) == 0;
      acc2 += (top[x] & v1) == 0;
      acc += (top[x] & v2) == 0;
      acc2 += (top[x] & v3) == 0;
      acc += (top[x] & v4) == 0;
      acc2 += (top[x] & v5) == 0;
      acc += (top[x] & v6) == 0;
      acc2 += (top[x] & v7) == 0;
    }
  }
  for (; y + 4 * lanes <= b1; y += 4 * lanes) {  // four vectors per top key where the bucket has them
    Lanes<T, W> v, v2, v3, v4;
    __builtin_memcpy(&v, bottom + y, sizeof v);
    __builtin_memcpy(&v2, bottom + y + lanes, sizeof v2);
    __builtin_memcpy(&v3, bottom + y + 2 * lanes, sizeof v3);
    __builtin_memcpy(&v4, bottom + y + 3 * lanes, sizeof v4);
    for (u32 x = t0; x < t1; ++x) {
      acc += (top[x] & v) == 0;
      acc2 += (top[x] & v2) == 0;
      acc += (top[x] & v3) == 0;
      acc2 += (top[x] & v4) == 0;
    }
  }
  for (; y + 2 * lanes <= b1; y += 2 * lanes) {  // two vectors per top key: one broadcast for both
    Lanes<T, W> v, v2;
    __builtin_memcpy(&v, bottom + y, sizeof v);
    __builtin_memcpy(&v2, bottom + y + lanes, sizeof v2);
    for (u32 x = t0; x < t1; ++x) {
      acc += (top[x] & v) == 0;  // a lane is −1 where the pair fits
      acc2 += (top[x] & v2) == 0;
    }
  }
  for (; y < b1; y += lanes) {
    Lanes<T, W> v;
    __builtin_memcpy(&v, bottom + y, sizeof v);
    for (u32 x = t0; x < t1; ++x) acc += (top[x] & v) == 0;
  }
  acc += acc2;
}

/// Bit i of the result: (x & p[i]) == 0, for i < n ≤ 64. Where the build
/// targets AVX2, eight 32-bit keys at a time, the last vector reading up
/// to 7 keys past p[n] (kReadPast) and its bits past n dropped.
template <class T>
u64 key_fit_mask(T x, const T* p, u32 n) {
#if defined(__AVX2__)
  if constexpr (sizeof(T) == 4) {
    u64 fits = 0;
    const __m256i m = _mm256_set1_epi32(static_cast<int>(x));
    for (u32 i = 0; i < n; i += 8) {
      const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
      const __m256i z = _mm256_cmpeq_epi32(_mm256_and_si256(y, m), _mm256_setzero_si256());
      fits |= static_cast<u64>(static_cast<u32>(_mm256_movemask_ps(_mm256_castsi256_ps(z)))) << i;
    }
    return n == 64 ? fits : fits & ((u64{1} << n) - 1);
  } else {
    return fit_mask(x, p, n);
  }
#else
  u64 fits = 0;
  for (u32 i = 0; i < n; ++i) fits |= u64{(x & p[i]) == 0} << i;
  return fits;
#endif
}

/// Σ w.shortfall over the pairs of own keys [x0, x1) (λ in own_lams;
/// tops when `top`) and keys of p[0, n) (λ in lams) that fit. kOneMask:
/// n ≤ 64, one mask per own key, its bounds the same for all of them.
template <class T, bool kOneMask>
u64 shortfalls(const T* own, const std::uint16_t* own_lams, u32 x0, u32 x1, bool top, const T* p,
               const std::uint16_t* lams, u32 n, const Weighting& w) {
  u64 sum = 0;
  for (u32 x = x0; x < x1; ++x)
    for (u32 v = 0; v < n; v += 64) {
      for (u64 fits = key_fit_mask<T>(own[x], p + v, kOneMask ? n : std::min(n - v, 64u)); fits != 0;
           fits &= fits - 1) {
        const u32 y = v + static_cast<u32>(std::countr_zero(fits));
        sum += top ? w.shortfall(own_lams[x], lams[y]) : w.shortfall(lams[y], own_lams[x]);
      }
      if constexpr (kOneMask) break;
    }
  return sum;
}

/// shortfalls with the copy for n.
template <class T>
u64 shortfalls_any(const T* own, const std::uint16_t* own_lams, u32 x0, u32 x1, bool top, const T* p,
                   const std::uint16_t* lams, u32 n, const Weighting& w) {
  if (x0 == x1) return 0;
  return n <= 64 ? shortfalls<T, true>(own, own_lams, x0, x1, top, p, lams, n, w)
                 : shortfalls<T, false>(own, own_lams, x0, x1, top, p, lams, n, w);
}

/// Σ (2 − f) over the fitting pairs of one bucket pair that involve a tie
/// (DiagonalOrder): the tie tops of [t0, t1) with the bottoms of [b0, b1),
/// the tie bottoms with the other tops. Ties stand last in each bucket
/// (`top_ties`, `bottom_ties` of them), a few per cent of the keys, and
/// their fits are rarer still: a mask of the fits first, weigh only those.
template <class T>
u64 tie_shortfall(const T* t, u32 t0, u32 t1, u32 top_ties, const T* b, u32 b0, u32 b1, u32 bottom_ties,
                  const std::uint16_t* tl, const std::uint16_t* bl, const Weighting& w) {
  const u32 clear_end = t1 - top_ties;
  u64 sum = shortfalls_any<T>(t, tl, clear_end, t1, true, b + b0, bl + b0, b1 - b0, w);
  if (clear_end != t0) sum += shortfalls_any<T>(b, bl, b1 - bottom_ties, b1, false, t + t0, tl + t0, clear_end - t0, w);
  return sum;
}

/// The join of one group with T-wide keys (the bits left after bucketing
/// by `bits` bits fit T), W bytes of keys per vector.
template <class T, std::size_t W>
PCOUNT_JOIN_INLINE u64 count_disjoint_as(const u64* top, std::size_t nt, const u64* bottom, std::size_t nb, int bits,
                                         const KeyOrder& order, Scratch& s, std::vector<T>& top_sorted,
                                         std::vector<T>& bottom_sorted, u64& tests, const Weighting* w,
                                         u64& shortfall) {
  constexpr u32 lanes = W / sizeof(T);
  bucket<T>(top, nt, order.width, bits, s, top_sorted, s.top_offsets, 1, s.top_counts, s.top_zeros,
            w ? w->top_lams : nullptr, &s.top_bucket_lams, &s.top_ties);
  bucket<T>(bottom, nb, order.width, bits, s, bottom_sorted, s.bottom_offsets, lanes, s.bottom_counts, s.bottom_zeros,
            w ? w->bottom_lams : nullptr, &s.bottom_bucket_lams, &s.bottom_ties);
  const u32 all = (1u << bits) - 1u;
  const T* t = top_sorted.data();
  const T* b = bottom_sorted.data();
  u64 total = 0;
  // A 32-bit lane must not count 2^32 fits: acc is flushed into `total`
  // before the fits it may hold reach 2^31.
  constexpr u64 lane_limit = sizeof(T) == 4 ? u64{1} << 31 : ~u64{0};
  // Every bottom vector of the group: a lane of acc gains at most one fit
  // per (top key, bottom vector), so a top bucket whose keys times this
  // stay below the limit needs no flush inside its loop (almost always).
  const u64 bottom_vectors = s.bottom_offsets[all + 1] / lanes;
  for (u32 i = 0; i <= all; ++i) {
    const u32 t0 = s.top_offsets[i], t1 = s.top_offsets[i + 1];
    if (t0 == t1) continue;
    const u32 free = all & ~i;
    Lanes<T, W> acc{};  // summed over the top bucket's compatible bottom buckets
    auto flush = [&] {
      for (u32 lane = 0; lane < lanes; ++lane) total += static_cast<T>(T{0} - static_cast<T>(acc[lane]));  // each fit added −1
      acc = Lanes<T, W>{};
    };
    const bool ties = w != nullptr && s.top_ties[i] != 0;
    u64 padding = 0;  // bottom padding keys met by this top bucket
    u64 width = 0;    // bottom keys (padding included) met by this top bucket
    // past the limit (never below N = 23), cut the top keys into pieces
    const bool safe = u64{t1 - t0} * bottom_vectors < lane_limit;
    u64 load = 0;  // most fits any lane of acc may hold (only when not safe)
    for (u32 j = free;; j = (j - 1) & free) {  // the buckets whose index bits avoid i's
      const u32 b0 = s.bottom_offsets[j], b1 = s.bottom_offsets[j + 1];
      if (b0 != b1) {
        if (safe) {
          count_block<T, W>(t, t0, t1, b, b0, b1, acc);
        } else {
          const u64 vectors = (b1 - b0) / lanes;
          const u32 piece = static_cast<u32>(std::min<u64>(t1 - t0, std::max<u64>(1, (lane_limit - 1) / vectors)));
          for (u32 x0 = t0; x0 < t1; x0 += piece) {
            const u32 x1 = x0 + std::min(piece, t1 - x0);
            if (load + u64{x1 - x0} * vectors >= lane_limit) {
              flush();
              load = 0;
            }
            load += u64{x1 - x0} * vectors;
            count_block<T, W>(t, x0, x1, b, b0, b1, acc);
          }
        }
        width += b1 - b0;
        padding += b1 - b0 - s.bottom_counts[j];
        if (w != nullptr && (ties || s.bottom_ties[j] != 0))
          shortfall += tie_shortfall<T>(t, t0, t1, s.top_ties[i], b, b0, b0 + s.bottom_counts[j], s.bottom_ties[j],
                                        s.top_bucket_lams.data(), s.bottom_bucket_lams.data(), *w);
      }
      if (j == 0) break;
    }
    flush();
    tests += u64{t1 - t0} * width;
    // the top bucket's zero keys fit the padding keys too: take those back
    total -= u64{s.top_zeros[i]} * padding;
  }
  return total;
}

/// The join of one group, 32-bit keys when `narrow`, W bytes per vector.
template <std::size_t W>
PCOUNT_JOIN_INLINE u64 count_disjoint_width(const u64* top, std::size_t nt, const u64* bottom, std::size_t nb, int bits,
                                            bool narrow, const KeyOrder& order, Scratch& s, u64& tests,
                                            const Weighting* w, u64& short_sum) {
  if (narrow)
    return count_disjoint_as<u32, W>(top, nt, bottom, nb, bits, order, s, s.top_sorted32, s.bottom_sorted32, tests, w,
                                     short_sum);
  return count_disjoint_as<u64, W>(top, nt, bottom, nb, bits, order, s, s.top_sorted, s.bottom_sorted, tests, w,
                                   short_sum);
}

// One copy per path, each compiled for its instruction set (the AVX-512
// and AVX2 copies by target attributes on top of the build's own flags);
// count_disjoint calls the one engine::simd_path() names.
#define PCOUNT_JOIN_PATH(ATTR, NAME, W)                                                                   \
  ATTR u64 NAME(const u64* top, std::size_t nt, const u64* bottom, std::size_t nb, int bits, bool narrow, \
                const KeyOrder& order, Scratch& s, u64& tests, const Weighting* w, u64& short_sum) {      \
    return count_disjoint_width<W>(top, nt, bottom, nb, bits, narrow, order, s, tests, w, short_sum);     \
  }
PCOUNT_JOIN_PATH(PCOUNT_JOIN_AVX512, count_disjoint_avx512, 64)
PCOUNT_JOIN_PATH(PCOUNT_JOIN_AVX2, count_disjoint_avx2, 32)
PCOUNT_JOIN_PATH(, count_disjoint_sse41, 16)
#undef PCOUNT_JOIN_PATH

/// Number of pairs (x in top, y in bottom) with x & y == 0: both sides
/// sorted into buckets by their most contested bits, only bucket pairs that
/// avoid each other on those bits tested, 16 keys per vector where the
/// remaining bits fit 32.
u64 count_disjoint(const u64* top, std::size_t nt, const u64* bottom, std::size_t nb, const KeyOrder& order, Scratch& s,
                   u64& tests, bool wide = false, const Weighting* w = nullptr, u64* shortfall = nullptr,
                   engine::SimdPath path = engine::simd_path()) {
  u64 unused = 0;
  u64& short_sum = shortfall != nullptr ? *shortfall : unused;
  // Bucket by `bits` bits: 3^bits bucket pairs survive of 4^bits. The
  // bound asks for about 16384 key pairs per surviving bucket pair (4096
  // for odd n, whose keys have two more bits); the bucket pairs actually
  // met hold far fewer (keys crowd into the buckets with few contested
  // bits set: at 1024 the N = 18 join met 118 M bucket pairs of 8.4 top
  // keys × 1.9 bottom vectors each), and each costs mispredicted loop
  // exits. Measured with one thread, CPU seconds, medians of 3–5
  // (results/queens.md, 2026-11-25): N = 18: 256: 8.1, 1024: 6.8, 4096:
  // 5.7, 16384: 5.4, 32768: 5.4, 65536: 6.1, 2^18: 8.6; a fortieth of
  // N = 20: 4096: 5.2, 16384: 4.7, 65536: 5.4; a twentieth of N = 19:
  // 1024: 3.5, 4096: 3.1, 16384: 4.1; N = 17 alike from 1024 to 16384.
  const double per_pair = (order.width / 2) % 2 == 0 ? 16384.0 : 4096.0;
  const double pairs = static_cast<double>(nt) * static_cast<double>(nb);
  int bits = 0;
  while (bits < 12 && bits < order.contested && std::pow(3.0, bits + 1) * per_pair < pairs) ++bits;
  const bool narrow = !wide && order.width - bits <= 32;
  switch (path) {
    case engine::SimdPath::avx512:
      return count_disjoint_avx512(top, nt, bottom, nb, bits, narrow, order, s, tests, w, short_sum);
    case engine::SimdPath::avx2:
      return count_disjoint_avx2(top, nt, bottom, nb, bits, narrow, order, s, tests, w, short_sum);
    default:
      return count_disjoint_sse41(top, nt, bottom, nb, bits, narrow, order, s, tests, w, short_sum);
  }
}

void check_n_join(int n) {
  if (n < 1 || n > kMaxN) throw InvalidArgument("n", "must be a whole number from 1 to 32");
}

}  // namespace

std::uint64_t count_disjoint_keys(int n, std::span<const std::uint64_t> top, std::span<const std::uint64_t> bottom,
                                  bool wide, engine::SimdPath path) {
  check_n_join(n);
  if (!engine::simd_path_supported(path))
    throw InvalidArgument("path", std::string("this CPU cannot run the ") + engine::simd_path_name(path) + " path");
  const KeyOrder order(n);
  std::vector<u64> t(top.size()), b(bottom.size());
  const u64 mask = n == 32 ? ~u64{0} : (u64{1} << (2 * n)) - 1;
  for (std::size_t i = 0; i < top.size(); ++i) {
    if (top[i] & ~mask) throw InvalidArgument("top", "keys must have at most 2n bits");
    t[i] = order(top[i]);
  }
  for (std::size_t i = 0; i < bottom.size(); ++i) {
    if (bottom[i] & ~mask) throw InvalidArgument("bottom", "keys must have at most 2n bits");
    b[i] = order(bottom[i]);
  }
  Scratch s;
  u64 tests = 0;
  return count_disjoint(t.data(), t.size(), b.data(), b.size(), order, s, tests, wide, nullptr, nullptr, path);
}

std::uint64_t count_disjoint_keys(int n, std::span<const std::uint64_t> top, std::span<const std::uint64_t> bottom,
                                  bool wide) {
  check_n_join(n);
  return count_disjoint_keys(n, top, bottom, wide, engine::simd_path());
}

std::pair<int, int> join_outer_range(int n) {
  // At most 20 inner columns (a task keeps one bucket per inner column
  // set); at most 18 outer columns for even n and 14 for odd n (about 2^18/4
  // tasks, or n·2^14/4: their list and estimates take a second to build).
  const int least = std::max(0, n - 20 + (n % 2));
  const int most = std::min(n < 3 ? 0 : n - 2, n % 2 == 0 ? 18 : 14);
  return {least, std::max(least, most)};
}

int default_join_outer(int n) {
  // Measured (results/queens.md): even n are fastest with 8 inner columns
  // (N = 16: 8 outer columns 0.61 s, 6: 0.67 s, 4: 1.1 s); odd n, whose
  // tasks are also split by the middle queen, with about 11 (N = 17: 4
  // outer columns 1.8 s, 6: 2.4 s, 8: 2.8 s; N = 19: 8 outer 61 s, 10:
  // 65 s). Beyond N = 20 (even) and 19 (odd) fewer inner columns keep a
  // task near 100 MB, so that 16 workers stay under 8 GiB through N = 21
  // (placements grow about 20× per 2 rows, tasks 4× per 2 outer columns).
  const int inner = n % 2 == 0 ? (n <= 20 ? 8 : 6) : (n < 20 ? 11 : 7);
  const auto [least, most] = join_outer_range(n);
  return std::clamp(n - inner, least, most);
}

void check_join(int n, int outer) {
  check_n_join(n);
  const auto [least, most] = join_outer_range(n);
  if (outer < least || outer % 2 != 0 || outer > most)
    throw InvalidArgument("outer", "must be an even number from " + std::to_string(least) + " to " + std::to_string(most));
}

std::vector<JoinTask> join_tasks(int n, int outer) {
  check_join(n, outer);
  const Geometry g(n, outer);
  std::vector<JoinTask> tasks;
  const int first_m = g.odd ? 0 : -1, last_m = g.odd ? n - 1 : -1;
  for (int m = first_m; m <= last_m; ++m) {
    const u32 outer_free = g.outer_mask & ~bit(m);
    for (u32 p = 0;; p = (p - outer_free) & outer_free) {  // every subset of the free outer columns
      const u32 q = outer_free & ~p;                       // the bottom half's outer columns
      if (std::popcount(p) <= g.rows && std::popcount(q) <= g.rows) {
        bool canonical = true;
        const int mm = m < 0 ? -1 : n - 1 - m;
        const std::pair<int, u32> mine{m, p};
        for (const auto& other : {std::pair<int, u32>{m, q}, std::pair<int, u32>{mm, mirror_columns(p, n)},
                                  std::pair<int, u32>{mm, mirror_columns(q, n)}})
          if (other < mine) canonical = false;
        if (canonical) tasks.push_back(JoinTask{m, p});
      }
      if (p == outer_free) break;
    }
  }
  return tasks;
}

JoinTaskCount count_join_task(int n, int outer, const JoinTask& t, bool diagonal) {
  check_join(n, outer);
  const Geometry g(n, outer, diagonal);
  thread_local Scratch s;
  thread_local std::unique_ptr<KeyOrder> order;
  thread_local std::unique_ptr<DiagonalOrder> reflection;
  thread_local int order_n = 0;
  if (!order || order_n != n) {
    order = std::make_unique<KeyOrder>(n);
    reflection = std::make_unique<DiagonalOrder>(g.rows);
    order_n = n;
  }
  const std::size_t groups = std::size_t{g.group_mask} + 1;
  // Which groups this task joins, and how: only the least column set of its
  // class among those the task enumerates, weighted by the class size.
  s.plan.assign(groups, GroupPlan{});
  for (std::size_t gi = 0; gi < groups; ++gi) {
    const u32 columns = t.outer | (static_cast<u32>(gi) << g.group_shift);
    if (std::popcount(columns) != g.rows || (t.middle >= 0 && ((columns >> t.middle) & 1u))) continue;
    const auto im = images(g, t.middle, columns);
    bool least = true;
    u32 size = 0;
    for (std::size_t i = 0; i < im.size(); ++i) {
      if (std::find(im.begin(), im.begin() + static_cast<std::ptrdiff_t>(i), im[i]) ==
          im.begin() + static_cast<std::ptrdiff_t>(i))
        ++size;
      if (im[i].first == t.middle && (im[i].second & g.outer_mask) == t.outer && im[i].second < columns)
        least = false;
    }
    GroupPlan& p = s.plan[gi];
    p.join = least;
    p.size = size;
    const int k = std::popcount(columns & reflection->ones);
    if (g.diagonal && k != 0 && k != g.rows) {
      p.weighted = true;
      p.least = reflection->of_columns(columns);
      p.threshold = p.least >> g.rows;
    }
  }
  Half top = top_half(g, t), bottom = bottom_half(g, t);
  if (g.diagonal) {
    // The first `side` rows of a half decide the top `side` bits of its
    // min(λ, ~λ); the outer columns decide the top `side` bits of c(S)'s
    // high part (the least of its four images' prefixes), the same for
    // every group of the task. Where no group has k = 0 or a, that
    // threshold is positive; else it is 0 and prunes nothing.
    const int side = std::min(g.group_shift, g.rows - 3);
    if (side > 0) {
      const u32 ones = (1u << side) - 1u;
      const int drop = g.rows - side;
      const u32 left_prefix = reflection->reverse[t.outer & reflection->ones] >> drop;
      const u32 right_prefix = ((t.outer >> g.rows) & reflection->ones) >> drop;
      const u32 threshold = std::min({left_prefix, left_prefix ^ ones, right_prefix, right_prefix ^ ones});
      for (Half* h : {&top, &bottom}) {
        h->prune_rows = side;
        h->prune_threshold = threshold;
      }
    }
  }
  thread_local Parts parts;
  const int h = (g.rows + 1) / 2;
  for (auto [half, upper, lower] : {std::tuple{&top, &parts.top_upper, &parts.top_lower},
                                    std::tuple{&bottom, &parts.bottom_upper, &parts.bottom_lower}}) {
    PartBuilder b(*half, *order, h, parts.buffers);
    b.build(0, h, *upper);
    b.build(h, g.rows, *lower);
  }
  JoinTaskCount out;
  u64 tests = 0;
  for (std::size_t gi = 0; gi < groups; ++gi) {
    const GroupPlan& p = s.plan[gi];
    if (!p.join) continue;
    const u32 columns = t.outer | (static_cast<u32>(gi) << g.group_shift);
    build_group(parts.top_upper, parts.top_lower, columns, g.rows, h, p, parts.top);
    if (parts.top.count == 0) continue;
    build_group(parts.bottom_upper, parts.bottom_lower, g.complement(columns, t.middle), g.rows, h, p, parts.bottom);
    out.placements += u128{parts.top.count} + parts.bottom.count;
    if (parts.bottom.count == 0) continue;
    engine::throw_if_stopped();
    const u64* tk = parts.top.keys.data();
    const u64* bk = parts.bottom.keys.data();
    u128 value = 0;
    if (p.weighted) {
      const Weighting w{parts.top.lams.data(), parts.bottom.lams.data(), reflection.get(), p.least};
      u64 shortfall = 0;
      const u64 pairs =
          count_disjoint(tk, parts.top.count, bk, parts.bottom.count, *order, s, tests, false, &w, &shortfall);
      // each pair with a tie is one of the fits, short of 2 by at most 2
      if (shortfall > 2 * u128{pairs}) throw InternalError("queens join: a group's weights exceed its fits");
      value = 2 * u128{pairs} - shortfall;
    } else {
      value = count_disjoint(tk, parts.top.count, bk, parts.bottom.count, *order, s, tests);
    }
    out.solutions = checked_add(out.solutions, checked_mul(static_cast<u128>(p.size), value));
  }
  out.pair_tests = tests;
  return out;
}

double estimate_join_placements(int n, int outer, const JoinTask& t, int probes) {
  check_join(n, outer);
  const Geometry g(n, outer);
  const Half top = top_half(g, t), bottom = bottom_half(g, t);
  std::mt19937_64 rng(0x9e3779b97f4a7c15ull ^ (static_cast<u64>(t.middle + 1) << 40) ^ t.outer);
  double sum = 0;
  for (int i = 0; i < probes; ++i) sum += top.probe(rng) + bottom.probe(rng);
  return probes > 0 ? sum / probes : 0.0;
}

namespace {

/// Per task: estimated placements and join work (placements² over groups).
struct TaskEstimate {
  double placements = 0;
  double work = 0;
};

/// The tasks of (n, outer) and their estimates, built once per process
/// (the plan asks for the memory estimate, then builds the job).
struct TaskList {
  std::vector<JoinTask> tasks;
  std::vector<TaskEstimate> estimates;
};

std::vector<TaskEstimate> estimate_tasks(int n, int outer, const std::vector<JoinTask>& tasks) {
  const Geometry g(n, outer);
  std::vector<TaskEstimate> e;
  e.reserve(tasks.size());
  // 64 probes per task, fewer for long lists (at least 8): the estimates
  // only order the tasks and size the memory check.
  const int probes = static_cast<int>(std::clamp<std::size_t>(4'000'000 / std::max<std::size_t>(1, tasks.size()), 8, 64));
  for (const JoinTask& t : tasks) {
    const double p = estimate_join_placements(n, outer, t, probes);
    // column sets of the task: inner columns choose the rest of the a top columns
    const int inner_free = n - outer - ((t.middle >= 0 && !((g.outer_mask >> t.middle) & 1u)) ? 1 : 0);
    const int k = g.rows - std::popcount(t.outer);
    double sets = 1;
    for (int i = 0; i < k; ++i) sets = sets * (inner_free - i) / (i + 1);
    e.push_back({p, p + p * p / 4.0 / std::max(1.0, sets)});
  }
  return e;
}

std::shared_ptr<const TaskList> task_list(int n, int outer) {
  static std::mutex mutex;
  static std::map<std::pair<int, int>, std::shared_ptr<const TaskList>> cache;
  const std::lock_guard lock(mutex);
  auto& entry = cache[{n, outer}];
  if (!entry) {
    auto list = std::make_shared<TaskList>();
    list->tasks = join_tasks(n, outer);
    list->estimates = estimate_tasks(n, outer, list->tasks);
    entry = std::move(list);
  }
  return entry;
}

}  // namespace

engine::Job make_join_job(int n, int outer, const std::string& fingerprint) {
  check_join(n, outer);
  (void)engine::simd_path();  // a bad PCOUNT_SIMD is refused before any work
  const std::shared_ptr<const TaskList> list = task_list(n, outer);
  const std::shared_ptr<const std::vector<JoinTask>> tasks(list, &list->tasks);
  const std::shared_ptr<const std::vector<TaskEstimate>> estimates(list, &list->estimates);
  const std::size_t count = tasks->size();
  engine::Job job;
  job.fingerprint = fingerprint + " outer=" + std::to_string(outer);
  job.counter_names = {"all", "rot180", "rot90"};
  job.task_count = count + 2;
  job.split_depth = -1;
  job.run_task = [n, outer, tasks, count](std::size_t id, engine::Tally& out) {
    if (id >= count) {
      const bool half = id == count;
      add_rotation_symmetric(n, half, half ? kJRot180 : kJRot90, out);
      return;
    }
    const JoinTaskCount c = count_join_task(n, outer, (*tasks)[id]);
    out.add(kJAll, c.solutions);
    out.nodes = checked_add(out.nodes, c.placements);
  };
  job.estimate = [estimates, count](std::size_t id) { return id < count ? (*estimates)[id].work : 0.0; };
  // Size estimate in search-node equivalents for the feasibility check
  // (which assumes 1e9 nodes per second): a placement costs about one node,
  // and the join tests about a tenth of the key pairs (bucketing), ten per
  // node's time, so pairs / 100.
  job.probe = [estimates, count](std::size_t id, std::mt19937_64&) {
    if (id >= count) return 0.0;
    const TaskEstimate& e = (*estimates)[id];
    return e.placements + (e.work - e.placements) / 100.0;
  };
  return job;
}

double join_memory_estimate(int n, int outer, int workers) {
  check_join(n, outer);
  const auto& e = task_list(n, outer)->estimates;
  double largest = 0;
  for (const auto& x : e) largest = std::max(largest, x.placements);
  // 32 bytes per placement bound the task's parts (28 bytes per part
  // placement while built, with room for vector growth; far fewer part
  // placements than half placements: N = 18, 81 thousand against 410
  // thousand per task) and one group's placements; plus about 1 MiB of
  // tables and one group's buckets per worker.
  // The program itself (code, libraries, thread stacks) takes about 16 MiB.
  return static_cast<double>(std::max(1, workers)) * (largest * (12.0 * 2.0 + 8.0) + (1 << 20)) + (16 << 20);
}

QueensCounts join_counts(int n, const engine::Tally& totals) {
  return burnside(n, totals.get(kJAll), totals.get(kJRot180), totals.get(kJRot90));
}

}  // namespace pcount::queens
