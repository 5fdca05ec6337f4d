// The vectorised 9×9 kernel (layout: simd9.hpp). This file is included once
// per instruction-set path (simd9_sse41.cpp, simd9_avx2.cpp,
// simd9_avx512.cpp) with PCOUNT_SIMD9_NS naming the namespace; CMake adds
// -march=x86-64-v2 (SSE4.1), -v3 (AVX2) or -v4 (AVX-512) after the project
// flags (in a native build -march=native for the AVX2 and AVX-512 copies
// where the CPU has their level, see CMakeLists.txt); the code is the same,
// written on one native register ("piece":
// 8 lanes with AVX2 and AVX-512, 4 with SSE) with GCC vector
// extensions, looping over the pieces of the state. Only plain functions
// on Simd9State leave this file (no inline library code shared with other
// translation units, so no copy built for a wider instruction set can be
// linked into a narrower path).
//
// Propagation is a set of bit formulas over all 27 (band, digit) boards at
// once. Steps 2-4 (singles) repeat until a pass finds no single that the
// passes before had not placed (that pass skips step 4: its eliminations
// are done); then step 1 (locked candidates) runs, and the singles again
// while it removes anything (the locked candidates rarely remove anything
// while singles cascade, and cost about 40 % of a full sweep):
//  1. locked candidates within a band: a digit occupies one cell per row and
//     per box of a band, so its row × box segments must contain a
//     permutation; a segment (r, c) is kept only if rows r+1, r+2 can take
//     boxes c+1, c+2 in some order (cyclic indices). The same across the
//     three bands of a stack with columns (per digit, bands × columns).
//     No permutation left: contradiction. After an assignment a test of
//     half the cost (lock_needed) tells first whether a piece has work.
//  2. hidden singles: a segment that is the only one of its row (or box:
//     in start() only, see hidden()) and holds one cell; a column with one
//     cell in one band and none in the others.
//  3. naked singles: a cell with one digit (bit-sliced counts over the
//     digits); a cell with none is a contradiction.
//  4. every single found is placed at once: its digit leaves the cell's row,
//     column and box, the other digits leave the cell. Two digits claiming
//     one cell is a contradiction; two placements of one digit in a unit are
//     caught when that digit's other rows run out (step 1), so a state with
//     every cell single that passed step 1 is a valid grid.
// At a fixpoint of these steps with more than kTriadOpen cells open, the
// triads (below) run, and the sweep goes on if they removed anything.
//
// Incremental propagation (kIncremental; the AVX2 and SSE4.1 paths):
// steps 1 and 2 and the row, box and column part of step 4 work on each
// piece alone, so after an assignment they run only on the pieces changed
// since they last looked (bit masks of pieces; a configuration branch
// changes one piece, the piece of its digit). Steps 3 and the cell part of
// step 4 still fold over every piece. Every state passes through the same
// sweeps as without the tracking, so the nodes are the same.
#if defined(__x86_64__) && defined(__SSE4_1__)
#include <immintrin.h>
#endif

#include "simd9.hpp"

#ifndef PCOUNT_SIMD9_NS
#error "compile with -DPCOUNT_SIMD9_NS=<namespace>"
#endif

