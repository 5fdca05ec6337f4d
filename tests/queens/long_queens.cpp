// Slow N-Queens runs (ctest label `long`): Q(16) by tree search,
// N = 17, 18 by constellations, and N = 16, 17 by the join on 1 and 2
// threads, against OEIS A000170, A002562, A032522, A033148.
#include <gtest/gtest.h>

#include "known_values.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/queens/constellations.hpp"
#include "pcount/queens/join.hpp"
#include "pcount/queens/search.hpp"

namespace pcount::queens {
namespace {

QueensCounts known(int n) {
  const auto& k = test::queens_known(n);
  return QueensCounts{k.all, k.distinct, k.rot180, k.rot90};
}

engine::RunOptions all_threads() { return engine::RunOptions{}; }

TEST(QueensLong, SearchSixteen) {
  const engine::Job job = make_search_job(16, 3, "long");
  EXPECT_EQ(search_counts(16, engine::run(job, all_threads()).totals), known(16));
}

TEST(QueensLong, ConstellationsSeventeenAndEighteen) {
  for (int n : {17, 18}) {
    const engine::Job job = make_constellation_job(n, 1, "long");
    EXPECT_EQ(constellation_counts(n, engine::run(job, all_threads()).totals), known(n)) << "n=" << n;
  }
}

TEST(QueensLong, JoinSixteenAndSeventeenOnOneAndTwoThreads) {
  for (int n : {16, 17})
    for (int threads : {1, 2}) {
      const engine::Job job = make_join_job(n, default_join_outer(n), "long");
      engine::RunOptions options;
      options.threads = threads;
      EXPECT_EQ(join_counts(n, engine::run(job, options).totals), known(n)) << "n=" << n << " threads=" << threads;
    }
}

// N = 18 by the join: its groups are large enough for every lane width
// (keys of 36 bits, 64-bit lanes where a group has few bucket bits) in
// both the plain and the weighted (diagonal reflection) join.
TEST(QueensLong, JoinEighteen) {
  const engine::Job job = make_join_job(18, default_join_outer(18), "long");
  EXPECT_EQ(join_counts(18, engine::run(job, all_threads()).totals), known(18));
}

}  // namespace
}  // namespace pcount::queens
