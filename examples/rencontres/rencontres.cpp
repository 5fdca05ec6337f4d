// rencontres --items N --fixed K: the permutations of N items that leave
// exactly K in place, the rencontres numbers D(N, K) (OEIS A008290; K = 0
// is examples/derangements). The "hello problem" of docs/engine.md: a
// second parameter with its own option and value name, both in the
// fingerprint and the report's params.
#include <cstdint>
#include <iostream>
#include <memory>

#include "pcount/driver/problem.hpp"
#include "pcount/driver/program.hpp"
#include "pcount/engine/tree.hpp"

namespace {

struct Rencontres {  // an engine::BranchingTree: position pos takes an unused value
  struct Node {
    std::uint32_t used = 0;  // bit v: value v is placed
    int pos = 0;             // the position filled next
    int fixed = 0;           // positions so far that hold their own value
  };
  int n, k;
  Node root() const { return {}; }
  bool is_leaf(const Node& node) const { return node.pos == n; }
  std::uint32_t candidates(const Node& node) const {
    const std::uint32_t free = ((1u << n) - 1) & ~node.used, own = free & (1u << node.pos);
    if (k - node.fixed == n - node.pos) return own;  // every position left must be fixed
    return node.fixed == k ? free & ~own : free;     // no more fixed points, or any value
  }
  Node child(const Node& node, int v) const {
    return {node.used | 1u << v, node.pos + 1, node.fixed + (v == node.pos)};
  }
};

using namespace pcount::driver;

void add_options(po::options_description& d) {  // the problem's second parameter; "K" names its value in --help
  d.add_options()("fixed", po::value<std::string>()->value_name("K"), "exactly K items in place, 0 ≤ K ≤ N; default 0");
}

Plan plan(const Invocation& inv) {
  const int n = static_cast<int>(parse_int("--items", *inv.value("items"), 0, 20));
  const int k = static_cast<int>(parse_int("--fixed", inv.value("fixed").value_or("0"), 0, n));  // value(): optional
  auto tree = std::make_shared<const Rencontres>(Rencontres{n, k});  // make_tree_job takes a pointer to const
  const int depth = inv.common.split_depth.value_or(pcount::engine::auto_split_depth(*tree, auto_split_min_tasks(inv)));
  Plan p;  // everything that changes the count is in the fingerprint: checkpoints and shards of other jobs are refused
  p.job =
      pcount::engine::make_tree_job(tree, depth, Fingerprint("rencontres").add("n", n).add("k", k), {"permutations"});
  p.report = [n, k](const pcount::engine::RunResult& result) {
    return Report{.problem = "rencontres",
                  .title = "permutations of " + std::to_string(n) + " items with " + std::to_string(k) + " fixed",
                  .params = {{"n", n}, {"k", k}},  // empty unless filled: --json shows what is put here
                  .method = "search",
                  .counts = {{"permutations", pcount::to_string(result.totals.counts[0])}}};
  };
  return p;
}

const Problem kProblems[] = {{.option = "items",
                              .value_name = "N",
                              .help = "permutations of N items (0 ≤ N ≤ 20)",
                              .group = "rencontres",
                              .add_options = add_options,
                              .plan = plan}};

}  // namespace

int main(int argc, char** argv) {
  const Program program{.name = "rencontres", .summary = "Counts permutations by fixed points", .problems = kProblems};
  return pcount::driver::main(argc, argv, program, std::cout, std::cerr);
}
