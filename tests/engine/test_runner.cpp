#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "pcount/errors.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/engine/tree.hpp"
#include "support/toy_tree.hpp"

namespace pcount::engine {
namespace {

using test::NoRepeatWords;


TEST(Tree, ExpandKeepsDfsOrderAndLeaves) {
  const NoRepeatWords p{3, 2};
  EXPECT_EQ(expand(p, 0).size(), 1u);
  EXPECT_EQ(expand(p, 1).size(), 3u);
  const auto two = expand(p, 2);
  ASSERT_EQ(two.size(), 6u);
  EXPECT_EQ(two[0].last, 1);  // 0,1 is first in DFS order
  EXPECT_EQ(two[5].last, 1);  // 2,1 is last
  EXPECT_EQ(expand(p, 9).size(), 6u);  // beyond the tree's height: the leaves
}

TEST(Tree, AutoDepthIsShallowestWithEnoughTasks) {
  const NoRepeatWords p{3, 5};
  EXPECT_EQ(auto_split_depth(p, 1), 0);
  EXPECT_EQ(auto_split_depth(p, 3), 1);
  EXPECT_EQ(auto_split_depth(p, 4), 2);
  EXPECT_EQ(auto_split_depth(p, 1000), 5);  // whole tree
}

TEST(Runner, SameCountsForEveryThreadCountAndDepth) {
  auto p = std::make_shared<const NoRepeatWords>(NoRepeatWords{4, 7});
  const u128 expected = 4 * 729;  // 4·3^6
  Tally reference;
  for (int depth = 0; depth <= 8; ++depth) {
    const Job job = make_tree_job(p, depth, "toy", {"leaves", "ending in 0"});
    for (int threads : {1, 2, 3, 4, 7}) {
      RunOptions o;
      o.threads = threads;
      const RunResult r = run(job, o);
      EXPECT_EQ(r.totals.counts[0], expected) << "depth " << depth << " threads " << threads;
      EXPECT_EQ(r.totals.counts[1], expected / 4);
      EXPECT_EQ(r.threads, threads);
      EXPECT_EQ(r.tasks_run, job.task_count);
      if (depth == 0 && threads == 1) reference = r.totals;
      EXPECT_EQ(r.totals.counts, reference.counts);
    }
  }
}

// start_workers only wakes workers early: the first run after it (same or
// another width) and later runs count the same, and the run
// that adopts the woken arena really has its width (two tasks meet while
// both run; a one-slot arena would never let the second start).
TEST(Runner, WorkersStartedEarlyChangeNothingButTheStart) {
  auto p = std::make_shared<const NoRepeatWords>(NoRepeatWords{4, 6});
  const Job tree = make_tree_job(p, 2, "toy", {"leaves", "ending in 0"});
  const u128 expected = 4 * 243;  // 4·3^5
  for (int warm : {1, 2, 3}) {
    for (int threads : {1, 2, 3}) {
      start_workers(warm);
      RunOptions o;
      o.threads = threads;
      const RunResult r = run(tree, o);
      EXPECT_EQ(r.totals.counts[0], expected) << "warm " << warm << " threads " << threads;
      EXPECT_EQ(r.tasks_run, tree.task_count);
    }
  }
  start_workers(0);  // nothing
  start_workers(-1);

  std::atomic<int> arrived{0};
  Job meet;
  meet.fingerprint = "meet";
  meet.counter_names = {"met"};
  meet.task_count = 2;
  meet.run_task = [&arrived](std::size_t, Tally& t) {
    arrived.fetch_add(1);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);  // a deadlock guard only
    while (arrived.load() < 2 && std::chrono::steady_clock::now() < until) std::this_thread::yield();
    if (arrived.load() >= 2) t.add(0, 1);
  };
  start_workers(2);
  RunOptions two;
  two.threads = 2;
  EXPECT_EQ(run(meet, two).totals.counts[0], 2u);
}

// Largest estimate first holds across all workers, not per worker: a task
// starts near its place in the schedule (within `threads` places, plus
// slack for a thread descheduled between claiming a task and starting it:
// a 2 ms task each, a quarter of the schedule means a stall of ~15 ms).
// (Handing the positions out by a parallel_for split them in halves, one per
// thread: the task at position 30 of 60 then started second on 2 threads.)
TEST(Runner, TasksStartInEstimateOrderAcrossWorkers) {
  constexpr std::size_t kTasks = 60;
  for (int threads : {2, 3}) {
    std::atomic<std::size_t> started{0};
    std::vector<std::size_t> start_index(kTasks, kTasks);
    Job job;
    job.fingerprint = "order";
    job.counter_names = {"tasks"};
    job.task_count = kTasks;
    job.estimate = [](std::size_t id) { return static_cast<double>(id); };  // schedule: 59, 58, ..., 0
    job.run_task = [&](std::size_t id, Tally& t) {
      start_index[id] = started.fetch_add(1);
      const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(2);
      while (std::chrono::steady_clock::now() < until) std::this_thread::yield();
      t.add(0, 1);
    };
    RunOptions o;
    o.threads = threads;
    ASSERT_EQ(run(job, o).totals.counts[0], kTasks);
    for (std::size_t id = 0; id < kTasks; ++id) {
      const std::size_t position = kTasks - 1 - id;
      const std::size_t gap = start_index[id] > position ? start_index[id] - position : position - start_index[id];
      EXPECT_LT(gap, kTasks / 4) << "task " << id << " threads " << threads;
    }
  }
}

TEST(Runner, IncludeFilterAndRecordsAndEstimates) {
  auto p = std::make_shared<const NoRepeatWords>(NoRepeatWords{3, 6});
  Job job = make_tree_job(p, 2, "toy", {"leaves", "ending in 0"});
  job.estimate = [](std::size_t id) { return static_cast<double>(id); };
  RunOptions even;
  even.threads = 2;
  even.record_tasks = true;
  even.include = [](std::size_t id) { return id % 2 == 0; };
  RunOptions odd = even;
  odd.include = [](std::size_t id) { return id % 2 == 1; };
  const RunResult a = run(job, even);
  const RunResult b = run(job, odd);
  EXPECT_EQ(a.totals.counts[0] + b.totals.counts[0], 3u * 32u);
  EXPECT_EQ(a.tasks_run + b.tasks_run, job.task_count);
  ASSERT_EQ(a.tasks.size(), a.tasks_run);
  for (std::size_t i = 0; i < a.tasks.size(); ++i) EXPECT_EQ(a.tasks[i].id, 2 * i);
  // Records carry the hand-out position: largest estimate (= id) first among
  // the included tasks, so even id 2i of n even ids was handed out n-1-i-th.
  const std::size_t n = a.tasks.size();
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(a.tasks[i].position, n - 1 - i) << "id " << a.tasks[i].id;
  // Without estimates the hand-out order is id order.
  Job plain = make_tree_job(p, 2, "toy", {"leaves", "ending in 0"});
  const RunResult c = run(plain, odd);
  for (std::size_t i = 0; i < c.tasks.size(); ++i) EXPECT_EQ(c.tasks[i].position, i) << "id " << c.tasks[i].id;
}

TEST(Runner, TaskExceptionIsRethrownAndOverflowDetected) {
  Job job;
  job.task_count = 10;
  job.counter_names = {"x"};
  job.run_task = [](std::size_t id, Tally&) {
    if (id == 7) throw std::runtime_error("task 7 failed");
  };
  EXPECT_THROW((void)run(job), std::runtime_error);
  Job big;
  big.task_count = 4;
  big.counter_names = {"big"};
  big.run_task = [](std::size_t, Tally& t) { t.add(0, (~static_cast<u128>(0)) / 3); };
  RunOptions one;
  one.threads = 1;
  EXPECT_THROW((void)run(big, one), CountOverflow);
  RunOptions bad;
  bad.threads = -1;
  EXPECT_THROW((void)run(big, bad), InvalidArgument);
}

}  // namespace
}  // namespace pcount::engine
