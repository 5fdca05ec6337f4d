// The sweep kernel (the first general-shape kernel, kept as an oracle for
// GeneralKernel): per-cell candidate masks, every cell and unit swept until
// the singles reach a fixpoint.
#include <algorithm>

#include "pcount/sudoku/solver_kernels.hpp"

namespace pcount::sudoku::detail {

SweepKernel::SweepKernel(const Puzzle& puzzle) : puzzle_(puzzle) {
  check_shape(puzzle.shape);
  const BoxShape& shape = puzzle.shape;
  n_ = shape.side();
  cells_ = shape.cells();
  full_ = static_cast<std::uint16_t>((1u << n_) - 1u);
  // Units: rows, columns, boxes.
  units_.reserve(static_cast<std::size_t>(3 * cells_));
  for (int r = 0; r < n_; ++r)
    for (int c = 0; c < n_; ++c) units_.push_back(static_cast<std::uint16_t>(r * n_ + c));
  for (int c = 0; c < n_; ++c)
    for (int r = 0; r < n_; ++r) units_.push_back(static_cast<std::uint16_t>(r * n_ + c));
  for (int b = 0; b < n_; ++b) {
    const int r0 = (b / shape.rows) * shape.rows;
    const int c0 = (b % shape.rows) * shape.cols;
    for (int r = r0; r < r0 + shape.rows; ++r)
      for (int c = c0; c < c0 + shape.cols; ++c) units_.push_back(static_cast<std::uint16_t>(r * n_ + c));
  }
  // Peers: every other cell sharing a row, column or box.
  std::vector<std::vector<std::uint16_t>> peers(static_cast<std::size_t>(cells_));
  for (int i = 0; i < cells_; ++i)
    for (int j = 0; j < cells_; ++j) {
      if (i == j) continue;
      const int ri = i / n_, ci = i % n_, rj = j / n_, cj = j % n_;
      if (ri == rj || ci == cj || shape.box_of(ri, ci) == shape.box_of(rj, cj))
        peers[static_cast<std::size_t>(i)].push_back(static_cast<std::uint16_t>(j));
    }
  peer_count_ = static_cast<int>(peers[0].size());
  for (const auto& p : peers) peers_.insert(peers_.end(), p.begin(), p.end());
}

bool SweepKernel::start(State& s) const {
  s = State{};
  s.open = cells_;
  for (int i = 0; i < cells_; ++i) {
    const int v = puzzle_.cells[static_cast<std::size_t>(i)];
    s.cand[static_cast<std::size_t>(i)] = v ? static_cast<std::uint16_t>(1u << (v - 1)) : full_;
  }
  return propagate(s);
}

bool SweepKernel::propagate(State& s) const {
  for (;;) {
    bool changed = false;
    // Naked singles: place every cell with one candidate, clear it from peers.
    for (int i = 0; i < cells_; ++i) {
      if (is_placed(s, i)) continue;
      const std::uint16_t m = s.cand[static_cast<std::size_t>(i)];
      if (m == 0) return false;
      if (m & (m - 1)) continue;
      s.placed[static_cast<std::size_t>(i) >> 6] |= std::uint64_t{1} << (i & 63);
      --s.open;
      const std::uint16_t* p = peers_.data() + static_cast<std::size_t>(i * peer_count_);  // empty for 1x1
      for (int k = 0; k < peer_count_; ++k) {
        std::uint16_t& c = s.cand[p[k]];
        if (c & m) {
          c = static_cast<std::uint16_t>(c & ~m);
          if (c == 0) return false;
          changed = true;
        }
      }
    }
    // Hidden singles: a value with one place in a unit goes there.
    for (int u = 0; u < 3 * n_; ++u) {
      const std::uint16_t* cells = units_.data() + static_cast<std::size_t>(u * n_);
      unsigned ones = 0, twos = 0;
      for (int k = 0; k < n_; ++k) {
        const unsigned m = s.cand[cells[k]];
        twos |= ones & m;
        ones |= m;
      }
      if (ones != full_) return false;  // some value has no place in this unit
      unsigned hidden = ones & ~twos;
      while (hidden) {
        const unsigned bit = hidden & (0u - hidden);
        hidden ^= bit;
        int k = 0;
        while (k < n_ && !(s.cand[cells[k]] & bit)) ++k;
        if (k == n_) return false;  // taken by another hidden single of this unit
        std::uint16_t& c = s.cand[cells[k]];
        if (c != bit) {
          c = static_cast<std::uint16_t>(bit);
          changed = true;
        }
      }
    }
    if (!changed) return true;
  }
}

Branch SweepKernel::choose(const State& s) const {
  Branch best;
  int best_count = 99;
  for (int i = 0; i < cells_; ++i) {
    if (is_placed(s, i)) continue;
    const int k = std::popcount(static_cast<unsigned>(s.cand[static_cast<std::size_t>(i)]));
    if (k < best_count) {
      best_count = k;
      best.cell = i;
      best.candidates = s.cand[static_cast<std::size_t>(i)];
      if (k <= 2) break;
    }
  }
  return best;
}

int SweepKernel::open_cells(const State& s, std::uint16_t* cells, std::uint16_t* masks, int max) const {
  if (s.open > max) return s.open;
  int k = 0;
  for (int i = 0; i < cells_; ++i) {
    if (is_placed(s, i)) continue;
    cells[k] = static_cast<std::uint16_t>(i);
    masks[k] = s.cand[static_cast<std::size_t>(i)];
    ++k;
  }
  return k;
}

void SweepKernel::write(const State& s, std::uint8_t* cells) const {
  for (int i = 0; i < cells_; ++i)
    cells[i] = static_cast<std::uint8_t>(std::countr_zero(static_cast<unsigned>(s.cand[static_cast<std::size_t>(i)])) + 1);
}

}  // namespace pcount::sudoku::detail
