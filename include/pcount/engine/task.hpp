#pragma once
/// @file
/// The engine's unit of work: an indexed list of independent tasks.
///
/// A problem turns its search into `Job::task_count` independent tasks with
/// stable ids 0..T-1 (positions in a deterministic list: the same on every
/// run and machine for the same problem, parameters and split). Running task
/// `id` fills a Tally; the engine sums the tallies of all tasks.

#include <algorithm>
#include <cstddef>
#include <exception>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "pcount/errors.hpp"
#include "pcount/u128.hpp"

namespace pcount::engine {

/// The counts one task (or the whole job) produced, each a 128-bit integer.
/// Counter i has the name `Job::counter_names[i]`; a job may have any number
/// of counters.
///
/// Shape: `counts` holds counters 0..counts.size()-1, and every counter past
/// its end is 0. `add` and `merge` grow it as needed, so a default-built
/// Tally is a valid all-zero tally. The engine hands each task a tally
/// already sized to the job's counter count (Tally(job.counter_names.size())),
/// so a kernel may read `counts[i]` for every named counter and its `add`s
/// never allocate; RunResult::totals and the tallies read back from
/// checkpoint and shard files have that size too. Equality ignores trailing
/// zero counters (a tally of size 2 with counts {5, 0} equals one of size 1
/// with {5}). `nodes` is the number of search nodes visited, or 0 when the
/// kernel does not count them.
struct Tally {
  std::vector<u128> counts;
  u128 nodes = 0;

  Tally() = default;
  /// A zero tally of `counters` counters.
  explicit Tally(std::size_t counters) : counts(counters) {}

