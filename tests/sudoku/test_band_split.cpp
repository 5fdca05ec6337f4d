// The band-class kernels (bands, factorisations, subbands) give parts of a
// running task away (engine/split.hpp): B (or the 3x3 completion count T)
// is a sum over its search, so the parts' sums add up to it and it is
// squared (or weighted) only after the join. The published totals come out at 1, 2 and 4 threads
// under every policy, with the same tallies as the static run, and one big
// task on 2 threads has parts run by the other thread.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "pcount/bigint.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/engine/split.hpp"
#include "pcount/sudoku/box_shape.hpp"
#include "pcount/sudoku/grids/bands.hpp"
#include "support/known_grids.hpp"
#include "support/until_stolen.hpp"

namespace pcount::sudoku {
namespace {

/// A band-class method of one shape.
struct Case {
  const char* method;
  BoxShape shape;
  bool split_classes = false;  ///< `bands` of 2xC with its classes cut into parts (split depth 1)
};

std::shared_ptr<const BandCount> make(const Case& c) {
  const std::string method = c.method;
  const int side = c.shape.rows == 2 ? c.shape.cols : c.shape.rows;
  if (method == "factorisations") return make_bands_factorisations(side, 1);
  if (method == "subbands") return make_bands_sub_band(side, 1);
  if (c.shape.rows == 3 && c.shape.cols == 3) return make_bands_3x3(1);
  return make_bands_two_column(side, 1, c.split_classes);
}

std::string name(const Case& c) {
  return std::string(c.method) + " " + c.shape.name() + (c.split_classes ? " split" : "");
}

/// The grid total of a run's totals, as decimal digits.
std::string grids(const BandCount& bands, const engine::Tally& totals) { return to_string(bands.total(totals)); }

const Case kCases[] = {
    {"factorisations", {2, 3}}, {"factorisations", {3, 2}}, {"factorisations", {2, 4}}, {"factorisations", {4, 2}},
    {"bands", {3, 3}},          {"bands", {2, 3}},          {"bands", {2, 4}},          {"bands", {4, 2}, true},
    {"subbands", {2, 3}},       {"subbands", {2, 4}},       {"subbands", {4, 2}},
};

TEST(BandSplit, PublishedTotalsAtEveryThreadCountAndPolicy) {
  for (const Case& c : kCases) {
    const auto bands = make(c);
    const engine::Job job = bands->job("test");
    EXPECT_TRUE(job.splits) << name(c);
    engine::RunOptions options;
    options.threads = 1;
    options.split = engine::SplitPolicy::none;
    const engine::Tally reference = engine::run(job, options).totals;
    EXPECT_EQ(grids(*bands, reference), test::known_grid_count(c.shape.rows, c.shape.cols)) << name(c);
    for (int threads : {1, 2, 4})
      for (engine::SplitPolicy split : {engine::SplitPolicy::idle, engine::SplitPolicy::always}) {
        options.threads = threads;
        options.split = split;
        const engine::RunResult r = engine::run(job, options);
        EXPECT_EQ(r.totals, reference) << name(c) << " threads " << threads << " policy " << static_cast<int>(split);
        if (threads == 1) {
          EXPECT_EQ(r.steals, 0u) << name(c);
        }
      }
  }
}

TEST(BandSplit, SplittingCountIsThePlainOne) {
  // K_{n,n}: L(n) ordered 1-factorisations (OEIS A002860), whole and by
  // parts; outside a task nothing splits.
  for (int n = 1; n <= 6; ++n) {
    const std::vector<std::uint32_t> adj(static_cast<std::size_t>(n), (1u << n) - 1u);
    EXPECT_EQ(ordered_one_factorisations_splitting(adj, n), ordered_one_factorisations(adj, n)) << n;
    const int parts = one_factorisation_parts(n, n);
    for (int p = 0; p < parts; ++p)
      EXPECT_EQ(ordered_one_factorisations_splitting(adj, n, p), ordered_one_factorisations_part(adj, n, p)) << n;
    EXPECT_THROW((void)ordered_one_factorisations_splitting(adj, n, parts), std::invalid_argument) << n;
  }
}

TEST(BandSplit, OneBigTaskOnTwoThreadsHasPartsStolen) {
  for (const Case& c : {kCases[2], kCases[4], kCases[6], kCases[7], kCases[9]})
    for (engine::SplitPolicy split : {engine::SplitPolicy::idle, engine::SplitPolicy::always}) {
      const auto bands = make(c);
      const engine::Job inner = bands->job("test");
      std::vector<engine::Tally> rounds;
      const engine::RunResult r = test::one_task_until_stolen(inner, split, rounds);
      EXPECT_GT(r.steals, 0u) << name(c) << " policy " << static_cast<int>(split);
      ASSERT_FALSE(rounds.empty());
      for (const engine::Tally& round : rounds)
        EXPECT_EQ(grids(*bands, round), test::known_grid_count(c.shape.rows, c.shape.cols))
            << name(c) << " policy " << static_cast<int>(split) << ", " << rounds.size() << " rounds";
    }
}

}  // namespace
}  // namespace pcount::sudoku
