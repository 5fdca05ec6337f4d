// The engine's batch layer (engine/batch.hpp): resume from a checkpoint,
// the shard filter, records and shard results, without the driver.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include "pcount/engine/batch.hpp"
#include "pcount/errors.hpp"
#include "pcount/engine/tree.hpp"
#include "support/toy_tree.hpp"

namespace pcount::engine {
namespace {

using test::NoRepeatWords;

Job words_job() {
  auto p = std::make_shared<const NoRepeatWords>(NoRepeatWords{4, 8});  // 4·3^7 = 8748 leaves
  return make_tree_job(p, 3, "batch words", {"leaves", "ending in 0"});
}
constexpr u128 kLeaves = 8748;  // 4·3^7: a first letter, then 3 choices per letter

std::string temp_path(const std::string& stem) {
  return "/tmp/pcount-test-batch-" + stem + "-" + std::to_string(::getpid());
}

/// Runs `batch` and cancels it after `stop_after` finished tasks; returns
/// the number of tasks that finished.
std::size_t run_and_stop(const Job& job, const BatchOptions& batch, std::size_t stop_after) {
  std::atomic<bool> cancel{false};
  std::atomic<std::size_t> finished{0};
  RunOptions o;
  o.threads = 2;
  o.cancel = &cancel;
  o.on_task_done = [&](std::size_t, const Tally&, double) {
    if (finished.fetch_add(1) + 1 >= stop_after) cancel.store(true);
  };
  Batch b(job, batch);
  const RunResult r = b.run(o);
  EXPECT_TRUE(r.interrupted);
  EXPECT_EQ(r.tasks_run, finished.load());
  return r.tasks_run;
}

TEST(Batch, ResumesAnInterruptedRunToTheExactTotal) {
  const Job job = words_job();
  BatchOptions batch;
  batch.checkpoint = temp_path("resume");
  batch.flush_seconds = 0.01;
  std::remove(batch.checkpoint.c_str());
  const std::size_t first = run_and_stop(job, batch, 10);
  ASSERT_GE(first, 10u);
  ASSERT_LT(first, job.task_count);

  RunOptions o;
  o.threads = 3;
  o.record_tasks = true;
  const RunResult r = run_batch(job, batch, o);
  EXPECT_FALSE(r.interrupted);
  EXPECT_EQ(r.tasks_resumed, first);  // every task the first run finished was recorded
  EXPECT_EQ(r.tasks_run + r.tasks_resumed, job.task_count);
  EXPECT_EQ(r.totals.counts[0], kLeaves);
  EXPECT_EQ(r.totals.counts[1], kLeaves / 4);  // by symmetry, a quarter end in letter 0
  ASSERT_EQ(r.tasks.size(), job.task_count);   // resumed and run, each once, by id
  for (std::size_t id = 0; id < r.tasks.size(); ++id) EXPECT_EQ(r.tasks[id].id, id);

  // A third run finds every task in the log and runs none.
  const RunResult again = run_batch(job, batch, o);
  EXPECT_EQ(again.tasks_run, 0u);
  EXPECT_EQ(again.tasks_resumed, job.task_count);
  EXPECT_EQ(again.totals.counts[0], kLeaves);
  std::remove(batch.checkpoint.c_str());
}

TEST(Batch, ShardsResumeOnlyTheirOwnTasksAndMergeToTheTotal) {
  const Job job = words_job();
  // One log written by an interrupted run of the whole job ...
  BatchOptions whole;
  whole.checkpoint = temp_path("shards");
  whole.flush_seconds = 0.01;
  std::remove(whole.checkpoint.c_str());
  const std::size_t first = run_and_stop(job, whole, 12);
  // ... read by three shards, each of which resumes only its own tasks.
  std::vector<ShardResult> shards;
  std::size_t resumed = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    BatchOptions b;
    b.shard = Shard{i, 3};
    b.checkpoint = temp_path("shard" + std::to_string(i));
    b.also_read = {whole.checkpoint};
    b.flush_seconds = 0.01;
    std::remove(b.checkpoint.c_str());
    Batch batch(job, b);
    for (const TaskRecord& t : batch.resumed()) EXPECT_TRUE(b.shard.includes(t.id)) << t.id;
    EXPECT_EQ(batch.pending() + batch.resumed().size(), b.shard.size(job.task_count));
    RunOptions o;
    o.threads = 2;
    o.record_tasks = true;
    RunResult r = batch.run(o);
    batch.add_resumed(r);
    resumed += r.tasks_resumed;
    EXPECT_EQ(r.tasks_run, batch.pending());
    shards.push_back(batch.shard_result(r));
    std::remove(b.checkpoint.c_str());
  }
  EXPECT_EQ(resumed, first);  // the whole log, split between the shards
  const MergeResult m = merge_shards(shards, {"0", "1", "2"});
  EXPECT_EQ(m.totals.counts[0], kLeaves);
  EXPECT_EQ(m.totals.counts[1], kLeaves / 4);
  std::remove(whole.checkpoint.c_str());
}

TEST(Batch, LogsThatDisagreeAreRefused) {
  const Job job = words_job();
  const std::string a = temp_path("a"), b = temp_path("b");
  std::remove(a.c_str());
  std::remove(b.c_str());
  TaskRecord t{5, Tally(2), 0.1};
  t.counts.counts[0] = 1;
  {
    CheckpointLog log(a, job, 0.01);
    log.record(t);
    log.close();
  }
  t.counts.counts[0] = 2;  // the same task with another count
  {
    CheckpointLog log(b, job, 0.01);
    log.record(t);
    log.close();
  }
  BatchOptions o;
  o.checkpoint = a;
  o.also_read = {b};
  EXPECT_THROW(Batch(job, o), InvalidArgument);
  std::remove(a.c_str());
  std::remove(b.c_str());
}

}  // namespace
}  // namespace pcount::engine
