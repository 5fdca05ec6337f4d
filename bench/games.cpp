// Benchmarks of the games folder: tic-tac-toe game tree, code-breaking
// strategies, Kirkman's schoolgirls. Argument = worker threads (run through
// engine::run, which uses a task_arena of that size). Counts checked after
// the timing loop.
#include <benchmark/benchmark.h>

#include "pcount/engine/runner.hpp"
#include "pcount/games/codes.hpp"
#include "pcount/designs/kirkman.hpp"
#include "pcount/games/tictactoe.hpp"
#include "support/plain_kirkman.hpp"

namespace {

using namespace pcount;

engine::RunResult run(const engine::Job& job, int threads) {
  engine::RunOptions o;
  o.threads = threads;
  return engine::run(job, o);
}

void BM_TicTacToeGameTree(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  const engine::Job job = games::tictactoe::make_job(2);  // the game trees and the 27 small position tasks
  engine::RunResult r;
  for (auto _ : state) r = run(job, threads);
  if (r.totals.counts[games::tictactoe::kGames] != 255168 ||
      r.totals.counts[games::tictactoe::kGamesUpToSymmetry] != 26830 ||
      r.totals.counts[games::tictactoe::kPositions] != 5478)
    state.SkipWithError("wrong tic-tac-toe count");
  state.counters["nodes/s"] =
      benchmark::Counter(static_cast<double>(r.totals.nodes) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}

void codes_bench(benchmark::State& state, games::codes::Game game, games::codes::Strategy strategy,
                 std::uint64_t expected_guesses) {
  const int threads = static_cast<int>(state.range(0));
  (void)games::codes::code_set(game);  // answer table built outside the timing
  const engine::Job job = games::codes::make_strategy_job(game, strategy, 1);
  engine::RunResult r;
  for (auto _ : state) r = run(job, threads);
  if (games::codes::summarize(r.totals).guesses != expected_guesses) state.SkipWithError("wrong total of guesses");
  state.counters["secrets/s"] = benchmark::Counter(
      static_cast<double>(r.totals.counts[games::codes::kSecrets]) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
}

void BM_BullsAndCowsFirstConsistent(benchmark::State& state) {
  codes_bench(state, games::codes::Game::bulls_and_cows, games::codes::Strategy::first_consistent, 28024);
}
void BM_MastermindKnuth(benchmark::State& state) {
  codes_bench(state, games::codes::Game::mastermind, games::codes::Strategy::knuth, 5801);
}
void BM_BullsAndCowsKnuth(benchmark::State& state) {
  codes_bench(state, games::codes::Game::bulls_and_cows, games::codes::Strategy::knuth, 27139);
}

void BM_MastermindOptimal(benchmark::State& state) {
  codes_bench(state, games::codes::Game::mastermind, games::codes::Strategy::optimal, 5625);
}

void BM_KirkmanCount(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  const engine::Job job = designs::kirkman::make_count_job(3);  // orbits computed outside the timing
  engine::RunResult r;
  for (auto _ : state) r = run(job, threads);
  if (designs::kirkman::solutions(r.totals) != 2021760) state.SkipWithError("wrong Kirkman count");
  state.counters["nodes/s"] =
      benchmark::Counter(static_cast<double>(r.totals.nodes) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}

void BM_KirkmanFind(benchmark::State& state) {
  std::optional<designs::kirkman::Schedule> s;
  for (auto _ : state) s = designs::kirkman::find_solution();
  if (!s || !designs::kirkman::is_solution(*s)) state.SkipWithError("no valid schedule");
}

void BM_KirkmanSecondDayOrbits(benchmark::State& state) {
  std::size_t days = 0;
  for (auto _ : state) days = designs::kirkman::second_days().size();
  if (days != pcount::test::plain_second_day_count()) state.SkipWithError("wrong number of second days");
}

}  // namespace

BENCHMARK(BM_TicTacToeGameTree)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BullsAndCowsFirstConsistent)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MastermindKnuth)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BullsAndCowsKnuth)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MastermindOptimal)->Arg(2)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_KirkmanCount)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_KirkmanFind)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_KirkmanSecondDayOrbits)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
