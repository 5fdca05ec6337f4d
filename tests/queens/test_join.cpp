// N-Queens by meet in the middle (--method join): known values N = 1..15
// against OEIS and against the tree search, every outer-column split, every
// thread count, shards of the task list, and the task list's symmetry
// classes checked by brute force.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "known_values.hpp"
#include "pcount/errors.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/queens/join.hpp"
#include "pcount/queens/search.hpp"

namespace pcount::queens {
namespace {

using test::queens_known;

QueensCounts known(int n) {
  const auto& k = queens_known(n);
  return QueensCounts{k.all, k.distinct, k.rot180, k.rot90};
}

QueensCounts run_join(int n, int outer, int threads) {
  const engine::Job job = make_join_job(n, outer, "test");
  engine::RunOptions options;
  options.threads = threads;
  return join_counts(n, engine::run(job, options).totals);
}

TEST(QueensJoin, KnownValuesOneToFifteenWithTheDefaultSplit) {
  for (int n = 1; n <= 15; ++n) {
    const QueensCounts c = run_join(n, default_join_outer(n), 2);
    EXPECT_EQ(c, known(n)) << "n=" << n << ": Q " << to_string(c.all) << " U " << to_string(c.distinct);
  }
}

TEST(QueensJoin, AgreesWithSearchForEveryOuterSplit) {
  for (int n = 1; n <= 13; ++n) {
    const engine::Job job = make_search_job(n, 2, "test");
    engine::RunOptions options;
    options.threads = 2;
    const QueensCounts by_search = search_counts(n, engine::run(job, options).totals);
    for (int outer = 0; outer <= (n < 3 ? 0 : n - 2); outer += 2)
      EXPECT_EQ(run_join(n, outer, 2), by_search) << "n=" << n << " outer=" << outer;
  }
}

// The whole job on each instruction-set path, forced through
// make_join_job's `path` as the sudoku tests force each simd9 path: the
// 16-byte SSE4.1 copy of the kernel, which a CPU with AVX2 never picks by
// itself, gives the published counts too (Q(12) = 14200, Q(14) = 365596,
// OEIS A000170; odd 13 joins without the diagonal weights, even 12 and 14
// with them). A path this CPU lacks is refused before any work.
TEST(QueensJoin, EveryForcedPathGivesThePublishedCounts) {
  engine::RunOptions options;
  options.threads = 2;
  for (engine::SimdPath path : {engine::SimdPath::sse41, engine::SimdPath::avx2, engine::SimdPath::avx512}) {
    if (!engine::simd_path_supported(path)) {
      EXPECT_THROW((void)make_join_job(12, default_join_outer(12), "test", path), InvalidArgument);
      continue;
    }
    for (int n : {12, 13, 14}) {
      const engine::Tally totals = engine::run(make_join_job(n, default_join_outer(n), "test", path), options).totals;
      EXPECT_EQ(join_counts(n, totals), known(n)) << "n=" << n << " " << engine::simd_path_name(path);
      if (n != 13) {
        EXPECT_EQ(totals.counts[kJAll], n == 12 ? 14200u : 365596u) << engine::simd_path_name(path);
      }
    }
  }
}

TEST(QueensJoin, SameCountsForEveryThreadCount) {
  for (int n : {9, 12, 14})
    for (int threads : {1, 2, 4}) EXPECT_EQ(run_join(n, 4, threads), known(n)) << "n=" << n << " threads=" << threads;
}

TEST(QueensJoin, ThreeShardsSumToTheWhole) {
  const int n = 13, outer = 4;
  const engine::Job job = make_join_job(n, outer, "test");
  u128 all = 0;
  for (std::size_t shard = 0; shard < 3; ++shard) {
    engine::Tally part(job.counter_names.size());
    for (std::size_t id = shard; id < job.task_count; id += 3) job.run_task(id, part);
    all += part.get(kJAll);
  }
  EXPECT_EQ(all, u128{known(n).all});
}

// Brute force over (middle, outer mask): the tasks are exactly one member of
// each class under the mirror and the top–bottom turn, the least one.
TEST(QueensJoin, TasksAreTheLeastMemberOfEachClass) {
  for (int n : {6, 7, 10, 11}) {
    const int outer = 4, side = outer / 2;
    const std::uint32_t low = (1u << side) - 1, outer_mask = low | (low << (n - side));
    const auto mirror = [n](std::uint32_t x) {
      std::uint32_t r = 0;
      for (int c = 0; c < n; ++c)
        if ((x >> c) & 1u) r |= 1u << (n - 1 - c);
      return r;
    };
    std::set<std::pair<int, std::uint32_t>> expected;
    const bool odd = n % 2 == 1;
    for (int m = odd ? 0 : -1; m <= (odd ? n - 1 : -1); ++m) {
      const std::uint32_t mb = m < 0 ? 0 : 1u << m;
      for (std::uint32_t p = 0; p <= outer_mask; ++p) {
        if ((p & ~outer_mask) || (p & mb)) continue;
        const std::uint32_t q = outer_mask & ~p & ~mb;
        if (std::popcount(p) > n / 2 || std::popcount(q) > n / 2) continue;
        const int mm = m < 0 ? -1 : n - 1 - m;
        const std::pair<int, std::uint32_t> mine{m, p};
        if (std::min({mine, std::pair{m, q}, std::pair{mm, mirror(p)}, std::pair{mm, mirror(q)}}) == mine)
          expected.insert(mine);
      }
    }
    std::set<std::pair<int, std::uint32_t>> got;
    for (const JoinTask& t : join_tasks(n, outer)) EXPECT_TRUE(got.insert({t.middle, t.outer}).second);
    EXPECT_EQ(got, expected) << "n=" << n;
  }
}

TEST(QueensJoin, TasksHaveEstimatesAndTheTwoSymmetricSearchesComeLast) {
  const engine::Job job = make_join_job(12, 4, "fp");
  const std::size_t t = join_tasks(12, 4).size();
  ASSERT_EQ(job.task_count, t + 2);
  for (std::size_t id = 0; id < t; ++id) EXPECT_GT(job.estimate(id), 0.0) << id;
  engine::Tally half(job.counter_names.size()), quarter(job.counter_names.size());
  job.run_task(t, half);
  job.run_task(t + 1, quarter);
  EXPECT_EQ(half.get(kJRot180), u128{known(12).rot180});
  EXPECT_EQ(quarter.get(kJRot90), u128{known(12).rot90});
  EXPECT_NE(job.fingerprint.find("outer=4"), std::string::npos);
}

// Non-attacking queens on rows r..a−1 of an n×n board (a = n/2), one per
// row, in `allowed` columns, every `must` column used, none attacked by a
// middle queen in row a, column m (m < 0: none); column[i] is row i's queen.
double half_placements(int n, int m, int r, std::uint32_t allowed, std::uint32_t must, std::vector<int>& column) {
  const int a = n / 2;
  if (r == a) {
    std::uint32_t cols = 0;
    for (int i = 0; i < a; ++i) cols |= 1u << column[static_cast<std::size_t>(i)];
    return (must & ~cols) == 0 ? 1.0 : 0.0;
  }
  double sum = 0;
  for (int c = 0; c < n; ++c) {
    bool free = ((allowed >> c) & 1u) != 0 && c != m && !(m >= 0 && std::abs(c - m) == a - r);
    for (int i = 0; free && i < r; ++i) {
      const int d = c - column[static_cast<std::size_t>(i)];
      free = d != 0 && std::abs(d) != r - i;
    }
    if (!free) continue;
    column[static_cast<std::size_t>(r)] = c;
    sum += half_placements(n, m, r + 1, allowed, must, column);
  }
  return sum;
}

TEST(QueensJoin, PlacementEstimatesAreNearTheTruth) {
  // Knuth's estimator is unbiased; with 4096 probes the mean of a task's
  // estimate is within 10 % of its half placements, counted here by brute
  // force (rows are placed in order, so a placement is placed once).
  for (const auto& [n, outer] : {std::pair{12, 4}, std::pair{11, 2}}) {
    const std::uint32_t full = (1u << n) - 1u, side = (1u << (outer / 2)) - 1u;
    const std::uint32_t outer_mask = side | (side << (n - outer / 2));
    double estimated = 0, actual = 0;
    for (const JoinTask& t : join_tasks(n, outer)) {
      estimated += estimate_join_placements(n, outer, t, 4096);
      const std::uint32_t middle = t.middle < 0 ? 0u : 1u << t.middle;
      const std::uint32_t bottom_outer = outer_mask & ~t.outer & ~middle;
      std::vector<int> column(static_cast<std::size_t>(n / 2));
      actual += half_placements(n, t.middle, 0, full & ~(outer_mask & ~t.outer), t.outer, column) +
                half_placements(n, t.middle, 0, full & ~(outer_mask & ~bottom_outer), bottom_outer, column);
    }
    EXPECT_NEAR(estimated / actual, 1.0, 0.1) << n;
  }
}

// The reflection in the main diagonal weights each pair 2, 1 or 0 and
// prunes half placements that pair with nothing: the tasks' own totals
// change, their sum must not (OEIS A000170), for every outer split, and
// fewer placements are enumerated.
TEST(QueensJoin, DiagonalReflectionKeepsTheTotalAndEnumeratesFewerPlacements) {
  for (int n = 4; n <= 14; n += 2) {
    const auto [least, most] = join_outer_range(n);
    for (int outer = least; outer <= most; outer += 2) {
      u128 with = 0, without = 0, placed_with = 0, placed_without = 0;
      std::size_t differ = 0;
      for (const JoinTask& t : join_tasks(n, outer)) {
        const JoinTaskCount a = count_join_task(n, outer, t, true), b = count_join_task(n, outer, t, false);
        with += a.solutions;
        without += b.solutions;
        placed_with += a.placements;
        placed_without += b.placements;
        if (a.solutions != b.solutions) ++differ;
      }
      EXPECT_EQ(with, known(n).all) << "n=" << n << " outer=" << outer;
      EXPECT_EQ(without, known(n).all) << "n=" << n << " outer=" << outer;
      EXPECT_LE(placed_with, placed_without) << "n=" << n << " outer=" << outer;
      // the weights are in use: some task's own total moved
      if (n >= 8 && outer >= 2) {  // one task (outer 0) holds both ends of every swap
        EXPECT_GT(differ, 0u) << "n=" << n << " outer=" << outer;
      }
    }
  }
  // and the pruning cuts real work at the default split
  u128 placed_with = 0, placed_without = 0;
  for (const JoinTask& t : join_tasks(14, default_join_outer(14))) {
    placed_with += count_join_task(14, default_join_outer(14), t, true).placements;
    placed_without += count_join_task(14, default_join_outer(14), t, false).placements;
  }
  EXPECT_LT(placed_with * 10, placed_without * 9);
}

// The bucketed, vectorised join of one column set against a double loop
// written here: random keys of several densities (zero keys included,
// which meet the bucket padding), sizes around the bucketing thresholds,
// in 32-bit and forced 64-bit lanes, on every instruction-set path this
// CPU runs (16, 32 or 64 bytes per vector).
TEST(QueensJoin, DisjointPairCountsMatchADoubleLoop) {
  std::mt19937_64 rng(20261123);
  for (int n : {2, 5, 9, 12, 16, 18, 23, 32}) {
    const std::uint64_t mask = n == 32 ? ~std::uint64_t{0} : (std::uint64_t{1} << (2 * n)) - 1;
    for (const auto& [nt, nb] : {std::pair<int, int>{0, 5}, {1, 1}, {7, 33}, {300, 41}, {900, 1200}, {2500, 2600}}) {
      for (int density : {1, 4, 8}) {  // each bit set with probability density/16
        auto draw = [&] {
          std::uint64_t k = 0;
          for (int b = 0; b < 2 * n; ++b)
            if (static_cast<int>(rng() % 16) < density) k |= std::uint64_t{1} << b;
          return k & mask;
        };
        std::vector<std::uint64_t> top(static_cast<std::size_t>(nt)), bottom(static_cast<std::size_t>(nb));
        for (auto& k : top) k = draw();
        for (auto& k : bottom) k = draw();
        if (!top.empty()) top[0] = 0;  // a zero key fits everything
        std::uint64_t expected = 0;
        for (const std::uint64_t x : top)
          for (const std::uint64_t y : bottom) expected += (x & y) == 0 ? 1 : 0;
        EXPECT_EQ(count_disjoint_keys(n, top, bottom), expected) << "n=" << n << " sizes " << nt << "×" << nb;
        for (engine::SimdPath path : {engine::SimdPath::sse41, engine::SimdPath::avx2, engine::SimdPath::avx512}) {
          if (!engine::simd_path_supported(path)) continue;
          for (bool wide : {false, true})
            EXPECT_EQ(count_disjoint_keys(n, top, bottom, wide, path), expected)
                << "n=" << n << " sizes " << nt << "×" << nb << " " << engine::simd_path_name(path) << " wide " << wide;
        }
      }
    }
  }
  const std::vector<std::uint64_t> one{std::uint64_t{1} << 10};
  EXPECT_THROW((void)count_disjoint_keys(5, one, one), InvalidArgument);
  EXPECT_THROW((void)count_disjoint_keys(0, one, one), InvalidArgument);
  if (!engine::simd_path_supported(engine::SimdPath::avx512)) {
    EXPECT_THROW((void)count_disjoint_keys(8, one, one, false, engine::SimdPath::avx512), InvalidArgument);
  }
}

TEST(QueensJoin, BadSplitsAreRefused) {
  EXPECT_THROW(check_join(0, 0), InvalidArgument);
  EXPECT_THROW(check_join(33, 0), InvalidArgument);
  EXPECT_THROW(check_join(12, 3), InvalidArgument);
  EXPECT_THROW(check_join(12, 12), InvalidArgument);
  EXPECT_THROW(check_join(12, -2), InvalidArgument);
  EXPECT_THROW(check_join(24, 2), InvalidArgument);  // 22 inner columns
  EXPECT_NO_THROW(check_join(24, 4));
}

}  // namespace
}  // namespace pcount::queens
