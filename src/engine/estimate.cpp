#include "pcount/engine/estimate.hpp"

#include <cmath>
#include <stdexcept>

namespace pcount::engine {

SizeEstimate estimate_job_nodes(const Job& job, std::size_t probes, std::uint64_t seed,
                                std::chrono::duration<double> budget) {
  if (!job.probe) throw std::logic_error("estimate_job_nodes: the job has no probe");
  if (job.task_count == 0) throw std::logic_error("estimate_job_nodes: the job has no tasks");
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(0, job.task_count - 1);
  const auto start = std::chrono::steady_clock::now();
  // Welford's running mean and variance of the per-probe job totals.
  double mean = 0.0, m2 = 0.0;
  std::size_t k = 0;
  const double tasks = static_cast<double>(job.task_count);
  while (k < probes) {
    const double x = tasks * job.probe(pick(rng), rng);
    ++k;
    const double delta = x - mean;
    mean += delta / static_cast<double>(k);
    m2 += delta * (x - mean);
    if (k >= 16 && k % 16 == 0 && std::chrono::steady_clock::now() - start > budget) break;
  }
  SizeEstimate e;
  e.nodes = mean;
  e.probes = k;
  const double variance = k > 1 ? m2 / static_cast<double>(k - 1) : 0.0;
  e.relative_error = mean > 0.0 ? std::sqrt(variance / static_cast<double>(k)) / mean : 0.0;
  return e;
}

}  // namespace pcount::engine
