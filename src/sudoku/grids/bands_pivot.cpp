// Ordered 1-factorisations of a k-regular bipartite graph by a rooted edge
// pivot, the degree-4 two-factor identity and a memo of 4-regular residual
// graphs keyed by canonical form (`--method factorisations`;
// docs/sudoku-grids.md, "The factorisations method").
//
// F(G) = number of ordered 1-factorisations (M_1, …, M_k) of the k-regular
// graph G.
// - Pivot: a fixed edge e lies in exactly one of the k matchings, at any of
//   the k positions, so F(G) = k · Σ_{M ∋ e} F(G − M) over the perfect
//   matchings M through e; e is the edge with the fewest of them.
// - Degree 4: with e1, e2 two edges at column 0, the matchings holding them
//   form a 2-factor H ∋ e1, e2; H splits into that ordered pair in
//   2^(c(H)−1) ways, G − H into an ordered pair in 2^c(G−H) ways, and the
//   two pairs take their 4·3 positions, so
//     F₄(G) = 6 · Σ_{H ∋ e1, e2} 2^(c(H) + c(G − H)),   c = cycles.
// - Degree 2: F₂ = 2^c (each cycle has two matchings).
// The cycles of H and of G − H are counted while H is built column by
// column: a 2-regular bipartite graph is, on its digits, a graph with one
// edge per column, and its cycles are its components.
// The classes: the stack-configuration orbits (stack_configuration_classes)
// up to C = 4, the orderly classes of two_column_signature_classes for C = 5.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include "bipartite.hpp"
#include "pcount/engine/fingerprint.hpp"
#include "pcount/engine/hash.hpp"
#include "pcount/errors.hpp"
#include "pcount/engine/split.hpp"
#include "pcount/engine/task.hpp"
#include "pcount/sudoku/grids/bands.hpp"

namespace pcount::sudoku {

namespace {

constexpr int kMaxColumns = 32;
using Graph = std::array<std::uint32_t, kMaxColumns>;

struct KeyHash {
  std::size_t operator()(u128 k) const noexcept {
    std::uint64_t x = static_cast<std::uint64_t>(k) ^ (static_cast<std::uint64_t>(k >> 64) * 0x9e3779b97f4a7c15ULL);
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 29;
    return static_cast<std::size_t>(x);
  }
};

/// Digit components of a growing 2-regular graph (one edge per column
/// joining its two digits): lab[d] names d's component.
struct Components {
  std::array<std::uint8_t, kMaxColumns> lab;
  int merges = 0;

  void join(int a, int b) {
    const std::uint8_t la = lab[static_cast<std::size_t>(a)];
    const std::uint8_t lb = lab[static_cast<std::size_t>(b)];
    if (la == lb) return;
    ++merges;
    for (std::uint8_t& x : lab) x = x == lb ? la : x;
  }
};

Graph checked_graph(std::span<const std::uint32_t> adjacency, int k) {
  const auto n = static_cast<int>(adjacency.size());
  if (n < 1 || n > kMaxColumns) throw std::invalid_argument("1-factorisation needs 1..32 columns");
  if (k < 1 || k > n) throw std::invalid_argument("1-factorisation degree k must be 1..n");
  Graph g{};
  std::array<int, kMaxColumns> digit_degree{};
  const std::uint32_t all = n == 32 ? ~0u : (1u << n) - 1u;
  for (int c = 0; c < n; ++c) {
    const std::uint32_t m = adjacency[static_cast<std::size_t>(c)];
    if ((m & ~all) || __builtin_popcount(m) != k)
      throw std::invalid_argument("column " + std::to_string(c) + " does not have exactly k digits");
    g[static_cast<std::size_t>(c)] = m;
    for (std::uint32_t b = m; b; b &= b - 1) ++digit_degree[static_cast<std::size_t>(__builtin_ctz(b))];
  }
  for (int d = 0; d < n; ++d)
    if (digit_degree[static_cast<std::size_t>(d)] != k)
      throw std::invalid_argument("digit " + std::to_string(d) + " does not have degree k");
  return g;
}

/// The counter of one graph size (n columns, n digits); one per thread.
class PivotCounter {
public:
  PivotCounter(int n, FactorisationMemo* memo)
      : n_(n), memo_(n <= detail::BipartiteCanoniser::kMaxColumns ? memo : nullptr), canon_(n, true) {}

