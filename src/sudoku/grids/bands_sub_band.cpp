// 2xC and Cx2 sudoku grids (side 2C, C = 2..6) by N = Σ_σ B(σ)², with the
// signature classes found by orderly generation and B(σ) counted by a
// sub-band split (docs/sudoku-grids.md, "The sub-band method").
//
// Signatures. Transposed to boxes of C rows × 2 columns a band has C boxes;
// its signature gives each box's two column sets {S_b, complement}. The
// group acting on ordered signatures is digit relabelling ((2C)!), box order
// (C!) and swapping a box's two columns (2^C). Its orbits are built box by
// box: the orbits of multisets of t+1 column pairs are those of t pairs with
// one more pair added, deduplicated by the nauty canonical form of the
// coloured graph digits | columns | boxes. An orbit's size is the group
// order over its automorphism group order, so the sizes sum to
// binom(2C,C)^C (checked). Orbits whose column–digit graphs are isomorphic
// have the same B, so they are merged into one class (weights added).
//
// B by sub-bands (K. F. Pettersen's 4 + 2 split of the 6x2 bands, 2006; see
// docs/sources.md): the bottom two rows of a band form a 2-factor K of the
// column–digit graph G (every column and digit twice), the top C-2 rows a
// (C-2)-regular graph G−K, and the two parts are filled independently, so
//   B(G) = Σ_K 2^cycles(K) · F(G−K),
// F = ordered 1-factorisations. By the free action of row permutations,
// the bands whose bottom rows hold column 0's two smallest digits are
// 2!(C-2)!/C! of all, so only those K are enumerated and the sum is
// multiplied by binom(C,2). F(G−K) is counted by the same split (the top
// part's own bottom 2-factor, down to a closed-form 2-regular rest) and,
// from degree 4 (C = 6), memoised per isomorphism class of the top part
// (nauty canonical form) in a cache shared by all tasks.
#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "bipartite.hpp"
#include "pcount/engine/fingerprint.hpp"
#include "pcount/engine/hash.hpp"
#include "pcount/errors.hpp"
#include "pcount/engine/parallel.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/engine/split.hpp"
#include "pcount/engine/wide.hpp"
#include "pcount/graph/canonical.hpp"
#include "pcount/sudoku/grids/bands.hpp"

namespace pcount::sudoku {

namespace {

constexpr int kMaxSubBandC = 6;
constexpr int kMaxN = 2 * kMaxSubBandC;
/// Top parts of this degree and more are memoised by canonical form.
constexpr int kMemoFromDegree = 4;
using Graph = std::array<std::uint32_t, kMaxN>;

/// Limbs (base 2^64) of the weighted B² sum, one counter each: 2x6 totals
/// need 166 bits.
constexpr std::size_t kLimbs = 3;

u128 binomial(int n, int k) {
  u128 r = 1;
  for (int i = 1; i <= k; ++i) r = r * static_cast<u128>(n - k + i) / static_cast<u128>(i);
  return r;
}

/// 64-bit FNV-1a over the words of a canonical form.
struct WordsHash {
  std::size_t operator()(const std::vector<std::uint64_t>& w) const noexcept {
    engine::Fnv1a64 h;
    for (std::uint64_t x : w) h.add_word(x);
    return static_cast<std::size_t>(h.value());
  }
};

/// F of top parts by canonical form, shared by the tasks of one job.
/// Sharded by hash, each shard under its own mutex; stops growing at
/// `max_entries` (then misses are counted afresh, never stored).
class TopCache {
public:
  explicit TopCache(std::size_t max_entries) : per_shard_(max_entries / kShards + 1) {}

