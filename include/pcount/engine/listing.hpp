#pragma once
/// @file
/// Listing the leaves of a search tree depth-first: the one walker behind
/// every `--list` job (reduced Latin squares, sudoku grids and puzzle
/// solutions, N-Queens). The engine knows no problem: a tree says how a
/// node branches and how a leaf is written.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pcount/u128.hpp"
#include "pcount/engine/task.hpp"
#include "pcount/engine/tree.hpp"

namespace pcount::engine {

/// A BranchingTree (engine/tree.hpp) whose leaves can be written:
/// - `write(node, json, text)`: appends the leaf as one line ending in
///   '\n' (a JSON object when `json`).
template <class T>
concept BitBranchingTree = BranchingTree<T> && requires(const T& t, const typename T::Node& n, std::string& s) {
  t.write(n, true, s);
};

/// What a listing walk saw.
using ListedLeaves = WalkedLeaves;

/// Walks the subtree below `node` (node included) depth-first in choice
/// order (walk_leaves); every leaf is counted and, when `text` is not null,
/// appended to it by tree.write. Stops after `limit` leaves (0: no limit).
/// Throws TaskAbandoned on a stop, like every task.
template <BitBranchingTree T>
[[nodiscard]] ListedLeaves list_leaves(const T& tree, const typename T::Node& node, std::string* text, bool json,
                                       std::uint64_t limit) {
  return walk_leaves(
      tree, node,
      [&](const typename T::Node& leaf) {
        if (text) tree.write(leaf, json, *text);
      },
      limit);
}

/// Lists the leaves below `node` into `text` (at most `limit`, 0 = all) and
/// adds their number to counter `counter` of `tally`, the nodes visited to
/// Tally::nodes: one listing task. Without a limit, parts may be given
/// away (walk_splitting; the text is the same).
template <BitBranchingTree T>
void list_subtree(const T& tree, const typename T::Node& node, Tally& tally, std::size_t counter, std::string& text,
                  bool json, std::uint64_t limit) {
  if (limit == 0) {  // parts may be given away (engine/split.hpp)
    walk_splitting(
        tree, node,
        [&tree, json](const typename T::Node& leaf, std::string* out) {
          if (out) tree.write(leaf, json, *out);
        },
        counter, tally, &text);
    return;
  }
  const ListedLeaves seen = list_leaves(tree, node, &text, json, limit);
  tally.add(counter, seen.found);
  tally.nodes = checked_add(tally.nodes, u128{seen.nodes});
}

/// The listing job of a tree split at `depth` (< 0: the shallowest depth
/// giving `min_tasks` tasks, auto_split_depth): make_tree_job's tasks and
/// fingerprint (" split=D" appended), each task writing its leaves in DFS
/// order (Job::run_task_output), one line each, counted in the one counter
/// `counter_name` (Job::listed_counter 0). With a `limit` (each task stops
/// after that many leaves) the job has no probe: --list K may stop long
/// before the end. Throws what make_tree_job throws.
template <BitBranchingTree T>
[[nodiscard]] Job make_list_tree_job(std::shared_ptr<const T> tree, int depth, std::size_t min_tasks,
                                     std::string fingerprint, std::string counter_name, bool json,
                                     std::uint64_t limit) {
  if (depth < 0) depth = auto_split_depth(*tree, min_tasks);
  Job job = make_tree_job(tree, depth, std::move(fingerprint), {std::move(counter_name)});
  auto frontier = std::make_shared<const std::vector<typename T::Node>>(expand(*tree, depth));
  job.run_task = nullptr;
  job.run_task_output = [tree, frontier, json, limit](std::size_t id, Tally& out, std::string& text) {
    list_subtree(*tree, (*frontier)[id], out, 0, text, json, limit);
  };
  if (limit != 0) job.probe = nullptr;
  job.splits = limit == 0;  // a limit counts leaves in walk order: no parts
  job.listed_counter = 0;
  return job;
}

}  // namespace pcount::engine