  /// F(g) of the k-regular graph g.
  u128 count(const Graph& g, int k) {
    if (k <= 1) return 1;
    if (k == 2) return static_cast<u128>(1) << detail::cycles_of_two_factor(g.data(), n_);
    if (k == 4) return degree_four(g);
    return by_pivot(g, k);
  }

  /// F(g) as count() does, for the top call of a task: while the run wants
  /// parts (engine::Subtasks) it gives away the untried choices of the
  /// shallowest open level of its outer search (the pivot's matchings, or
  /// the first columns of degree four's 2-factor). B is the sum of the
  /// parts' sums, scaled (× k, × 6) after the join; the memo is shared.
  u128 count_splitting(const Graph& g, int k) {
    engine::Subtasks parts;
    if (!parts.enabled() || k <= 2) return count(g, k);
    engine::Tally sum(1);
    if (k == 4) {
      start_degree_four(g);
      FourWalk walk{g, parts, n_ - (n_ + 1) / 2};
      walk_four(walk, all_ & ~1u, first_pair_, 0, h0_, r0_);
      sum.add(0, sum_);
      parts.join(sum);
      return checked_mul(sum.get(0), 6);
    }
    Graph pinned{};
    const Graph m{};
    pin(g, pinned);
    PivotWalk walk{g, pinned, k, m, parts, 0};
    walk_pivot(walk, 0, 0, pinned[0]);
    sum.add(0, walk.sum);
    parts.join(sum);
    return checked_mul(sum.get(0), static_cast<u128>(k));
  }

private:
  /// F of a residual graph of degree k, through the memo from degree 4.
  u128 residual(const Graph& g, int k) {
    if (k < 4 || memo_ == nullptr) return count(g, k);
    const u128 key = canon_.key(g.data()) ^ (static_cast<u128>(k) << 123);
    u128 value = 0;
    if (memo_->find(key, value)) return value;
    value = count(g, k);
    memo_->insert(key, value);
    return value;
  }

  /// Calls leaf(m) for every perfect matching m of g (m[c] = digit bit of column c).
  template <class Leaf>
  void matchings(const Graph& g, int col, std::uint32_t used, Graph& m, Leaf&& leaf) {
    if (col == n_) {
      leaf(m);
      return;
    }
    for (std::uint32_t options = g[static_cast<std::size_t>(col)] & ~used; options; options &= options - 1) {
      const std::uint32_t bit = options & (0u - options);
      m[static_cast<std::size_t>(col)] = bit;
      matchings(g, col + 1, used | bit, m, leaf);
    }
  }

  u128 by_pivot(const Graph& g, int k) {
    Graph pinned{};
    pin(g, pinned);
    Graph m{};
    u128 total = 0;
    matchings(pinned, 0, 0, m, [&](const Graph& pm) {
      poll_.tick();
      Graph rest{};
      for (int c = 0; c < n_; ++c)
        rest[static_cast<std::size_t>(c)] = g[static_cast<std::size_t>(c)] & ~pm[static_cast<std::size_t>(c)];
      total = checked_add(total, residual(rest, k - 1));
    });
    return checked_mul(total, static_cast<u128>(k));
  }

