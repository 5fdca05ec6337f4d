#pragma once
/// @file
/// Depth-bounded decomposition of a search tree into engine tasks.
///
/// A tree problem describes its tree and nothing about threads. It writes
/// its branching once, as a BranchingTree:
/// - `Node`: a copyable search state;
/// - `root()`: the root node;
/// - `is_leaf(node)`: true for a complete object (it is counted);
/// - `candidates(node)`: the choices at a non-leaf node as a bit set of at
///   most 64, bit i = choice i (0 = a dead end);
/// - `child(node, i)`: the node after choice i.
/// From it come `children` (the shallow expansion and the Knuth probe) and
/// the counting kernel: a depth-first walk that adds the leaves below a
/// node to counter 0 and the nodes visited to Tally::nodes. A problem may
/// instead, or as well, write the two by hand (TreeProblem):
/// - `children(node)`: the node's children in a fixed order (used only for
///   the shallow expansion, so it may allocate);
/// - `count_subtree(node, tally)`: a fast sequential kernel, adding the
///   counts of the whole subtree below `node` (node included) to `tally`.
/// A hand kernel must count what the walk of its own branching would; it
/// is the place for several counters or a faster inner loop.
/// The coordinator expands the tree in DFS order down to the split depth;
/// every node at that depth, and every childless node above it, becomes one
/// task, its id being its position in DFS order.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "pcount/errors.hpp"
#include "pcount/u128.hpp"
#include "pcount/engine/split.hpp"
#include "pcount/engine/task.hpp"

namespace pcount::engine {

/// A tree whose branching is written once, as a bit set of choices (see
/// the file comment).
template <class T>
concept BranchingTree = requires(const T& t, const typename T::Node& n) {
  typename T::Node;
  { t.root() } -> std::convertible_to<typename T::Node>;
  { t.is_leaf(n) } -> std::convertible_to<bool>;
  { t.candidates(n) } -> std::convertible_to<std::uint64_t>;
  { t.child(n, 0) } -> std::convertible_to<typename T::Node>;
};

/// A tree that lists its children itself.
template <class P>
concept HasChildren = requires(const P& p, const typename P::Node& n) {
  { p.children(n) } -> std::convertible_to<std::vector<typename P::Node>>;
};

/// A tree with a hand-written counting kernel.
template <class P>
concept HasCountSubtree = requires(const P& p, const typename P::Node& n, Tally& t) {
  p.count_subtree(n, t);
};

/// A tree with a root.
template <class P>
concept Rooted = requires(const P& p) {
  typename P::Node;
  { p.root() } -> std::convertible_to<typename P::Node>;
};

/// A tree whose hand-written `count_subtree` gives parts of its subtree
/// away while it runs (engine/split.hpp): it says so by a static constexpr
/// bool member `kSplitsWhileRunning` = true. A BranchingTree walk always
/// does.
template <class P>
concept SplitsWhileRunning = requires {
  requires P::kSplitsWhileRunning;
};

/// A tree whose children come from `children` or from its branching.
template <class P>
concept ListsChildren = HasChildren<P> || BranchingTree<P>;

/// A tree whose counts come from `count_subtree` or from its branching.
template <class P>
concept CountsSubtrees = HasCountSubtree<P> || BranchingTree<P>;

/// A search tree the depth-split coordinator can decompose (see file
/// comment): a BranchingTree, or a tree with both `children` and
/// `count_subtree`; either of the two overrides what the branching gives.
template <class P>
concept TreeProblem = Rooted<P> && ListsChildren<P> && CountsSubtrees<P>;

/// What a walk of a subtree saw.
struct WalkedLeaves {
  std::uint64_t found = 0;  ///< leaves counted, at most the limit
  std::uint64_t nodes = 0;  ///< nodes visited, the leaves included
};

namespace detail {
/// walk_leaves's depth-first walk (also the deep part of SplitWalk's).
template <BranchingTree T, class OnLeaf>
struct LeafWalk {
  const T& tree;
  OnLeaf& on_leaf;
  std::uint64_t limit;
  WalkedLeaves seen{};
  StopPoll<> poll{};

