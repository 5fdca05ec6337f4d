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

#include "engine/task_context.hpp"
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

/// The cancel flag and split state of the run whose task this thread is
/// running (see stop_requested in task.hpp, Subtasks in split.hpp); null
/// outside a task.
thread_local const std::atomic<bool>* t_cancel = nullptr;
thread_local detail::SplitState* t_split = nullptr;
/// SplitState::run_id of the run in which this thread idles; 0 = none.
thread_local std::uint64_t t_idle_run = 0;
/// Gives every run its SplitState::run_id.
std::atomic<std::uint64_t> next_run_id{1};

}  // namespace

namespace detail {

SplitState* current_split() noexcept { return t_split; }

TaskScope::TaskScope(const std::atomic<bool>* cancel, SplitState* split) noexcept
    : saved_cancel_(t_cancel), saved_split_(t_split) {
  if (cancel) t_cancel = cancel;
  t_split = split;
}

TaskScope::~TaskScope() {
  t_cancel = saved_cancel_;
  t_split = saved_split_;
}

void mark_idle(SplitState& state) noexcept {
  if (t_idle_run == state.run_id) return;
  t_idle_run = state.run_id;
  state.idle.fetch_add(1, std::memory_order_relaxed);
}

BusyScope::BusyScope(SplitState& state) noexcept : state_(state), was_idle_(t_idle_run == state.run_id) {
  if (!was_idle_) return;
  t_idle_run = 0;
  state_.idle.fetch_sub(1, std::memory_order_relaxed);
}

BusyScope::~BusyScope() {
  if (was_idle_) mark_idle(state_);
}

IdleScope::IdleScope(SplitState& state) noexcept : state_(state), marked_(t_idle_run != state.run_id) {
  if (marked_) mark_idle(state_);
}

IdleScope::~IdleScope() {
  if (!marked_ || t_idle_run != state_.run_id) return;
  t_idle_run = 0;
  state_.idle.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace detail

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

namespace {

/// What the unordered and the ordered runner share: the schedule, the
/// per-thread tallies, the task records, the cancel state and the first
/// error.
class RunState {
public:
  RunState(const Job& the_job, const RunOptions& the_options)
      : job(the_job),
        options(the_options),
        counters(the_job.counter_names.size()),
        order(schedule(the_job, the_options)),
        partial(Tally{counters}),
        records(the_options.record_tasks ? order.size() : 0),
        finished(the_options.record_tasks ? order.size() : 0, 0) {
    split.policy = the_job.splits ? the_options.split : SplitPolicy::none;
    split.run_id = next_run_id.fetch_add(1, std::memory_order_relaxed);
    split.cancel = the_options.cancel;
  }

  /// The split state tasks see, or null when they cannot split: the job
  /// does not, the policy is `none`, or `idle` with one thread (no worker
  /// can ever idle while a task runs).
  [[nodiscard]] detail::SplitState* splitting(int threads) {
    if (split.policy == SplitPolicy::none || (split.policy == SplitPolicy::idle && threads < 2)) return nullptr;
    return &split;
  }

  /// Whether the cancel flag is set; marks the run cancelled when it is.
  bool cancel_seen() {
    if (!options.cancel || !options.cancel->load(std::memory_order_relaxed)) return false;
    cancelled.store(true, std::memory_order_relaxed);
    return true;
  }
  /// Keeps the first error; no task starts after it.
  void fail(std::exception_ptr e) {
    std::lock_guard lock(error_mutex_);
    if (!error_) error_ = std::move(e);
    failed.store(true, std::memory_order_relaxed);
  }
  /// Runs `run` (a task's kernel) with the cancel flag in scope and returns
  /// its wall seconds.
  template <class F>
  double timed(F&& run) {
    const auto t0 = Clock::now();
    const detail::TaskScope scope(options.cancel, split_state);
    run();
    return seconds_since(t0);
  }
  /// Runs a worker's claim loop `work`, then counts the thread as idle
  /// (when splitting) until it takes a part or the run ends. A thread that
  /// waits for the parts of its task (Subtasks::join) runs whatever oneTBB
  /// hands it, parts of any task; when that is a claim loop not yet started
  /// (a worker that joined late), it returns at once: a task of this run
  /// must not wait there for the ordered window, which only its own end
  /// can open.
  template <class F>
  void claiming(F&& work) {
    if (!split_state) return work();
    if (detail::current_split() == split_state) return;  // inside a task of this run
    {
      const detail::BusyScope busy(*split_state);
      work();
    }
    detail::mark_idle(*split_state);
  }
  /// The slot helper: counts the finished task at schedule position `slot`
  /// (its tally into this thread's partial sum, its record, the done count),
  /// hands its text to on_output when it has one, then calls on_task_done.
  /// Throws std::logic_error when the task used a counter the job does not
  /// name, and what the callbacks throw.
  void count(std::size_t slot, std::size_t id, const Tally& tally, double seconds, const std::string* text) {
    if (tally.counts.size() > counters)
      throw std::logic_error("task " + std::to_string(id) + " added to counter " +
                             std::to_string(tally.counts.size() - 1) + " but the job names only " +
                             std::to_string(counters) + " counters");
    partial.local().merge(tally);
    const double nodes = static_cast<double>(tally.nodes);
    for (double seen = largest.load(std::memory_order_relaxed); nodes > seen;)
      if (largest.compare_exchange_weak(seen, nodes, std::memory_order_relaxed)) break;
    if (options.record_tasks) {
      records[slot] = TaskRecord{id, tally, seconds, slot};
      finished[slot] = 1;
    }
    done.fetch_add(1, std::memory_order_relaxed);
    if (text && options.on_output) options.on_output(id, *text);
    if (options.on_task_done) options.on_task_done(id, tally, seconds);
  }
  /// Fills `result` once the workers are done: totals, counts, the records
  /// by id. Rethrows the first error.
  void finish(RunResult& result) {
    if (error_) std::rethrow_exception(error_);
    result.tasks_run = done.load();
    result.interrupted = cancelled.load();
    result.tasks_abandoned = abandoned.load();
    for (const Tally& t : partial) result.totals.merge(t);
    result.steals = split.steals.load();
    const double nodes = static_cast<double>(result.totals.nodes);
    result.largest_task_share = nodes > 0 ? largest.load() / nodes : 0.0;
    if (!options.record_tasks) return;
    result.tasks.reserve(result.tasks_run);
    for (std::size_t slot = 0; slot < order.size(); ++slot)
      if (finished[slot]) result.tasks.push_back(std::move(records[slot]));
    std::sort(result.tasks.begin(), result.tasks.end(),
              [](const TaskRecord& a, const TaskRecord& b) { return a.id < b.id; });
  }

  const Job& job;
  const RunOptions& options;
  const std::size_t counters;
  const std::vector<std::size_t> order;  ///< task ids in hand-out order
  tbb::enumerable_thread_specific<Tally> partial;
  std::vector<TaskRecord> records;  ///< by schedule position, with record_tasks
  std::vector<char> finished;       ///< records[slot] is set
  std::atomic<bool> failed{false};
  std::atomic<bool> cancelled{false};
  std::atomic<std::size_t> done{0};
  std::atomic<std::size_t> abandoned{0};  ///< tasks given up with TaskAbandoned
  std::atomic<double> largest{0.0};       ///< the most nodes of one task
  detail::SplitState split;
  detail::SplitState* split_state = nullptr;  ///< &split while tasks may split

private:
  std::exception_ptr error_;
  std::mutex error_mutex_;
};

/// Runs `worker` once on each of `threads` threads of `arena`.
template <class F>
void on_each_thread(tbb::task_arena& arena, int threads, const F& worker) {
  arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<int>(0, threads, 1),
        [&](const tbb::blocked_range<int>& workers) {
          for (int w = workers.begin(); w != workers.end(); ++w) worker();
        },
        tbb::simple_partitioner());
  });
}

