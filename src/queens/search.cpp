#include "pcount/queens/search.hpp"

#include <string>

#include "pcount/engine/errors.hpp"

namespace pcount::queens {

namespace {
struct Counter {
  std::uint32_t full;
  std::uint64_t solutions = 0;
  std::uint64_t nodes = 0;

  void dfs(std::uint32_t cols, std::uint32_t d1, std::uint32_t d2) {
    ++nodes;
    if (cols == full) {
      ++solutions;
      return;
    }
    std::uint32_t free = full & ~(cols | d1 | d2);
    while (free) {
      const std::uint32_t bit = free & (0u - free);
      free ^= bit;
      dfs(cols | bit, ((d1 | bit) << 1) & full, (d2 | bit) >> 1);
    }
  }
};
}  // namespace

QueensTree::QueensTree(int n) : n_(n) {
  if (n < 1 || n > 32) throw InvalidArgument("--queens", "expected N from 1 to 32, got " + std::to_string(n));
  full_ = n == 32 ? ~0u : (1u << n) - 1u;
}

std::vector<QueensTree::Node> QueensTree::children(const Node& node) const {
  std::vector<Node> kids;
  if (node.row == n_) return kids;
  std::uint32_t free = full_ & ~(node.cols | node.diag1 | node.diag2);
  while (free) {
    const std::uint32_t bit = free & (0u - free);
    free ^= bit;
    kids.push_back(Node{node.row + 1, node.cols | bit, ((node.diag1 | bit) << 1) & full_, (node.diag2 | bit) >> 1});
  }
  return kids;
}

void QueensTree::count_subtree(const Node& node, engine::Tally& tally) const {
  Counter c{full_};
  c.dfs(node.cols, node.diag1, node.diag2);
  tally.add(0, c.solutions);
  tally.nodes = checked_add(tally.nodes, c.nodes);
}

}  // namespace pcount::queens
