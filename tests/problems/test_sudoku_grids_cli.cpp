// `count --sudoku RxC`: totals, reduced counts, JSON fields, method choice
// and every refused input (one line on stderr, nothing on stdout, exit 2).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "support/known_grids.hpp"
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

__extension__ typedef unsigned __int128 wide;

/// Decimal digits to a 128-bit number (the test's own parser).
wide parse_u128(const std::string& digits) {
  wide v = 0;
  for (char ch : digits) {
    EXPECT_TRUE(ch >= '0' && ch <= '9') << digits;
    v = v * 10 + static_cast<unsigned>(ch - '0');
  }
  return v;
}

wide factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

/// The reduced-grid multiplier as the grid documentation defines it:
/// N!·C!·(R-1)! (digits relabelled, box 1's columns permuted, box 1's lower
/// rows permuted).
wide multiplier(int rows, int cols) {
  return factorial(rows * cols) * factorial(cols) * factorial(rows - 1);
}

TEST(SudokuGridsCli, JsonHoldsTotalReducedAndMultiplier) {
  // grids: the published totals; multiplier: the formula; reduced: whatever
  // the program found, as long as reduced × multiplier = grids.
  struct Case {
    int rows, cols;
    std::string method;
  };
  const std::vector<Case> cases = {
      {2, 2, "search"}, {2, 3, "search"}, {3, 2, "search"}, {2, 3, "bands"},
      {3, 2, "bands"},  {2, 4, "bands"},  {4, 2, "bands"},  {3, 3, "bands"},
      {2, 2, "subbands"}, {2, 3, "subbands"}, {3, 2, "subbands"}, {2, 4, "subbands"}, {4, 2, "subbands"},
      {2, 2, "factorisations"}, {2, 3, "factorisations"}, {3, 2, "factorisations"}, {2, 4, "factorisations"},
      {4, 2, "factorisations"},
  };
  for (const auto& c : cases) {
    const std::string box = std::to_string(c.rows) + "x" + std::to_string(c.cols);
    const std::string grids = known_grid_count(c.rows, c.cols);
    ASSERT_FALSE(grids.empty()) << box;
    for (const char* threads : {"1", "2", "4"}) {
      const auto j = run_json({"--sudoku", box, "--method", c.method, "--threads", threads});
      EXPECT_EQ(j["problem"], "sudoku");
      EXPECT_EQ(j["method"], c.method);
      EXPECT_EQ(j["params"]["box"], box);
      EXPECT_EQ(j["counts"]["grids"], grids) << box << " " << c.method;
      const wide m = parse_u128(j["counts"]["multiplier"].get<std::string>());
      EXPECT_TRUE(m == multiplier(c.rows, c.cols)) << box << " " << j["counts"]["multiplier"];
      const wide reduced = parse_u128(j["counts"]["reduced"].get<std::string>());
      EXPECT_TRUE(reduced * multiplier(c.rows, c.cols) == parse_u128(grids))
          << box << " " << c.method << " reduced " << j["counts"]["reduced"];
      EXPECT_EQ(j["threads"], std::stoi(threads));
      // Every method's tasks split while they run (the band classes too).
      EXPECT_TRUE(j["schedule"].get<std::string>().ends_with(", steal")) << box << " " << c.method << j["schedule"];
    }
  }
}

TEST(SudokuGridsCli, DefaultIsBandsFor3x3AndFactorisationsFor2xCWithClassesAndPhaseTimes) {
  const auto j = run_json({"--sudoku", "3x3"});
  EXPECT_EQ(j["method"], "bands");
  EXPECT_EQ(j["classes"], 44);
  EXPECT_EQ(j["tasks"], 44);
  EXPECT_TRUE(j["setup_seconds"].is_number());
  EXPECT_TRUE(j["count_seconds"].is_number());
  // 2xC and Cx2: factorisations, unless --split-depth or > 16 workers ask
  // for the split band classes.
  const auto two_by_four = run_json({"--sudoku", "2x4"});
  EXPECT_EQ(two_by_four["method"], "factorisations");
  EXPECT_EQ(two_by_four["classes"], 26);
  EXPECT_EQ(run_json({"--sudoku", "2x4", "--split-depth", "0"})["method"], "bands");
  EXPECT_EQ(run_json({"--sudoku", "2x4", "--threads", "17"})["method"], "bands");
}

