#include "pcount/engine/runner.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "pcount/errors.hpp"

namespace pcount::engine {

namespace {
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Task ids in the order they are handed out: largest estimate first when
/// the job has estimates (ties keep id order) and no ordered output, else id
/// order.
std::vector<std::size_t> schedule(const Job& job, const RunOptions& options) {
  std::vector<std::size_t> order;
  order.reserve(job.task_count);
  for (std::size_t id = 0; id < job.task_count; ++id)
    if (!options.include || options.include(id)) order.push_back(id);
  if (job.estimate && !job.run_task_output) {
    std::vector<double> est(job.task_count, 0.0);
    for (std::size_t id : order) est[id] = job.estimate(id);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return est[a] > est[b]; });
  }
  return order;
}
/// The cancel flag of the run whose task this thread is running (see
/// stop_requested in task.hpp); null outside a task.
thread_local const std::atomic<bool>* t_cancel = nullptr;

/// Makes `cancel` the current thread's stop flag while a task runs, and
/// restores the previous one after (a task may itself call engine::run; an
/// inner run without a flag keeps the outer run's).
class TaskScope {
 public:
  explicit TaskScope(const std::atomic<bool>* cancel) : saved_(t_cancel) {
    if (cancel) t_cancel = cancel;
  }
  ~TaskScope() { t_cancel = saved_; }
  TaskScope(const TaskScope&) = delete;
  TaskScope& operator=(const TaskScope&) = delete;

 private:
  const std::atomic<bool>* saved_;
};

/// Workers woken by start_workers: the arena they wait in, for the next run
/// of the same width; `warm_stop` ends their wait when any run starts.
std::mutex warm_mutex;
std::unique_ptr<tbb::task_arena> warm_arena;
int warm_threads = 0;
std::atomic<bool> warm_stop{true};

/// The arena start_workers prepared, if it has `threads` slots, else null;
/// ends the workers' wait and forgets the arena either way (the first run
/// after start_workers is the one it was for).
std::unique_ptr<tbb::task_arena> adopt_warm_arena(int threads) {
  warm_stop.store(true, std::memory_order_relaxed);
  std::lock_guard lock(warm_mutex);
  std::unique_ptr<tbb::task_arena> arena = std::move(warm_arena);
  const bool fits = warm_threads == threads;
  warm_threads = 0;
  return fits ? std::move(arena) : nullptr;
}

/// A finished task of a job with ordered output, waiting until every lower
/// included id has been delivered.
struct Pending {
  bool ready = false;
  std::size_t id = 0;
  Tally counts;
  double seconds = 0.0;
  std::string text;
};
}  // namespace

bool stop_requested() noexcept {
  const std::atomic<bool>* cancel = t_cancel;
  return cancel != nullptr && cancel->load(std::memory_order_relaxed);
}

void throw_if_stopped() {
  if (stop_requested()) throw TaskAbandoned();
}

int hardware_threads() { return std::max(1, tbb::info::default_concurrency()); }

void start_workers(int threads) {
  // More threads than cores need the run's own limit (global_control) first.
  if (threads <= 0 || threads > hardware_threads()) return;
  std::lock_guard lock(warm_mutex);
  if (warm_arena) return;  // one set of waiting workers at a time
  warm_arena = std::make_unique<tbb::task_arena>(threads);
  warm_threads = threads;
  warm_arena->initialize();  // the scheduler's one-time set-up happens here, not in the run
  warm_stop.store(false, std::memory_order_relaxed);
  for (int w = 1; w < threads; ++w)
    warm_arena->enqueue([] {
      const auto until = Clock::now() + std::chrono::milliseconds(50);
      while (!warm_stop.load(std::memory_order_relaxed) && Clock::now() < until) std::this_thread::yield();
    });
}

