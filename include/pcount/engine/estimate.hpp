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

#include <chrono>
#include <cstddef>
#include <cstdint>
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

}  // namespace pcount::engine
