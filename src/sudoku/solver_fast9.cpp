// 9×9 kernel on band bitboards (see solver_kernels.hpp).
//
// Layout: cell (r, c) lies in band b = r/3 at position p = 9·(r mod 3) + c.
// A 9-bit "segment pattern" has bit 3·i + j set when row (or band) i may hold
// the digit in box (or column) j; a digit's placement in a band is a
// permutation i → j, so only segments of some permutation inside the pattern
// can be used.
#include <array>

#include "pcount/sudoku/solver_kernels.hpp"

namespace pcount::sudoku::detail {

namespace {

using u32 = std::uint32_t;

struct Tables {
  std::array<std::uint8_t, 512> box_presence{};  ///< row word (9 bits) → which of its 3 boxes are non-empty
  std::array<std::uint16_t, 512> perm_keep{};    ///< segment pattern → segments used by some permutation
  std::array<u32, 512> seg_expand{};             ///< segment pattern → 27-bit cell mask (rows × boxes)
  std::array<u32, 512> col_expand{};             ///< column set → 27-bit cell mask (all three rows)
  std::array<u32, 27> peers{};                   ///< row and box of p within the band, p excluded
};

constexpr Tables make_tables() {
  Tables t;
  for (unsigned w = 0; w < 512; ++w) {
    unsigned pres = 0;
    for (unsigned j = 0; j < 3; ++j)
      if (w & (7u << (3 * j))) pres |= 1u << j;
    t.box_presence[w] = static_cast<std::uint8_t>(pres);
    unsigned keep = 0;
    constexpr int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (const auto& perm : perms) {
      unsigned segs = 0;
      for (int i = 0; i < 3; ++i) segs |= 1u << (3 * i + perm[i]);
      if ((w & segs) == segs) keep |= segs;
    }
    t.perm_keep[w] = static_cast<std::uint16_t>(keep);
    u32 seg = 0, col = 0;
    for (unsigned i = 0; i < 3; ++i)
      for (unsigned j = 0; j < 3; ++j)
        if (w & (1u << (3 * i + j))) seg |= 7u << (9 * i + 3 * j);
    for (unsigned c = 0; c < 9; ++c)
      if (w & (1u << c)) col |= 0x40201u << c;
    t.seg_expand[w] = seg;
    t.col_expand[w] = col;
  }
  for (unsigned p = 0; p < 27; ++p) {
    const unsigned row = p / 9, box = (p % 9) / 3;
    t.peers[p] = ((0x1FFu << (9 * row)) | (0x1C0E07u << (3 * box))) & ~(1u << p);
  }
  return t;
}

constexpr Tables kT = make_tables();

/// Row × box segment pattern of a band board.
inline unsigned row_box_pattern(u32 m) {
  return kT.box_presence[m & 0x1FF] | (kT.box_presence[(m >> 9) & 0x1FF] << 3) |
         (kT.box_presence[m >> 18] << 6);
}

/// Columns (9 bits) in which a band board has a cell.
inline unsigned column_set(u32 m) { return (m | (m >> 9) | (m >> 18)) & 0x1FF; }

}  // namespace

Fast9Kernel::Fast9Kernel(const Puzzle& puzzle) {
  if (!(puzzle.shape == BoxShape{3, 3}) || puzzle.cells.size() != 81)
    throw InvalidArgument("box_shape", "the 9×9 kernel needs 3x3 boxes");
  for (std::size_t i = 0; i < 81; ++i) clues_[i] = puzzle.cells[i];
}

void Fast9Kernel::place(State& s, int d, int b, int p, Work& w) {
  const u32 bit = 1u << p;
  s.solved[static_cast<std::size_t>(b)] |= bit;
  u32* fb = s.f.data() + 9 * b;
  // The cell holds d only: clear it from every digit of the band (noting
  // which boards change), then give d its row and box, minus the other cells.
  u32 digits = 0;
  const u32 keep_other = ~bit, keep_d = ~kT.peers[static_cast<std::size_t>(p)];
  for (int e = 0; e < 9; ++e) {
    const u32 x = fb[e];
    digits |= ((x >> p) & 1u) << e;
    fb[e] = x & (e == d ? keep_d : keep_other);
  }
  u32 dirty = (digits | (1u << d)) << (9 * b);
  // d leaves the column in the other two bands.
  const u32 col = 0x40201u << (p % 9);
  u32 bands = 1u << b;
  for (int o = 0; o < 3; ++o) {
    if (o == b) continue;
    u32& x = s.f[static_cast<std::size_t>(9 * o + d)];
    const u32 hit = (x & col) != 0;
    x &= ~col;
    bands |= hit << o;
    dirty |= hit << (9 * o + d);
  }
  w.dirty |= dirty;
  w.digits |= digits | (1u << d);
  w.bands |= bands;
}

bool Fast9Kernel::propagate(State& s, Work& w) {
  u32* f = s.f.data();
  for (;;) {
    if ((s.solved[0] & s.solved[1] & s.solved[2]) == kBandFull) return true;  // placements are consistent
    if (w.bands) {
      // Naked singles: cells with one candidate digit; empty cells fail.
      const u32 bands = w.bands;
      w.bands = 0;
      for (int b = 0; b < 3; ++b) {
        if (!((bands >> b) & 1u)) continue;
        const u32* fb = f + 9 * b;
        u32 ones = 0, twos = 0;
        for (int d = 0; d < 9; ++d) {
          twos |= ones & fb[d];
          ones |= fb[d];
        }
        if (ones != kBandFull) return false;
        u32 single = ones & ~twos & ~s.solved[static_cast<std::size_t>(b)];
        while (single) {
          const int p = std::countr_zero(single);
          single &= single - 1;
          const u32 bit = 1u << p;
          int d = 0;
          while (d < 9 && !(fb[d] & bit)) ++d;
          if (d == 9) return false;  // emptied by a placement just made
          place(s, d, b, p, w);
        }
      }
      continue;
    }
    if (w.dirty) {
      // Boards (band, digit) that changed: locked candidates within the band
      // (rows × boxes permutation), then hidden singles in its rows.
      while (w.dirty) {
        const int i = std::countr_zero(w.dirty);
        w.dirty &= w.dirty - 1;
        const int b = i / 9, d = i - 9 * (i / 9);
        const u32 m = f[i];
        const unsigned k = kT.perm_keep[row_box_pattern(m)];
        if (!k) return false;
        const u32 nm = m & kT.seg_expand[k];
        if (nm != m) {
          f[i] = nm;
          w.bands |= 1u << b;
          w.digits |= 1u << d;
        }
        const u32 open = nm & ~s.solved[static_cast<std::size_t>(b)];
        if (!open) continue;
        for (int r = 0; r < 3; ++r) {
          // Re-read the board: a placement in an earlier row changes it.
          const u32 row = (f[i] >> (9 * r)) & 0x1FF;
          if (row == 0) return false;
          if ((row & (row - 1)) == 0 && !((s.solved[static_cast<std::size_t>(b)] >> (9 * r)) & row))
            place(s, d, b, 9 * r + std::countr_zero(row), w);
        }
      }
      continue;
    }
    if (w.digits) {
      // Locked candidates across bands: in each stack a digit occupies one
      // column per band (a permutation bands → columns); this also finds the
      // hidden singles of columns.
      u32 digits = w.digits;
      w.digits = 0;
      while (digits) {
        const int d = std::countr_zero(digits);
        digits &= digits - 1;
        const u32 m0 = f[d], m1 = f[9 + d], m2 = f[18 + d];
        const unsigned c0 = column_set(m0), c1 = column_set(m1), c2 = column_set(m2);
        unsigned keep0 = 0, keep1 = 0, keep2 = 0;
        for (unsigned st = 0; st < 9; st += 3) {
          const unsigned pat = ((c0 >> st) & 7) | (((c1 >> st) & 7) << 3) | (((c2 >> st) & 7) << 6);
          const unsigned k = kT.perm_keep[pat];
          if (!k) return false;
          keep0 |= (k & 7) << st;
          keep1 |= ((k >> 3) & 7) << st;
          keep2 |= ((k >> 6) & 7) << st;
        }
        if (keep0 != c0) {
          f[d] = m0 & kT.col_expand[keep0];
          w.dirty |= 1u << d;
        }
        if (keep1 != c1) {
          f[9 + d] = m1 & kT.col_expand[keep1];
          w.dirty |= 1u << (9 + d);
        }
        if (keep2 != c2) {
          f[18 + d] = m2 & kT.col_expand[keep2];
          w.dirty |= 1u << (18 + d);
        }
      }
      continue;
    }
    return true;
  }
}

bool Fast9Kernel::start(State& s) const {
  s = State{};
  s.f.fill(kBandFull);
  Work w{(1u << 27) - 1, 0x1FF, 7};
  for (int i = 0; i < 81; ++i) {
    const int v = clues_[static_cast<std::size_t>(i)];
    if (v == 0) continue;
    const int b = i / 27, p = i % 27;
    if (!(s.f[static_cast<std::size_t>(9 * b + v - 1)] & (1u << p))) return false;
    place(s, v - 1, b, p, w);
  }
  return propagate(s, w);
}

Branch Fast9Kernel::choose(const State& s) const {
  // Bit-sliced candidate counts per cell: at least 1, 2, 3.
  int best_b = -1, best_p = -1;
  for (int b = 0; b < 3 && best_b < 0; ++b) {
    const std::uint32_t* fb = s.f.data() + 9 * b;
    u32 ones = 0, twos = 0, threes = 0;
    for (int d = 0; d < 9; ++d) {
      threes |= twos & fb[d];
      twos |= ones & fb[d];
      ones |= fb[d];
    }
    const u32 pairs = twos & ~threes;
    if (pairs) {
      best_b = b;
      best_p = std::countr_zero(pairs);
    }
  }
  if (best_b < 0) {
    int best_count = 99;
    for (int b = 0; b < 3; ++b) {
      u32 open = kBandFull & ~s.solved[static_cast<std::size_t>(b)];
      while (open) {
        const int p = std::countr_zero(open);
        open &= open - 1;
        int k = 0;
        for (int d = 0; d < 9; ++d) k += (s.f[static_cast<std::size_t>(9 * b + d)] >> p) & 1;
        if (k < best_count) {
          best_count = k;
          best_b = b;
          best_p = p;
        }
      }
    }
  }
  Branch br;
  if (best_b < 0) return br;
  br.cell = 27 * best_b + best_p;
  for (int d = 0; d < 9; ++d)
    if (s.f[static_cast<std::size_t>(9 * best_b + d)] & (1u << best_p)) br.candidates |= 1u << d;
  return br;
}

int Fast9Kernel::open_cells(const State& s, std::uint16_t* cells, std::uint16_t* masks, int max) const {
  const int open = 81 - std::popcount(s.solved[0]) - std::popcount(s.solved[1]) - std::popcount(s.solved[2]);
  if (open > max) return open;
  int k = 0;
  for (int b = 0; b < 3; ++b) {
    u32 rest = kBandFull & ~s.solved[static_cast<std::size_t>(b)];
    const u32* fb = s.f.data() + 9 * b;
    while (rest) {
      const int p = std::countr_zero(rest);
      rest &= rest - 1;
      unsigned m = 0;
      for (int d = 0; d < 9; ++d) m |= ((fb[d] >> p) & 1u) << d;
      cells[k] = static_cast<std::uint16_t>(27 * b + p);  // = 9·row + column
      masks[k] = static_cast<std::uint16_t>(m);
      ++k;
    }
  }
  return k;
}

void Fast9Kernel::write(const State& s, std::uint8_t* cells) const {
  for (int b = 0; b < 3; ++b)
    for (int p = 0; p < 27; ++p) {
      std::uint8_t v = 0;
      for (int d = 0; d < 9; ++d)
        if (s.f[static_cast<std::size_t>(9 * b + d)] & (1u << p)) v = static_cast<std::uint8_t>(d + 1);
      cells[27 * b + p] = v;
    }
}

}  // namespace pcount::sudoku::detail
