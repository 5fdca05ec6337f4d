// Size estimates of the N-Queens jobs (Knuth's estimator) against the
// nodes the search really visits.
#include <gtest/gtest.h>

#include <cmath>

#include "pcount/engine/estimate.hpp"
#include "pcount/u128.hpp"
#include "pcount/queens/constellations.hpp"
#include "pcount/queens/search.hpp"

namespace pcount {
namespace {

TEST(QueensEstimate, SearchJobEstimateMatchesTheNodesVisited) {
  for (int n : {8, 11, 12}) {
    const engine::Job job = queens::make_search_job(n, 3, "estimate");
    // The last two tasks are the symmetric searches; the estimate leaves them out.
    engine::Tally tree;
    for (std::size_t id = 0; id + 2 < job.task_count; ++id) job.run_task(id, tree);
    const double visited = static_cast<double>(tree.nodes);
    const engine::SizeEstimate e = engine::estimate_job_nodes(job, 4000, 11, std::chrono::seconds(60));
    ASSERT_EQ(e.probes, 4000u);
    EXPECT_LT(std::abs(e.nodes - visited), 5.0 * e.relative_error * e.nodes + 1.0) << n << ": " << e.nodes;
  }
}

TEST(QueensEstimate, ConstellationJobEstimatesTheWholeSearchTree) {
  const int n = 12;
  const engine::Job search = queens::make_search_job(n, 3, "estimate");
  const engine::Job constellations = queens::make_constellation_job(n, 1, "estimate");
  ASSERT_TRUE(constellations.probe);
  const auto a = engine::estimate_job_nodes(search, 4000, 3, std::chrono::seconds(60));
  const auto b = engine::estimate_job_nodes(constellations, 4000, 4, std::chrono::seconds(60));
  const double se = std::hypot(a.relative_error * a.nodes, b.relative_error * b.nodes);
  EXPECT_LT(std::abs(a.nodes - b.nodes), 5.0 * se) << a.nodes << " vs " << b.nodes;
}

TEST(QueensEstimate, ThirtyTwoQueensIsAstronomical) {
  // Q(27) took a cluster a year (Preußer & Engelhardt 2016); a 32×32 search
  // tree is far beyond 10^20 nodes.
  const auto e = engine::estimate_job_nodes(queens::make_constellation_job(32, 1, "estimate"));
  EXPECT_GT(e.nodes, 1e20);
  EXPECT_LT(e.relative_error, 0.5);
}

}  // namespace
}  // namespace pcount
