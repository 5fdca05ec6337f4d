// What a new user meets first: node counts are integers in every
// JSON report (run, merge, estimate); merge reports the shards' threads,
// tasks and longest wall, not its own; seconds print to the microsecond in
// text; and the classes method says so when it has no cache directory.

// GCC 12 reports a false -Wrestrict inside inlined std::string concatenation
// (GCC bug 105329, as in src/driver/merge.cpp); the warning is off here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "support/run_command.hpp"

namespace pcount::test {
namespace {

namespace fs = std::filesystem;

nlohmann::json json_of(const std::vector<std::string>& args) {
  const CommandResult r = run_count(args);
  EXPECT_EQ(r.status, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(NewUser, NodesAreIntegersInEveryJsonReport) {
  const nlohmann::json run = json_of({"--queens", "8", "--method", "search", "--json", "--threads", "2"});
  ASSERT_TRUE(run["nodes"].is_number_integer()) << run["nodes"];
  EXPECT_GT(run["nodes"].get<std::uint64_t>(), 92u);
  const nlohmann::json estimate =
      json_of({"--queens", "10", "--method", "search", "--estimate", "0.2", "--json", "--threads", "2"});
  EXPECT_TRUE(estimate["nodes"].is_number_integer()) << estimate["nodes"];

  const fs::path dir = fs::path(::testing::TempDir()) / ("pcount-new-user-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::vector<std::string> merge{"merge", "--json"};
  for (int i = 0; i < 2; ++i) {
    const std::string out = (dir / ("q" + std::to_string(i) + ".json")).string();
    const CommandResult s = run_count({"--queens", "8", "--method", "search", "--shard", std::to_string(i) + "/2",
                                       "--out", out, "--quiet", "--threads", "1"});
    ASSERT_EQ(s.status, 0) << s.err;
    merge.push_back(out);
  }
  const CommandResult m = run_count(merge);
  ASSERT_EQ(m.status, 0) << m.err;
  EXPECT_EQ(m.err, "");  // --threads of the shards' command is not reported as ignored
  const nlohmann::json merged = nlohmann::json::parse(m.out);
  EXPECT_EQ(merged["nodes"], run["nodes"]);
  // The job's figures are the shards': their threads (1, not the merge's
  // default), their tasks all run (none resumed), two shards.
  EXPECT_EQ(merged["threads"], 1);
  EXPECT_EQ(merged["tasks_run"], run["tasks"]);
  EXPECT_EQ(merged["tasks_resumed"], 0);
  EXPECT_EQ(merged["shards"], 2);
  EXPECT_TRUE(merged["task_seconds"].is_number());
  merge.erase(merge.begin() + 1);  // the text report
  const CommandResult text = run_count(merge);
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("\nshards        2\nthreads       1 (the most of any shard)\n"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find(" s (the longest shard)\ntask time     "), std::string::npos) << text.out;
  fs::remove_all(dir);
}

TEST(NewUser, SecondsPrintToTheMicrosecond) {
  const CommandResult r = run_count({"--sudoku", "2x2", "--method", "bands", "--threads", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const std::string key : {"setup_seconds", "count_seconds"}) {
    EXPECT_TRUE(std::regex_search(r.out, std::regex("\n" + key + " +[0-9]+\\.[0-9]{6}\n"))) << key << "\n" << r.out;
  }
}

TEST(NewUser, NoCacheDirectoryIsSaid) {
  const CommandResult r = run_command({"/usr/bin/env", "-u", "HOME", "-u", "XDG_CACHE_HOME", PCOUNT_COUNT_EXE,
                                       "--latin", "6", "--method", "classes", "--json", "--threads", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["counts"]["reduced"], "9408");  // R(6), OEIS A000315
  EXPECT_TRUE(is_one_line(r.err)) << r.err;
  EXPECT_NE(r.err.find("no cache of graph class lists (neither XDG_CACHE_HOME nor HOME is set"), std::string::npos)
      << r.err;
}

// The join method reports its process's peak RSS; merge, whose own memory
// says nothing about the shards', leaves it out.
TEST(NewUser, MergeDoesNotReportItsOwnMemoryAsTheJobs) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("pcount-new-user-join-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::vector<std::string> merge{"merge"};
  for (int i = 0; i < 2; ++i) {
    const std::string out = (dir / ("j" + std::to_string(i) + ".json")).string();
    const CommandResult s = run_count({"--queens", "12", "--method", "join", "--shard", std::to_string(i) + "/2",
                                       "--out", out, "--quiet", "--threads", "2"});
    ASSERT_EQ(s.status, 0) << s.err;
    merge.push_back(out);
  }
  const CommandResult text = run_count(merge);
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("all           14200"), std::string::npos) << text.out;  // Q(12), OEIS A000170
  // The only memory shown is the shards' (from their files), said so.
  EXPECT_NE(text.out.find(" MiB (the largest shard)\n"), std::string::npos) << text.out;
  merge.emplace_back("--json");
  const nlohmann::json j = json_of(merge);
  EXPECT_FALSE(j.contains("peak_rss_bytes")) << j.dump();  // the join method's own figure is a process's
  std::uint64_t largest = 0;
  for (std::size_t i = 1; i + 1 < merge.size(); ++i)
    largest = std::max(largest, nlohmann::json::parse(slurp(merge[i]))["max_rss_bytes"].get<std::uint64_t>());
  EXPECT_EQ(j["max_rss_bytes"], largest);
  EXPECT_EQ(j["outer_columns"], json_of({"--queens", "12", "--method", "join", "--json"})["outer_columns"]);
  fs::remove_all(dir);
}

// A puzzle file of another size than --box gives is refused with one line
// naming the box to give (from the file's header when it has one), not one
// "bad character" line per puzzle.
TEST(NewUser, APuzzleFileOfAnotherSizeNamesTheBoxToGive) {
  const CommandResult shipped = run_count({"--puzzle-file", PCOUNT_DATA_DIR "/sudoku/puzzles12_3x4"});
  EXPECT_EQ(shipped.status, 2);
  EXPECT_EQ(shipped.out, "");
  EXPECT_TRUE(is_one_line(shipped.err)) << shipped.err.substr(0, 500);
  EXPECT_NE(shipped.err.find("count: --puzzle-file: line 2 has 144 cells, a 12×12 puzzle, not 9×9 (--box 3x3): "
                             "give the file's box shape with --box RxC (its header says --box 3x4)"),
            std::string::npos)
      << shipped.err;

  // Without a header: the box shapes of a 12×12 grid; with --box 3x4 it solves.
  const std::string text = slurp(PCOUNT_DATA_DIR "/sudoku/puzzles12_3x4");
  const std::size_t first = text.find('\n') + 1;
  const std::string puzzle = text.substr(first, text.find('\n', first) + 1 - first);
  const std::string path = ::testing::TempDir() + "pcount-new-user-12-" + std::to_string(::getpid());
  { std::ofstream(path) << puzzle; }
  const CommandResult bare = run_count({"--puzzle-file", path});
  EXPECT_EQ(bare.status, 2);
  EXPECT_NE(bare.err.find("line 1 has 144 cells, a 12×12 puzzle, not 9×9 (--box 3x3): give the file's box shape "
                          "with --box RxC (e.g. --box 2x6 or --box 3x4)"),
            std::string::npos)
      << bare.err;
  const CommandResult boxed = run_count({"--puzzle-file", path, "--box", "3x4", "--threads", "2"});
  EXPECT_EQ(boxed.status, 0) << boxed.err;
  EXPECT_TRUE(is_one_line(boxed.out)) << boxed.out;
  std::remove(path.c_str());
}

}  // namespace
}  // namespace pcount::test
