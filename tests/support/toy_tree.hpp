#pragma once
// A small tree problem with a known count, for engine tests and benchmarks:
// words of length `len` over the letters 0..k-1 with no two equal neighbours.
// It has k·(k-1)^(len-1) leaves; counter 0 = leaves, counter 1 = leaves
// ending in letter 0 (a quarter of them when k = 4, by symmetry 1/k).
#include <vector>

#include "pcount/engine/task.hpp"
#include "pcount/engine/tree.hpp"

namespace pcount::test {

struct NoRepeatWords {
  struct Node {
    int length = 0;
    int last = -1;
  };
  int k;
  int len;
  [[nodiscard]] Node root() const { return {}; }
  [[nodiscard]] std::vector<Node> children(const Node& n) const {
    std::vector<Node> kids;
    if (n.length == len) return kids;
    for (int s = 0; s < k; ++s)
      if (s != n.last) kids.push_back({n.length + 1, s});
    return kids;
  }
  /// Recursive count without allocation; one node per call.
  void count_subtree(const Node& n, engine::Tally& t) const {
    t.nodes = checked_add(t.nodes, 1);
    if (n.length == len) {
      t.add(0, 1);
      if (n.last == 0) t.add(1, 1);
      return;
    }
    for (int s = 0; s < k; ++s)
      if (s != n.last) count_subtree({n.length + 1, s}, t);
  }
};
static_assert(engine::TreeProblem<NoRepeatWords>);

}  // namespace pcount::test