namespace pcount::sudoku::detail::PCOUNT_SIMD9_NS {

namespace {

// Every helper below is forced inline: the pieces must stay in registers.
#define PCOUNT_SIMD9_INLINE inline __attribute__((always_inline))

using u32 = std::uint32_t;
typedef u32 V8 __attribute__((vector_size(32)));
typedef u32 V4 __attribute__((vector_size(16)));

// The state is kP native vectors of kW lanes ("pieces"), lane l of the
// state being lane l % kW of piece l / kW. Only lanes 0..35 (digits 1..9)
// are worked on: 3 pieces of 16 lanes (PCOUNT_SIMD9_AVX512_W16), AVX2 and
// AVX-512 5 of 8, SSE 9 of 4, so
// no narrower path carries a piece of padding alone (whole 16-lane groups
// were 6 AVX2 or 12 SSE registers; leaving them took 15-19 % (AVX2) and
// 24-27 % (SSE) of the instructions off, results/sudoku-puzzles.md
// 2026-11-27). A piece holds kW / 4
// digits of four band lanes; folds over the digits are lane-wise over the
// pieces, then within the piece (kSlotLevels swaps of digit slots).
// The AVX-512 path uses the AVX2 pieces of 8 lanes too (with AVX-512VL
// encodings and 32 registers): with incremental propagation, the masks in
// memory and the packed stack count it ran 2-17 % faster than 3 pieces of
// 16 lanes on every reference set in CPU time (serg 1.17x, forum hardest
// 1106 1.05x, results/sudoku-puzzles.md 2026-11-29). PCOUNT_SIMD9_AVX512_W16
// (an experiment) builds it with the 16-lane pieces.
#if (defined(__AVX512F__) && defined(PCOUNT_SIMD9_AVX512_W16)) || !(defined(__x86_64__) && defined(__SSE4_1__))
#define PCOUNT_SIMD9_W16 1
#endif
#ifdef PCOUNT_SIMD9_W16
constexpr int kW = 16;
typedef u32 V __attribute__((vector_size(64)));
constexpr V make4(u32 a, u32 b, u32 c, u32 d) { return V{a, b, c, d, a, b, c, d, a, b, c, d, a, b, c, d}; }
constexpr V make4_first(u32 a, u32 b, u32 c, u32 d) { return V{a, b, c, d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}; }
#elif defined(__AVX2__)
constexpr int kW = 8;
typedef V8 V;
constexpr V make4(u32 a, u32 b, u32 c, u32 d) { return V{a, b, c, d, a, b, c, d}; }
constexpr V make4_first(u32 a, u32 b, u32 c, u32 d) { return V{a, b, c, d, 0, 0, 0, 0}; }
#else
constexpr int kW = 4;
typedef V4 V;
constexpr V make4(u32 a, u32 b, u32 c, u32 d) { return V{a, b, c, d}; }
constexpr V make4_first(u32 a, u32 b, u32 c, u32 d) { return V{a, b, c, d}; }
#endif
constexpr int kP = (36 + kW - 1) / kW;  // pieces holding digits 1..9
constexpr int kSlotLevels = kW == 16 ? 2 : kW == 8 ? 1 : 0;
static_assert(kP * kW <= 48, "the pieces must fit Simd9State::lane");

constexpr u32 kM27 = 0x7FFFFFF;
constexpr u32 kLead = 0x1249249;  // first bit of each 3-cell segment (row r, box c: bit 9r + 3c)
constexpr u32 kL0 = 0x40201, kL1 = kL0 << 3, kL2 = kL0 << 6;  // segment leads of box 0, 1, 2

// Lanes that hold a real (band, digit) board: band lanes 0..2 of every
// digit slot; in the last piece only the first slot (digit 9) is real.
constexpr V kBandLanes = make4(~0u, ~0u, ~0u, 0);
constexpr V kLastLanes = make4_first(~0u, ~0u, ~0u, 0);

// The six ways a digit can cross three rows × three boxes (or three bands ×
// three columns): row i uses box kPerm[p][i].
constexpr int kPerm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

/// Segment leads of permutation i within a band.
constexpr u32 row_perm_leads(int i) {
  return (1u << (3 * kPerm[i][0])) | (1u << (9 + 3 * kPerm[i][1])) | (1u << (18 + 3 * kPerm[i][2]));
}

PCOUNT_SIMD9_INLINE V valid(int k) { return k == kP - 1 ? kLastLanes : kBandLanes; }

}  // namespace

/// Broadcast constants kept in memory (one per value C, in every lane),
/// for the masks of the bit formulas below. A literal mask lets GCC build
/// the broadcast in registers (mov, vmovd, vpbroadcastd on AVX2) again each
/// time it has run out of registers to hold it: 13 % of the propagation's
/// instructions. These are neither const nor internal, so GCC cannot fold
/// them back into literals and reads them as operands in memory instead
/// (callgrind, AVX2, limit 2: -10 % of the propagation's instructions,
/// results/sudoku-puzzles.md 2026-11-29). Never written. Hidden: in
/// position-independent code a template variable (vague linkage) is reached
/// through the GOT, an extra instruction per use (a lea once linked); hidden
/// it is an operand relative to the instruction pointer (1.1-1.4 % fewer
/// instructions on the hard sets and serg, AVX2 path).
template <u32 C>
__attribute__((visibility("hidden"))) V gSplat = make4(C, C, C, C);

namespace {

/// The broadcast constant C (see gSplat).
template <u32 C>
PCOUNT_SIMD9_INLINE V mem() {
  // SSE: literals took 1.6-2.2 % fewer instructions (serg, 1106).
  if constexpr (kW == 4) return V{} + C;
  return gSplat<C>;
}

// Row rotations within a band: row r receives row r+1 (rr1) or r+2 (rr2).
PCOUNT_SIMD9_INLINE V rr1(V x) { return ((x >> 9) | (x << 18)) & mem<kM27>(); }
PCOUNT_SIMD9_INLINE V rr2(V x) { return ((x >> 18) | (x << 9)) & mem<kM27>(); }
// Box rotations of segment leads within each row: box c receives box c+1 / c+2.
PCOUNT_SIMD9_INLINE V bc1(V x) { return ((x >> 3) & mem<kL0 | kL1>()) | ((x << 6) & mem<kL2>()); }
PCOUNT_SIMD9_INLINE V bc2(V x) { return ((x >> 6) & mem<kL0>()) | ((x << 3) & mem<kL1 | kL2>()); }
// Column rotations within each stack of a 9-bit column set: column j receives j+1 / j+2.
PCOUNT_SIMD9_INLINE V cc1(V x) { return ((x >> 1) & mem<0333u>()) | ((x << 2) & mem<0444u>()); }
PCOUNT_SIMD9_INLINE V cc2(V x) { return ((x >> 2) & mem<0111u>()) | ((x << 1) & mem<0666u>()); }
// Band rotations (lanes of a digit): band b receives band b+1 / b+2; padding
// lane stays. Digit-slot swaps (lane ^ 4, lane ^ 8) within a piece for folds
// over the digits.
#ifdef PCOUNT_SIMD9_W16
PCOUNT_SIMD9_INLINE V br1(V x) { return __builtin_shufflevector(x, x, 1, 2, 0, 3, 5, 6, 4, 7, 9, 10, 8, 11, 13, 14, 12, 15); }
PCOUNT_SIMD9_INLINE V br2(V x) { return __builtin_shufflevector(x, x, 2, 0, 1, 3, 6, 4, 5, 7, 10, 8, 9, 11, 14, 12, 13, 15); }
PCOUNT_SIMD9_INLINE V slot_swap(V x, int level) {
  return level == 0 ? __builtin_shufflevector(x, x, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11)
                    : __builtin_shufflevector(x, x, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
}
#elif defined(__AVX2__)
PCOUNT_SIMD9_INLINE V br1(V x) { return __builtin_shufflevector(x, x, 1, 2, 0, 3, 5, 6, 4, 7); }
PCOUNT_SIMD9_INLINE V br2(V x) { return __builtin_shufflevector(x, x, 2, 0, 1, 3, 6, 4, 5, 7); }
PCOUNT_SIMD9_INLINE V slot_swap(V x, int) { return __builtin_shufflevector(x, x, 4, 5, 6, 7, 0, 1, 2, 3); }
#else
PCOUNT_SIMD9_INLINE V br1(V x) { return __builtin_shufflevector(x, x, 1, 2, 0, 3); }
PCOUNT_SIMD9_INLINE V br2(V x) { return __builtin_shufflevector(x, x, 2, 0, 1, 3); }
PCOUNT_SIMD9_INLINE V slot_swap(V x, int) { return x; }
#endif

// Lane-wise tests without vector comparisons: lanes hold values below 2^31,
// so x - 1 has its top bit set exactly when x == 0.
PCOUNT_SIMD9_INLINE V is_zero_top(V x) { return (x - 1u) & 0x80000000u; }   // top bit set where x == 0
PCOUNT_SIMD9_INLINE V is_zero_one(V x) { return (x - 1u) >> 31; }            // 1 where x == 0, else 0

/// Segment leads (kLead bits) to their three cells.
PCOUNT_SIMD9_INLINE V widen(V x) { return x * 7u; }
PCOUNT_SIMD9_INLINE V seg(V x) { return (x | (x >> 1) | (x >> 2)) & mem<kLead>(); }
PCOUNT_SIMD9_INLINE V seg_single(V x) { return (x ^ (x >> 1) ^ (x >> 2)) & ~(x & (x >> 1) & (x >> 2)) & mem<kLead>(); }
/// The cells of every row and box holding one of the segment leads `z`:
/// each row's lead in box 0 times a row, each box's lead in row 0 times a box.
PCOUNT_SIMD9_INLINE V rows_boxes(V z) {
  const V rows = (z | (z >> 3) | (z >> 6)) & mem<kL0>(), boxes = (z | (z >> 9) | (z >> 18)) & mem<0111u>();
  return rows * 0777u | boxes * mem<kL0 * 7u>();
}
PCOUNT_SIMD9_INLINE V colset(V x) { return (x | (x >> 9) | (x >> 18)) & mem<0777u>(); }
PCOUNT_SIMD9_INLINE V colexp(V x) { return x | (x << 9) | (x << 18); }
/// The rows, boxes and columns (all three bands) of the cells of `p`: the
/// cells a placed single of the digit leaves.
PCOUNT_SIMD9_INLINE V peers(V p) {
  V pc = colset(p);
  pc |= br1(pc) | br2(pc);
  return rows_boxes(seg(p)) | colexp(pc);
}

PCOUNT_SIMD9_INLINE bool any(V x) {
#ifdef PCOUNT_SIMD9_W16
  const V8 h = __builtin_shufflevector(x, x, 0, 1, 2, 3, 4, 5, 6, 7) | __builtin_shufflevector(x, x, 8, 9, 10, 11, 12, 13, 14, 15);
  const V4 q = __builtin_shufflevector(h, h, 0, 1, 2, 3) | __builtin_shufflevector(h, h, 4, 5, 6, 7);
#if defined(__x86_64__) && defined(__SSE4_1__)
  return !_mm_testz_si128(reinterpret_cast<__m128i>(q), reinterpret_cast<__m128i>(q));
#else
  return (q[0] | q[1] | q[2] | q[3]) != 0;
#endif
#elif defined(__AVX2__)
  return !_mm256_testz_si256(reinterpret_cast<__m256i>(x), reinterpret_cast<__m256i>(x));
#else
  return !_mm_testz_si128(reinterpret_cast<__m128i>(x), reinterpret_cast<__m128i>(x));
#endif
}

/// Bit-sliced counts of candidates per cell: lanes of band b (every group)
/// hold the cells of band b with at least one (o), two (t), three (h) digits.
struct Fold {
  V o, t, h;
};

PCOUNT_SIMD9_INLINE void merge(Fold& f, V o, V t, V h) {
  f.h = f.h | h | (f.t & o) | (f.o & t);
  f.t = f.t | t | (f.o & o);
  f.o = f.o | o;
}

PCOUNT_SIMD9_INLINE Fold fold(const V* a) {
  Fold f{a[0], V{}, V{}};
  for (int k = 1; k < kP; ++k) {
    f.h |= f.t & a[k];
    f.t |= f.o & a[k];
    f.o |= a[k];
  }
  for (int l = 0; l < kSlotLevels; ++l) merge(f, slot_swap(f.o, l), slot_swap(f.t, l), slot_swap(f.h, l));
  return f;
}

/// Bit-sliced counts to four (at least 1, 2, 3, 4) over the digits, per band.
struct Fold4 {
  V o, t, h, q;
};

PCOUNT_SIMD9_INLINE void merge4(Fold4& f, const Fold4& g) {
  f.q = f.q | g.q | (f.h & g.o) | (f.t & g.t) | (f.o & g.h);
  f.h = f.h | g.h | (f.t & g.o) | (f.o & g.t);
  f.t = f.t | g.t | (f.o & g.o);
  f.o = f.o | g.o;
}

PCOUNT_SIMD9_INLINE Fold4 fold4(const V* x) {
  Fold4 f{x[0], V{}, V{}, V{}};
  for (int k = 1; k < kP; ++k) {
    f.q |= f.h & x[k];
    f.h |= f.t & x[k];
    f.t |= f.o & x[k];
    f.o |= x[k];
  }
  for (int l = 0; l < kSlotLevels; ++l)
    merge4(f, Fold4{slot_swap(f.o, l), slot_swap(f.t, l), slot_swap(f.h, l), slot_swap(f.q, l)});
  return f;
}

/// Whether any lane of the state differs.
PCOUNT_SIMD9_INLINE bool changed(const V* a, const V* b) {
  V d = a[0] ^ b[0];
  for (int k = 1; k < kP; ++k) d |= a[k] ^ b[k];
  return any(d);
}

// The state's lanes as pieces (Simd9State::lane is 64-byte aligned). With
// AVX2 and AVX-512 whole vector accesses, unrolled before GCC can turn the
// loop into a block copy (which went through a stack buffer 16 bytes at a
// time: 1.7 % of the instructions on the serg set, callgrind, AVX2 path);
// the SSE path keeps the copy, which there costs 0.3-0.5 % fewer.
typedef V PieceAlias __attribute__((may_alias));
PCOUNT_SIMD9_INLINE void load(const Simd9State& s, V* a) {
  if constexpr (kW >= 8) {
#pragma GCC unroll 16
    for (int k = 0; k < kP; ++k) a[k] = reinterpret_cast<const PieceAlias*>(s.lane)[k];
  } else {
    for (int k = 0; k < kP; ++k) __builtin_memcpy(&a[k], s.lane + kW * k, sizeof(V));
  }
}
PCOUNT_SIMD9_INLINE void store(Simd9State& s, const V* a) {
  if constexpr (kW >= 8) {
#pragma GCC unroll 16
    for (int k = 0; k < kP; ++k) reinterpret_cast<PieceAlias*>(s.lane)[k] = a[k];
  } else {
    for (int k = 0; k < kP; ++k) __builtin_memcpy(s.lane + kW * k, &a[k], sizeof(V));
  }
}

/// Triads: the three cells of a row segment (or column segment) hold three
/// different digits. A digit confined to one segment of its row (to one
/// band of its column) is certain there; three certain digits close the
/// segment to the rest, four are a contradiction. Returns the
/// contradictions found (any lane nonzero). Run only at a fixpoint of the
/// cheap steps, where a certain digit has already left the rest of its box
/// (step 1) and the rest of its row or column (by definition), so only the
/// closing removes anything. Two rules of the first version are left out:
/// a certain digit's peers (nothing to remove at such a fixpoint: the
/// nodes were the same without them) and a segment open to only three
/// digits (all three certain there; 1.8 % fewer nodes on forum hardest
/// 1106 for twice the cost). This form costs half as much, 2.6 % fewer
/// instructions on 1106 at the same threshold (callgrind, AVX2 path,
/// results/sudoku-puzzles.md 2026-11-29).
PCOUNT_SIMD9_INLINE V triads(V* a) {
  V bad{};
  V S[kP], cert[kP];
  for (int k = 0; k < kP; ++k) {
    S[k] = seg(a[k]);
    cert[k] = S[k] & ~bc1(S[k]) & ~bc2(S[k]);
  }
  Fold4 c = fold4(cert);
  bad |= c.q & kBandLanes;
  V closed = widen(c.h);
  for (int k = 0; k < kP; ++k) a[k] &= ~closed | widen(cert[k]);
  for (int k = 0; k < kP; ++k) {
    S[k] = colset(a[k]);
    cert[k] = S[k] & ~br1(S[k]) & ~br2(S[k]);
  }
  c = fold4(cert);
  bad |= c.q & kBandLanes;
  closed = colexp(c.h);
  for (int k = 0; k < kP; ++k) a[k] &= ~closed | colexp(cert[k]);
  return bad;
}

#ifdef PCOUNT_SIMD9_STATS
long simd9_sweeps = 0, simd9_calls = 0;
#endif

/// The triads run at a fixpoint of the cheap steps only when more than
/// this many cells are open. Measured (callgrind, AVX2 path, limit 2,
/// results/sudoku-puzzles.md 2026-11-25): 40 takes 7 % of the instructions
/// off the serg set (easy puzzles with several solutions) and 0.2-1 % off
/// the hard sets; 45 takes 9 % off serg but adds 1.5 % on magictour top1465.
/// With solver.cpp's first-solution endgame at 32 cells: 35 saved 3.5 % on
/// serg, 45 7 %, 50 8 % but cost 1-2 % on the hardest sets, 56 4-6 %;
/// never running them saved 9 % on serg. In CPU time (AVX2, with the
/// uniqueness checks' endgame at 16 cells, 2026-11-27) 45 ran 2 % faster
/// than 40 on serg and within 2 % elsewhere; 50 gained 1 % more on serg
/// but lost 1-5 % on the 17-clue and hardest sets. With the cheaper triads
/// (2026-11-29; callgrind, limit 2, against 45): 40 takes 3.6-4.6 % off
/// the three hard sets on AVX2 (3.9-5.0 % on SSE4.1), the 17-clue set
/// level, serg 0.7 % more (1.4 % on SSE4.1); 35 and 30 took up to 1 %
/// more off the hard sets but added 2-3 % on serg. Overridable at compile
/// time.
#ifndef PCOUNT_SIMD9_TRIAD_OPEN
#define PCOUNT_SIMD9_TRIAD_OPEN 40
#endif
constexpr int kTriadOpen = PCOUNT_SIMD9_TRIAD_OPEN;

/// Pieces as bit masks (bit k: piece k).
using Pieces = unsigned;
constexpr Pieces kAllPieces = (1u << kP) - 1u;

/// Incremental propagation after an assignment (see the top of this file):
/// each step looks again only at the pieces changed since it last looked.
/// A configuration branch changes the piece of one digit, so the first
/// sweep after it finds hidden singles and locked candidates on one piece
/// of kP. Measured (CPU time, x86-64-v3 build, results/sudoku-puzzles.md
/// 2026-11-29): AVX2 (5 pieces) 1.21x faster on the serg set and 1.09x on
/// forum hardest 1106; SSE4.1 (9 pieces) 1.44x and 1.29x; 16-lane pieces
/// (3 pieces, each 4 digits, so most sweeps change all of them) 4 % faster
/// on serg but 5-6 % slower on 1106 and magictour top1465, so it is off
/// there.
/// start() never tracks: with every piece changed the tracking is pure
/// cost (7 % of the 17-clue set's time on AVX2 when it was shared).
/// Overridable at compile time (0 or 1) for experiments.
#ifndef PCOUNT_SIMD9_INCREMENTAL
#define PCOUNT_SIMD9_INCREMENTAL (kW < 16)
#endif
constexpr bool kIncremental = PCOUNT_SIMD9_INCREMENTAL;

/// Bit k set when pieces `after[k]` and `before[k]` differ.
PCOUNT_SIMD9_INLINE Pieces changed_pieces(const V* after, const V* before) {
  Pieces m = 0;
  for (int k = 0; k < kP; ++k) m |= static_cast<Pieces>(any(after[k] ^ before[k])) << k;
  return m;
}

/// What the singles step last saw of each piece (kept for the pieces not
/// changed since): its hidden singles, and its segments, column sets, the
/// other segments of each segment's row and the other bands of each
/// column. Step 1 runs only after a sweep that found nothing new, which
/// looked again at every piece changed since the last, so for every
/// piece it visits these are those of the current state and its test
/// (lock_needed) starts from them. Zero before a piece's first look (the
/// hidden singles of a state that passed the sweeps are placed already;
/// the rest is never read before it).
struct Seen {
  V hid[kP] = {}, seg[kP] = {}, in_row[kP] = {}, cols[kP] = {}, in_column[kP] = {};
};

/// Nonzero where step 1 would remove something from, or find a
/// contradiction in, the lanes whose segments (row r, box c: bit 9r + 3c)
/// are `S` and column sets `c` (`in_row`: the other segments of each
/// segment's row, bc1(S) | bc2(S); `in_column`: each column's other bands,
/// br1(c) | br2(c)); zero means it would do neither, at about half its
/// cost. A segment lies on no permutation exactly when the 2×2
/// minor of the other rows and boxes has no perfect matching, that is
/// (König) a zero row or column: another row whose only segment is in
/// this box (then it is alone in its row but not in its box), or another
/// box whose only segment is in this row (alone in its box but not in its
/// row), or an empty row or box. So step 1 has work exactly where some
/// segment is alone in its row or its box but not in both, or a row or
/// box is empty; the same for bands × columns in each stack.
PCOUNT_SIMD9_INLINE V lock_needed(V S, V in_row, V c, V in_column) {
  const V in_box = rr1(S) | rr2(S), in_stack = cc1(c) | cc2(c);
  return (S & (in_row ^ in_box)) | (~(S | (in_row & in_box)) & mem<kLead>()) | (c & (in_stack ^ in_column)) |
         (~(c | (in_stack & in_column)) & mem<0777u>());
}

static_assert([] {
  // Over every 3×3 pattern m (bit 3r + c): step 1 has work (a cell on no
  // permutation, or no permutation at all) exactly when lock_needed fires.
  for (int m = 0; m < 512; ++m) {
    const auto at = [m](int r, int c) { return ((m >> (3 * r + c)) & 1) != 0; };
    int cover = 0;  // the cells on a permutation
    for (int i = 0; i < 6; ++i)
      if (at(0, kPerm[i][0]) && at(1, kPerm[i][1]) && at(2, kPerm[i][2]))
        for (int r = 0; r < 3; ++r) cover |= 1 << (3 * r + kPerm[i][r]);
    bool needed = false;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        const bool row_alone = !at(r, (c + 1) % 3) && !at(r, (c + 2) % 3);
        const bool column_alone = !at((r + 1) % 3, c) && !at((r + 2) % 3, c);
        if (at(r, c) && row_alone != column_alone) needed = true;
        if (!at(r, c) && ((c == 0 && row_alone) || (r == 0 && column_alone))) needed = true;  // an empty row or column
      }
    if (needed != (cover != m || cover == 0)) return false;
  }
  return true;
}(), "lock_needed: step 1's work on every 3×3 pattern");

/// Step 1 on one piece `x` with segments `S` (seg(x)) and real lanes
/// `lanes`: removes what lies on no permutation. Returns the
/// contradictions found (any lane nonzero).
PCOUNT_SIMD9_INLINE V lock_piece(V& x, V S, V lanes) {
  // Locked candidates within the band (rows × boxes).
  const V K = S & ((rr1(bc1(S)) & rr2(bc2(S))) | (rr1(bc2(S)) & rr2(bc1(S))));
  V bad = is_zero_top(K) & lanes;
  x &= widen(K);
  // Locked candidates across the bands of a stack (bands × columns).
  const V c = colset(x), c1 = br1(c), c2 = br2(c);
  const V C = c & ((cc1(c1) & cc2(c2)) | (cc2(c1) & cc1(c2)));
  // A stack with no column left: its lead bit (0, 3, 6) stays clear.
  bad |= ~(C | (C >> 1) | (C >> 2)) & (lanes & 0111u);
  x &= colexp(C);
  return bad;
}

/// Locked candidates (step 1). Incremental: only on the pieces of `dirty`
/// (the others passed this step with no removal and have not changed
/// since); a piece from which nothing is removed leaves `dirty`, one that
/// changes stays in it (the step's two halves may feed each other) and
/// joins `changed`. Otherwise on every piece; `changed` gets every piece if
/// anything was removed, else `dirty` is cleared. Returns the
/// contradictions found (any lane nonzero).
template <bool Incremental>
PCOUNT_SIMD9_INLINE V locked(V* a, const Seen& seen, Pieces& dirty, Pieces& changed) {
  V bad{}, removed{};
#pragma GCC unroll 16
  for (int k = 0; k < kP; ++k) {
    if (Incremental && !((dirty >> k) & 1u)) continue;
    const V start = a[k];
    const V S = Incremental ? seen.seg[k] : seg(a[k]);
    // After an assignment step 1 rarely has work (5 % of the pieces on
    // serg), so a cheaper test goes first; from the clues it usually has.
    if (Incremental && !any(lock_needed(S, seen.in_row[k], seen.cols[k], seen.in_column[k]) & valid(k))) {
      dirty &= ~(1u << k);
      continue;
    }
    bad |= lock_piece(a[k], S, valid(k));
    if constexpr (Incremental) {
      if (any(start ^ a[k])) {
        changed |= 1u << k;
      } else {
        dirty &= ~(1u << k);
      }
    } else {
      removed |= start ^ a[k];
    }
  }
  if constexpr (!Incremental) {
    if (any(removed)) {
      changed = kAllPieces;
    } else {
      dirty = 0;
    }
  }
  return bad;
}

/// What hidden() found of one piece: its hidden singles and the fields of
/// Seen.
struct Hidden {
  V singles, seg, in_row, cols, in_column;
};

/// Hidden singles of one piece: a segment that is the only one of its row
/// (or, with `Box`, of its box) and holds one cell; a column with one cell
/// in one band and none in the others. Without `Box` after an assignment:
/// where step 1 has nothing left to remove, a segment alone in its box is
/// alone in its row (the digit left the row's other boxes), so the sweeps
/// reach the same fixpoint (only which sweep places a single changes, so a
/// contradiction between two singles of one sweep could show later). The
/// box test is 10 of the 58 instructions of a piece; leaving it out took
/// 4.0-4.4 % off the hard sets and 3.2 % off serg (callgrind, AVX2 path,
/// results/sudoku-puzzles.md 2026-11-29), nodes unchanged on all five
/// reference samples. start() keeps it: from the clues it saves sweeps.
/// Also returns what it computed on the way that step 1's test needs
/// (see Seen).
template <bool Box>
PCOUNT_SIMD9_INLINE Hidden hidden(V x) {
  const V S = seg(x), in_row = bc1(S) | bc2(S);
  V lone = S & ~in_row;
  if constexpr (Box) lone |= S & ~rr1(S) & ~rr2(S);
  const V h = x & widen(lone & seg_single(x));
  const V y = x >> 9, z = x >> 18;
  const V col_single = (x ^ y ^ z) & ~(x & y & z) & mem<0777u>();
  const V cs = (x | y | z) & mem<0777u>(), in_column = br1(cs) | br2(cs);
  return {h | (x & colexp(col_single & ~in_column)), S, in_row, cs, in_column};
}

/// Hidden and naked singles (steps 2-4): finds them on every piece and
/// places them all; `f` gets the candidate counts of the state it started
/// from. `placed` holds the cells of the singles whose eliminations are
/// done (placed by an earlier call, or before the last assignment; they
/// stay singles), in every digit slot's band lanes: a cell is single for
/// one digit, so the cells say which singles are new with one vector
/// instead of one per piece (fewer registers held on the AVX2 path). When
/// no other single is found, nothing is placed and `fresh` is false, else
/// `placed` takes the new set. `seen` holds what was last found of each
/// piece (Incremental: all of Seen; otherwise the hidden singles).
/// Incremental: only the pieces of `dirty` (changed since) are looked at
/// again, only pieces with new singles clear their rows, boxes
/// and columns, and the pieces the placements change join `changed`;
/// otherwise every piece, and `changed` gets all. Returns the
/// contradictions found (any lane nonzero).
template <bool Incremental>
PCOUNT_SIMD9_INLINE V singles(V* a, V& placed, Seen& seen, Pieces dirty, Pieces& changed, Fold& f, bool& fresh) {
  f = fold(a);
  V bad = (f.o ^ mem<kM27>()) & kBandLanes;
  const V naked = f.o & ~f.t;
  V p[kP];
#pragma GCC unroll 16
  for (int k = 0; k < kP; ++k) {
    if (!Incremental || ((dirty >> k) & 1u)) {
      const Hidden h = hidden<!Incremental>(a[k]);
      seen.hid[k] = h.singles;
      if constexpr (Incremental) {
        seen.seg[k] = h.seg;
        seen.in_row[k] = h.in_row;
        seen.cols[k] = h.cols;
        seen.in_column[k] = h.in_column;
      }
    }
    p[k] = seen.hid[k] | (a[k] & naked);
  }
  V grown = p[0];
  for (int k = 1; k < kP; ++k) grown |= p[k];
  fresh = any(grown & ~placed);
  if (!fresh) return bad;
  // Cells claimed by two digits.
  V claimed = p[0], twice{};
  for (int k = 1; k < kP; ++k) {
    twice |= claimed & p[k];
    claimed |= p[k];
  }
  for (int l = 0; l < kSlotLevels; ++l) {
    const V o = slot_swap(claimed, l), t = slot_swap(twice, l);
    twice |= t | (claimed & o);
    claimed |= o;
  }
  bad |= twice;
#pragma GCC unroll 16
  for (int k = 0; k < kP; ++k) {
    const V x = a[k];
    V keep = ~claimed;
    // A piece's singles leave their rows, boxes and columns; those placed
    // before have done so already.
    if (!Incremental || any(p[k] & ~placed)) keep &= ~peers(p[k]);
    a[k] = x & (keep | p[k]);
    if constexpr (Incremental) changed |= static_cast<Pieces>(any(a[k] ^ x)) << k;
  }
  placed = claimed;
  if constexpr (!Incremental) changed = kAllPieces;
  return bad;
}

/// Four lanes (a digit slot's band lanes) repeated over a piece.
PCOUNT_SIMD9_INLINE V dup4(V4 q) {
#ifdef PCOUNT_SIMD9_W16
  return __builtin_shufflevector(q, q, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3);
#elif defined(__AVX2__)
  return __builtin_shufflevector(q, q, 0, 1, 2, 3, 0, 1, 2, 3);
#else
  return q;
#endif
}

/// Simd9State::single as lanes: band b's cells in every lane of band b.
PCOUNT_SIMD9_INLINE V load_single(const Simd9State& s) {
  V4 q;
  __builtin_memcpy(&q, s.single, sizeof q);
  return dup4(q);
}

/// What a configuration branch removes from its digit, by unit (bands 0-2,
/// then stacks 0-2) and permutation (kPerm): per band lane of the digit's
/// slot the cells off the permutation (a band keeps the permutation's row
/// segments; a stack keeps, in band j, column kPerm[p][j] of its three);
/// lane 3 (padding) nothing.
struct ConfigDrop {
  alignas(16) u32 lanes[6][6][4];
};
constexpr ConfigDrop kConfigDrop = [] {
  ConfigDrop t{};
  for (int p = 0; p < 6; ++p)
    for (int j = 0; j < 3; ++j) {
      for (int u = 0; u < 3; ++u) t.lanes[u][p][j] = j == u ? ~(row_perm_leads(p) * 7u) & kM27 : 0u;
      for (int st = 0; st < 3; ++st) t.lanes[3 + st][p][j] = (0x40201u * (7u << (3 * st))) & ~(0x40201u << (3 * st + kPerm[p][j]));
    }
  return t;
}();

/// kSlotFirst: for each lane of piece 0, the first lane (band 0) of its
/// digit slot; piece k adds kW·k. kBandIndex: each lane's band (3: padding).
#ifdef PCOUNT_SIMD9_W16
constexpr V kSlotFirst = {0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12};
#elif defined(__AVX2__)
constexpr V kSlotFirst = {0, 0, 0, 0, 4, 4, 4, 4};
#else
constexpr V kSlotFirst = {0, 0, 0, 0};
#endif
constexpr V kBandIndex = make4(0, 1, 2, 3);

/// Applies an assignment to the loaded state `a` in registers (after a
/// write to one lane in memory, the vector load of the piece waits for
/// the store to leave the store buffer: it cannot be forwarded). `cell`
/// below 81: `digit` (0-8) in that cell, which leaves the cell's other
/// digits. 81 + 9·unit + d: configuration branch of choose_configuration,
/// digit d takes permutation `digit` in band `unit` (0-2) or stack
/// `unit` - 3. Returns the pieces changed (or may have).
PCOUNT_SIMD9_INLINE Pieces apply_assignment(V* a, int cell, int digit) {
  if (cell >= 81) {
    const int unit = (cell - 81) / 9, first = simd9_lane((cell - 81) % 9, 0);
    V4 q;
    __builtin_memcpy(&q, kConfigDrop.lanes[unit][digit], sizeof q);
    const V drop = dup4(q);
#pragma GCC unroll 16
    for (int k = 0; k < kP; ++k) a[k] &= ~(drop & (V)(kSlotFirst + static_cast<u32>(kW * k) == first));
    return 1u << (first / kW);
  }
  const V drop = (V)(kBandIndex == cell / 27) & (1u << (cell % 27));
  const int first = simd9_lane(digit, 0);
#pragma GCC unroll 16
  for (int k = 0; k < kP; ++k) a[k] &= ~(drop & ~(V)(kSlotFirst + static_cast<u32>(kW * k) == first));
  return kAllPieces;
}

/// The sweeps: singles until they find nothing new, then the locked
/// candidates, and singles again while those remove anything. Every state
/// left passed step 1, so a state whose cells are all single is a grid.
/// One copy serves start() and assign(), and it is not inlined: the time
/// of the hot code depends on its size more than its instruction count
/// shows. A second copy for start() that looked for naked singles first
/// (1.8 % fewer instructions on serg, 2.6 % on the 17-clue set) made the
/// 17-clue set 11 % slower in CPU time, the others level (AVX2,
/// results/sudoku-puzzles.md 2026-11-27); the same after an assignment
/// took 9 % of the instructions off serg but made the hard sets 12-13 %
/// slower. Propagates `from` into `s` (the same state or another; `s` is
/// written only on success). `from` is a propagated state, or start()'s
/// state with the clues' eliminations done; its cells in
/// Simd9State::single count as placed (a first pass that finds nothing
/// else goes straight to the locked candidates; 1.2 % fewer instructions
/// on serg, 2 % on 11+, 0-2 % faster). `cell` and `digit`: the
/// assignment to apply first (see apply_assignment), or cell -1 for none
/// (start()). `Incremental` (see
/// kIncremental): the sweeps look again only at the pieces the assignment
/// changed; the others passed every step unchanged. start() has its own
/// copy without the tracking.
template <bool Incremental>
__attribute__((noinline)) bool propagate(Simd9State& s, const Simd9State& from, int cell, int digit) {
#ifdef PCOUNT_SIMD9_STATS
  ++simd9_calls;
#endif
  V a[kP];
  Seen seen;
  load(from, a);
  V placed = load_single(from);
  const Pieces dirty = cell >= 0 ? apply_assignment(a, cell, digit) : kAllPieces;
  // Pieces changed since the singles (sdirty) or the locked candidates
  // (ldirty) last looked at them.
  Pieces sdirty = dirty, ldirty = dirty;
  for (;;) {
#ifdef PCOUNT_SIMD9_STATS
    ++simd9_sweeps;
#endif
    Fold f;
    bool fresh;
    Pieces moved = 0;
    if (any(singles<Incremental>(a, placed, seen, sdirty, moved, f, fresh))) return false;
    sdirty = moved;
    ldirty |= moved;
    if (fresh) continue;
    if (any(locked<Incremental>(a, seen, ldirty, sdirty))) return false;
    if (sdirty) continue;
    // A fixpoint of the cheap steps. Every cell single: a valid grid (see
    // the top of this file). Else the triads, and on if they removed anything.
    if (!any(f.t & kBandLanes)) {
      store(s, a);
      s.solved = 1;
      return true;
    }
#ifndef PCOUNT_SIMD9_NO_TRIADS
    // Triads only while many cells are open: below that they rarely remove
    // anything the search would not find as fast (see kTriadOpen).
    if (__builtin_popcount(f.t[0]) + __builtin_popcount(f.t[1]) + __builtin_popcount(f.t[2]) > kTriadOpen) {
      V before[kP];
      for (int k = 0; k < kP; ++k) before[k] = a[k];
      if (any(triads(a))) return false;
      if constexpr (Incremental) {
        sdirty = changed_pieces(a, before);
      } else {
        sdirty = changed(a, before) ? kAllPieces : 0;
      }
      ldirty |= sdirty;
      if (sdirty) continue;
    }
#endif
    store(s, a);
    const V n = f.o & ~f.t;
    const V4 n4 = __builtin_shufflevector(n, n, 0, 1, 2, 3);
    __builtin_memcpy(s.single, &n4, sizeof n4);
    s.solved = 0;
    return true;
  }
}

}  // namespace

namespace {

/// Bit i of the result: byte i of `p` (32 readable bytes) equals v.
PCOUNT_SIMD9_INLINE u32 bytes_equal(const std::uint8_t* p, std::uint8_t v) {
#if defined(__AVX2__)
  const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  return static_cast<u32>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, _mm256_set1_epi8(static_cast<char>(v)))));