  /// Counter i; 0 when i is past the end of `counts`.
  [[nodiscard]] u128 get(std::size_t i) const { return i < counts.size() ? counts[i] : 0; }
  /// counts[i] += v, overflow-checked (throws CountOverflow); grows `counts`
  /// to i + 1 counters first when it is shorter.
  void add(std::size_t i, u128 v) {
    if (i >= counts.size()) [[unlikely]]
      counts.resize(i + 1);
    counts[i] = checked_add(counts[i], v);
  }
  /// Adds every counter and the node count of `other` (throws CountOverflow);
  /// `counts` grows to other's size when that is larger.
  void merge(const Tally& other) {
    if (other.counts.size() > counts.size()) counts.resize(other.counts.size());
    for (std::size_t i = 0; i < other.counts.size(); ++i) counts[i] = checked_add(counts[i], other.counts[i]);
    nodes = checked_add(nodes, other.nodes);
  }
  /// Index past the last non-zero counter (0 when every counter is 0).
  [[nodiscard]] std::size_t used() const {
    std::size_t n = counts.size();
    while (n > 0 && counts[n - 1] == 0) --n;
    return n;
  }
  /// Same nodes and the same value in every counter (trailing zeros ignored).
  friend bool operator==(const Tally& a, const Tally& b) {
    if (a.nodes != b.nodes) return false;
    const std::size_t n = std::max(a.counts.size(), b.counts.size());
    for (std::size_t i = 0; i < n; ++i)
      if (a.get(i) != b.get(i)) return false;
    return true;
  }
};

/// A job: what the engine runs. Built by a problem's decomposition; the
/// engine knows nothing else about the problem.
struct Job {
  /// Identifies the job exactly: program version, problem, parameters,
  /// method and split. Checkpoints, shards and MPI ranks refuse to mix jobs
  /// whose fingerprints differ.
  std::string fingerprint;
  /// Names of the counters the tasks fill, in order; any number. A task
  /// that adds to a counter past the last name is a bug: engine::run throws
  /// std::logic_error.
  std::vector<std::string> counter_names;
  /// Number of tasks; ids are 0..task_count-1.
  std::size_t task_count = 0;
  /// Runs task `id` sequentially and adds its counts to `out` (which starts
  /// zeroed, with counter_names.size() counters). Called concurrently for
  /// different ids: must be thread-safe.
  /// May throw; the engine stops the run and rethrows (except
  /// TaskAbandoned: a task given up because the run is being stopped, see
  /// stop_requested() below; it leaves no trace).
  std::function<void(std::size_t id, Tally& out)> run_task;
  /// Optional, for jobs whose tasks also print: used instead of run_task
  /// when set (run_task may then be empty). Runs task `id` like run_task and
  /// appends the task's output to `text` (which starts empty; any bytes, any
  /// length, possibly none). The runner hands each task's text to
  /// RunOptions::on_output in increasing id order, whatever the thread count
  /// and timing, holding at most a window of finished texts meanwhile
  /// (engine/runner.hpp, "Ordered output"). The text must depend on `id` (and
  /// the job) only, so the bytes delivered are the same on every run. Called
  /// concurrently for different ids; may throw like run_task.
  std::function<void(std::size_t id, Tally& out, std::string& text)> run_task_output;
  /// For a job whose tasks print one object per line (a --list job): the
  /// counter that each task raises by exactly the number of lines it
  /// prints. `count merge` checks every task's kept text against it, so a
  /// line added to, dropped from or joined in a shard file is refused.
  /// Unset for jobs whose text is not one line per counted object.
  std::optional<std::size_t> listed_counter;
  /// Optional estimate of a task's cost (any unit); when set, the runner
  /// starts the most expensive tasks first (not for jobs with
  /// run_task_output, whose tasks start in id order). Must not change ids.
  std::function<double(std::size_t id)> estimate;
  /// Whether the tasks split themselves while they run (their kernels use
  /// Subtasks, engine/split.hpp); the runner then lets idle workers take the
  /// parts (RunOptions::split).
  bool splits = false;
  /// The split depth used to build the task list, or -1 when the tasks are
  /// not a depth split (symmetry classes, graph classes, ...).
  int split_depth = -1;
  /// Optional: one random probe of task `id` — an unbiased estimate of the
  /// search nodes it would visit (Knuth 1975; see engine/estimate.hpp),
  /// cheap (one root-to-leaf path). Used to warn about, and refuse, runs
  /// that could not finish; must be thread-safe like run_task.
  std::function<double(std::size_t id, std::mt19937_64& rng)> probe;
  /// Optional, for jobs whose tasks are too long to run in full while
  /// estimating and whose cost lies in their leaves: walks one random
  /// root-to-leaf path of task `id` (each child chosen uniformly), does the
  /// work of the leaf it reaches as the run would, and returns the path's
  /// weight — the product of the numbers of children met, 0 at a dead end.
  /// The caller times the call (thread CPU time), so weight × that time is
  /// an unbiased estimate of the task's CPU seconds (Knuth 1975, with the
  /// leaf's cost as the quantity summed; the descent is counted once per
  /// leaf, so it must be cheap next to the leaf's work). When set,
  /// estimate_run (engine/estimate.hpp) times these probes instead of
  /// running tasks in full. Must be thread-safe like run_task.
  std::function<double(std::size_t id, std::mt19937_64& rng)> leaf_probe;
};

/// Cancellation inside a task (a run being stopped: SIGINT, SIGTERM, the
/// stop file). While the engine runs a task on a thread, that thread knows
/// the run's cancel flag (RunOptions::cancel). A kernel whose task can be
/// long (more than about a second) asks, every 10⁵–10⁷ nodes or so, whether
/// the run is being stopped, and if so gives the task up by throwing
/// TaskAbandoned (throw_if_stopped() does both; StopPoll spaces the checks).
/// The engine then treats the task as never run: its tally is dropped, it
/// is not passed to on_task_done (so a checkpoint never records it), it has
/// no ordered output, and the run ends with RunResult::interrupted set and
/// no error. A resumed run therefore runs it again from its start. Kernels
/// must hold nothing that outlives the task when they throw (use RAII), and
/// must not catch TaskAbandoned (or `...`) without rethrowing it.

/// Thrown by a kernel to abandon its task because the run is being stopped.
/// Not an error: the engine catches it (see above) and never rethrows it.
struct TaskAbandoned : std::exception {
  [[nodiscard]] const char* what() const noexcept override { return "task abandoned: the run is being stopped"; }
};

/// True when the current thread is running a task of an engine::run whose
/// cancel flag is set. False outside a task, or when the run has no cancel
/// flag. Cheap (a thread-local load and an atomic relaxed load), but an
/// out-of-line call: keep it out of a kernel's innermost loop.
[[nodiscard]] bool stop_requested() noexcept;

/// Throws TaskAbandoned when stop_requested().
void throw_if_stopped();

/// A countdown that calls throw_if_stopped() once every `Every` ticks: a
/// kernel keeps one per task (e.g. as a member of its search state) and
/// calls tick() once per node, or per unit of work, where that is cheap
/// relative to the node (a decrement and a rarely taken branch). Kernels
/// whose nodes are very cheap check at a fixed shallow depth instead.
template <unsigned Every = (1u << 16)>
class StopPoll {
 public:
  void tick() {
    if (--left_ == 0) [[unlikely]] {
      left_ = Every;
      throw_if_stopped();
    }
  }

 private:
  unsigned left_ = Every;
};

/// How the counter names `found` (read from `where`, e.g. "the file")
/// differ from a job's `expected`, in one line without a trailing period,
/// or "" when they are equal: the two numbers, then the first position
/// where the names differ, e.g. "10 counters, the job has 11; first
/// difference at counter 10: none in the file, 'terminal_full' in the job".
/// Names from the file are made printable (control characters escaped, cut
/// at 40 bytes).
[[nodiscard]] inline std::string counter_difference(const std::vector<std::string>& found,
                                                    const std::vector<std::string>& expected,
                                                    const std::string& where) {
  if (found == expected) return "";
  std::size_t i = 0;
  while (i < found.size() && i < expected.size() && found[i] == expected[i]) ++i;
  const auto name = [](const std::vector<std::string>& names, std::size_t k) {
    return k < names.size() ? "'" + printable(names[k], 40) + "'" : std::string("none");
  };
  const std::string numbers =
      found.size() == expected.size()
          ? std::to_string(found.size()) + " counters like the job, but other names"
          : std::to_string(found.size()) + " counters, the job has " + std::to_string(expected.size());
  return numbers + "; first difference at counter " + std::to_string(i) + ": " + name(found, i) + " in " + where +
         ", " + name(expected, i) + " in the job";
}

}  // namespace pcount::engine
