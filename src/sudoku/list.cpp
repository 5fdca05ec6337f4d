// Listing sudoku grids and puzzle solutions (include/pcount/sudoku/list.hpp).
#include "pcount/sudoku/list.hpp"

#include <array>
#include <memory>

#include "pcount/engine/listing.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/sudoku/puzzle.hpp"

namespace pcount::sudoku {

namespace {

class FillTree {
public:
  struct Node {
    int pos = 0;  ///< the cell filled next (choose()), N² when full
    std::array<std::uint8_t, 256> cell{};
    std::array<std::uint32_t, 16> row{}, col{}, box{};  ///< values used, bit v-1
  };

  FillTree(const BoxShape& shape, const std::vector<std::uint8_t>& cells) : shape_(shape), n_(shape.side()) {
    for (int i = 0; i < n_ * n_; ++i) {
      const int v = cells[static_cast<std::size_t>(i)];
      root_.cell[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v);
      if (v != 0) mark(root_, i, v);
    }
    root_.pos = choose(root_);
  }

  [[nodiscard]] Node root() const { return root_; }

  // The listing walk (engine/listing.hpp): choice i puts value i + 1 in the chosen cell.
  [[nodiscard]] bool is_leaf(const Node& node) const { return node.pos == n_ * n_; }
  [[nodiscard]] std::uint32_t candidates(const Node& node) const { return candidates_at(node, node.pos); }
  [[nodiscard]] Node child(const Node& node, int i) const {
    Node k = node;
    k.cell[static_cast<std::size_t>(node.pos)] = static_cast<std::uint8_t>(i + 1);
    mark(k, node.pos, i + 1);
    k.pos = choose(k);
    return k;
  }
  void write(const Node& node, bool json, std::string& text) const {
    const std::size_t cells = static_cast<std::size_t>(n_ * n_);
    const std::string line =
        to_line(std::vector<std::uint8_t>(node.cell.begin(), node.cell.begin() + static_cast<std::ptrdiff_t>(cells)));
    text += json ? "{\"grid\":\"" + line + "\"}\n" : line + "\n";
  }

private:
  [[nodiscard]] int box_of(int i) const { return shape_.box_of(i / n_, i % n_); }
  void mark(Node& node, int i, int v) const {
    const std::uint32_t bit = 1u << (v - 1);
    node.row[static_cast<std::size_t>(i / n_)] |= bit;
    node.col[static_cast<std::size_t>(i % n_)] |= bit;
    node.box[static_cast<std::size_t>(box_of(i))] |= bit;
  }
  /// The empty cell with the fewest candidates (the lowest index among
  /// equals), or N² when the grid is full.
  [[nodiscard]] int choose(const Node& node) const {
    int best = n_ * n_, fewest = 99;
    for (int i = 0; i < n_ * n_; ++i) {
      if (node.cell[static_cast<std::size_t>(i)] != 0) continue;
      const int k = __builtin_popcount(candidates_at(node, i));
      if (k < fewest) {
        best = i;
        fewest = k;
        if (k <= 1) break;
      }
    }
    return best;
  }
  [[nodiscard]] std::uint32_t candidates_at(const Node& node, int i) const {
    const std::uint32_t used = node.row[static_cast<std::size_t>(i / n_)] | node.col[static_cast<std::size_t>(i % n_)] |
                               node.box[static_cast<std::size_t>(box_of(i))];
    return ((1u << n_) - 1u) & ~used;
  }

  BoxShape shape_;
  int n_;
  Node root_;
};

}  // namespace

engine::Job make_grid_list_job(const BoxShape& shape, const std::vector<std::uint8_t>& cells,
                               const ListJobOptions& options) {
  check_shape(shape);  // FillTree holds at most 16×16 cells
  if (cells.size() != static_cast<std::size_t>(shape.cells()))
    throw InvalidArgument("cells", "expected " + std::to_string(shape.cells()) + " cells, got " +
                                       std::to_string(cells.size()));
  return engine::make_list_tree_job(std::make_shared<const FillTree>(shape, cells), options.split_depth,
                                    options.min_tasks, options.fingerprint, "grids", options.json, options.limit);
}

}  // namespace pcount::sudoku
