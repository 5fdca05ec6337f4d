// N-Queens by border constellations: known values N = 1..16, agreement with
// the tree search, invariance under threads and task grouping, and the
// canonical constellation list itself.
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "known_values.hpp"
#include "pcount/errors.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/queens/constellations.hpp"
#include "pcount/queens/search.hpp"

namespace pcount::queens {
namespace {

using test::queens_known;

engine::RunOptions threads_only(int threads) {
  engine::RunOptions options;
  options.threads = threads;
  return options;
}

QueensCounts run_constellations(int n, std::size_t group, int threads) {
  const engine::Job job = make_constellation_job(n, group, "test");
  engine::RunOptions options;
  options.threads = threads;
  return constellation_counts(n, engine::run(job, options).totals);
}

QueensCounts known(int n) {
  const auto& k = queens_known(n);
  return QueensCounts{k.all, k.distinct, k.rot180, k.rot90};
}

TEST(QueensConstellations, KnownValuesOneToFifteen) {
  for (int n = 1; n <= 15; ++n) EXPECT_EQ(run_constellations(n, 1, 2), known(n)) << "n=" << n;
}

TEST(QueensConstellations, KnownValuesSixteen) { EXPECT_EQ(run_constellations(16, 4, 2), known(16)); }

TEST(QueensConstellations, AgreeWithSearchUpToFourteen) {
  for (int n = 1; n <= 14; ++n) {
    const engine::Job job = make_search_job(n, 2, "test");
    const QueensCounts by_search = search_counts(n, engine::run(job, threads_only(2)).totals);
    EXPECT_EQ(run_constellations(n, 3, 2), by_search) << "n=" << n;
  }
}

TEST(QueensConstellations, SameCountsForEveryThreadCountAndGrouping) {
  for (int n : {5, 8, 11, 12}) {
    const std::size_t count = canonical_constellations(n).size();
    for (int threads : {1, 2, 4})
      for (std::size_t group : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7}, count, count + 5})
        EXPECT_EQ(run_constellations(n, group, threads), known(n))
            << "n=" << n << " threads=" << threads << " group=" << group;
  }
}

TEST(QueensConstellations, EveryGroupSizeGivesTheSameCounts) {
  const int n = 7;
  const std::size_t count = canonical_constellations(n).size();
  for (std::size_t group = 1; group <= count + 1; ++group)
    for (int threads : {1, 2, 4})
      EXPECT_EQ(run_constellations(n, group, threads), known(n)) << "group=" << group << " threads=" << threads;
}

/// The constellation job's totals at `threads` threads under `split`.
engine::Tally constellation_totals(int n, std::size_t group, int threads, engine::SplitPolicy split) {
  engine::RunOptions options = threads_only(threads);
  options.split = split;
  return engine::run(make_constellation_job(n, group, "test"), options).totals;
}

// A task gives its later constellations and parts of a constellation's
// search away (engine/split.hpp): the counts are the published ones and
// the counts and nodes those of the static run, at 1, 2 and 4 threads.
TEST(QueensConstellations, PartsGivenAwayCountTheSame) {
  EXPECT_TRUE(make_constellation_job(12, 1, "x").splits);
  for (int n : {12, 13, 14})
    for (std::size_t group : {std::size_t{1}, std::size_t{7}, std::size_t{1000}}) {
      const engine::Tally reference = constellation_totals(n, group, 1, engine::SplitPolicy::none);
      EXPECT_EQ(constellation_counts(n, reference), known(n)) << n;
      for (int threads : {1, 2, 4})
        for (engine::SplitPolicy split : {engine::SplitPolicy::idle, engine::SplitPolicy::always})
          EXPECT_EQ(constellation_totals(n, group, threads, split), reference)
              << "n=" << n << " group=" << group << " threads=" << threads << " policy=" << static_cast<int>(split);
    }
}

TEST(QueensConstellations, TasksAreGroupsPlusTwoSearchesWithEstimates) {
  const std::size_t count = canonical_constellations(12).size();
  EXPECT_EQ(make_constellation_job(12, 1, "x").task_count, count + 2);
  EXPECT_EQ(make_constellation_job(12, 10, "x").task_count, (count + 9) / 10 + 2);
  const engine::Job job = make_constellation_job(12, 1, "x");
  ASSERT_TRUE(job.estimate);
  bool differ = false;
  for (std::size_t id = 1; id < count; ++id) differ = differ || job.estimate(id) != job.estimate(0);
  EXPECT_TRUE(differ);
  EXPECT_NE(make_constellation_job(12, 1, "x").fingerprint, make_constellation_job(12, 2, "x").fingerprint);
}

TEST(QueensConstellations, ListIsCanonicalPeacefulAndCoversEveryOrbit) {
  const int n = 9;
  const auto list = canonical_constellations(n);
  std::set<std::tuple<int, int, int, int>> seen;
  int weighted = 0;
  for (const Constellation& c : list) {
    EXPECT_TRUE(seen.insert({c.top, c.bottom, c.left, c.right}).second);
    EXPECT_TRUE(c.stabiliser & 1u);  // the identity fixes everything
    EXPECT_TRUE(stabiliser_order(c) == 1 || stabiliser_order(c) == 2 || stabiliser_order(c) == 4 ||
                stabiliser_order(c) == 8);
    weighted += weight(c);
  }
  // Brute force: peaceful border constellations of the 9×9 board, one queen per border line.
  int all = 0;
  for (int t = 0; t < n; ++t)
    for (int b = 0; b < n; ++b)
      for (int l = 0; l < n; ++l)
        for (int r = 0; r < n; ++r) {
          std::vector<Square> q{{0, t}, {n - 1, b}, {l, 0}, {r, n - 1}};
          bool ok = true;
          for (std::size_t i = 0; i < q.size() && ok; ++i)
            for (std::size_t j = i + 1; j < q.size() && ok; ++j) {
              if (q[i] == q[j]) continue;
              const auto [ri, ci] = q[i];
              const auto [rj, cj] = q[j];
              ok = ri != rj && ci != cj && ri - ci != rj - cj && ri + ci != rj + cj;
            }
          all += ok;
        }
  EXPECT_EQ(weighted, all);
  EXPECT_THROW((void)canonical_constellations(0), InvalidArgument);
  EXPECT_THROW((void)make_constellation_job(8, 0, "x"), InvalidArgument);
}

TEST(QueensConstellations, MismatchedTotalsAreInternalErrors) {
  const engine::Job job = make_constellation_job(8, 1, "x");
  engine::Tally t = engine::run(job, threads_only(1)).totals;
  EXPECT_EQ(constellation_counts(8, t), known(8));
  engine::Tally bad = t;
  bad.counts[kCDistinct] += 1;
  EXPECT_THROW((void)constellation_counts(8, bad), InternalError);
  bad = t;
  bad.counts[kCRot180Search] += 8;
  EXPECT_THROW((void)constellation_counts(8, bad), InternalError);
  bad = t;
  bad.counts[kCAll] += 1;
  EXPECT_THROW((void)constellation_counts(8, bad), InternalError);
}

}  // namespace
}  // namespace pcount::queens