  /// `pinned` = g with the pivot edge's column cut to the pivot digit: the
  /// perfect matchings through the rarest edge (the fewest matchings).
  void pin(const Graph& g, Graph& pinned) {
    std::array<std::array<std::uint32_t, kMaxColumns>, kMaxColumns> through{};
    Graph m{};
    matchings(g, 0, 0, m, [&](const Graph& pm) {
      for (int c = 0; c < n_; ++c) {
        const auto i = static_cast<std::size_t>(c);
        ++through[i][static_cast<std::size_t>(__builtin_ctz(pm[i]))];
      }
    });
    int pivot_col = 0;
    int pivot_digit = __builtin_ctz(g[0]);
    for (int c = 0; c < n_; ++c)
      for (std::uint32_t b = g[static_cast<std::size_t>(c)]; b; b &= b - 1) {
        const int d = __builtin_ctz(b);
        if (through[static_cast<std::size_t>(c)][static_cast<std::size_t>(d)] <
            through[static_cast<std::size_t>(pivot_col)][static_cast<std::size_t>(pivot_digit)]) {
          pivot_col = c;
          pivot_digit = d;
        }
      }
    pinned = g;
    pinned[static_cast<std::size_t>(pivot_col)] = 1u << pivot_digit;
  }

  u128 degree_four(const Graph& g) {
    start_degree_four(g);
    grow(g, all_ & ~1u, first_pair_, 0, h0_, r0_);
    return checked_mul(static_cast<u128>(sum_), 6);
  }

  /// Degree four's start: column 0 gives H its two smallest digits (the
  /// root edge pair, first_pair_), G − H the other two; sum_ = 0.
  void start_degree_four(const Graph& g) {
    all_ = (1u << n_) - 1u;
    for (std::size_t d = 0; d < h0_.lab.size(); ++d) h0_.lab[d] = static_cast<std::uint8_t>(d);
    h0_.merges = 0;
    r0_ = h0_;
    sum_ = 0;
    const std::uint32_t a = g[0] & (0u - g[0]);
    const std::uint32_t b = (g[0] ^ a) & (0u - (g[0] ^ a));
    const std::uint32_t rest = g[0] & ~(a | b);
    h0_.join(__builtin_ctz(a), __builtin_ctz(b));
    r0_.join(__builtin_ctz(rest), 31 - __builtin_clz(rest));
    first_pair_ = a | b;
  }

  /// Extends H by one of the columns `left` (digits `once` / `twice` in H
  /// once / twice so far): the column with the fewest digit pairs left,
  /// counting forced digits (a digit with exactly as many columns left as
  /// it still needs must be taken by all of them). Cut: every digit must
  /// still be able to reach degree 2.
  void grow(const Graph& g, std::uint32_t left, std::uint32_t once, std::uint32_t twice, const Components& h,
            const Components& r) {
    std::uint32_t must = 0;
    const int best = next_column(g, left, once, twice, h, r, must);
    if (best < 0) return;
    const std::uint32_t column = g[static_cast<std::size_t>(best)];
    const std::uint32_t open = column & ~twice;
    for (std::uint32_t x = open; x; x &= x - 1) {
      const std::uint32_t lo = x & (0u - x);
      for (std::uint32_t y = x & (x - 1); y; y &= y - 1) {
        const std::uint32_t pair = lo | (y & (0u - y));
        if (must & ~pair) continue;
        const std::uint32_t rest = column & ~pair;
        Components h2 = h;
        Components r2 = r;
        h2.join(__builtin_ctz(pair), 31 - __builtin_clz(pair));
        r2.join(__builtin_ctz(rest), 31 - __builtin_clz(rest));
        grow(g, left & ~(1u << best), once ^ pair, twice | (once & pair), h2, r2);
      }
    }
  }

