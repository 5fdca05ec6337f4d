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
#include <vector>

#include "pcount/driver/driver.hpp"
#include "pcount/engine/tree.hpp"

namespace {

class Langford {
public:
  struct Node {
    std::uint64_t used = 0;  // bit p: position p holds a number
    int next = 0;            // the pair to place next (0: all placed)
    bool mirrored = true;    // the placement so far equals its reversal
  };
  explicit Langford(int n) : n_(n) {}

  Node root() const { return {0, n_, true}; }

  std::vector<Node> children(const Node& node) const {
    std::vector<Node> kids;
    for (std::uint64_t c = candidates(node); c != 0; c &= c - 1) {
      const int i = __builtin_ctzll(c);
      kids.push_back({node.used | pair_bits(i, node.next), node.next - 1,
                      node.mirrored && 2 * i == 2 * n_ - node.next - 2});
    }
    return kids;
  }

  // Adds the solutions below `node` (node included) and the nodes visited.
  void count_subtree(const Node& node, pcount::engine::Tally& tally) const {
    std::uint64_t nodes = 0;
    tally.add(0, search(node, nodes));
    tally.nodes += nodes;
  }

private:
  // Left positions i with i and i+k+1 free; while mirrored, only i ≤ its mirror.
  std::uint64_t candidates(const Node& node) const {
    const int k = node.next, last = 2 * n_ - k - 2;  // i + k + 1 ≤ 2N - 1
    if (k == 0 || last < 0) return 0;
    const std::uint64_t free = ~node.used;
    return free & (free >> (k + 1)) & ((std::uint64_t{2} << (node.mirrored ? last / 2 : last)) - 1);
  }
  static std::uint64_t pair_bits(int i, int k) { return (std::uint64_t{1} << i) | (std::uint64_t{1} << (i + k + 1)); }

  std::uint64_t search(const Node& node, std::uint64_t& nodes) const {
    ++nodes;
    if (node.next == 0) return 1;
    std::uint64_t found = 0;
    for (std::uint64_t c = candidates(node); c != 0; c &= c - 1) {
      const int i = __builtin_ctzll(c);
      found += search({node.used | pair_bits(i, node.next), node.next - 1,
                       node.mirrored && 2 * i == 2 * n_ - node.next - 2},
                      nodes);
    }
    return found;
  }

  int n_;
};

using namespace pcount::driver;

Plan plan(const Invocation& inv) {
  const int n = static_cast<int>(parse_int("--pairs", *inv.value("pairs"), 1, 31));  // 2N bits in 64
  auto tree = std::make_shared<const Langford>(n);
  const int depth = inv.common.split_depth.value_or(
      pcount::engine::auto_split_depth(*tree, auto_split_min_tasks(inv)));
  Plan p;
  p.job = pcount::engine::make_tree_job(tree, depth, fingerprint_prefix() + "langford n=" + std::to_string(n),
                                        {"pairings"});
  p.report = [n](const pcount::engine::RunResult& result) {
    Report r;
    r.problem = "langford";
    r.title = "Langford pairings of " + std::to_string(n) + " pairs, up to reversal";
    r.params["n"] = n;
    r.method = "search";
    r.counts = {{"pairings", pcount::to_string(result.totals.counts[0])}};
    return r;
  };
  return p;
}

const Problem kProblems[] = {
    {"pairs", "N", "Langford pairings of N pairs (1 ≤ N ≤ 31), OEIS A014552", "langford", nullptr, "search", plan},
};

}  // namespace

int main(int argc, char** argv) {
#ifndef LANGFORD_BUILD
#define LANGFORD_BUILD "unknown (built outside its CMakeLists.txt)"
#endif
  const Program program{"langford", "Counts Langford pairings", kProblems, LANGFORD_BUILD};
  return pcount::driver::main(argc, argv, program, std::cout, std::cerr);
}