  bool find(const std::vector<std::uint64_t>& key, std::size_t hash, u128& value) {
    Shard& s = shards_[hash % kShards];
    const std::lock_guard lock(s.mutex);
    const auto it = s.map.find(key);
    if (it == s.map.end()) return false;
    value = it->second;
    return true;
  }
  void insert(const std::vector<std::uint64_t>& key, std::size_t hash, u128 value) {
    Shard& s = shards_[hash % kShards];
    const std::lock_guard lock(s.mutex);
    if (s.map.size() < per_shard_) s.map.emplace(key, value);
  }

private:
  static constexpr std::size_t kShards = 64;
  struct Shard {
    std::mutex mutex;
    std::unordered_map<std::vector<std::uint64_t>, u128, WordsHash> map;
  };
  std::size_t per_shard_;
  std::array<Shard, kShards> shards_;
};

/// The sub-band count of one k-regular graph on n = 2k columns / digits.
class SubBandCounter {
public:
  /// A counter for k-regular graphs on n columns / digits (n = 2k: a band;
  /// less than 2k for a top part).
  SubBandCounter(int k, TopCache* cache, int n = -1) : k_(k), n_(n < 0 ? 2 * k : n), cache_(cache) {}

  u128 count(const Graph& g) {
    if (k_ <= 1) return 1;
    if (k_ == 2) return static_cast<u128>(1) << detail::cycles_of_two_factor(g.data(), n_);
    g_ = g;
    prepare();
    total_ = 0;
    Graph chosen{};
    chosen[0] = pair0_;
    bottom(1, pair0_, 0, chosen);
    return checked_mul(total_, binomial(k_, 2));
  }

  /// count(g), for the top call of a task: while the run wants parts
  /// (engine::Subtasks) it gives away the untried digit pairs of the
  /// shallowest open column of the bottom 2-factor among the first half of
  /// the columns; each part adds its Σ 2^cycles(K) · F(G − K) to counter 0
  /// of its tally, and the sum of the parts is multiplied by binom(k, 2)
  /// after the join. The parts share the cache.
  u128 count_splitting(const Graph& g) {
    engine::Subtasks parts;
    if (!parts.enabled() || k_ <= 2) return count(g);
    g_ = g;
    prepare();
    total_ = 0;
    Walk walk{parts, 1, {}, {}};
    walk.chosen[0] = pair0_;
    walk_bottom(walk, 1, pair0_, 0);
    engine::Tally sum(1);
    sum.add(0, total_);
    parts.join(sum);
    return checked_mul(sum.get(0), binomial(k_, 2));
  }

  /// Knuth's estimate (1975) of the number of bottom 2-factors count()
  /// enumerates: the mean over `probes` random root-to-leaf paths of the
  /// product of the branching met.
  double estimate_leaves(const Graph& g, int probes, std::mt19937_64& rng) {
    if (k_ <= 2) return 1.0;
    g_ = g;
    prepare();
    double sum = 0.0;
    Graph chosen{};
    for (int p = 0; p < probes; ++p) sum += random_path(chosen, rng);
    return sum / probes;
  }

  /// One leaf probe (engine::Job::leaf_probe): a random path down the
  /// bottom 2-factor tree, then the leaf's work as count() does it (the
  /// caller decides, by the cache it gave, whether the top part is a hit).
  /// Returns the path's weight, 0 at a dead end.
  double probe_leaf(const Graph& g, std::mt19937_64& rng) {
    if (k_ <= 2) return 0.0;
    g_ = g;
    prepare();
    total_ = 0;
    Graph chosen{};
    const double weight = random_path(chosen, rng);
    if (weight > 0.0) leaf(chosen);
    return weight;
  }

private:
  void prepare() {
    const std::uint32_t d1 = g_[0] & (0u - g_[0]);
    const std::uint32_t rest = g_[0] ^ d1;
    pair0_ = d1 | (rest & (0u - rest));
    // Digits met at least once / twice in columns col..n-1.
    at_least_once_[static_cast<std::size_t>(n_)] = 0;
    at_least_twice_[static_cast<std::size_t>(n_)] = 0;
    for (int col = n_ - 1; col >= 0; --col) {
      const auto i = static_cast<std::size_t>(col);
      at_least_twice_[i] = at_least_twice_[i + 1] | (at_least_once_[i + 1] & g_[i]);
      at_least_once_[i] = at_least_once_[i + 1] | g_[i];
    }
  }

