// The `count` program's shared behaviour: help, version, and bad input
// (one line on stderr naming the argument, nothing on stdout, exit 2).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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
      {{"--queens", "8", "stray"}, "unexpected argument"},
  };
  expect_bad_input(cases);
}

TEST(Cli, HelpListsEveryProblemAndVersionPrints) {
  const CommandResult help = run_count({"--help"});
  EXPECT_EQ(help.status, 0);
  for (const char* opt : {"--latin", "--sudoku", "--queens", "--puzzle", "--threads", "--split-depth", "--json",
                          "--method"})
    EXPECT_NE(help.out.find(opt), std::string::npos) << opt;
  const CommandResult v = run_count({"--version"});
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.out.rfind("count (pcount) ", 0), 0u);
}

TEST(Cli, JsonIsOneObjectWithDecimalStringCounts) {
  const CommandResult r = run_count({"--queens", "8", "--json", "--threads", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(is_one_line(r.out));
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["problem"], "queens");
  EXPECT_EQ(j["counts"]["all"], "92");
  EXPECT_EQ(j["threads"], 2);
  EXPECT_TRUE(j["tasks"].is_number_unsigned());
  EXPECT_TRUE(j["wall_seconds"].is_number());
}

}  // namespace
}  // namespace pcount::test
