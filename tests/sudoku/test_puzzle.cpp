// Sudoku puzzle parsing, printing and the rule checker.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "pcount/sudoku/puzzle.hpp"

namespace pcount::sudoku {
namespace {

// Seed 003's classic puzzle (docs/sources.md) and its solution.
const std::string kSeed003 = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const std::string kSeed003Solution =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

TEST(PuzzleParse, ReadsDigitsBlanksAndIgnoresWhitespace) {
  std::string spaced;
  for (std::size_t i = 0; i < kSeed003.size(); ++i) {
    spaced += kSeed003[i] == '.' && i % 2 ? '0' : kSeed003[i];
    if (i % 9 == 8) spaced += "\n";
    else if (i % 3 == 2) spaced += "  \t";
  }
  const Puzzle p = parse_puzzle(spaced);
  ASSERT_EQ(p.cells.size(), 81u);
  EXPECT_EQ(p.cells[0], 5);
  EXPECT_EQ(p.cells[1], 3);
  EXPECT_EQ(p.cells[2], 0);
  EXPECT_EQ(p.cells[80], 9);
  EXPECT_EQ(to_line(p.cells), kSeed003);
}

TEST(PuzzleParse, OtherShapesAndLetters) {
  const Puzzle p = parse_puzzle("1...\n..2.\n.3..\n...4", BoxShape{2, 2});
  EXPECT_EQ(p.cells.size(), 16u);
  EXPECT_EQ(to_line(p.cells), "1.....2..3.....4");
  // 16×16 uses A-G for 10..16, either case.
  std::string big(256, '.');
  big[0] = 'g';
  big[17] = 'A';
  const Puzzle q = parse_puzzle(big, BoxShape{4, 4});
  EXPECT_EQ(q.cells[0], 16);
  EXPECT_EQ(q.cells[17], 10);
  EXPECT_EQ(to_line(q.cells).substr(0, 2), "G.");
}

struct BadPuzzle {
  std::string text;
  BoxShape shape;
  int row, column;
  std::string says;
};

TEST(PuzzleParse, BadInputNamesCellAndRule) {
  std::string row_repeat = kSeed003;
  row_repeat[8] = '5';  // row 1 already has 5 at column 1
  std::string col_repeat = kSeed003;
  col_repeat[9 * 8] = '5';  // column 1 already has 5 at row 1
  std::string box_repeat = kSeed003;
  box_repeat[9 + 2] = '3';  // box 1 has 3 at row 1, column 2; row 2 and column 3 have no 3
  const std::vector<BadPuzzle> cases = {
      {kSeed003.substr(0, 80), {}, 0, 0, "expected 81 cells"},
      {kSeed003 + "1", {}, 0, 0, "got 82"},
      {"53x" + kSeed003.substr(3), {}, 1, 3, "bad character 'x'"},
      {kSeed003.substr(0, 10) + "A" + kSeed003.substr(11), {}, 2, 2, "bad character 'A'"},
      {"1..5............", {2, 2}, 1, 4, "bad character '5'"},
      {row_repeat, {}, 1, 9, "digit 5 repeats in row 1 (already at row 1, column 1)"},
      {col_repeat, {}, 9, 1, "digit 5 repeats in column 1 (already at row 1, column 1)"},
      {box_repeat, {}, 2, 3, "digit 3 repeats in box 1 (already at row 1, column 2)"},
  };
  for (const auto& c : cases) {
    try {
      (void)parse_puzzle(c.text, c.shape);
      ADD_FAILURE() << "accepted: " << c.text;
    } catch (const PuzzleError& e) {
      EXPECT_EQ(e.argument(), "puzzle");
      EXPECT_EQ(e.row(), c.row) << e.what();
      EXPECT_EQ(e.column(), c.column) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.says), std::string::npos) << e.what();
      if (c.row) {
        const std::string cell = "row " + std::to_string(c.row) + ", column " + std::to_string(c.column);
        EXPECT_EQ(std::string(e.what()).rfind(cell, 0), 0u) << e.what();
      }
    }
  }
}

TEST(PuzzleParse, ShapeLimits) {
  EXPECT_THROW((void)parse_puzzle("", BoxShape{5, 4}), InvalidArgument);
  EXPECT_THROW((void)parse_puzzle("", BoxShape{0, 3}), InvalidArgument);
  EXPECT_NO_THROW((void)parse_puzzle(".", BoxShape{1, 1}));
  try {
    check_shape(BoxShape{17, 1});  // the default parameter name
    ADD_FAILURE();
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.argument(), "box_shape");
  }
}