  /// Calls f(ab) for every digit pair column `col` may give the 2-factor
  /// with digits `once`/`twice` used once/twice so far, keeping every digit
  /// able to reach degree 2 in the columns after it.
  template <class F>
  void for_each_pair(int col, std::uint32_t once, std::uint32_t twice, F&& f) const {
    const auto i = static_cast<std::size_t>(col);
    const std::uint32_t all = (1u << n_) - 1u;
    std::uint32_t first = g_[i] & ~twice;
    int choice = -1;
    while (first) {
      const std::uint32_t a = first & (0u - first);
      first ^= a;
      std::uint32_t second = first;
      while (second) {
        const std::uint32_t b = second & (0u - second);
        second ^= b;
        ++choice;
        if (col == 1 && part_ >= 0 && choice != part_) continue;
        const std::uint32_t ab = a | b;
        const std::uint32_t new_twice = twice | (once & ab);
        const std::uint32_t new_once = (once ^ ab) & ~new_twice;
        const std::uint32_t none = all & ~new_once & ~new_twice;
        if ((none & ~at_least_twice_[i + 1]) || (new_once & ~at_least_once_[i + 1])) continue;
        f(ab);
      }
    }
  }

  /// A random path of the bottom 2-factor tree, each child uniform: fills
  /// `chosen` and returns the product of the branching met (0 at a dead
  /// end). Needs prepare().
  template <class Rng>
  double random_path(Graph& chosen, Rng& rng) const {
    chosen[0] = pair0_;
    double weight = 1.0;
    std::uint32_t once = pair0_, twice = 0;
    for (int col = 1; col < n_; ++col) {
      std::array<std::uint32_t, 64> options{};
      int m = 0;
      for_each_pair(col, once, twice, [&](std::uint32_t ab) { options[static_cast<std::size_t>(m++)] = ab; });
      if (m == 0) return 0.0;
      weight *= m;
      const std::uint32_t ab = options[static_cast<std::size_t>(rng() % static_cast<unsigned>(m))];
      chosen[static_cast<std::size_t>(col)] = ab;
      const std::uint32_t new_twice = twice | (once & ab);
      once = (once ^ ab) & ~new_twice;
      twice = new_twice;
    }
    return weight;
  }

  void bottom(int col, std::uint32_t once, std::uint32_t twice, Graph& chosen) {
    if (col == n_) {
      poll_.tick();
      if (++leaves_ > max_leaves_) throw LeafLimit{};
      leaf(chosen);
      return;
    }
    for_each_pair(col, once, twice, [&](std::uint32_t ab) {
      chosen[static_cast<std::size_t>(col)] = ab;
      const std::uint32_t new_twice = twice | (once & ab);
      bottom(col + 1, (once ^ ab) & ~new_twice, new_twice, chosen);
    });
  }

  /// One column's digit pairs in a splitting walk: pairs[next..count) are
  /// untried, `once` / `twice` the digits of the columns before it.
  struct Level {
    std::array<std::uint32_t, 64> pairs{};
    int count = 0;
    int next = 0;
    std::uint32_t once = 0, twice = 0;
  };
  /// A splitting walk of the bottom 2-factor: its open levels by column
  /// (from `start`), the pairs chosen so far.
  struct Walk {
    engine::Subtasks& parts;
    int start;
    std::array<Level*, kMaxN> levels;
    Graph chosen;
  };

