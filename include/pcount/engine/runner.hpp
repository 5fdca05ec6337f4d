#pragma once
/// @file
/// Runs a Job's tasks on oneTBB workers and reduces the counts.
///
/// The schedule has two named policies, printed in the report
/// (RunResult::schedule):
/// - the order whole tasks are handed out in: `largest-first` (by
///   Job::estimate) or `id-order` (no estimate, or ordered output). Each
///   worker claims the next position from an atomic counter (or from
///   RunOptions::claim across MPI processes) and runs that task to its end;
/// - how a running task is split (RunOptions::split, engine/split.hpp): with
///   `steal` (the default) a kernel that opts in (Job::splits) gives parts
///   of its task away while some worker has nothing to claim, and idle
///   workers take them by oneTBB's work stealing (a task_group inside the
///   task; a thread waiting for its task's parts counts as idle and takes
///   parts too); `static` never splits. A task's counts are still
///   reduced inside the task and recorded once, when all its parts are done.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pcount/engine/hash.hpp"
#include "pcount/engine/split.hpp"
#include "pcount/engine/task.hpp"

namespace pcount::engine {

/// Ordered output (jobs with Job::run_task_output). Each included task's
/// text goes to RunOptions::on_output exactly once, in increasing id order,
/// from one thread at a time, as soon as every lower included id has been
/// delivered; ids left out by `include` (shards, resumed tasks) have no
/// output and are not waited for. So the delivered bytes are the same for
/// every thread count. Tasks start in id order (Job::estimate is not used)
/// and a task starts only while it is fewer than `output_window` (W)
/// included tasks past the lowest undelivered one; so at most W texts are
/// held at once, whatever the number of tasks. One slow task therefore
/// stalls the others after W - 1 tasks: give tasks of similar size and W a
/// few times the thread count (the default is 4 × threads).
///
/// With ordered output, `on_task_done` is called right after a task's text
/// was delivered (same thread, same order), not when the task finishes; so
/// a task a checkpoint records has always had its output delivered, and a
/// task counts (totals, RunResult::tasks, tasks_run) only once its text was
/// delivered. On cancel, no task starts; the running ones finish or are
/// abandoned (TaskAbandoned, task.hpp). When none is abandoned, the tasks
/// started being consecutive, every finished task's text is delivered
/// before run() returns. When the task at position p is abandoned, the
/// tasks before p are delivered and counted; the ones after p that finished
/// are dropped like abandoned ones (no text, no count, no on_task_done).
/// When a task, on_output or on_task_done throws, nothing more is
/// delivered and the first exception is rethrown. `claim` (MPI) cannot be
/// combined with ordered output: run() throws std::invalid_argument.

/// How to run a job.
struct RunOptions {
  /// Worker threads (≥ 1; may exceed the core count). 0 = all hardware threads.
  int threads = 0;
  /// When set, only tasks with include(id) == true run (shards, resumed
  /// checkpoints); the others count as skipped.
  std::function<bool(std::size_t id)> include;
  /// Called once per finished task, from the worker thread that ran it, with
  /// the task's counts (Job::counter_names.size() counters) and wall
  /// seconds. Calls may be concurrent.
  std::function<void(std::size_t id, const Tally& counts, double seconds)> on_task_done;
  /// Keep every task's counts and time in RunResult::tasks.
  bool record_tasks = false;
  /// Cancellation flag, checked before each task starts, and by kernels
  /// inside long tasks through stop_requested() / throw_if_stopped()
  /// (task.hpp). Once it reads true no new task starts; running tasks either
  /// finish (and count) or are abandoned with TaskAbandoned: an abandoned
  /// task counts nowhere (no totals, no on_task_done, not in tasks_run), so
  /// a checkpoint stays a list of whole tasks. The result has `interrupted`
  /// set. Null = never cancelled.
  const std::atomic<bool>* cancel = nullptr;
  /// Dynamic hand-out across processes (MPI): when set, every worker thread
  /// repeatedly calls claim(); it returns the next position in the schedule
  /// (0, 1, 2, ... over the included tasks, possibly skipping positions taken
  /// by other processes) or a value ≥ the number of included tasks when none
  /// is left. Must be thread-safe. Unset = all tasks run in this process.
  std::function<std::size_t()> claim;
  /// Jobs with Job::run_task_output: receives each included task's text, in
  /// id order (see "Ordered output" above). Never called concurrently. Unset
  /// = the texts are dropped (the tasks still run in order and count).
  std::function<void(std::size_t id, std::string_view text)> on_output;
  /// Jobs with Job::run_task_output: the reorder window W ≥ 1, in included
  /// tasks; 0 = 4 × threads. Larger W keeps threads busier past a slow task
  /// at the cost of holding more finished texts.
  std::size_t output_window = 0;
  /// How running tasks of a job that splits (Job::splits) are split:
  /// `idle` (lazy: only while a worker idles), `always` (tests) or `none`.
  SplitPolicy split = SplitPolicy::idle;
};

/// A point in a run's --output file as a checkpoint records it: a resume
/// refuses a file whose first `end` bytes do not hash to `digest`.
struct OutputMark {
  std::uint64_t end = 0;                 ///< byte offset just after a task's text
  std::uint64_t digest = kFnv1a64Basis;  ///< fnv1a64 of the file's bytes [0, end)
  std::uint64_t inode = 0;               ///< the file's inode when it was written (0: not known)
  friend bool operator==(const OutputMark&, const OutputMark&) = default;
};

/// One finished task (kept when RunOptions::record_tasks is set).
struct TaskRecord {
  /// position when the task did not run in this call (read from a
  /// checkpoint, shard or result file).
  static constexpr std::size_t kNotScheduled = static_cast<std::size_t>(-1);
  std::size_t id = 0;      ///< the task's id
  Tally counts;            ///< its counts: Job::counter_names.size() counters when from run or a file
  double seconds = 0.0;    ///< its wall time
  /// Its place in the run's hand-out order (0 = handed out first: largest
  /// estimate first, else id order; the same order on every MPI rank), or
  /// kNotScheduled. What `--profile` records so that a replay
  /// (scripts/simulate-scaling) schedules the tasks as the engine did.
  std::size_t position = kNotScheduled;
  /// For a listing written to --output with a checkpoint: where this task's
  /// text ends in that file, and what the file held up to there
  /// (engine/checkpoint.hpp).
  std::optional<OutputMark> output = std::nullopt;
};

/// What a run produced.
struct RunResult {
  Tally totals;                  ///< sum over the tasks that ran; Job::counter_names.size() counters
  std::size_t tasks_total = 0;   ///< Job::task_count
  std::size_t tasks_run = 0;     ///< tasks that ran (and finished) in this call
  std::size_t tasks_resumed = 0; ///< tasks whose counts came from a checkpoint or shard files (set by callers)
  bool interrupted = false;      ///< cancelled: totals cover only the finished tasks
  /// Tasks started in this call but given up because of the cancel flag
  /// (TaskAbandoned; with ordered output also finished ones after an
  /// abandoned one): they count nowhere and run again on resume.
  std::size_t tasks_abandoned = 0;
  int threads = 0;               ///< thread limit actually used
  double wall_seconds = 0.0;     ///< wall time of the parallel phase
  /// CPU time (user + system, seconds) of the process or processes that ran
  /// the job, set by callers (the driver: engine::process_usage, summed over
  /// MPI ranks; merge: summed over the shards); 0 = not known.
  double cpu_seconds = 0.0;
  /// The largest peak resident set (bytes) of those processes, set by
  /// callers like cpu_seconds; 0 = not known.
  std::uint64_t max_rss_bytes = 0;
  std::vector<TaskRecord> tasks; ///< by id, when record_tasks was set
  /// Jobs with ordered output: the most finished texts held at one time
  /// waiting for a lower id (≤ the window; for tests and diagnostics).
  std::size_t output_peak = 0;
  /// The schedule's two policies, e.g. "largest-first, steal" (schedule_name).
  std::string schedule;
  /// Parts of running tasks run by another thread than the giver's (Subtasks).
  std::uint64_t steals = 0;
  /// The most nodes of one task over all nodes of the run (0 when the
  /// kernels count no nodes): how far a static split is from balanced.
  double largest_task_share = 0.0;
};

/// The schedule run() uses for `job`: the hand-out order ("largest-first"
/// or "id-order") and the split policy ("steal", "split-always" or, for a
/// job that does not split, "static"), joined by ", ".
[[nodiscard]] std::string schedule_name(const Job& job, const RunOptions& options);

/// Number of hardware threads oneTBB sees (≥ 1).
[[nodiscard]] int hardware_threads();

/// Starts the pool workers of the next run now, while the caller still
/// prepares the job (reads input, plans tasks), so that the run begins at
/// full width: threads − 1 workers join an arena of `threads` slots and wait
/// there, yielding the CPU, until a run starts or 50 ms have passed (then
/// they go back to sleep as usual). The next run() uses that arena if it has
/// the same thread count (else it makes its own, as without this call).
/// Without this call, the workers woken by run() join only after its first
/// task has started (results/sudoku-puzzles.md measures the delay). Optional;
/// never changes what a run counts. Does nothing
/// for threads ≤ 0 or threads > hardware_threads() (more workers than cores
/// wait for the run's own limit). Throws only std::bad_alloc.
void start_workers(int threads);

/// Runs the job inside a task_arena of `options.threads` workers: each
/// worker claims the next position of the schedule (largest estimate first
/// when Job::estimate is set, else id order) until none is left, so the
/// tasks start in that order across all workers (greedy list scheduling);
/// then, while other tasks still run, it takes the parts they give away
/// (RunOptions::split); per-thread 128-bit tallies are reduced at the end. With `options.claim`,
/// positions are claimed through it instead (across processes). With
/// `options.cancel`, stops early (RunResult::interrupted).
/// Every task gets a zero Tally of Job::counter_names.size() counters. Jobs
/// with Job::run_task_output run in id order with ordered output (above).
/// Throws InvalidArgument("threads") for threads < 0, std::invalid_argument
/// for ordered output with `claim`, CountOverflow on overflow,
/// std::logic_error when a task adds to a counter past the job's last
/// counter name, and rethrows the first exception a task throws (except
/// TaskAbandoned, which only marks the run interrupted: RunOptions::cancel).
[[nodiscard]] RunResult run(const Job& job, const RunOptions& options = {});

}  // namespace pcount::engine