#elif defined(__x86_64__) && defined(__SSE4_1__)
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16));
  const __m128i w = _mm_set1_epi8(static_cast<char>(v));
  return static_cast<u32>(_mm_movemask_epi8(_mm_cmpeq_epi8(lo, w))) |
         (static_cast<u32>(_mm_movemask_epi8(_mm_cmpeq_epi8(hi, w))) << 16);
#else
  u32 m = 0;
  for (int i = 0; i < 32; ++i) m |= static_cast<u32>(p[i] == v) << i;
  return m;
#endif
}

}  // namespace

bool start(Simd9State& s, const std::uint8_t* clues) {
  // Per (digit, band) lane the clue cells of that digit (a byte compare per
  // band and digit), the clue cells per band; then every lane at once: all
  // cells but other digits' clues, and but the rows, boxes and columns of
  // the digit's own clues. The clues are then placed singles (as after an
  // assignment), so the first sweep looks for new singles instead of
  // finding the clues and placing them: the same fixpoint, one sweep fewer.
  std::uint8_t padded[27 * 3 + 32] = {};
  __builtin_memcpy(padded, clues, 81);
  alignas(64) u32 given[48] = {};
  u32 band_given[3];
  for (int b = 0; b < 3; ++b) {
    band_given[b] = ~bytes_equal(padded + 27 * b, 0) & kM27;
    for (int d = 0; d < 9; ++d) given[simd9_lane(d, b)] = bytes_equal(padded + 27 * b, static_cast<std::uint8_t>(d + 1)) & kM27;
  }
  const V taken = make4(band_given[0], band_given[1], band_given[2], 0);
  for (int k = 0; k < kP; ++k) {
    V g;
    __builtin_memcpy(&g, given + kW * k, sizeof(V));
    const V a = ((kM27 & ~taken & ~peers(g)) | g) & valid(k);
    __builtin_memcpy(s.lane + kW * k, &a, sizeof(V));
  }
  // One store of the 16 bytes that propagate() loads as one vector (a
  // load spanning several stores waits for them to leave the store buffer).
  const V4 single = {band_given[0], band_given[1], band_given[2], 0};
  __builtin_memcpy(s.single, &single, sizeof single);
  return propagate<false>(s, s, -1, 0);
}