  /// bottom(col, once, twice) with the walk's frames in the first half of
  /// the columns, giving parts away; below them bottom() runs as it is.
  void walk_bottom(Walk& w, int col, std::uint32_t once, std::uint32_t twice) {
    if (2 * col > n_) return bottom(col, once, twice, w.chosen);
    if (w.parts.wanted()) offer(w, col);
    Level level;
    level.once = once;
    level.twice = twice;
    for_each_pair(col, once, twice,
                  [&](std::uint32_t ab) { level.pairs[static_cast<std::size_t>(level.count++)] = ab; });
    w.levels[static_cast<std::size_t>(col)] = &level;
    while (level.next < level.count) walk_pair(w, col, level, level.pairs[static_cast<std::size_t>(level.next++)]);
    w.levels[static_cast<std::size_t>(col)] = nullptr;
  }

  /// Column col takes the digit pair `ab` of `level`, then the walk goes on.
  void walk_pair(Walk& w, int col, const Level& level, std::uint32_t ab) {
    w.chosen[static_cast<std::size_t>(col)] = ab;
    const std::uint32_t new_twice = level.twice | (level.once & ab);
    walk_bottom(w, col + 1, (level.once ^ ab) & ~new_twice, new_twice);
  }

  /// Gives away the untried pairs of the shallowest open column before `here`.
  void offer(Walk& w, int here) {
    for (int at = w.start; at < here; ++at) {
      Level* open = w.levels[static_cast<std::size_t>(at)];
      if (open == nullptr || open->next == open->count) continue;
      const Level part = *open;
      open->next = open->count;
      w.parts.give(engine::counting_part(
          0, [part, at, k = k_, n = n_, cache = cache_, g = g_, chosen = w.chosen](engine::Subtasks& more) {
            SubBandCounter counter(k, cache, n);
            counter.g_ = g;
            counter.prepare();
            Walk walk{more, at, {}, chosen};
            Level level = part;
            walk.levels[static_cast<std::size_t>(at)] = &level;
            while (level.next < level.count)
              counter.walk_pair(walk, at, level, level.pairs[static_cast<std::size_t>(level.next++)]);
            return counter.total_;
          }));
      return;
    }
  }

  void leaf(const Graph& k2) {
    const u128 lower = static_cast<u128>(1) << detail::cycles_of_two_factor(k2.data(), n_);
    Graph top{};
    for (int c = 0; c < n_; ++c)
      top[static_cast<std::size_t>(c)] = g_[static_cast<std::size_t>(c)] & ~k2[static_cast<std::size_t>(c)];
    total_ = checked_add(total_, checked_mul(lower, top_count(top)));
  }

