// `count --sudoku RxC`: totals, reduced counts, JSON fields, method choice
// and every refused input (one line on stderr, nothing on stdout, exit 2).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "support/run_command.hpp"

namespace pcount::test {
namespace {

nlohmann::json run_json(const std::vector<std::string>& args) {
  std::vector<std::string> all = args;
  all.push_back("--json");
  const CommandResult r = run_count(all);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(is_one_line(r.out)) << r.out;
  return nlohmann::json::parse(r.out);
}

TEST(SudokuGridsCli, JsonHoldsTotalReducedAndMultiplier) {
  struct Case {
    std::string box, method, grids, reduced, multiplier;
  };
  const std::vector<Case> cases = {
      {"2x2", "search", "288", "6", "48"},
      {"2x3", "search", "28200960", "6528", "4320"},
      {"3x2", "search", "28200960", "9792", "2880"},
      {"2x3", "bands", "28200960", "6528", "4320"},
      {"3x2", "bands", "28200960", "9792", "2880"},
      {"2x4", "bands", "29136487207403520", "30109630464", "967680"},
      {"4x2", "bands", "29136487207403520", "60219260928", "483840"},
      {"3x3", "bands", "6670903752021072936960", "1531935201724416", "4354560"},
  };
  for (const auto& c : cases) {
    for (const char* threads : {"1", "2", "4"}) {
      const auto j = run_json({"--sudoku", c.box, "--method", c.method, "--threads", threads});
      EXPECT_EQ(j["problem"], "sudoku");
      EXPECT_EQ(j["method"], c.method);
      EXPECT_EQ(j["params"]["box"], c.box);
      EXPECT_EQ(j["counts"]["grids"], c.grids) << c.box << " " << c.method;
      EXPECT_EQ(j["counts"]["reduced"], c.reduced) << c.box << " " << c.method;
      EXPECT_EQ(j["counts"]["multiplier"], c.multiplier) << c.box << " " << c.method;
      EXPECT_EQ(j["threads"], std::stoi(threads));
    }
  }
}

TEST(SudokuGridsCli, DefaultIsBandsWithClassesAndPhaseTimes) {
  const auto j = run_json({"--sudoku", "3x3"});
  EXPECT_EQ(j["method"], "bands");
  EXPECT_EQ(j["classes"], 44);
  EXPECT_EQ(j["tasks"], 44);
  EXPECT_TRUE(j["setup_seconds"].is_number());
  EXPECT_TRUE(j["count_seconds"].is_number());
  EXPECT_EQ(run_json({"--sudoku", "2x4"})["classes"], 26);
}

TEST(SudokuGridsCli, SearchHonoursTheSplitDepth) {
  for (const char* depth : {"0", "1", "3", "60"}) {
    const auto j = run_json({"--sudoku", "2x3", "--method", "search", "--split-depth", depth, "--threads", "2"});
    EXPECT_EQ(j["counts"]["reduced"], "6528") << depth;
    EXPECT_TRUE(j["split_depth"].is_number());
  }
}

TEST(SudokuGridsCli, TextOutputNamesEveryCount) {
  const CommandResult r = run_count({"--sudoku", "2x3"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* key : {"grids", "28200960", "reduced", "6528", "multiplier", "4320", "bands", "classes"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << "\n" << r.out;
}

TEST(SudokuGridsCli, BandClassesSplitIntoShardsMergeToTheTotal) {
  const std::string base = "/tmp/pcount-test-sudoku-grids-" + std::to_string(::getpid());
  const std::string f0 = base + "-0.json", f1 = base + "-1.json";
  ASSERT_EQ(run_count({"--sudoku", "2x4", "--shard", "0/2", "--out", f0, "--quiet"}).status, 0);
  ASSERT_EQ(run_count({"--sudoku", "2x4", "--shard", "1/2", "--out", f1, "--quiet"}).status, 0);
  const CommandResult merged = run_count({"merge", "--json", f0, f1});
  ::unlink(f0.c_str());
  ::unlink(f1.c_str());
  ASSERT_EQ(merged.status, 0) << merged.err;
  const auto j = nlohmann::json::parse(merged.out);
  EXPECT_EQ(j["counts"]["grids"], "29136487207403520");
  EXPECT_EQ(j["counts"]["reduced"], "30109630464");
}

TEST(SudokuGridsCli, RefusedInputIsOneLineOnStderrAndExit2) {
  const std::vector<BadInputCase> cases = {
      {{"--sudoku", "3x4"}, "supported: --method bands for 3x3"},
      {{"--sudoku", "4x4"}, "--sudoku"},
      {{"--sudoku", "1x9"}, "--sudoku"},
      {{"--sudoku", "2x6"}, "--sudoku"},
      {{"--sudoku", "3x3", "--method", "search"}, "--method"},
      {{"--sudoku", "2x4", "--method", "search"}, "--method"},
      {{"--sudoku", "3x3", "--method", "magic"}, "--method"},
      {{"--sudoku", "3x3", "--split-depth", "2"}, "--split-depth"},
      {{"--sudoku", "x3"}, "--sudoku"},
      {{"--sudoku", "3x"}, "--sudoku"},
      {{"--sudoku", "0x3"}, "--sudoku"},
      {{"--sudoku", "3y3"}, "--sudoku"},
      {{"--sudoku", "99x99"}, "--sudoku"},
      {{"--sudoku", ""}, "--sudoku"},
      {{"--sudoku"}, "--sudoku"},
      {{"--sudoku", "3x3", "--threads", "0"}, "--threads"},
  };
  expect_bad_input(cases);
}

}  // namespace
}  // namespace pcount::test
