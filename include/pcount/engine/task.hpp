#pragma once
/// @file
/// The engine's unit of work: an indexed list of independent tasks.
///
/// A problem turns its search into `Job::task_count` independent tasks with
/// stable ids 0..T-1 (positions in a deterministic list: the same on every
/// run and machine for the same problem, parameters and split). Running task
/// `id` fills a Tally; the engine sums the tallies of all tasks.

#include <array>
#include <cstddef>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "pcount/engine/u128.hpp"

namespace pcount::engine {

/// Most counters one job can report (e.g. queens: all, 180°, 90°).
inline constexpr std::size_t kMaxCounters = 8;

/// The counts one task (or the whole job) produced. Counter i has the name
/// `Job::counter_names[i]`; unused counters stay 0. `nodes` is the number of
/// search nodes visited, or 0 when the kernel does not count them.
struct Tally {
  std::array<u128, kMaxCounters> counts{};
  u128 nodes = 0;

  /// counts[i] += v, overflow-checked (throws CountOverflow).
  void add(std::size_t i, u128 v) { counts[i] = checked_add(counts[i], v); }
  /// Adds every counter and the node count of `other` (throws CountOverflow).
  void merge(const Tally& other) {
    for (std::size_t i = 0; i < kMaxCounters; ++i) counts[i] = checked_add(counts[i], other.counts[i]);
    nodes = checked_add(nodes, other.nodes);
  }
  friend bool operator==(const Tally&, const Tally&) = default;
};

/// A job: what the engine runs. Built by a problem's decomposition; the
/// engine knows nothing else about the problem.
struct Job {
  /// Identifies the job exactly: program version, problem, parameters,
  /// method and split. Checkpoints, shards and MPI ranks refuse to mix jobs
  /// whose fingerprints differ.
  std::string fingerprint;
  /// Names of the counters the tasks fill, in order (size ≤ kMaxCounters).
  std::vector<std::string> counter_names;
  /// Number of tasks; ids are 0..task_count-1.
  std::size_t task_count = 0;
  /// Runs task `id` sequentially and adds its counts to `out` (which starts
  /// zeroed). Called concurrently for different ids: must be thread-safe.
  /// May throw; the engine stops the run and rethrows.
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
  /// Optional estimate of a task's cost (any unit); when set, the runner
  /// starts the most expensive tasks first (not for jobs with
  /// run_task_output, whose tasks start in id order). Must not change ids.
  std::function<double(std::size_t id)> estimate;
  /// The split depth used to build the task list, or -1 when the tasks are
  /// not a depth split (symmetry classes, graph classes, ...).
  int split_depth = -1;
  /// Optional: one random probe of task `id` — an unbiased estimate of the
  /// search nodes it would visit (Knuth 1975; see engine/estimate.hpp),
  /// cheap (one root-to-leaf path). Used to warn about, and refuse, runs
  /// that could not finish; must be thread-safe like run_task.
  std::function<double(std::size_t id, std::mt19937_64& rng)> probe;
};

}  // namespace pcount::engine
