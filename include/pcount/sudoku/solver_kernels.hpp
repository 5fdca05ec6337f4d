#pragma once
/// @file
/// The two sequential sudoku kernels behind pcount/sudoku/solver.hpp.
/// Internal detail, public only so that tests and benchmarks can drive a
/// kernel directly; use solver.hpp otherwise.
///
/// A kernel owns the rules of one grid shape and works on a plain, copyable
/// `State`. Both kernels offer the same operations, so the depth-first search
/// and the engine's tree decomposition are written once (solver.cpp):
/// - `bool start(State&)`: the clues placed and propagated; false when the
///   propagation finds a contradiction (the puzzle has no solution);
/// - `bool solved(const State&)`: every cell holds a value;
/// - `Branch choose(const State&)`: an open cell with the fewest candidates
///   (minimum remaining values) and its candidate set;
/// - `bool assign(State&, cell, v)`: places value v+1 (0-based v) in the cell
///   and propagates; false on a contradiction;
/// - `void write(const State&, std::uint8_t* cells)`: values 1..N, row-major;
/// - `int open_cells(const State&, cells, masks, max)`: the number of cells
///   without a final value; when it is at most `max`, their row-major indices
///   and candidate sets (bit v = value v+1) are written to `cells`/`masks`;
/// - `const BoxShape& shape()`: the box shape.
/// Propagation (both kernels): naked singles (a cell with one candidate) and
/// hidden singles (a value with one place in a row, column or box) to a
/// fixpoint; a cell with no candidate or a unit missing a value is a
/// contradiction. The 9×9 kernel also removes locked candidates.
/// Invariant after a successful start/assign: every final value has been
/// removed from the candidates of all its peers, so the open cells'
/// candidates alone decide the completions (the endgame counter relies on
/// it). Constructors throw InvalidArgument("box_shape") for a shape they do not
/// handle (GeneralKernel: side > 16; Fast9Kernel: anything but 3x3).

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "pcount/sudoku/puzzle.hpp"

namespace pcount::sudoku::detail {

/// A branching choice: the cell (row-major index) and its candidate values as
/// a bit set (bit v = value v+1).
struct Branch {
  int cell = -1;
  std::uint32_t candidates = 0;
};

/// Any box shape with side N = R·C ≤ 16. Candidate sets are 16-bit masks per
/// cell; units are the N rows, N columns and N boxes. Sweeps over all cells
/// and units until nothing changes — simple and shape-independent.
class GeneralKernel {
public:
  struct State {
    std::array<std::uint16_t, kMaxSide * kMaxSide> cand{};  ///< candidate values per cell
    std::array<std::uint64_t, 4> placed{};                  ///< cells whose value is final
    int open = 0;                                           ///< cells not yet placed
  };

  explicit GeneralKernel(const Puzzle& puzzle);

  [[nodiscard]] bool start(State& s) const;
  [[nodiscard]] bool solved(const State& s) const { return s.open == 0; }
  [[nodiscard]] Branch choose(const State& s) const;
  [[nodiscard]] bool assign(State& s, int cell, int v) const {
    s.cand[static_cast<std::size_t>(cell)] = static_cast<std::uint16_t>(1u << v);
    return propagate(s);
  }
  void write(const State& s, std::uint8_t* cells) const;
  [[nodiscard]] int open_cells(const State& s, std::uint16_t* cells, std::uint16_t* masks, int max) const;
  [[nodiscard]] const BoxShape& shape() const { return puzzle_.shape; }

private:
  [[nodiscard]] bool propagate(State& s) const;
  [[nodiscard]] static bool is_placed(const State& s, int i) { return (s.placed[static_cast<std::size_t>(i) >> 6] >> (i & 63)) & 1u; }

  Puzzle puzzle_;
  int n_;
  int cells_;
  std::uint16_t full_;
  std::vector<std::uint16_t> peers_;  ///< cells_ × peer_count_ peer indices
  int peer_count_;
  std::vector<std::uint16_t> units_;  ///< 3N units × N cell indices
};

/// 9×9 (3×3 boxes) with band bitboards: for every digit d and band b (three
/// rows) a 27-bit set of the cells of the band where d may still go
/// (bit = 9·row-in-band + column). Within a band a digit occupies one cell
/// per row and per box, i.e. a permutation rows → boxes; keeping only the
/// row/box segments that belong to such a permutation removes every locked
/// candidate (pointing and claiming) of that band at once, by table look-up.
/// The same is done vertically (bands × columns of a stack). Naked singles
/// are found by bit-sliced counting over the nine digit boards.
class Fast9Kernel {
public:
  struct State {
    std::array<std::uint32_t, 27> f{};      ///< f[9·b + d]: cells of band b where digit d may go
    std::array<std::uint32_t, 3> solved{};  ///< placed cells of each band
  };

  explicit Fast9Kernel(const Puzzle& puzzle);

  [[nodiscard]] bool start(State& s) const;
  [[nodiscard]] bool solved(const State& s) const {
    return (s.solved[0] & s.solved[1] & s.solved[2]) == kBandFull;
  }
  [[nodiscard]] Branch choose(const State& s) const;
  [[nodiscard]] bool assign(State& s, int cell, int v) const {
    Work w;
    place(s, v, cell / 27, cell % 27, w);
    return propagate(s, w);
  }
  void write(const State& s, std::uint8_t* cells) const;
  [[nodiscard]] int open_cells(const State& s, std::uint16_t* cells, std::uint16_t* masks, int max) const;
  [[nodiscard]] static const BoxShape& shape() {
    static constexpr BoxShape kShape{3, 3};
    return kShape;
  }

  static constexpr std::uint32_t kBandFull = (1u << 27) - 1;

private:
  /// What still needs looking at during propagation.
  struct Work {
    std::uint32_t dirty = 0;   ///< boards 9·b + d changed since their last row/box check
    std::uint32_t digits = 0;  ///< digits changed since their last column/stack check
    std::uint32_t bands = 0;   ///< bands changed since their last naked-single check
  };
  static void place(State& s, int d, int b, int p, Work& w);
  [[nodiscard]] static bool propagate(State& s, Work& w);

  std::array<std::uint8_t, 81> clues_{};  ///< the puzzle's cells (no heap copy per solve)
};

}  // namespace pcount::sudoku::detail
