// Sudoku puzzle parsing, printing and the rule checker.
#include <gtest/gtest.h>

#include <string>

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

}  // namespace
}  // namespace pcount::sudoku
