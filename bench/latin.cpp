// Reduced Latin squares, both methods.
//
//   BM_LatinSearch7/threads    R(7) = 16942080 by tree search (cycle-type second
//                              row, closed-form last two rows), split at depth 3.
//   BM_LatinClasses8/threads   R(8) = 535281401856 by bipartite-graph classes:
//                              building the job (class lists from the disk
//                              cache, DFS/peel tables) plus the run.
//   BM_LatinClasses9/threads   R(9) = 377597570964258816, same method (seconds
//                              per iteration: run with --benchmark_filter).
//   BM_PeelLookups/n           lookups of 3-regular n+n graphs in the table of
//                              all 3-regular n+n classes (FactorTable::lookup:
//                              invariant key, then binary search), as peeling
//                              64 pseudo-random 4-regular graphs makes them.
//   BM_RowExtensions/n/e       X_e of the complement of the first 64 3-regular
//                              n+n classes (extend.hpp): the per-class cost of
//                              R(3+e, n) by row extension, one thread.
//
// The thread count is the benchmark argument; engine::run uses a task_arena
// of that size. Real (wall) time; counters are per wall second. Each
// benchmark checks the count after the loop (SkipWithError when wrong).
// Class lists are cached under $TMPDIR/pcount-bench-latin.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <random>
#include <vector>
#include <memory>
#include <string>

#include "pcount/engine/runner.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/latin/classes.hpp"
#include "pcount/latin/price.hpp"
#include "pcount/latin/extend.hpp"
#include "pcount/latin/search.hpp"

