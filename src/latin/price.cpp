// The classes method's price, stage by stage (price.hpp).
#include "pcount/latin/price.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "pcount/engine/estimate.hpp"
#include "pcount/engine/usage.hpp"
#include "pcount/errors.hpp"
#include "pcount/latin/genbg.hpp"

namespace pcount::latin {

namespace {

/// Rows still needing r ones, r = 0 … d (a state of the column programme).
using Needs = std::array<int, kMaxClassOrder + 1>;

u128 binomial(int a, int b) {
  u128 r = 1;
  for (int i = 1; i <= b; ++i) r = r * static_cast<u128>(a - b + i) / static_cast<u128>(i);
  return r;
}

/// Adds every way of giving one column its d ones (k_r rows of those that
/// need r, for r = top … 1) to `next`, weighted by the ways to pick them.
void place_column(const Needs& s, int d, int top, int left, Needs& t, u128 ways, u128 weight,
                  std::map<Needs, u128>& next) {
  if (top == 0) {
    if (left == 0) next[t] = checked_add(next[t], checked_mul(weight, ways));
    return;
  }
  const auto r = static_cast<std::size_t>(top);
  for (int k = 0; k <= std::min(left, s[r]); ++k) {
    t[r] -= k;
    t[r - 1] += k;
    place_column(s, d, top - 1, left - k, t, checked_mul(ways, binomial(s[r], k)), weight, next);
    t[r] += k;
    t[r - 1] -= k;
  }
}

}  // namespace

u128 regular_bipartite_count(int n, int d) {
  if (n < 0 || n > kMaxClassOrder || d < 0 || d > n)
    throw InvalidArgument("order", "regular_bipartite_count needs 0 ≤ d ≤ n ≤ " + std::to_string(kMaxClassOrder));
  std::map<Needs, u128> states;
  Needs start{};
  start[static_cast<std::size_t>(d)] = n;
  states[start] = 1;
  for (int column = 0; column < n; ++column) {
    std::map<Needs, u128> next;
    for (const auto& [s, weight] : states) {
      Needs t = s;
      place_column(s, d, d, d, t, 1, weight, next);
    }
    states = std::move(next);
  }
  Needs done{};
  done[0] = n;
  const auto it = states.find(done);
  return it == states.end() ? 0 : it->second;
}

namespace {

/// Labelled completions of columns `column` … n−1 from the needs `s`,
/// memoised: the column programme of regular_bipartite_count, run backwards.
class Completions {
public:
  Completions(int n, int d) : n_(n), d_(d) {}
  u128 operator()(int column, const Needs& s) {
    if (column == n_) return s[0] == n_ ? 1 : 0;
    const auto key = std::make_pair(column, s);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    std::map<Needs, u128> next;
    Needs t = s;
    place_column(s, d_, d_, d_, t, 1, 1, next);
    u128 total = 0;
    for (const auto& [u, ways] : next) total = checked_add(total, checked_mul(ways, (*this)(column + 1, u)));
    memo_.emplace(key, total);
    return total;
  }

private:
  int n_, d_;
  std::map<std::pair<int, Needs>, u128> memo_;
};

/// A uniform number below `bound` (> 0) from two 64-bit draws (the bias,
/// below bound / 2¹²⁸, is far under any sampling error here).
u128 uniform_below(u128 bound, std::mt19937_64& rng) {
  const u128 x = (static_cast<u128>(rng()) << 64) | rng();
  return x % bound;
}

}  // namespace

BipGraph random_regular(int n, int d, std::mt19937_64& rng) {
  if (n < 1 || n > kMaxClassOrder || d < 0 || d > n)
    throw InvalidArgument("order", "random_regular needs 0 ≤ d ≤ n ≤ " + std::to_string(kMaxClassOrder));
  // The completion counts depend on (n, d) only: kept per thread, so that
  // drawing many graphs runs the programme once.
  thread_local std::map<std::pair<int, int>, Completions> memo;
  Completions& completions = memo.try_emplace({n, d}, n, d).first->second;
  BipGraph g;
  g.n = n;
  std::array<int, kMaxClassOrder> need{};  // ones each symbol (row of the matrix) still needs
  need.fill(d);
  for (int column = 0; column < n; ++column) {
    Needs s{};
    for (int v = 0; v < n; ++v) ++s[static_cast<std::size_t>(need[static_cast<std::size_t>(v)])];
    // Every next state, weighted by its ways and its completions; pick one.
    std::map<Needs, u128> next;
    Needs t = s;
    place_column(s, d, d, d, t, 1, 1, next);
    std::vector<std::pair<Needs, u128>> weighted;
    u128 total = 0;
    for (const auto& [u, ways] : next) {
      const u128 w = checked_mul(ways, completions(column + 1, u));
      if (w == 0) continue;
      weighted.emplace_back(u, w);
      total = checked_add(total, w);
    }
    if (total == 0) throw InternalError("random_regular: no completion");
    u128 pick = uniform_below(total, rng);
    std::size_t i = 0;
    while (pick >= weighted[i].second) pick -= weighted[i++].second;
    // Then which symbols, uniformly: k_r of those that needed r, where
    // u_r = s_r − k_r + k_{r+1} gives k_r from the top down.
    const Needs& u = weighted[i].first;
    const auto before = need;
    int carried = 0;  // symbols that moved from need r+1 to r, counted from the top
    for (int r = d; r >= 1; --r) {
      const auto rr = static_cast<std::size_t>(r);
      const int k = s[rr] + carried - u[rr];  // symbols of need r that get a one here
      std::vector<int> pool;
      for (int v = 0; v < n; ++v)
        if (before[static_cast<std::size_t>(v)] == r) pool.push_back(v);
      std::shuffle(pool.begin(), pool.end(), rng);
      for (int j = 0; j < k; ++j) {
        const auto v = static_cast<std::size_t>(pool[static_cast<std::size_t>(j)]);
        g.adj[static_cast<std::size_t>(column)] |= 1u << v;
        --need[v];
      }
      carried = k;
    }
  }
  return g;
}

namespace {

/// genbg's cost per class, recorded on the 2-core Intel Xeon (Sapphire
/// Rapids) of results/latin.md, "The price of a square": CPU seconds for
/// the list (or for one slice of it), the classes it wrote, and how far the
/// per-class rate may stray on the whole list (1 for a whole list run).
struct GenbgRecord {
  int n, d;
  double cpu_seconds;
  double classes;
  double spread;  // the whole list's rate lies within [rate/spread, rate·spread]: 1.25 for
                  // a whole list (the load when it was timed), 1.5 for one slice of 20,
                  // 2 for one slice of 1000 (how the slices balance is not measured)
  const char* basis;
};

constexpr GenbgRecord kGenbg[] = {
    {9, 3, 0.03, 224, 1.25, "whole list"},
    {9, 4, 0.37, 3529, 1.25, "whole list"},
    {10, 3, 0.20, 1165, 1.25, "whole list"},
    {10, 4, 14.3, 121790, 1.25, "whole list"},
    {10, 5, 124.47, 601055, 1.25, "whole list"},
    {11, 3, 1.59, 7454, 1.25, "whole list"},
    {11, 4, 126.0, 278876, 1.5, "slice 0/20"},
    {11, 5, 1508.58, 150606, 2.0, "slice 0/1000 (one slice of a thousand)"},
};

const GenbgRecord& genbg_record(int n, int d) {
  for (const GenbgRecord& r : kGenbg)
    if (r.n == n && r.d == d) return r;
  throw InternalError("no recorded genbg rate for n = " + std::to_string(n) + ", d = " + std::to_string(d));
}

/// Exact class counts listed by genbg (results/latin.md); 0 = not known.
double known_classes(int n, int d) {
  const GenbgRecord& r = genbg_record(n, d);
  return r.basis == std::string("whole list") ? r.classes : 0.0;
}

/// Labelled graphs over (n!)²: a lower bound on the classes.
double classes_floor(int n, int d) {
  return static_cast<double>(regular_bipartite_count(n, d)) / static_cast<double>(labelled_factor(n));
}

/// The classes of d-regular n+n graphs: exact where a whole list was
/// recorded, else [floor, floor × the excess of the known list one order
/// below] — the excess (classes with automorphisms) shrinks as n grows.
Interval class_count(int n, int d) {
  if (const double k = known_classes(n, d); k > 0) return {k, k};
  const double floor = classes_floor(n, d);
  const double below = known_classes(n - 1, d);
  if (below <= 0) throw InternalError("no class count one order below");
  return {floor, floor * below / classes_floor(n - 1, d)};
}

/// The mean of `f` over `graphs` pseudo-random d-regular n+n graphs, ± 3
/// standard errors.
template <class F>
Interval sample_mean(int n, int d, int graphs, std::mt19937_64& rng, F&& f) {
  double sum = 0.0, squares = 0.0;
  for (int i = 0; i < graphs; ++i) {
    const double x = f(random_regular(n, d, rng));
    sum += x;
    squares += x * x;
  }
  const double mean = sum / graphs;
  const double se = std::sqrt(std::max(0.0, squares / graphs - mean * mean) / graphs);
  return {std::max(0.0, mean - 3 * se), mean + 3 * se};
}

/// Lookups per class when a d-regular class is peeled: the perfect
/// matchings through the root edge fewest_matchings_edge picks.
Interval pivot_matchings(int n, int d, std::mt19937_64& rng) {
  return sample_mean(n, d, 400, rng, [](const BipGraph& g) {
    return static_cast<double>(for_each_peel_at(g, fewest_matchings_edge(g), [](const BipGraph&) {}));
  });
}

/// Thread CPU seconds per peeled graph when uniformly random (d+1)-regular
/// graphs are peeled at their pivot and each d-regular remainder `visit`ed;
/// at least 0.3 s of work over 64 graphs.
template <class F>
double per_peel_seconds(int n, int d, std::mt19937_64& rng, F&& visit) {
  std::vector<BipGraph> graphs;
  for (int i = 0; i < 64; ++i) graphs.push_back(random_regular(n, d + 1, rng));
  std::uint64_t peels = 0;
  const double t0 = engine::thread_cpu_seconds();
  for (std::size_t i = 0; engine::thread_cpu_seconds() - t0 < 0.3; ++i) {
    const BipGraph& g = graphs[i % graphs.size()];
    peels += for_each_peel_at(g, fewest_matchings_edge(g), visit);
  }
  return (engine::thread_cpu_seconds() - t0) / static_cast<double>(std::max<std::uint64_t>(peels, 1));
}

/// Thread CPU seconds of one random binary search among `size` sorted
/// 32-byte entries (a table's index by invariant).
double search_seconds(std::size_t size, std::mt19937_64& rng) {
  std::vector<std::pair<std::uint64_t, u128>> a(size);
  for (auto& e : a) e.first = rng();
  std::sort(a.begin(), a.end());
  std::uint64_t sink = 0;
  constexpr int kSearches = 1 << 18;
  const double t0 = engine::thread_cpu_seconds();
  for (int i = 0; i < kSearches; ++i) {
    const std::uint64_t k = rng();
    sink += static_cast<std::uint64_t>(
        std::lower_bound(a.begin(), a.end(), k, [](const auto& e, std::uint64_t v) { return e.first < v; }) -
        a.begin());
  }
  const double t = (engine::thread_cpu_seconds() - t0) / kSearches;
  const volatile std::uint64_t keep = sink;  // the searches' results are used, so they are made
  (void)keep;
  return t;
}

/// Thread CPU seconds of one nauty canonical form of a d-regular n+n graph.
double canonical_seconds(int n, int d, std::mt19937_64& rng) {
  std::vector<BipGraph> graphs;
  for (int i = 0; i < 256; ++i) graphs.push_back(random_regular(n, d, rng));
  u128 sink = 0;
  const double t0 = engine::thread_cpu_seconds();
  for (const BipGraph& g : graphs) sink += canonical(g).key;
  const double t = (engine::thread_cpu_seconds() - t0) / static_cast<double>(graphs.size());
  const volatile auto keep = static_cast<std::uint64_t>(sink);  // the forms are used, so they are made
  (void)keep;
  return t;
}

/// This machine's genbg CPU time on the 3-regular 11+11 list over the
/// recorded one (about 1.6 CPU-s; only genbg's count is asked for).
double genbg_speed() {
  const double before = engine::process_usage().children_cpu_seconds;
  (void)run_lines(genbg_program(), {"-u", "-q", "-d3:3", "-D3:3", "11", "11"});
  const double spent = engine::process_usage().children_cpu_seconds - before;
  return spent > 0 ? spent / genbg_record(11, 3).cpu_seconds : 1.0;
}

Interval times(Interval a, Interval b) { return {a.low * b.low, a.high * b.high}; }

/// The rates a price is built on, measured on this machine.
struct Rates {
  double speed = 1.0;                                    // genbg CPU here / recorded
  double dfs = 0.0;                                      // CPU s per degree-3 class by DFS
  std::array<Interval, kMaxClassOrder + 1> matchings{};  // lookups per peeled d-regular class
  std::array<double, kMaxClassOrder + 1> peel{};         // CPU s per d-regular remainder: pivot, peel, invariant key
  std::array<double, kMaxClassOrder + 1> canonical{};    // CPU s per canonical form of a d-regular graph
  double fallback = 0.0;  // CPU s per lookup into the degree-3 table beyond peel and search: shared invariants
  std::array<double, 23> search{};  // CPU s per binary search among 2^k entries, k ≤ 22
  double miss = 0.0;                // CPU s per binary-search level beyond 2^22 entries
};

/// CPU seconds of one search among `entries`: measured up to 2²², one
/// measured cache miss per level beyond.
double search_at(const Rates& r, double entries) {
  const double k = std::max(0.0, std::log2(std::max(entries, 1.0)));
  if (k <= 22) return r.search[static_cast<std::size_t>(std::ceil(k))];
  return r.search[22] + (k - 22) * r.miss;
}

/// CPU seconds per lookup of a d-regular remainder into a table of
/// `entries` classes: pivot, peel and invariant key, plus the search, ±25 %;
/// the upper end adds the shared-invariant fallbacks measured on the
/// 3-regular table (larger tables of higher degree have fewer).
Interval lookup_seconds_at(const Rates& r, int d, double entries) {
  const double base = r.peel[static_cast<std::size_t>(d)] + search_at(r, entries);
  return {0.8 * base, 1.25 * (base + r.fallback)};
}

StagePrice list_stage(int n, int d, const Rates& r, const CacheOptions& cache) {
  const GenbgRecord& g = genbg_record(n, d);
  StagePrice s;
  s.name = std::to_string(d) + "-regular list (nauty-genbg)";
  s.classes = class_count(n, d);
  const double per_class = g.cpu_seconds / g.classes * r.speed + r.canonical[static_cast<std::size_t>(d)];
  s.cpu_seconds = times(s.classes, Interval{per_class / g.spread, per_class * g.spread});
  char rate[64];
  std::snprintf(rate, sizeof rate, g.cpu_seconds < 100 ? "%.0f classes in %.3g CPU-s" : "%.0f classes in %.0f CPU-s",
                g.classes, g.cpu_seconds);
  s.basis =
      "genbg " + std::string(g.basis) + ": " + rate + " recorded" + ", scaled by this machine's speed" +
      (g.spread > 1.25 ? "; ×" + std::to_string(g.spread).substr(0, 3) + " either way for the slices' balance" : "");
  s.cached = cache.dir && std::filesystem::exists(class_list_file(*cache.dir, n, d));
  return s;
}

/// A stage of `classes` peeled classes of degree d, looking up into a table
/// of `entries` classes.
StagePrice peel_stage(std::string name, Interval classes, int d, Interval entries, const Rates& r) {
  StagePrice s;
  s.name = std::move(name);
  s.classes = classes;
  s.lookups = times(classes, r.matchings[static_cast<std::size_t>(d)]);
  s.cpu_seconds = times(s.lookups, Interval{lookup_seconds_at(r, d - 1, entries.low).low,
                                            lookup_seconds_at(r, d - 1, entries.high).high});
  s.basis = "lookups per class, and CPU per peel, invariant key and search, measured now";
  return s;
}

Rates measure_rates(int n, int h, const CacheOptions& cache) {
  Rates r;
  std::mt19937_64 rng(20051);
  r.speed = genbg_speed();
  // The 3-regular list from the cache when it is there, else from genbg
  // without writing it: pricing leaves the cache as it found it.
  const bool cached = cache.dir && std::filesystem::exists(class_list_file(*cache.dir, n, 3));
  const auto base = std::make_shared<const std::vector<GraphClass>>(
      regular_classes(n, 3, cached ? cache : CacheOptions{std::nullopt, cache.option}, 1));
  std::vector<u128> values;
  const double t0 = engine::thread_cpu_seconds();
  for (const GraphClass& c : *base) values.push_back(count_factorisations(c.graph(n)));
  r.dfs = (engine::thread_cpu_seconds() - t0) / static_cast<double>(base->size());
  const FactorTable table(base, n, std::move(values));
  for (int k = 0; k <= 22; k += 2) r.search[static_cast<std::size_t>(k)] = search_seconds(std::size_t{1} << k, rng);
  for (int k = 1; k <= 21; k += 2)
    r.search[static_cast<std::size_t>(k)] =
        (r.search[static_cast<std::size_t>(k - 1)] + r.search[static_cast<std::size_t>(k + 1)]) / 2;
  r.miss = std::max(0.0, (r.search[22] - r.search[18]) / 4);
  std::uint64_t sink = 0;
  for (int d = 3; d <= h; ++d)
    r.peel[static_cast<std::size_t>(d)] =
        per_peel_seconds(n, d, rng, [&](const BipGraph& g) { sink ^= invariant_key(g); });
  u128 found = 0;
  const double lookup = per_peel_seconds(n, 3, rng, [&](const BipGraph& g) { found += table.lookup(g); });
  r.fallback = std::max(0.0, lookup - r.peel[3] - search_at(r, static_cast<double>(base->size())));
  if (found == 0 || sink == 1) throw InternalError("no lookup was made");
  for (int d = 4; d <= h + 1; ++d) r.matchings[static_cast<std::size_t>(d)] = pivot_matchings(n, d, rng);
  for (int d = 3; d <= h; ++d) r.canonical[static_cast<std::size_t>(d)] = canonical_seconds(n, d, rng);
  return r;
}

/// Bytes one class of the top list costs at the job's peak (classes.hpp's
/// layout). Listing: genbg's slices as GraphClass records (its text is
/// streamed, never held), then the list they are copied into. Odd n also
/// builds the top table over its own list: the list, 16 bytes of N per
/// class as computed, the table's 8-byte N, and then the invariant pairs
/// being sorted (16 bytes) beside the kept index (12 bytes); the values
/// are freed once narrowed. Checked against R(10)'s peak RSS
/// (results/latin.md).
constexpr double kListingBytes = 2 * sizeof(GraphClass);
constexpr double kOddTableBytes = sizeof(GraphClass) + std::max(sizeof(u128) + sizeof(std::uint64_t),
                                                                sizeof(std::uint64_t) + 2 * sizeof(std::uint64_t) + 12);
/// The process without its lists and tables: code, oneTBB, buffers.
constexpr double kBaseBytes = 16.0 * (1 << 20);

}  // namespace

/// The peak of a square's job: the largest of reading the top list and of
/// building its table, plus the base, ±25 % for the allocator.
Interval square_peak_bytes(int n) {
  if (n < 9 || n > kMaxClassOrder)
    throw InvalidArgument("order", "the classes price covers 9 ≤ N ≤ " + std::to_string(kMaxClassOrder));
  const Interval top = class_count(n, n / 2);
  const double per = std::max(kListingBytes, n % 2 == 1 ? kOddTableBytes : 0.0);
  return {0.8 * (kBaseBytes + top.low * per), 1.25 * (kBaseBytes + top.high * per)};
}

SquarePrice price_square_classes(int n, const CacheOptions& cache) {
  if (n < 9 || n > kMaxClassOrder)
    throw InvalidArgument("order", "the classes price covers 9 ≤ N ≤ " + std::to_string(kMaxClassOrder));
  const int h = n / 2;
  const Rates r = measure_rates(n, h, cache);
  SquarePrice p;
  p.n = n;
  p.speed = r.speed;
  for (int d = 3; d <= h; ++d) p.stages.push_back(list_stage(n, d, r, cache));
  StagePrice dfs;
  dfs.name = "3-regular table (DFS)";
  dfs.classes = class_count(n, 3);
  dfs.cpu_seconds = times(dfs.classes, Interval{0.8 * r.dfs, 1.25 * r.dfs});
  dfs.basis = "CPU per class measured now";
  p.stages.push_back(dfs);
  const int top_table = n % 2 == 1 ? h : h - 1;
  for (int d = 4; d <= top_table; ++d)
    p.stages.push_back(
        peel_stage(std::to_string(d) + "-regular table (peeling)", class_count(n, d), d, class_count(n, d - 1), r));
  for (int d = 3; d <= top_table; ++d)  // the tables follow the h − 2 lists
    p.stages[static_cast<std::size_t>(h - 2 + d - 3)].cached =
        cache.dir && std::filesystem::exists(table_cache_file(*cache.dir, n, d));
  const Interval classes = class_count(n, h);
  if (n % 2 == 0) {
    StagePrice comp;
    comp.name = "complements (nauty)";
    comp.classes = classes;
    comp.cpu_seconds = times(classes, Interval{0.8 * r.canonical[static_cast<std::size_t>(h)],
                                               1.25 * r.canonical[static_cast<std::size_t>(h)]});
    comp.basis = "CPU per canonical form measured now";
    p.stages.push_back(comp);
    p.stages.push_back(peel_stage("the sum (tasks)", classes, h, class_count(n, h - 1), r));

  } else {
    p.stages.push_back(peel_stage("the sum (tasks)", classes, h + 1, classes, r));
  }
  p.peak_bytes = square_peak_bytes(n);
  for (StagePrice& s : p.stages) {
    if (s.cached) s.cpu_seconds = {0.0, 0.0};
    p.cpu_seconds.low += s.cpu_seconds.low;
    p.cpu_seconds.high += s.cpu_seconds.high;
  }
  return p;
}

}  // namespace pcount::latin