bool assign(Simd9State& s, const Simd9State& from, int cell, int digit) { return propagate<kIncremental>(s, from, cell, digit); }

namespace {

/// Open permutations (bit i: kPerm[i]) of three rows (bands) by the 3-bit
/// masks of the boxes (columns) each can still use, m0 | m1 << 3 | m2 << 6:
/// a permutation is open when each row takes one of its own.
constexpr auto kOpenPerms = [] {
  struct Table {
    std::uint8_t perms[512];
  } t{};
  for (int m = 0; m < 512; ++m)
    for (int i = 0; i < 6; ++i)
      if (((m >> kPerm[i][0]) & (m >> (3 + kPerm[i][1])) & (m >> (6 + kPerm[i][2])) & 1) != 0)
        t.perms[m] |= static_cast<std::uint8_t>(1u << i);
  return t;
}();

/// Byte i of the result: t[byte i of x] (each byte of x below 16).
PCOUNT_SIMD9_INLINE V byte_lookup(const std::uint8_t (&t)[16], V x) {
#if defined(__x86_64__) && defined(__SSE4_1__) && !defined(PCOUNT_SIMD9_W16)
  __m128i q;
  __builtin_memcpy(&q, t, 16);
#if defined(__AVX2__)
  return reinterpret_cast<V>(_mm256_shuffle_epi8(_mm256_broadcastsi128_si256(q), reinterpret_cast<__m256i>(x)));
#else
  return reinterpret_cast<V>(_mm_shuffle_epi8(q, reinterpret_cast<__m128i>(x)));
#endif
#else
  std::uint8_t b[sizeof(V)];
  __builtin_memcpy(b, &x, sizeof(V));
  for (auto& v : b) v = t[v];
  __builtin_memcpy(&x, b, sizeof(V));
  return x;
#endif
}

/// Cells of a 3-bit pattern (0-7).
constexpr std::uint8_t kCells3[16] = {0, 1, 1, 2, 1, 2, 2, 3};

/// The configurations of a 3×3 pattern (rows × boxes of a band, or bands ×
/// columns of a stack) by its number of cells (0 for none). At a fixpoint
/// of step 1 every cell of the pattern lies on one of its permutations (the
/// step removes any other), and then their number depends on the cells
/// alone: 3 cells give 1, 5 or 6 give 2, 7 give 3, 8 give 4, 9 give 6 (4
/// cannot occur; checked over all 512 patterns). Every state choose() sees
/// is such a fixpoint: it comes from propagate(), which returns only when
/// step 1 removed nothing.
constexpr std::uint8_t kConfigsByCells[16] = {0, 0, 0, 1, 0, 2, 2, 3, 4, 6};
/// kConfigsByCells plus 64 where the digit is open (more than one
/// configuration): a sum of these over the nine digits holds the
/// configurations (at most 54) below bit 6 and the open digits above.
constexpr std::uint8_t kConfigsOpenByCells[16] = {0, 0, 0, 1, 0, 66, 66, 67, 68, 70};
static_assert([] {
  for (int m = 0; m < 512; ++m) {
    const int perms = kOpenPerms.perms[m];
    int cover = 0;  // the cells on an open permutation
    for (int i = 0; i < 6; ++i)
      if ((perms >> i) & 1)
        for (int r = 0; r < 3; ++r) cover |= 1 << (3 * r + kPerm[i][r]);
    if (perms != 0 && cover == m && std::popcount(static_cast<unsigned>(perms)) != kConfigsByCells[std::popcount(static_cast<unsigned>(m))])
      return false;
  }
  return true;
}(), "kConfigsByCells: the configurations of every closed 3×3 pattern");
static_assert([] {
  for (int n = 0; n < 16; ++n)
    if (kConfigsOpenByCells[n] != kConfigsByCells[n] + (kConfigsByCells[n] >= 2 ? 64 : 0)) return false;
  return true;
}(), "kConfigsOpenByCells: kConfigsByCells with 64 for an open digit");

/// Configuration branch: the placements of one digit within one band (which
/// box each row uses) or one stack (which column each band uses) still
/// open, one child per permutation. Picks, among the bands and stacks not
/// yet fixed, the one with the fewest open digits (more than one
/// configuration; counts of seven or more taken as equal), ties by the
/// fewest configurations over all digits, and in it the digit with the
/// fewest (at least two). Returns cell -1 when every band and stack is
/// fixed. A unit with few open digits is nearly solved and its last digits
/// constrain each other, so a branch there settles more: against the
/// fewest configurations alone (limit 2) 1106 takes 25 % fewer nodes and
/// 22 % fewer instructions, 11+ 9 % and 13 %; top1465 3 % more of both
/// (results/sudoku-puzzles.md, 2026-11-29 morning; a cap of 6 or 8-9
/// open digits measured worse). The configurations are counted from the
/// cells of each pattern (kConfigsByCells).
Branch choose_configuration(const Simd9State& s, const V* a) {
  alignas(64) u32 hc[48], vc[48];
  // Per lane the configurations of its digit in its band (hc) and, in
  // byte j, in stack j (vc; the same in the three band lanes of a digit).
  // Their sums over the digits: per band lane in hs (configurations in
  // bits 0-5, open digits from bit 6, see kConfigsOpenByCells); per stack
  // in byte j of vs, and the open digits (configurations 2-6: c + 6 >= 8)
  // in byte j of vo.
  V hs{}, vs{}, vo{};
#pragma GCC unroll 16
  for (int k = 0; k < kP; ++k) {
    // Segments (row r, box c: bit 9r + 3c) per row (at bit 9r), then in
    // all (0-9).
    const V S = seg(a[k]);
    const V r = (S + (S >> 3) + (S >> 6)) & mem<kL0 * 3u>();
    const V n = (r + (r >> 9) + (r >> 18)) & mem<15u>();
    const V h = byte_lookup(kConfigsOpenByCells, n);
    __builtin_memcpy(hc + kW * k, &h, sizeof(V));
    hs += h;
    // The columns of stack j in this band (byte j), counted and summed
    // over the digit's three bands (0-9 per byte).
    const V c = a[k] | (a[k] >> 9) | (a[k] >> 18);
    const V e = byte_lookup(kCells3, (c & mem<7u>()) | ((c & mem<070u>()) << 5) | ((c & mem<0700u>()) << 10));
    const V v = byte_lookup(kConfigsByCells, e + br1(e) + br2(e));
    __builtin_memcpy(vc + kW * k, &v, sizeof(V));
    vs += v;
    vo += ((v + mem<0x060606u>()) >> 3) & mem<0x010101u>();
  }
  for (int l = 0; l < kSlotLevels; ++l) {
    hs += slot_swap(hs, l);
    vs += slot_swap(vs, l);
    vo += slot_swap(vo, l);
  }
  // Per unit the key (capped open digits, configurations, unit), or ~0
  // for a fixed unit; the least key wins.
  u32 best = ~0u;
  for (u32 u = 0; u < 6; ++u) {
    const u32 total = u < 3 ? hs[u] & 63u : (vs[0] >> (8 * (u - 3))) & 0xffu;
    const u32 open = u < 3 ? hs[u] >> 6 : (vo[0] >> (8 * (u - 3))) & 0xffu;
    const u32 key = (((open < 7 ? open : 7u) << 6 | total) << 3) | u;
    best = total > 9 && key < best ? key : best;
  }
  Branch br;
  if (best == ~0u) return br;
  const int best_unit = static_cast<int>(best & 7u);
  int best_d = -1, fewest = 99;
  for (int d = 0; d < 9; ++d) {
    const int n = best_unit < 3 ? static_cast<int>(hc[simd9_lane(d, best_unit)] & 63u)
                                : static_cast<int>((vc[simd9_lane(d, 0)] >> (8 * (best_unit - 3))) & 0xffu);
    if (n >= 2 && n < fewest) {
      fewest = n;
      best_d = d;
      if (n == 2) break;
    }
  }
  const int b = best_unit < 3 ? best_unit : 0;
  br.cell = 81 + 9 * best_unit + best_d;
  // Per row of the band (band of the stack) the boxes (columns) it can
  // still use, as 3-bit masks.
  u32 m = 0;
  for (int j = 0; j < 3; ++j) {
    if (best_unit < 3) {
      const u32 row = s.lane[simd9_lane(best_d, b)] >> (9 * j), t = row | (row >> 1) | (row >> 2);
      m |= ((t & 1u) | ((t >> 2) & 2u) | ((t >> 4) & 4u)) << (3 * j);
    } else {
      const u32 c = s.lane[simd9_lane(best_d, j)];
      m |= (((c | (c >> 9) | (c >> 18)) >> (3 * (best_unit - 3))) & 7u) << (3 * j);
    }
  }
  br.candidates = kOpenPerms.perms[m];
  return br;
}

}  // namespace

