#include "pcount/engine/runner.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "pcount/engine/errors.hpp"

namespace pcount::engine {

namespace {
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Task ids in the order they are handed out: largest estimate first when
/// the job has estimates (ties keep id order), else id order.
std::vector<std::size_t> schedule(const Job& job, const RunOptions& options) {
  std::vector<std::size_t> order;
  order.reserve(job.task_count);
  for (std::size_t id = 0; id < job.task_count; ++id)
    if (!options.include || options.include(id)) order.push_back(id);
  if (job.estimate) {
    std::vector<double> est(job.task_count, 0.0);
    for (std::size_t id : order) est[id] = job.estimate(id);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return est[a] > est[b]; });
  }
  return order;
}
}  // namespace

int hardware_threads() { return std::max(1, tbb::info::default_concurrency()); }

RunResult run(const Job& job, const RunOptions& options) {
  if (options.threads < 0) throw InvalidArgument("--threads", "must be ≥ 1");
  if (!job.run_task && job.task_count > 0) throw std::logic_error("job has tasks but no run_task");
  const int threads = options.threads == 0 ? hardware_threads() : options.threads;

  const std::size_t counters = job.counter_names.size();
  RunResult result;
  result.totals = Tally(counters);
  result.tasks_total = job.task_count;
  result.threads = threads;
  const std::vector<std::size_t> order = schedule(job, options);
  if (options.record_tasks) result.tasks.resize(order.size());

  // Allow more workers than cores when asked for; the arena sets the limit.
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  tbb::task_arena arena(threads);
  tbb::enumerable_thread_specific<Tally> partial(Tally{counters});
  std::vector<char> finished(options.record_tasks ? order.size() : 0, 0);
  std::atomic<bool> failed{false};
  std::atomic<bool> cancelled{false};
  std::atomic<std::size_t> done{0};
  std::exception_ptr error;
  std::mutex error_mutex;

  // Runs the task at position `slot` of the schedule; false = stop taking tasks.
  auto run_slot = [&](std::size_t slot) -> bool {
    if (failed.load(std::memory_order_relaxed)) return false;
    if (options.cancel && options.cancel->load(std::memory_order_relaxed)) {
      cancelled.store(true, std::memory_order_relaxed);
      return false;
    }
    const std::size_t id = order[slot];
    try {
      Tally tally(counters);  // sized once: the kernel's adds do not allocate
      const auto t0 = Clock::now();
      job.run_task(id, tally);
      const double secs = seconds_since(t0);
      if (tally.counts.size() > counters)
        throw std::logic_error("task " + std::to_string(id) + " added to counter " +
                               std::to_string(tally.counts.size() - 1) + " but the job names only " +
                               std::to_string(counters) + " counters");
      partial.local().merge(tally);
      if (options.record_tasks) {
        result.tasks[slot] = TaskRecord{id, tally, secs};
        finished[slot] = 1;
      }
      done.fetch_add(1, std::memory_order_relaxed);
      if (options.on_task_done) options.on_task_done(id, tally, secs);
    } catch (...) {
      std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
      failed.store(true, std::memory_order_relaxed);
      return false;
    }
    return true;
  };

  const auto start = Clock::now();
  arena.execute([&] {
    if (options.claim) {
      // One loop per worker, each claiming positions until none is left.
      tbb::parallel_for(
          tbb::blocked_range<int>(0, threads, 1),
          [&](const tbb::blocked_range<int>& workers) {
            for (int w = workers.begin(); w != workers.end(); ++w) {
              for (;;) {
                if (failed.load(std::memory_order_relaxed)) break;
                if (options.cancel && options.cancel->load(std::memory_order_relaxed)) {
                  cancelled.store(true, std::memory_order_relaxed);
                  break;
                }
                std::size_t slot = 0;
                try {
                  slot = options.claim();
                } catch (...) {
                  std::lock_guard lock(error_mutex);
                  if (!error) error = std::current_exception();
                  failed.store(true, std::memory_order_relaxed);
                  break;
                }
                if (slot >= order.size() || !run_slot(slot)) break;
              }
            }
          },
          tbb::simple_partitioner());
    } else {
      tbb::parallel_for(
          tbb::blocked_range<std::size_t>(0, order.size(), 1),
          [&](const tbb::blocked_range<std::size_t>& range) {
            for (std::size_t slot = range.begin(); slot != range.end(); ++slot)
              if (!run_slot(slot)) return;
          },
          tbb::simple_partitioner());
    }
  });
  result.wall_seconds = seconds_since(start);
  if (error) std::rethrow_exception(error);

  result.tasks_run = done.load();
  result.interrupted = cancelled.load();
  for (const Tally& t : partial) result.totals.merge(t);
  if (options.record_tasks) {
    std::vector<TaskRecord> kept;
    kept.reserve(result.tasks_run);
    for (std::size_t slot = 0; slot < order.size(); ++slot)
      if (finished[slot]) kept.push_back(std::move(result.tasks[slot]));
    result.tasks = std::move(kept);
    std::sort(result.tasks.begin(), result.tasks.end(),
              [](const TaskRecord& a, const TaskRecord& b) { return a.id < b.id; });
  }
  return result;
}

}  // namespace pcount::engine
