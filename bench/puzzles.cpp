// Sudoku puzzle solving and counting (targets and figures: results/sudoku-puzzles.md).
//
// BM_PuzzleSet/<set>/<threads>: every puzzle of a reference set
// (data/sudoku), first solution with uniqueness check (limit 2; the serg
// set's puzzles have several solutions and stop at 2),
// in parallel across puzzles by engine::run on <threads> (one task per 16
// puzzles); counter
// puzzles/s. The answer is checked after the loop: every puzzle of these sets
// has exactly one solution (serg: at least two), and each returned grid must
// solve its puzzle. The kernel is the automatic one (simd9 on the path
// PCOUNT_SIMD or the CPU picks).
// BM_CountPuzzle/<threads>: all 6,696,000 solutions of the band-class check
// puzzle (docs/sudoku-puzzles.md) through engine::run; counter solutions/s.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "pcount/engine/runner.hpp"
#include "pcount/sudoku/puzzle.hpp"
#include "pcount/sudoku/solver.hpp"

namespace {

using pcount::sudoku::Puzzle;
using pcount::sudoku::SolveResult;

const char* const kSets[] = {"puzzles2_17_clue", "puzzles5_forum_hardest_1905_11+", "puzzles3_magictour_top1465",
                             "puzzles6_forum_hardest_1106", "puzzles7_serg_benchmark"};

/// The serg set's puzzles all have several solutions (a uniqueness check
/// stops at the second); the other sets' have one.
bool several_solutions(const std::string& set) { return set == "puzzles7_serg_benchmark"; }

const std::vector<Puzzle>& load(const std::string& name) {
  static std::vector<std::vector<Puzzle>> cache(std::size(kSets));
  std::size_t k = 0;
  while (kSets[k] != name) ++k;
  if (cache[k].empty()) {
    std::ifstream in(std::string(PCOUNT_DATA_DIR) + "/sudoku/" + name);
    std::string line;
    while (std::getline(in, line))
      if (!line.empty() && line[0] != '#') cache[k].push_back(pcount::sudoku::parse_puzzle(line));
  }
  return cache[k];
}

void BM_PuzzleSet(benchmark::State& state) {
  const std::string name = kSets[state.range(0)];
  const int threads = static_cast<int>(state.range(1));
  const std::vector<Puzzle>& puzzles = load(name);
  if (puzzles.empty()) {
    state.SkipWithError(("cannot read " + name).c_str());
    return;
  }
  std::vector<SolveResult> results(puzzles.size());
  // One engine task per 16 puzzles; task t fills results[16t … 16t+15].
  constexpr std::size_t kPerTask = 16;
  pcount::engine::Job job;
  job.fingerprint = "bench puzzles";
  job.task_count = (puzzles.size() + kPerTask - 1) / kPerTask;
  job.run_task = [&puzzles, &results](std::size_t id, pcount::engine::Tally&) {
    for (std::size_t i = id * kPerTask; i < std::min(puzzles.size(), (id + 1) * kPerTask); ++i)
      results[i] = pcount::sudoku::solve(puzzles[i], 2);
  };
  pcount::engine::RunOptions run;
  run.threads = threads;
  for (auto _ : state) {
    (void)pcount::engine::run(job, run);
    benchmark::DoNotOptimize(results.data());
  }
  std::size_t bad = 0;
  const bool several = several_solutions(name);
  for (std::size_t i = 0; i < puzzles.size(); ++i)
    if (results[i].solutions != (several ? 2u : 1u) || results[i].limit_reached != several ||
        !pcount::sudoku::is_solution(puzzles[i], results[i].first))
      ++bad;
  if (bad) state.SkipWithError((std::to_string(bad) + " puzzles not solved as expected").c_str());
  state.SetLabel(name);
  state.counters["puzzles/s"] = benchmark::Counter(static_cast<double>(puzzles.size()) * static_cast<double>(state.iterations()),
                                                   benchmark::Counter::kIsRate);
}

void BM_CountPuzzle(benchmark::State& state) {
  const Puzzle p = pcount::sudoku::parse_puzzle(
      "1234567894567891237891234562........5........8........3........6........9........");
  pcount::sudoku::CountJobOptions options;
  options.min_tasks = 64 * static_cast<std::size_t>(state.range(0));
  const pcount::engine::Job job = pcount::sudoku::make_count_job(p, options);
  pcount::engine::RunOptions run;
  run.threads = static_cast<int>(state.range(0));
  pcount::u128 count = 0;
  for (auto _ : state) count = pcount::engine::run(job, run).totals.counts[0];
  if (count != 6'696'000u) state.SkipWithError("wrong count");
  state.counters["solutions/s"] =
      benchmark::Counter(6'696'000.0 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(BM_PuzzleSet)
    ->ArgsProduct({{0, 1, 2, 3, 4}, {1, 2}})
    ->ArgNames({"set", "threads"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CountPuzzle)->Arg(1)->Arg(2)->ArgName("threads")->UseRealTime()->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