  u128 top_count(const Graph& top) {
    const int degree = k_ - 2;
    if (degree <= 1) return 1;
    if (degree == 2) return static_cast<u128>(1) << detail::cycles_of_two_factor(top.data(), n_);
    // A 3-regular top part is counted faster than nauty labels it (2x5:
    // 8× slower with the cache, results/sudoku-grids-12.md); the cache pays
    // from degree 4 (2x6), whose direct count is ~10⁴ 2-factors. The top
    // part is split again the same way (bottom 2-factor, closed-form rest).
    // Degree 3 (2x5): the bands kernel (matchings, then 2^cycles) is faster
    // than another 2-factor split (149 vs 201 CPU-s for 2x5).
    const auto direct = [&] {
      return degree == 3 ? ordered_one_factorisations(
                               std::span<const std::uint32_t>(top.data(), static_cast<std::size_t>(n_)), 3)
                         : SubBandCounter(degree, nullptr, n_).count(top);
    };
    if (cache_ == nullptr || degree < kMemoFromDegree) return direct();
    const int cells[2] = {n_, n_};
    graph_.reset(cells);
    for (int c = 0; c < n_; ++c)
      for (std::uint32_t m = top[static_cast<std::size_t>(c)]; m; m &= m - 1) graph_.add_edge(c, n_ + __builtin_ctz(m));
    graph::canonical_form(graph_, form_);
    const std::size_t h = WordsHash{}(form_.rows);
    u128 value = 0;
    if (cache_->find(form_.rows, h, value)) {
      ++hits_;
      return value;
    }
    ++misses_;
    value = direct();
    cache_->insert(form_.rows, h, value);
    return value;
  }

public:
  /// Only this choice at column 1 (index among column 1's digit pairs in
  /// increasing order, before pruning), or all when negative.
  int part_ = -1;
  /// Bottom 2-factors enumerated so far.
  std::uint64_t leaves_ = 0;
  /// count() throws LeafLimit on the leaf past this many (measuring only).
  std::uint64_t max_leaves_ = ~std::uint64_t{0};
  /// Top parts found in / missing from the cache so far (measuring only).
  std::uint64_t hits_ = 0, misses_ = 0;
  struct LeafLimit {};

private:
  int k_;
  int n_;
  TopCache* cache_;
  Graph g_{};
  std::uint32_t pair0_ = 0;
  std::array<std::uint32_t, kMaxN + 1> at_least_once_{};
  std::array<std::uint32_t, kMaxN + 1> at_least_twice_{};
  u128 total_ = 0;
  engine::StopPoll<(1u << 12)> poll_{};
  graph::ColouredGraph graph_;
  graph::CanonicalForm form_;
};

Graph checked_regular(std::span<const std::uint32_t> adjacency, int k) {
  const auto n = static_cast<int>(adjacency.size());
  if (k < 1 || k > kMaxSubBandC || n != 2 * k)
    throw std::invalid_argument("sub-band count needs 1 ≤ k ≤ 6 and 2k columns");
  Graph g{};
  std::array<int, kMaxN> degree{};
  for (int c = 0; c < n; ++c) {
    const std::uint32_t m = adjacency[static_cast<std::size_t>(c)];
    if ((m >> n) != 0 || __builtin_popcount(m) != k)
      throw std::invalid_argument("column " + std::to_string(c) + " does not have exactly k digits");
    g[static_cast<std::size_t>(c)] = m;
    for (int d = 0; d < n; ++d) degree[static_cast<std::size_t>(d)] += (m >> d) & 1u;
  }
  for (int d = 0; d < n; ++d)
    if (degree[static_cast<std::size_t>(d)] != k)
      throw std::invalid_argument("digit " + std::to_string(d) + " does not have degree k");
  return g;
}

/// The coloured graph digits | columns | boxes of a multiset of column pairs.
/// The digits are cut into cells by an isomorphism invariant (per digit,
/// how many other digits share its side of 0, 1, 2, … boxes), cells in
/// increasing invariant order: nauty's refinement cannot split the digits of
/// this graph (each meets one column per box), so a finer start saves most
/// of its search. Isomorphisms keep the invariant, so canonical forms and
/// automorphism groups are those of the uncut graph's orbits.
void signature_graph(const std::vector<std::uint32_t>& sets, int c, graph::ColouredGraph& g) {
  const int digits = 2 * c;
  const int boxes = static_cast<int>(sets.size());
  std::array<std::uint64_t, kMaxN> order{};  // invariant << 8 | digit, sorted
  for (int d = 0; d < digits; ++d) {
    std::uint64_t inv = 0;  // 4 bits per number of shared boxes (≤ 6)
    for (int e = 0; e < digits; ++e) {
      if (e == d) continue;
      int shared = 0;
      for (std::uint32_t s : sets) shared += ((s >> d) & 1u) == ((s >> e) & 1u) ? 1 : 0;
      inv += std::uint64_t{1} << (4 * shared);
    }
    order[static_cast<std::size_t>(d)] = inv << 8 | static_cast<std::uint64_t>(d);
  }
  std::sort(order.begin(), order.begin() + digits);
  std::array<int, kMaxN + 2> cells{};
  std::array<int, kMaxN> vertex_of{};  // digit → vertex
  int cell_count = 0;
  for (int i = 0; i < digits; ++i) {
    vertex_of[static_cast<std::size_t>(order[static_cast<std::size_t>(i)] & 0xFF)] = i;
    if (i == 0 || (order[static_cast<std::size_t>(i)] >> 8) != (order[static_cast<std::size_t>(i - 1)] >> 8))
      ++cell_count;
    ++cells[static_cast<std::size_t>(cell_count - 1)];
  }
  cells[static_cast<std::size_t>(cell_count++)] = 2 * boxes;
  cells[static_cast<std::size_t>(cell_count++)] = boxes;
  g.reset(std::span<const int>(cells.data(), static_cast<std::size_t>(cell_count)));
  for (int b = 0; b < boxes; ++b) {
    const std::uint32_t s = sets[static_cast<std::size_t>(b)];
    for (int d = 0; d < digits; ++d)
      g.add_edge(vertex_of[static_cast<std::size_t>(d)], digits + 2 * b + (((s >> d) & 1u) ? 0 : 1));
    g.add_edge(digits + 2 * b, digits + 2 * boxes + b);
    g.add_edge(digits + 2 * b + 1, digits + 2 * boxes + b);
  }
}

/// The column–digit graph (columns | digits) of a full signature, as columns.
Graph columns_of(const std::vector<std::uint32_t>& sets, int c) {
  const std::uint32_t all = (1u << (2 * c)) - 1u;
  Graph g{};
  for (int b = 0; b < c; ++b) {
    g[static_cast<std::size_t>(2 * b)] = sets[static_cast<std::size_t>(b)];
    g[static_cast<std::size_t>(2 * b + 1)] = all & ~sets[static_cast<std::size_t>(b)];
  }
  return g;
}

std::vector<std::uint64_t> column_digit_key(const Graph& g, int c) {
  const int n = 2 * c;
  const int cells[2] = {n, n};
  graph::ColouredGraph cg(cells);
  for (int col = 0; col < n; ++col)
    for (std::uint32_t m = g[static_cast<std::size_t>(col)]; m; m &= m - 1) cg.add_edge(col, n + __builtin_ctz(m));
  return graph::canonical_form(cg).rows;
}

class SubBands final : public BandCount {
public:
  SubBands(int c, int threads) : c_(c) {
    const SignatureClasses found = two_column_signature_classes(c, threads);
    box_orbits_ = found.box_orbits;
    classes_ = found.classes;
    engine::Fnv1a64 hash;
    const auto mix = [&hash](u128 v) { hash.add_le128(v); };
    for (const auto& e : classes_) {
      for (std::uint32_t col : e.columns) mix(col);
      mix(e.weight);
    }
    list_hash_ = hash.value();
    // Task estimates: Knuth probes of each class's bottom 2-factors.
    std::vector<double> est(classes_.size(), 1.0);
    engine::for_each_index(classes_.size(), threads, [&](std::size_t i) {
      std::mt19937_64 rng(1975 + i);
      SubBandCounter counter(c, nullptr);
      Graph g{};
      std::copy(classes_[i].columns.begin(), classes_[i].columns.end(), g.begin());
      est[i] = 1.0 + counter.estimate_leaves(g, 64, rng);
    });
    estimates_ = std::make_shared<const std::vector<double>>(std::move(est));
  }