/// The unordered runner: each worker claims the next position of the
/// schedule until none is left, so the largest estimates really start
/// first. (A parallel_for over the positions splits them in halves, one per
/// thread, so one thread ran the largest tasks one after another:
/// Mastermind's worst-case job idled 10 % on 2 threads.) Across processes
/// (MPI) `options.claim` hands out the positions.
class UnorderedRunner {
public:
  explicit UnorderedRunner(RunState& st) : st_(st) {}

  void run(tbb::task_arena& arena, int threads) {
    on_each_thread(arena, threads, [this] { st_.claiming([this] { work(); }); });
  }

private:
  void work() {
    while (!st_.failed.load(std::memory_order_relaxed) && !st_.cancel_seen()) {
      std::size_t slot = 0;
      try {
        slot = st_.options.claim ? st_.options.claim() : next_.fetch_add(1, std::memory_order_relaxed);
      } catch (...) {
        st_.fail(std::current_exception());
        return;
      }
      if (slot >= st_.order.size() || !run_slot(slot)) return;
    }
  }

  /// Runs the task at position `slot`; false = stop taking tasks.
  bool run_slot(std::size_t slot) {
    const std::size_t id = st_.order[slot];
    try {
      Tally tally(st_.counters);  // sized once: the kernel's adds do not allocate
      double seconds = 0;
      try {
        seconds = st_.timed([&] { st_.job.run_task(id, tally); });
      } catch (const TaskAbandoned&) {
        // The run is being stopped: the task leaves no trace (task.hpp).
        st_.abandoned.fetch_add(1, std::memory_order_relaxed);
        st_.cancelled.store(true, std::memory_order_relaxed);
        return false;
      }
      st_.count(slot, id, tally, seconds, nullptr);
    } catch (...) {
      st_.fail(std::current_exception());
      return false;
    }
    return true;
  }