namespace {

using pcount::u128;
namespace engine = pcount::engine;
namespace latin = pcount::latin;

void BM_LatinSearch7(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  auto tree = std::make_shared<const latin::LatinTree>(7, 7);
  const engine::Job job = engine::make_tree_job(tree, 3, "bench latin 7", {"reduced"});
  engine::RunOptions options;
  options.threads = threads;
  engine::RunResult result;
  for (auto _ : state) {
    result = engine::run(job, options);
    benchmark::DoNotOptimize(result.totals.counts[0]);
  }
  if (pcount::to_string(result.totals.counts[0]) != "16942080") state.SkipWithError("wrong R(7)");
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(result.totals.nodes),
                                                 benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_LatinSearch7)->Arg(1)->Arg(2)->Arg(4)->UseRealTime()->Unit(benchmark::kMillisecond);

void classes(benchmark::State& state, int n, const char* expected) {
  const int threads = static_cast<int>(state.range(0));
  const latin::CacheOptions cache{std::filesystem::temp_directory_path() / "pcount-bench-latin", "--cache-dir"};
  (void)latin::make_class_job(n, n, cache, threads);  // fill the cache outside the timing
  engine::RunOptions options;
  options.threads = threads;
  u128 reduced = 0;
  std::size_t count = 0;
  for (auto _ : state) {
    const latin::ClassJob cj = latin::make_class_job(n, n, cache, threads);
    reduced = latin::reduced_from_all(n, n, latin::labelled_total(cj, engine::run(cj.job, options).totals));
    count = cj.classes;
    benchmark::DoNotOptimize(reduced);
  }
  if (pcount::to_string(reduced) != expected) state.SkipWithError("wrong count");
  state.counters["classes/s"] =
      benchmark::Counter(static_cast<double>(count), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_LatinClasses8(benchmark::State& state) { classes(state, 8, "535281401856"); }
BENCHMARK(BM_LatinClasses8)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_LatinClasses9(benchmark::State& state) { classes(state, 9, "377597570964258816"); }
BENCHMARK(BM_LatinClasses9)->Arg(1)->Arg(2)->Iterations(1)->UseRealTime()->Unit(benchmark::kSecond);

using latin::random_regular;

void BM_PeelLookups(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const latin::CacheOptions cache{std::filesystem::temp_directory_path() / "pcount-bench-latin", "--cache-dir"};
  const auto classes = std::make_shared<const std::vector<latin::GraphClass>>(latin::regular_classes(n, 3, cache, 1));
  std::vector<u128> values;
  for (const latin::GraphClass& c : *classes) values.push_back(latin::count_factorisations(c.graph(n)));
  const latin::FactorTable table(classes, n, values);
  std::mt19937_64 rng(2026);
  std::vector<latin::BipGraph> graphs;
  for (int i = 0; i < 64; ++i) graphs.push_back(random_regular(n, 4, rng));
  std::uint64_t lookups = 0;
  u128 sum = 0;
  for (auto _ : state) {
    lookups = 0;
    for (const latin::BipGraph& g : graphs)
      lookups += latin::for_each_peel_at(g, latin::fewest_matchings_edge(g),
                                         [&](const latin::BipGraph& h) { sum += table.lookup(h); });
    benchmark::DoNotOptimize(sum);
  }
  state.counters["lookups/s"] =
      benchmark::Counter(static_cast<double>(lookups), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["table"] = static_cast<double>(classes->size());
  state.counters["ambiguous"] = static_cast<double>(table.ambiguous());
  state.counters["canonical"] = static_cast<double>(table.canonical_only());
}
BENCHMARK(BM_PeelLookups)->Arg(9)->Arg(10)->Arg(11)->Unit(benchmark::kMillisecond);

/// Lookups per peel at order 11: the perfect matchings through the root
/// edge fewest_matchings_edge picks, averaged over 2,000 uniformly random
/// d-regular 11+11 graphs (counter `matchings`; docs/latin.md prices R(11)
/// with these).
void BM_PivotMatchings(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0));
  std::mt19937_64 rng(12345);
  std::vector<latin::BipGraph> graphs;
  for (int i = 0; i < 2000; ++i) graphs.push_back(random_regular(11, d, rng));
  double total = 0;
  for (auto _ : state) {
    total = 0;
    for (const latin::BipGraph& g : graphs)
      total += static_cast<double>(
          latin::for_each_peel_at(g, latin::fewest_matchings_edge(g), [](const latin::BipGraph&) {}));
  }
  state.counters["matchings"] = total / static_cast<double>(graphs.size());
}
BENCHMARK(BM_PivotMatchings)->Arg(4)->Arg(5)->Arg(6)->Iterations(1)->Unit(benchmark::kMillisecond);

/// The two halves of a lookup's cost on pseudo-random d-regular 11+11
/// graphs: the invariant key and nauty's canonical form (the fallback for
/// a shared invariant).
void BM_InvariantKey(benchmark::State& state) {
  std::mt19937_64 rng(7);
  std::vector<latin::BipGraph> graphs;
  for (int i = 0; i < 256; ++i) graphs.push_back(random_regular(11, static_cast<int>(state.range(0)), rng));
  std::uint64_t x = 0;
  for (auto _ : state)
    for (const latin::BipGraph& g : graphs) x += latin::invariant_key(g);
  benchmark::DoNotOptimize(x);
  state.counters["graphs/s"] = benchmark::Counter(256.0, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_InvariantKey)->Arg(3)->Arg(5)->Arg(6)->Unit(benchmark::kMicrosecond);

void BM_CanonicalForm(benchmark::State& state) {
  std::mt19937_64 rng(7);
  std::vector<latin::BipGraph> graphs;
  for (int i = 0; i < 256; ++i) graphs.push_back(random_regular(11, static_cast<int>(state.range(0)), rng));
  u128 x = 0;
  for (auto _ : state)
    for (const latin::BipGraph& g : graphs) x += latin::canonical(g).key;
  benchmark::DoNotOptimize(x);
  state.counters["graphs/s"] = benchmark::Counter(256.0, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_CanonicalForm)->Arg(3)->Arg(5)->Arg(6)->Unit(benchmark::kMicrosecond);

void BM_RowExtensions(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const int e = static_cast<int>(state.range(1));
  const latin::CacheOptions cache{std::filesystem::temp_directory_path() / "pcount-bench-latin", "--cache-dir"};
  auto classes = latin::regular_classes(n, 3, cache, 1);
  classes.resize(std::min<std::size_t>(classes.size(), 64));
  u128 sum = 0;
  for (auto _ : state) {
    sum = 0;
    for (const latin::GraphClass& c : classes) sum += latin::row_extensions(c.graph(n).complement(), e);
    benchmark::DoNotOptimize(sum);
  }
  state.counters["classes/s"] =
      benchmark::Counter(static_cast<double>(classes.size()), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_RowExtensions)->Args({10, 2})->Args({11, 1})->Args({11, 2})->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
