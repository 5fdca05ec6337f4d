// Nothing lost, nothing wrong, nothing silent: bounded reads, checked
// writes to stdout, checkpoint records bound to their job, one owner per
// checkpoint, exactly-once listings with --output, merge that checks a
// listing's lines and a shard file's digest, --estimate that keeps its
// word, and messages that name their cause.

// GCC 12 reports a false -Wrestrict inside inlined std::string concatenation
// (GCC bug 105329); the code is correct, so the warning is off for this file.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/mount.h>
#include <unistd.h>

#include <chrono>
#include <cerrno>
#include <cstring>
#include <functional>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/run_command.hpp"
#include "support/shard_files.hpp"
#include "support/test_seed.hpp"

namespace pcount {
namespace {

namespace fs = std::filesystem;
using test::BadInputCase;
using test::CommandResult;
using test::expect_bad_input;
using test::is_one_line;
using test::run_count;
using test::slurp;

fs::path scratch(const std::string& name) { return test::scratch_dir("pcount-lost-" + name); }

std::string shown(const std::vector<std::string>& args) {
  std::string s;
  for (const auto& a : args) s += a + " ";
  return s;
}

TEST(NothingLost, StrategyAndBoundTreesAreRegularFilesOfBoundedSize) {
  const fs::path dir = scratch("strategy");
  const std::string big = (dir / "big.json").string();
  test::write_file(big, "");
  fs::resize_file(big, (std::uintmax_t{16} << 20) + 1);  // sparse: one byte over the cap
  const std::string inf = (dir / "inf.json").string();
  test::write_file(inf, "{\"guesses\":1e999}");
  expect_bad_input({
      {{"--mastermind", "--strategy-file", "/dev/zero"}, "--strategy-file: /dev/zero: is not a regular file"},
      {{"--mastermind", "--strategy", "optimal", "--bound-tree", "/dev/zero"},
       "--bound-tree: /dev/zero: is not a regular file"},
      {{"--bulls-and-cows", "--strategy-file", big}, "is larger than 16 MiB (the most --strategy-file reads)"},
      {{"--bulls-and-cows", "--strategy-file", inf}, "--strategy-file: " + inf + ": not JSON we can read"},
  });
}

TEST(NothingLost, AFailedWriteToStdoutIsExitOneWithOneLine) {
  const std::vector<std::vector<std::string>> commands = {
      {"--queens", "8"},           {"--queens", "8", "--json"},      {"--version"}, {"--help"},
      {"--bulls-and-cows", "--secret", "1234"}, {"--queens", "9", "--estimate", "0.2", "--threads", "1"},
      {"--queens", "6", "--list"}, {"merge", "--help"},
  };
  for (const auto& args : commands)
    for (const std::string to : {"/dev/full", "-"}) {  // a full disk, a closed stdout
      const CommandResult r = run_count(args, "", to);
      EXPECT_EQ(r.status, 1) << shown(args) << "> " << to << ": " << r.err;
      EXPECT_NE(r.err.find("stdout"), std::string::npos) << shown(args) << "> " << to << ": " << r.err;
    }
  // The report is not lost: it follows on stderr.
  const CommandResult r = run_count({"--queens", "8"}, "", "/dev/full");
  EXPECT_NE(r.err.find("all           92"), std::string::npos) << r.err;
}

TEST(NothingLost, ACheckpointRecordOfAnotherJobIsRefused) {
  // The split-depth-2 job's task 0 has another count than the split-depth-1
  // job's task 0; spliced in with a valid line checksum it gave 6144
  // instead of R(6) = 9408 (OEIS A000315) before records were bound to
  // their job's header.
  const fs::path dir = scratch("splice");
  const std::string a = (dir / "a.ck").string(), b = (dir / "b.ck").string(), s = (dir / "s.ck").string();
  ASSERT_EQ(run_count({"--latin", "6", "--split-depth", "1", "--checkpoint", a, "--quiet"}).status, 0);
  ASSERT_EQ(run_count({"--latin", "6", "--split-depth", "2", "--checkpoint", b, "--quiet"}).status, 0);
  std::istringstream at(slurp(a)), bt(slurp(b));
  std::string spliced, line;
  for (int i = 0; i < 6 && std::getline(at, line); ++i) spliced += line + "\n";  // a's header
  while (std::getline(bt, line))
    if (line.rfind("0 ", 0) == 0) {
      spliced += line + "\n";  // b's record of task 0
      break;
    }
  test::write_file(s, spliced);
  expect_bad_input({{{"--latin", "6", "--split-depth", "1", "--checkpoint", s},
                     "line 7 is damaged (checksum; or a record of another job)"}});
  // Unspliced, the same file resumes to the published total.
  test::write_file(s, slurp(a));
  const CommandResult r = run_count({"--latin", "6", "--split-depth", "1", "--checkpoint", s});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("reduced       9408"), std::string::npos) << r.out;
}

TEST(NothingLost, StrategyOutIsInTheOutputCollisionCheck) {
  const fs::path dir = scratch("collide");
  const std::string x = (dir / "x.json").string();
  const std::string tree = (dir / "tree.json").string();
  ASSERT_EQ(run_count({"--bulls-and-cows", "--strategy-out", tree, "--quiet"}).status, 0);
  const std::string before = slurp(tree);
  expect_bad_input({
      {{"--bulls-and-cows", "--strategy-out", x, "--out", x}, "both name"},
      {{"--bulls-and-cows", "--strategy-file", tree, "--strategy-out", tree}, "both name"},
  });
  EXPECT_EQ(slurp(tree), before);  // the input was not overwritten
  EXPECT_FALSE(fs::exists(x));
}

TEST(NothingLost, AResumedListingWithOutputIsWrittenExactlyOnce) {
  // Q(13) has 73712 solutions (OEIS A000170). Killed at random times and
  // resumed, the --output file is byte for byte the uninterrupted listing.
  const fs::path dir = scratch("once");
  const std::string reference = (dir / "reference.txt").string();
  const std::vector<std::string> job = {"--queens", "13", "--list", "--threads", "2", "--split-depth", "4"};
  ASSERT_EQ(run_count(job, "", reference).status, 0);
  ASSERT_EQ(test::count_lines(slurp(reference)), 73712u);
  const std::string out = (dir / "list.txt").string(), ck = (dir / "list.ck").string();
  std::vector<std::string> resumable = job;
  for (const std::string& a : {std::string("--output"), out, std::string("--checkpoint"), ck, std::string("--quiet")})
    resumable.push_back(a);
  setenv("PCOUNT_CHECKPOINT_SECONDS", "0.02", 1);
  // The kills must land while a run works, on a fast machine as on a busy
  // one (fixed delays of 20-140 ms missed a whole run of 80 ms): each delay
  // is 15-65 % of an uninterrupted run of the same resumable job, timed
  // first into other files. Only the delays scale; nothing is asserted on
  // time.
  std::vector<std::string> timed = job;
  for (const std::string& a : {std::string("--output"), (dir / "timed.txt").string(), std::string("--checkpoint"),
                               (dir / "timed.ck").string(), std::string("--quiet")})
    timed.push_back(a);
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(run_count(timed).status, 0);
  const double whole_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  std::mt19937 rng(test::test_seed());
  std::uniform_real_distribution<double> share(0.15, 0.65);
  int kills = 0;
  for (int attempt = 0; attempt < 12; ++attempt) {
    const pid_t pid = test::start_count(resumable);
    std::this_thread::sleep_for(std::chrono::microseconds(static_cast<long long>(whole_us * share(rng))));
    kill(pid, SIGKILL);
    if (test::wait_status(pid) == 128 + SIGKILL) ++kills;
  }
  const CommandResult last = run_count(resumable);
  unsetenv("PCOUNT_CHECKPOINT_SECONDS");
  EXPECT_EQ(last.status, 0) << last.err;
  EXPECT_NE(last.out.find("all           73712"), std::string::npos) << last.out;  // the report, on stdout
  EXPECT_GE(kills, 1) << "no run was killed: the trial tested nothing";
  EXPECT_TRUE(slurp(out) == slurp(reference)) << "the resumed --output file differs from the uninterrupted listing";
}

TEST(NothingLost, AResumeOnStdoutSaysItIsAtLeastOnce) {
  const fs::path dir = scratch("atleast");
  const std::string ck = (dir / "c.ck").string();
  ASSERT_EQ(run_count({"--queens", "8", "--list", "--checkpoint", ck, "--quiet"}).status, 0);
  const CommandResult r = run_count({"--queens", "8", "--list", "--checkpoint", ck});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.err.find("stdout is at-least-once"), std::string::npos) << r.err;
}

