// Engine overhead: what the runner costs per task, independent of any problem.
//
//   BM_EmptyTasks/T/threads   T tasks that only add 1 to a counter: the pure
//                             hand-out + per-task bookkeeping + reduction cost.
//   BM_GrainTasks/W/threads   4096 tasks of W units of dependent integer work
//                             each (one unit ≈ 1.4 ns here): how small a task may be
//                             before the scheduler dominates, and the
//                             speedup over threads when it does not.
//   BM_SkewedTasks/E/threads  63 small tasks and one 32x larger task last in id
//                             order, without (E=0) or with (E=1) Job::estimate:
//                             what largest-first scheduling buys.
//   BM_Reduction/threads      4096 tasks filling 8 counters with values near
//                             2^100: the cost of the checked 128-bit merge
//                             path (the same 8 as before counters became
//                             unlimited, so results stay comparable).
//   BM_TreeSplit/depth        building a depth-split job (expand + make_tree_job)
//                             of a toy tree; single-threaded by construction.
//
// Every benchmark but BM_TreeSplit takes the thread count as its last argument; engine::run
// puts the tasks in a tbb::task_arena of exactly that size. Times are real
// (wall) times; counters are rates per wall second. Each benchmark checks
// the reduced totals after the loop and reports an error if they are wrong.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pcount/engine/runner.hpp"
#include "pcount/engine/task.hpp"
#include "pcount/engine/tree.hpp"
#include "support/toy_tree.hpp"
#include "pcount/u128.hpp"

