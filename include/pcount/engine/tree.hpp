#pragma once
/// @file
/// Depth-bounded decomposition of a search tree into engine tasks.
///
/// A tree problem describes its tree and nothing about threads:
/// - `Node`: a copyable search state;
/// - `root()`: the root node;
/// - `children(node)`: the node's children in a fixed order (used only for
///   the shallow expansion, so it may allocate);
/// - `count_subtree(node, tally)`: the fast sequential kernel, adding the
///   counts of the whole subtree below `node` (node included) to `tally`.
/// The coordinator expands the tree in DFS order down to the split depth;
/// every node at that depth, and every childless node above it, becomes one
/// task, its id being its position in DFS order.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "pcount/errors.hpp"
#include "pcount/engine/task.hpp"

namespace pcount::engine {

/// A search tree the depth-split coordinator can decompose (see file comment).
template <class P>
concept TreeProblem = requires(const P& p, const typename P::Node& n, Tally& t) {
  typename P::Node;
  { p.root() } -> std::convertible_to<typename P::Node>;
  { p.children(n) } -> std::convertible_to<std::vector<typename P::Node>>;
  p.count_subtree(n, t);
};

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
    auto kids = problem.children(node);
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
/// children() call per level of the path.
template <TreeProblem P>
[[nodiscard]] double knuth_probe(const P& problem, const typename P::Node& from, std::mt19937_64& rng) {
  double weight = 1.0;
  double total = 1.0;
  typename P::Node node = from;
  for (;;) {
    auto kids = problem.children(node);
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
  job.run_task = [problem, frontier](std::size_t id, Tally& out) { problem->count_subtree((*frontier)[id], out); };
  job.probe = [problem, frontier](std::size_t id, std::mt19937_64& rng) {
    return knuth_probe(*problem, (*frontier)[id], rng);
  };
  return job;
}

}  // namespace pcount::engine
