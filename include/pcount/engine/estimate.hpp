#pragma once
/// @file
/// How big is a job before it runs? Knuth's random-probe estimator
/// (D. E. Knuth, "Estimating the efficiency of backtrack programs",
/// Mathematics of Computation 29 (1975) 121–136) for the tree size, and
/// estimate_run: the run's CPU and wall seconds from a stratified sample of
/// tasks run in full, with a bootstrap interval (stratified_total).
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
#include <stdexcept>
#include <string>
#include <vector>

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

/// A job's CPU seconds estimated by timed leaf probes (estimate_job_cpu).
struct CpuEstimate {
  double seconds = 0.0;         ///< estimated CPU seconds of all the job's tasks
  double relative_error = 0.0;  ///< standard error of `seconds` divided by `seconds` (0 when seconds = 0)
  std::size_t probes = 0;       ///< probes taken
};

/// Estimates the CPU seconds of every task of `job` from Job::leaf_probe:
/// each probe picks a task uniformly at random, runs the probe on this
/// thread and takes task_count × weight × the probe's thread CPU time
/// (Knuth 1975 with the leaves' measured cost). Stops after `probes`
/// probes or once `budget` has passed (at least 16 are taken). Where the
/// run memoises across leaves or tasks and the probe does not, this is an
/// upper bound. Throws std::logic_error when the job has no leaf_probe or
/// no tasks, and what a probe throws.
[[nodiscard]] CpuEstimate estimate_job_cpu(const Job& job, std::size_t probes = 4096, std::uint64_t seed = 1975,
                                           std::chrono::duration<double> budget = std::chrono::seconds(2));

/// CPU seconds the calling thread has used since it started (POSIX
/// CLOCK_THREAD_CPUTIME_ID; nanosecond resolution on Linux). Differences
/// time a piece of work on one thread, barely changed by other processes.
[[nodiscard]] double thread_cpu_seconds();

/// The p-quantile of the standard normal distribution, p in (0, 1)
/// (normal_quantile(0.975) ≈ 1.96); throws std::invalid_argument otherwise.
[[nodiscard]] double normal_quantile(double p);

/// One stratum of a sample of tasks (stratified_total): the tasks of the
/// stratum and the sampled ones, each with its auxiliary size (an estimate
/// of its cost in any unit) and its measured value (seconds, nodes).
struct StratumSample {
  std::size_t size = 0;       ///< tasks in the stratum (≥ 1)
  double aux_total = 0.0;     ///< auxiliary sizes of all its tasks summed (> 0)
  std::vector<double> aux;    ///< auxiliary size of each sampled task (> 0)
  std::vector<double> value;  ///< measured value of each sampled task (≥ 0); as long as `aux`
};

/// How stratified_total draws its interval.
struct TotalOptions {
  /// Coverage of the interval, in (0, 1): 0.95 puts 2.5 % of the
  /// bootstrap replicates beyond each end.
  double level = 0.95;
  /// Run-to-run speed variation: the σ of a lognormal factor, one for the
  /// whole total, by which the run's value may differ from the sample's
  /// (the machine's speed changing between them, for every task alike);
  /// 0 for a quantity that does not depend on it (nodes). ≥ 0.
  double noise = 0.07;
  std::uint64_t seed = 1975;  ///< the random draws of the interval: same seed, same interval
  /// Bootstrap replicates (≥ 2); 0: the point estimate only (low = high =
  /// value, standard_error 0). 2000 take about 70 ms for 900 sampled tasks.
  std::size_t replicates = 2000;
};

/// A stratified estimate of a total (stratified_total).
struct TotalEstimate {
  double value = 0.0;           ///< estimated total over all tasks of all strata
  double low = 0.0;             ///< interval of `value` at TotalOptions::level
  double high = 0.0;
  double standard_error = 0.0;  ///< of `value`, noise included
  double sampled = 0.0;         ///< the sampled tasks' values summed
  /// Pooled coefficient of variation of value / (rate × aux) over the
  /// strata with at least two sampled tasks; 1 when there are none.
  double spread = 1.0;
  std::vector<double> rate;     ///< per stratum: value per unit of aux (the nearest sampled stratum's for an unsampled one)
  std::size_t extrapolated = 0; ///< tasks in strata with no task sampled
};