  /// grow's column: the best column to extend H by (its forced digits in
  /// `must`), or −1 when H cannot be completed or is complete (then its
  /// term is added to sum_).
  [[gnu::always_inline]] int next_column(const Graph& g, std::uint32_t left, std::uint32_t once, std::uint32_t twice,
                                         const Components& h, const Components& r, std::uint32_t& must) {
    std::uint32_t c1 = 0, c2 = 0, c3 = 0;  // digits open in ≥ 1, ≥ 2, ≥ 3 of the columns left
    for (std::uint32_t l = left; l; l &= l - 1) {
      const std::uint32_t open = g[static_cast<std::size_t>(__builtin_ctz(l))] & ~twice;
      c3 |= c2 & open;
      c2 |= c1 & open;
      c1 |= open;
    }
    const std::uint32_t unused = all_ & ~once & ~twice;
    if ((unused & ~c2) || (once & ~c1)) return -1;
    if (left == 0) {
      sum_ += std::uint64_t{1} << ((n_ - h.merges) + (n_ - r.merges));
      if (++leaves_ == 0x10000) {
        leaves_ = 0;
        engine::throw_if_stopped();
      }
      return -1;
    }
    const std::uint32_t forced = (unused & c2 & ~c3) | (once & c1 & ~c2);
    int best = -1;
    int best_options = 1 << 20;
    for (std::uint32_t l = left; l; l &= l - 1) {
      const int col = __builtin_ctz(l);
      const std::uint32_t open = g[static_cast<std::size_t>(col)] & ~twice;
      const int m = __builtin_popcount(open);
      const int f = __builtin_popcount(open & forced);
      if (m < 2 || f > 2) return -1;
      const int options = f == 2 ? 1 : f == 1 ? m - 1 : m * (m - 1) / 2;
      if (options < best_options) {
        best_options = options;
        best = col;
        if (options == 1) break;
      }
    }
    must = g[static_cast<std::size_t>(best)] & ~twice & forced;
    return best;
  }

  /// The state of a splitting walk of degree four's 2-factors: per level
  /// (columns placed), the untried digit pairs of its column and what a
  /// part needs to go on from there. Levels from `plain_below` columns left
  /// on run grow().
  struct FourLevel {
    std::array<std::uint32_t, 6> pairs{};  ///< at most binom(4, 2) pairs
    int count = 0;
    int next = 0;  ///< pairs[next..count) are untried
    int column = 0;
    std::uint32_t left = 0, once = 0, twice = 0;
    Components h{}, r{};
  };
  struct FourWalk {
    const Graph& g;
    engine::Subtasks& parts;
    int plain_below;
    std::array<FourLevel*, kMaxColumns> levels{};
    int depth = 0;  ///< levels open
  };

  /// grow() from (left, once, twice, h, r), giving parts away.
  void walk_four(FourWalk& w, std::uint32_t left, std::uint32_t once, std::uint32_t twice, const Components& h,
                 const Components& r) {
    if (__builtin_popcount(left) <= w.plain_below) return grow(w.g, left, once, twice, h, r);
    if (w.parts.wanted()) offer_four(w);
    std::uint32_t must = 0;
    const int best = next_column(w.g, left, once, twice, h, r, must);
    if (best < 0) return;
    FourLevel level;
    level.column = best;
    level.left = left;
    level.once = once;
    level.twice = twice;
    level.h = h;
    level.r = r;
    const std::uint32_t open = w.g[static_cast<std::size_t>(best)] & ~twice;
    for (std::uint32_t x = open; x; x &= x - 1) {
      const std::uint32_t lo = x & (0u - x);
      for (std::uint32_t y = x & (x - 1); y; y &= y - 1) {
        const std::uint32_t pair = lo | (y & (0u - y));
        if (!(must & ~pair)) level.pairs[static_cast<std::size_t>(level.count++)] = pair;
      }
    }
    w.levels[static_cast<std::size_t>(w.depth++)] = &level;
    while (level.next < level.count) four_pair(w, level, level.pairs[static_cast<std::size_t>(level.next++)]);
    --w.depth;
  }

  /// One pair of `level`'s column in H, then the walk below it.
  void four_pair(FourWalk& w, const FourLevel& level, std::uint32_t pair) {
    const std::uint32_t rest = w.g[static_cast<std::size_t>(level.column)] & ~pair;
    Components h2 = level.h;
    Components r2 = level.r;
    h2.join(__builtin_ctz(pair), 31 - __builtin_clz(pair));
    r2.join(__builtin_ctz(rest), 31 - __builtin_clz(rest));
    walk_four(w, level.left & ~(1u << level.column), level.once ^ pair, level.twice | (level.once & pair), h2, r2);
  }