  [[nodiscard]] std::size_t class_count() const override { return classes_.size(); }

  [[nodiscard]] engine::Job job(std::string fingerprint) const override {
    engine::Job job;
    job.fingerprint = engine::Fingerprint::extending(std::move(fingerprint))
                          .add("classes", class_count())
                          .add_hex("list", list_hash_);
    auto classes = std::make_shared<const std::vector<BandSignatureClass>>(classes_);
    // F of the top parts, shared by every task of this job (about 10⁷
    // entries at most, ~1 GB at 2x6).
    auto cache = std::make_shared<TopCache>(std::size_t{1} << 23);
    const int c = c_;
    job.counter_names = engine::wide_counter_names("weighted B squared", kLimbs);
    job.task_count = class_count();
    job.splits = true;  // B's bottom 2-factors are given away in parts, B squared after the join
    job.run_task = [classes, cache, c](std::size_t id, engine::Tally& out) {
      const BandSignatureClass& e = (*classes)[id];
      Graph g{};
      std::copy(e.columns.begin(), e.columns.end(), g.begin());
      SubBandCounter counter(c, cache.get());
      const BigInt b = to_big(counter.count_splitting(g));
      const BigInt term = to_big(e.weight) * b * b;
      if (term >> (64 * kLimbs) != 0) throw InternalError("weighted B² of a band class exceeds 192 bits");
      engine::add_wide(out, 0, kLimbs, term);
    };
    auto estimates = estimates_;
    job.estimate = [estimates](std::size_t id) { return (*estimates)[id]; };
    if (c >= 6) {
      // A 2x6 class takes hours, so --estimate and the check before a run
      // time leaf probes instead: each with a cache of its own, so every
      // top part is a miss (labelled, counted, stored) as in a cold run.
      job.leaf_probe = [classes, c](std::size_t id, std::mt19937_64& rng) {
        TopCache cold(64);
        Graph g{};
        std::copy((*classes)[id].columns.begin(), (*classes)[id].columns.end(), g.begin());
        return SubBandCounter(c, &cold).probe_leaf(g, rng);
      };
    }
    return job;
  }