  RunState& st_;
  std::atomic<std::size_t> next_{0};
};

/// A finished task of a job with ordered output, waiting until every lower
/// included id has been delivered.
struct Pending {
  bool ready = false;
  std::size_t id = 0;
  Tally counts;
  double seconds = 0.0;
  std::string text;
};

/// The ordered runner (runner.hpp, "Ordered output"): position p of the
/// schedule may start only while p < delivered + window; finished tasks
/// wait in ring[p % ring.size()] until every lower position has been
/// delivered. One thread at a time (`delivering_`) hands the texts over,
/// outside the lock, and only then counts the task (RunState::count). A
/// task abandoned at position p (TaskAbandoned) leaves a hole: nothing from
/// p on is delivered or counted, as a later text cannot go out before p's.
class OrderedRunner {
public:
  OrderedRunner(RunState& st, std::size_t window)
      : st_(st),
        window_(window),
        ring_(std::max<std::size_t>(1, std::min(window, st.order.size()))),
        hole_(st.order.size()) {}

  void run(tbb::task_arena& arena, int threads) {
    on_each_thread(arena, threads, [this] { st_.claiming([this] { work(); }); });
  }
  /// Tasks started but not delivered: abandoned, or finished after an abandoned one.
  [[nodiscard]] std::size_t undelivered() const { return next_ - delivered_; }
  [[nodiscard]] std::size_t delivered() const { return delivered_; }
  /// The most finished texts held at one time.
  [[nodiscard]] std::size_t peak() const { return peak_; }

private:
  void fail(std::exception_ptr e) {
    {
      std::lock_guard lock(mutex_);
      st_.fail(std::move(e));
    }
    room_.notify_all();
  }

  /// One worker: takes positions in order while the window allows.
  void work() {
    for (;;) {
      std::size_t p = 0;
      {
        std::unique_lock lock(mutex_);
        const std::size_t n = st_.order.size();
        room_.wait(lock, [&] {
          return st_.failed.load(std::memory_order_relaxed) || next_ >= n || hole_ < n || next_ < delivered_ + window_;
        });
        if (st_.failed.load(std::memory_order_relaxed) || next_ >= n || hole_ < n || st_.cancel_seen()) return;
        p = next_++;
      }
      Pending r;
      r.id = st_.order[p];
      try {
        r.counts = Tally(st_.counters);
        r.seconds = st_.timed([&] { st_.job.run_task_output(r.id, r.counts, r.text); });
      } catch (const TaskAbandoned&) {
        {
          std::lock_guard lock(mutex_);
          hole_ = std::min(hole_, p);
          st_.cancelled.store(true, std::memory_order_relaxed);
        }
        room_.notify_all();
        return;
      } catch (...) {
        fail(std::current_exception());
        return;
      }
      deposit(p, std::move(r));
    }
  }

