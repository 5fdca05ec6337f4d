// Long runs (ctest label `long`): 10×10 sudoku grids (2x5 boxes) by Σ B(σ)²,
// Pettersen 2005: 1,903,816,047,972,624,930,994,913,280,000.
#include <gtest/gtest.h>

#include "pcount/engine/runner.hpp"
#include "pcount/sudoku/bands.hpp"
#include "pcount/sudoku/grids.hpp"
#include "support/known_grids.hpp"

namespace pcount::sudoku {
namespace {

TEST(SudokuGridsLong, TwoByFiveByBandsHas355ClassesAndTheKnownTotal) {
  const auto bands = make_bands_two_column(5);
  EXPECT_EQ(bands->class_count(), 355u);  // docs/sudoku-grids.md
  const BigInt total = bands->total(engine::run(bands->job("test")).totals);
  EXPECT_EQ(to_string(total), test::known_grid_count(2, 5));
  EXPECT_TRUE(total % reduced_multiplier({2, 5}) == 0);
}

}  // namespace
}  // namespace pcount::sudoku
