// --play for people: the forms of an answer it accepts, a slip asked again
// with the expected form, q, the end of input, over-long lines and input
// without line ends (bounded reads); and the shipped optimal tree found
// beside the program, installed or in the source tree.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "problems/codes_play.hpp"
#include "support/run_command.hpp"

namespace pcount::games::play {
namespace {

namespace fs = std::filesystem;
using test::CommandResult;
using test::run_command;
using test::run_count;

TEST(CodesPlay, ParsesEveryFormOfAnAnswer) {
  struct Case {
    std::string line;
    Answer::Kind kind;
    int bulls, cows;
  };
  const std::vector<Case> cases = {
      {"1B 2C", Answer::Kind::score, 1, 2},   {"1b2c", Answer::Kind::score, 1, 2},
      {"2C 1B", Answer::Kind::score, 1, 2},   {"1B 0C", Answer::Kind::score, 1, 0},
      {"0B 3W", Answer::Kind::score, 0, 3},   {"4B", Answer::Kind::score, 4, 0},
      {"2c", Answer::Kind::score, 0, 2},      {"1 2", Answer::Kind::score, 1, 2},
      {" 1, 2\r", Answer::Kind::score, 1, 2}, {"12", Answer::Kind::score, 1, 2},
      {"40", Answer::Kind::score, 4, 0},      {"q", Answer::Kind::quit, 0, 0},
      {"Quit", Answer::Kind::quit, 0, 0},     {"?", Answer::Kind::slip, 0, 0},
      {"", Answer::Kind::slip, 0, 0},         {"1", Answer::Kind::slip, 0, 0},
      {"1 2 3", Answer::Kind::slip, 0, 0},    {"1B 2", Answer::Kind::slip, 0, 0},
      {"1B 2B", Answer::Kind::slip, 0, 0},    {"1 two", Answer::Kind::slip, 0, 0},
      {"B1", Answer::Kind::slip, 0, 0},       {"1X", Answer::Kind::slip, 0, 0},
  };
  for (const Case& c : cases) {
    const Answer a = parse_answer(c.line);
    EXPECT_EQ(a.kind, c.kind) << "'" << c.line << "'";
    if (c.kind == Answer::Kind::score) {
      EXPECT_EQ(a.bulls, c.bulls) << "'" << c.line << "'";
      EXPECT_EQ(a.cows, c.cows) << "'" << c.line << "'";
    }
  }
}

TEST(CodesPlay, ReadsLinesOfBoundedLength) {
  std::istringstream in("1 2\n" + std::string(kMaxLine, 'x') + "\n" + std::string(kMaxLine + 1, 'y') + "\nlast");
  std::string line;
  EXPECT_EQ(read_line(in, line), LineRead::line);
  EXPECT_EQ(line, "1 2");
  EXPECT_EQ(read_line(in, line), LineRead::line);
  EXPECT_EQ(line.size(), kMaxLine);
  EXPECT_EQ(read_line(in, line), LineRead::too_long);
  EXPECT_EQ(line.size(), kMaxLine);  // kept: only the first kMaxLine bytes
  EXPECT_EQ(read_line(in, line), LineRead::line);
  EXPECT_EQ(line, "last");
  EXPECT_EQ(read_line(in, line), LineRead::ended);
}

/// `text` in a fresh file, for a program's standard input.
std::string input_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "pcount-play-" + name + "-" + std::to_string(::getpid());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  return path;
}

// Bulls and cows against secret 3210: the first-consistent strategy guesses
// 0123 (0 bulls 4 cows), then 1032 (0 4), 2301 (0 4), 3210 (4 0).
const std::string kWin = "0 4\n04\n0B 4C\n4B\n";

TEST(CodesPlay, ASlipIsAskedAgainWithTheExpectedForm) {
  struct Case {
    std::string name, input;
    std::string names;  ///< in the one slip line on stderr
  };
  const std::vector<Case> cases = {
      {"question", "?\n" + kWin, "'?' to guess 1 (0123): not an answer; answer e.g. 1B 2C, 1 2 or 12, or q to quit"},
      {"impossible", "3 1\n" + kWin, "no score: B + C is at most 4, and 3 1 cannot be"},
      {"too-many", "3 2\n" + kWin, "no score"},
      // 0 bulls 0 cows leaves no secret for 0123 after no answers? It does
      // (4567 and others); after 0123 0 4 the answer 0 0 to 1032 does not.
      {"inconsistent", "0 4\n0 0\n04\n0B 4C\n4B\n", "'0 0' to guess 2 (1032): no secret fits it"},
      {"control", std::string("\x1b[A\n") + kWin, "'\\x1b[A' to guess 1"},
  };
  for (const Case& c : cases) {
    const std::string in = input_file(c.name, c.input);
    const CommandResult r = run_count({"--bulls-and-cows", "--play"}, in);
    EXPECT_EQ(r.status, 0) << c.name << ": " << r.err;
    EXPECT_TRUE(test::is_one_line(r.err)) << c.name << ": " << r.err;
    EXPECT_NE(r.err.find(c.names), std::string::npos) << c.name << ": " << r.err;
    EXPECT_NE(r.out.find("solved: 3210 in 4 guesses"), std::string::npos) << c.name << ": " << r.out;
    fs::remove(in);
  }
}

// Piped answers are not shown by a terminal, so each one is written after
// its prompt: every prompt ends its own line, and a long or binary answer
// is cut to 40 bytes with control bytes escaped (the transcript of
// docs/games.md).
TEST(CodesPlay, APipedGameShowsEachAnswerAfterItsPrompt) {
  const std::string in = input_file("piped", "?\n\x01" + std::string(300, 'x') + "\n" + kWin);
  const CommandResult r = run_count({"--bulls-and-cows", "--play"}, in);
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string expected =
      "guess 1: 0123   answer? ?\n"
      "guess 1: 0123   answer? \\x01" +
      std::string(39, 'x') +
      "...\n"
      "guess 1: 0123   answer? 0 4\n"
      "guess 2: 1032   answer? 04\n"
      "guess 3: 2301   answer? 0B 4C\n"
      "guess 4: 3210   answer? 4B\n"
      "solved: 3210 in 4 guesses\n";
  ASSERT_GE(r.out.size(), expected.size()) << r.out;
  EXPECT_EQ(r.out.substr(r.out.size() - expected.size()), expected);
  fs::remove(in);
}

TEST(CodesPlay, QuitEndOfInputAndRunawayInputEndTheGame) {
  struct Case {
    std::string name, input;
    int status;
    std::string out, err;  ///< text that stdout, stderr contain
  };
  const std::string ten_mb(10'000'000, '7');
  const std::vector<Case> cases = {
      {"quit", "0 4\nq\n", 0, "quit after 1 guess\n", ""},
      {"ended", "0 4\n", 1, "guess 2: 1032", "the input ended before the code was found"},
      {"empty", "", 1, "guess 1: 0123", "the input ended"},
      {"slips", std::string(20, '\n'), 2, "", "10 answers in a row were not understood: stopping"},
      // A long line is dropped, not echoed; the game goes on.
      {"long-line", ten_mb + "\n" + kWin, 0, "solved: 3210 in 4 guesses", "a line of over 256 bytes"},
  };
  for (const Case& c : cases) {
    const std::string in = input_file(c.name, c.input);
    const CommandResult r = run_count({"--bulls-and-cows", "--play"}, in);
    EXPECT_EQ(r.status, c.status) << c.name << ": " << r.err;
    EXPECT_NE(r.out.find(c.out), std::string::npos) << c.name << ": " << r.out;
    EXPECT_NE(r.err.find(c.err), std::string::npos) << c.name << ": " << r.err;
    EXPECT_LT(r.err.size(), 2000u) << c.name;
    if (c.err.empty()) {
      EXPECT_EQ(r.err, "") << c.name;
    }
    fs::remove(in);
  }
}

// Input without line ends (/dev/zero) stops after a bounded read; the
// timeout only guards against a hang.
TEST(CodesPlay, InputWithoutLineEndsStops) {
  const CommandResult r =
      run_command({"/usr/bin/timeout", "120", PCOUNT_COUNT_EXE, "--mastermind", "--play"}, "/dev/zero");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(test::is_one_line(r.err)) << r.err.substr(0, 200);
  EXPECT_NE(r.err.find("an answer line of over 16 MiB: stopping"), std::string::npos) << r.err.substr(0, 200);
}

// --strategy optimal for bulls and cows plays the shipped tree: found under
// ../share/pcount from the program's folder (installed, bundled), or under
// ../data (a build in the source tree, as here); without it the message
// names the installed path.
TEST(CodesPlay, TheShippedOptimalTreeIsFoundBesideTheProgram) {
  const CommandResult here = run_count({"--bulls-and-cows", "--strategy", "optimal", "--secret", "9876"});
  ASSERT_EQ(here.status, 0) << here.err;
  EXPECT_NE(here.out.find("9876  4B 0C"), std::string::npos) << here.out;

  const fs::path prefix = fs::path(::testing::TempDir()) / ("pcount-play-prefix-" + std::to_string(::getpid()));
  fs::remove_all(prefix);
  fs::create_directories(prefix / "bin");
  fs::copy_file(PCOUNT_COUNT_EXE, prefix / "bin" / "count");
  const std::string count = (prefix / "bin" / "count").string();
  const CommandResult missing = run_command({count, "--bulls-and-cows", "--strategy", "optimal", "--play"});
  EXPECT_EQ(missing.status, 2);
  EXPECT_TRUE(test::is_one_line(missing.err)) << missing.err;
  EXPECT_NE(missing.err.find("installed as " + (prefix / "share/pcount/games/bulls-and-cows-optimal.json").string() +
                             ", which is missing"),
            std::string::npos)
      << missing.err;

  fs::create_directories(prefix / "share/pcount/games");
  fs::copy_file(PCOUNT_DATA_DIR "/games/bulls-and-cows-optimal.json",
                prefix / "share/pcount/games/bulls-and-cows-optimal.json");
  const CommandResult installed = run_command({count, "--bulls-and-cows", "--strategy", "optimal", "--secret", "9876"});
  EXPECT_EQ(installed.status, 0) << installed.err;
  EXPECT_EQ(installed.out, here.out);
  fs::remove_all(prefix);
}

}  // namespace
}  // namespace pcount::games::play
