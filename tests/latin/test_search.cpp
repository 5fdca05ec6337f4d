// Reduced Latin squares and rectangles by tree search: known values
// (OEIS A000315, docs/sources.md), shortcuts, and invariance of
// the count under threads and split depths.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "pcount/errors.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/latin/search.hpp"

namespace pcount::latin {
namespace {

u128 count(int n, int k, int threads = 2, int depth = 2, engine::SplitPolicy split = engine::SplitPolicy::idle,
           engine::Tally* totals = nullptr) {
  auto tree = std::make_shared<const LatinTree>(n, k);
  const engine::Job job = engine::make_tree_job(tree, depth, "test", {"reduced"});
  engine::RunOptions options;
  options.threads = threads;
  options.split = split;
  const engine::RunResult result = engine::run(job, options);
  if (totals) *totals = result.totals;
  return result.totals.counts[0];
}

TEST(LatinSearch, ReducedSquaresA000315) {
  const char* expected[] = {"1", "1", "1", "4", "56", "9408", "16942080"};
  for (int n = 1; n <= 7; ++n) EXPECT_EQ(to_string(count(n, n)), expected[n - 1]) << "n=" << n;
}

TEST(LatinSearch, AllSquaresA002860) {
  const char* expected[] = {"1", "2", "12", "576", "161280", "812851200", "61479419904000",
                            "108776032459082956800"};
  for (int n = 1; n <= 7; ++n) EXPECT_EQ(to_string(all_squares(n, count(n, n))), expected[n - 1]) << "n=" << n;
  // L(8) from the known R(8) (the search for R(8) itself runs under `long`).
  EXPECT_EQ(to_string(all_squares(8, parse_u128("535281401856"))), expected[7]);
}

TEST(LatinSearch, RectanglesFromTheTable) {
  // R(k,n) from the docs/latin.md table (n ≤ 7 here; R(n-1,n) = R(n)).
  struct Row { int k, n; const char* value; };
  const Row rows[] = {{1, 5, "1"},      {2, 4, "3"},         {2, 5, "11"},       {2, 6, "53"},
                      {2, 7, "309"},    {3, 4, "4"},         {3, 5, "46"},       {3, 6, "1064"},
                      {3, 7, "35792"},  {4, 5, "56"},        {4, 6, "6552"},     {4, 7, "1293216"},
                      {5, 6, "9408"},   {6, 7, "16942080"}, {2, 8, "2119"},
                      {3, 8, "1673792"}};
  for (const Row& r : rows) EXPECT_EQ(to_string(count(r.n, r.k)), r.value) << r.k << "x" << r.n;
  // All 2×4 rectangles: 4!·D(4) = 24·9.
  EXPECT_EQ(to_string(all_rectangles(4, 2, count(4, 2))), "216");
}

TEST(LatinSearch, SameCountForEveryThreadCountAndSplitDepth) {
  for (int threads : {1, 2, 3, 4})
    for (int depth = 0; depth <= 4; ++depth) {
      EXPECT_EQ(to_string(count(6, 6, threads, depth)), "9408") << threads << " " << depth;
      EXPECT_EQ(to_string(count(6, 4, threads, depth)), "6552") << threads << " " << depth;
    }
  // A depth beyond the tree's height (n = 4: two cells to fill below the types).
  EXPECT_EQ(to_string(count(4, 4, 2, 9)), "4");
  EXPECT_EQ(to_string(count(7, 7, 4, 3)), "16942080");
}

TEST(LatinSearch, CycleTypeWeightsCountReducedSecondRows) {
  // Σ w(λ) = D(n)/(n-1), D = derangements (A000166).
  const unsigned long long derangements[] = {1, 0, 1, 2, 9, 44, 265, 1854, 14833, 133496};
  for (int n = 2; n <= 9; ++n) {
    u128 sum = 0;
    for (const CycleType& t : cycle_types(n)) sum += t.weight;
    EXPECT_EQ(to_string(sum), std::to_string(derangements[n] / static_cast<unsigned long long>(n - 1))) << n;
  }
  EXPECT_EQ(cycle_types(7).size(), 4u);
  EXPECT_EQ(cycle_types(8).size(), 7u);
  EXPECT_EQ(cycle_types(9).size(), 8u);
  EXPECT_EQ(cycle_types(4)[0].parts, (std::vector<int>{4}));
}

TEST(LatinSearch, LastTwoRowsClosedForm) {
  // n = 4: missing pairs forming one 4-cycle → 2^0; two 2-cycles → 2^1.
  const std::uint32_t one_cycle[] = {0b0011, 0b0110, 0b1100, 0b1001};
  EXPECT_EQ(last_two_rows(one_cycle, 4), 1u);
  const std::uint32_t two_cycles[] = {0b0011, 0b0011, 0b1100, 0b1100};
  EXPECT_EQ(last_two_rows(two_cycles, 4), 2u);
}

TEST(LatinSearch, ModNSelfCheck) {
  EXPECT_NO_THROW(check_mod_n(7, parse_u128("16942080")));
  EXPECT_NO_THROW(check_mod_n(8, parse_u128("535281401856")));
  EXPECT_NO_THROW(check_mod_n(9, parse_u128("377597570964258816")));
  EXPECT_THROW(check_mod_n(7, parse_u128("16942081")), InternalError);
  EXPECT_THROW(check_mod_n(6, parse_u128("9409")), InternalError);
}

TEST(LatinSearch, BadSizesAreRefused) {
  EXPECT_THROW(LatinTree(0, 0), InvalidArgument);
  EXPECT_THROW(LatinTree(17, 17), InvalidArgument);
  EXPECT_THROW(LatinTree(5, 6), InvalidArgument);
  EXPECT_THROW(LatinTree(5, 0), InvalidArgument);
}

// The kernel gives parts of its task away (engine/split.hpp): with a part
// always on offer, the counts and the nodes are those of the static run,
// for squares (cycle types, closed-form last rows, weights) and rectangles.
TEST(LatinSearch, PartsGivenAwayCountTheSame) {
  struct Case {
    int n, k;
    const char* value;
  };
  for (const Case& c : {Case{7, 4, "1293216"}, Case{7, 7, "16942080"}, Case{6, 3, "1064"}})
    for (int depth : {0, 1, 3}) {
      engine::Tally reference;
      EXPECT_EQ(to_string(count(c.n, c.k, 1, depth, engine::SplitPolicy::none, &reference)), c.value);
      for (int threads : {1, 2, 4})
        for (engine::SplitPolicy split : {engine::SplitPolicy::idle, engine::SplitPolicy::always}) {
          engine::Tally totals;
          count(c.n, c.k, threads, depth, split, &totals);
          EXPECT_EQ(totals, reference) << c.k << "x" << c.n << " depth " << depth << " threads " << threads;
        }
    }
}

}  // namespace
}  // namespace pcount::latin