  /// Returns false once `limit` leaves were found.
  bool dfs(const typename T::Node& at) {
    ++seen.nodes;
    poll.tick();
    if (tree.is_leaf(at)) {
      ++seen.found;
      on_leaf(at);
      return limit == 0 || seen.found < limit;
    }
    for (std::uint64_t free = tree.candidates(at); free != 0; free &= free - 1)
      if (!dfs(tree.child(at, __builtin_ctzll(free)))) return false;
    return true;
  }
};
}  // namespace detail

/// Walks the subtree below `node` (node included) depth-first in choice
/// order and calls `on_leaf(leaf)` for every leaf. Stops after `limit`
/// leaves (0: no limit). Polls for a stop every few thousand nodes (throws
/// TaskAbandoned, like every task).
template <BranchingTree T, class OnLeaf>
[[nodiscard]] WalkedLeaves walk_leaves(const T& tree, const typename T::Node& node, OnLeaf&& on_leaf,
                                       std::uint64_t limit = 0) {
  detail::LeafWalk<T, std::remove_reference_t<OnLeaf>> w{tree, on_leaf, limit};
  w.dfs(node);
  return w.seen;
}

namespace detail {

/// walk_leaves's walk that can give parts of its subtree away (Subtasks,
/// engine/split.hpp). The first kSplitLevels levels below its start are
/// walked here, below them LeafWalk walks at full speed (so a part is at
/// least a subtree at that depth). Every node it enters is a frame, by
/// depth; when a
/// part is wanted it gives away the untried choices of the shallowest frame
/// that has any (so parts are large) and marks where their output goes:
/// right after that frame's current choice. `on_leaf(leaf, text)` is called
/// for every leaf, concurrently from the parts (text: the part's output,
/// or null).
template <BranchingTree T, class OnLeaf>
class SplitWalk {
public:
  using Node = typename T::Node;
  SplitWalk(const T& tree, const OnLeaf& on_leaf, std::size_t counter, Subtasks& parts, std::string* text)
      : tree_(tree),
        on_leaf_(on_leaf),
        counter_(counter),
        parts_(parts),
        bound_{&on_leaf, text},
        plain_{tree, bound_, 0} {}

  /// Walks `at` (counted) and its subtree.
  void dfs(const Node& at, std::size_t depth) {
    if (depth >= kSplitLevels) {
      plain_.dfs(at);
      return;
    }
    ++plain_.seen.nodes;
    plain_.poll.tick();
    if (tree_.is_leaf(at)) {
      ++plain_.seen.found;
      bound_(at);
      return;
    }
    branch(at, tree_.candidates(at), depth);
  }
  /// Walks the subtrees of the choices `free` of `at` (not counted).
  void branch(const Node& at, std::uint64_t free, std::size_t depth) {
    if (depth == frames_.size()) frames_.emplace_back();
    frames_[depth] = Frame{&at, &free, kNoPart};
    while (free != 0) {
      const int choice = __builtin_ctzll(free);
      free &= free - 1;
      if (parts_.wanted()) offer(depth);
      dfs(tree_.child(at, choice), depth + 1);
    }
    if (frames_[depth].part != kNoPart) parts_.place(frames_[depth].part);
  }

  /// What the walk saw so far (its parts not included).
  [[nodiscard]] const WalkedLeaves& seen() const { return plain_.seen; }

private:
  static constexpr std::size_t kSplitLevels = 12;
  /// on_leaf with the walk's text bound: LeafWalk's leaf action.
  struct BoundLeaf {
    const OnLeaf* on_leaf;
    std::string* text;
    void operator()(const Node& leaf) const { (*on_leaf)(leaf, text); }
  };

  static constexpr std::size_t kNoPart = static_cast<std::size_t>(-1);
  struct Frame {
    const Node* node = nullptr;
    std::uint64_t* rest = nullptr;  ///< the choices not tried yet
    std::size_t part = kNoPart;     ///< the part given from here
  };