TEST(SudokuGridsCli, SearchHonoursTheSplitDepth) {
  for (const char* depth : {"0", "1", "3", "60"}) {
    const auto j = run_json({"--sudoku", "2x3", "--method", "search", "--split-depth", depth, "--threads", "2"});
    EXPECT_EQ(j["counts"]["grids"], known_grid_count(2, 3)) << depth;
    EXPECT_TRUE(parse_u128(j["counts"]["reduced"].get<std::string>()) * multiplier(2, 3) ==
                parse_u128(known_grid_count(2, 3)))
        << depth;
    EXPECT_TRUE(j["split_depth"].is_number());
  }
}

TEST(SudokuGridsCli, TextOutputNamesEveryCount) {
  const CommandResult r = run_count({"--sudoku", "2x3"});
  ASSERT_EQ(r.status, 0) << r.err;
  // The published total, the multiplier formula and their quotient.
  const auto m = static_cast<unsigned long long>(multiplier(2, 3));
  const auto reduced = static_cast<unsigned long long>(parse_u128(known_grid_count(2, 3)) / multiplier(2, 3));
  for (const std::string& key : {std::string("grids"), known_grid_count(2, 3), std::string("reduced"),
                                std::to_string(reduced), std::string("multiplier"), std::to_string(m),
                                std::string("factorisations"), std::string("classes")})
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
  EXPECT_EQ(j["counts"]["grids"], known_grid_count(2, 4));
  EXPECT_TRUE(parse_u128(j["counts"]["reduced"].get<std::string>()) * multiplier(2, 4) ==
              parse_u128(known_grid_count(2, 4)));
}

TEST(SudokuGridsCli, SplitBandClassesGiveTheSameCountsAlsoInShards) {
  const auto whole = run_json({"--sudoku", "2x4", "--threads", "2"});
  const auto split = run_json({"--sudoku", "2x4", "--split-depth", "1", "--threads", "2"});
  EXPECT_EQ(split["counts"], whole["counts"]);
  EXPECT_EQ(split["counts"]["grids"], known_grid_count(2, 4));
  EXPECT_EQ(split["tasks"], 26 * 6);  // 26 classes × C(4,2) parts
  EXPECT_EQ(split["split_depth"], 1);
  EXPECT_EQ(run_json({"--sudoku", "2x4", "--split-depth", "0"})["tasks"], 26);
  const std::string base = "/tmp/pcount-test-sudoku-split-" + std::to_string(::getpid());
  std::vector<std::string> files;
  for (int i = 0; i < 3; ++i) {
    files.push_back(base + "-" + std::to_string(i) + ".json");
    ASSERT_EQ(run_count({"--sudoku", "2x4", "--split-depth", "1", "--shard", std::to_string(i) + "/3", "--out",
                         files.back(), "--quiet"})
                  .status,
              0);
  }
  std::vector<std::string> merge_args = {"merge", "--json"};
  merge_args.insert(merge_args.end(), files.begin(), files.end());
  const CommandResult merged = run_count(merge_args);
  for (const auto& f : files) ::unlink(f.c_str());
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_EQ(nlohmann::json::parse(merged.out)["counts"], whole["counts"]);
}

// Without --split-depth, the band classes are split for more than 16
// workers (a task at most 1/(4 × workers) of the work, docs/sudoku-grids.md) and not
// for 16 or fewer; the counts are the same either way.
TEST(SudokuGridsCli, BandClassesAreSplitForMoreThanSixteenWorkers) {
  const auto sixteen = run_json({"--sudoku", "2x4", "--threads", "16"});
  const auto seventeen = run_json({"--sudoku", "2x4", "--threads", "17"});
  EXPECT_EQ(sixteen["tasks"], 26);
  EXPECT_TRUE(sixteen["split_depth"].is_null());
  EXPECT_EQ(seventeen["tasks"], 26 * 6);
  EXPECT_EQ(seventeen["split_depth"], 1);
  EXPECT_EQ(seventeen["counts"]["grids"], known_grid_count(2, 4));
  EXPECT_EQ(seventeen["counts"], sixteen["counts"]);
  // --split-depth 0 still means one task per class, whatever the workers
  EXPECT_EQ(run_json({"--sudoku", "2x4", "--threads", "17", "--split-depth", "0"})["tasks"], 26);
}

