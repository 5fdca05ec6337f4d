#pragma once
/// @file
/// How big is a job before it runs? Knuth's random-probe estimator
/// (D. E. Knuth, "Estimating the efficiency of backtrack programs",
/// Mathematics of Computation 29 (1975) 121–136).
///
/// One probe walks a single random path from a node down to a leaf, choosing
/// each child uniformly, and returns 1 + d₁ + d₁d₂ + d₁d₂d₃ + …, where dᵢ is
/// the number of children met at level i. Its expected value is exactly the
/// number of nodes of the subtree; its variance can be large for unbalanced
/// trees, so an estimate is an order of magnitude with an error bar, not a
/// prediction to the percent.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>

#include "pcount/engine/task.hpp"

namespace pcount::engine {

/// The per-tree probe is knuth_probe() in engine/tree.hpp; make_tree_job
/// sets Job::probe with it.

/// A job's estimated size in search nodes.
struct SizeEstimate {
  double nodes = 0.0;           ///< estimated search nodes of the whole job
  double relative_error = 0.0;  ///< standard error of `nodes` divided by `nodes` (0 when nodes = 0)
  std::size_t probes = 0;       ///< probes taken
};

/// Estimates the search nodes of `job` from `Job::probe`: each probe picks a
/// task uniformly at random and probes it, so that task_count × the mean
/// is an unbiased estimate of the total. Stops after `probes` probes or once
/// `budget` has passed (at least 16 probes are taken). Deterministic for a
/// given `seed`, probes and budget not reached. Throws std::logic_error when
/// the job has no probe or no tasks.
[[nodiscard]] SizeEstimate estimate_job_nodes(const Job& job, std::size_t probes = 4000, std::uint64_t seed = 1975,
                                              std::chrono::duration<double> budget = std::chrono::milliseconds(500));

/// How estimate_run samples a job and which run it predicts.
struct RunEstimateOptions {
  /// Worker threads of the predicted run, per process (≥ 1). The sample runs
  /// on min(threads, hardware_threads()) workers, so each task is timed under
  /// the load the run would put on this machine; the prediction assumes
  /// min(threads, hardware_threads()) busy cores per process.
  int threads = 1;
  /// Processes of the predicted run that share the tasks dynamically (MPI
  /// ranks); its workers are effective threads × processes.
  std::size_t processes = 1;
  /// The tasks of the predicted run (a shard, a resumed checkpoint); null =
  /// every task.
  std::function<bool(std::size_t id)> include;
  /// Wall seconds the whole estimate may take, about: Knuth probes, the
  /// tasks' own estimates and the sample of tasks run in full (a task
  /// already running when the budget is spent finishes, unless it passes
  /// three budgets: then it is abandoned and its stratum extrapolated).
  double budget_seconds = 3.0;
  /// Strata of the sample: the tasks, sorted by their own estimate, are cut
  /// into this many groups of about equal estimated work (fewer when there
  /// are fewer tasks).
  std::size_t strata = 8;
  std::uint64_t seed = 1975;  ///< chooses the tasks sampled and the probes
  /// Width of the interval in standard errors (1.96: about 95 % for a
  /// normal estimator; the estimator is only roughly normal for few samples).
  double z = 1.96;
  /// Relative error added for timing noise between the sample and the run
  /// (other processes, frequency scaling), combined in quadrature.
  double noise = 0.05;
  /// The same for CPU time (thread CPU clocks: other processes change it
  /// less than wall time, but on a loaded machine caches and clocks still
  /// make repeated runs differ).
  double cpu_noise = 0.05;
  /// Stops the sample early (SIGINT); what was timed is still used.
  const std::atomic<bool>* cancel = nullptr;
};

/// A run's predicted cost (estimate_run). Times are seconds.
struct RunEstimate {
  std::size_t tasks = 0;         ///< tasks of the predicted run (included)
  std::size_t sampled = 0;       ///< of which run in full by the sample
  std::size_t strata = 0;        ///< strata used
  std::size_t extrapolated = 0;  ///< tasks in strata with no task sampled (too big for the budget)
  bool task_estimates = false;   ///< stratified by Job::estimate (else by probes, else one stratum)
  double sample_seconds = 0.0;   ///< wall seconds the estimate took
  double sampled_task_seconds = 0.0;  ///< task seconds of the sampled tasks
  /// Predicted CPU seconds of the run's tasks (each sampled task's thread
  /// CPU time, CLOCK_THREAD_CPUTIME_ID: barely changed by other load).
  double cpu_seconds = 0.0;
  double cpu_seconds_low = 0.0;  ///< interval of cpu_seconds (z standard errors, 5 % noise included)
  double cpu_seconds_high = 0.0;
  double relative_error = 0.0;   ///< standard error of cpu_seconds / cpu_seconds (noise included)
  /// Predicted task seconds: the tasks' wall seconds summed (what a
  /// --profile of the run adds up to; more than cpu_seconds on a busy machine).
  double task_seconds = 0.0;
  double task_seconds_low = 0.0;   ///< interval of task_seconds (z standard errors, `noise` included)
  double task_seconds_high = 0.0;
  double wall_relative_error = 0.0;  ///< standard error of task_seconds / task_seconds
  double largest_task_seconds = 0.0;  ///< the largest task's predicted wall seconds (measured when sampled)
  int workers = 1;               ///< effective workers of the predicted run
  double wall_seconds_low = 0.0;   ///< task phase: max(task_low / workers, largest task)
  double wall_seconds_high = 0.0;  ///< task phase: task_high / workers + largest task (list-scheduling bound)
  /// Search nodes of the run's tasks, from the sample (ratio estimate; 0
  /// when the kernel does not count nodes).
  double nodes = 0.0;
  /// Knuth's probe estimate of the whole job's nodes (probes = 0 when the
  /// job has no probe).
  SizeEstimate knuth;
};

/// Predicts the cost of running `job` (its included tasks) from a sample of
/// tasks run in full, before a long run. Each sampled task's wall seconds
/// and thread CPU seconds are both measured and estimated alike.
///
/// Method: each task gets an auxiliary size — Job::estimate, else the mean
/// of a few Knuth probes (Job::probe), else 1. The tasks, sorted by it, are
/// cut into strata of about equal total size; tasks are drawn at random from
/// every stratum in turn (smallest first, skipping a stratum whose next task
/// is predicted to overrun the budget) and run in full on the engine, timed
/// one by one. Each stratum's total is the separate ratio estimator (measured
/// seconds / auxiliary size of its sample × the stratum's auxiliary size),
/// with its finite-population variance (W. G. Cochran, Sampling Techniques,
/// 3rd ed., 1977, §6.10); a stratum with one sample borrows the pooled
/// relative spread, an unsampled stratum is extrapolated at the overall rate
/// with at least 50 % error. The wall interval is the list-scheduling bound
/// (R. L. Graham 1969): max(C/W, t_max) ≤ wall ≤ C/W + t_max for W workers.
/// When every task was sampled the numbers are measurements (noise only).
/// Counts of the sampled tasks are discarded. Throws what a task throws;
/// std::logic_error when the job has no run_task and no run_task_output.
[[nodiscard]] RunEstimate estimate_run(const Job& job, const RunEstimateOptions& options = {});

}  // namespace pcount::engine
