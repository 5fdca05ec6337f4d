// N-Queens by tree search: known values, symmetric searches, invariance of
// the counts under thread count and split depth, and the D4 helpers.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "known_values.hpp"
#include "pcount/errors.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/queens/search.hpp"
#include "pcount/queens/symmetry.hpp"

namespace pcount::queens {
namespace {

using test::queens_known;

QueensCounts run_search(int n, int depth, int threads) {
  const engine::Job job = make_search_job(n, depth, "test");
  engine::RunOptions options;
  options.threads = threads;
  return search_counts(n, engine::run(job, options).totals);
}

TEST(QueensSearch, KnownValuesOneToFourteen) {
  for (int n = 1; n <= 14; ++n) {
    const auto& k = queens_known(n);
    const QueensCounts c = run_search(n, 2, 2);
    EXPECT_EQ(c.all, k.all) << "n=" << n;
    EXPECT_EQ(c.distinct, k.distinct) << "n=" << n;
    EXPECT_EQ(c.rot180, k.rot180) << "n=" << n;
    EXPECT_EQ(c.rot90, k.rot90) << "n=" << n;
  }
}

TEST(QueensSearch, SymmetricSearchesMatchOeisUpToEighteen) {
  for (int n = 1; n <= 18; ++n) {
    EXPECT_EQ(count_rotation_symmetric(n, Symmetry::rot180), queens_known(n).rot180) << "n=" << n;
    EXPECT_EQ(count_rotation_symmetric(n, Symmetry::rot90), queens_known(n).rot90) << "n=" << n;
  }
}

TEST(QueensSearch, SameCountsForEveryThreadCountAndSplitDepth) {
  for (int n : {6, 9, 11}) {
    const auto& k = queens_known(n);
    for (int threads : {1, 2, 3, 4})
      for (int depth = 0; depth <= 4; ++depth) {
        const QueensCounts c = run_search(n, depth, threads);
        EXPECT_EQ(c, (QueensCounts{k.all, k.distinct, k.rot180, k.rot90}))
            << "n=" << n << " threads=" << threads << " depth=" << depth;
      }
  }
  // a split depth beyond the tree's height (N = 4 has 4 rows)
  EXPECT_EQ(run_search(4, 9, 3).all, 2u);
}

TEST(QueensSearch, TaskIdsAreStableAndDepthSetsTheTaskCount) {
  const engine::Job a = make_search_job(8, 2, "x");
  const engine::Job b = make_search_job(8, 2, "x");
  EXPECT_EQ(a.task_count, b.task_count);
  EXPECT_EQ(a.task_count, 8u * 8u - 8u - 2u * 7u + 2u);  // 42 two-row prefixes + 2 symmetric searches
  EXPECT_EQ(make_search_job(8, 0, "x").task_count, 3u);
  for (std::size_t id = 0; id < a.task_count; ++id) {
    engine::Tally ta, tb;
    a.run_task(id, ta);
    b.run_task(id, tb);
    EXPECT_EQ(ta, tb) << id;
  }
}

/// The search job's totals at `threads` threads under `split`.
engine::Tally search_totals(int n, int depth, int threads, engine::SplitPolicy split) {
  engine::RunOptions options;
  options.threads = threads;
  options.split = split;
  return engine::run(make_search_job(n, depth, "test"), options).totals;
}

// The kernel gives parts of its task away (engine/split.hpp): the four
// counts are Q(N), U(N), P(N), R(N) (OEIS A000170, A002562, A032522,
// A033148) and the counts and nodes are those of the static run, at 1, 2
// and 4 threads, with a part always on offer or only while a worker idles.
TEST(QueensSearch, PartsGivenAwayCountTheSame) {
  for (int n : {11, 12, 13})
    for (int depth : {0, 1, 2}) {
      const engine::Tally reference = search_totals(n, depth, 1, engine::SplitPolicy::none);
      const auto& k = queens_known(n);
      EXPECT_EQ(search_counts(n, reference), (QueensCounts{k.all, k.distinct, k.rot180, k.rot90})) << n;
      for (int threads : {1, 2, 4})
        for (engine::SplitPolicy split : {engine::SplitPolicy::idle, engine::SplitPolicy::always})
          EXPECT_EQ(search_totals(n, depth, threads, split), reference)
              << "n=" << n << " depth=" << depth << " threads=" << threads << " policy=" << static_cast<int>(split);
    }
}

TEST(QueensSearch, SplitsUnlessTheListingHasALimit) {
  EXPECT_TRUE(make_search_job(12, 2, "x").splits);
  EXPECT_TRUE(make_list_job(12, 2, "x", false, 0).splits);
  EXPECT_FALSE(make_list_job(12, 2, "x", false, 5).splits);
}

/// `--list` of the N-queens board: the text of every task, in id order.
std::string listing(int n, int depth, int threads, engine::SplitPolicy split, engine::Tally* totals) {
  std::string out;
  engine::RunOptions options;
  options.threads = threads;
  options.split = split;
  options.on_output = [&out](std::size_t, std::string_view text) { out += text; };
  *totals = engine::run(make_list_job(n, depth, "test", false, 0), options).totals;
  return out;
}

// The listing is the same bytes for every thread count and policy, with
// parts given away inside a task (split depth 0: one task of Q(N) lines).
TEST(QueensSearch, ListingIsTheSameBytesWithPartsGivenAway) {
  const int n = 10;
  engine::Tally reference_totals;
  const std::string reference = listing(n, 0, 1, engine::SplitPolicy::none, &reference_totals);
  std::size_t lines = 0;
  for (char c : reference) lines += c == '\n' ? 1 : 0;
  EXPECT_EQ(lines, queens_known(n).all);
  EXPECT_EQ(reference.substr(0, 20), "1 3 6 8 10 5 9 2 4 7");  // the first solution in column order
  for (int depth : {0, 2})
    for (int threads : {1, 2, 4})
      for (engine::SplitPolicy split : {engine::SplitPolicy::idle, engine::SplitPolicy::always}) {
        engine::Tally totals;
        EXPECT_TRUE(listing(n, depth, threads, split, &totals) == reference)
            << "depth=" << depth << " threads=" << threads << " policy=" << static_cast<int>(split);
        EXPECT_EQ(totals.counts, reference_totals.counts);
      }
}

TEST(QueensSearch, BadSizesAreRejected) {
  EXPECT_THROW(QueensTree(0), InvalidArgument);
  EXPECT_THROW(QueensTree(33), InvalidArgument);
  EXPECT_THROW((void)count_rotation_symmetric(33, Symmetry::rot180), InvalidArgument);
  EXPECT_THROW((void)count_rotation_symmetric(8, Symmetry::transpose), std::invalid_argument);
  EXPECT_THROW((void)make_search_job(8, -1, "x"), InvalidArgument);
}

TEST(QueensBurnside, DividesAndRejectsInconsistentCounts) {
  EXPECT_EQ(burnside(8, 92, 4, 0).distinct, 12u);
  EXPECT_EQ(burnside(1, 1, 1, 1).distinct, 1u);
  EXPECT_EQ(burnside(12, 14200, 80, 8).distinct, 1787u);
  EXPECT_THROW((void)burnside(8, 92, 2, 0), InternalError);
  EXPECT_THROW((void)burnside(8, 93, 4, 0), InternalError);
  EXPECT_THROW((void)burnside(8, 0, 8, 0), InternalError);  // symmetric count above the total
}

TEST(QueensSymmetry, GroupActsOnPlacements) {
  const std::vector<int> p{0, 4, 7, 5, 2, 6, 1, 3};  // an 8-queens solution
  ASSERT_TRUE(is_solution(p));
  std::set<std::vector<int>> images;
  for (Symmetry g : kSymmetries) {
    const auto q = map_placement(g, p);
    EXPECT_TRUE(is_solution(q)) << name(g);
    images.insert(q);
  }
  EXPECT_EQ(images.size(), 8u);  // no 8-queens solution with this first queen is symmetric
  // rot90 four times is the identity; rot90 twice is rot180; each reflection is an involution
  std::vector<int> q = p;
  for (int i = 0; i < 4; ++i) q = map_placement(Symmetry::rot90, q);
  EXPECT_EQ(q, p);
  EXPECT_EQ(map_placement(Symmetry::rot90, map_placement(Symmetry::rot90, p)), map_placement(Symmetry::rot180, p));
  for (Symmetry g : {Symmetry::mirror_cols, Symmetry::mirror_rows, Symmetry::transpose, Symmetry::antitranspose})
    EXPECT_EQ(map_placement(g, map_placement(g, p)), p) << name(g);
  EXPECT_EQ(canonical(p), *images.begin());
  EXPECT_FALSE(is_solution(std::vector<int>{0, 1}));
  EXPECT_FALSE(is_solution(std::vector<int>{0, 0, 2}));
}

}  // namespace
}  // namespace pcount::queens
