// N-Queens by meet in the middle: half placements keyed by their column set
// and boundary diagonals, joined by disjoint keys (include/pcount/queens/join.hpp).
// This file holds the tasks, their join and their estimates; the pieces are
// join_halves (the two halves of a task), join_weights (the diagonal
// reflection and the plan of a task's groups), join_parts (a group's half
// placements from the parts of each half), join_buckets (the key order and
// the bucketing), join_vector (one group's join: bucketing, then the
// kernel of the instruction-set path) and join_kernel.ipp (the vectorised
// join, built once per path by join_sse41.cpp, join_avx2.cpp, join_avx512.cpp).
#include "pcount/queens/join.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <span>
#include <utility>

#include "join_buckets.hpp"
#include "join_halves.hpp"
#include "join_parts.hpp"
#include "join_vector.hpp"
#include "join_weights.hpp"
#include "pcount/engine/simd.hpp"
#include "pcount/errors.hpp"
#include "pcount/queens/search.hpp"

namespace pcount::queens {

using namespace join_detail;

namespace {

void check_n_join(int n) {
  if (n < 1 || n > kMaxN) throw InvalidArgument("n", "must be a whole number from 1 to 32");
}

/// Throws InvalidArgument("path") for a path this CPU cannot run.
void check_path(engine::SimdPath path) {
  if (!engine::simd_path_supported(path))
    throw InvalidArgument("path", std::string("this CPU cannot run the ") + engine::simd_path_name(path) + " path");
}

}  // namespace

std::uint64_t count_disjoint_keys(int n, std::span<const std::uint64_t> top, std::span<const std::uint64_t> bottom,
                                  bool wide, engine::SimdPath path) {
  check_n_join(n);
  check_path(path);
  const KeyOrder order(n);
  std::vector<u64> t(top.size()), b(bottom.size());
  const u64 mask = n == 32 ? ~u64{0} : (u64{1} << (2 * n)) - 1;
  for (std::size_t i = 0; i < top.size(); ++i) {
    if (top[i] & ~mask) throw InvalidArgument("top", "keys must have at most 2n bits");
    t[i] = order(top[i]);
  }
  for (std::size_t i = 0; i < bottom.size(); ++i) {
    if (bottom[i] & ~mask) throw InvalidArgument("bottom", "keys must have at most 2n bits");
    b[i] = order(bottom[i]);
  }
  Scratch s;
  u64 tests = 0;
  return count_disjoint(t.data(), t.size(), b.data(), b.size(), order, s, tests, wide, nullptr, nullptr, path);
}

std::uint64_t count_disjoint_keys(int n, std::span<const std::uint64_t> top, std::span<const std::uint64_t> bottom,
                                  bool wide) {
  check_n_join(n);
  return count_disjoint_keys(n, top, bottom, wide, engine::simd_path());
}

std::pair<int, int> join_outer_range(int n) {
  // At most 20 inner columns (a task keeps one bucket per inner column
  // set); at most 18 outer columns for even n and 14 for odd n (about 2^18/4
  // tasks, or n·2^14/4: their list and estimates take a second to build).
  const int least = std::max(0, n - 20 + (n % 2));
  const int most = std::min(n < 3 ? 0 : n - 2, n % 2 == 0 ? 18 : 14);
  return {least, std::max(least, most)};
}

int default_join_outer(int n) {
  // Measured (results/queens.md): even n are fastest with 8 inner columns
  // (N = 16: 8 outer columns 0.61 s, 6: 0.67 s, 4: 1.1 s); odd n, whose
  // tasks are also split by the middle queen, with about 11 (N = 17: 4
  // outer columns 1.8 s, 6: 2.4 s, 8: 2.8 s; N = 19: 8 outer 61 s, 10:
  // 65 s). Beyond N = 20 (even) and 19 (odd) fewer inner columns keep a
  // task near 100 MB, so that 16 workers stay under 8 GiB through N = 21
  // (placements grow about 20× per 2 rows, tasks 4× per 2 outer columns).
  const int inner = n % 2 == 0 ? (n <= 20 ? 8 : 6) : (n < 20 ? 11 : 7);
  const auto [least, most] = join_outer_range(n);
  return std::clamp(n - inner, least, most);
}

void check_join(int n, int outer) {
  check_n_join(n);
  const auto [least, most] = join_outer_range(n);
  if (outer < least || outer % 2 != 0 || outer > most)
    throw InvalidArgument("outer", "must be an even number from " + std::to_string(least) + " to " + std::to_string(most));
}

std::vector<JoinTask> join_tasks(int n, int outer) {
  check_join(n, outer);
  const Geometry g(n, outer);
  std::vector<JoinTask> tasks;
  const int first_m = g.odd ? 0 : -1, last_m = g.odd ? n - 1 : -1;
  for (int m = first_m; m <= last_m; ++m) {
    const u32 outer_free = g.outer_mask & ~bit(m);
    for (u32 p = 0;; p = (p - outer_free) & outer_free) {  // every subset of the free outer columns
      const u32 q = outer_free & ~p;                       // the bottom half's outer columns
      if (std::popcount(p) <= g.rows && std::popcount(q) <= g.rows) {
        bool canonical = true;
        const int mm = m < 0 ? -1 : n - 1 - m;
        const std::pair<int, u32> mine{m, p};
        for (const auto& other : {std::pair<int, u32>{m, q}, std::pair<int, u32>{mm, mirror_columns(p, n)},
                                  std::pair<int, u32>{mm, mirror_columns(q, n)}})
          if (other < mine) canonical = false;
        if (canonical) tasks.push_back(JoinTask{m, p});
      }
      if (p == outer_free) break;
    }
  }
  return tasks;
}

JoinTaskCount count_join_task(int n, int outer, const JoinTask& t, bool diagonal, engine::SimdPath path) {
  check_join(n, outer);
  const Geometry g(n, outer, diagonal);
  thread_local Scratch s;
  thread_local std::unique_ptr<KeyOrder> order;
  thread_local std::unique_ptr<DiagonalOrder> reflection;
  thread_local int order_n = 0;
  if (!order || order_n != n) {
    order = std::make_unique<KeyOrder>(n);
    reflection = std::make_unique<DiagonalOrder>(g.rows);
    order_n = n;
  }
  const std::size_t groups = std::size_t{g.group_mask} + 1;
  thread_local std::vector<GroupPlan> plan;
  plan_groups(g, t, *reflection, plan);
  Half top = top_half(g, t), bottom = bottom_half(g, t);
  prune_halves(g, t, *reflection, top, bottom);
  thread_local Parts parts;
  const int h = (g.rows + 1) / 2;
  build_parts(top, *order, h, parts.buffers, parts.top_upper, parts.top_lower);
  build_parts(bottom, *order, h, parts.buffers, parts.bottom_upper, parts.bottom_lower);
  JoinTaskCount out;
  u64 tests = 0;
  for (std::size_t gi = 0; gi < groups; ++gi) {
    const GroupPlan& p = plan[gi];
    if (!p.join) continue;
    const u32 columns = t.outer | (static_cast<u32>(gi) << g.group_shift);
    build_group(parts.top_upper, parts.top_lower, columns, g.rows, h, p, parts.top);
    if (parts.top.count == 0) continue;
    build_group(parts.bottom_upper, parts.bottom_lower, g.complement(columns, t.middle), g.rows, h, p, parts.bottom);
    out.placements += u128{parts.top.count} + parts.bottom.count;
    if (parts.bottom.count == 0) continue;
    engine::throw_if_stopped();
    const u64* tk = parts.top.keys.data();
    const u64* bk = parts.bottom.keys.data();
    u128 value = 0;
    if (p.weighted) {
      const Weighting w{parts.top.lams.data(), parts.bottom.lams.data(), reflection.get(), p.least};
      u64 shortfall = 0;
      const u64 pairs =
          count_disjoint(tk, parts.top.count, bk, parts.bottom.count, *order, s, tests, false, &w, &shortfall, path);
      // each pair with a tie is one of the fits, short of 2 by at most 2
      if (shortfall > 2 * u128{pairs}) throw InternalError("queens join: a group's weights exceed its fits");
      value = 2 * u128{pairs} - shortfall;
    } else {
      value =
          count_disjoint(tk, parts.top.count, bk, parts.bottom.count, *order, s, tests, false, nullptr, nullptr, path);
    }
    out.solutions = checked_add(out.solutions, checked_mul(static_cast<u128>(p.size), value));
  }
  out.pair_tests = tests;
  return out;
}

double estimate_join_placements(int n, int outer, const JoinTask& t, int probes) {
  check_join(n, outer);
  const Geometry g(n, outer);
  const Half top = top_half(g, t), bottom = bottom_half(g, t);
  std::mt19937_64 rng(0x9e3779b97f4a7c15ull ^ (static_cast<u64>(t.middle + 1) << 40) ^ t.outer);
  double sum = 0;
  for (int i = 0; i < probes; ++i) sum += top.probe(rng) + bottom.probe(rng);
  return probes > 0 ? sum / probes : 0.0;
}

namespace {

/// Per task: estimated placements and join work (placements² over groups).
struct TaskEstimate {
  double placements = 0;
  double work = 0;
};

/// The tasks of (n, outer) and their estimates, built once per process
/// (the plan asks for the memory estimate, then builds the job).
struct TaskList {
  std::vector<JoinTask> tasks;
  std::vector<TaskEstimate> estimates;
};

std::vector<TaskEstimate> estimate_tasks(int n, int outer, const std::vector<JoinTask>& tasks) {
  const Geometry g(n, outer);
  std::vector<TaskEstimate> e;
  e.reserve(tasks.size());
  // 64 probes per task, fewer for long lists (at least 8): the estimates
  // only order the tasks and size the memory check.
  const int probes = static_cast<int>(std::clamp<std::size_t>(4'000'000 / std::max<std::size_t>(1, tasks.size()), 8, 64));
  for (const JoinTask& t : tasks) {
    const double p = estimate_join_placements(n, outer, t, probes);
    // column sets of the task: inner columns choose the rest of the a top columns
    const int inner_free = n - outer - ((t.middle >= 0 && !((g.outer_mask >> t.middle) & 1u)) ? 1 : 0);
    const int k = g.rows - std::popcount(t.outer);
    double sets = 1;
    for (int i = 0; i < k; ++i) sets = sets * (inner_free - i) / (i + 1);
    e.push_back({p, p + p * p / 4.0 / std::max(1.0, sets)});
  }
  return e;
}

std::shared_ptr<const TaskList> task_list(int n, int outer) {
  static std::mutex mutex;
  static std::map<std::pair<int, int>, std::shared_ptr<const TaskList>> cache;
  const std::lock_guard lock(mutex);
  auto& entry = cache[{n, outer}];
  if (!entry) {
    auto list = std::make_shared<TaskList>();
    list->tasks = join_tasks(n, outer);
    list->estimates = estimate_tasks(n, outer, list->tasks);
    entry = std::move(list);
  }
  return entry;
}

}  // namespace

engine::Job make_join_job(int n, int outer, const std::string& fingerprint, engine::SimdPath path) {
  check_join(n, outer);
  check_path(path);
  const std::shared_ptr<const TaskList> list = task_list(n, outer);
  const std::shared_ptr<const std::vector<JoinTask>> tasks(list, &list->tasks);
  const std::shared_ptr<const std::vector<TaskEstimate>> estimates(list, &list->estimates);
  const std::size_t count = tasks->size();
  engine::Job job;
  job.fingerprint = fingerprint + " outer=" + std::to_string(outer);
  job.counter_names = {"all", "rot180", "rot90"};
  job.task_count = count + 2;
  job.split_depth = -1;
  job.run_task = [n, outer, tasks, count, path](std::size_t id, engine::Tally& out) {
    if (id >= count) {
      const bool half = id == count;
      add_rotation_symmetric(n, half, half ? kJRot180 : kJRot90, out);
      return;
    }
    const JoinTaskCount c = count_join_task(n, outer, (*tasks)[id], true, path);
    out.add(kJAll, c.solutions);
    out.nodes = checked_add(out.nodes, c.placements);
  };
  job.estimate = [estimates, count](std::size_t id) { return id < count ? (*estimates)[id].work : 0.0; };
  // Size estimate in search-node equivalents for the feasibility check
  // (which assumes 1e9 nodes per second): a placement costs about one node,
  // and the join tests about a tenth of the key pairs (bucketing), ten per
  // node's time, so pairs / 100.
  job.probe = [estimates, count](std::size_t id, std::mt19937_64&) {
    if (id >= count) return 0.0;
    const TaskEstimate& e = (*estimates)[id];
    return e.placements + (e.work - e.placements) / 100.0;
  };
  return job;
}

double join_memory_estimate(int n, int outer, int workers) {
  check_join(n, outer);
  const auto& e = task_list(n, outer)->estimates;
  double largest = 0;
  for (const auto& x : e) largest = std::max(largest, x.placements);
  // 32 bytes per placement bound the task's parts (28 bytes per part
  // placement while built, with room for vector growth; far fewer part
  // placements than half placements: N = 18, 81 thousand against 410
  // thousand per task) and one group's placements; plus about 1 MiB of
  // tables and one group's buckets per worker.
  // The program itself (code, libraries, thread stacks) takes about 16 MiB.
  return static_cast<double>(std::max(1, workers)) * (largest * (12.0 * 2.0 + 8.0) + (1 << 20)) + (16 << 20);
}

QueensCounts join_counts(int n, const engine::Tally& totals) {
  return burnside(n, totals.get(kJAll), totals.get(kJRot180), totals.get(kJRot90));
}

}  // namespace pcount::queens
