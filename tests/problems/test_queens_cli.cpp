// `count --queens`: the four counts in text and JSON, all three methods, --show
// boards (valid, canonical, pairwise inequivalent), --svg (well-formed XML,
// written atomically) and one-line errors for bad input.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdlib>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "queens/known_values.hpp"
#include "pcount/queens/symmetry.hpp"
#include "support/run_command.hpp"

namespace pcount::test {
namespace {

nlohmann::json run_json(std::vector<std::string> args) {
  args.push_back("--json");
  const CommandResult r = run_count(args);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(is_one_line(r.out)) << r.out;
  return nlohmann::json::parse(r.out);
}

void expect_known(const nlohmann::json& j, int n) {
  const auto& k = queens_known(n);
  EXPECT_EQ(j["counts"]["all"], std::to_string(k.all)) << "n=" << n;
  EXPECT_EQ(j["counts"]["distinct"], std::to_string(k.distinct)) << "n=" << n;
  EXPECT_EQ(j["counts"]["rot180"], std::to_string(k.rot180)) << "n=" << n;
  EXPECT_EQ(j["counts"]["rot90"], std::to_string(k.rot90)) << "n=" << n;
}

TEST(QueensCli, TextReportHasTheFourCounts) {
  const CommandResult r = run_count({"--queens", "8", "--threads", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  for (const char* line : {"all           92\n", "distinct      12\n", "rot180        4\n", "rot90         0\n",
                           "method        search\n"})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << " in\n" << r.out;
}

// --list with stealing on (the default schedule): one task (split depth 0)
// whose parts other threads take; the solutions come out the same bytes at
// 1, 2 and 4 threads, Q(12) = 14200 lines (OEIS A000170), the first in
// column order first.
TEST(QueensCli, ListIsTheSameBytesForEveryThreadCountWithStealing) {
  std::string reference;
  for (const char* threads : {"1", "2", "4"}) {
    const CommandResult r = run_count({"--queens", "12", "--list", "--split-depth", "0", "--threads", threads});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("schedule      id-order, steal;"), std::string::npos) << r.err;
    if (reference.empty()) {
      reference = r.out;
      EXPECT_EQ(count_lines(reference), queens_known(12).all);
      EXPECT_EQ(reference.substr(0, reference.find('\n')), "1 3 5 8 10 12 6 11 2 7 9 4");
    } else {
      EXPECT_TRUE(r.out == reference) << threads << " threads";
    }
  }
}

TEST(QueensCli, JsonBothMethodsAndDefault) {
  for (int n : {1, 2, 3, 4, 8, 12}) {
    expect_known(run_json({"--queens", std::to_string(n), "--method", "search", "--threads", "2"}), n);
    const auto j = run_json({"--queens", std::to_string(n), "--method", "constellations", "--threads", "3"});
    expect_known(j, n);
    EXPECT_EQ(j["method"], "constellations");
    EXPECT_TRUE(j["split_depth"].is_null());
    EXPECT_TRUE(j["canonical"].is_number_unsigned());
  }
  EXPECT_EQ(run_json({"--queens", "9"})["method"], "search");
  EXPECT_EQ(run_json({"--queens", "10"})["method"], "constellations");
  EXPECT_EQ(run_json({"--queens", "11"})["method"], "constellations");
  const auto joined = run_json({"--queens", "12"});
  expect_known(joined, 12);
  EXPECT_EQ(joined["method"], "join");
  EXPECT_EQ(joined["outer_columns"], 4);  // N - 8
  EXPECT_TRUE(joined["memory_estimate_bytes"].is_number_integer());
  EXPECT_GT(joined["peak_rss_bytes"].get<long long>(), 0);
  const auto grouped = run_json({"--queens", "11", "--group", "5", "--threads", "4"});
  expect_known(grouped, 11);
  EXPECT_EQ(grouped["group"], 5);
}

TEST(QueensCli, JoinForEveryOuterSplitThreadCountAndSmallBoard) {
  for (int n : {1, 2, 3, 5, 8, 13})
    expect_known(run_json({"--queens", std::to_string(n), "--method", "join", "--threads", "2"}), n);
  for (const char* outer : {"0", "2", "6", "10"})
    for (const char* threads : {"1", "3"}) {
      const auto j = run_json({"--queens", "13", "--method", "join", "--outer-columns", outer, "--threads", threads});
      expect_known(j, 13);
      EXPECT_EQ(j["outer_columns"], std::stoi(outer));
    }
  // --memory-limit: a generous limit runs, the estimate is reported
  const auto j = run_json({"--queens", "14", "--method", "join", "--memory-limit", "1G"});
  expect_known(j, 14);
  EXPECT_GT(j["memory_estimate_bytes"].get<long long>(), 0);
}

TEST(QueensCli, JoinGivesTheKnownCountsOnEveryForcedPath) {
  // PCOUNT_SIMD picks the join's vector width (16, 32, 64 bytes); a path
  // the CPU lacks, or an unknown one, is refused before any work.
  int ran = 0;
  for (const char* name : {"sse4.1", "avx2", "avx512"}) {
    ::setenv("PCOUNT_SIMD", name, 1);
    const CommandResult r = run_count({"--queens", "14", "--method", "join", "--threads", "2", "--json"});
    ::unsetenv("PCOUNT_SIMD");
    if (r.status == 2) {
      EXPECT_NE(r.err.find("PCOUNT_SIMD: this CPU cannot run the"), std::string::npos) << r.err;
      EXPECT_EQ(r.out, "");
      continue;
    }
    ASSERT_EQ(r.status, 0) << name << ": " << r.err;
    expect_known(nlohmann::json::parse(r.out), 14);
    ++ran;
  }
  EXPECT_GE(ran, 1);
  ::setenv("PCOUNT_SIMD", "mmx", 1);
  const CommandResult bad = run_count({"--queens", "14", "--method", "join"});
  ::unsetenv("PCOUNT_SIMD");
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(is_one_line(bad.err)) << bad.err;
  EXPECT_EQ(bad.err.rfind("count: PCOUNT_SIMD: unknown path 'mmx'", 0), 0u) << bad.err;
}

TEST(QueensCli, JoinRefusesARunOverTheMemoryLimitBeforeAnyWork) {
  const CommandResult r =
      run_count({"--queens", "20", "--method", "join", "--outer-columns", "4", "--memory-limit", "1M", "--threads", "2"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(is_one_line(r.err)) << r.err;
  EXPECT_EQ(r.err.rfind("count: --memory-limit", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("GiB"), std::string::npos) << r.err;  // the estimate is in the message
  EXPECT_NE(r.err.find("with 2 threads needs"), std::string::npos) << r.err;
  // One thread is "1 thread", and fewer threads is no way out then.
  const CommandResult one = run_count(
      {"--queens", "20", "--method", "join", "--outer-columns", "4", "--memory-limit", "1M", "--threads", "1"});
  EXPECT_EQ(one.status, 2);
  EXPECT_NE(one.err.find("with 1 thread needs"), std::string::npos) << one.err;
  EXPECT_EQ(one.err.find("fewer --threads"), std::string::npos) << one.err;
}

std::vector<std::vector<int>> boards_of(const nlohmann::json& j) {
  std::vector<std::vector<int>> out;
  for (const auto& b : j["solutions"]) out.push_back(b.get<std::vector<int>>());
  return out;
}

TEST(QueensCli, ShowGivesValidCanonicalPairwiseInequivalentBoards) {
  for (int n : {5, 6, 8, 10}) {
    const auto boards = boards_of(run_json({"--queens", std::to_string(n), "--show", "1000"}));
    EXPECT_EQ(boards.size(), queens_known(n).distinct) << "n=" << n;  // all of them when K ≥ U
    std::set<std::vector<int>> classes;
    for (const auto& b : boards) {
      EXPECT_TRUE(queens::is_solution(b));
      EXPECT_EQ(queens::canonical(b), b);
      EXPECT_TRUE(classes.insert(queens::canonical(b)).second);  // inequivalent to every earlier board
    }
    EXPECT_TRUE(std::is_sorted(boards.begin(), boards.end()));
  }
  const auto first = boards_of(run_json({"--queens", "8", "--show", "3"}));
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(first[0], (std::vector<int>{0, 4, 7, 5, 2, 6, 1, 3}));
  EXPECT_EQ(boards_of(run_json({"--queens", "8", "--show", "0"})).size(), 0u);
  EXPECT_EQ(boards_of(run_json({"--queens", "3", "--show", "5"})).size(), 0u);
}

TEST(QueensCli, ShowDrawsUnicodeOrAsciiBoards) {
  const CommandResult u = run_count({"--queens", "6", "--show", "1"});
  ASSERT_EQ(u.status, 0) << u.err;
  EXPECT_NE(u.out.find("solution 1 (columns 2 4 6 1 3 5)\n· ♛ · · · ·\n"), std::string::npos) << u.out;
  const CommandResult a = run_count({"--queens", "6", "--show", "1", "--ascii"});
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_NE(a.out.find(". Q . . . .\n. . . Q . .\n. . . . . Q\nQ . . . . .\n. . Q . . .\n. . . . Q .\n"),
            std::string::npos)
      << a.out;
}

/// Minimal XML well-formedness check: declaration, tags balanced and
/// properly nested, attribute quotes closed, exactly one root element.
bool well_formed_xml(const std::string& text, std::string& why) {
  std::vector<std::string> open;
  int roots = 0;
  std::size_t i = 0;
  if (text.rfind("<?xml", 0) == 0) i = text.find("?>") + 2;
  while ((i = text.find('<', i)) != std::string::npos) {
    const std::size_t end = text.find('>', i);
    if (end == std::string::npos) return why = "unterminated tag", false;
    std::string tag = text.substr(i + 1, end - i - 1);
    if (std::count(tag.begin(), tag.end(), '"') % 2 != 0) return why = "unbalanced quotes in <" + tag + ">", false;
    if (tag.empty()) return why = "empty tag", false;
    if (tag[0] == '/') {
      const std::string name = tag.substr(1);
      if (open.empty() || open.back() != name) return why = "mismatched </" + name + ">", false;
      open.pop_back();
    } else if (tag.back() != '/') {
      if (open.empty()) ++roots;
      open.push_back(tag.substr(0, tag.find_first_of(" \n")));
    } else if (open.empty()) {
      ++roots;
    }
    i = end + 1;
  }
  if (!open.empty()) return why = "unclosed <" + open.back() + ">", false;
  if (roots != 1) return why = "expected one root element", false;
  return true;
}

TEST(QueensCli, SvgIsWellFormedAndWrittenAtomically) {
  const std::string dir = ::testing::TempDir() + "pcount-queens-svg-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/boards.svg";
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("old", f);
    std::fclose(f);
  }
  const CommandResult r = run_count({"--queens", "8", "--show", "12", "--svg", path, "--quiet"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string svg = slurp(path);
  std::string why;
  EXPECT_TRUE(well_formed_xml(svg, why)) << why;
  EXPECT_NE(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  std::size_t circles = 0;
  for (std::size_t p = 0; (p = svg.find("<circle", p)) != std::string::npos; ++p) ++circles;
  EXPECT_EQ(circles, 12u * 8u);  // 12 boards of 8 queens
  EXPECT_NE(svg.find("#1: 1 5 8 6 3 7 2 4"), std::string::npos);
  // nothing but the target is left in the directory
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files += e.is_regular_file();
  EXPECT_EQ(files, 1u);
  // --svg alone draws the default 12 boards without printing them
  const CommandResult alone = run_count({"--queens", "8", "--svg", path});
  ASSERT_EQ(alone.status, 0) << alone.err;
  EXPECT_EQ(alone.out.find("solution 1"), std::string::npos);
  EXPECT_TRUE(well_formed_xml(slurp(path), why)) << why;
  EXPECT_FALSE(well_formed_xml("<svg><g></svg>", why));  // the checker itself can fail
  std::filesystem::remove_all(dir);
}

TEST(QueensCli, BadInputIsOneLineOnStderrAndExit2) {
  const std::vector<BadInputCase> cases = {
      {{"--queens", "8", "--show", "-1"}, "--show"},
      {{"--queens", "8", "--show", "x"}, "--show"},
      {{"--queens", "8", "--show", "10001"}, "--show"},
      {{"--queens", "8", "--show"}, "--show"},
      {{"--queens", "8", "--ascii"}, "--ascii"},
      {{"--queens", "8", "--ascii", "yes"}, "'yes': unexpected argument"},
      {{"--queens", "12", "--group", "0"}, "--group"},
      {{"--queens", "12", "--group", "two"}, "--group"},
      {{"--queens", "8", "--method", "search", "--group", "2"}, "--group"},
      {{"--queens", "12", "--method", "constellations", "--split-depth", "2"}, "--split-depth"},
      {{"--queens", "8", "--method", "dance"}, "--method"},
      {{"--queens", "8", "--svg", "/nonexistent-dir-pcount/x.svg"}, "--svg"},
      {{"--queens", "8", "--svg", "/tmp"}, "--svg"},
      {{"--queens", "8", "--svg", ""}, "--svg"},
      {{"--queens", "40"}, "--queens"},
      {{"--queens", "-3"}, "--queens"},
      {{"--latin", "5", "--show", "2"}, "--show"},
      {{"--queens", "12", "--method", "join", "--outer-columns", "3"}, "--outer-columns"},
      {{"--queens", "12", "--method", "join", "--outer-columns", "12"}, "--outer-columns"},
      {{"--queens", "12", "--method", "join", "--outer-columns", "-2"}, "--outer-columns"},
      {{"--queens", "24", "--method", "join", "--outer-columns", "2"}, "--outer-columns"},
      {{"--queens", "12", "--method", "join", "--outer-columns", "x"}, "--outer-columns"},
      {{"--queens", "12", "--method", "search", "--outer-columns", "4"}, "--outer-columns"},
      {{"--queens", "12", "--method", "join", "--group", "2"}, "--group"},
      {{"--queens", "12", "--method", "join", "--split-depth", "2"}, "--split-depth"},
      {{"--queens", "12", "--method", "join", "--memory-limit", "0"}, "--memory-limit"},
      {{"--queens", "12", "--method", "join", "--memory-limit", "12Q"}, "--memory-limit"},
      {{"--queens", "12", "--method", "join", "--memory-limit", "-5G"}, "--memory-limit"},
      {{"--queens", "12", "--method", "join", "--memory-limit", "1000"}, "--memory-limit"},
      {{"--queens", "12", "--method", "constellations", "--memory-limit", "8G"}, "--memory-limit"},
  };
  expect_bad_input(cases);
}

}  // namespace
}  // namespace pcount::test
