// engine::estimate_run: a run's cost predicted from a stratified sample of
// tasks run in full. Timing-dependent values are checked for consistency
// and against a full run only within wide bounds; what the sample predicts
// exactly (search nodes when they are proportional to the tasks' estimates,
// every figure of a job sampled whole) is checked exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "pcount/engine/estimate.hpp"
#include "pcount/engine/runner.hpp"

namespace pcount {
namespace {

/// A job of `tasks` tasks; task i does work(i) rounds of an xorshift loop,
/// reports work(i) nodes and counts 1 in counter 0. Its estimate is work(i)
/// when `with_estimate`.
engine::Job busy_job(std::size_t tasks, std::uint64_t scale, bool with_estimate) {
  auto work = std::make_shared<std::vector<std::uint64_t>>(tasks);
  for (std::size_t i = 0; i < tasks; ++i) (*work)[i] = scale * (1 + (i * 7919) % 50);  // 50 sizes, mixed ids
  engine::Job job;
  job.fingerprint = "busy";
  job.counter_names = {"tasks"};
  job.task_count = tasks;
  job.run_task = [work](std::size_t id, engine::Tally& t) {
    std::uint64_t x = id + 1;
    for (std::uint64_t k = 0; k < (*work)[id]; ++k) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
    }
    t.add(0, x == 0 ? 2 : 1);  // x never becomes 0 (xorshift); keeps the loop
    t.nodes += (*work)[id];
  };
  if (with_estimate) job.estimate = [work](std::size_t id) { return static_cast<double>((*work)[id]); };
  return job;
}

double total_work(const engine::Job& job, const std::function<bool(std::size_t)>& include = {}) {
  double sum = 0.0;
  for (std::size_t id = 0; id < job.task_count; ++id)
    if (!include || include(id)) sum += job.estimate(id);
  return sum;
}

void expect_consistent(const engine::RunEstimate& e, const engine::RunEstimateOptions& o) {
  EXPECT_GE(e.sampled, 1u);
  EXPECT_LE(e.sampled, e.tasks);
  EXPECT_LE(e.extrapolated, e.tasks - e.sampled);
  EXPECT_GE(e.strata, 1u);
  EXPECT_LE(e.strata, 8u);
  EXPECT_GT(e.cpu_seconds_low, 0.0);
  EXPECT_LE(e.cpu_seconds_low, e.cpu_seconds);
  EXPECT_LE(e.cpu_seconds, e.cpu_seconds_high);
  EXPECT_GT(e.task_seconds_low, 0.0);
  EXPECT_LE(e.task_seconds_low, e.task_seconds);
  EXPECT_LE(e.task_seconds, e.task_seconds_high);
  // The sampled tasks were measured; the run repeats them at a speed that
  // may differ by the noise term (lognormal, so 2.5 σ is below 1 % odds).
  EXPECT_GE(e.task_seconds_low, e.sampled_task_seconds * std::exp(-2.5 * o.noise));
  EXPECT_GT(e.wall_seconds_low, 0.0);
  EXPECT_LE(e.wall_seconds_low, e.wall_seconds_high);
  EXPECT_GE(e.wall_seconds_low * e.workers, e.task_seconds_low * 0.999);
  EXPECT_GE(e.wall_seconds_high * e.workers, e.task_seconds_high);
  EXPECT_GT(e.largest_task_seconds, 0.0);
  EXPECT_GE(e.relative_error, 0.9 * o.cpu_noise);  // timing noise is always included
}

TEST(EstimateRun, AJobSampledWholeIsMeasuredExactly) {
  const engine::Job job = busy_job(40, 200, true);
  engine::RunEstimateOptions o;
  o.threads = 2;
  o.budget_seconds = 60;  // far more than the job takes: every task runs
  const engine::RunEstimate e = engine::estimate_run(job, o);
  expect_consistent(e, o);
  EXPECT_EQ(e.tasks, 40u);
  EXPECT_EQ(e.sampled, 40u);
  EXPECT_EQ(e.extrapolated, 0u);
  EXPECT_TRUE(e.task_estimates);
  EXPECT_EQ(e.nodes, total_work(job));
  // Exact up to rounding: the two sums add the same 40 times in different
  // orders (by stratum, and in sample order), which may differ in more than
  // the 4 ulps EXPECT_DOUBLE_EQ allows (seen once: 0.00048065 against
  // 0.00048064999999999973).
  EXPECT_NEAR(e.task_seconds, e.sampled_task_seconds, 1e-12 * e.sampled_task_seconds);
}

TEST(EstimateRun, NodesProportionalToTheEstimatesAreEstimatedExactlyFromAnySample) {
  // The separate ratio estimator is exact when the measured quantity is a
  // constant times the auxiliary size, whatever tasks the sample holds.
  const engine::Job job = busy_job(3000, 2000, true);
  engine::RunEstimateOptions o;
  o.threads = 2;
  o.budget_seconds = 0.2;
  const engine::RunEstimate e = engine::estimate_run(job, o);
  expect_consistent(e, o);
  EXPECT_EQ(e.tasks, 3000u);
  EXPECT_NEAR(e.nodes, total_work(job), 1e-9 * total_work(job));
}

TEST(EstimateRun, TheMeasuredTaskSumLiesInAWideIntervalAroundThePrediction) {
  const engine::Job job = busy_job(600, 4000, true);
  engine::RunEstimateOptions o;
  o.threads = 2;
  o.budget_seconds = 0.3;
  const engine::RunEstimate e = engine::estimate_run(job, o);
  expect_consistent(e, o);
  engine::RunOptions ro;
  ro.threads = 2;
  ro.record_tasks = true;
  const engine::RunResult full = engine::run(job, ro);
  ASSERT_EQ(full.totals.get(0), 600u);
  double task_sum = 0.0;
  for (const engine::TaskRecord& t : full.tasks) task_sum += t.seconds;
  // Wide: this machine is shared, so no timing is tight; a factor four
  // either side still catches a prediction that is wrong in kind (a missing
  // stratum, a wrong weight, seconds for milliseconds).
  EXPECT_GT(task_sum, e.task_seconds_low / 4) << e.task_seconds_low << " " << e.task_seconds_high;
  EXPECT_LT(task_sum, e.task_seconds_high * 4) << e.task_seconds_low << " " << e.task_seconds_high;
}

TEST(EstimateRun, AShardEstimatesItsOwnTasks) {
  const engine::Job job = busy_job(301, 100, true);
  engine::RunEstimateOptions o;
  o.threads = 1;
  o.budget_seconds = 60;
  o.include = [](std::size_t id) { return id % 3 == 1; };
  const engine::RunEstimate e = engine::estimate_run(job, o);
  expect_consistent(e, o);
  EXPECT_EQ(e.tasks, 100u);
  EXPECT_EQ(e.nodes, total_work(job, o.include));
}

TEST(EstimateRun, AJobWithoutEstimatesIsStratifiedByTaskId) {
  const engine::Job with = busy_job(200, 100, true);
  engine::Job job = busy_job(200, 100, false);
  engine::RunEstimateOptions o;
  o.threads = 2;
  o.processes = 3;
  o.budget_seconds = 60;
  const engine::RunEstimate e = engine::estimate_run(job, o);
  expect_consistent(e, o);
  EXPECT_FALSE(e.task_estimates);
  EXPECT_EQ(e.workers % 3, 0);
  EXPECT_EQ(e.nodes, total_work(with));
}

TEST(EstimateRun, AJobWithoutAKernelIsALogicError) {
  engine::Job job;
  job.task_count = 3;
  EXPECT_THROW((void)engine::estimate_run(job), std::logic_error);
}

}  // namespace
}  // namespace pcount