/// Shard files of `--queens 8 --list` in two shards (split depth 2: most
/// tasks list several solutions).
std::vector<std::string> listing_shards(const fs::path& dir) {
  std::vector<std::string> files;
  for (const std::string i : {"0", "1"}) {
    files.push_back((dir / ("s" + i + ".json")).string());
    EXPECT_EQ(run_count({"--queens", "8", "--list", "--split-depth", "2", "--shard", i + "/2", "--out", files.back(),
                         "--quiet"})
                  .status,
              0);
  }
  return files;
}

/// Changes a shard file with `edit` and, when `redigest`, writes a digest
/// that matches the edited content (as a careful forger would).
void edit_shard(const std::string& path, const std::function<void(nlohmann::json&)>& edit, bool redigest) {
  nlohmann::json j = nlohmann::json::parse(slurp(path));
  edit(j);
  if (redigest) test::redigest(j);
  test::write_file(path, j.dump());
}

TEST(NothingLost, MergeChecksEachListingTasksLinesAgainstItsCount) {
  struct Case {
    const char* what;
    std::function<void(std::string&)> change;
  };
  const std::vector<Case> cases = {
      {"an extra line", [](std::string& t) { t += t.substr(0, t.find('\n') + 1); }},
      {"a dropped line", [](std::string& t) { t.erase(0, t.find('\n') + 1); }},
      {"two lines joined", [](std::string& t) { t[t.find('\n')] = ' '; }},
  };
  for (const Case& c : cases) {
    const fs::path dir = scratch("lines");
    const auto files = listing_shards(dir);
    const CommandResult clean = run_count({"merge", files[0], files[1]});
    ASSERT_EQ(clean.status, 0) << clean.err;
    ASSERT_EQ(test::count_lines(clean.out), 92u);  // Q(8) = 92
    bool edited = false;
    edit_shard(files[0], [&](nlohmann::json& j) {
      for (auto& text : j["outputs"]) {
        std::string t = text.get<std::string>();
        if (t.find('\n') == std::string::npos || t.find('\n') + 1 == t.size()) continue;  // two lines at least
        c.change(t);
        text = t;
        edited = true;
        return;
      }
    }, true);
    ASSERT_TRUE(edited) << "no task with two lines to edit";
    const CommandResult r = run_count({"merge", files[0], files[1]});
    EXPECT_EQ(r.status, 1) << c.what << ": " << r.err;
    EXPECT_EQ(r.out, "") << c.what;
    EXPECT_NE(r.err.find("lines of output but counts"), std::string::npos) << c.what << ": " << r.err;
  }
}

