// count --puzzle / --puzzle-file: output, JSON, exit status and every bad input.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "pcount/sudoku/puzzle.hpp"
#include "support/known_grids.hpp"
#include "support/plain_sudoku.hpp"
#include "support/run_command.hpp"

namespace pcount::test {
namespace {

const std::string kSeed003 = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const std::string kSeed003Solution =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
const std::string kEscargot = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..";
const std::string kContradiction = "12345678.........9" + std::string(63, '.');
const std::string kSeed003Open = kSeed003.substr(0, 63) + std::string(18, '.');  // several solutions

/// Solutions of kSeed003Open by the plain counter (an independent method).
const std::string& seed003_open_count() {
  static const std::string n = std::to_string(PlainSudoku::from_line(kSeed003Open).count());
  return n;
}

/// A temporary file holding `text`, removed at scope exit.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& text) {
    char tmpl[] = "/tmp/pcount-puzzles-XXXXXX";
    const int fd = mkstemp(tmpl);
    close(fd);
    path = tmpl;
    std::ofstream(path) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
};

nlohmann::json json_of(const CommandResult& r) { return nlohmann::json::parse(r.out); }

TEST(PuzzleCli, OnePuzzlePrintsCountAndGrid) {
  const CommandResult r = run_count({"--puzzle", kSeed003, "--threads", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("solutions     1\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("first solution:\n5 3 4 | 6 7 8 | 9 1 2\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("3 4 5 | 2 8 6 | 1 7 9\n"), std::string::npos) << r.out;
}

TEST(PuzzleCli, JsonHoldsCountAndSolution) {
  const CommandResult r = run_count({"--puzzle", kEscargot, "--json", "--threads", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(is_one_line(r.out));
  const auto j = json_of(r);
  EXPECT_EQ(j["problem"], "puzzle");
  EXPECT_EQ(j["counts"]["solutions"], "1");
  EXPECT_EQ(j["limit_reached"], false);
  const auto p = sudoku::parse_puzzle(kEscargot);
  const auto s = sudoku::parse_puzzle(j["solution"].get<std::string>());
  EXPECT_TRUE(sudoku::is_solution(p, s.cells));
}

TEST(PuzzleCli, CountsAgreeForThreadsSplitDepthsAndMethods) {
  for (const std::string threads : {"1", "2", "4"})
    for (const std::string depth : {"0", "1", "3", "6"})
      for (const std::string method : {"fast9", "general"}) {
        const CommandResult r = run_count(
            {"--puzzle", kSeed003Open, "--json", "--threads", threads, "--split-depth", depth, "--method", method});
        ASSERT_EQ(r.status, 0) << r.err;
        const auto j = json_of(r);
        EXPECT_EQ(j["counts"]["solutions"], seed003_open_count()) << threads << " " << depth << " " << method;
        EXPECT_EQ(j["split_depth"], std::stoi(depth));
      }
}

TEST(PuzzleCli, OtherBoxShapesLimitAndNoSolution) {
  const CommandResult four = run_count({"--puzzle", std::string(16, '.'), "--box", "2x2", "--json"});
  ASSERT_EQ(four.status, 0) << four.err;
  EXPECT_EQ(json_of(four)["counts"]["solutions"], known_grid_count(2, 2));  // 288, OEIS A107739
  EXPECT_EQ(json_of(four)["params"]["box"], "2x2");
  const CommandResult six = run_count({"--puzzle", "123456456" + std::string(27, '0'), "--box", "2x3", "--json"});
  ASSERT_EQ(six.status, 0) << six.err;
  // Box 1 fixed: every 6×6 grid once up to 6!·3! relabellings (see
  // test_solver.cpp), so 28,200,960 / 4320.
  EXPECT_EQ(json_of(six)["counts"]["solutions"],
            std::to_string(std::stoull(known_grid_count(2, 3)) / (720 * 6)));

  const CommandResult lim = run_count({"--puzzle", std::string(81, '.'), "--limit", "25", "--json"});
  ASSERT_EQ(lim.status, 0) << lim.err;
  EXPECT_EQ(json_of(lim)["counts"]["solutions"], "25");
  EXPECT_EQ(json_of(lim)["limit_reached"], true);

  const CommandResult none = run_count({"--puzzle", kContradiction});
  ASSERT_EQ(none.status, 0) << none.err;
  EXPECT_NE(none.out.find("solutions     0\n"), std::string::npos) << none.out;
  EXPECT_EQ(none.out.find("first solution"), std::string::npos);
  const CommandResult none_json = run_count({"--puzzle", kContradiction, "--json"});
  EXPECT_EQ(json_of(none_json)["counts"]["solutions"], "0");
  EXPECT_TRUE(json_of(none_json)["solution"].is_null());
}

TEST(PuzzleCli, BadInputIsOneLineOnStderrAndExit2) {
  std::string repeat = kSeed003;
  repeat[8] = '5';
  const TempFile empty_ok("");
  const std::vector<BadInputCase> cases = {
      {{"--puzzle", kSeed003.substr(0, 80)}, "--puzzle: expected 81 cells"},
      {{"--puzzle", kSeed003 + "12"}, "got 83"},
      {{"--puzzle", "x" + kSeed003.substr(1)}, "--puzzle: row 1, column 1: bad character 'x'"},
      {{"--puzzle", repeat}, "--puzzle: row 1, column 9: digit 5 repeats in row 1"},
      {{"--puzzle", std::string(81, '.'), "--box", "5x4"}, "--box"},
      {{"--puzzle", std::string(81, '.'), "--box", "3"}, "--box"},
      {{"--puzzle", std::string(81, '.'), "--box", "0x3"}, "--box"},
      {{"--puzzle", std::string(16, '.'), "--box", "2x2", "--method", "fast9"}, "--method"},
      {{"--puzzle", std::string(81, '.'), "--method", "dancing"}, "--method"},
      {{"--puzzle", std::string(81, '.'), "--limit", "-1"}, "--limit"},
      {{"--puzzle", std::string(81, '.'), "--limit", "many"}, "--limit"},
      {{"--puzzle"}, "--puzzle"},
      {{"--queens", "8", "--limit", "2"}, "--limit"},
      {{"--queens", "8", "--box", "2x2"}, "--box"},
      {{"--puzzle-file", "/nonexistent/puzzles.txt"}, "--puzzle-file: /nonexistent/puzzles.txt: cannot be read"},
      {{"--puzzle-file", "/tmp"}, "--puzzle-file: /tmp: is a directory, expected a file"},
      {{"--puzzle", kSeed003, "--puzzle-file", empty_ok.path}, "give one problem at a time"},
      {{"--puzzle-file", empty_ok.path, "--split-depth", "2"}, "--split-depth: does not apply"},
      {{"--puzzle-file", empty_ok.path, "--limit", "x"}, "--limit"},
      {{"--puzzle-file", empty_ok.path, "--box", "4x5"}, "--box"},
  };
  expect_bad_input(cases);
}

TEST(PuzzleCli, FileWithABadLineInTheMiddle) {
  std::string repeat = kSeed003;
  repeat[9 * 8] = '5';  // column 1 repeats the 5 of row 1
  const TempFile file("# three good puzzles, one bad, one short\n" + kSeed003 + "\n\n" + kEscargot + "\n" + repeat +
                      "\n  " + kContradiction + "  \n" + kSeed003.substr(5) + "\n" + kSeed003Open + "\n");
  for (const std::string threads : {"1", "2", "4"}) {
    const CommandResult r = run_count({"--puzzle-file", file.path, "--threads", threads});
    EXPECT_EQ(r.status, 1) << r.err;
    std::istringstream out(r.out);
    std::vector<std::string> lines;
    for (std::string l; std::getline(out, l);) lines.push_back(l);
    ASSERT_EQ(lines.size(), 4u) << r.out;
    EXPECT_EQ(lines[0], "2 1 " + kSeed003Solution);
    EXPECT_EQ(lines[1].substr(0, 4), "4 1 ");
    EXPECT_EQ(lines[2], "6 0 -");
    EXPECT_EQ(lines[3].substr(0, 5), "8 2+ ");
    EXPECT_NE(r.err.find("count: --puzzle-file: line 5: row 9, column 1: digit 5 repeats in column 1"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("count: --puzzle-file: line 7: expected 81 cells"), std::string::npos) << r.err;
    EXPECT_LT(r.err.find("line 5:"), r.err.find("line 7:")) << "messages in line order";
    // The summary is the job's report, on stderr: stdout holds result lines only.
    EXPECT_NE(r.err.find("solved        4\nunique        2\nno_solution   1\nseveral       1\nbad_lines     2\n"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("lines         8\n"), std::string::npos) << r.err;
  }
  const CommandResult j = run_count({"--puzzle-file", file.path, "--json", "--threads", "2"});
  EXPECT_EQ(j.status, 1);
  const auto report = nlohmann::json::parse(j.err.substr(j.err.rfind("\n{") + 1));
  EXPECT_EQ(report["problem"], "puzzle-file");
  EXPECT_EQ(report["counts"], nlohmann::json::parse(
                                  R"({"solved":"4","unique":"2","no_solution":"1","several":"1","bad_lines":"2"})"));
  // --quiet drops the summary; the bad lines are still reported.
  const CommandResult q = run_count({"--puzzle-file", file.path, "--quiet", "--limit", "0"});
  EXPECT_EQ(q.status, 1);
  EXPECT_EQ(q.err.find("solved"), std::string::npos);
  EXPECT_NE(q.err.find("line 7: expected 81 cells"), std::string::npos) << q.err;
  EXPECT_NE(q.out.find("8 " + seed003_open_count() + " "), std::string::npos) << q.out;
}

// The 9×9 path writes its JSON Lines records itself; --method general takes
// the path that builds them with nlohmann::json. Both must print the same
// bytes for the same results (unique and unsolvable puzzles, '0' blanks, a
// CRLF line end); for several solutions the first found may differ by kernel.
TEST(PuzzleCli, JsonLinesOfTheFastPathEqualTheLibrarysRecords) {
  std::string zeros = kEscargot;
  std::replace(zeros.begin(), zeros.end(), '.', '0');
  const TempFile file(kSeed003 + "\n" + kContradiction + "\n" + zeros + "\r\n" + kSeed003Open + "\n");
  const auto lines_of = [](const std::string& text) {
    std::vector<std::string> v;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) v.push_back(l);
    return v;
  };
  const CommandResult fast = run_count({"--puzzle-file", file.path, "--json", "-q"});
  const CommandResult lib = run_count({"--puzzle-file", file.path, "--json", "-q", "--method", "general"});
  ASSERT_EQ(fast.status, 0) << fast.err;
  ASSERT_EQ(lib.status, 0) << lib.err;
  const auto f = lines_of(fast.out), g = lines_of(lib.out);
  ASSERT_EQ(f.size(), 4u) << fast.out;
  ASSERT_EQ(g.size(), 4u) << lib.out;
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(f[i], g[i]) << "line " << i + 1;
  EXPECT_EQ(nlohmann::json::parse(f[0])["solution"], kSeed003Solution);
  const auto a = nlohmann::json::parse(f[3]), b = nlohmann::json::parse(g[3]);
  EXPECT_EQ(a["solutions"], "2");
  EXPECT_EQ(a["limit_reached"], true);
  for (const char* key : {"line", "puzzle", "solutions", "limit_reached"}) EXPECT_EQ(a[key], b[key]) << key;
  EXPECT_EQ(a["solution"].get<std::string>().size(), 81u);
}

TEST(PuzzleCli, FileFromStdinAsJsonLines) {
  const TempFile file(kSeed003 + "\n" + kContradiction + "\n" + std::string(16, '.') + "\n");
  const CommandResult r = run_count({"--puzzle-file", "-", "--json", "--limit", "1000", "-q"}, file.path);
  EXPECT_EQ(r.status, 1);  // the 16-cell line is not a 9×9 puzzle
  std::istringstream out(r.out);
  std::vector<nlohmann::json> rows;
  for (std::string l; std::getline(out, l);) rows.push_back(nlohmann::json::parse(l));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["line"], 1);
  EXPECT_EQ(rows[0]["solutions"], "1");
  EXPECT_EQ(rows[0]["solution"], kSeed003Solution);
  EXPECT_EQ(rows[0]["limit_reached"], false);
  EXPECT_EQ(rows[1]["line"], 2);
  EXPECT_EQ(rows[1]["solutions"], "0");
  EXPECT_TRUE(rows[1]["solution"].is_null());
  EXPECT_TRUE(is_one_line(r.err)) << r.err;
  EXPECT_NE(r.err.find("line 3: expected 81 cells"), std::string::npos) << r.err;

  const TempFile small(std::string(16, '.') + "\n1...............\n");
  const CommandResult s = run_count({"--puzzle-file", small.path, "--box", "2x2", "--limit", "0", "-q"});
  EXPECT_EQ(s.status, 0) << s.err;
  EXPECT_NE(s.out.find("1 " + known_grid_count(2, 2) + " "), std::string::npos) << s.out;
  // A 1 in the corner: 288 / 4 by relabelling, and the plain counter agrees.
  std::vector<int> corner(16, 0);
  corner[0] = 1;
  EXPECT_EQ(PlainSudoku(corner, 2, 2).count(), 72u);
  EXPECT_NE(s.out.find("2 72 "), std::string::npos) << s.out;
}

}  // namespace
}  // namespace pcount::test
