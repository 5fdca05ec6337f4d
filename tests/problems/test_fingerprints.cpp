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

const std::string kMagictour = PCOUNT_DATA_DIR "/sudoku/puzzles3_magictour_top1465";
const std::string kPuzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

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
      {"--mastermind --strategy optimal", "--mastermind --objective worst-case"},
      {"--mastermind --strategy optimal --class-bounds 1,2,3,4,5,6,7,8,9,10,11,12,13",
       "--mastermind --strategy optimal --class-bounds 1,2,3,4,5,6,7,8,9,10,11,12,14"},
      {"--puzzle-file " + kMagictour, "--puzzle-file " + kMagictour + " --limit 3"},
      {"--puzzle-file " + kMagictour, "--puzzle-file " + kMagictour + " --method general"},
      {"--puzzle " + kPuzzle + " --method general", "--puzzle " + kPuzzle + " --method general --limit 1"},
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
  EXPECT_EQ(fingerprint_of("--bulls-and-cows --strategy knuth --split-depth 2"),
            v + "bulls-and-cows strategy=knuth split=2");
  EXPECT_EQ(fingerprint_of("--mastermind --objective worst-case"),
            v + "mastermind strategy=optimal objective=worst-case caps=8");
  EXPECT_EQ(fingerprint_of("--mastermind --strategy optimal --class-bounds 1,2,3,4,5,6,7,8,9,10,11,12,13"),
            v + "mastermind strategy=optimal first=1123 split=second-guess bounds=1,2,3,4,5,6,7,8,9,10,11,12,13");
  EXPECT_EQ(fingerprint_of("--bulls-and-cows --strategy-file " PCOUNT_DATA_DIR "/games/bulls-and-cows-optimal.json"),
            v + "bulls-and-cows strategy-file tree=fnv1a64:d93256fa076bf7eb");
  EXPECT_EQ(fingerprint_of("--puzzle-file " + kMagictour + " --limit 3"),
            v + "puzzle-file box=3x3 limit=3 method=auto block=256 lines=1468 input=fnv1a64w:4ea0478e5c32c93b");
  EXPECT_EQ(fingerprint_of("--puzzle " + kPuzzle + " --method general --split-depth 2"),
            v + "puzzle box=3x3 cells=" + kPuzzle + " limit=0 kernel=general split=2");
  EXPECT_EQ(fingerprint_of("--puzzle 1..4..2...1.3..2 --box 2x2 --list"),
            v + "puzzle box=2x2 1..4..2...1.3..2 list-solutions split=10 list=text");
}

}  // namespace
}  // namespace pcount::test