  /// Gives away the untried pairs of the shallowest level that has any.
  void offer_four(FourWalk& w) {
    for (int d = 0; d < w.depth; ++d) {
      FourLevel& open = *w.levels[static_cast<std::size_t>(d)];
      if (open.next == open.count) continue;
      FourLevel part = open;
      open.next = open.count;
      w.parts.give(engine::counting_part(
          0, [part, g = w.g, plain_below = w.plain_below, n = n_, memo = memo_](engine::Subtasks& more) {
            PivotCounter counter(n, memo);
            counter.all_ = (1u << n) - 1u;
            FourWalk walk{g, more, plain_below};
            FourLevel level = part;
            walk.levels[0] = &level;
            walk.depth = 1;
            while (level.next < level.count)
              counter.four_pair(walk, level, level.pairs[static_cast<std::size_t>(level.next++)]);
            return counter.sum_;
          }));
      return;
    }
  }

  /// The state of a splitting walk of the pivot's matchings: per column,
  /// the untried digits (null past the walk's path) and the sum so far.
  struct PivotWalk {
    const Graph& g;
    const Graph& pinned;
    int k;
    Graph m;  ///< the matching so far, by column
    engine::Subtasks& parts;
    int start;  ///< the first column this walk fills
    std::array<std::uint32_t*, kMaxColumns> rest{};
    u128 sum = 0;  ///< Σ F(g − M) over the matchings M met
  };

  /// The pivot's matchings from column `col` on (`used`: the digits of the
  /// columns before), column col taking one of `options`; adds F(g − M) to
  /// the walk's sum for each, giving parts away.
  void walk_pivot(PivotWalk& w, int col, std::uint32_t used, std::uint32_t options) {
    const auto i = static_cast<std::size_t>(col);
    w.rest[i] = &options;
    while (options) {
      const std::uint32_t bit = options & (0u - options);
      options ^= bit;
      w.m[i] = bit;
      if (col + 1 < n_) {
        walk_pivot(w, col + 1, used | bit, w.pinned[i + 1] & ~(used | bit));
        continue;
      }
      if (w.parts.wanted()) offer_pivot(w);
      poll_.tick();
      Graph rest{};
      for (int c = 0; c < n_; ++c)
        rest[static_cast<std::size_t>(c)] = w.g[static_cast<std::size_t>(c)] & ~w.m[static_cast<std::size_t>(c)];
      w.sum = checked_add(w.sum, residual(rest, w.k - 1));
    }
    w.rest[i] = nullptr;
  }

  /// Gives away the untried digits of the shallowest column that has any.
  void offer_pivot(PivotWalk& w) {
    for (int at = w.start; at < n_; ++at) {
      const auto a = static_cast<std::size_t>(at);
      if (w.rest[a] == nullptr || *w.rest[a] == 0) continue;
      std::uint32_t used = 0;
      for (std::size_t c = 0; c < a; ++c) used |= w.m[c];
      const std::uint32_t options = std::exchange(*w.rest[a], 0u);
      w.parts.give(engine::counting_part(0, [g = w.g, pinned = w.pinned, k = w.k, m = w.m, at, used, options, n = n_,
                                             memo = memo_](engine::Subtasks& more) {
        PivotCounter counter(n, memo);
        PivotWalk walk{g, pinned, k, m, more, at};
        counter.walk_pivot(walk, at, used, options);
        return walk.sum;
      }));
      return;
    }
  }