RunResult run(const Job& job, const RunOptions& options) {
  if (options.threads < 0) throw InvalidArgument("threads", "must be ≥ 1");
  const bool ordered = static_cast<bool>(job.run_task_output);
  if (!job.run_task && !ordered && job.task_count > 0) throw std::logic_error("job has tasks but no run_task");
  if (ordered && options.claim)
    throw std::invalid_argument("engine::run: a job with ordered output (run_task_output) cannot be claimed across processes");
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
  std::unique_ptr<tbb::task_arena> arena_owner = adopt_warm_arena(threads);
  if (!arena_owner) arena_owner = std::make_unique<tbb::task_arena>(threads);
  tbb::task_arena& arena = *arena_owner;
  tbb::enumerable_thread_specific<Tally> partial(Tally{counters});
  std::vector<char> finished(options.record_tasks ? order.size() : 0, 0);
  std::atomic<bool> failed{false};
  std::atomic<bool> cancelled{false};
  std::atomic<std::size_t> done{0};
  std::atomic<std::size_t> abandoned{0};  // tasks given up with TaskAbandoned (not ordered output)
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
      try {
        const TaskScope scope(options.cancel);
        job.run_task(id, tally);
      } catch (const TaskAbandoned&) {
        // The run is being stopped: the task leaves no trace (task.hpp).
        abandoned.fetch_add(1, std::memory_order_relaxed);
        cancelled.store(true, std::memory_order_relaxed);
        return false;
      }
      const double secs = seconds_since(t0);
      if (tally.counts.size() > counters)
        throw std::logic_error("task " + std::to_string(id) + " added to counter " +
                               std::to_string(tally.counts.size() - 1) + " but the job names only " +
                               std::to_string(counters) + " counters");
      partial.local().merge(tally);
      if (options.record_tasks) {
        result.tasks[slot] = TaskRecord{id, tally, secs, slot};
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

  // Ordered output (runner.hpp): position p of `order` may start only while
  // p < delivered + window; finished tasks wait in ring[p % ring.size()]
  // until every lower position has been delivered. One thread at a time
  // (`delivering`) hands the texts over, outside the lock, and only then
  // counts the task (totals, record, on_task_done). A task abandoned at
  // position p (TaskAbandoned) leaves a hole: nothing from p on is
  // delivered or counted, as a later text cannot go out before p's.
  const std::size_t window =
      options.output_window ? options.output_window : 4 * static_cast<std::size_t>(threads);
  std::vector<Pending> ring(ordered ? std::max<std::size_t>(1, std::min(window, order.size())) : 0);
  std::mutex ring_mutex;
  std::condition_variable room;  // `delivered` advanced, or the run failed
  std::size_t next = 0, delivered = 0, held = 0, peak = 0;
  std::size_t hole = order.size();  // lowest abandoned position; order.size() = none
  bool delivering = false;

  const auto fail = [&](std::exception_ptr e) {
    {
      std::lock_guard lock(error_mutex);
      if (!error) error = std::move(e);
    }
    {
      std::lock_guard lock(ring_mutex);
      failed.store(true, std::memory_order_relaxed);
    }
    room.notify_all();
  };

  // Stores position p's result and, unless another thread is delivering,
  // delivers every consecutive ready position from `delivered` on.
  const auto deposit = [&](std::size_t p, Pending&& finished_task) {
    std::unique_lock lock(ring_mutex);
    Pending& slot = ring[p % ring.size()];
    slot = std::move(finished_task);
    slot.ready = true;
    peak = std::max(peak, ++held);
    if (delivering) return;  // that thread looks at this slot before it stops
    delivering = true;
    while (!failed.load(std::memory_order_relaxed) && delivered < hole) {
      Pending& head = ring[delivered % ring.size()];
      if (!head.ready) break;
      Pending out = std::move(head);
      head = Pending{};
      --held;
      const std::size_t position = delivered;
      lock.unlock();
      try {
        partial.local().merge(out.counts);
        if (options.record_tasks) {
          result.tasks[position] = TaskRecord{out.id, out.counts, out.seconds, position};
          finished[position] = 1;
        }
        done.fetch_add(1, std::memory_order_relaxed);
        if (options.on_output) options.on_output(out.id, out.text);
        if (options.on_task_done) options.on_task_done(out.id, out.counts, out.seconds);
      } catch (...) {
        lock.lock();
        delivering = false;
        lock.unlock();
        fail(std::current_exception());
        return;
      }
      lock.lock();
      ++delivered;
      room.notify_all();
    }
    delivering = false;
  };

  // One worker of a job with ordered output: takes positions in order.
  const auto ordered_worker = [&] {
    for (;;) {
      std::size_t p = 0;
      {
        std::unique_lock lock(ring_mutex);
        room.wait(lock, [&] {
          return failed.load(std::memory_order_relaxed) || next >= order.size() || hole < order.size() ||
                 next < delivered + window;
        });
        if (failed.load(std::memory_order_relaxed) || next >= order.size() || hole < order.size()) return;
        if (options.cancel && options.cancel->load(std::memory_order_relaxed)) {
          cancelled.store(true, std::memory_order_relaxed);
          return;
        }
        p = next++;
      }
      Pending r;
      r.id = order[p];
      try {
        r.counts = Tally(counters);
        const auto t0 = Clock::now();
        const TaskScope scope(options.cancel);
        job.run_task_output(r.id, r.counts, r.text);
        r.seconds = seconds_since(t0);
      } catch (const TaskAbandoned&) {
        {
          std::lock_guard lock(ring_mutex);
          hole = std::min(hole, p);
          cancelled.store(true, std::memory_order_relaxed);
        }
        room.notify_all();
        return;
      } catch (...) {
        fail(std::current_exception());
        return;
      }
      deposit(p, std::move(r));
    }
  };

  const auto start = Clock::now();
  arena.execute([&] {
    if (ordered) {
      tbb::parallel_for(
          tbb::blocked_range<int>(0, threads, 1),
          [&](const tbb::blocked_range<int>& workers) {
            for (int w = workers.begin(); w != workers.end(); ++w) ordered_worker();
          },
          tbb::simple_partitioner());
    } else {
      // One loop per worker, each claiming the next position of the
      // schedule until none is left: the largest estimates really start
      // first. (A parallel_for over the positions splits them in halves,
      // one per thread, so one thread ran the largest tasks one after
      // another: Mastermind's worst-case job idled 10 % on 2 threads.)
      // Across processes (MPI) `options.claim` hands out the positions.
      std::atomic<std::size_t> next_slot{0};
      const auto claim = [&]() -> std::size_t {
        return options.claim ? options.claim() : next_slot.fetch_add(1, std::memory_order_relaxed);
      };
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
                  slot = claim();
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
    }
  });
  result.wall_seconds = seconds_since(start);
  if (error) std::rethrow_exception(error);

  result.tasks_run = done.load();
  result.interrupted = cancelled.load();
  // Ordered output: every task started but not delivered was abandoned, or
  // finished after an abandoned one and was dropped with it.
  result.tasks_abandoned = ordered ? next - delivered : abandoned.load();
  result.output_peak = peak;
  if (ordered && delivered != result.tasks_run)
    throw InternalError("ordered output: " + std::to_string(result.tasks_run) + " tasks ran but " +
                        std::to_string(delivered) + " were delivered");
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
