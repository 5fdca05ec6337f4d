#pragma once
// Internal: the vectorised 9×9 kernel's state and its per-instruction-set
// entry points (src/sudoku/simd9_kernel.ipp is compiled once per path, by
// simd9_sse41.cpp, simd9_avx2.cpp and simd9_avx512.cpp, each copy in its
// own namespace; solver.cpp picks one at run time).
//
// State layout ("digit-major lanes"): 48 32-bit lanes in three 16-lane
// groups. Lane 16·k + 4·g + b holds the 27-bit board of digit 4·k + g + 1 in
// band b (rows 3b..3b+2; bit 9·(row mod 3) + column). Lanes with b = 3 or a
// digit above 9 are padding and stay 0. Every operation of the propagation is
// the same bit formula on every lane; the kernel works on lanes 0..35 as
// 5 AVX2 registers (also on the AVX-512 path) or 9 SSE registers
// (simd9_kernel.ipp).
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "pcount/sudoku/solver.hpp"
#include "pcount/sudoku/solver_kernels.hpp"

namespace pcount::sudoku::detail {

struct Simd9State {
  alignas(64) std::uint32_t lane[48];
  /// Per band (entries 0-2; entry 3 stays 0) the cells that held one digit
  /// when the last propagation ended (before the first, the clue cells,
  /// whose eliminations start() does itself): their eliminations are done,
  /// so the next propagation starts with them placed.
  alignas(16) std::uint32_t single[4];
  std::uint32_t solved;  ///< 1 when every cell holds one digit (set by propagation)
};

/// Lane of digit d (0-based) in band b.
constexpr int simd9_lane(int d, int b) { return 16 * (d >> 2) + 4 * (d & 3) + b; }

/// Byte i of kSpreadBits[m] is bit i of m (eight cells of a board as bytes).
inline constexpr std::array<std::uint64_t, 256> kSpreadBits = [] {
  std::array<std::uint64_t, 256> t{};
  for (unsigned m = 0; m < 256; ++m)
    for (unsigned i = 0; i < 8; ++i) t[m] |= static_cast<std::uint64_t>((m >> i) & 1u) << (8 * i);
  return t;
}();

// Each instruction-set path (simd9_kernel.ipp) exports the kernel's
// operations, and lock_test_misses for the tests: over `pieces` pieces of
// pseudo-random candidates from `seed`, the number on which the cheap test
// of whether step 1 has work (lock_needed) disagrees with the step itself
// (0 is right).
#define PCOUNT_SIMD9_DECLARE(NS)                                                            \
  namespace NS {                                                                            \
  bool start(Simd9State& s, const std::uint8_t* clues);                                     \
  bool assign(Simd9State& s, const Simd9State& from, int cell, int digit);                  \
  Branch choose(const Simd9State& s);                                                       \
  int open_cells(const Simd9State& s, std::uint16_t* cells, std::uint16_t* masks, int max); \
  long lock_test_misses(std::uint32_t seed, int pieces);                                    \
  }

PCOUNT_SIMD9_DECLARE(simd9_sse41)
PCOUNT_SIMD9_DECLARE(simd9_avx2)
PCOUNT_SIMD9_DECLARE(simd9_avx512)
#undef PCOUNT_SIMD9_DECLARE

/// The vectorised kernel on one instruction-set path, with the operations
/// the search of solver.cpp expects (see solver_kernels.hpp).
template <SimdPath Path>
class Simd9Kernel {
public:
  using State = Simd9State;

  explicit Simd9Kernel(const Puzzle& puzzle) {
    if (!(puzzle.shape == BoxShape{3, 3}) || puzzle.cells.size() != 81)
      throw InvalidArgument("box_shape", "the 9×9 kernel needs 3x3 boxes");
    for (std::size_t i = 0; i < 81; ++i) clues_[i] = puzzle.cells[i];
  }
  /// From 81 values (0 = blank), as Puzzle::cells of a 3x3 puzzle.
  explicit Simd9Kernel(const std::uint8_t* cells) {
    for (std::size_t i = 0; i < 81; ++i) clues_[i] = cells[i];
  }

  [[nodiscard]] bool start(State& s) const {
    if constexpr (Path == SimdPath::avx512) return simd9_avx512::start(s, clues_);
    else if constexpr (Path == SimdPath::avx2) return simd9_avx2::start(s, clues_);
    else return simd9_sse41::start(s, clues_);
  }
  [[nodiscard]] static bool solved(const State& s) { return s.solved != 0; }
  [[nodiscard]] static Branch choose(const State& s) {
    if constexpr (Path == SimdPath::avx512) return simd9_avx512::choose(s);
    else if constexpr (Path == SimdPath::avx2) return simd9_avx2::choose(s);
    else return simd9_sse41::choose(s);
  }
  [[nodiscard]] static bool assign(State& s, int cell, int v) { return assign(s, s, cell, v); }
  /// `from` with value v+1 in `cell` (or a configuration, see Branch),
  /// propagated into `s` without a copy first; `s` is written only on
  /// success.
  [[nodiscard]] static bool assign(State& s, const State& from, int cell, int v) {
    if constexpr (Path == SimdPath::avx512)
      return simd9_avx512::assign(s, from, cell, v);
    else if constexpr (Path == SimdPath::avx2)
      return simd9_avx2::assign(s, from, cell, v);
    else
      return simd9_sse41::assign(s, from, cell, v);
  }
  /// The digits of the single cells of a state into `cells` (81 values;
  /// an open cell gets a meaningless value): per band the four bit planes
  /// of the values, each spread to bytes eight cells at a time (about 330
  /// instructions; a bit-by-bit loop took 840).
  static void write(const State& s, std::uint8_t* cells) {
    for (int b = 0; b < 3; ++b) {
      std::uint32_t plane[4] = {};
      for (int d = 0; d < 9; ++d)
        for (int j = 0; j < 4; ++j)
          if (((d + 1) >> j) & 1) plane[j] |= s.lane[simd9_lane(d, b)];
      for (int c = 0; c < 27; c += 8) {
        std::uint64_t v = 0;
        for (int j = 0; j < 4; ++j) v |= kSpreadBits[(plane[j] >> c) & 0xFFu] << j;
        std::uint8_t* out = cells + 27 * b + c;
        const int n = c < 24 ? 8 : 3;
        if constexpr (std::endian::native == std::endian::little) {
          std::memcpy(out, &v, static_cast<std::size_t>(n));
        } else {
          for (int i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(v >> (8 * i));
        }
      }
    }
  }
  [[nodiscard]] static int open_cells(const State& s, std::uint16_t* cells, std::uint16_t* masks, int max) {
    if constexpr (Path == SimdPath::avx512) return simd9_avx512::open_cells(s, cells, masks, max);
    else if constexpr (Path == SimdPath::avx2) return simd9_avx2::open_cells(s, cells, masks, max);
    else return simd9_sse41::open_cells(s, cells, masks, max);
  }
  [[nodiscard]] static const BoxShape& shape() {
    static constexpr BoxShape kShape{3, 3};
    return kShape;
  }

private:
  std::uint8_t clues_[81] = {};
};

}  // namespace pcount::sudoku::detail
