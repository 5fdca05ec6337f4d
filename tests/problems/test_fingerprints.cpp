// The problems' job fingerprints: two invocations that differ in one
// parameter never share a fingerprint (else their checkpoints and shards
// would mix), and the fingerprints are those that shard files and
// checkpoints written by earlier versions carry, so those stay readable.
#include <gtest/gtest.h>

#include <unistd.h>
#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

#include "support/run_command.hpp"

namespace pcount::test {
namespace {

/// The fingerprint of the shard file `count ARGS --shard 0/1000 --out F`
/// writes (its tasks are few or none; the plan is what matters).
std::string fingerprint_of(const std::string& args) {
  // One folder per process: ctest runs each test in its own process, at
  // the same time, and scratch_dir empties the folder it names.
  static int serial = 0;
  static const auto dir = scratch_dir("fingerprints-" + std::to_string(::getpid()));
  const std::string out = (dir / ("shard" + std::to_string(serial++) + ".json")).string();
  std::vector<std::string> argv{PCOUNT_COUNT_EXE};
  for (std::size_t start = 0, end = 0; start < args.size(); start = end + 1) {
    end = args.find(' ', start);
    if (end == std::string::npos) end = args.size();
    argv.push_back(args.substr(start, end - start));
  }
  for (const char* a : {"--threads", "2", "--shard", "0/1000", "--out", out.c_str()}) argv.emplace_back(a);
  const CommandResult r = run_command(argv);
  EXPECT_EQ(r.status, 0) << args << ": " << r.err;
  return nlohmann::json::parse(slurp(out))["fingerprint"];
}

TEST(Fingerprints, OneParameterChangedGivesAnotherJob) {
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"--queens 8", "--queens 9"},
      {"--queens 9 --method search --split-depth 3", "--queens 9 --method constellations"},
      {"--queens 10 --method constellations --group 1", "--queens 10 --method constellations --group 2"},
      {"--queens 13 --method join --outer-columns 4", "--queens 13 --method join --outer-columns 6"},
      {"--latin 5", "--latin 6 --rows 5"},
      {"--latin 6 --rows 3", "--latin 6 --rows 4"},
      {"--latin 8 --rows 3 --method classes --class-degree 2", "--latin 8 --rows 3 --method classes --class-degree 3"},
      {"--latin 4 --method search", "--latin 4 --method classes"},
      {"--sudoku 2x2 --method search", "--sudoku 2x3 --method search"},
      {"--sudoku 2x3 --method bands", "--sudoku 2x3 --method subbands"},
      {"--sudoku 2x3 --method bands", "--sudoku 3x2 --method bands"},
      {"--tictactoe", "--tictactoe --misere"},
      {"--kirkman --split-depth 2", "--kirkman --split-depth 3"},
      {"--mastermind --strategy knuth", "--mastermind --strategy first-consistent"},
  };
  for (const auto& [a, b] : pairs) EXPECT_NE(fingerprint_of(a), fingerprint_of(b)) << a << " | " << b;
}

// Byte for byte what pcount 0.1.0 wrote into shard files and checkpoints
// before the parameters were declared through driver::Params.
TEST(Fingerprints, FilesOfEarlierRunsStayReadable) {
  const std::string v = "pcount/0.1.0 ";
  EXPECT_EQ(fingerprint_of("--queens 13 --method join --outer-columns 4"), v + "queens n=13 method=join outer=4");
  EXPECT_EQ(fingerprint_of("--queens 10 --method constellations --group 4"),
            v + "queens n=10 method=constellations group=4");
  EXPECT_EQ(fingerprint_of("--latin 6 --rows 3"), v + "latin n=6 rows=3 method=search split=8");
  EXPECT_EQ(fingerprint_of("--latin 5 --rows 2 --list --json"),
            v + "latin n=5 rows=2 method=search list-rectangles split=4 list=json");
  EXPECT_EQ(fingerprint_of("--sudoku 2x3 --method search --split-depth 3"), v + "sudoku box=2x3 method=search split=3");
  EXPECT_EQ(fingerprint_of("--sudoku 3x3 --method bands"), v + "sudoku box=3x3 method=bands classes=44");
  EXPECT_EQ(fingerprint_of("--tictactoe --misere"), v + "misere tictactoe split=2");
  EXPECT_EQ(fingerprint_of("--kirkman"), v + "kirkman count method=orbits split=3");
}

}  // namespace
}  // namespace pcount::test
