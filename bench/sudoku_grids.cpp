// Sudoku grid counts.
//
//   BM_SudokuSearch2x3/threads  6x6 by reduced-grid tree search (6528 reduced
//                               grids), split at depth 4.
//   BM_SudokuBands2x3/threads   6x6 by Σ B(σ)² (class discovery + run).
//   BM_SudokuBands3x3/threads   9x9 by the 44 band classes: building the
//                               tables from first principles plus the run.
//   BM_SudokuBands2x4/threads   8x8 by Σ B(σ)² over 26 nauty classes
//                               (class discovery + run).
//
// The thread count is the benchmark argument; engine::run (and the class
// discovery) use a task_arena of that size. Real (wall) time. Each benchmark
// checks the grid total after the loop against the published totals of
// tests/support/known_grids.hpp (SkipWithError when wrong).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "pcount/engine/runner.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/sudoku/bands.hpp"
#include "pcount/sudoku/grids.hpp"
#include "support/known_grids.hpp"

namespace {

namespace engine = pcount::engine;
namespace sudoku = pcount::sudoku;

void BM_SudokuSearch2x3(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  auto tree = std::make_shared<const sudoku::GridSearchTree>(sudoku::BoxShape{2, 3});
  const engine::Job job = engine::make_tree_job(tree, 4, "bench sudoku 2x3", {"reduced"});
  engine::RunOptions options;
  options.threads = threads;
  engine::RunResult result;
  for (auto _ : state) {
    result = engine::run(job, options);
    benchmark::DoNotOptimize(result.totals.counts[0]);
  }
  const pcount::BigInt total = pcount::to_big(result.totals.counts[0]) * sudoku::reduced_multiplier({2, 3});
  if (pcount::to_string(total) != pcount::test::known_grid_count(2, 3)) state.SkipWithError("wrong 2x3 total");
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(result.totals.nodes),
                                                 benchmark::Counter::kIsIterationInvariantRate);
  state.counters["grids/s"] = benchmark::Counter(std::stod(pcount::test::known_grid_count(2, 3)),
                                                 benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_SudokuSearch2x3)->Arg(1)->Arg(2)->Arg(4)->UseRealTime()->Unit(benchmark::kMillisecond);

/// Whole band count: tables/classes, then the engine run.
void bands(benchmark::State& state, sudoku::BoxShape shape) {
  const int threads = static_cast<int>(state.range(0));
  engine::RunOptions options;
  options.threads = threads;
  pcount::BigInt total;
  std::size_t classes = 0;
  for (auto _ : state) {
    const auto counter = shape.rows == 3 && shape.cols == 3
                             ? sudoku::make_bands_3x3(threads)
                             : sudoku::make_bands_two_column(shape.rows == 2 ? shape.cols : shape.rows, threads);
    total = counter->total(engine::run(counter->job("bench"), options).totals);
    classes = counter->class_count();
    benchmark::DoNotOptimize(total);
  }
  if (pcount::to_string(total) != pcount::test::known_grid_count(shape.rows, shape.cols))
    state.SkipWithError("wrong grid total");
  state.counters["classes"] = static_cast<double>(classes);
}

void BM_SudokuBands2x3(benchmark::State& state) { bands(state, {2, 3}); }
BENCHMARK(BM_SudokuBands2x3)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_SudokuBands3x3(benchmark::State& state) { bands(state, {3, 3}); }
BENCHMARK(BM_SudokuBands3x3)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_SudokuBands2x4(benchmark::State& state) { bands(state, {2, 4}); }
BENCHMARK(BM_SudokuBands2x4)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