/// Estimates the total of a measured value over every task of `strata`
/// from the sampled tasks, by the separate ratio estimator (each stratum's
/// total is its sample's value per unit of aux × its aux total; W. G.
/// Cochran, Sampling Techniques, 3rd ed., 1977, §6.10), and an interval
/// for it at options.level.
///
/// The interval is a bootstrap (B. Efron, "Bootstrap methods: another look
/// at the jackknife", Annals of Statistics 7 (1979) 1–26; B. Efron and
/// R. J. Tibshirani, An Introduction to the Bootstrap, 1993, ch. 13):
/// TotalOptions::replicates replicates, each redrawing every stratum's sample with replacement and
/// recomputing the total; the interval is their percentiles. Three
/// allowances make it honest for heavy-tailed task times:
///  - a stratum with fewer than 5 sampled tasks draws from the pool of the
///    relative residuals (value − rate·aux) / (rate·mean aux) of all strata
///    with at least 2 (its own few say little about the tail); with no such
///    stratum, a relative spread of 1 is assumed. A stratum with none
///    sampled takes the rate of the nearest sampled stratum (the next
///    smaller first) times a lognormal factor of σ = max(0.5, pooled
///    spread). A stratum sampled whole is exact.
///  - deviations are rescaled by √(n/(n−1)) and the finite-population
///    correction √(1 − n/N) (the rescaling bootstrap of J. N. K. Rao and
///    C. F. J. Wu, J. Amer. Statist. Assoc. 83 (1988) 231–241), and by
///    √(k / χ²_k((1 − level)/2)), k = Σ(n − 1): the upper confidence bound
///    of a spread estimated with k degrees of freedom (χ² by Wilson and
///    Hilferty 1931), since a small sample of a heavy-tailed quantity
///    usually understates its spread; a stratum's total is never below
///    what its sampled tasks measured.
///  - each replicate is multiplied by exp(noise · Z), Z standard normal:
///    the run-to-run speed variation of the machine.
/// Tested on synthetic heavy-tailed task lists: a 90 % interval holds the
/// true total for ≥ 85 of 100 seeds (tests/engine/test_estimate_interval.cpp).
/// Deterministic for a given seed. Costs about replicates × (sampled
/// tasks) random draws. Throws std::invalid_argument when a stratum has aux and
/// value of different lengths or more samples than tasks, when no task at
/// all is sampled, when level is outside (0, 1), noise is negative or
/// replicates is 1.
[[nodiscard]] TotalEstimate stratified_total(const std::vector<StratumSample>& strata, const TotalOptions& options = {});

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
  /// Coverage of the intervals, in (0, 1) (TotalOptions::level).
  double level = 0.95;
  /// Run-to-run speed variation of wall time between the sample and the
  /// run (other processes, frequency scaling): TotalOptions::noise, the σ
  /// of a lognormal factor. 0.07 is the root mean square log ratio of the
  /// CPU times of consecutive runs measured with scripts/speed-noise
  /// (results/estimate.md, "Run-to-run speed, measured"); wall time and
  /// shorter jobs vary more on a loaded machine, so the driver raises both
  /// with the load average.
  double noise = 0.07;
  /// The same for CPU time (thread CPU clocks: other processes change it
  /// less than wall time, but on a loaded machine caches and clocks still
  /// make repeated runs differ).
  double cpu_noise = 0.07;
  /// Stops the sample early (SIGINT); what was timed is still used.
  const std::atomic<bool>* cancel = nullptr;
};

/// A run's predicted cost (estimate_run). Times are seconds.
struct RunEstimate {
  std::size_t tasks = 0;         ///< tasks of the predicted run (included)
  std::size_t sampled = 0;       ///< of which run in full by the sample (or, with leaf_probes, probed)
  /// The sampled tasks were not run: each one's CPU seconds were estimated
  /// by Job::leaf_probe (leaf_probes_per_task timed probes each).
  bool leaf_probes = false;
  std::size_t leaf_probes_per_task = 0;  ///< probes per sampled task when leaf_probes
  std::size_t strata = 0;        ///< strata used
  std::size_t extrapolated = 0;  ///< tasks in strata with no task sampled (too big for the budget)
  bool task_estimates = false;   ///< stratified by Job::estimate (else by probes, else one stratum)
  double sample_seconds = 0.0;   ///< wall seconds the estimate took
  double sampled_task_seconds = 0.0;  ///< task seconds of the sampled tasks
  double sampled_cpu_seconds = 0.0;   ///< thread CPU seconds of the sampled tasks
  double sampled_nodes = 0.0;         ///< search nodes the sampled tasks counted (0: the kernel counts none)
  /// The sampled tasks' counts summed (Job::counter_names.size() counters;
  /// empty with leaf_probes, whose tasks are not run).
  Tally totals;
  /// Every task of the predicted run was sampled in full (not by leaf
  /// probes): `totals` are that run's exact counts, and the times are
  /// measurements.
  bool complete = false;
  /// Predicted CPU seconds of the run's tasks (each sampled task's thread
  /// CPU time, CLOCK_THREAD_CPUTIME_ID: barely changed by other load).
  double cpu_seconds = 0.0;
  double cpu_seconds_low = 0.0;  ///< interval of cpu_seconds at `level` (bootstrap, cpu_noise included)
  double cpu_seconds_high = 0.0;
  double relative_error = 0.0;   ///< standard deviation of the bootstrap replicates / cpu_seconds (noise included)
  /// Predicted task seconds: the tasks' wall seconds summed (what a
  /// --profile of the run adds up to; more than cpu_seconds on a busy machine).
  double task_seconds = 0.0;
  double task_seconds_low = 0.0;   ///< interval of task_seconds at `level` (bootstrap, `noise` included)
  double task_seconds_high = 0.0;
  double wall_relative_error = 0.0;  ///< standard deviation of the replicates / task_seconds (noise included)
  double largest_task_seconds = 0.0;  ///< the largest task's predicted wall seconds (measured when sampled)
  int workers = 1;               ///< effective workers of the predicted run
  /// The job's tasks split while they run (Job::splits): idle workers take
  /// parts of a running task (engine/split.hpp), so the largest task need
  /// not run on one worker alone.
  bool splits = false;
  /// Task phase: max(task_low / workers, largest task); task_low / workers
  /// when `splits` (and more than one worker).
  double wall_seconds_low = 0.0;
  double wall_seconds_high = 0.0;  ///< task phase: task_high / workers + largest task (list-scheduling bound)
  /// Search nodes of the run's tasks, from the sample (ratio estimate; 0
  /// when the kernel does not count nodes).
  double nodes = 0.0;
  /// Knuth's probe estimate of the whole job's nodes (probes = 0 when the
  /// job has no probe).
  SizeEstimate knuth;
};

