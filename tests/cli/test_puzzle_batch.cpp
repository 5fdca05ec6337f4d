// --puzzle-file as an engine job: checkpoint and resume after SIGKILL,
// shards and count merge, and the same output for every thread count.
// Expected counts come from the puzzle sets' known properties
// (data/sudoku/README.md): every 17-clue puzzle has exactly one solution,
// every puzzle of Serg's benchmark has more than one.
// GCC 12: false -Wrestrict in inlined std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/run_command.hpp"

namespace pcount::test {
namespace {

const std::string kSeventeen = std::string(PCOUNT_DATA_DIR) + "/sudoku/puzzles2_17_clue";
const std::string kSerg = std::string(PCOUNT_DATA_DIR) + "/sudoku/puzzles7_serg_benchmark";
// No solution: row 1 needs a 9 in column 9, which column 9 already has (row 2).
const std::string kContradiction = "12345678.........9" + std::string(63, '.');

/// The puzzle lines of a data file (comment and blank lines left out).
std::vector<std::string> puzzles_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') out.push_back(line);
  return out;
}


/// The report a run prints as its last line on stderr (with --json).
nlohmann::json report_of(const CommandResult& r) {
  const auto start = r.err.rfind('\n', r.err.size() - 2);
  return nlohmann::json::parse(r.err.substr(start == std::string::npos ? 0 : start + 1));
}

class PuzzleBatch : public ::testing::Test {
protected:
  void SetUp() override { setenv("PCOUNT_CHECKPOINT_SECONDS", "0.05", 1); }
  void TearDown() override {
    unsetenv("PCOUNT_CHECKPOINT_SECONDS");
    for (const auto& f : files_) std::remove(f.c_str());
  }
  std::string file(const std::string& stem) {
    files_.push_back("/tmp/pcount-puzzle-batch-" + stem + "-" + std::to_string(::getpid()));
    std::remove(files_.back().c_str());
    return files_.back();
  }
  std::vector<std::string> files_;
};

TEST_F(PuzzleBatch, ResumeAfterSigkillGivesTheCountsAndOutputOfOneRun) {
  const std::vector<std::string> seventeen = puzzles_of(kSeventeen);
  ASSERT_EQ(seventeen.size(), 49158u) << "data/sudoku/README.md";
  // Two copies of the 17-clue set: 98,316 puzzles, 385 tasks of 256 lines.
  const std::string big = file("big");
  {
    std::ofstream out(big);
    for (int copy = 0; copy < 2; ++copy)
      for (const auto& p : seventeen) out << p << '\n';
  }
  const std::string n = std::to_string(2 * seventeen.size());
  const nlohmann::json expected = {{"solved", n}, {"unique", n}, {"no_solution", "0"}, {"several", "0"},
                                   {"bad_lines", "0"}};
  const CommandResult whole = run_count({"--puzzle-file", big, "--json", "--threads", "2"});
  ASSERT_EQ(whole.status, 0) << whole.err;
  EXPECT_EQ(report_of(whole)["counts"], expected);
  EXPECT_EQ(count_lines(whole.out), 2 * seventeen.size());

  const std::string ck = file("ck");
  const std::string killed_out = file("killed-out");
  const pid_t pid = start_count({"--puzzle-file", big, "--json", "--threads", "1", "--checkpoint", ck}, killed_out);
  // Kill as soon as a record is on disk (no time limit; if the run ends
  // first the resume below has everything and the test says so).
  int status = -1;
  while (checkpoint_records(ck) == 0) {
    int w = 0;
    if (waitpid(pid, &w, WNOHANG) == pid) {
      status = WIFEXITED(w) ? WEXITSTATUS(w) : 128 + WTERMSIG(w);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (status < 0) {
    kill(pid, SIGKILL);
    status = wait_status(pid);
  }
  EXPECT_EQ(status, 128 + SIGKILL) << "the run ended before the kill: use a larger file";
  const std::size_t records = checkpoint_records(ck);

  const CommandResult resumed = run_count({"--puzzle-file", big, "--json", "--threads", "2", "--checkpoint", ck});
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  const nlohmann::json report = report_of(resumed);
  EXPECT_EQ(report["counts"], expected);
  EXPECT_EQ(report["tasks_resumed"].get<std::size_t>(), records);
  EXPECT_GE(records, 1u);
  EXPECT_EQ(report["tasks_resumed"].get<std::size_t>() + report["tasks_run"].get<std::size_t>(), 385u);
  // One note on stderr says how many puzzle lines were resumed: the tasks
  // recorded are the first ones, of 256 lines each.
  EXPECT_NE(resumed.err.find("count: --checkpoint " + ck + ": " + std::to_string(256 * records) +
                             " puzzle lines (" + std::to_string(records) + " blocks of 256 file lines)"),
            std::string::npos)
      << resumed.err;
  // The resumed run prints the tasks the checkpoint did not hold; the killed
  // run printed at least the ones it held (each task's lines are written
  // before it is recorded), so together they are the whole output, in order.
  const std::string first = slurp(killed_out);
  ASSERT_LE(resumed.out.size(), whole.out.size());
  const std::size_t cut = whole.out.size() - resumed.out.size();
  EXPECT_EQ(whole.out.substr(cut), resumed.out);
  EXPECT_GE(first.size(), cut);
  EXPECT_EQ(first.substr(0, cut), whole.out.substr(0, cut));
  EXPECT_EQ(count_lines(whole.out.substr(0, cut)), 256 * records);

  // A finished checkpoint: a rerun prints nothing on stdout and the same counts.
  const CommandResult again = run_count({"--puzzle-file", big, "--json", "--checkpoint", ck});
  EXPECT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(again.out, "");
  EXPECT_EQ(report_of(again)["counts"], expected);
  // Another file is another job: its checkpoint is refused.
  const std::string other = file("other");
  std::ofstream(other) << seventeen[0] << '\n';
  expect_bad_input({{{"--puzzle-file", other, "--checkpoint", ck}, "--checkpoint: " + ck + ": written by another job"}});
}

/// A file of every kind of line: Serg's benchmark (several solutions each),
/// the first 1000 17-clue puzzles (one each), two without a solution, three
/// bad lines, comments and blank lines.
std::string mixed_file(const std::string& path) {
  const std::vector<std::string> serg = puzzles_of(kSerg);
  const std::vector<std::string> seventeen = puzzles_of(kSeventeen);
  EXPECT_EQ(serg.size(), 10000u) << "data/sudoku/README.md";
  std::ofstream out(path);
  out << "# mixed\n";
  for (std::size_t i = 0; i < serg.size(); ++i) {
    out << serg[i] << '\n';
    if (i == 300) out << "\n" << kContradiction << "\n" << serg[i].substr(1) << '\n';  // blank, none, bad
    if (i == 5000) out << "# half way\n" << serg[i] + "1" << '\n' << kContradiction << '\n';
  }
  for (std::size_t i = 0; i < 1000; ++i) out << seventeen[i] << '\n';
  out << "x" << seventeen[0].substr(1) << '\n';
  return path;
}

const nlohmann::json kMixedCounts = {{"solved", "11002"}, {"unique", "1000"}, {"no_solution", "2"},
                                     {"several", "10000"}, {"bad_lines", "3"}};

TEST_F(PuzzleBatch, SameOutputForEveryThreadCount) {
  const std::string path = mixed_file(file("mixed"));
  CommandResult reference;
  for (const std::string threads : {"1", "2", "7"}) {
    const CommandResult r = run_count({"--puzzle-file", path, "--threads", threads, "--json"});
    EXPECT_EQ(r.status, 1) << "bad lines give status 1";
    EXPECT_EQ(report_of(r)["counts"], kMixedCounts);
    EXPECT_EQ(count_lines(r.out), 11002u);
    const std::string messages = r.err.substr(0, r.err.rfind('\n', r.err.size() - 2) + 1);
    EXPECT_EQ(count_lines(messages), 3u) << messages;
    if (threads == "1") {
      reference = r;
      continue;
    }
    EXPECT_EQ(r.out, reference.out) << threads << " threads";
    EXPECT_EQ(messages, reference.err.substr(0, reference.err.rfind('\n', reference.err.size() - 2) + 1));
  }
  // Text output too, and the messages name the bad lines in order.
  const CommandResult one = run_count({"--puzzle-file", path, "--threads", "1", "-q"});
  const CommandResult seven = run_count({"--puzzle-file", path, "--threads", "7", "-q"});
  EXPECT_EQ(one.out, seven.out);
  EXPECT_EQ(one.err, seven.err);
  const auto a = one.err.find("count: --puzzle-file: line 305: expected 81 cells");
  const auto b = one.err.find("count: --puzzle-file: line 5007: expected 81 cells");
  const auto c = one.err.find("count: --puzzle-file: line 11008: row 1, column 1: bad character 'x'");
  EXPECT_NE(c, std::string::npos) << one.err;
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
}

TEST_F(PuzzleBatch, ShardsMergeToTheCountsOfOneRun) {
  const std::string path = mixed_file(file("mixed"));
  const CommandResult whole = run_count({"--puzzle-file", path, "--threads", "2", "-q"});
  std::vector<std::string> outs;
  std::string lines;
  for (const std::string i : {"0", "1", "2"}) {
    outs.push_back(file("shard" + i));
    const CommandResult r =
        run_count({"--puzzle-file", path, "--shard", i + "/3", "--out", outs.back(), "--threads", "2"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("shard         " + i + "/3 (partial counts"), std::string::npos) << r.err;
    lines += r.out;
  }
  // The shards print every result line once, each shard in line order.
  auto sorted = [](const std::string& text) {
    std::vector<std::string> v;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) v.push_back(l);
    std::sort(v.begin(), v.end());
    return v;
  };
  EXPECT_EQ(sorted(lines), sorted(whole.out));
  // merge needs the shard files only, not the puzzle file.
  std::remove(path.c_str());
  const CommandResult m = run_count({"merge", "--json", outs[0], outs[1], outs[2]});
  ASSERT_EQ(m.status, 0) << m.err;
  EXPECT_EQ(m.err.find("puzzle"), std::string::npos) << m.err;
  const auto j = nlohmann::json::parse(m.out);
  EXPECT_EQ(j["problem"], "puzzle-file");
  EXPECT_EQ(j["counts"], kMixedCounts);
  const CommandResult text = run_count({"merge", outs[0], outs[1], outs[2]});
  EXPECT_NE(text.out.find("several       10000\nbad_lines     3\n"), std::string::npos) << text.out;
}

TEST_F(PuzzleBatch, StopFileThenResumePrintsEachLineOnce) {
  const std::string path = mixed_file(file("mixed"));
  const CommandResult whole = run_count({"--puzzle-file", path, "--threads", "2", "-q"});
  const std::string ck = file("ck");
  const std::string stop = file("stop");
  std::ofstream(stop) << "";
  // The stop file is there from the start: the run stops after the tasks
  // it had begun (how many depends on timing; the outcome does not).
  const CommandResult first =
      run_count({"--puzzle-file", path, "--threads", "2", "-q", "--checkpoint", ck, "--stop-file", stop});
  EXPECT_TRUE(first.status == 143 || first.status == 1) << first.status << " " << first.err;
  std::remove(stop.c_str());
  const CommandResult rest = run_count({"--puzzle-file", path, "--threads", "7", "--checkpoint", ck});
  EXPECT_EQ(rest.status, 1) << rest.err;
  EXPECT_NE(rest.err.find("solved        11002\nunique        1000\nno_solution   2\nseveral       10000\n"
                          "bad_lines     3\n"),
            std::string::npos)
      << rest.err;
  EXPECT_TRUE(first.out + rest.out == whole.out) << "a stopped run's checkpoint holds exactly what it printed";
}

}  // namespace
}  // namespace pcount::test