  int n_;
  FactorisationMemo* memo_;
  detail::BipartiteCanoniser canon_;
  engine::StopPoll<> poll_{};
  std::uint32_t all_ = 0;
  std::uint64_t sum_ = 0;
  std::uint32_t leaves_ = 0;
  Components h0_{}, r0_{};  ///< degree four's start (start_degree_four)
  std::uint32_t first_pair_ = 0;
};

}  // namespace

struct FactorisationMemo::Impl {
  static constexpr std::size_t kShards = 64;
  struct Shard {
    std::mutex mutex;
    std::unordered_map<u128, u128, KeyHash> map;
    std::uint64_t lookups = 0;
    std::uint64_t hits = 0;
  };
  std::size_t per_shard = 0;
  std::size_t max_entries = 0;
  std::array<Shard, kShards> shards;
};

FactorisationMemo::FactorisationMemo(std::size_t max_entries) : impl_(std::make_unique<Impl>()) {
  impl_->max_entries = max_entries;
  impl_->per_shard = max_entries / Impl::kShards;
}

FactorisationMemo::~FactorisationMemo() = default;

bool FactorisationMemo::find(u128 key, u128& value) {
  Impl::Shard& s = impl_->shards[KeyHash{}(key) % Impl::kShards];
  const std::lock_guard lock(s.mutex);
  ++s.lookups;
  const auto it = s.map.find(key);
  if (it == s.map.end()) return false;
  ++s.hits;
  value = it->second;
  return true;
}

void FactorisationMemo::insert(u128 key, u128 value) {
  Impl::Shard& s = impl_->shards[KeyHash{}(key) % Impl::kShards];
  const std::lock_guard lock(s.mutex);
  if (s.map.size() < impl_->per_shard) s.map.emplace(key, value);
}

FactorisationMemo::Stats FactorisationMemo::stats() const {
  Stats st;
  st.max_entries = impl_->max_entries;
  for (Impl::Shard& s : impl_->shards) {
    const std::lock_guard lock(s.mutex);
    st.lookups += s.lookups;
    st.hits += s.hits;
    st.entries += s.map.size();
    st.bytes += s.map.size() * kBytesPerEntry + s.map.bucket_count() * sizeof(void*);
  }
  return st;
}

u128 pivot_factorisations(std::span<const std::uint32_t> adjacency, int k, FactorisationMemo* memo) {
  const Graph g = checked_graph(adjacency, k);
  PivotCounter counter(static_cast<int>(adjacency.size()), memo);
  return counter.count_splitting(g, k);
}

namespace {

constexpr int kMaxStackC = 5;
/// A stack configuration's histogram: hist[p] = digits whose box pattern
/// (bit b: the digit is in S_b) is p.
using Histogram = std::array<std::uint8_t, std::size_t{1} << kMaxStackC>;

struct HistogramHash {
  std::size_t operator()(const Histogram& h) const noexcept {
    std::array<std::uint64_t, 4> w{};
    std::memcpy(w.data(), h.data(), sizeof w);
    std::uint64_t x = w[0] * 0x9e3779b97f4a7c15ULL ^ w[1] * 0xc2b2ae3d27d4eb4fULL ^ w[2] * 0x165667b19e3779f9ULL ^
                      w[3] * 0xd6e8feb86659fd93ULL;
    x ^= x >> 32;
    x *= 0xbf58476d1ce4e5b9ULL;
    return static_cast<std::size_t>(x ^ (x >> 29));
  }
};

/// Every histogram over 2^c patterns with 2c digits and c digits in each S_b.
void enumerate_histograms(int c, int p, int left, std::array<int, kMaxStackC>& in_row, Histogram& h,
                          std::vector<Histogram>& out) {
  const int patterns = 1 << c;
  if (p == patterns) {
    if (left == 0) out.push_back(h);
    return;
  }
  // Row b needs c digits in S_b and c outside; patterns ≥ p place the rest,
  // and none of them lies outside S_b once p > patterns - 1 - 2^b.
  const int placed = 2 * c - left;
  for (int b = 0; b < c; ++b) {
    const int in = in_row[static_cast<std::size_t>(b)];
    if (in > c || placed - in > c) return;
    if (p > patterns - 1 - (1 << b) && placed - in != c) return;
  }
  for (int t = 0; t <= left; ++t) {
    bool fits = true;
    for (int b = 0; b < c; ++b)
      fits = fits && (((p >> b) & 1) ? in_row[static_cast<std::size_t>(b)] + t <= c
                                     : placed + t - in_row[static_cast<std::size_t>(b)] <= c);
    if (!fits) break;
    for (int b = 0; b < c; ++b)
      if ((p >> b) & 1) in_row[static_cast<std::size_t>(b)] += t;
    h[static_cast<std::size_t>(p)] = static_cast<std::uint8_t>(t);
    enumerate_histograms(c, p + 1, left - t, in_row, h, out);
    for (int b = 0; b < c; ++b)
      if ((p >> b) & 1) in_row[static_cast<std::size_t>(b)] -= t;
  }
  h[static_cast<std::size_t>(p)] = 0;
}

}  // namespace

std::vector<BandSignatureClass> stack_configuration_classes(int c) {
  if (c < 2 || c > kMaxStackC) throw std::invalid_argument("stack configurations need 2 ≤ C ≤ 5");
  const int patterns = 1 << c;
  std::vector<Histogram> all;
  std::array<int, kMaxStackC> in_row{};
  Histogram h{};
  enumerate_histograms(c, 0, 2 * c, in_row, h, all);
  std::unordered_map<Histogram, std::uint32_t, HistogramHash> index;
  index.reserve(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) index.emplace(all[i], static_cast<std::uint32_t>(i));
  // Orbits under row complements (flip bit b) and row permutations (swap
  // bits b, b+1), by breadth-first closure; `all` is in increasing order,
  // so an orbit is met first at its least histogram, its representative.
  u128 labellings_all = 1;  // (2c)!
  for (int i = 2; i <= 2 * c; ++i) labellings_all *= static_cast<u128>(i);
  std::vector<bool> seen(all.size(), false);
  std::vector<std::uint32_t> queue;
  std::vector<BandSignatureClass> classes;
  for (std::size_t start = 0; start < all.size(); ++start) {
    if (seen[start]) continue;
    seen[start] = true;
    queue.assign(1, static_cast<std::uint32_t>(start));
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const Histogram& cur = all[queue[head]];
      for (int g = 0; g < 2 * c - 1; ++g) {
        Histogram next{};
        for (int p = 0; p < patterns; ++p) {
          int q = p ^ (1 << g);  // g < c: complement row g
          if (g >= c) {          // else swap rows g-c, g-c+1
            const int b = g - c;
            q = ((p >> b) & 1) == ((p >> (b + 1)) & 1) ? p : p ^ (3 << b);
          }
          next[static_cast<std::size_t>(q)] = cur[static_cast<std::size_t>(p)];
        }
        const std::uint32_t j = index.at(next);
        if (!seen[j]) {
          seen[j] = true;
          queue.push_back(j);
        }
      }
    }
    // weight = orbit size × digit labellings with that histogram
    const Histogram& rep = all[start];
    u128 labellings = labellings_all;
    for (int p = 0; p < patterns; ++p)
      for (int f = 2; f <= rep[static_cast<std::size_t>(p)]; ++f) labellings /= static_cast<u128>(f);
    BandSignatureClass cls;
    cls.weight = checked_mul(labellings, static_cast<u128>(queue.size()));
    // columns 2b = S_b, 2b+1 = its complement; digits numbered in pattern order
    cls.columns.assign(2 * static_cast<std::size_t>(c), 0);
    int digit = 0;
    for (int p = 0; p < patterns; ++p)
      for (int k = 0; k < rep[static_cast<std::size_t>(p)]; ++k, ++digit)
        for (int b = 0; b < c; ++b)
          cls.columns[static_cast<std::size_t>(2 * b + (((p >> b) & 1) ? 0 : 1))] |= 1u << digit;
    classes.push_back(std::move(cls));
  }
  return classes;
}

