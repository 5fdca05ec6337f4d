// Sudoku grid counts.
//
//   BM_SudokuSearch2x3/threads  6x6 by reduced-grid tree search (6528 reduced
//                               grids), split at depth 4.
//   BM_SudokuBands2x3/threads   6x6 by Σ B(σ)² (class discovery + run).
//   BM_SudokuBands3x3/threads   9x9 by the 44 band classes: building the
//                               tables from first principles plus the run.
//   BM_SudokuBands2x4/threads   8x8 by Σ B(σ)² over 26 nauty classes
//                               (class discovery + run).
//   BM_SudokuFactorisations2x4/threads  8x8 by `--method factorisations`
//                               (orderly classes + pivot kernel + memo).
//   BM_PivotFactorisations2x5/memo  B of the first 20 2x5 band classes
//                               (canonical-form order) by the pivot kernel,
//                               memo = 1: one memo shared by the 20 (fresh
//                               each iteration), memo = 0: none; counters
//                               hit_rate and entries.
//   BM_SubBand2x6Leaves/memo    12x12 (2x6) sub-band counts, a timing sample:
//                               four random 6x2 band signatures (fixed
//                               seed), one column-1 part each, stopped after
//                               2,000 bottom 2-factors; us/leaf is CPU time
//                               per 2-factor with the top parts memoised
//                               (memo = 1, cache kept across iterations) or
//                               counted afresh (memo = 0); us/leaf_first is
//                               the first pass, us/leaf_repeat the repeats
//                               (memo = 1: every top part a cache hit).
//   BM_SubBand2x6HitRate/N      the share of top parts found in the memo
//                               cache over the first N bottom 2-factors of
//                               one random 6x2 signature (fixed seed, part
//                               0), in enumeration order, from an empty
//                               cache: does the cache pay within a task?
//   BM_SubBand2x6Classes        the 2x6 signature classes (orderly generation,
//                               2 threads) and the sum over classes of the
//                               Knuth estimates of their bottom 2-factors;
//                               whole-run CPU ≈ leaves × us/leaf.
//   BM_Band4x3Loop/what          the per-loop costs of the gangster method
//                               for 3x4 (4x3) grids (results/
//                               sudoku-grids-12.md): random 4x3 band
//                               configurations (4 stacks, each 12 digits cut
//                               into 3 columns of 4; fixed seed); what = 0:
//                               B by ordered_one_factorisations (the
//                               4-regular 12 + 12 column–digit graph), 1: a
//                               nauty canonical form of that graph (the least
//                               a lookup in a table of classes costs).
//                               us/config is CPU time per configuration.
//
// The thread count is the benchmark argument; engine::run (and the class
// discovery) use a task_arena of that size. Real (wall) time. Each benchmark
// checks the grid total after the loop against the published totals of
// tests/support/known_grids.hpp (SkipWithError when wrong).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <ctime>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "pcount/engine/runner.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/graph/canonical.hpp"
#include "pcount/sudoku/grids/bands.hpp"
#include "pcount/sudoku/grids/grids.hpp"
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

void BM_SudokuFactorisations2x4(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  engine::RunOptions options;
  options.threads = threads;
  pcount::BigInt total;
  for (auto _ : state) {
    const auto counter = sudoku::make_bands_factorisations(4, threads);
    total = counter->total(engine::run(counter->job("bench"), options).totals);
    benchmark::DoNotOptimize(total);
  }
  if (pcount::to_string(total) != pcount::test::known_grid_count(2, 4)) state.SkipWithError("wrong grid total");
}
BENCHMARK(BM_SudokuFactorisations2x4)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_PivotFactorisations2x5(benchmark::State& state) {
  const auto classes = sudoku::two_column_signature_classes(5, 1).classes;
  const bool memo_on = state.range(0) != 0;
  sudoku::FactorisationMemo::Stats st;
  for (auto _ : state) {
    sudoku::FactorisationMemo memo;
    for (std::size_t i = 0; i < 20; ++i)
      benchmark::DoNotOptimize(sudoku::pivot_factorisations(classes[i].columns, 5, memo_on ? &memo : nullptr));
    st = memo.stats();
  }
  state.counters["hit_rate"] = st.lookups ? static_cast<double>(st.hits) / static_cast<double>(st.lookups) : 0.0;
  state.counters["entries"] = static_cast<double>(st.entries);
}
BENCHMARK(BM_PivotFactorisations2x5)->Arg(1)->Arg(0)->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

