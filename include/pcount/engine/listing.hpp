#pragma once
/// @file
/// Listing the leaves of a search tree depth-first: the one walker behind
/// every `--list` job (reduced Latin squares, sudoku grids and puzzle
/// solutions, N-Queens). The engine knows no problem: a tree says how a
/// node branches and how a leaf is written.

#include <concepts>
#include <cstdint>
#include <string>
#include <vector>

#include "pcount/engine/task.hpp"

namespace pcount::engine {

/// A search tree whose nodes branch on a bit set of at most 32 choices:
/// - `Node`: a copyable search state;
/// - `is_leaf(node)`: true for a complete object (it is listed);
/// - `candidates(node)`: the choices at a non-leaf node, bit i = choice i;
/// - `child(node, i)`: the node after choice i (i one of the candidates);
/// - `write(node, json, text)`: appends the leaf as one line ending in
///   '\n' (a JSON object when `json`).
template <class T>
concept BitBranchingTree = requires(const T& t, const typename T::Node& n, std::string& s) {
  typename T::Node;
  { t.is_leaf(n) } -> std::convertible_to<bool>;
  { t.candidates(n) } -> std::convertible_to<std::uint32_t>;
  { t.child(n, 0) } -> std::convertible_to<typename T::Node>;
  t.write(n, true, s);
};

/// The children of `node` in increasing choice order; none for a leaf. Used
/// for the shallow task split (it allocates), so the task frontier and the
/// listing walk agree on the order.
template <BitBranchingTree T>
[[nodiscard]] std::vector<typename T::Node> bit_children(const T& tree, const typename T::Node& node) {
  std::vector<typename T::Node> kids;
  if (tree.is_leaf(node)) return kids;
  std::uint32_t free = tree.candidates(node);
  while (free) {
    const int i = __builtin_ctz(free);
    free &= free - 1;
    kids.push_back(tree.child(node, i));
  }
  return kids;
}

/// What a listing walk saw.
struct ListedLeaves {
  std::uint64_t found = 0;  ///< leaves counted (and written), at most the limit
  std::uint64_t nodes = 0;  ///< nodes visited, the leaves included
};

/// Walks the subtree below `node` (node included) depth-first in choice
/// order; every leaf is counted and, when `text` is not null, appended to
/// it by tree.write. Stops after `limit` leaves (0: no limit). Polls for a
/// stop every few thousand nodes (throws TaskAbandoned, like every task).
template <BitBranchingTree T>
[[nodiscard]] ListedLeaves list_leaves(const T& tree, const typename T::Node& node, std::string* text, bool json,
                                       std::uint64_t limit) {
  struct Walk {
    const T& tree;
    std::string* text;
    bool json;
    std::uint64_t limit;
    ListedLeaves seen{};
    StopPoll<> poll{};

    /// Returns false once `limit` leaves were found.
    bool dfs(const typename T::Node& at) {
      ++seen.nodes;
      poll.tick();
      if (tree.is_leaf(at)) {
        ++seen.found;
        if (text) tree.write(at, json, *text);
        return limit == 0 || seen.found < limit;
      }
      std::uint32_t free = tree.candidates(at);
      while (free) {
        const int i = __builtin_ctz(free);
        free &= free - 1;
        if (!dfs(tree.child(at, i))) return false;
      }
      return true;
    }
  };
  Walk w{tree, text, json, limit};
  w.dfs(node);
  return w.seen;
}

}  // namespace pcount::engine
