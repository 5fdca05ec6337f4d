#include "pcount/sudoku/grids/grids.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include "pcount/engine/split.hpp"
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
/// Walker that gives parts of its search away while the run wants them
/// (engine::Subtasks). Its frames are the checked cells (before
/// check_before: the top half of the grid); when a part is wanted it gives
/// away the untried digits of the shallowest frame that has any, as a node
/// with the cells from that frame on undone, so a part is at least a
/// search of the bottom half. Below the frames Walker runs unchanged.
struct SplitWalker {
  const GridSearchTree& tree;
  GridSearchTree::Node state;
  int cells;
  int n;
  const std::array<std::uint8_t, GridSearchTree::kMaxSide * GridSearchTree::kMaxSide>& box_of;
  int check_before;
  engine::Subtasks& parts;
  int start;  ///< the first cell this walker fills
  std::uint64_t grids = 0;
  std::uint64_t nodes = 0;
  std::array<std::uint32_t*, GridSearchTree::kMaxSide * GridSearchTree::kMaxSide> rest{};  ///< untried digits, by cell

  void dfs() {
    if (state.pos >= check_before) {
      Walker w{tree, state, cells, n, box_of, 0, 0, check_before};
      w.dfs<false>();
      grids += w.grids;
      nodes += w.nodes;
      return;
    }
    engine::throw_if_stopped();
    ++nodes;
    branch(tree.candidates(state));
  }

  /// Walks the digits `mask` of the next cell (the node not counted).
  void branch(std::uint32_t mask) {
    const auto p = static_cast<std::size_t>(state.pos);
    rest[p] = &mask;
    while (mask) {
      const int d = __builtin_ctz(mask);
      mask &= mask - 1;
      if (parts.wanted()) offer();
      flip(p, d);
      ++state.pos;
      dfs();
      --state.pos;
      flip(p, d);
    }
    rest[p] = nullptr;  // `mask` ends here
  }

  /// Puts digit d into cell p's row, column and box masks, or takes it out.
  void flip(std::size_t p, int d) {
    const auto bit = static_cast<std::uint16_t>(1u << d);
    state.cell[p] = static_cast<std::uint8_t>(d);
    state.row[p / static_cast<std::size_t>(n)] ^= bit;
    state.col[p % static_cast<std::size_t>(n)] ^= bit;
    state.box[box_of[p]] ^= bit;
  }

  /// Gives away the untried digits of the shallowest open cell.
  void offer() {
    for (int at = start; at <= state.pos; ++at) {
      const auto a = static_cast<std::size_t>(at);
      if (rest[a] == nullptr || *rest[a] == 0) continue;
      GridSearchTree::Node seed = state;
      for (std::size_t q = a; q < static_cast<std::size_t>(state.pos); ++q) {  // undo the cells from `at` on
        const auto bit = static_cast<std::uint16_t>(1u << seed.cell[q]);
        seed.row[q / static_cast<std::size_t>(n)] ^= bit;
        seed.col[q % static_cast<std::size_t>(n)] ^= bit;
        seed.box[box_of[q]] ^= bit;
      }
      seed.pos = at;
      const std::uint32_t digits = std::exchange(*rest[a], 0u);
      parts.give([tree = &tree, seed, digits, cells = cells, n = n, box = &box_of, check = check_before](
                     engine::Tally& out, std::string*) {
        engine::Subtasks more;
        SplitWalker w{*tree, seed, cells, n, *box, check, more, seed.pos};
        w.branch(digits);
        w.add_to(out);
        more.join(out);
      });
      return;
    }
  }

  /// Adds the grids found to counter 0 of `out` and the nodes to out.nodes.
  void add_to(engine::Tally& out) const {
    out.add(0, grids);
    out.nodes = checked_add(out.nodes, nodes);
  }
};

}  // namespace

void GridSearchTree::count_subtree(const Node& node, engine::Tally& tally) const {
  engine::Subtasks parts;
  const int check_before = n_ * (n_ - n_ / 2);
  if (parts.enabled() && node.pos < check_before) {  // parts may be given away
    SplitWalker w{*this, node, n_ * n_, n_, box_of_, check_before, parts, node.pos};
    w.dfs();
    w.add_to(tally);
    parts.join(tally);
    return;
  }
  Node state = node;
  Walker w{*this, state, n_ * n_, n_, box_of_, 0, 0, n_ * (n_ - n_ / 2)};
  w.dfs<true>();
  tally.add(0, w.grids);
  tally.nodes = checked_add(tally.nodes, w.nodes);
}

}  // namespace pcount::sudoku
