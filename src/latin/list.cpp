// `--latin N --list`: every reduced Latin square (rectangle), one per line.
#include <array>
#include <memory>
#include <string>

#include "pcount/engine/listing.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/latin/search.hpp"

namespace pcount::latin {

namespace {

class ListTree {
public:
  struct Node {
    int cell = 0;  ///< next cell to fill, row-major; n·k when done
    std::array<std::uint8_t, kMaxSearchOrder * kMaxSearchOrder> sym{};  ///< 0-based symbols
    std::array<std::uint32_t, kMaxSearchOrder> row{}, col{};          ///< symbols used
  };

  ListTree(int n, int k) : n_(n), k_(k) {
    if (n < 1 || n > kMaxSearchOrder)
      throw InvalidArgument("order", "expected N from 1 to " + std::to_string(kMaxSearchOrder) + ", got " +
                                         std::to_string(n));
    if (k < 1 || k > n) throw InvalidArgument("--rows", "expected K from 1 to N = " + std::to_string(n));
    for (int c = 0; c < n_; ++c) set(root_, c, c);  // row 0: 1..n
    for (int r = 1; r < k_; ++r) set(root_, r * n_, r);  // column 0: 1..k
    root_.cell = next(root_, 0);
  }

  [[nodiscard]] Node root() const { return root_; }

  // The listing walk (engine/listing.hpp): choice s is the 0-based symbol of the next empty cell.
  [[nodiscard]] bool is_leaf(const Node& node) const { return node.cell == n_ * k_; }
  [[nodiscard]] std::uint32_t candidates(const Node& node) const {
    const int i = node.cell;
    const std::uint32_t full = n_ == 32 ? ~0u : (1u << n_) - 1u;
    return full & ~(node.row[static_cast<std::size_t>(i / n_)] | node.col[static_cast<std::size_t>(i % n_)]);
  }
  [[nodiscard]] Node child(const Node& node, int s) const {
    Node c = node;
    set(c, node.cell, s);
    c.cell = next(c, node.cell + 1);
    return c;
  }
  void write(const Node& node, bool json, std::string& t) const {
    t += json ? "{\"rows\":[" : "";
    for (int r = 0; r < k_; ++r) {
      if (r > 0) t += json ? "," : " ";
      if (json) t += '"';
      for (int c = 0; c < n_; ++c) {
        const int v = node.sym[static_cast<std::size_t>(r * n_ + c)];  // 1..n
        t += static_cast<char>(v <= 9 ? '0' + v : 'A' + v - 10);
      }
      if (json) t += '"';
    }
    t += json ? "]}\n" : "\n";
  }

private:
  void set(Node& node, int i, int s) const {
    node.sym[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(s + 1);  // 0 = empty while building
    node.row[static_cast<std::size_t>(i / n_)] |= 1u << s;
    node.col[static_cast<std::size_t>(i % n_)] |= 1u << s;
  }
  [[nodiscard]] int next(const Node& node, int from) const {
    while (from < n_ * k_ && node.sym[static_cast<std::size_t>(from)] != 0) ++from;
    return from;
  }

  int n_, k_;
  Node root_;
};

}  // namespace

engine::Job make_list_job(int n, int k, int depth, std::size_t min_tasks, std::string fingerprint, bool json,
                          std::uint64_t limit) {
  return engine::make_list_tree_job(std::make_shared<const ListTree>(n, k), depth, min_tasks, std::move(fingerprint),
                                    "reduced", json, limit);
}

}  // namespace pcount::latin
