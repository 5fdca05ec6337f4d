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

Fast9Kernel::Fast9Kernel(const Puzzle& puzzle) : puzzle_(puzzle) {
  if (!(puzzle.shape == Shape{3, 3}) || puzzle.cells.size() != 81)
    throw InvalidArgument("--box", "the 9×9 kernel needs 3x3 boxes");
}

void Fast9Kernel::place(State& s, int d, int b, int p, std::uint32_t& dirty) {
  const u32 bit = 1u << p;
  s.solved[static_cast<std::size_t>(b)] |= bit;
  u32* f = s.f.data();
  f[3 * d + b] &= ~kT.peers[static_cast<std::size_t>(p)];
  const u32 col = ~(0x40201u << (p % 9));
  if (b != 0) f[3 * d] &= col;
  if (b != 1) f[3 * d + 1] &= col;
  if (b != 2) f[3 * d + 2] &= col;
  dirty |= 1u << d;
  for (int e = 0; e < 9; ++e) {
    if (e == d) continue;
    u32& x = f[3 * e + b];
    if (x & bit) {
      x &= ~bit;
      dirty |= 1u << e;
    }
  }
}

bool Fast9Kernel::propagate(State& s, std::uint32_t dirty) {
  u32* f = s.f.data();
  for (;;) {
    while (dirty) {
      const int d = std::countr_zero(dirty);
      dirty &= dirty - 1;
      u32 m0 = f[3 * d], m1 = f[3 * d + 1], m2 = f[3 * d + 2];
      // Locked candidates, horizontally and vertically, to a fixpoint.
      for (;;) {
        const u32 o0 = m0, o1 = m1, o2 = m2;
        const unsigned k0 = kT.perm_keep[row_box_pattern(m0)];
        const unsigned k1 = kT.perm_keep[row_box_pattern(m1)];
        const unsigned k2 = kT.perm_keep[row_box_pattern(m2)];
        if (!k0 || !k1 || !k2) return false;
        m0 &= kT.seg_expand[k0];
        m1 &= kT.seg_expand[k1];
        m2 &= kT.seg_expand[k2];
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
        m0 &= kT.col_expand[keep0];
        m1 &= kT.col_expand[keep1];
        m2 &= kT.col_expand[keep2];
        if (m0 == o0 && m1 == o1 && m2 == o2) break;
      }
      f[3 * d] = m0;
      f[3 * d + 1] = m1;
      f[3 * d + 2] = m2;
      // Hidden singles: a row of a band with one place left for d.
      for (int b = 0; b < 3; ++b) {
        const u32 m = f[3 * d + b];
        for (int r = 0; r < 3; ++r) {
          const u32 w = (m >> (9 * r)) & 0x1FF;
          if ((w & (w - 1)) == 0 && w != 0) {
            const int p = 9 * r + std::countr_zero(w);
            if (!(s.solved[static_cast<std::size_t>(b)] & (1u << p))) place(s, d, b, p, dirty);
          }
        }
      }
    }
    // Naked singles: cells with one candidate digit; empty cells fail.
    for (int b = 0; b < 3; ++b) {
      u32 ones = 0, twos = 0;
      for (int d = 0; d < 9; ++d) {
        const u32 x = f[3 * d + b];
        twos |= ones & x;
        ones |= x;
      }
      if (ones != kBandFull) return false;
      u32 single = ones & ~twos & ~s.solved[static_cast<std::size_t>(b)];
      while (single) {
        const int p = std::countr_zero(single);
        single &= single - 1;
        const u32 bit = 1u << p;
        int d = 0;
        while (d < 9 && !(f[3 * d + b] & bit)) ++d;
        if (d == 9) return false;  // emptied by a placement just made
        place(s, d, b, p, dirty);
      }
    }
    if (!dirty) return true;
  }
}

bool Fast9Kernel::start(State& s) const {
  s = State{};
  s.f.fill(kBandFull);
  std::uint32_t dirty = 0x1FF;
  for (int i = 0; i < 81; ++i) {
    const int v = puzzle_.cells[static_cast<std::size_t>(i)];
    if (v == 0) continue;
    const int b = i / 27, p = i % 27;
    if (!(s.f[static_cast<std::size_t>(3 * (v - 1) + b)] & (1u << p))) return false;
    place(s, v - 1, b, p, dirty);
  }
  return propagate(s, dirty);
}

Branch Fast9Kernel::choose(const State& s) const {
  // Bit-sliced candidate counts per cell: at least 1, 2, 3.
  int best_b = -1, best_p = -1;
  for (int b = 0; b < 3 && best_b < 0; ++b) {
    u32 ones = 0, twos = 0, threes = 0;
    for (int d = 0; d < 9; ++d) {
      const u32 x = s.f[static_cast<std::size_t>(3 * d + b)];
      threes |= twos & x;
      twos |= ones & x;
      ones |= x;
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
        for (int d = 0; d < 9; ++d) k += (s.f[static_cast<std::size_t>(3 * d + b)] >> p) & 1;
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
    if (s.f[static_cast<std::size_t>(3 * d + best_b)] & (1u << best_p)) br.candidates |= 1u << d;
  return br;
}

void Fast9Kernel::write(const State& s, std::uint8_t* cells) const {
  for (int b = 0; b < 3; ++b)
    for (int p = 0; p < 27; ++p) {
      std::uint8_t v = 0;
      for (int d = 0; d < 9; ++d)
        if (s.f[static_cast<std::size_t>(3 * d + b)] & (1u << p)) v = static_cast<std::uint8_t>(d + 1);
      cells[27 * b + p] = v;
    }
}

}  // namespace pcount::sudoku::detail
