#pragma once
/// @file
/// The sequential sudoku kernels behind pcount/sudoku/solver.hpp.
/// Internal detail, public only so that tests and benchmarks can drive a
/// kernel directly; use solver.hpp otherwise.
///
/// A kernel owns the rules of one grid shape and works on a plain, copyable
/// `State`. Every kernel offers the same operations, so the depth-first search
/// and the engine's tree decomposition are written once (solver.cpp):
/// - `bool start(State&)`: the clues placed and propagated; false when the
///   propagation finds a contradiction (the puzzle has no solution);
/// - `bool solved(const State&)`: every cell holds a value;
/// - `Branch choose(const State&)`: an open cell with the fewest candidates
///   (minimum remaining values) and its candidate set;
/// - `bool assign(State&, cell, v)`: places value v+1 (0-based v) in the cell
///   and propagates; false on a contradiction;
/// - optionally `bool assign(State& to, const State& from, cell, v)`: the
///   same from `from` into `to` without copying it first (the search uses
///   it for a node's children when present; Simd9Kernel has it);
/// - `void write(const State&, std::uint8_t* cells)`: values 1..N, row-major;
/// - `int open_cells(const State&, cells, masks, max)`: the number of cells
///   without a final value; when it is at most `max`, their row-major indices
///   and candidate sets (bit v = value v+1) are written to `cells`/`masks`;
/// - `const BoxShape& shape()`: the box shape.
/// Propagation (both kernels): naked singles (a cell with one candidate) and
/// hidden singles (a value with one place in a row, column or box) to a
/// fixpoint; a cell with no candidate or a unit missing a value is a
/// contradiction. Fast9Kernel and GeneralKernel also remove locked
/// candidates.
/// Invariant after a successful start/assign: every final value has been
/// removed from the candidates of all its peers, so the open cells'
/// candidates alone decide the completions (the endgame counter relies on
/// it). Constructors throw InvalidArgument("box_shape") for a shape they do not
/// handle (GeneralKernel, SweepKernel: side > 16; Fast9Kernel: anything but
/// 3x3).

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

/// Any box shape with side N = R·C ≤ 16, on digit bitboards: for every
/// digit d a board of 16 lanes of 16 bits, lane r = row r, bit c = column c
/// (lanes and bits past N stay 0), set where d may still go (a placed cell
/// keeps its own digit's bit). A row is one lane, a column one bit position
/// across the lanes, a box R consecutive lanes × a segment of C bits, so
/// every check is a few whole-word operations per digit whatever the shape:
/// - naked singles (and cells with no candidate) by bit-sliced counting over
///   the N boards;
/// - hidden singles per digit: a lane with one bit (row), a bit set in one
///   lane only (column, from an OR/"twice" reduction over the lanes), a box
///   segment whose band reduction has one bit (box);
/// - locked candidates per digit and box (pointing: the digit's places in
///   the box lie in one row or one column, so the rest of that row or
///   column loses it; claiming: a row's or column's places lie in one box,
///   so the rest of that box loses it);
/// - branching on a cell with two candidates when there is one (found from
///   the bit-sliced count; among several, the one with the most open peers,
///   the "degree" tie-break of graph colouring heuristics such as DSATUR,
///   Brélaz 1979), else on the first open cell with the fewest.
/// The same method as Fast9Kernel's band boards, for any shape.
class GeneralKernel {
public:
  using Board = std::array<std::uint16_t, kMaxSide>;  ///< lane r = row r, bit c = column c
  struct State {
    std::array<Board, kMaxSide> f{};  ///< f[d]: cells where digit d+1 may go
    Board solved{};                   ///< placed cells
    int open = 0;                     ///< cells not yet placed
  };

  explicit GeneralKernel(const Puzzle& puzzle);

  [[nodiscard]] bool start(State& s) const;
  [[nodiscard]] bool solved(const State& s) const { return s.open == 0; }
  [[nodiscard]] Branch choose(const State& s) const;
  [[nodiscard]] bool assign(State& s, int cell, int v) const {
    return place(s, v, cell / n_, cell % n_) && propagate(s);
  }
  void write(const State& s, std::uint8_t* cells) const;
  [[nodiscard]] int open_cells(const State& s, std::uint16_t* cells, std::uint16_t* masks, int max) const;
  [[nodiscard]] const BoxShape& shape() const { return shape_; }

private:
  /// Places digit d (0-based) at (r, c) and removes it from the cell's peers
  /// and the cell's other digits; false when d is no longer a candidate there.
  [[nodiscard]] bool place(State& s, int d, int r, int c) const;
  /// Naked singles, hidden singles and locked candidates until none applies;
  /// false on a contradiction.
  [[nodiscard]] bool propagate(State& s) const;
  /// One pass of each rule below: false on a contradiction; `progress` is
  /// set when a digit was placed or a candidate removed.
  [[nodiscard]] bool naked_singles(State& s, bool& progress) const;
  [[nodiscard]] bool hidden_singles(State& s, bool& progress) const;
  [[nodiscard]] bool locked_candidates(State& s, bool& progress) const;
  /// Candidate digits of open cell (r, c) as a bit set (bit d = digit d+1).
  [[nodiscard]] std::uint32_t candidates(const State& s, int r, int c) const;

  BoxShape shape_;
  int n_;                                  ///< side N
  std::uint16_t full_;                     ///< N low bits
  std::array<std::uint8_t, kMaxSide * kMaxSide> clues_{};  ///< the puzzle's cells (no heap copy per solve)
  std::array<std::uint16_t, kMaxSide> segment_{};  ///< segment_[c]: the columns of c's box (C bits)
  std::array<std::uint8_t, kMaxSide> band_{};      ///< band_[r]: the first row of r's box
};

/// Whether GeneralKernel removes locked candidates (default true). Cleared
/// only by the benchmark that measures what they buy (bench/puzzles.cpp);
/// change it only while no solve runs.
extern bool general_locked_candidates;

/// The first general-shape kernel, kept as an independent oracle for
/// GeneralKernel in tests and benchmarks: a 16-bit candidate mask per cell;
/// every cell and unit is swept until nothing changes (naked and hidden
/// singles, no locked candidates), branching on the first open cell with
/// the fewest candidates. Same operations and invariants as GeneralKernel.
class SweepKernel {
public:
  struct State {
    std::array<std::uint16_t, kMaxSide * kMaxSide> cand{};  ///< candidate values per cell
    std::array<std::uint64_t, 4> placed{};                  ///< cells whose value is final
    int open = 0;                                           ///< cells not yet placed
  };

  explicit SweepKernel(const Puzzle& puzzle);

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
