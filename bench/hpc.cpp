// What the batch features cost per task (docs/hpc.md, results/scaling.md).
//
//   BM_Checkpoint/T/L/threads  T tasks of ~1 µs of work each, run through
//                              engine::run without (L=0) or with (L=1) every
//                              finished task queued to a CheckpointLog (flush
//                              + fsync once a second, and once at the end):
//                              the per-task price of --checkpoint.
//   BM_Claim/threads           the same tasks handed out through
//                              RunOptions::claim from a mutex-guarded counter
//                              (the shape count-mpi uses, without MPI).
//   BM_ShardMerge/K            building K shard results of a 4096-task job,
//                              through JSON, and merging them.
//
// The thread count is the last argument; engine::run puts the tasks in a
// tbb::task_arena of exactly that size. Real (wall) time; rates per wall
// second. The totals are checked after the loop (SkipWithError if wrong).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include <unistd.h>

#include "pcount/engine/checkpoint.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/engine/shard.hpp"

namespace {

using pcount::u128;
using namespace pcount::engine;

/// T tasks; task id adds id+1 to counter 0 after ~1 µs of dependent work.
Job tiny_job(std::size_t tasks) {
  Job job;
  job.fingerprint = "bench tiny tasks=" + std::to_string(tasks);
  job.counter_names = {"sum"};
  job.task_count = tasks;
  job.run_task = [](std::size_t id, Tally& t) {
    std::uint64_t x = id + 1;
    for (int i = 0; i < 400; ++i) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    benchmark::DoNotOptimize(x);
    t.add(0, id + 1);
  };
  return job;
}

u128 expected_sum(std::size_t tasks) { return static_cast<u128>(tasks) * (tasks + 1) / 2; }

void BM_Checkpoint(benchmark::State& state) {
  const auto tasks = static_cast<std::size_t>(state.range(0));
  const bool logged = state.range(1) != 0;
  const Job job = tiny_job(tasks);
  const std::string path = "/tmp/pcount-bench-ck-" + std::to_string(::getpid());
  RunResult r;
  for (auto _ : state) {
    std::remove(path.c_str());
    RunOptions o;
    o.threads = static_cast<int>(state.range(2));
    if (logged) {
      CheckpointLog log(path, job, 1.0);
      o.on_task_done = [&log](std::size_t id, const Tally& t, double s) { log.record({id, t, s}); };
      r = run(job, o);
      log.close();
    } else {
      r = run(job, o);
    }
  }
  std::remove(path.c_str());
  if (r.totals.counts[0] != expected_sum(tasks)) state.SkipWithError("wrong total");
  state.counters["tasks/s"] =
      benchmark::Counter(static_cast<double>(tasks), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Checkpoint)
    ->ArgNames({"tasks", "log", "threads"})
    ->ArgsProduct({{20000}, {0, 1}, {1, 2}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

void BM_Claim(benchmark::State& state) {
  const std::size_t tasks = 20000;
  const Job job = tiny_job(tasks);
  RunResult r;
  for (auto _ : state) {
    std::mutex m;
    std::size_t next = 0;
    RunOptions o;
    o.threads = static_cast<int>(state.range(0));
    o.claim = [&] {
      std::lock_guard lock(m);
      return next++;
    };
    r = run(job, o);
  }
  if (r.totals.counts[0] != expected_sum(tasks)) state.SkipWithError("wrong total");
  state.counters["tasks/s"] =
      benchmark::Counter(static_cast<double>(tasks), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Claim)->ArgNames({"threads"})->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_ShardMerge(benchmark::State& state) {
  const std::size_t tasks = 4096;
  const auto k = static_cast<std::size_t>(state.range(0));
  const Job job = tiny_job(tasks);
  std::vector<ShardResult> shards;
  for (std::size_t i = 0; i < k; ++i) {
    ShardResult s;
    s.version = "bench";
    s.fingerprint = job.fingerprint;
    s.counter_names = job.counter_names;
    s.task_count = tasks;
    s.shard = Shard{i, k};
    RunOptions o;
    o.threads = 1;
    o.record_tasks = true;
    o.include = [&](std::size_t id) { return s.shard.includes(id); };
    const RunResult r = run(job, o);
    s.totals = r.totals;
    s.tasks = r.tasks;
    shards.push_back(s);
  }
  std::vector<std::string> names(k, "shard");
  MergeResult m;
  for (auto _ : state) {
    std::vector<ShardResult> parsed;
    for (const auto& s : shards) parsed.push_back(parse_shard_json(shard_json_text(s), "s"));
    m = merge_shards(parsed, names);
  }
  if (m.totals.counts[0] != expected_sum(tasks)) state.SkipWithError("wrong total");
  state.counters["tasks/s"] =
      benchmark::Counter(static_cast<double>(tasks), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_ShardMerge)->ArgNames({"shards"})->Arg(1)->Arg(7)->Arg(64)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