/// `job` in 3 shards merged, then run twice with one checkpoint (the rerun
/// resumes all `tasks`): every time the counts of `whole`.
void expect_shards_and_checkpoint_agree(const std::vector<std::string>& job, const nlohmann::json& whole, int tasks,
                                        const std::string& name) {
  const std::string base = "/tmp/pcount-test-sudoku-" + name + "-" + std::to_string(::getpid());
  std::vector<std::string> files;
  for (int i = 0; i < 3; ++i) {
    files.push_back(base + "-" + std::to_string(i) + ".json");
    std::vector<std::string> args = job;
    args.insert(args.end(), {"--shard", std::to_string(i) + "/3", "--out", files.back(), "--quiet"});
    ASSERT_EQ(run_count(args).status, 0);
  }
  std::vector<std::string> merge_args = {"merge", "--json"};
  merge_args.insert(merge_args.end(), files.begin(), files.end());
  const CommandResult merged = run_count(merge_args);
  for (const auto& f : files) ::unlink(f.c_str());
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_EQ(nlohmann::json::parse(merged.out)["counts"], whole["counts"]);
  // A finished checkpoint: the rerun resumes every task and prints the same counts.
  const std::string ck = base + ".ckpt";
  std::vector<std::string> with_ck = job;
  with_ck.insert(with_ck.end(), {"--checkpoint", ck});
  const auto first = run_json(with_ck);
  const auto again = run_json(with_ck);
  ::unlink(ck.c_str());
  EXPECT_EQ(first["counts"], whole["counts"]);
  EXPECT_EQ(again["counts"], whole["counts"]);
  EXPECT_EQ(again["tasks_resumed"], tasks);
}

TEST(SudokuGridsCli, FactorisationsInShardsAndCheckpointsGiveTheTotalAndReportTheMemo) {
  const auto whole = run_json({"--sudoku", "2x4", "--method", "factorisations", "--threads", "2"});
  EXPECT_EQ(whole["counts"]["grids"], known_grid_count(2, 4));
  EXPECT_EQ(whole["tasks"], 26);
  EXPECT_EQ(whole["classes"], 26);
  EXPECT_GE(whole["memo_hit_rate"].get<double>(), 0.0);
  EXPECT_LE(whole["memo_hit_rate"].get<double>(), 1.0);
  EXPECT_GT(whole["memo_bound_entries"].get<double>(), 0.0);
  expect_shards_and_checkpoint_agree({"--sudoku", "2x4", "--method", "factorisations"}, whole, 26, "factorisations");
}

TEST(SudokuGridsCli, SubBandClassesInShardsAndCheckpointsGiveTheTotal) {
  const auto whole = run_json({"--sudoku", "4x2", "--method", "subbands", "--threads", "2"});
  EXPECT_EQ(whole["counts"]["grids"], known_grid_count(4, 2));
  EXPECT_EQ(whole["tasks"], 26);
  EXPECT_EQ(whole["classes"], 26);
  expect_shards_and_checkpoint_agree({"--sudoku", "4x2", "--method", "subbands"}, whole, 26, "subbands");
}

TEST(SudokuGridsCli, RefusedInputIsOneLineOnStderrAndExit2) {
  const std::vector<BadInputCase> cases = {
      {{"--sudoku", "3x4"}, "supported: --method bands for 3x3"},
      {{"--sudoku", "4x4"}, "--sudoku"},
      {{"--sudoku", "1x9"}, "--sudoku"},
      {{"--sudoku", "2x7"}, "--sudoku"},
      {{"--sudoku", "7x2"}, "--sudoku"},
      {{"--sudoku", "2x6", "--method", "bands"}, "--method"},
      {{"--sudoku", "2x6", "--method", "search"}, "--method"},
      {{"--sudoku", "6x2", "--split-depth", "1"}, "--split-depth"},
      {{"--sudoku", "3x3", "--method", "subbands"}, "--method"},
      {{"--sudoku", "3x3", "--method", "factorisations"}, "--method"},
      {{"--sudoku", "2x6", "--method", "factorisations"}, "--method"},
      {{"--sudoku", "2x4", "--method", "factorisations", "--split-depth", "0"}, "--split-depth"},
      {{"--sudoku", "2x3", "--method", "factorisations", "--list"}, "--list"},
      {{"--sudoku", "2x4", "--method", "subbands", "--split-depth", "0"}, "--split-depth"},
      {{"--sudoku", "2x3", "--method", "subbands", "--list"}, "--list"},
      {{"--sudoku", "8x3", "--list"}, "--sudoku"},  // side 24: the listing holds at most 16×16 (found by fuzz_cli)
      {{"--sudoku", "4x5", "--list", "3"}, "--sudoku"},
      {{"--sudoku", "3x3", "--method", "search"}, "--method"},
      {{"--sudoku", "2x4", "--method", "search"}, "--method"},
      {{"--sudoku", "3x3", "--method", "magic"}, "--method"},
      {{"--sudoku", "3x3", "--split-depth", "2"}, "--split-depth"},
      {{"--sudoku", "3x3", "--split-depth", "1"}, "--split-depth"},
      {{"--sudoku", "2x5", "--split-depth", "2"}, "--split-depth"},
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