/// `count` random 6x2 band signatures (columns of a 12 + 12 column–digit
/// graph), the same for a given seed.
std::vector<std::vector<std::uint32_t>> random_6x2_signatures(int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::uint32_t>> signatures;
  for (int i = 0; i < count; ++i) {
    std::vector<std::uint32_t> cols;
    for (int b = 0; b < 6; ++b) {
      std::vector<int> digits{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
      std::shuffle(digits.begin(), digits.end(), rng);
      std::uint32_t set = 0;
      for (int d = 0; d < 6; ++d) set |= 1u << digits[static_cast<std::size_t>(d)];
      cols.push_back(set);
      cols.push_back(4095u & ~set);
    }
    signatures.push_back(cols);
  }
  return signatures;
}

void BM_SubBand2x6HitRate(benchmark::State& state) {
  const auto leaves = static_cast<std::uint64_t>(state.range(0));
  const auto signature = random_6x2_signatures(1, 2006).front();
  double rate = 0.0;
  for (auto _ : state) rate = sudoku::sub_band_cache_hit_rate(signature, 6, 0, leaves);
  state.counters["hit_rate"] = rate;
}
BENCHMARK(BM_SubBand2x6HitRate)->Arg(2000)->Arg(20000)->Arg(200000)->Iterations(1)->Unit(benchmark::kSecond);

void BM_SubBand2x6Leaves(benchmark::State& state) {
  const bool memo = state.range(0) != 0;
  const auto signatures = random_6x2_signatures(4, 2006);
  std::uint64_t leaves = 0, first_leaves = 0;
  double cpu = 0.0, first_cpu = 0.0;
  for (auto _ : state) {
    if (first_leaves == 0 && leaves > 0) {
      first_leaves = leaves;
      first_cpu = cpu;
    }
    const double t0 = cpu_seconds();
    for (std::size_t i = 0; i < signatures.size(); ++i) {
      std::uint64_t l = 0;
      benchmark::DoNotOptimize(
          sudoku::sub_band_factorisations_part(signatures[i], 6, static_cast<int>(i), &l, 2000, memo));
      leaves += l;
    }
    cpu += cpu_seconds() - t0;
  }
  state.counters["us/leaf"] = 1e6 * cpu / static_cast<double>(leaves);
  // First pass (cache cold for these signatures) and the repeats (every top
  // part already cached: the cost of the 2-factor, its cycles, one nauty
  // canonical form and one lookup).
  state.counters["us/leaf_first"] = 1e6 * first_cpu / static_cast<double>(first_leaves);
  state.counters["us/leaf_repeat"] = 1e6 * (cpu - first_cpu) / static_cast<double>(leaves - first_leaves);
}
BENCHMARK(BM_SubBand2x6Leaves)->Arg(0)->Arg(1)->Iterations(3)->Unit(benchmark::kSecond);

void BM_SubBand2x6Classes(benchmark::State& state) {
  double leaves = 0.0;
  std::size_t classes = 0, orbits = 0;
  for (auto _ : state) {
    const auto found = sudoku::two_column_signature_classes(6, 2);
    classes = found.classes.size();
    orbits = found.box_orbits;
    leaves = 0.0;
    for (std::size_t i = 0; i < found.classes.size(); ++i)
      leaves += sudoku::sub_band_leaf_estimate(found.classes[i].columns, 6, 64, 1975 + i);
  }
  state.counters["classes"] = static_cast<double>(classes);
  state.counters["box_orbits"] = static_cast<double>(orbits);
  state.counters["leaves"] = leaves;
}
BENCHMARK(BM_SubBand2x6Classes)->Iterations(1)->UseRealTime()->Unit(benchmark::kSecond);

void BM_Band4x3Loop(benchmark::State& state) {
  const bool canonical = state.range(0) != 0;
  std::mt19937_64 rng(2005);
  std::vector<std::vector<std::uint32_t>> configs(256);
  for (auto& cols : configs) {
    for (int stack = 0; stack < 4; ++stack) {
      std::vector<int> digits{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
      std::shuffle(digits.begin(), digits.end(), rng);
      for (int c = 0; c < 3; ++c) {
        std::uint32_t set = 0;
        for (int d = 0; d < 4; ++d) set |= 1u << digits[static_cast<std::size_t>(4 * c + d)];
        cols.push_back(set);
      }
    }
  }
  const int cells[] = {12, 12};
  pcount::graph::ColouredGraph g(cells);
  pcount::graph::CanonicalForm form;
  std::uint64_t done = 0;
  double cpu = 0.0;
  for (auto _ : state) {
    const double t0 = cpu_seconds();
    for (const auto& cols : configs) {
      if (canonical) {
        g.reset(cells);
        for (int c = 0; c < 12; ++c)
          for (int d = 0; d < 12; ++d)
            if (cols[static_cast<std::size_t>(c)] >> d & 1u) g.add_edge(c, 12 + d);
        pcount::graph::canonical_form(g, form);
        benchmark::DoNotOptimize(form);
      } else {
        benchmark::DoNotOptimize(sudoku::ordered_one_factorisations(cols, 4));
      }
    }
    cpu += cpu_seconds() - t0;
    done += configs.size();
  }
  state.counters["us/config"] = 1e6 * cpu / static_cast<double>(done);
}
BENCHMARK(BM_Band4x3Loop)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