// Branching rule, chosen by measurement (the alternatives stay for
// experiments): 0 = configuration first (default); 1 = a bivalue cell first;
// 2 = configuration when it has two children, else a bivalue cell;
// 3 = bivalue cell first once at most PCOUNT_SIMD9_OPEN cells are open.
// Instructions (callgrind, AVX2 build) against 0: rule 1 needs 2× the nodes
// on the hard sets; rule 3 with 30 (35) open cells saves 4 % (8 %) on the
// serg set but costs 3 % (7 %) on hardest 1106 and 2.6 % (5.4 %) on 11+.
#ifndef PCOUNT_SIMD9_BRANCH
#define PCOUNT_SIMD9_BRANCH 0
#endif
#ifndef PCOUNT_SIMD9_OPEN
#define PCOUNT_SIMD9_OPEN 30
#endif

Branch choose(const Simd9State& s) {
  V a[kP];
  load(s, a);
#if PCOUNT_SIMD9_BRANCH == 0
  {
    const Branch c = choose_configuration(s, a);
    if (c.cell >= 0) return c;
  }
#endif
  const Fold f = fold(a);
  Branch br;
  int best_b = -1, best_p = -1;
  for (int b = 0; b < 3 && best_b < 0; ++b) {
    const u32 pairs = f.t[b] & ~f.h[b];
    if (pairs) {
      best_b = b;
      best_p = __builtin_ctz(pairs);
    }
  }
#if PCOUNT_SIMD9_BRANCH == 0
#elif PCOUNT_SIMD9_BRANCH == 3
  if (best_b < 0 || __builtin_popcount(f.t[0]) + __builtin_popcount(f.t[1]) + __builtin_popcount(f.t[2]) > PCOUNT_SIMD9_OPEN) {
    const Branch c = choose_configuration(s, a);
    if (c.cell >= 0) return c;
  }
#elif PCOUNT_SIMD9_BRANCH == 1
  if (best_b < 0) {
    const Branch c = choose_configuration(s, a);
    if (c.cell >= 0) return c;
  }
#elif PCOUNT_SIMD9_BRANCH == 2
  {
    const Branch c = choose_configuration(s, a);
    if (c.cell >= 0 && (__builtin_popcount(c.candidates) == 2 || best_b < 0)) return c;
  }
#endif
  if (best_b < 0) {
    int fewest = 99;
    for (int b = 0; b < 3; ++b)
      for (u32 open = f.t[b]; open; open &= open - 1) {
        const int p = __builtin_ctz(open);
        int n = 0;
        for (int d = 0; d < 9; ++d) n += (s.lane[simd9_lane(d, b)] >> p) & 1u;
        if (n < fewest) {
          fewest = n;
          best_b = b;
          best_p = p;
        }
      }
  }
  if (best_b < 0) return br;
  br.cell = 27 * best_b + best_p;
  for (int d = 0; d < 9; ++d)
    if ((s.lane[simd9_lane(d, best_b)] >> best_p) & 1u) br.candidates |= 1u << d;
  return br;
}