  [[nodiscard]] BigInt total(const engine::Tally& totals) const override {
    return engine::wide_total(totals, 0, kLimbs);
  }

private:
  int c_;
  std::size_t box_orbits_ = 0;
  std::vector<BandSignatureClass> classes_;
  std::shared_ptr<const std::vector<double>> estimates_;
  std::uint64_t list_hash_ = 0;
};

}  // namespace

u128 sub_band_factorisations(std::span<const std::uint32_t> adjacency, int k) {
  const Graph g = checked_regular(adjacency, k);
  TopCache cache(std::size_t{1} << 16);
  return SubBandCounter(k, &cache).count(g);
}

u128 sub_band_factorisations_part(std::span<const std::uint32_t> adjacency, int k, int part, std::uint64_t* leaves,
                                  std::uint64_t max_leaves, bool memo) {
  const Graph g = checked_regular(adjacency, k);
  if (k < 3 || part < 0 || part >= static_cast<int>(binomial(k, 2)))
    throw std::invalid_argument("part must be 0..binom(k,2)-1 with k ≥ 3");
  static TopCache cache(std::size_t{1} << 22);
  SubBandCounter counter(k, memo ? &cache : nullptr);
  counter.part_ = part;
  if (max_leaves > 0) counter.max_leaves_ = max_leaves;
  u128 b = 0;
  try {
    b = counter.count(g);
  } catch (const SubBandCounter::LeafLimit&) {
    b = 0;
  }
  if (leaves != nullptr) *leaves = std::min(counter.leaves_, counter.max_leaves_);
  return b;
}

double sub_band_cache_hit_rate(std::span<const std::uint32_t> adjacency, int k, int part, std::uint64_t max_leaves,
                               std::size_t cache_entries) {
  const Graph g = checked_regular(adjacency, k);
  if (k < 6 || part < 0 || part >= static_cast<int>(binomial(k, 2)) || max_leaves == 0)
    throw std::invalid_argument("hit rate needs k = 6, part 0..14 and max_leaves > 0");
  TopCache cache(cache_entries);
  SubBandCounter counter(k, &cache);
  counter.part_ = part;
  counter.max_leaves_ = max_leaves;
  try {
    (void)counter.count(g);
  } catch (const SubBandCounter::LeafLimit&) {
  }
  const std::uint64_t looked_up = counter.hits_ + counter.misses_;
  return looked_up == 0 ? 0.0 : static_cast<double>(counter.hits_) / static_cast<double>(looked_up);
}

double sub_band_leaf_estimate(std::span<const std::uint32_t> adjacency, int k, int probes, std::uint64_t seed) {
  const Graph g = checked_regular(adjacency, k);
  std::mt19937_64 rng(seed);
  return SubBandCounter(k, nullptr).estimate_leaves(g, probes, rng);
}

SignatureClasses two_column_signature_classes(int c, int threads) {
  if (c < 2 || c > kMaxSubBandC) throw std::invalid_argument("two-column band signatures need 2 ≤ C ≤ 6");
  const int digits = 2 * c;
  const std::uint32_t all = (1u << digits) - 1u;
  // Column pairs {S, complement}, each named by the member holding digit 0.
  std::vector<std::uint32_t> pairs;
  for (std::uint32_t s = 1; s <= all; s += 2)
    if (__builtin_popcount(s) == c) pairs.push_back(s);
  using Key = std::vector<std::uint64_t>;
  std::map<Key, std::vector<std::uint32_t>> level;
  level.emplace(Key{}, std::vector<std::uint32_t>{pairs[0]});
  for (int boxes = 2; boxes <= c; ++boxes) {
    std::vector<const std::vector<std::uint32_t>*> reps;
    for (const auto& [key, sets] : level) reps.push_back(&sets);
    std::vector<std::map<Key, std::vector<std::uint32_t>>> found(reps.size());
    engine::for_each_index(reps.size(), threads, [&](std::size_t r) {
      graph::ColouredGraph g;
      graph::CanonicalForm form;
      std::vector<std::uint32_t> sets = *reps[r];
      sets.push_back(0);
      for (std::uint32_t p : pairs) {
        sets.back() = p;
        signature_graph(sets, c, g);
        graph::canonical_form(g, form);
        found[r].try_emplace(form.rows, sets);
      }
    });
    level.clear();
    for (auto& part : found)
      for (auto& [key, sets] : part) level.try_emplace(key, std::move(sets));
  }
  // Orbit sizes: (2C)!·C!·2^C / |Aut|.
  u128 group = 1;
  for (int i = 2; i <= digits; ++i) group *= static_cast<u128>(i);
  for (int i = 2; i <= c; ++i) group *= static_cast<u128>(i);
  group <<= c;
  std::vector<const std::vector<std::uint32_t>*> reps;
  for (const auto& [key, sets] : level) reps.push_back(&sets);
  std::vector<u128> weight(reps.size());
  std::vector<Key> class_key(reps.size());
  engine::for_each_index(reps.size(), threads, [&](std::size_t r) {
    graph::ColouredGraph g;
    signature_graph(*reps[r], c, g);
    const graph::CanonicalForm form = graph::canonical_form(g);
    const u128 aut = form.automorphisms();
    if (group % aut != 0) throw InternalError("band signature automorphism group order does not divide the group");
    weight[r] = group / aut;
    class_key[r] = column_digit_key(columns_of(*reps[r], c), c);
  });
  u128 sum = 0;
  std::map<Key, BandSignatureClass> merged;
  for (std::size_t r = 0; r < reps.size(); ++r) {
    sum = checked_add(sum, weight[r]);
    auto [it, inserted] = merged.try_emplace(class_key[r]);
    if (inserted) {
      const Graph g = columns_of(*reps[r], c);
      it->second.columns.assign(g.begin(), g.begin() + digits);
    }
    it->second.weight = checked_add(it->second.weight, weight[r]);
  }
  u128 expected = 1;
  for (int b = 0; b < c; ++b) expected = checked_mul(expected, binomial(digits, c));
  if (sum != expected)
    throw InternalError("band signature orbits sum to " + to_string(to_big(sum)) +
                        ", not binom(2C,C)^C = " + to_string(to_big(expected)));
  SignatureClasses out;
  out.box_orbits = reps.size();
  for (auto& [key, entry] : merged) out.classes.push_back(std::move(entry));
  return out;
}

std::shared_ptr<const BandCount> make_bands_sub_band(int c, int threads) {
  if (c < 2 || c > kMaxSubBandC) throw std::invalid_argument("sub-band counts need 2 ≤ C ≤ 6");
  return std::make_shared<const SubBands>(c, threads);
}

}  // namespace pcount::sudoku
