// Knuth's random-probe estimator (engine/estimate.hpp, knuth_probe in
// engine/tree.hpp) against trees whose node counts are known exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <stdexcept>

#include "pcount/engine/estimate.hpp"
#include "pcount/engine/tree.hpp"
#include "support/toy_tree.hpp"

namespace pcount {
namespace {

/// Nodes of the NoRepeatWords tree: 1 + k + k(k-1) + … + k(k-1)^(len-1).
double word_tree_nodes(int k, int len) {
  double total = 1.0, level = 1.0;
  for (int i = 0; i < len; ++i) {
    level *= i == 0 ? k : k - 1;
    total += level;
  }
  return total;
}

/// Compositions of r: a node is the remaining sum, its children take a first
/// part 1..r. Not uniform (a node's degree is its remaining sum), and the
/// subtree of r has exactly 2^r nodes (N(r) = 1 + N(r-1) + … + N(0)).
struct Compositions {
  struct Node {
    int rest = 0;
  };
  int r;
  [[nodiscard]] Node root() const { return {r}; }
  [[nodiscard]] std::vector<Node> children(const Node& n) const {
    std::vector<Node> kids;
    for (int part = 1; part <= n.rest; ++part) kids.push_back({n.rest - part});
    return kids;
  }
  void count_subtree(const Node& n, engine::Tally& t) const {
    t.nodes = checked_add(t.nodes, 1);
    for (int part = 1; part <= n.rest; ++part) count_subtree({n.rest - part}, t);
  }
};
static_assert(engine::TreeProblem<Compositions>);

TEST(Estimate, EveryProbeOfAUniformTreeIsExact) {
  const test::NoRepeatWords words{4, 9};
  engine::Tally full;
  words.count_subtree(words.root(), full);
  const double exact = word_tree_nodes(4, 9);
  ASSERT_EQ(static_cast<double>(full.nodes), exact);  // the closed form agrees with a full count
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(engine::knuth_probe(words, words.root(), rng), exact);
}

TEST(Estimate, JobEstimateOfAUniformTreeIsExactWithNoError) {
  auto words = std::make_shared<const test::NoRepeatWords>(test::NoRepeatWords{5, 8});
  const engine::Job job = engine::make_tree_job(words, 3, "words", {"leaves", "zero"});
  ASSERT_TRUE(job.probe);
  const engine::SizeEstimate e = engine::estimate_job_nodes(job, 500);
  // Every task is the same subtree, so task_count × one probe is the total
  // below the split depth; the nodes above it are not tasks' nodes.
  const double above = 1.0 + 5.0 + 5.0 * 4.0;  // depths 0, 1, 2
  EXPECT_DOUBLE_EQ(e.nodes, word_tree_nodes(5, 8) - above);
  EXPECT_EQ(e.relative_error, 0.0);
  EXPECT_EQ(e.probes, 500u);
}

TEST(Estimate, UnbalancedTreeEstimateIsWithinItsErrorBar) {
  for (int r : {12, 16, 20}) {
    const Compositions tree{r};
    engine::Tally full;
    tree.count_subtree(tree.root(), full);
    const double exact = std::ldexp(1.0, r);
    ASSERT_EQ(static_cast<double>(full.nodes), exact) << r;
    auto shared = std::make_shared<const Compositions>(tree);
    const engine::Job job = engine::make_tree_job(shared, 0, "compositions", {"none"});
    const engine::SizeEstimate e = engine::estimate_job_nodes(job, 20000, 42, std::chrono::seconds(60));
    EXPECT_EQ(e.probes, 20000u);
    EXPECT_GT(e.relative_error, 0.0) << r;  // an unbalanced tree: probes differ
    // Seeded, so deterministic; five standard errors is a wide margin.
    EXPECT_LT(std::abs(e.nodes - exact), 5.0 * e.relative_error * e.nodes) << r << ": " << e.nodes;
  }
}

TEST(Estimate, AJobWithoutAProbeIsALogicError) {
  engine::Job job;
  job.task_count = 3;
  EXPECT_THROW((void)engine::estimate_job_nodes(job), std::logic_error);
}

}  // namespace
}  // namespace pcount
