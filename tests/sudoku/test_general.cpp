// The general R×C kernel (digit bitboards) against the sweep kernel it
// replaced and the plain counter of tests/support/plain_sudoku.hpp (no
// propagation: an independent method), on slices of the shipped 12×12 and
// 16×16 sets (data/sudoku/README.md), on puzzles derived from them with 0 and
// several solutions, and on random puzzles of every box shape up to side 16;
// the count job on 1/2/3 threads; and the puzzle generator's promises.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "pcount/engine/runner.hpp"
#include "pcount/sudoku/generate.hpp"
#include "pcount/sudoku/puzzle.hpp"
#include "pcount/sudoku/solver.hpp"
#include "support/plain_sudoku.hpp"
#include "support/run_command.hpp"

namespace pcount::sudoku {
namespace {

/// The first `count` puzzle lines of a shipped set.
std::vector<std::string> first_lines(const std::string& name, std::size_t count) {
  std::ifstream in(std::string(PCOUNT_DATA_DIR) + "/sudoku/" + name);
  EXPECT_TRUE(in) << name;
  std::vector<std::string> lines;
  std::string line;
  while (lines.size() < count && std::getline(in, line))
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  return lines;
}

/// What the plain counter finds: solutions up to `limit` and the first grid.
struct Plain {
  std::uint64_t solutions = 0;
  std::vector<std::uint8_t> first;
};
Plain plain_solve(const Puzzle& p, std::uint64_t limit) {
  std::vector<int> cells(p.cells.begin(), p.cells.end());
  test::PlainSudoku plain(cells, p.shape.rows, p.shape.cols);
  Plain r;
  if (!plain.clues_consistent()) return r;
  r.solutions = plain.count_up_to(limit);
  r.first.assign(plain.first().begin(), plain.first().end());
  return r;
}

/// The general and sweep kernels and the plain counter (or, with
/// `with_plain` false, the sweep kernel alone) agree on the count up to
/// `limit`; every first grid solves the puzzle; with one solution the grids
/// are equal. Returns the count.
std::uint64_t expect_agreement(const Puzzle& p, std::uint64_t limit, const std::string& what, bool with_plain = true) {
  const SolveResult g = solve(p, limit, Kernel::general);
  const SolveResult s = solve(p, limit, Kernel::sweep);
  Plain plain;
  if (with_plain) {
    plain = plain_solve(p, limit);
  } else {
    plain.solutions = s.solutions;
    plain.first = s.first;
  }
  EXPECT_EQ(g.solutions, plain.solutions) << what;
  EXPECT_EQ(s.solutions, plain.solutions) << what;
  EXPECT_EQ(g.limit_reached, limit != 0 && plain.solutions >= limit) << what;
  if (plain.solutions > 0) {
    EXPECT_TRUE(is_solution(p, g.first)) << what;
    EXPECT_TRUE(is_solution(p, s.first)) << what;
  } else {
    EXPECT_TRUE(g.first.empty()) << what;
  }
  if (plain.solutions == 1) {
    EXPECT_EQ(g.first, plain.first) << what;
    EXPECT_EQ(s.first, plain.first) << what;
  }
  return plain.solutions;
}

struct ShippedSet {
  const char* file;
  BoxShape shape;
  std::size_t slice;  ///< puzzles checked
};
constexpr ShippedSet kShipped[] = {
    {"puzzles12_3x4", BoxShape{3, 4}, 30},
    {"puzzles12_2x6", BoxShape{2, 6}, 30},
    {"puzzles16_4x4", BoxShape{4, 4}, 6},
};

TEST(GeneralSolver, ShippedSetsAgreeWithTheSweepKernelAndThePlainCounter) {
  // Every shipped puzzle has one solution (the generator's promise); one
  // clue less often gives several, and a clue changed to a peer's value
  // gives none: all three kinds are compared between the kernels. The plain
  // counter (no propagation) needs about ten seconds to prove one minimal
  // 12×12 puzzle unique and far longer for 16×16, so it checks each puzzle
  // with every other blank filled in from the sweep kernel's grid (one
  // solution, that grid; a wrong grid would give none).
  for (const ShippedSet& set : kShipped) {
    SCOPED_TRACE(set.file);
    const std::vector<std::string> lines = first_lines(set.file, set.slice);
    ASSERT_EQ(lines.size(), set.slice);
    int several = 0, none = 0;
    for (const std::string& line : lines) {
      const Puzzle p = parse_puzzle(line, set.shape);
      EXPECT_EQ(expect_agreement(p, 2, line, false), 1u) << line;
      Puzzle hinted = p;
      const std::vector<std::uint8_t> grid = solve(p, 2, Kernel::sweep).first;
      ASSERT_EQ(grid.size(), p.cells.size());
      bool fill = false;
      for (std::size_t k = 0; k < p.cells.size(); ++k)
        if (!p.cells[k] && (fill = !fill)) hinted.cells[k] = grid[k];
      EXPECT_EQ(expect_agreement(hinted, 2, "hinted " + line), 1u);
      // The first clue removed.
      Puzzle open = p;
      std::size_t i = 0;
      while (open.cells[i] == 0) ++i;
      open.cells[i] = 0;
      several += expect_agreement(open, 2, "open " + line, false) >= 2 ? 1 : 0;
      // The last blank given the value of the first clue of its row, if the row has one.
      Puzzle bad = p;
      const int n = set.shape.side();
      std::size_t j = bad.cells.size() - 1;
      while (bad.cells[j] != 0) --j;
      const std::size_t row = j / static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
      for (std::size_t k = row; k < row + static_cast<std::size_t>(n); ++k)
        if (bad.cells[k]) {
          bad.cells[j] = bad.cells[k];
          none += expect_agreement(bad, 2, "repeated " + line, false) == 0 ? 1 : 0;
          break;
        }
    }
    EXPECT_GT(several, 0);
    EXPECT_GT(none, 0);
  }
}

TEST(GeneralSolver, RandomPuzzlesOfEveryShapeAgree) {
  // Random clues kept from a random grid (random_grid is checked by the
  // rules here), at several densities: counts up to 20 agree between the
  // kernels and the plain counter; with a clue changed, too (often 0).
  std::mt19937_64 rng(20261123);
  int zero = 0, one = 0, many = 0;
  for (int rows = 1; rows <= 16; ++rows)
    for (int cols = 1; rows * cols <= 16; ++cols) {
      const BoxShape shape{rows, cols};
      const int n = shape.side();
      for (int trial = 0; trial < 6; ++trial) {
        const std::vector<std::uint8_t> grid = random_grid(shape, rng);
        ASSERT_TRUE(is_solution(Puzzle{shape, std::vector<std::uint8_t>(grid.size(), 0)}, grid)) << shape.name();
        Puzzle p{shape, grid};
        // Per cent of clues kept: fewer on small grids; on large ones the
        // plain counter (no propagation) needs many.
        const std::uint64_t keep = (n <= 8 ? 35 : 70) + 5 * static_cast<std::uint64_t>(trial);
        for (auto& v : p.cells)
          if (rng() % 100 >= keep) v = 0;
        if (trial % 2 == 1) p.cells[rng() % p.cells.size()] = static_cast<std::uint8_t>(1 + rng() % static_cast<std::uint64_t>(n));
        const std::uint64_t k = expect_agreement(p, 20, shape.name() + " " + to_line(p.cells));
        (k == 0 ? zero : k == 1 ? one : many) += 1;
      }
    }
  EXPECT_GT(zero, 0);
  EXPECT_GT(one, 0);
  EXPECT_GT(many, 0);
}

TEST(GeneralSolver, ExactCountsOfSmallShapesAgree) {
  // No limit: 2×2 and 2×3 grids with few clues (hundreds to thousands of
  // solutions, through the endgame counter and the band cache).
  std::mt19937_64 rng(7);
  for (const BoxShape shape : {BoxShape{2, 2}, BoxShape{2, 3}, BoxShape{3, 2}, BoxShape{1, 4}}) {
    for (int trial = 0; trial < 4; ++trial) {
      Puzzle p{shape, random_grid(shape, rng)};
      for (auto& v : p.cells)
        if (rng() % 100 >= 30) v = 0;
      const std::uint64_t k = expect_agreement(p, 0, shape.name() + " " + to_line(p.cells));
      EXPECT_GE(k, 1u);
    }
  }
}

TEST(GeneralSolver, CountJobGivesTheSameCountOnOneTwoThreeThreads) {
  // The grid of a shipped 12×12 puzzle with random cells blanked until it
  // has several solutions, counted in full by the plain counter and by the
  // job of either kernel on 1, 2 and 3 threads.
  std::mt19937_64 rng(12);
  for (const ShippedSet& set : {kShipped[0], kShipped[1]}) {
    const Puzzle p = parse_puzzle(first_lines(set.file, 1).at(0), set.shape);
    const std::vector<std::uint8_t> grid = solve(p, 1, Kernel::sweep).first;
    Puzzle q{set.shape, grid};
    std::uint64_t plain = 1;
    while (plain < 20) {
      q.cells[rng() % q.cells.size()] = 0;
      plain = plain_solve(q, 0).solutions;
    }
    for (Kernel k : {Kernel::general, Kernel::sweep})
      for (int threads : {1, 2, 3}) {
        CountJobOptions o;
        o.kernel = k;
        o.min_tasks = 16;
        engine::RunOptions ro;
        ro.threads = threads;
        EXPECT_EQ(engine::run(make_count_job(q, o), ro).totals.counts[0], plain)
            << set.file << " " << kernel_name(k) << " " << threads << " threads";
      }
  }
}

TEST(GeneralSolver, PuzzleFileOutputIsTheSameOnOneTwoThreeThreads) {
  // The 12×12 sets (the 16×16 one takes seconds per run: long_puzzle.cpp).
  for (const ShippedSet& set : {kShipped[0], kShipped[1]}) {
    const std::string path = std::string(PCOUNT_DATA_DIR) + "/sudoku/" + set.file;
    std::string expected;
    for (const char* threads : {"1", "2", "3"}) {
      const test::CommandResult r =
          test::run_count({"--puzzle-file", path, "--box", set.shape.name(), "--threads", threads, "-q"});
      ASSERT_EQ(r.status, 0) << r.err;
      if (expected.empty()) expected = r.out;
      EXPECT_EQ(r.out, expected) << set.file << " " << threads << " threads";
    }
    // Every line: "LINE 1 GRID", each grid solving its puzzle (checked by the rules).
    std::istringstream out(expected);
    const std::vector<std::string> lines = first_lines(set.file, 1000);
    std::string line_no, count, grid;
    std::size_t k = 0;
    while (out >> line_no >> count >> grid) {
      ASSERT_LT(k, lines.size());
      EXPECT_EQ(count, "1") << set.file << " line " << line_no;
      const Puzzle p = parse_puzzle(lines[k], set.shape);
      EXPECT_TRUE(is_solution(p, parse_puzzle(grid, set.shape).cells)) << set.file << " line " << line_no;
      ++k;
    }
    EXPECT_EQ(k, lines.size()) << set.file;
  }
}

TEST(PuzzleGenerator, SameSeedSamePuzzlesEachUniqueAndMinimal) {
  for (const BoxShape shape : {BoxShape{2, 2}, BoxShape{2, 3}, BoxShape{3, 2}, BoxShape{3, 3}}) {
    SCOPED_TRACE(shape.name());
    for (std::uint64_t i = 0; i < 3; ++i) {
      std::mt19937_64 a = puzzle_rng(42, i), b = puzzle_rng(42, i);
      const Puzzle p = random_puzzle(shape, 0, a);
      EXPECT_EQ(p.cells, random_puzzle(shape, 0, b).cells);
      EXPECT_EQ(plain_solve(p, 2).solutions, 1u) << to_line(p.cells);
      // Minimal: without any one of its clues the puzzle has several solutions.
      for (std::size_t k = 0; k < p.cells.size(); ++k) {
        if (!p.cells[k]) continue;
        Puzzle q = p;
        q.cells[k] = 0;
        EXPECT_EQ(plain_solve(q, 2).solutions, 2u) << to_line(p.cells) << " without cell " << k;
      }
    }
  }
  // Different indices and seeds give different puzzles.
  std::mt19937_64 x = puzzle_rng(42, 0), y = puzzle_rng(42, 1), z = puzzle_rng(43, 0);
  const auto px = random_puzzle(BoxShape{3, 3}, 0, x).cells;
  EXPECT_NE(px, random_puzzle(BoxShape{3, 3}, 0, y).cells);
  EXPECT_NE(px, random_puzzle(BoxShape{3, 3}, 0, z).cells);
}

TEST(PuzzleGenerator, StopsAtTheClueTarget) {
  std::mt19937_64 rng = puzzle_rng(5, 0);
  const Puzzle p = random_puzzle(BoxShape{3, 3}, 45, rng);
  int clues = 0;
  for (auto v : p.cells) clues += v ? 1 : 0;
  EXPECT_EQ(clues, 45);  // a 45-clue 9×9 digging never gets stuck above 45
  EXPECT_EQ(plain_solve(p, 2).solutions, 1u);
  EXPECT_THROW((void)random_grid(BoxShape{4, 5}, rng), InvalidArgument);
}

}  // namespace
}  // namespace pcount::sudoku