int open_cells(const Simd9State& s, std::uint16_t* cells, std::uint16_t* masks, int max) {
  V a[kP];
  load(s, a);
  const Fold f = fold(a);
  const int open = __builtin_popcount(f.t[0]) + __builtin_popcount(f.t[1]) + __builtin_popcount(f.t[2]);
  if (open > max) return open;
  int k = 0;
  for (int b = 0; b < 3; ++b)
    for (u32 rest = f.t[b]; rest; rest &= rest - 1) {
      const int p = __builtin_ctz(rest);
      unsigned m = 0;
      for (int d = 0; d < 9; ++d) m |= ((s.lane[simd9_lane(d, b)] >> p) & 1u) << d;
      cells[k] = static_cast<std::uint16_t>(27 * b + p);
      masks[k] = static_cast<std::uint16_t>(m);
      ++k;
    }
  return k;
}

long lock_test_misses(std::uint32_t seed, int pieces) {
  std::uint32_t r = seed | 1u;  // xorshift32
  const auto next = [&r] {
    r ^= r << 13;
    r ^= r >> 17;
    r ^= r << 5;
    return r;
  };
  long misses = 0;
  for (int n = 0; n < pieces; ++n) {
    // Each lane: a random 3×3 pattern of segments (row r, box c), each
    // present segment a random nonempty set of its three cells.
    u32 lanes[kW];
    for (u32& lane : lanes) {
      const u32 m = next() & 0777u;
      lane = 0;
      for (int j = 0; j < 9; ++j)
        if ((m >> j) & 1u) lane |= (next() % 7u + 1u) << (9 * (j / 3) + 3 * (j % 3));
    }
    V x;
    __builtin_memcpy(&x, lanes, sizeof x);
    const V real = valid(n % kP);
    x &= real;
    // The test as the sweeps run it: from what hidden() hands over.
    const Hidden h = hidden<false>(x);
    V y = x;
    const V bad = lock_piece(y, seg(x), real);
    const bool work = any((x ^ y) | bad);
    misses += work != any(lock_needed(h.seg, h.in_row, h.cols, h.in_column) & real);
  }
  return misses;
}

#ifdef PCOUNT_SIMD9_STATS
long sweeps() { return simd9_sweeps; }
long calls() { return simd9_calls; }
#endif
}  // namespace pcount::sudoku::detail::PCOUNT_SIMD9_NS
