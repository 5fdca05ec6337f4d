// Runs that could not finish are recognised before they start: the size
// estimate (Knuth 1975) is printed, and without a terminal (stdin is
// /dev/null here) a run of more than ten CPU-years is refused with exit 2.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "support/run_command.hpp"

namespace pcount {
namespace {

using test::run_command;

const std::string kCount = PCOUNT_COUNT_EXE;

/// A stop file that exists, so that an accepted run stops before its first task.
std::string stop_file() {
  static const std::string path = [] {
    std::string p = ::testing::TempDir() + "pcount-feasibility-stop";
    std::FILE* f = std::fopen(p.c_str(), "w");
    if (f) std::fclose(f);
    return p;
  }();
  return path;
}

std::vector<std::string> with(std::vector<std::string> args) {
  args.insert(args.begin(), kCount);
  return args;
}

TEST(Feasibility, EndlessRunsAreRefusedWithTheirEstimateWithoutATerminal) {
  const std::string blank(81, '.');
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--queens", "32"}, "count: --queens 32: about "},
      {{"--latin", "12"}, "count: --latin 12: about "},
      {{"--latin", "16"}, "count: --latin 16: about "},
      {{"--latin", "16", "--rows", "3"}, "count: --latin 16: about "},
      {{"--puzzle", blank}, "count: --puzzle: about "},
  };
  for (const auto& [args, prefix] : cases) {
    const auto r = run_command(with(args));
    EXPECT_EQ(r.status, 2) << args[0] << " " << args[1] << ": " << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind(prefix, 0), 0u) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
    EXPECT_NE(r.err.find("search nodes"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("years of CPU"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--no-estimate-check"), std::string::npos) << r.err;
  }
}

TEST(Feasibility, NoEstimateCheckStartsTheRun) {
  const auto r = run_command(with({"--queens", "32", "--no-estimate-check", "--stop-file", stop_file()}));
  EXPECT_EQ(r.status, 143) << r.err;  // started, then stopped by the stop file
  EXPECT_EQ(r.err.find("search nodes"), std::string::npos) << "no estimate was asked for: " << r.err;
}

TEST(Feasibility, LongButFeasibleRunsGetANoteAndStart) {
  // Q(24) by constellations: about 3·10^16 probe nodes, days of CPU at any
  // speed the check may measure (Q(20) takes about 2 CPU-minutes, and each
  // order about 7 times the one before), but not ten years.
  const auto r =
      run_command(with({"--queens", "24", "--method", "constellations", "--threads", "2", "--stop-file", stop_file()}));
  EXPECT_EQ(r.status, 143) << r.err;
  EXPECT_EQ(r.err.rfind("count: note: --queens 24: about ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("--stop-file or SIGTERM stops it"), std::string::npos) << r.err;
}

TEST(Feasibility, ShortRunsAndLimitedCountsSayNothing) {
  const auto q = run_command(with({"--queens", "12"}));
  EXPECT_EQ(q.status, 0);
  EXPECT_EQ(q.err, "");
  // A limit makes the all-blank grid a short count (first 5 solutions).
  const auto p = run_command(with({"--puzzle", std::string(81, '.'), "--limit", "5", "--json"}));
  EXPECT_EQ(p.status, 0) << p.err;
  EXPECT_EQ(p.err, "");
  EXPECT_NE(p.out.find("\"solutions\":\"5\""), std::string::npos) << p.out;
}

}  // namespace
}  // namespace pcount
