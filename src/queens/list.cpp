// `--queens N --list`: the search job with each solution written out.
#include <array>
#include <memory>
#include <string>

#include "pcount/engine/listing.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/queens/search.hpp"

namespace pcount::queens {

namespace {

/// The QueensTree with the column of each placed queen kept in the node,
/// so a task can write the solutions below its node.
class ListTree {
public:
  struct Node {
    int row = 0;
    std::uint32_t cols = 0, diag1 = 0, diag2 = 0;
    std::array<std::uint8_t, kMaxN> column{};  ///< column (0-based) of the queen in rows 0..row-1
  };

  explicit ListTree(int n) : n_(n), full_(n == 32 ? ~0u : (1u << n) - 1u) {}

  [[nodiscard]] Node root() const { return Node{}; }

  // The listing walk (engine/listing.hpp): choice c puts the next row's queen in column c.
  [[nodiscard]] bool is_leaf(const Node& node) const { return node.row == n_; }
  [[nodiscard]] std::uint32_t candidates(const Node& node) const { return full_ & ~(node.cols | node.diag1 | node.diag2); }
  [[nodiscard]] Node child(const Node& node, int c) const {
    const std::uint32_t bit = 1u << c;
    Node k = node;
    k.column[static_cast<std::size_t>(node.row)] = static_cast<std::uint8_t>(c);
    k.row = node.row + 1;
    k.cols = node.cols | bit;
    k.diag1 = ((node.diag1 | bit) << 1) & full_;
    k.diag2 = (node.diag2 | bit) >> 1;
    return k;
  }
  void write(const Node& node, bool json, std::string& t) const {
    t += json ? "{\"columns\":[" : "";
    for (int r = 0; r < n_; ++r) {
      if (r > 0) t += json ? ',' : ' ';
      t += std::to_string(node.column[static_cast<std::size_t>(r)] + 1);
    }
    t += json ? "]}\n" : "\n";
  }

private:
  int n_;
  std::uint32_t full_;
};

}  // namespace

engine::Job make_list_job(int n, int depth, const std::string& fingerprint, bool json, std::uint64_t limit) {
  // Counted the same way (make_search_job) so the two symmetric tasks and the
  // ids agree; the tree tasks are replaced by listing ones.
  engine::Job job = make_search_job(n, depth, fingerprint);
  auto tree = std::make_shared<const ListTree>(n);
  auto frontier = std::make_shared<const std::vector<ListTree::Node>>(engine::expand(*tree, depth));
  const std::size_t tree_tasks = frontier->size();
  if (tree_tasks + 2 != job.task_count)
    throw InternalError("queens --list: " + std::to_string(tree_tasks) + " listing tasks, the search job has " +
                        std::to_string(job.task_count - 2));
  job.run_task_output = [tree, frontier, tree_tasks, json, limit, inner = job.run_task](
                            std::size_t id, engine::Tally& out, std::string& text) {
    if (id >= tree_tasks) return inner(id, out);
    engine::list_subtree(*tree, (*frontier)[id], out, kAll, text, json, limit);
  };
  job.splits = limit == 0;  // list_subtree gives parts away unless a limit counts leaves in walk order
  job.listed_counter = 0;  // "all": one line per solution; the two symmetric-count tasks print nothing
  job.run_task = nullptr;
  return job;
}

}  // namespace pcount::queens