TEST(PuzzleFormat, GridHasBoxSeparators) {
  const Puzzle p = parse_puzzle("1234341221434321", BoxShape{2, 2});
  EXPECT_EQ(to_grid(p.cells, p.shape), "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n");
  const Puzzle q = parse_puzzle(kSeed003Solution);
  const std::string g = to_grid(q.cells, q.shape);
  EXPECT_EQ(g.substr(0, 22), "5 3 4 | 6 7 8 | 9 1 2\n");
  EXPECT_NE(g.find("------+-------+------\n"), std::string::npos);
}

TEST(PuzzleCheck, IsSolutionChecksRulesAndClues) {
  const Puzzle puzzle = parse_puzzle(kSeed003);
  const Puzzle solution = parse_puzzle(kSeed003Solution);
  EXPECT_TRUE(is_solution(puzzle, solution.cells));
  auto swapped = solution.cells;  // swap two cells of row 1: breaks columns
  std::swap(swapped[2], swapped[3]);
  EXPECT_FALSE(is_solution(puzzle, swapped));
  // A valid grid that ignores a clue: relabel digits 1 <-> 2 everywhere.
  auto relabelled = solution.cells;
  for (auto& v : relabelled) v = v == 1 ? 2 : v == 2 ? 1 : v;
  const Puzzle empty = parse_puzzle(std::string(81, '.'));
  EXPECT_TRUE(is_solution(empty, relabelled));
  EXPECT_FALSE(is_solution(parse_puzzle("1" + std::string(80, '.')), relabelled));
  auto blank = solution.cells;
  blank[40] = 0;
  EXPECT_FALSE(is_solution(puzzle, blank));
}

// The 9×9 check (is_solution9, which is_solution uses for 3x3 boxes) against
// grids that break one rule each.
TEST(PuzzleCheck, NineByNineCheckFindsEachBrokenRule) {
  const Puzzle puzzle = parse_puzzle(kSeed003);
  const std::vector<std::uint8_t> good = parse_puzzle(kSeed003Solution).cells;
  const std::vector<std::uint8_t> none(81, 0);
  std::vector<std::uint8_t> latin(81);  // rows and columns fine, boxes not
  for (int r = 0; r < 9; ++r)
    for (int c = 0; c < 9; ++c) latin[static_cast<std::size_t>(9 * r + c)] = static_cast<std::uint8_t>((r + c) % 9 + 1);
  const auto with = [&good](int cell, int value) {
    auto g = good;
    g[static_cast<std::size_t>(cell)] = static_cast<std::uint8_t>(value);
    return g;
  };
  auto columns = good;  // two cells of row 1 swapped: columns break
  std::swap(columns[2], columns[3]);
  auto boxes = good;  // columns 3 and 4 swapped: rows and columns fine, boxes break
  for (int r = 0; r < 9; ++r)
    std::swap(boxes[static_cast<std::size_t>(9 * r + 2)], boxes[static_cast<std::size_t>(9 * r + 3)]);
  auto relabelled = good;  // digits 1 and 2 exchanged: valid, but not the clues
  for (auto& v : relabelled) v = v == 1 ? 2 : v == 2 ? 1 : v;
  auto rows = good;  // two cells of column 1 swapped within a box: rows break
  std::swap(rows[0], rows[9]);
  struct Case {
    const char* what;
    const std::vector<std::uint8_t>& clues;
    std::vector<std::uint8_t> grid;
    bool valid;
  };
  const Case cases[] = {
      {"the solution", puzzle.cells, good, true},
      {"the solution, no clues", none, good, true},
      {"a blank cell", none, with(40, 0), false},
      {"a value of 10", none, with(80, 10), false},
      {"a value of 255", none, with(0, 255), false},
      {"a repeated digit", none, with(0, good[1]), false},
      {"columns broken", none, columns, false},
      {"rows broken", none, rows, false},
      {"boxes broken", none, boxes, false},
      {"a Latin square that is no sudoku", none, latin, false},
      {"a valid grid that breaks a clue", puzzle.cells, relabelled, false},
      {"the same grid, no clues", none, relabelled, true},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(is_solution9(c.clues.data(), c.grid.data()), c.valid) << c.what;
    EXPECT_EQ(is_solution(Puzzle{BoxShape{3, 3}, c.clues}, c.grid), c.valid) << c.what;
  }
}

}  // namespace
}  // namespace pcount::sudoku