/// Thrown by estimate_run when no task of the sample finished within its
/// time (every task is longer than about 1.5 × the budget): the size of the
/// tree is then all there is, as Knuth's estimate from Job::probe.
struct NoTaskFinished : std::runtime_error {
  NoTaskFinished(const std::string& what, SizeEstimate nodes, double seconds)
      : std::runtime_error(what), knuth(nodes), sample_seconds(seconds) {}
  SizeEstimate knuth;     ///< probes = 0 when the job has no probe
  double sample_seconds;  ///< wall seconds spent trying
};

/// Predicts the cost of running `job` (its included tasks) from a sample of
/// tasks run in full, before a long run. Each sampled task's wall seconds
/// and thread CPU seconds are both measured and estimated alike.
///
/// Method: each task gets an auxiliary size — Job::estimate, else the mean
/// of a few Knuth probes (Job::probe), else 1. The tasks, sorted by it, are
/// cut into strata of about equal total size. A first round of 2 of the
/// smallest tasks per worker calibrates the seconds per unit of size and
/// is not part of the sample (a cold process runs those tasks several times
/// slower than the run does; results/estimate.md measures it); its tasks go
/// back to their strata, and count only if no later task finishes. Then
/// tasks are drawn at random from every stratum in turn (smallest first,
/// skipping a stratum whose next task is predicted to overrun the budget)
/// and run in full on the engine, timed one by one. The totals of wall
/// seconds, CPU seconds and nodes and their intervals are
/// stratified_total's (separate ratio estimator, bootstrap with pooled
/// spread for strata of few samples, small-sample allowance, run-to-run
/// speed noise; the seed is `seed`). The wall interval is the list-scheduling bound
/// (R. L. Graham 1969): max(C/W, t_max) ≤ wall ≤ C/W + t_max for W workers;
/// for a job whose tasks split while they run (Job::splits) the low end is
/// C/W, as idle workers take parts of the largest task.
/// When every task was sampled the numbers are measurements (noise only),
/// and RunEstimate::totals, the sampled tasks' counts summed, are the
/// run's answer (RunEstimate::complete).
///
/// A job with Job::leaf_probe (tasks too long to run in full) is sampled
/// the same way, stratum by stratum, but each sampled task is not run: its
/// CPU seconds are the mean of RunEstimate::leaf_probes_per_task timed leaf
/// probes (weight × the probe's thread CPU time), and its wall seconds the
/// same (a task runs on one thread). At most half of a stratum is probed
/// (one task of a stratum of one), so that the interval keeps room for the
/// probes' own error (a stratum sampled whole would count as exact); nodes
/// are not estimated.
///
/// The whole estimate, sample and calibration included, stops within about
/// 1.5 × budget_seconds: tasks still running then are abandoned.
///
/// Throws NoTaskFinished when not one task finished in that time, what a
/// task or a probe throws, and std::logic_error when the job has no
/// run_task and no run_task_output.
[[nodiscard]] RunEstimate estimate_run(const Job& job, const RunEstimateOptions& options = {});

}  // namespace pcount::engine
