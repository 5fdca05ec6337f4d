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
// BM_GeneralSet/<set>/<kernel>: the generated 12×12 and 16×16 sets
// (data/sudoku/README.md: 0 = puzzles12_3x4, 1 = puzzles12_2x6,
// 2 = puzzles16_4x4), one thread, solve(p, 2, kernel) puzzle after puzzle,
// kernel 0 = general (digit bitboards), 1 = general without locked
// candidates, 2 = sweep (the kernel general replaced); counter puzzles/s.
// Every puzzle must come out with one solution that solves it.
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
#include "pcount/sudoku/solver_kernels.hpp"

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

struct GeneralSet {
  const char* file;
  pcount::sudoku::BoxShape shape;
};
const GeneralSet kGeneralSets[] = {{"puzzles12_3x4", {3, 4}}, {"puzzles12_2x6", {2, 6}}, {"puzzles16_4x4", {4, 4}}};

void BM_GeneralSet(benchmark::State& state) {
  const GeneralSet& set = kGeneralSets[state.range(0)];
  std::vector<Puzzle> puzzles;
  {
    std::ifstream in(std::string(PCOUNT_DATA_DIR) + "/sudoku/" + set.file);
    std::string line;
    while (std::getline(in, line))
      if (!line.empty() && line[0] != '#') puzzles.push_back(pcount::sudoku::parse_puzzle(line, set.shape));
  }
  if (puzzles.empty()) {
    state.SkipWithError((std::string("cannot read ") + set.file).c_str());
    return;
  }
  const auto kernel = state.range(1) == 2 ? pcount::sudoku::Kernel::sweep : pcount::sudoku::Kernel::general;
  pcount::sudoku::detail::general_locked_candidates = state.range(1) == 0;
  std::vector<SolveResult> results(puzzles.size());
  for (auto _ : state) {
    for (std::size_t i = 0; i < puzzles.size(); ++i) results[i] = pcount::sudoku::solve(puzzles[i], 2, kernel);
    benchmark::DoNotOptimize(results.data());
  }
  pcount::sudoku::detail::general_locked_candidates = true;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < puzzles.size(); ++i)
    if (results[i].solutions != 1 || results[i].limit_reached || !pcount::sudoku::is_solution(puzzles[i], results[i].first))
      ++bad;
  if (bad) state.SkipWithError((std::to_string(bad) + " puzzles not solved as expected").c_str());
  state.SetLabel(std::string(set.file) + " " + (state.range(1) == 0 ? "general" : state.range(1) == 1 ? "general-no-locked" : "sweep"));
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
BENCHMARK(BM_GeneralSet)->ArgsProduct({{0, 1, 2}, {0, 1, 2}})->ArgNames({"set", "kernel"})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CountPuzzle)->Arg(1)->Arg(2)->ArgName("threads")->UseRealTime()->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