TEST(NothingLost, AnEditedShardFileIsRefusedByItsDigest) {
  const fs::path dir = scratch("digest");
  std::vector<std::string> files;
  for (const std::string i : {"0", "1"}) {
    files.push_back((dir / ("s" + i + ".json")).string());
    ASSERT_EQ(run_count({"--queens", "8", "--shard", i + "/2", "--out", files.back(), "--quiet"}).status, 0);
  }
  // One task's count and the total edited to match: consistent, but not what was computed.
  edit_shard(files[0], [](nlohmann::json& j) {
    j["tasks"][0][3] = std::to_string(std::stoull(j["tasks"][0][3].get<std::string>()) + 1);
    j["totals"]["all"] = std::to_string(std::stoull(j["totals"]["all"].get<std::string>()) + 1);
  }, false);
  const CommandResult r = run_count({"merge", files[0], files[1]});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("does not match its digest"), std::string::npos) << r.err;
}

TEST(NothingLost, AListingMergeWritesTheListOrFails) {
  const fs::path dir = scratch("listorfail");
  const auto files = listing_shards(dir);
  // Shard 0 again, all of it resumed from a checkpoint: its file keeps counts only.
  const std::string ck = (dir / "s0.ck").string();
  const std::vector<std::string> shard0 = {"--queens", "8",         "--list", "--split-depth", "2",     "--shard",
                                           "0/2",      "--checkpoint", ck,      "--out",         files[0], "--quiet"};
  ASSERT_EQ(run_count(shard0).status, 0);
  ASSERT_EQ(run_count(shard0).status, 0);
  const CommandResult r = run_count({"merge", files[0], files[1]});
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_EQ(r.out, "");  // never the report in place of the list
  EXPECT_NE(r.err.find("keep counts only"), std::string::npos) << r.err;
  const CommandResult raw = run_count({"merge", "--raw", files[0], files[1]});
  EXPECT_EQ(raw.status, 0) << raw.err;
  EXPECT_NE(raw.out.find("all           92"), std::string::npos) << raw.out;
}