  /// Gives away the untried choices of the shallowest frame up to `depth`.
  void offer(std::size_t depth) {
    for (std::size_t d = 0; d <= depth; ++d) {
      Frame& frame = frames_[d];
      if (*frame.rest == 0) continue;
      const std::uint64_t rest = std::exchange(*frame.rest, 0);
      frame.part = parts_.give(
          [tree = &tree_, node = *frame.node, rest, on_leaf = &on_leaf_, counter = counter_](
              Tally& out, std::string* text) { SplitWalk::count(*tree, node, &rest, *on_leaf, counter, out, text); });
      return;
    }
  }

public:
  /// Walks `node`'s subtree (or, with `choices`, only those choices of it,
  /// `node` not counted), giving parts away; adds the leaves to counter
  /// `counter` of `out` and the nodes to Tally::nodes, the parts' counts
  /// included.
  static void count(const T& tree, const Node& node, const std::uint64_t* choices, const OnLeaf& on_leaf,
                    std::size_t counter, Tally& out, std::string* text) {
    Subtasks parts(text);
    SplitWalk walk(tree, on_leaf, counter, parts, text);
    if (choices)
      walk.branch(node, *choices, 0);
    else
      walk.dfs(node, 0);
    out.add(counter, walk.seen().found);
    out.nodes = checked_add(out.nodes, u128{walk.seen().nodes});
    parts.join(out);
  }

private:
  const T& tree_;
  const OnLeaf& on_leaf_;
  std::size_t counter_;
  Subtasks& parts_;
  std::vector<Frame> frames_;
  BoundLeaf bound_;
  LeafWalk<T, BoundLeaf> plain_;
};

}  // namespace detail

/// Walks the subtree below `node` like walk_leaves (no limit), calling
/// `on_leaf(leaf, text)` for every leaf, and adds the leaves to counter
/// `counter` of `out`, the nodes to Tally::nodes. While the run wants parts
/// (engine/split.hpp), gives subtrees away; their leaves go to their own
/// texts, joined into `text` (null: none) in walk order, and their counts
/// into `out`, so the result is that of walk_leaves. Without splitting it
/// is walk_leaves. `on_leaf` may be called concurrently.
template <BranchingTree T, class OnLeaf>
void walk_splitting(const T& tree, const typename T::Node& node, const OnLeaf& on_leaf, std::size_t counter, Tally& out,
                    std::string* text) {
  if (detail::current_split() != nullptr) {
    detail::SplitWalk<T, OnLeaf>::count(tree, node, nullptr, on_leaf, counter, out, text);
    return;
  }
  const WalkedLeaves seen = walk_leaves(tree, node, [&](const typename T::Node& leaf) { on_leaf(leaf, text); });
  out.add(counter, seen.found);
  out.nodes = checked_add(out.nodes, u128{seen.nodes});
}

/// The children of `node`: the tree's own `children`, or else one per
/// candidate in increasing choice order (none for a leaf). Allocates; used
/// for the shallow split and the probe, so the task frontier and the walk
/// agree on the order.
template <TreeProblem P>
[[nodiscard]] std::vector<typename P::Node> tree_children(const P& tree, const typename P::Node& node) {
  if constexpr (HasChildren<P>) {
    return tree.children(node);
  } else {
    std::vector<typename P::Node> kids;
    if (tree.is_leaf(node)) return kids;
    for (std::uint64_t free = tree.candidates(node); free != 0; free &= free - 1)
      kids.push_back(tree.child(node, __builtin_ctzll(free)));
    return kids;
  }
}

/// Adds the counts of the subtree below `node` to `tally`: the tree's own
/// `count_subtree`, or else walk_leaves's leaves into counter 0 and its
/// nodes into Tally::nodes (walk_splitting: parts may be given away).
template <TreeProblem P>
void tree_count_subtree(const P& tree, const typename P::Node& node, Tally& tally) {
  if constexpr (HasCountSubtree<P>) {
    tree.count_subtree(node, tally);
  } else {
    walk_splitting(
        tree, node, [](const typename P::Node&, std::string*) {}, 0, tally, nullptr);
  }
}

/// Most tasks a split may produce; a deeper split is refused.
inline constexpr std::size_t kMaxSplitTasks = 20'000'000;

namespace detail {
/// Replaces every node of `frontier` by its children, in DFS order (a
/// childless node stays). Returns false when no node had children. Throws
/// InvalidArgument("split_depth") past kMaxSplitTasks nodes.
template <TreeProblem P>
bool expand_level(const P& problem, std::vector<typename P::Node>& frontier, int depth) {
  std::vector<typename P::Node> next;
  bool grew = false;
  for (const auto& node : frontier) {
    auto kids = tree_children(problem, node);
    if (kids.empty()) {
      next.push_back(node);
    } else {
      grew = true;
      for (auto& k : kids) next.push_back(std::move(k));
    }
    if (next.size() > kMaxSplitTasks)
      throw InvalidArgument("split_depth", "depth " + std::to_string(depth) + " gives more than " +
                                                 std::to_string(kMaxSplitTasks) + " tasks; use a smaller depth");
  }
  if (grew) frontier = std::move(next);
  return grew;
}
}  // namespace detail

/// The frontier at `depth`, in DFS order: the nodes at that depth plus the
/// childless nodes above it. Depth 0 gives {root}. Throws
/// InvalidArgument("split_depth") when it would exceed kMaxSplitTasks.
template <TreeProblem P>
[[nodiscard]] std::vector<typename P::Node> expand(const P& problem, int depth) {
  std::vector<typename P::Node> frontier{problem.root()};
  for (int d = 0; d < depth; ++d)
    if (!detail::expand_level(problem, frontier, depth)) break;  // all leaves: deeper changes nothing
  return frontier;
}

/// The shallowest depth whose frontier has at least `min_tasks` nodes, or
/// the depth at which the whole tree is expanded (every task a leaf), capped
/// at `max_depth`.
template <TreeProblem P>
[[nodiscard]] int auto_split_depth(const P& problem, std::size_t min_tasks, int max_depth = 64) {
  std::vector<typename P::Node> frontier{problem.root()};
  int depth = 0;
  while (frontier.size() < min_tasks && depth < max_depth && detail::expand_level(problem, frontier, depth + 1))
    ++depth;
  return depth;
}

/// One Knuth probe (D. E. Knuth, "Estimating the efficiency of backtrack
/// programs", Math. Comp. 29 (1975)) of the subtree of `problem` below `from`:
/// one random path to a leaf, each child chosen uniformly, returning
/// 1 + d₁ + d₁d₂ + … for the child counts dᵢ met on the way. Its expected
/// value is the subtree's number of nodes, `from` included. Costs one
/// tree_children() call per level of the path.
template <TreeProblem P>
[[nodiscard]] double knuth_probe(const P& problem, const typename P::Node& from, std::mt19937_64& rng) {
  double weight = 1.0;
  double total = 1.0;
  typename P::Node node = from;
  for (;;) {
    auto kids = tree_children(problem, node);
    if (kids.empty()) return total;
    weight *= static_cast<double>(kids.size());
    total += weight;
    std::uniform_int_distribution<std::size_t> pick(0, kids.size() - 1);
    node = std::move(kids[pick(rng)]);
  }
}

/// Builds an engine Job from a tree problem split at `depth` (≥ 0).
/// The job owns the problem and the frontier; its probe is knuth_probe.
/// `counter_names` name the counters the kernel fills. The fingerprint gets " split=<depth>" appended.
template <TreeProblem P>
[[nodiscard]] Job make_tree_job(std::shared_ptr<const P> problem, int depth, std::string fingerprint,
                                std::vector<std::string> counter_names) {
  if (depth < 0) throw InvalidArgument("split_depth", "must be a whole number ≥ 0");
  auto frontier = std::make_shared<const std::vector<typename P::Node>>(expand(*problem, depth));
  Job job;
  job.fingerprint = std::move(fingerprint) + " split=" + std::to_string(depth);
  job.counter_names = std::move(counter_names);
  job.task_count = frontier->size();
  job.split_depth = depth;
  job.splits = !HasCountSubtree<P> || SplitsWhileRunning<P>;
  job.run_task = [problem, frontier](std::size_t id, Tally& out) {
    tree_count_subtree(*problem, (*frontier)[id], out);
  };
  job.probe = [problem, frontier](std::size_t id, std::mt19937_64& rng) {
    return knuth_probe(*problem, (*frontier)[id], rng);
  };
  return job;
}

}  // namespace pcount::engine