namespace {

/// `--method factorisations`: N = Σ_class weight · B², the classes of
/// stack_configuration_classes (C ≤ 4) or two_column_signature_classes
/// (C = 5), B by pivot_factorisations with one memo
/// shared by the job's tasks.
class PivotBands final : public BandCount {
public:
  PivotBands(int c, int threads, std::size_t memo_entries)
      : c_(c), memo_(std::make_shared<FactorisationMemo>(memo_entries)) {
    if (c < 2 || c > 5) throw std::invalid_argument("factorisations need 2 ≤ C ≤ 5");
    // Up to C = 4 the stack-configuration orbits are found fastest (1,450
    // histograms for C = 4: about 1 ms, against 6 ms for the orderly
    // generation); for C = 5 the 589,392 histograms take 2.5 s, the orderly
    // generation 0.12 s (one thread, this machine).
    classes_ = c <= 4 ? stack_configuration_classes(c) : two_column_signature_classes(c, threads).classes;
    check_classes();
    engine::Fnv1a64 hash;
    const auto mix = [&hash](u128 v) { hash.add_le128(v); };
    for (const auto& e : classes_) {
      for (std::uint32_t col : e.columns) mix(col);
      mix(e.weight);
    }
    list_hash_ = hash.value();
  }

  [[nodiscard]] std::size_t class_count() const override { return classes_.size(); }

