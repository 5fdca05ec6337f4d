// Slow puzzle runs (ctest label `long`): the five shipped puzzle sets whole,
// fast9 against every simd9 path; the docs/sudoku-grids.md per-class check
// puzzle, 6,696,000 solutions, by both kernels and several splits.
#include <gtest/gtest.h>

#include <string>

#include "pcount/engine/runner.hpp"
#include "pcount/sudoku/puzzle.hpp"
#include "pcount/sudoku/solver.hpp"
#include "support/run_command.hpp"
#include "support/simd9_cross_check.hpp"

namespace pcount::sudoku {
namespace {

const std::string kBandAndColumn =
    "1234567894567891237891234562........5........8........3........6........9........";

TEST(PuzzleLong, WholeShippedSetsAgreeWithFast9OnEverySimd9Path) {
  for (const char* name : {"puzzles2_17_clue", "puzzles3_magictour_top1465", "puzzles5_forum_hardest_1905_11+",
                           "puzzles6_forum_hardest_1106", "puzzles7_serg_benchmark"})
    EXPECT_GT(test::cross_check_simd9_set(name, 1), 370) << name;
}

TEST(PuzzleLong, BandAndFirstColumnHas6696000Solutions) {
  const Puzzle p = parse_puzzle(kBandAndColumn);
  for (int depth : {-1, 0, 3, 6}) {
    for (int threads : {1, 2}) {
      CountJobOptions o;
      o.split_depth = depth;
      o.kernel = Kernel::fast9;
      engine::RunOptions ro;
      ro.threads = threads;
      EXPECT_EQ(engine::run(make_count_job(p, o), ro).totals.counts[0], 6'696'000u)
          << "depth " << depth << " threads " << threads;
    }
  }
  EXPECT_EQ(solve(p, 0, Kernel::fast9).solutions, 6'696'000u);
}

TEST(PuzzleLong, GeneralKernelAgreesOn6696000) {
  CountJobOptions o;
  o.kernel = Kernel::general;
  engine::RunOptions ro;
  ro.threads = 2;
  EXPECT_EQ(engine::run(make_count_job(parse_puzzle(kBandAndColumn), o), ro).totals.counts[0], 6'696'000u);
}

TEST(PuzzleLong, EmptySixBySixHas28200960) {
  // 2×3 boxes: all 28,200,960 grids (seed 001; docs/sources.md), and the
  // transposed shape 3×2 gives the same number. A few seconds each.
  for (BoxShape shape : {BoxShape{2, 3}, BoxShape{3, 2}}) {
    engine::RunOptions ro;
    ro.threads = 2;
    EXPECT_EQ(engine::run(make_count_job(parse_puzzle(std::string(36, '.'), shape)), ro).totals.counts[0],
              28'200'960u)
        << shape.rows << "x" << shape.cols;
  }
}

TEST(PuzzleLong, SixteenBySixteenSetSameOutputOnOneTwoThreeThreads) {
  // The generated 16×16 set (data/sudoku/README.md): every puzzle unique,
  // the same output for every thread count, each grid solving its puzzle.
  const std::string path = std::string(PCOUNT_DATA_DIR) + "/sudoku/puzzles16_4x4";
  std::string expected;
  for (const char* threads : {"1", "2", "3"}) {
    const test::CommandResult r = test::run_count({"--puzzle-file", path, "--box", "4x4", "--threads", threads});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("unique        200\n"), std::string::npos) << r.err;
    if (expected.empty()) expected = r.out;
    EXPECT_EQ(r.out, expected) << threads << " threads";
  }
}

}  // namespace
}  // namespace pcount::sudoku
