// langford --pairs N: Langford pairings L(2,N) up to reversal (OEIS
// A014552): sequences of 1,1,2,2,…,N,N with the two k's k+1 positions apart.
// A problem outside pcount, on its engine and driver: --threads, --json,
// --progress, --checkpoint, --shard/--out with `langford merge`, --stop-file
// and the size check come with driver::main (docs/engine.md walks through it).
// Pairs are placed from N down to 1 as bits of a mask of the 2N positions.
// Reversal: while the placement so far is its own mirror image, a pair goes
// only to the left one of each mirror pair of positions; no solution is
// its own mirror (the 1s would have to be adjacent and central: 2N-1 odd),
// so every {solution, reversal} is counted once, with no halving.
#include <cstdint>
#include <iostream>
#include <memory>

#include "pcount/driver/problem.hpp"
#include "pcount/driver/program.hpp"
#include "pcount/engine/tree.hpp"

namespace {

// The branching, written once (engine::BranchingTree): the engine derives
// the task split, the size probe and the counting walk from it.
struct Langford {
  struct Node {
    std::uint64_t used = 0;  // bit p: position p holds a number
    int next = 0;            // the pair to place next (0: all placed)
    bool mirrored = true;    // the placement so far equals its reversal
  };
  int n;

  Node root() const { return {0, n, true}; }
  bool is_leaf(const Node& node) const { return node.next == 0; }
  // Left positions i with i and i+k+1 free; while mirrored, only i ≤ its mirror.
  std::uint64_t candidates(const Node& node) const {
    const int k = node.next, last = 2 * n - k - 2;  // i + k + 1 ≤ 2N - 1
    if (last < 0) return 0;
    const std::uint64_t free = ~node.used;
    return free & (free >> (k + 1)) & ((std::uint64_t{2} << (node.mirrored ? last / 2 : last)) - 1);
  }
  Node child(const Node& node, int i) const {
    const std::uint64_t pair = (std::uint64_t{1} << i) | (std::uint64_t{1} << (i + node.next + 1));
    return {node.used | pair, node.next - 1, node.mirrored && 2 * i == 2 * n - node.next - 2};
  }
};

using namespace pcount::driver;

Plan plan(const Invocation& inv) {
  const int n = static_cast<int>(parse_int("--pairs", *inv.value("pairs"), 1, 31));  // 2N bits in 64
  auto tree = std::make_shared<const Langford>(Langford{n});
  const int depth = inv.common.split_depth.value_or(pcount::engine::auto_split_depth(*tree, auto_split_min_tasks(inv)));
  Plan p;
  p.job = pcount::engine::make_tree_job(tree, depth, Fingerprint("langford").add("n", n), {"pairings"});
  p.report = [n](const pcount::engine::RunResult& result) {
    return Report{.problem = "langford",
                  .title = "Langford pairings of " + std::to_string(n) + " pairs, up to reversal",
                  .params = {{"n", n}},
                  .method = "search",
                  .counts = {{"pairings", pcount::to_string(result.totals.counts[0])}}};
  };
  return p;
}

const Problem kProblems[] = {{.option = "pairs",
                              .value_name = "N",
                              .help = "Langford pairings of N pairs (1 ≤ N ≤ 31), OEIS A014552",
                              .group = "langford",
                              .methods = "search",
                              .plan = plan}};

}  // namespace

int main(int argc, char** argv) {
#ifndef LANGFORD_BUILD
#define LANGFORD_BUILD "unknown (built outside its CMakeLists.txt)"
#endif
  const Program program{
      .name = "langford", .summary = "Counts Langford pairings", .problems = kProblems, .build = LANGFORD_BUILD};
  return pcount::driver::main(argc, argv, program, std::cout, std::cerr);
}