  /// Stores position p's result and, unless another thread is delivering,
  /// delivers every consecutive ready position from `delivered_` on.
  void deposit(std::size_t p, Pending&& finished_task) {
    std::unique_lock lock(mutex_);
    Pending& slot = ring_[p % ring_.size()];
    slot = std::move(finished_task);
    slot.ready = true;
    peak_ = std::max(peak_, ++held_);
    if (delivering_) return;  // that thread looks at this slot before it stops
    delivering_ = true;
    while (!st_.failed.load(std::memory_order_relaxed) && delivered_ < hole_) {
      Pending& head = ring_[delivered_ % ring_.size()];
      if (!head.ready) break;
      Pending out = std::move(head);
      head = Pending{};
      --held_;
      const std::size_t position = delivered_;
      lock.unlock();
      try {
        st_.count(position, out.id, out.counts, out.seconds, &out.text);
      } catch (...) {
        lock.lock();
        delivering_ = false;
        lock.unlock();
        fail(std::current_exception());
        return;
      }
      lock.lock();
      ++delivered_;
      room_.notify_all();
    }
    delivering_ = false;
  }

  RunState& st_;
  const std::size_t window_;
  std::vector<Pending> ring_;
  std::mutex mutex_;
  std::condition_variable room_;  ///< delivered_ advanced, or the run failed
  std::size_t next_ = 0, delivered_ = 0, held_ = 0, peak_ = 0;
  std::size_t hole_;  ///< lowest abandoned position; order.size() = none
  bool delivering_ = false;
};

}  // namespace

std::string schedule_name(const Job& job, const RunOptions& options) {
  const bool largest_first = job.estimate && !job.run_task_output;
  const SplitPolicy split = job.splits ? options.split : SplitPolicy::none;
  static constexpr const char* kSplit[] = {"static", "steal", "split-always"};
  return std::string(largest_first ? "largest-first" : "id-order") + ", " + kSplit[static_cast<int>(split)];
}

RunResult run(const Job& job, const RunOptions& options) {
  if (options.threads < 0) throw InvalidArgument("threads", "must be ≥ 1");
  const bool ordered = static_cast<bool>(job.run_task_output);
  if (!job.run_task && !ordered && job.task_count > 0) throw std::logic_error("job has tasks but no run_task");
  if (ordered && options.claim)
    throw std::invalid_argument(
        "engine::run: a job with ordered output (run_task_output) cannot be claimed across processes");
  const int threads = options.threads == 0 ? hardware_threads() : options.threads;

  RunResult result;
  result.totals = Tally(job.counter_names.size());
  result.tasks_total = job.task_count;
  result.threads = threads;
  RunState st(job, options);
  st.split_state = st.splitting(threads);
  result.schedule = schedule_name(job, options);

  // Allow more workers than cores when asked for; the arena sets the limit.
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  std::unique_ptr<tbb::task_arena> arena = adopt_warm_arena(threads);
  if (!arena) arena = std::make_unique<tbb::task_arena>(threads);
  const auto start = Clock::now();
  if (!ordered) {
    UnorderedRunner(st).run(*arena, threads);
    result.wall_seconds = seconds_since(start);
    st.finish(result);
    return result;
  }
  const std::size_t window = options.output_window ? options.output_window : 4 * static_cast<std::size_t>(threads);
  OrderedRunner runner(st, window);
  runner.run(*arena, threads);
  result.wall_seconds = seconds_since(start);
  st.finish(result);
  result.tasks_abandoned = runner.undelivered();
  result.output_peak = runner.peak();
  if (runner.delivered() != result.tasks_run)
    throw InternalError("ordered output: " + std::to_string(result.tasks_run) + " tasks ran but " +
                        std::to_string(runner.delivered()) + " were delivered");
  return result;
}

}  // namespace pcount::engine
