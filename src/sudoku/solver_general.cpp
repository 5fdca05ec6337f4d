// General-shape kernel on digit bitboards (solver_kernels.hpp, GeneralKernel).
#include <algorithm>
#include <bit>

#include "pcount/sudoku/solver_kernels.hpp"

namespace pcount::sudoku::detail {

bool general_locked_candidates = true;

namespace {
constexpr int kLanes = kMaxSide;
}  // namespace

GeneralKernel::GeneralKernel(const Puzzle& puzzle) : shape_(puzzle.shape) {
  check_shape(puzzle.shape);
  n_ = shape_.side();
  full_ = static_cast<std::uint16_t>((1u << n_) - 1u);
  std::copy(puzzle.cells.begin(), puzzle.cells.end(), clues_.begin());
  const auto box_columns = static_cast<std::uint16_t>((1u << shape_.cols) - 1u);
  for (int c = 0; c < n_; ++c) segment_[static_cast<std::size_t>(c)] = static_cast<std::uint16_t>(box_columns << (c / shape_.cols * shape_.cols));
  for (int r = 0; r < n_; ++r) band_[static_cast<std::size_t>(r)] = static_cast<std::uint8_t>(r / shape_.rows * shape_.rows);
}

bool GeneralKernel::start(State& s) const {
  s = State{};
  s.open = n_ * n_;
  for (int d = 0; d < n_; ++d)
    for (int r = 0; r < n_; ++r) s.f[static_cast<std::size_t>(d)][static_cast<std::size_t>(r)] = full_;
  for (int i = 0; i < n_ * n_; ++i) {
    const int v = clues_[static_cast<std::size_t>(i)];
    if (v && !place(s, v - 1, i / n_, i % n_)) return false;
  }
  return propagate(s);
}

bool GeneralKernel::place(State& s, int d, int r, int c) const {
  const auto bit = static_cast<std::uint16_t>(1u << c);
  const auto row = static_cast<std::size_t>(r);
  Board& x = s.f[static_cast<std::size_t>(d)];
  if (!(x[row] & bit)) return false;
  if (s.solved[row] & bit) return true;  // placed before (then with d: its other digits are gone)
  for (int e = 0; e < n_; ++e) s.f[static_cast<std::size_t>(e)][row] &= static_cast<std::uint16_t>(~bit);
  // The peers: the column (every lane), the box (the lanes of its band), the row.
  const unsigned first = band_[row];
  const auto box = static_cast<std::uint16_t>(segment_[static_cast<std::size_t>(c)] | bit);
  for (int l = 0; l < kLanes; ++l) {
    const bool in_band = static_cast<unsigned>(l) - first < static_cast<unsigned>(shape_.rows);
    x[static_cast<std::size_t>(l)] &= static_cast<std::uint16_t>(~(in_band ? box : bit));
  }
  x[row] = bit;
  s.solved[row] |= bit;
  --s.open;
  return true;
}

bool GeneralKernel::propagate(State& s) const {
  for (;;) {
    bool progress = false;
    if (!naked_singles(s, progress)) return false;
    if (progress) continue;
    if (s.open == 0) return true;
    if (!hidden_singles(s, progress)) return false;
    if (progress) continue;
    if (general_locked_candidates && !locked_candidates(s, progress)) return false;
    if (!progress) return true;
  }
}

bool GeneralKernel::naked_singles(State& s, bool& progress) const {
  const int n = n_;
  // Naked singles: cells with one candidate, by bit-sliced counting.
  Board ones{}, twos{};
  for (int d = 0; d < n; ++d) {
    const Board& x = s.f[static_cast<std::size_t>(d)];
    for (int l = 0; l < kLanes; ++l) {
      twos[static_cast<std::size_t>(l)] |=
          static_cast<std::uint16_t>(ones[static_cast<std::size_t>(l)] & x[static_cast<std::size_t>(l)]);
      ones[static_cast<std::size_t>(l)] |= x[static_cast<std::size_t>(l)];
    }
  }
  for (int r = 0; r < n; ++r) {
    const auto lane = static_cast<std::size_t>(r);
    if (ones[lane] != full_) return false;  // a cell without a candidate
    for (unsigned m = ones[lane] & ~twos[lane] & ~s.solved[lane] & 0xFFFFu; m; m &= m - 1) {
      const int c = std::countr_zero(m);
      int d = 0;
      while (d < n && !(s.f[static_cast<std::size_t>(d)][lane] >> c & 1u)) ++d;
      if (d == n || !place(s, d, r, c)) return false;  // emptied by a single placed before it
      progress = true;
    }
  }
  return true;
}

bool GeneralKernel::hidden_singles(State& s, bool& progress) const {
  const int n = n_, rows = shape_.rows, cols = shape_.cols;
  // Hidden singles, digit by digit: one place in a row, column or box.
  for (int d = 0; d < n; ++d) {
    Board& x = s.f[static_cast<std::size_t>(d)];
    Board hidden{};
    unsigned col_once = 0, col_twice = 0;
    for (int l = 0; l < n; ++l) {
      const unsigned v = x[static_cast<std::size_t>(l)];
      if (!v) return false;  // the digit has no place in row l
      hidden[static_cast<std::size_t>(l)] = static_cast<std::uint16_t>((v & (v - 1)) ? 0u : v);
      col_twice |= col_once & v;
      col_once |= v;
    }
    if (col_once != full_) return false;  // ... or in some column
    const unsigned col_single = col_once & ~col_twice;
    for (int b = 0; b < n; b += rows) {
      unsigned once = 0, twice = 0;
      for (int l = b; l < b + rows; ++l) {
        const unsigned v = x[static_cast<std::size_t>(l)];
        twice |= once & v;
        once |= v;
      }
      unsigned single_boxes = 0;
      for (int c0 = 0; c0 < n; c0 += cols) {
        const unsigned m = segment_[static_cast<std::size_t>(c0)];
        if (!(once & m)) return false;  // ... or in some box
        if (!(twice & m) && std::has_single_bit(once & m)) single_boxes |= m;
      }
      for (int l = b; l < b + rows; ++l)
        hidden[static_cast<std::size_t>(l)] |=
            static_cast<std::uint16_t>(x[static_cast<std::size_t>(l)] & (single_boxes | col_single));
    }
    for (int r = 0; r < n; ++r) {
      const auto lane = static_cast<std::size_t>(r);
      for (unsigned m = hidden[lane] & ~s.solved[lane] & 0xFFFFu; m; m &= m - 1) {
        if (!place(s, d, r, std::countr_zero(m))) return false;
        progress = true;
      }
    }
  }
  return true;
}

bool GeneralKernel::locked_candidates(State& s, bool& progress) const {
  const int n = n_, rows = shape_.rows, cols = shape_.cols;
  // Locked candidates, digit by digit and box by box.
  for (int d = 0; d < n; ++d) {
    Board& x = s.f[static_cast<std::size_t>(d)];
    for (int b = 0; b < n; b += rows) {
      unsigned in = 0;
      for (int l = b; l < b + rows; ++l) in |= x[static_cast<std::size_t>(l)];
      unsigned out = 0;  // columns with a place outside the band
      for (int l = 0; l < n; ++l)
        if (l < b || l >= b + rows) out |= x[static_cast<std::size_t>(l)];
      for (int c0 = 0; c0 < n; c0 += cols) {
        const unsigned m = segment_[static_cast<std::size_t>(c0)];
        int in_rows = 0, last = b;
        for (int l = b; l < b + rows; ++l)
          if (x[static_cast<std::size_t>(l)] & m) {
            ++in_rows;
            last = l;
          }
        if (in_rows == 0) return false;  // the box lost the digit
        // Pointing along a row: the box's places are in one row.
        if (in_rows == 1 && (x[static_cast<std::size_t>(last)] & ~m)) {
          x[static_cast<std::size_t>(last)] &= static_cast<std::uint16_t>(m);
          progress = true;
        }
        // Pointing along a column: the box's places are in one column.
        const unsigned box_cols = in & m;
        if (std::has_single_bit(box_cols) && (out & box_cols)) {
          for (int l = 0; l < n; ++l)
            if (l < b || l >= b + rows) x[static_cast<std::size_t>(l)] &= static_cast<std::uint16_t>(~box_cols);
          out &= ~box_cols;
          progress = true;
        }
        // Claiming by a row: all of its places are in this box.
        for (int l = b; l < b + rows; ++l) {
          const unsigned v = x[static_cast<std::size_t>(l)];
          if (!v || (v & ~m)) continue;
          for (int k = b; k < b + rows; ++k)
            if (k != l && (x[static_cast<std::size_t>(k)] & m)) {
              x[static_cast<std::size_t>(k)] &= static_cast<std::uint16_t>(~m);
              progress = true;
            }
        }
        // Claiming by a column: all of its places are in this band.
        for (unsigned cl = box_cols & ~out; cl; cl &= cl - 1) {
          const unsigned keep = ~(m & ~(cl & (0u - cl)));
          for (int l = b; l < b + rows; ++l)
            if (x[static_cast<std::size_t>(l)] & ~keep) {
              x[static_cast<std::size_t>(l)] &= static_cast<std::uint16_t>(keep);
              progress = true;
            }
        }
      }
    }
  }
  return true;
}

std::uint32_t GeneralKernel::candidates(const State& s, int r, int c) const {
  std::uint32_t m = 0;
  for (int d = 0; d < n_; ++d) m |= static_cast<std::uint32_t>(s.f[static_cast<std::size_t>(d)][static_cast<std::size_t>(r)] >> c & 1u) << d;
  return m;
}

Branch GeneralKernel::choose(const State& s) const {
  // Cells with exactly two candidates, by bit-sliced counting to three.
  Board ones{}, twos{}, threes{};
  for (int d = 0; d < n_; ++d) {
    const Board& x = s.f[static_cast<std::size_t>(d)];
    for (int l = 0; l < kLanes; ++l) {
      const auto i = static_cast<std::size_t>(l);
      threes[i] |= static_cast<std::uint16_t>(twos[i] & x[i]);
      twos[i] |= static_cast<std::uint16_t>(ones[i] & x[i]);
      ones[i] |= x[i];
    }
  }
  // Among the bivalue cells, the one with the most open peers (the
  // "degree" tie-break of graph colouring): its value prunes the most.
  Branch best;
  std::array<int, kMaxSide> row_open{};
  for (int r = 0; r < n_; ++r) {
    const unsigned open = ~s.solved[static_cast<std::size_t>(r)] & full_;
    row_open[static_cast<std::size_t>(r)] = std::popcount(open);
  }
  int best_degree = -1;
  for (int r = 0; r < n_; ++r) {
    for (unsigned pair = twos[static_cast<std::size_t>(r)] & ~threes[static_cast<std::size_t>(r)] & ~s.solved[static_cast<std::size_t>(r)] & 0xFFFFu; pair; pair &= pair - 1) {
      const int c = std::countr_zero(pair);
      int degree = row_open[static_cast<std::size_t>(r)];
      for (int l = 0; l < n_; ++l) degree += static_cast<int>(~s.solved[static_cast<std::size_t>(l)] >> c & 1u);
      const unsigned first = band_[static_cast<std::size_t>(r)];
      for (int l = static_cast<int>(first); l < static_cast<int>(first) + shape_.rows; ++l)
        degree += std::popcount(~s.solved[static_cast<std::size_t>(l)] & segment_[static_cast<std::size_t>(c)] & ~(l == r ? 0xFFFFu : 0u));
      if (degree > best_degree) {
        best_degree = degree;
        best.cell = r * n_ + c;
      }
    }
  }
  if (best_degree >= 0) {
    best.candidates = candidates(s, best.cell / n_, best.cell % n_);
    return best;
  }
  int fewest = 99;
  for (int r = 0; r < n_; ++r)
    for (unsigned m = ~s.solved[static_cast<std::size_t>(r)] & full_; m; m &= m - 1) {
      const int c = std::countr_zero(m);
      const std::uint32_t cand = candidates(s, r, c);
      const int k = std::popcount(cand);
      if (k < fewest) {
        fewest = k;
        best.cell = r * n_ + c;
        best.candidates = cand;
      }
    }
  return best;
}

int GeneralKernel::open_cells(const State& s, std::uint16_t* cells, std::uint16_t* masks, int max) const {
  if (s.open > max) return s.open;
  int k = 0;
  for (int r = 0; r < n_; ++r)
    for (unsigned m = ~s.solved[static_cast<std::size_t>(r)] & full_; m; m &= m - 1) {
      const int c = std::countr_zero(m);
      cells[k] = static_cast<std::uint16_t>(r * n_ + c);
      masks[k] = static_cast<std::uint16_t>(candidates(s, r, c));
      ++k;
    }
  return k;
}

void GeneralKernel::write(const State& s, std::uint8_t* cells) const {
  for (int d = 0; d < n_; ++d)
    for (int r = 0; r < n_; ++r)
      for (unsigned m = s.f[static_cast<std::size_t>(d)][static_cast<std::size_t>(r)]; m; m &= m - 1)
        cells[r * n_ + std::countr_zero(m)] = static_cast<std::uint8_t>(d + 1);
}

}  // namespace pcount::sudoku::detail
