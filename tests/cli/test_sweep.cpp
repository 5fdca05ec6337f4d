// scripts/sweep measuring a given `count` program (--count PATH), as on a
// machine that only has the relocatable bundle (docs/bundle.md): no build,
// the build read from `count --version`, every count checked against the
// published value.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/run_command.hpp"

namespace pcount::test {
namespace {

namespace fs = std::filesystem;

TEST(Sweep, MeasuresAGivenProgramAndNamesItsBuild) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("pcount-sweep-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "bin");
  // A copy outside the build tree: no CMakeCache.txt beside it, so the
  // sweep must take the compiler and flags from `count --version`.
  fs::copy_file(PCOUNT_COUNT_EXE, dir / "bin" / "count");
  const CommandResult r =
      run_command({"/usr/bin/env", "python3", std::string(PCOUNT_SOURCE_DIR) + "/scripts/sweep", "--count",
                   (dir / "bin" / "count").string(), "--reference-only", "--problems", "tictactoe", "--allow-busy",
                   "--no-plot", "--reps", "1", "--max-threads", "2", "--stem", "t", "--out", (dir / "out").string()});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const nlohmann::json doc = nlohmann::json::parse(slurp((dir / "out" / "t.json").string()));
  const nlohmann::json& m = doc["machine"];
  EXPECT_EQ(m["built_from"].get<std::string>().rfind("given program", 0), 0u) << m.dump();
  EXPECT_FALSE(m["compiler"].get<std::string>().empty()) << m.dump();
  EXPECT_FALSE(m["cxx_flags"].get<std::string>().empty()) << m.dump();
  ASSERT_FALSE(doc["reference_runs"].empty());
  for (const auto& run : doc["reference_runs"]) {
    EXPECT_EQ(run["problem"], "tictactoe");
    EXPECT_EQ(run["counts"]["games"], "255168");  // games of tic-tac-toe (Bottomley 2001; docs/sources.md)
  }
  const std::string table = slurp((dir / "out" / "t-reference.md").string());
  EXPECT_NE(table.find("(given;"), std::string::npos) << table;
  EXPECT_NE(table.find("tictactoe"), std::string::npos) << table;
  // A path that is not a `count` program, and a bad --reps (0 was once
  // taken as "the default"): refused before anything runs, one line on
  // stderr naming the option, nothing on stdout.
  struct Bad {
    std::vector<std::string> args;
    std::string option;
  };
  const Bad cases[] = {{{"--count", (dir / "nothing").string(), "--reference-only"}, "--count"},
                       {{"--count", (dir / "bin" / "count").string(), "--reps", "0"}, "--reps"}};
  for (const Bad& c : cases) {
    std::vector<std::string> argv{"/usr/bin/env", "python3", std::string(PCOUNT_SOURCE_DIR) + "/scripts/sweep"};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    const CommandResult bad = run_command(argv);
    EXPECT_EQ(bad.status, 2) << c.option << ": " << bad.err;
    EXPECT_NE(bad.err.find(c.option), std::string::npos) << bad.err;
    EXPECT_EQ(bad.err.find('\n'), bad.err.size() - 1) << bad.err;  // exactly one line
    EXPECT_TRUE(bad.out.empty()) << bad.out;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pcount::test
