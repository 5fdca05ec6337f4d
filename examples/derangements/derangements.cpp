// derangements --items N: the permutations of N items that leave none in place,
// D(N) (OEIS A000166: 1, 0, 1, 2, 9, 44, 265, 1854, 14833, ...). A problem
// outside pcount in one tree: position p takes any unused value but p.
#include <cstdint>
#include <iostream>
#include <memory>

#include "pcount/driver/problem.hpp"
#include "pcount/driver/program.hpp"
#include "pcount/engine/tree.hpp"

namespace {

struct Derangements {  // an engine::BranchingTree
  struct Node {
    std::uint32_t used = 0;  // bit v: value v is placed
    int pos = 0;             // the position filled next
  };
  int n;
  Node root() const { return {}; }
  bool is_leaf(const Node& node) const { return node.pos == n; }
  std::uint32_t candidates(const Node& node) const { return ((1u << n) - 1) & ~node.used & ~(1u << node.pos); }
  Node child(const Node& node, int v) const { return {node.used | 1u << v, node.pos + 1}; }
};

using namespace pcount::driver;

Plan plan(const Invocation& inv) {
  Params params(inv);  // each parameter declared once: parsed, checked, fingerprinted
  const int n = static_cast<int>(params.integer("--items", "n", 0, 20));
  auto tree = std::make_shared<const Derangements>(Derangements{n});
  const int depth = inv.common.split_depth.value_or(pcount::engine::auto_split_depth(*tree, auto_split_min_tasks(inv)));
  Plan p;
  p.job = pcount::engine::make_tree_job(tree, depth, params.fingerprint("derangements"), {"derangements"});
  p.report = [n](const pcount::engine::RunResult& result) {
    return Report{.problem = "derangements",
                  .title = "derangements of " + std::to_string(n) + " items",
                  .params = {{"n", n}},
                  .method = "search",
                  .counts = {{"derangements", pcount::to_string(result.totals.counts[0])}}};
  };
  return p;
}

const Problem kProblems[] = {
    {.option = "items", .value_name = "N", .help = "derangements of N items (0 ≤ N ≤ 20), OEIS A000166", .plan = plan}};

}  // namespace

int main(int argc, char** argv) {
  const Program program{.name = "derangements", .summary = "Counts derangements", .problems = kProblems};
  return pcount::driver::main(argc, argv, program, std::cout, std::cerr);
}
