#pragma once
// Running a job's tasks inside one task of a 2-thread run until a part of
// that task (engine/split.hpp) has run on the other thread: whether a part
// is taken depends on timing, so a test repeats the work, round after
// round, instead of hoping for one round.
#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "pcount/engine/runner.hpp"
#include "pcount/engine/split.hpp"

namespace pcount::test {

/// Runs every task of `inner` in the one task of a job on 2 threads, round
/// after round, until a part of it has run on the other thread (or a minute
/// has passed: the test then fails, and does not hang). Each round's
/// totals go to `rounds`.
inline engine::RunResult one_task_until_stolen(const engine::Job& inner, engine::SplitPolicy split,
                                               std::vector<engine::Tally>& rounds) {
  engine::Job job;
  job.fingerprint = "one task";
  job.counter_names = inner.counter_names;
  job.task_count = 1;
  job.splits = true;
  job.run_task = [&inner, &rounds](std::size_t, engine::Tally& out) {
    const engine::detail::SplitState* state = engine::detail::current_split();
    ASSERT_NE(state, nullptr);
    const auto until = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    do {
      engine::Tally round(inner.counter_names.size());
      for (std::size_t id = 0; id < inner.task_count; ++id) inner.run_task(id, round);
      rounds.push_back(round);
    } while (state->steals.load() == 0 && std::chrono::steady_clock::now() < until);
    out.merge(rounds.back());
  };
  engine::RunOptions options;
  options.threads = 2;
  options.split = split;
  return engine::run(job, options);
}

}  // namespace pcount::test
