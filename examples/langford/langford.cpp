// langford N [--threads T]: Langford pairings L(2,N) up to reversal (OEIS
// A014552): sequences of 1,1,2,2,…,N,N with the two k's k+1 positions apart.
// Pairs are placed from N down to 1 as bits of a mask of the 2N positions.
// Reversal: while the placement so far is its own mirror image, a pair goes
// only to the left one of each mirror pair of positions; no solution is
// its own mirror (the 1s would have to be adjacent and central: 2N-1 odd),
// so every {solution, reversal} is counted once, with no halving.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "pcount/engine/errors.hpp"
#include "pcount/engine/runner.hpp"
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

// A whole number in [lo, hi], else InvalidArgument naming `what`.
int parse(const std::string& what, const std::string& text, int lo, int hi) {
  std::size_t used = 0;
  int v = 0;
  try {
    v = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || v < lo || v > hi)
    throw pcount::InvalidArgument(what, "expected a whole number from " + std::to_string(lo) + " to " +
                                            std::to_string(hi) + ", got '" + pcount::printable(text) + "'");
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  namespace engine = pcount::engine;
  try {
    int n = -1;
    engine::RunOptions options;  // threads 0: all hardware threads
    for (int a = 1; a < argc; ++a) {
      const std::string arg = argv[a];
      if (arg == "--threads") {
        if (a + 1 == argc) throw pcount::InvalidArgument("--threads", "needs a value");
        options.threads = parse("--threads", argv[++a], 1, 4096);
      } else if (n < 0 && !arg.starts_with("-")) {
        n = parse("N", arg, 1, 31);  // 2N positions in a 64-bit mask
      } else {
        throw pcount::InvalidArgument(pcount::printable(arg), "unexpected argument; usage: langford N [--threads T]");
      }
    }
    if (n < 0) throw pcount::InvalidArgument("N", "missing; usage: langford N [--threads T]");
    const auto problem = std::make_shared<const Langford>(n);
    const int threads = options.threads > 0 ? options.threads : engine::hardware_threads();
    const int depth = engine::auto_split_depth(*problem, 64 * static_cast<std::size_t>(threads));
    const engine::Job job = engine::make_tree_job(problem, depth, "langford n=" + std::to_string(n), {"solutions"});
    const engine::RunResult result = engine::run(job, options);
    std::printf("%s\n", pcount::to_string(result.totals.counts[0]).c_str());
    return 0;
  } catch (const pcount::InvalidArgument& e) {
    std::fprintf(stderr, "langford: %s: %s\n", e.argument().c_str(), e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "langford: %s\n", e.what());
    return 1;
  }
}