namespace {

using pcount::u128;
using pcount::engine::Job;
using pcount::engine::RunOptions;
using pcount::engine::RunResult;
using pcount::engine::Tally;

/// A job of `tasks` tasks; task `id` adds 1 to counter 0 and `id` to counter 1.
Job empty_job(std::size_t tasks) {
  Job job;
  job.fingerprint = "bench empty tasks=" + std::to_string(tasks);
  job.counter_names = {"tasks", "id_sum"};
  job.task_count = tasks;
  job.run_task = [](std::size_t id, Tally& out) {
    out.add(0, 1);
    out.add(1, id);
  };
  return job;
}

void BM_EmptyTasks(benchmark::State& state) {
  const auto tasks = static_cast<std::size_t>(state.range(0));
  RunOptions options;
  options.threads = static_cast<int>(state.range(1));
  const Job job = empty_job(tasks);
  RunResult last;
  for (auto _ : state) {
    last = pcount::engine::run(job, options);
    benchmark::DoNotOptimize(last.totals);
  }
  const u128 want_sum = static_cast<u128>(tasks) * (tasks - 1) / 2;
  if (last.totals.counts[0] != tasks || last.totals.counts[1] != want_sum) {
    state.SkipWithError("wrong totals");
    return;
  }
  state.counters["tasks_per_s"] =
      benchmark::Counter(static_cast<double>(tasks) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
  state.counters["threads"] = static_cast<double>(options.threads);
}
BENCHMARK(BM_EmptyTasks)
    ->ArgNames({"tasks", "threads"})
    ->ArgsProduct({{1'000, 100'000}, {1, 2, 4}})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

/// `units` rounds of a xorshift step seeded by `id`: a dependent chain the
/// compiler cannot shorten (about one nanosecond per unit).
std::uint64_t busy_work(std::size_t id, std::int64_t units) {
  std::uint64_t x = 0x9E3779B97F4A7C15ull ^ (id + 1);
  for (std::int64_t i = 0; i < units; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  return x;
}

/// Runs a job of busy-work tasks (counter 0 = tasks, counter 1 = low bits
/// of each task's result) in the timed loop, then checks both totals and
/// reports tasks per second.
void run_busy_job(benchmark::State& state, const Job& job, const RunOptions& options, std::size_t tasks,
                  u128 want_bits) {
  RunResult last;
  for (auto _ : state) {
    last = pcount::engine::run(job, options);
    benchmark::DoNotOptimize(last.totals);
  }
  if (last.totals.counts[0] != tasks || last.totals.counts[1] != want_bits) {
    state.SkipWithError("wrong totals");
    return;
  }
  state.counters["tasks_per_s"] =
      benchmark::Counter(static_cast<double>(tasks) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
  state.counters["threads"] = static_cast<double>(options.threads);
}

void BM_GrainTasks(benchmark::State& state) {
  constexpr std::size_t kTasks = 4096;
  const std::int64_t units = state.range(0);
  RunOptions options;
  options.threads = static_cast<int>(state.range(1));
  Job job;
  job.fingerprint = "bench grain units=" + std::to_string(units);
  job.counter_names = {"tasks", "low_bits"};
  job.task_count = kTasks;
  job.run_task = [units](std::size_t id, Tally& out) {
    out.add(0, 1);
    out.add(1, busy_work(id, units) & 0xFF);
  };
  // The expected totals, computed sequentially without the engine.
  u128 want_bits = 0;
  for (std::size_t id = 0; id < kTasks; ++id) want_bits += busy_work(id, units) & 0xFF;

  run_busy_job(state, job, options, kTasks, want_bits);
}
BENCHMARK(BM_GrainTasks)
    ->ArgNames({"units", "threads"})
    ->ArgsProduct({{100, 10'000, 100'000}, {1, 2, 4}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

/// 63 small tasks of 20'000 units and, last in id order, one task 32 times
/// larger: the work of one thread for half the run. Without estimates the
/// large task may start last and finish alone; with Job::estimate the runner
/// starts it first (largest-first). Ideal time on p ≥ 2 free cores: the
/// large task alone, 32/95 of the one-thread time.
void BM_SkewedTasks(benchmark::State& state) {
  constexpr std::size_t kTasks = 64;
  constexpr std::int64_t kSmall = 20'000;
  const bool with_estimate = state.range(0) != 0;
  RunOptions options;
  options.threads = static_cast<int>(state.range(1));
  auto units = [](std::size_t id) { return id + 1 == kTasks ? 32 * kSmall : kSmall; };
  Job job;
  job.fingerprint = "bench skewed";
  job.counter_names = {"tasks", "low_bits"};
  job.task_count = kTasks;
  job.run_task = [units](std::size_t id, Tally& out) {
    out.add(0, 1);
    out.add(1, busy_work(id, units(id)) & 0xFF);
  };
  if (with_estimate) job.estimate = [units](std::size_t id) { return static_cast<double>(units(id)); };
  u128 want_bits = 0;
  for (std::size_t id = 0; id < kTasks; ++id) want_bits += busy_work(id, units(id)) & 0xFF;

  run_busy_job(state, job, options, kTasks, want_bits);
}
BENCHMARK(BM_SkewedTasks)
    ->ArgNames({"estimate", "threads"})
    ->ArgsProduct({{0, 1}, {1, 2, 4}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

void BM_Reduction(benchmark::State& state) {
  constexpr std::size_t kTasks = 4096;
  RunOptions options;
  options.threads = static_cast<int>(state.range(0));
  const u128 big = (static_cast<u128>(1) << 100) + 12345;
  Job job;
  job.fingerprint = "bench reduction";
  job.counter_names = {"c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7"};
  job.task_count = kTasks;
  constexpr std::size_t kCounters = 8;
  job.run_task = [big](std::size_t id, Tally& out) {
    for (std::size_t c = 0; c < kCounters; ++c) out.add(c, big + id + c);
    out.nodes = big;
  };
  RunResult last;
  for (auto _ : state) {
    last = pcount::engine::run(job, options);
    benchmark::DoNotOptimize(last.totals);
  }
  const u128 id_sum = static_cast<u128>(kTasks) * (kTasks - 1) / 2;
  for (std::size_t c = 0; c < kCounters; ++c) {
    if (last.totals.counts[c] != big * kTasks + id_sum + c * kTasks) {
      state.SkipWithError("wrong totals");
      return;
    }
  }
  if (last.totals.nodes != big * kTasks) {
    state.SkipWithError("wrong node total");
    return;
  }
  state.counters["tasks_per_s"] =
      benchmark::Counter(static_cast<double>(kTasks) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
  state.counters["threads"] = static_cast<double>(options.threads);
}
BENCHMARK(BM_Reduction)->ArgName("threads")->Arg(1)->Arg(2)->Arg(4)->UseRealTime()->Unit(benchmark::kMicrosecond);


void BM_TreeSplit(benchmark::State& state) {
  const int depth = static_cast<int>(state.range(0));
  auto tree = std::make_shared<const pcount::test::NoRepeatWords>(pcount::test::NoRepeatWords{8, 10});
  std::size_t tasks = 0;
  for (auto _ : state) {
    const Job job = pcount::engine::make_tree_job(tree, depth, "bench split", {"leaves"});
    tasks = job.task_count;
    benchmark::DoNotOptimize(tasks);
  }
  // Frontier at depth d ≥ 1 of this tree: 8·7^(d-1) nodes.
  std::size_t want = depth == 0 ? 1 : 8;
  for (int d = 1; d < depth; ++d) want *= 7;
  if (tasks != want) {
    state.SkipWithError("wrong frontier size");
    return;
  }
  state.counters["tasks_per_s"] =
      benchmark::Counter(static_cast<double>(tasks) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
  state.counters["threads"] = 1;
}
BENCHMARK(BM_TreeSplit)->ArgName("depth")->Arg(3)->Arg(5)->Arg(7)->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
