// engine::estimate_run: a run's cost predicted from a stratified sample of
// tasks run in full. Timing-dependent values are checked for consistency
// only (their comparison with a full run is long_estimate_run.cpp); what the sample predicts
// exactly (search nodes when they are proportional to the tasks' estimates,
// every figure of a job sampled whole) is checked exactly.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "pcount/engine/estimate.hpp"
#include "pcount/engine/runner.hpp"
#include "estimate_jobs.hpp"

namespace pcount {
namespace {

using test::busy_job;
using test::expect_consistent;
using test::leafy_job;
using test::total_work;

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
  // Every task ran once: the sample's counts are the run's answer (each
  // task counts 1, and its work as nodes), the same as engine::run's.
  EXPECT_TRUE(e.complete);
  EXPECT_EQ(e.totals.get(0), 40u);
  EXPECT_EQ(static_cast<double>(e.totals.nodes), total_work(job));
  EXPECT_EQ(e.sampled_nodes, total_work(job));
  EXPECT_TRUE(std::isfinite(e.sampled_cpu_seconds) && e.sampled_cpu_seconds >= 0.0);  // recorded, whatever the load
  engine::RunOptions ro;
  ro.threads = 2;
  EXPECT_EQ(e.totals, engine::run(job, ro).totals);
}

TEST(EstimateRun, APartialSampleIsNotAnAnswer) {
  const engine::Job job = busy_job(3000, 20000, true);
  engine::RunEstimateOptions o;
  o.threads = 2;
  o.budget_seconds = 0.2;
  const engine::RunEstimate e = engine::estimate_run(job, o);
  if (e.sampled == e.tasks) GTEST_SKIP() << "this machine ran all 3000 tasks in 0.2 s";
  EXPECT_FALSE(e.complete);
  // What was counted is the sampled tasks' (each counts 1), never more.
  EXPECT_EQ(e.totals.get(0), e.sampled);
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
  EXPECT_TRUE(e.complete);  // the shard's 100 tasks, each counted once
  EXPECT_EQ(e.totals.get(0), 100u);
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

TEST(EstimateRun, LeafProbesEstimateTasksWithoutRunningThem) {
  auto runs = std::make_shared<std::atomic<int>>(0);
  const engine::Job job = leafy_job(400, 20000, runs);
  engine::RunEstimateOptions o;
  o.threads = 2;
  o.budget_seconds = 0.3;
  const engine::RunEstimate e = engine::estimate_run(job, o);
  EXPECT_EQ(runs->load(), 0);  // no task was run
  EXPECT_TRUE(e.leaf_probes);
  EXPECT_EQ(e.leaf_probes_per_task, 4u);
  EXPECT_GE(e.sampled, 1u);
  EXPECT_LE(e.sampled, e.tasks / 2);  // at most half of every stratum
  EXPECT_EQ(e.nodes, 0.0);
  EXPECT_FALSE(e.complete);  // probed, not run: no answer
  EXPECT_EQ(e.totals.used(), 0u);
  EXPECT_GT(e.cpu_seconds_low, 0.0);
  EXPECT_LE(e.cpu_seconds_low, e.cpu_seconds);
  EXPECT_LE(e.cpu_seconds, e.cpu_seconds_high);
  EXPECT_LE(e.wall_seconds_low, e.wall_seconds_high);

  const engine::CpuEstimate whole = engine::estimate_job_cpu(job, 4000, 7, std::chrono::seconds(1));
  EXPECT_GE(whole.probes, 16u);
  EXPECT_GT(whole.seconds, 0.0);
  EXPECT_GT(whole.relative_error, 0.0);  // paths differ in weight

  // How close these come to a full run's measured time is a timing
  // comparison, so it is a long test (long_estimate_run.cpp): on a shared
  // machine the run and the estimate meet different load.
}

TEST(EstimateRun, EstimatingByLeafProbesNeedsAProbe) {
  engine::Job job;
  job.task_count = 3;
  job.run_task = [](std::size_t, engine::Tally&) {};
  EXPECT_THROW((void)engine::estimate_job_cpu(job), std::logic_error);
  job.leaf_probe = [](std::size_t, std::mt19937_64&) { return 1.0; };
  job.task_count = 0;
  EXPECT_THROW((void)engine::estimate_job_cpu(job), std::logic_error);
}

TEST(EstimateRun, AJobWithoutAKernelIsALogicError) {
  engine::Job job;
  job.task_count = 3;
  EXPECT_THROW((void)engine::estimate_run(job), std::logic_error);
}

}  // namespace
}  // namespace pcount
