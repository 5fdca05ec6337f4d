// Ordered task output (Job::run_task_output, RunOptions::on_output): the
// bytes delivered are the same for every thread count, skipped ids are not
// waited for, a cancel delivers what finished, and the window bounds what
// is held.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "pcount/engine/runner.hpp"

namespace pcount::engine {
namespace {

/// A well-mixed 64-bit value of `x` (splitmix64 finaliser).
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// Task id's text: 0 to 299 bytes (a third of the tasks print nothing),
/// starting with the id so that misplaced texts show.
std::string text_of(std::size_t id) {
  const std::uint64_t h = mix(id);
  if (h % 3 == 0) return {};
  std::string t = std::to_string(id) + ":";
  const std::size_t len = static_cast<std::size_t>(h >> 8) % 300;
  for (std::size_t i = 0; i < len; ++i) t += static_cast<char>('a' + (mix(h + i) % 26));
  t += '\n';
  return t;
}

/// `tasks` tasks; task id prints text_of(id), counts 1 in counter 0 and
/// its text length in counter 1, and does a little id-dependent work so
/// that tasks finish out of order on several threads.
Job output_job(std::size_t tasks) {
  Job job;
  job.fingerprint = "test output";
  job.counter_names = {"tasks", "bytes"};
  job.task_count = tasks;
  job.run_task_output = [](std::size_t id, Tally& t, std::string& text) {
    std::uint64_t x = id;
    for (std::uint64_t i = 0; i < mix(id) % 4000; ++i) x = mix(x);
    text = text_of(id);
    t.add(0, 1);
    t.add(1, text.size());
    t.nodes = x & 1;  // keeps the loop from being optimised away
  };
  return job;
}

/// What one run delivered, as seen through the callbacks.
struct Seen {
  std::mutex mutex;
  std::string bytes;
  std::vector<std::size_t> output_ids;
  std::vector<std::size_t> done_ids;
  std::atomic<std::size_t> delivered{0};
  std::atomic<bool> concurrent{false};
  std::atomic<int> inside{0};
};

void watch(RunOptions& o, Seen& seen) {
  o.on_output = [&seen](std::size_t id, std::string_view text) {
    if (seen.inside.fetch_add(1) != 0) seen.concurrent = true;
    {
      std::lock_guard lock(seen.mutex);
      seen.bytes += text;
      seen.output_ids.push_back(id);
    }
    seen.delivered.fetch_add(1);
    seen.inside.fetch_sub(1);
  };
  o.on_task_done = [&seen](std::size_t id, const Tally&, double) {
    std::lock_guard lock(seen.mutex);
    seen.done_ids.push_back(id);
  };
}

TEST(OrderedOutput, SameBytesForEveryThreadCount) {
  constexpr std::size_t kTasks = 10000;
  const Job job = output_job(kTasks);
  std::string expected;
  std::size_t expected_bytes = 0;
  for (std::size_t id = 0; id < kTasks; ++id) expected += text_of(id);
  expected_bytes = expected.size();
  for (int threads : {1, 2, 7}) {
    Seen seen;
    RunOptions o;
    o.threads = threads;
    watch(o, seen);
    const RunResult r = run(job, o);
    EXPECT_EQ(seen.bytes, expected) << threads << " threads";
    ASSERT_EQ(seen.output_ids.size(), kTasks);
    for (std::size_t i = 0; i < kTasks; ++i) ASSERT_EQ(seen.output_ids[i], i);
    EXPECT_EQ(seen.done_ids, seen.output_ids) << "on_task_done follows delivery, in id order";
    EXPECT_FALSE(seen.concurrent.load());
    EXPECT_EQ(r.tasks_run, kTasks);
    EXPECT_FALSE(r.interrupted);
    EXPECT_EQ(r.totals.counts[0], kTasks);
    EXPECT_EQ(r.totals.counts[1], expected_bytes);
    EXPECT_GE(r.output_peak, 1u);
    EXPECT_LE(r.output_peak, 4u * static_cast<std::size_t>(threads)) << "default window: 4 × threads";
  }
}

TEST(OrderedOutput, SkippedIdsAreNotWaitedFor) {
  constexpr std::size_t kTasks = 3001;
  const Job job = output_job(kTasks);
  for (std::size_t shard = 0; shard < 3; ++shard) {
    std::string expected;
    std::vector<std::size_t> ids;
    for (std::size_t id = shard; id < kTasks; id += 3) {
      expected += text_of(id);
      ids.push_back(id);
    }
    for (int threads : {1, 3}) {
      Seen seen;
      RunOptions o;
      o.threads = threads;
      o.include = [shard](std::size_t id) { return id % 3 == shard; };
      watch(o, seen);
      const RunResult r = run(job, o);
      EXPECT_EQ(seen.bytes, expected);
      EXPECT_EQ(seen.output_ids, ids);
      EXPECT_EQ(r.tasks_run, ids.size());
    }
  }
  // Nothing included: no output, no call.
  Seen none;
  RunOptions o;
  o.include = [](std::size_t) { return false; };
  watch(o, none);
  EXPECT_EQ(run(job, o).tasks_run, 0u);
  EXPECT_TRUE(none.output_ids.empty());
}

TEST(OrderedOutput, CancelDeliversWhatFinishedThenStops) {
  constexpr std::size_t kTasks = 10000;
  for (int threads : {1, 2, 7}) {
    Job job = output_job(kTasks);
    std::atomic<bool> stop{false};
    auto inner = job.run_task_output;
    job.run_task_output = [inner, &stop](std::size_t id, Tally& t, std::string& text) {
      if (id == 4000) stop = true;
      inner(id, t, text);
    };
    Seen seen;
    RunOptions o;
    o.threads = threads;
    o.cancel = &stop;
    o.output_window = 16;
    watch(o, seen);
    const RunResult r = run(job, o);
    EXPECT_TRUE(r.interrupted);
    const std::size_t n = seen.output_ids.size();
    EXPECT_GT(n, 4000u) << "task 4000 and all before it finished and were delivered";
    EXPECT_LE(n, 4000u + 16u) << "no task starts past the window: task 4000 was not yet delivered";
    EXPECT_EQ(r.tasks_run, n) << "every finished task was delivered";
    std::string expected;
    for (std::size_t id = 0; id < n; ++id) {
      ASSERT_EQ(seen.output_ids[id], id);
      expected += text_of(id);
    }
    EXPECT_EQ(seen.bytes, expected);
    EXPECT_EQ(seen.done_ids, seen.output_ids);
  }
}

TEST(OrderedOutput, NoTaskStartsPastTheWindow) {
  constexpr std::size_t kTasks = 5000;
  for (std::size_t window : {1u, 3u, 8u, 64u})
    for (int threads : {1, 2, 7}) {
      Job job = output_job(kTasks);
      Seen seen;
      std::atomic<std::size_t> violations{0};
      auto inner = job.run_task_output;
      // The runner counts `delivered` after on_output returns, and `seen`
      // counts inside it, so seen.delivered is never behind the runner's.
      job.run_task_output = [&, inner, window](std::size_t id, Tally& t, std::string& text) {
        if (id >= seen.delivered.load() + window) violations.fetch_add(1);
        inner(id, t, text);
      };
      RunOptions o;
      o.threads = threads;
      o.output_window = window;
      watch(o, seen);
      const RunResult r = run(job, o);
      EXPECT_EQ(violations.load(), 0u) << "window " << window << ", " << threads << " threads";
      EXPECT_LE(r.output_peak, window);
      EXPECT_GE(r.output_peak, 1u);
      EXPECT_EQ(seen.output_ids.size(), kTasks);
      if (window == 1) {
        EXPECT_EQ(r.output_peak, 1u);
      }
    }
}

TEST(OrderedOutput, ErrorsStopTheRunAndAreRethrown) {
  Job job = output_job(2000);
  auto inner = job.run_task_output;
  job.run_task_output = [inner](std::size_t id, Tally& t, std::string& text) {
    if (id == 700) throw std::runtime_error("task 700 failed");
    inner(id, t, text);
  };
  for (int threads : {1, 4}) {
    Seen seen;
    RunOptions o;
    o.threads = threads;
    watch(o, seen);
    EXPECT_THROW((void)run(job, o), std::runtime_error);
    EXPECT_LE(seen.output_ids.size(), 700u) << "nothing past the failed task is delivered";
  }
  // A consumer that throws (e.g. a write that failed) stops the run too.
  const Job plain = output_job(2000);
  RunOptions o;
  o.threads = 3;
  std::size_t calls = 0;
  o.on_output = [&calls](std::size_t id, std::string_view) {
    ++calls;
    if (id == 10) throw std::runtime_error("disk full");
  };
  EXPECT_THROW((void)run(plain, o), std::runtime_error);
  EXPECT_EQ(calls, 11u);
  // Ordered output and claim (MPI) do not mix.
  RunOptions claim;
  claim.claim = [] { return std::size_t{0}; };
  EXPECT_THROW((void)run(plain, claim), std::invalid_argument);
}

TEST(OrderedOutput, RecordsAndTotalsLikeAnyJob) {
  const Job job = output_job(500);
  RunOptions o;
  o.threads = 3;
  o.record_tasks = true;
  const RunResult r = run(job, o);
  ASSERT_EQ(r.tasks.size(), 500u);
  for (std::size_t i = 0; i < 500; ++i) {
    EXPECT_EQ(r.tasks[i].id, i);
    EXPECT_EQ(r.tasks[i].counts.counts[1], text_of(i).size());
  }
}

}  // namespace
}  // namespace pcount::engine
