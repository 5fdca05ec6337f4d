// Cancellation inside a task (engine::stop_requested, throw_if_stopped,
// TaskAbandoned): a task that would never end on its own is given up when
// the cancel flag is set while it runs, and leaves no trace (no counts, no
// on_task_done, no output), whichever path the runner takes (plain,
// claimed, ordered output). No timing assertions: the tests end because
// cancellation works.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "pcount/engine/runner.hpp"

namespace pcount::engine {
namespace {

/// Loops until the run is being stopped, then abandons the task.
void run_forever(std::atomic<bool>& started) {
  started = true;
  while (!stop_requested()) std::this_thread::yield();
  throw_if_stopped();
  ADD_FAILURE() << "throw_if_stopped returned although stop_requested was true";
}

/// Waits (yielding) until `ready()` holds.
template <class F>
void wait_for(F ready) {
  while (!ready()) std::this_thread::yield();
}

struct Watched {
  std::mutex mutex;
  std::set<std::size_t> done_ids;
  std::string bytes;
};

void watch(RunOptions& o, Watched& w) {
  o.on_task_done = [&w](std::size_t id, const Tally&, double) {
    std::lock_guard lock(w.mutex);
    w.done_ids.insert(id);
  };
  o.on_output = [&w](std::size_t, std::string_view text) { w.bytes += text; };
}

TEST(Abandon, StopRequestedIsFalseOutsideARunAndWithoutAFlag) {
  EXPECT_FALSE(stop_requested());
  EXPECT_NO_THROW(throw_if_stopped());
  Job job;
  job.counter_names = {"n"};
  job.task_count = 3;
  std::atomic<int> stops{0};
  job.run_task = [&](std::size_t, Tally& t) {
    if (stop_requested()) ++stops;
    t.add(0, 1);
  };
  RunOptions o;
  o.threads = 2;
  const RunResult r = run(job, o);
  EXPECT_EQ(stops.load(), 0);
  EXPECT_EQ(r.totals.get(0), 3u);
  EXPECT_FALSE(stop_requested()) << "the runner clears the flag after each task";
}

TEST(Abandon, ALongTaskIsAbandonedAndLeavesNoTrace) {
  for (const bool claimed : {false, true}) {
    Job job;
    job.counter_names = {"n"};
    job.task_count = 4;  // tasks 0-2 are quick, task 3 never ends by itself
    std::atomic<bool> started{false};
    std::atomic<int> quick_done{0};
    job.run_task = [&](std::size_t id, Tally& t) {
      t.add(0, 1);  // added before abandoning: must not reach the totals
      if (id == 3) run_forever(started);
      ++quick_done;
    };
    std::atomic<bool> cancel{false};
    std::atomic<std::size_t> next{0};
    Watched w;
    RunOptions o;
    o.threads = 2;
    o.cancel = &cancel;
    o.record_tasks = true;
    if (claimed) o.claim = [&] { return next.fetch_add(1); };
    watch(o, w);
    RunResult r;
    std::thread runner([&] { r = run(job, o); });
    wait_for([&] { return started.load() && quick_done.load() == 3; });
    cancel = true;
    runner.join();
    EXPECT_TRUE(r.interrupted) << claimed;
    EXPECT_EQ(r.tasks_run, 3u);
    EXPECT_EQ(r.tasks_abandoned, 1u);
    EXPECT_EQ(r.totals.get(0), 3u) << "the abandoned task's count is dropped";
    EXPECT_EQ(w.done_ids, (std::set<std::size_t>{0, 1, 2})) << "on_task_done never sees the abandoned task";
    ASSERT_EQ(r.tasks.size(), 3u);
    for (const TaskRecord& t : r.tasks) EXPECT_NE(t.id, 3u);
  }
}

TEST(Abandon, OrderedOutputDeliversUpToTheAbandonedTaskOnly) {
  for (int threads : {2, 3}) {
    Job job;
    job.counter_names = {"n"};
    job.task_count = 6;  // task 2 never ends by itself; the others are quick
    std::atomic<bool> started{false};
    std::atomic<int> quick_done{0};
    job.run_task_output = [&](std::size_t id, Tally& t, std::string& text) {
      t.add(0, 1);
      text = std::to_string(id) + ";";
      if (id == 2) run_forever(started);
      ++quick_done;
    };
    std::atomic<bool> cancel{false};
    Watched w;
    RunOptions o;
    o.threads = threads;
    o.cancel = &cancel;
    o.output_window = 16;
    o.record_tasks = true;
    watch(o, w);
    RunResult r;
    std::thread runner([&] { r = run(job, o); });
    // Every other task finishes (the window holds them all) before the stop.
    wait_for([&] { return started.load() && quick_done.load() == 5; });
    cancel = true;
    runner.join();
    EXPECT_TRUE(r.interrupted);
    EXPECT_EQ(w.bytes, "0;1;") << "nothing past the abandoned task is delivered";
    EXPECT_EQ(w.done_ids, (std::set<std::size_t>{0, 1}));
    EXPECT_EQ(r.tasks_run, 2u);
    EXPECT_EQ(r.tasks_abandoned, 4u) << "task 2, and 3-5 dropped after it";
    EXPECT_EQ(r.totals.get(0), 2u) << "only delivered tasks count";
    ASSERT_EQ(r.tasks.size(), 2u);
    EXPECT_EQ(r.tasks[1].id, 1u);
  }
}

TEST(Abandon, WithoutAStopAHugeTaskCountStillRunsEveryTask) {
  // The checks themselves change nothing: a run that is not stopped counts
  // every task even when its kernels poll (StopPoll) all the time.
  Job job;
  job.counter_names = {"n"};
  job.task_count = 50;
  job.run_task = [](std::size_t, Tally& t) {
    StopPoll<7> poll;
    for (int i = 0; i < 1000; ++i) poll.tick();
    t.add(0, 1);
  };
  std::atomic<bool> cancel{false};
  RunOptions o;
  o.threads = 2;
  o.cancel = &cancel;
  const RunResult r = run(job, o);
  EXPECT_FALSE(r.interrupted);
  EXPECT_EQ(r.totals.get(0), 50u);
  EXPECT_EQ(r.tasks_abandoned, 0u);
}

}  // namespace
}  // namespace pcount::engine