  [[nodiscard]] engine::Job job(std::string fingerprint) const override {
    engine::Job job;
    job.fingerprint = engine::Fingerprint::extending(std::move(fingerprint))
                          .add("classes", class_count())
                          .add_hex("list", list_hash_);
    auto classes = std::make_shared<const std::vector<BandSignatureClass>>(classes_);
    const int c = c_;
    u128 c_factorial = 1;
    for (int i = 2; i <= c; ++i) c_factorial *= static_cast<u128>(i);
    job.counter_names = {"weighted B squared"};
    job.task_count = class_count();
    job.splits = true;  // pivot_factorisations gives parts of B's search away
    job.run_task = [classes, c, c_factorial, memo = memo_](std::size_t id, engine::Tally& out) {
      const BandSignatureClass& e = (*classes)[id];
      const u128 b = pivot_factorisations(e.columns, c, memo.get());
      // Row order acts freely on the bands of a signature: C! divides B.
      if (b == 0 || b % c_factorial != 0)
        throw InternalError("B of 2x" + std::to_string(c) + " class " + std::to_string(id) +
                            " is not a positive multiple of C!");
      out.add(0, checked_mul(e.weight, checked_mul(b, b)));
    };
    return job;
  }

  [[nodiscard]] BigInt total(const engine::Tally& totals) const override { return to_big(totals.get(0)); }

  [[nodiscard]] std::vector<RunStat> run_stats() const override {
    const FactorisationMemo::Stats st = memo_->stats();
    return {{"memo_lookups", static_cast<double>(st.lookups), true},
            {"memo_hits", static_cast<double>(st.hits), true},
            {"memo_hit_rate", st.lookups ? static_cast<double>(st.hits) / static_cast<double>(st.lookups) : 0.0, false},
            {"memo_entries", static_cast<double>(st.entries), true},
            {"memo_bytes", static_cast<double>(st.bytes), true},
            {"memo_bound_entries", static_cast<double>(st.max_entries), true}};
  }

private:
  /// Run-time self-checks: 2, 4, 26, 355 classes for C = 2..5 (as many as
  /// the histogram orbits of C × 2C stack configurations under row
  /// permutations and complements) whose weights sum to binom(2C,C)^C.
  void check_classes() const {
    constexpr std::size_t kClasses[] = {2, 4, 26, 355};
    if (classes_.size() != kClasses[c_ - 2])
      throw InternalError("2x" + std::to_string(c_) + " has " + std::to_string(classes_.size()) +
                          " band classes, expected " + std::to_string(kClasses[c_ - 2]));
    u128 binom = 1;
    for (int i = 1; i <= c_; ++i) binom = binom * static_cast<u128>(c_ + i) / static_cast<u128>(i);
    u128 all = 1;
    u128 sum = 0;
    for (int i = 0; i < c_; ++i) all = checked_mul(all, binom);
    for (const auto& e : classes_) sum = checked_add(sum, e.weight);
    if (sum != all) throw InternalError("2x" + std::to_string(c_) + " class weights do not sum to binom(2C,C)^C");
  }

  int c_;
  std::shared_ptr<FactorisationMemo> memo_;  ///< shared by every job() and task
  std::vector<BandSignatureClass> classes_;
  std::uint64_t list_hash_ = 0;
};

}  // namespace

std::shared_ptr<const BandCount> make_bands_factorisations(int c, int threads, std::size_t memo_entries) {
  return std::make_shared<const PivotBands>(c, threads, memo_entries);
}

}  // namespace pcount::sudoku
