// N-Queens benchmarks (figures: results/queens.md).
//
//   BM_QueensSearch/threads              Q, U, P, R of N = 13 by the depth-split
//                                        bitboard search (--method search).
//   BM_QueensConstellations/N/threads    the same four counts by border
//                                        constellations, N = 14 and 16.
//   BM_QueensJoin/N/threads              the same four counts by the
//                                        meet-in-the-middle join (--method
//                                        join, default outer columns),
//                                        N = 14, 16 and 17.
//
// The thread count is the last argument; engine::run puts the tasks in a
// tbb::task_arena of exactly that size. Times are real (wall) times;
// `solutions/s` is Q(N) per wall second, `nodes/s` search nodes per wall
// second. Each benchmark checks the four counts after the loop against
// OEIS A000170, A002562, A032522, A033148 and reports an error if wrong.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <string>

#include "pcount/engine/runner.hpp"
#include "pcount/queens/constellations.hpp"
#include "pcount/queens/join.hpp"
#include "pcount/queens/search.hpp"

namespace {

using pcount::queens::QueensCounts;

QueensCounts expected(int n) {
  switch (n) {
    case 13: return {73712, 9233, 136, 8};
    case 14: return {365596, 45752, 420, 0};
    case 16: return {14772512, 1846955, 3000, 64};
    case 17: return {95815104, 11977939, 8152, 128};
    default: return {};
  }
}

template <class Make, class Read>
void run_queens(benchmark::State& state, int n, int threads, Make make, Read read) {
  const pcount::engine::Job job = make(threads);
  pcount::engine::RunOptions options;
  options.threads = threads;
  QueensCounts counts;
  double nodes = 0;
  for (auto _ : state) {
    const pcount::engine::RunResult r = pcount::engine::run(job, options);
    counts = read(r.totals);
    nodes = static_cast<double>(r.totals.nodes);
  }
  if (!(counts == expected(n))) {
    state.SkipWithError(("wrong counts for N = " + std::to_string(n)).c_str());
    return;
  }
  state.counters["solutions/s"] = benchmark::Counter(static_cast<double>(counts.all) * static_cast<double>(state.iterations()),
                                                     benchmark::Counter::kIsRate);
  state.counters["nodes/s"] = benchmark::Counter(nodes * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["threads"] = threads;
}

void BM_QueensSearch(benchmark::State& state) {
  const int n = 13;
  run_queens(
      state, n, static_cast<int>(state.range(0)),
      [n](int threads) {
        return pcount::queens::make_search_job(
            n, pcount::queens::auto_search_depth(n, 16 * static_cast<std::size_t>(threads)), "bench");
      },
      [n](const pcount::engine::Tally& t) { return pcount::queens::search_counts(n, t); });
}
BENCHMARK(BM_QueensSearch)->ArgName("threads")->Arg(1)->Arg(2)->Arg(4)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_QueensConstellations(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  run_queens(
      state, n, static_cast<int>(state.range(1)), [n](int) { return pcount::queens::make_constellation_job(n, 1, "bench"); },
      [n](const pcount::engine::Tally& t) { return pcount::queens::constellation_counts(n, t); });
}
BENCHMARK(BM_QueensConstellations)
    ->ArgNames({"n", "threads"})
    ->ArgsProduct({{14}, {1, 2, 4}})
    ->Args({16, 1})
    ->Args({16, 2})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

void BM_QueensJoin(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  run_queens(
      state, n, static_cast<int>(state.range(1)),
      [n](int) { return pcount::queens::make_join_job(n, pcount::queens::default_join_outer(n), "bench"); },
      [n](const pcount::engine::Tally& t) { return pcount::queens::join_counts(n, t); });
}
BENCHMARK(BM_QueensJoin)
    ->ArgNames({"n", "threads"})
    ->ArgsProduct({{14, 16}, {1, 2}})
    ->Args({17, 1})
    ->Args({17, 2})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
