// The `count` program's shared behaviour: help, version, and bad input
// (one line on stderr naming the argument, nothing on stdout, exit 2).
// GCC 12: false -Wrestrict in inlined std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

#include "cli/problems.hpp"
#include "support/run_command.hpp"

namespace pcount::test {
namespace {

TEST(Cli, BadInputIsOneLineOnStderrAndExit2) {
  const std::vector<BadInputCase> cases = {
      {{}, "no problem"},
      {{"--json"}, "no problem"},
      {{"--frobnicate"}, "--frobnicate"},
      {{"--queens"}, "--queens"},
      {{"--queens", "0"}, "--queens"},
      {{"--queens", "33"}, "--queens"},
      {{"--queens", "eight"}, "--queens"},
      {{"--queens", "8", "--threads", "0"}, "--threads"},
      {{"--queens", "8", "--threads", "-2"}, "--threads"},
      {{"--queens", "8", "--threads", "x"}, "--threads"},
      {{"--queens", "8", "--split-depth", "-1"}, "--split-depth"},
      {{"--queens", "8", "--split-depth=-1"}, "--split-depth"},
      {{"--queens", "8", "--latin", "5"}, "give one problem at a time"},
      {{"--queens", "8", "--method", "magic"}, "--method"},
      {{"--queens", "8", "--threads", "2", "--threads", "3"}, "--threads"},
      {{"--queens", "8", "stray"}, "'stray': unexpected argument"},
      {{"--queens", "8", "--estimate", "0"}, "--estimate"},
      {{"--queens", "8", "--estimate", "soon"}, "--estimate"},
      {{"--queens", "8", "--estimate=700"}, "--estimate"},
      {{"--queens", "8", "--estimate", "--profile", "/tmp/pcount-estimate-profile.csv"}, "--estimate"},
      {{"--queens", "8", "--estimate", "--checkpoint", "/tmp/pcount-estimate.ckpt"}, "--estimate"},
  };
  expect_bad_input(cases);
}

TEST(Cli, HelpListsEveryProblemAndVersionPrints) {
  const CommandResult help = run_count({"--help"});
  EXPECT_EQ(help.status, 0);
  // Every entry of the problem table (src/cli/problems.cpp), with its value
  // name and the start of its help line, and nothing else in that section.
  const auto table = cli::count_program().problems;
  ASSERT_GE(table.size(), 9u);
  for (const driver::Problem& p : table) {
    std::string usage = "\n  --" + std::string(p.option);
    usage += p.value_name.empty() ? std::string(" ") : " " + std::string(p.value_name) + " ";
    EXPECT_NE(help.out.find(usage), std::string::npos) << usage << "\n" << help.out;
    const std::string first_words(p.help.substr(0, p.help.find(' ', 20)));  // before any line wrap
    EXPECT_NE(help.out.find(first_words), std::string::npos) << first_words;
  }
  const std::size_t from = help.out.find("Problems");
  const std::size_t to = help.out.find("Common options");
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  std::istringstream section(help.out.substr(from, to - from));
  std::size_t listed = 0;
  for (std::string line; std::getline(section, line);) listed += line.rfind("  --", 0) == 0 ? 1 : 0;
  EXPECT_EQ(listed, table.size());
  for (const char* opt : {"--threads", "--split-depth", "--json", "--method", "--checkpoint", "--shard"})
    EXPECT_NE(help.out.find(opt), std::string::npos) << opt;
  const CommandResult v = run_count({"--version"});
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.out.rfind("count (pcount) ", 0), 0u);
  // The second line names the build (compiler, build type, flags), which
  // CMake passes in; "unknown" would mean that wiring is lost.
  const std::size_t second = v.out.find('\n') + 1;
  EXPECT_EQ(v.out.compare(second, 11, "built with "), 0) << v.out;
  EXPECT_EQ(v.out.find("built with unknown"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find(", "), std::string::npos) << v.out;
  const CommandResult short_v = run_count({"-V"});  // the GNU habit
  EXPECT_EQ(short_v.status, 0);
  EXPECT_EQ(short_v.out, v.out);
}

TEST(Cli, MistakesGetAHint) {
  const CommandResult typo = run_count({"--queens", "8", "--thread", "2"});
  EXPECT_EQ(typo.status, 2);
  EXPECT_EQ(typo.err, "count: --thread: unknown option; did you mean --threads? (see --help)\n");
  const CommandResult prefix = run_count({"--queens", "8", "--outer", "2"});
  EXPECT_NE(prefix.err.find("did you mean --outer-columns?"), std::string::npos) << prefix.err;
  const CommandResult far = run_count({"--queens", "8", "--bogus"});
  EXPECT_EQ(far.err, "count: --bogus: unknown option (see --help)\n");
  const CommandResult both = run_count({"--queens", "8", "--quiet", "--progress"});
  EXPECT_EQ(both.status, 2);
  EXPECT_EQ(both.err.rfind("count: --quiet, --progress: give one", 0), 0u) << both.err;
  // 9x9 is the grid; its boxes are 3x3.
  const CommandResult grid = run_count({"--sudoku", "9x9"});
  EXPECT_EQ(grid.status, 2);
  EXPECT_NE(grid.err.find("a 9x9 grid has 3x3 boxes (--sudoku 3x3)"), std::string::npos) << grid.err;
}

TEST(Cli, JsonIsOneObjectWithDecimalStringCounts) {
  const CommandResult r = run_count({"--queens", "8", "--json", "--threads", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(is_one_line(r.out));
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["problem"], "queens");
  EXPECT_EQ(j["counts"]["all"], "92");
  ASSERT_TRUE(j["context"]["build"].is_string());
  EXPECT_NE(j["context"]["build"], "unknown");
  EXPECT_EQ(j["threads"], 2);
  EXPECT_TRUE(j["tasks"].is_number_unsigned());
  EXPECT_TRUE(j["wall_seconds"].is_number());
}

}  // namespace
}  // namespace pcount::test