TEST(NothingLost, EstimateGivesTheTreeSizeWhenNoTaskFinishes) {
  // Every task of Q(32) is far longer than the budget.
  const CommandResult r = run_count({"--queens", "32", "--estimate", "0.3", "--json", "--threads", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["tasks_sampled"], 0);
  EXPECT_EQ(j["sampled_by"], "none");
  EXPECT_GT(j["knuth_nodes"].get<double>(), 1e20);
  // The lower bound is the tree size at 1e9 nodes per second: no timing.
  EXPECT_DOUBLE_EQ(j["cpu_seconds_low"].get<double>(), j["knuth_nodes"].get<double>() / 1e9);
}

TEST(NothingLost, CountingAllSolutionsOfAPuzzleFileGetsTheSizeCheck) {
  // An empty grid has 6670903752021072936960 solutions (OEIS A107739):
  // with --limit 0 that is refused before the run, as --puzzle refuses it.
  const fs::path dir = scratch("limit0");
  const std::string f = (dir / "blank.txt").string();
  test::write_file(f, std::string(81, '.') + "\n");
  const CommandResult r = run_count({"--puzzle-file", f, "--limit", "0"});
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(is_one_line(r.err)) << r.err;
  EXPECT_NE(r.err.find("search nodes"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--no-estimate-check"), std::string::npos) << r.err;
}

TEST(NothingLost, ASecondProcessOnOneCheckpointIsRefusedNamingTheFirst) {
  const fs::path dir = scratch("lock");
  const std::string ck = (dir / "c.ck").string();
  const std::vector<std::string> job = {"--queens", "17", "--method", "search", "--threads", "1", "--checkpoint", ck};
  setenv("PCOUNT_CHECKPOINT_SECONDS", "0.05", 1);
  const pid_t first = test::start_count(job);
  unsetenv("PCOUNT_CHECKPOINT_SECONDS");
  // A record in the file means the first run holds the lock (taken before
  // its first task), however slow the machine is.
  for (int i = 0; i < 3000 && test::checkpoint_records(ck) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const bool running = test::checkpoint_records(ck) > 0;
  const CommandResult second = running ? run_count(job) : CommandResult{};
  kill(first, SIGKILL);
  test::wait_status(first);
  ASSERT_TRUE(running) << "the first run wrote no record in 30 s";
  EXPECT_EQ(second.status, 2) << second.err;
  EXPECT_TRUE(is_one_line(second.err)) << second.err;
  EXPECT_NE(second.err.find("is in use by process " + std::to_string(first)), std::string::npos) << second.err;
}

TEST(NothingLost, AFinishedCheckpointOnAReadOnlyFileSystemIsUsed) {
  const fs::path dir = scratch("readonly");
  if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, "size=4m") != 0)
    GTEST_SKIP() << "cannot mount a tmpfs here (needs root): " << std::strerror(errno);
  const std::string done = (dir / "done.ck").string(), part = (dir / "part.ck").string();
  const std::vector<std::string> job = {"--queens", "8", "--split-depth", "2"};
  auto with = [&job](const std::string& ck) {
    auto a = job;
    a.push_back("--checkpoint");
    a.push_back(ck);
    return a;
  };
  EXPECT_EQ(run_count(with(done)).status, 0);
  std::istringstream in(slurp(done));
  std::string text, line;
  for (int i = 0; i < 7 && std::getline(in, line); ++i) text += line + "\n";  // header and one record
  test::write_file(part, text);
  EXPECT_EQ(::mount(nullptr, dir.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr), 0) << std::strerror(errno);
  const CommandResult r = run_count(with(done));
  const CommandResult unfinished = run_count(with(part));
  ::umount(dir.c_str());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("all           92"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("from earlier runs"), std::string::npos) << r.out;
  EXPECT_EQ(unfinished.status, 2) << unfinished.err;
  EXPECT_NE(unfinished.err.find("--checkpoint: " + part + ": cannot be written (read-only)"), std::string::npos)
      << unfinished.err;
}

TEST(NothingLost, MessagesNameTheOptionAtFault) {
  const fs::path dir = scratch("messages");
  const std::string p = (dir / "p").string();
  expect_bad_input({
      {{"--queens", "8", "--list", "-1"}, "--list: expected K, a whole number ≥ 1"},
      {{"--queens", "8", "--estimate", "-1"}, "--estimate: expected S"},
      {{"--queens", "8", "--method", ""}, "--method: expected a method name"},
      {{"--queens", "8", "--stop-file", dir.string()}, "--stop-file: " + dir.string() + ": is a directory"},
      {{"--bulls-and-cows", "--secret", "1234", "--estimate"}, "--secret: plays one game"},
      {{"--bulls-and-cows", "--secret", "1234", "--profile", p}, "--secret: plays one game"},
      {{"--bulls-and-cows", "--play", "--estimate"}, "--play: plays one game"},
      {{"--bulls-and-cows", "--estimate", "--strategy-out", p}, "--estimate: runs only a sample"},
      {{"--queens", "8", "--estimate", "--svg", p}, "--estimate: runs only a sample"},
      {{"--queens", "8", "--output", p}, "--output: applies to jobs that print"},
  });
  EXPECT_FALSE(fs::exists(p));
}

TEST(NothingLost, MergingAnotherProgramsShardSaysSo) {
  // A shard file as a program built on pcount writes it (examples/langford).
  const fs::path dir = scratch("foreign");
  const std::string f = (dir / "pairs.json").string();
  ASSERT_EQ(run_count({"--queens", "6", "--out", f, "--quiet"}).status, 0);
  edit_shard(f, [](nlohmann::json& j) { j["command"] = {"--pairs", "7"}; }, true);
  const CommandResult r = run_count({"merge", f});
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(is_one_line(r.err)) << r.err;
  EXPECT_NE(r.err.find("written by another program"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace pcount
