#pragma once
// Jobs for the estimate_run tests (test_estimate_run.cpp, and the timing
// comparisons of long_estimate_run.cpp): synthetic tasks of known work.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "pcount/engine/estimate.hpp"
#include "pcount/engine/runner.hpp"

namespace pcount::test {

/// A job of `tasks` tasks; task i does work(i) rounds of an xorshift loop,
/// reports work(i) nodes and counts 1 in counter 0. Its estimate is work(i)
/// when `with_estimate`.
inline engine::Job busy_job(std::size_t tasks, std::uint64_t scale, bool with_estimate) {
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

inline double total_work(const engine::Job& job, const std::function<bool(std::size_t)>& include = {}) {
  double sum = 0.0;
  for (std::size_t id = 0; id < job.task_count; ++id)
    if (!include || include(id)) sum += job.estimate(id);
  return sum;
}

inline void expect_consistent(const engine::RunEstimate& e, const engine::RunEstimateOptions& o) {
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

/// A job whose task i is a tree of depth 3 whose node at path p has
/// 1 + hash(i, p) % 4 children, and whose every leaf does `rounds` rounds of
/// an xorshift loop; its leaf probe walks a random path and does one leaf.
/// `runs` counts the tasks run in full.
inline engine::Job leafy_job(std::size_t tasks, std::uint64_t rounds, std::shared_ptr<std::atomic<int>> runs) {
  const auto children = [](std::size_t id, std::uint64_t path) {
    std::uint64_t h = (id + 1) * 0x9E3779B97F4A7C15ULL ^ (path + 7) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    return 1 + static_cast<int>(h % 4);
  };
  const auto leaf = [rounds](std::uint64_t seed) {
    std::uint64_t x = seed | 1;
    for (std::uint64_t k = 0; k < rounds; ++k) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
    }
    return x;
  };
  engine::Job job;
  job.fingerprint = "leafy";
  job.counter_names = {"leaves"};
  job.task_count = tasks;
  job.run_task = [children, leaf, runs](std::size_t id, engine::Tally& t) {
    ++*runs;
    std::uint64_t sink = 0, leaves = 0;
    const auto walk = [&](auto&& self, int depth, std::uint64_t path) -> void {
      if (depth == 3) {
        sink ^= leaf(path + id);
        ++leaves;
        return;
      }
      for (int c = 0; c < children(id, path); ++c) self(self, depth + 1, path * 5 + static_cast<std::uint64_t>(c) + 1);
    };
    walk(walk, 0, 0);
    t.add(0, sink == 0 ? leaves + 1 : leaves);  // sink is never 0 (xorshift); keeps the loop
  };
  job.leaf_probe = [children, leaf](std::size_t id, std::mt19937_64& rng) {
    double weight = 1.0;
    std::uint64_t path = 0;
    for (int depth = 0; depth < 3; ++depth) {
      const int m = children(id, path);
      weight *= m;
      path = path * 5 + static_cast<std::uint64_t>(rng() % static_cast<unsigned>(m)) + 1;
    }
    volatile std::uint64_t keep = leaf(path + id);
    (void)keep;
    return weight;
  };
  return job;
}

}  // namespace pcount::test
