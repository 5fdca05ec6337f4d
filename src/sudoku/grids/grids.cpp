#include "pcount/sudoku/grids/grids.hpp"

#include <stdexcept>

#include "pcount/engine/task.hpp"

namespace pcount::sudoku {

BigInt reduced_multiplier(BoxShape shape) {
  if (shape.rows < 1 || shape.cols < 1) throw std::invalid_argument("box shape must have R, C ≥ 1");
  return factorial(shape.side()) * factorial(shape.cols) * factorial(shape.rows - 1);
}

GridSearchTree::GridSearchTree(BoxShape shape) : shape_(shape), n_(shape.side()) {
  if (shape.rows < 2 || shape.cols < 2 || n_ > kMaxSide)
    throw std::invalid_argument("grid search needs R, C ≥ 2 and R·C ≤ 9, got " + shape.name());
  full_ = (1u << n_) - 1u;
  for (int r = 0; r < n_; ++r)
    for (int c = 0; c < n_; ++c)
      box_of_[static_cast<std::size_t>(r * n_ + c)] =
          static_cast<std::uint8_t>((r / shape.rows) * shape.rows + c / shape.cols);
}

GridSearchTree::Node GridSearchTree::root() const {
  Node node;
  for (int c = 0; c < n_; ++c) {
    const auto bit = static_cast<std::uint16_t>(1u << c);
    const auto i = static_cast<std::size_t>(c);
    node.cell[i] = static_cast<std::uint8_t>(c);
    node.row[0] = static_cast<std::uint16_t>(node.row[0] | bit);
    node.col[i] = bit;
    node.box[box_of_[i]] = static_cast<std::uint16_t>(node.box[box_of_[i]] | bit);
  }
  node.pos = n_;
  return node;
}

std::uint32_t GridSearchTree::candidates(const Node& node) const {
  if (node.pos >= n_ * n_) return 0;
  const int r = node.pos / n_;
  const int c = node.pos % n_;
  const auto p = static_cast<std::size_t>(node.pos);
  std::uint32_t mask =
      full_ & ~static_cast<std::uint32_t>(node.row[static_cast<std::size_t>(r)] |
                                          node.col[static_cast<std::size_t>(c)] | node.box[box_of_[p]]);
  if (r < shape_.rows && c < shape_.cols) {  // rest of box 0: reduced-grid order
    if (r == 1 && c == 0) {
      mask &= 1u << shape_.cols;  // the smallest digit of M sits at (1,0)
    } else if (r == 1) {
      mask &= ~((2u << node.cell[p - 1]) - 1u);  // row 1 increasing
    } else if (c == 0) {
      mask &= ~((2u << node.cell[p - static_cast<std::size_t>(n_)]) - 1u);  // column 0 increasing
    }
  }
  return mask;
}

std::vector<GridSearchTree::Node> GridSearchTree::children(const Node& node) const {
  std::vector<Node> kids;
  std::uint32_t mask = candidates(node);
  const auto p = static_cast<std::size_t>(node.pos);
  const auto r = static_cast<std::size_t>(node.pos / n_);
  const auto c = static_cast<std::size_t>(node.pos % n_);
  while (mask) {
    const int d = __builtin_ctz(mask);
    mask &= mask - 1;
    Node kid = node;
    const auto bit = static_cast<std::uint16_t>(1u << d);
    kid.cell[p] = static_cast<std::uint8_t>(d);
    kid.row[r] = static_cast<std::uint16_t>(kid.row[r] | bit);
    kid.col[c] = static_cast<std::uint16_t>(kid.col[c] | bit);
    kid.box[box_of_[p]] = static_cast<std::uint16_t>(kid.box[box_of_[p]] | bit);
    kid.pos = node.pos + 1;
    kids.push_back(kid);
  }
  return kids;
}

namespace {
/// The sequential kernel: fills the working node in place, undoing on return.
struct Walker {
  const GridSearchTree& tree;
  GridSearchTree::Node& state;
  int cells;
  int n;
  const std::array<std::uint8_t, GridSearchTree::kMaxSide * GridSearchTree::kMaxSide>& box_of;
  std::uint64_t grids = 0;
  std::uint64_t nodes = 0;
  /// Nodes before this cell check for a stop (engine::throw_if_stopped);
  /// the last n/2 rows are searched without checks: with the rows above
  /// filled, their subtrees are small (on 9 × 9, five filled rows leave a
  /// few thousand grids at most), and the checked nodes above them are a
  /// vanishing share of the search.
  int check_before;

  template <bool Checked>
  void dfs() {
    if constexpr (Checked) {
      if (state.pos >= check_before) return dfs<false>();
      engine::throw_if_stopped();
    }
    ++nodes;
    if (state.pos == cells) {
      ++grids;
      return;
    }
    std::uint32_t mask = tree.candidates(state);
    const auto p = static_cast<std::size_t>(state.pos);
    const auto r = static_cast<std::size_t>(state.pos / n);
    const auto c = static_cast<std::size_t>(state.pos % n);
    const std::size_t b = box_of[p];
    while (mask) {
      const int d = __builtin_ctz(mask);
      mask &= mask - 1;
      const auto bit = static_cast<std::uint16_t>(1u << d);
      state.cell[p] = static_cast<std::uint8_t>(d);
      state.row[r] ^= bit;
      state.col[c] ^= bit;
      state.box[b] ^= bit;
      ++state.pos;
      dfs<Checked>();
      --state.pos;
      state.row[r] ^= bit;
      state.col[c] ^= bit;
      state.box[b] ^= bit;
    }
  }
};
}  // namespace

void GridSearchTree::count_subtree(const Node& node, engine::Tally& tally) const {
  Node state = node;
  Walker w{*this, state, n_ * n_, n_, box_of_, 0, 0, n_ * (n_ - n_ / 2)};
  w.dfs<true>();
  tally.add(0, w.grids);
  tally.nodes = checked_add(tally.nodes, w.nodes);
}

}  // namespace pcount::sudoku
