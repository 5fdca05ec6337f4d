// `sudoku-make-puzzles` (src/cli/tools/make_puzzles.cpp), the generator
// of the 12×12 and 16×16 sets of data/sudoku: every refused command line
// (one line on stderr naming the option and what it allows, nothing on
// stdout, exit 2, no output file), and what an accepted one writes, checked
// with the tests' own plain backtracker.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "support/plain_sudoku.hpp"
#include "support/run_command.hpp"

namespace pcount::test {
namespace {

CommandResult run_make(const std::vector<std::string>& args) {
  std::vector<std::string> argv{PCOUNT_MAKE_PUZZLES_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv);
}

/// A fresh directory for this test's files (removed at the end).
struct ScratchDir {
  std::filesystem::path path;
  ScratchDir() {
    std::string t = (std::filesystem::temp_directory_path() / "pcount-make-puzzles-XXXXXX").string();
    EXPECT_NE(mkdtemp(t.data()), nullptr);
    path = t;
  }
  ~ScratchDir() { std::filesystem::remove_all(path); }
};

TEST(MakePuzzlesCli, RefusedInputIsOneLineOnStderrAndExit2) {
  const ScratchDir dir;
  const std::string out = (dir.path / "set").string();
  struct Case {
    std::vector<std::string> args;  ///< "--out <out>" is added in front of each
    std::string names;              ///< the option (or word) at fault
    std::string allows;             ///< part of what the message says is allowed
  };
  const std::vector<Case> cases = {
      {{"--box", "4x5"}, "--box", "at most 16"},
      {{"--box", "1x17"}, "--box", "1 ≤ R, C ≤ 16"},
      {{"--box", "0x3"}, "--box", "1 ≤ R, C ≤ 16"},
      {{"--box", "3y3"}, "--box", "RxC"},
      {{"--box", "3x"}, "--box", "RxC"},
      {{"--box", "3x3x3"}, "--box", "RxC"},
      {{"--box", ""}, "--box", "RxC"},
      {{"--box"}, "--box: missing value", "RxC"},
      {{"--box", "3x3", "--box", "2x2"}, "--box: given more than once", "RxC"},
      {{"--count", "0"}, "--count", "from 1 to 1000000"},
      {{"--count", "1000001"}, "--count", "from 1 to 1000000"},
      {{"--count", "-1"}, "--count", "from 1 to 1000000"},
      {{"--count", "1e3"}, "--count", "from 1 to 1000000"},
      {{"--count", "x"}, "--count", "from 1 to 1000000"},
      {{"--count", ""}, "--count", "from 1 to 1000000"},
      {{"--count"}, "--count: missing value", "from 1 to 1000000"},
      {{"--count", "1", "--count", "2"}, "--count: given more than once", "from 1 to 1000000"},
      {{"--seed", "-1"}, "--seed", "from 0 to 9223372036854775807"},
      {{"--seed", "9223372036854775808"}, "--seed", "from 0 to 9223372036854775807"},
      {{"--seed", "1.5"}, "--seed", "from 0 to 9223372036854775807"},
      {{"--seed"}, "--seed: missing value", "from 0 to 9223372036854775807"},
      {{"--clues", "82"}, "--clues", "from 0 to 81"},
      {{"--clues", "-1"}, "--clues", "from 0 to 81"},
      {{"--box", "2x2", "--clues", "17"}, "--clues", "from 0 to 16"},
      {{"--box", "4x4", "--clues", "257"}, "--clues", "from 0 to 256"},
      {{"--clues"}, "--clues: missing value", "from 0 to the number of cells"},
      {{"--out"}, "--out: missing value", "a file name"},
      {{"--bogus", "1"}, "--bogus: unknown option", "the options are --box, --count"},
      {{"--cou", "5"}, "--cou: unknown option", "the options are --box, --count"},  // no abbreviations
      {{"-b", "3x3"}, "-b: unknown option", "the options are --box, --count"},
      {{"extra"}, "'extra': unexpected argument", "the options are --box, --count"},
      {{"--box", "2x2", "5"}, "'5': unexpected argument", "the options are --box, --count"},
      {{"--help=yes"}, "--help", "takes no value"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args{"--out", out};
    args.insert(args.end(), c.args.begin(), c.args.end());
    std::string shown;
    for (const auto& a : args) shown += "'" + a + "' ";
    const CommandResult r = run_make(args);
    EXPECT_EQ(r.status, 2) << shown;
    EXPECT_EQ(r.out, "") << shown;
    EXPECT_TRUE(is_one_line(r.err)) << shown << "-> " << r.err;
    EXPECT_EQ(r.err.rfind("sudoku-make-puzzles: ", 0), 0u) << shown << "-> " << r.err;
    EXPECT_NE(r.err.find(c.names), std::string::npos) << shown << "-> " << r.err;
    EXPECT_NE(r.err.find(c.allows), std::string::npos) << shown << "-> " << r.err;
    EXPECT_FALSE(std::filesystem::exists(out)) << shown;
    std::filesystem::remove(out);
  }
}

TEST(MakePuzzlesCli, RefusedOutputFileIsOneLineOnStderrAndExit2) {
  const ScratchDir dir;
  const struct {
    std::string out, allows;
  } cases[] = {
      {"", "expected a file name"},  // not stdout in disguise
      {dir.path.string(), "is a directory, expected a file"},
      {(dir.path / "no-such-dir" / "set").string(), "cannot be created"},
  };
  for (const auto& c : cases) {
    const CommandResult r = run_make({"--box", "2x2", "--count", "1", "--out", c.out});
    EXPECT_EQ(r.status, 2) << c.out;
    EXPECT_EQ(r.out, "") << c.out;
    EXPECT_TRUE(is_one_line(r.err)) << c.out << " -> " << r.err;
    EXPECT_EQ(r.err.rfind("sudoku-make-puzzles: --out: ", 0), 0u) << c.out << " -> " << r.err;
    EXPECT_NE(r.err.find(c.allows), std::string::npos) << c.out << " -> " << r.err;
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path));
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(MakePuzzlesCli, WritesMinimalPuzzlesWithOneSolutionEach) {
  // 4×4 puzzles, small enough for the plain backtracker: each has exactly
  // one solution, and (--clues 0: minimal) each clue removed gives several.
  const ScratchDir dir;
  const std::string out = (dir.path / "set").string();
  const CommandResult r = run_make({"--box", "2x2", "--count", "20", "--seed", "7", "--out", out});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  const std::string text = slurp(out);
  const std::vector<std::string> lines = lines_of(text);
  ASSERT_EQ(lines.size(), 21u);
  EXPECT_EQ(lines[0], "# sudoku-make-puzzles --box 2x2 --count 20 --seed 7 --clues 0");
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    ASSERT_EQ(line.size(), 16u) << line;
    std::vector<int> cells;
    for (char ch : line) {
      ASSERT_TRUE(ch == '.' || (ch >= '1' && ch <= '4')) << line;
      cells.push_back(ch == '.' ? 0 : ch - '0');
    }
    PlainSudoku whole(cells, 2, 2);
    ASSERT_TRUE(whole.clues_consistent()) << line;
    EXPECT_EQ(whole.count_up_to(2), 1u) << line;
    for (std::size_t k = 0; k < cells.size(); ++k) {
      if (cells[k] == 0) continue;
      std::vector<int> fewer = cells;
      fewer[k] = 0;
      EXPECT_EQ(PlainSudoku(fewer, 2, 2).count_up_to(2), 2u) << line << " without cell " << k;
    }
  }
  // The same command to stdout gives the same text (the set is reproducible).
  const CommandResult again = run_make({"--box", "2x2", "--count", "20", "--seed", "7"});
  EXPECT_EQ(again.status, 0);
  EXPECT_EQ(again.out, text);
}

}  // namespace
}  // namespace pcount::test
