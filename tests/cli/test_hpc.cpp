// Batch runs through the `count` program: checkpoint and resume after
// SIGKILL / SIGTERM / stop file, foreign and damaged checkpoints, shards and
// count merge, profiles. Uses the queens problem (Q(N), OEIS A000170).
// GCC 12: false -Wrestrict in inlined std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <thread>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/run_command.hpp"
#include "support/test_seed.hpp"

namespace pcount::test {
namespace {

std::string temp_path(const std::string& stem) {
  return "/tmp/pcount-hpc-" + stem + "-" + std::to_string(::getpid());
}

nlohmann::json run_json(const std::vector<std::string>& args) {
  std::vector<std::string> a = args;
  a.emplace_back("--json");
  const CommandResult r = run_count(a);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(is_one_line(r.out)) << r.out;
  return nlohmann::json::parse(r.out);
}

class Hpc : public ::testing::Test {
protected:
  // Flush the checkpoint every 20 ms so that short runs leave records behind.
  void SetUp() override { setenv("PCOUNT_CHECKPOINT_SECONDS", "0.02", 1); }
  void TearDown() override {
    unsetenv("PCOUNT_CHECKPOINT_SECONDS");
    for (const auto& f : files_) std::remove(f.c_str());
  }
  std::string file(const std::string& stem) {
    files_.push_back(temp_path(stem));
    std::remove(files_.back().c_str());
    return files_.back();
  }
  std::vector<std::string> files_;
};

// Q(14) = 365596 in 1364 tasks (split depth 3), about a second on one thread.
const std::vector<std::string> kJob = {"--queens", "14", "--method", "search", "--threads", "1", "--split-depth", "3"};
const std::string kQ14 = "365596";

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& more) {
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

/// Kills a checkpointed run with `sig` at a random moment after its first
/// checkpoint record, resumes it, and checks the exact total and that the
/// resumed run took over exactly the recorded tasks; returns the killed
/// run's status.
int kill_and_resume(const std::string& ck, int sig, double full_seconds, std::mt19937& rng) {
  std::uniform_real_distribution<double> when(0.1 * full_seconds, 0.9 * full_seconds);
  const pid_t pid = start_count(with(kJob, {"--checkpoint", ck}));
  // Wait (without a time limit) until a record is on disk or the run ended
  // by itself, so that the resume below always has something to resume.
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
    std::this_thread::sleep_for(std::chrono::duration<double>(when(rng)));
    kill(pid, sig);
    status = wait_status(pid);
  }
  const std::size_t records = checkpoint_records(ck);
  const CommandResult r = run_count(with(kJob, {"--checkpoint", ck, "--json"}));
  EXPECT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["counts"]["all"], kQ14);
  EXPECT_GE(records, 1u);
  EXPECT_EQ(j["tasks_resumed"].get<std::size_t>(), records);  // every flushed record was used
  EXPECT_GE(j["tasks_resumed"].get<std::size_t>(), 1u);       // else this test checks no resume at all
  EXPECT_EQ(j["tasks_resumed"].get<std::size_t>() + j["tasks_run"].get<std::size_t>(), j["tasks"].get<std::size_t>());
  return status;
}

double timed_reference_seconds() {
  const auto t0 = std::chrono::steady_clock::now();
  const auto j = run_json(kJob);
  EXPECT_EQ(j["counts"]["all"], kQ14);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST_F(Hpc, ResumeAfterSigkillGivesTheExactTotal) {
  const double full = timed_reference_seconds();
  const std::uint32_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (PCOUNT_TEST_SEED)");
  std::mt19937 rng(seed);
  for (int round = 0; round < 2; ++round) {
    const std::string ck = file("kill" + std::to_string(round));
    const int status = kill_and_resume(ck, SIGKILL, full, rng);
    EXPECT_TRUE(status == 128 + SIGKILL || status == 0) << status;  // 0: it finished before the kill
  }
}

TEST_F(Hpc, SigtermStopsWith143AndResumes) {
  const double full = timed_reference_seconds();
  const std::uint32_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (PCOUNT_TEST_SEED)");
  std::mt19937 rng(seed);
  const std::string ck = file("term");
  const int status = kill_and_resume(ck, SIGTERM, full, rng);
  EXPECT_TRUE(status == 143 || status == 0) << status;
}

TEST_F(Hpc, InterruptedRunPrintsNoTotal) {
  // The stop file exists from the start: no task runs, nothing on stdout.
  const std::string stop = file("stop");
  std::ofstream(stop) << "";
  const std::string ck = file("stopck");
  const CommandResult r = run_count(with(kJob, {"--checkpoint", ck, "--stop-file", stop}));
  EXPECT_EQ(r.status, 143);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("stopped by"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("rerun the same command"), std::string::npos) << r.err;
  std::remove(stop.c_str());
  EXPECT_EQ(run_json(with(kJob, {"--checkpoint", ck}))["counts"]["all"], kQ14);
}

// One task that would run for hours (Q(20) unsplit, one thread): a stop
// must reach the kernel, which abandons the task; the checkpoint stays valid.
const std::vector<std::string> kLongJob = {"--queens", "20", "--method", "search", "--split-depth",
                                           "0", "--threads", "1", "--no-estimate-check"};

/// Waits (without a time limit) until the checkpoint `ck` has its header,
/// i.e. the run is about to start its tasks, then gives the task a moment
/// to start (not a limit: the test passes either way, only the abandoned
/// task's message depends on it).
void wait_until_running(const std::string& ck) {
  while (count_lines(slurp(ck)) < 5) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
}

/// A rerun with the stop file present reads the checkpoint and stops before
/// any task: it accepts the checkpoint (exit 143, "resume from").
void expect_checkpoint_accepted(const std::string& ck, const std::string& stop) {
  std::ofstream(stop) << "";
  const CommandResult again = run_count(with(kLongJob, {"--checkpoint", ck, "--stop-file", stop}));
  EXPECT_EQ(again.status, 143) << again.err;
  EXPECT_NE(again.err.find("resume from " + ck), std::string::npos) << again.err;
  EXPECT_NE(again.err.find("after 0 of 3 tasks"), std::string::npos) << again.err;
}

TEST_F(Hpc, StopFileEndsALongTaskAndKeepsTheCheckpoint) {
  const std::string ck = file("longck");
  const std::string stop = file("longstop");
  std::thread stopper([&] {
    wait_until_running(ck);
    std::ofstream(stop) << "";
  });
  const CommandResult r = run_count(with(kLongJob, {"--checkpoint", ck, "--stop-file", stop}));
  stopper.join();
  EXPECT_EQ(r.status, 143) << r.err;
  EXPECT_EQ(r.out, "");
  // Normally the task is running when the stop file appears, and the kernel
  // gives it up (without that the run would not have ended at all). On a
  // very loaded machine the stop may come before the task starts.
  EXPECT_TRUE(r.err.find("1 task still running was abandoned") != std::string::npos ||
              r.err.find("after 0 of 3 tasks") != std::string::npos)
      << r.err;
  EXPECT_EQ(checkpoint_records(ck), 0u) << "the abandoned task is not recorded";
  std::remove(stop.c_str());
  expect_checkpoint_accepted(ck, stop);
}

TEST_F(Hpc, SigtermEndsALongTaskAndKeepsTheCheckpoint) {
  const std::string ck = file("termck");
  const std::string stop = file("termstop");
  const pid_t pid = start_count(with(kLongJob, {"--checkpoint", ck}));
  wait_until_running(ck);
  kill(pid, SIGTERM);
  EXPECT_EQ(wait_status(pid), 143);
  EXPECT_EQ(checkpoint_records(ck), 0u);
  expect_checkpoint_accepted(ck, stop);
}

TEST_F(Hpc, ForeignDamagedAndTruncatedCheckpoints) {
  const std::string ck = file("foreign");
  const auto small = std::vector<std::string>{"--queens", "10", "--method", "search", "--split-depth", "2"};
  EXPECT_EQ(run_json(with(small, {"--checkpoint", ck}))["counts"]["all"], "724");
  // Another job: refused, one line, exit 2, nothing on stdout.
  for (const auto& other : {std::vector<std::string>{"--queens", "11", "--method", "search", "--split-depth", "2"},
                            std::vector<std::string>{"--queens", "10", "--method", "search", "--split-depth", "3"},
                            std::vector<std::string>{"--queens", "10"}}) {
    const CommandResult r = run_count(with(other, {"--checkpoint", ck}));
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(is_one_line(r.err)) << r.err;
    EXPECT_EQ(r.err.rfind("count: --checkpoint: ", 0), 0u) << r.err;
  }
  const std::string good = slurp(ck);
  // Truncated last line: a warning, the task runs again, same total.
  std::ofstream(ck, std::ios::trunc) << good.substr(0, good.size() - 4);
  CommandResult r = run_count(with(small, {"--checkpoint", ck}));
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("724"), std::string::npos);
  EXPECT_NE(r.err.find("warning"), std::string::npos) << r.err;
  EXPECT_EQ(count_lines(slurp(ck)), count_lines(good));  // the cut record was written again, whole
  const auto all_resumed = run_json(with(small, {"--checkpoint", ck}));
  EXPECT_EQ(all_resumed["tasks_resumed"], all_resumed["tasks"]);
  // A copy as an MPI rank's log (FILE.rank1): agreeing duplicates count once.
  const std::string rank1 = ck + ".rank1";
  files_.push_back(rank1);
  std::ofstream(rank1, std::ios::trunc) << slurp(ck);
  const auto twice = run_json(with(small, {"--checkpoint", ck}));
  EXPECT_EQ(twice["counts"]["all"], "724");
  EXPECT_EQ(twice["tasks_resumed"], twice["tasks"]);
  std::remove(rank1.c_str());
  // A damaged record: refused.
  std::string bad = good;
  bad[bad.find("\n", bad.find("counters")) + 1] = 'x';
  std::ofstream(ck, std::ios::trunc) << bad;
  r = run_count(with(small, {"--checkpoint", ck}));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(is_one_line(r.err)) << r.err;
  EXPECT_NE(r.err.find("damaged"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.rfind("count: --checkpoint: ", 0), 0u) << r.err;
}

TEST_F(Hpc, ShardsMergeToTheSingleRunTotal) {
  for (const auto& job : {std::vector<std::string>{"--queens", "11", "--method", "search", "--split-depth", "2", "--threads", "2"},
                          std::vector<std::string>{"--queens", "11", "--threads", "2"},
                          std::vector<std::string>{"--queens", "11", "--method", "join", "--outer-columns", "4"}})
  for (int k : {1, 2, 3, 7}) {
    const auto single = run_json(job);
    EXPECT_EQ(single["counts"]["all"], "2680");
    std::vector<std::string> merge_args{"merge"};
    for (int i = 0; i < k; ++i) {
      const std::string out = file("shard" + std::to_string(k) + "-" + std::to_string(i));
      const std::string shard = std::to_string(i) + "/" + std::to_string(k);
      const CommandResult r = run_count(with(job, {"--shard", shard, "--out", out}));
      EXPECT_EQ(r.status, 0) << r.err;
      if (k > 1) {
        EXPECT_NE(r.out.find("partial"), std::string::npos) << r.out;
      }
      merge_args.push_back(out);
    }
    const CommandResult text = run_count(merge_args);
    EXPECT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("2680"), std::string::npos) << text.out;
    merge_args.emplace_back("--json");
    const auto j = nlohmann::json::parse(run_count(merge_args).out);
    EXPECT_EQ(j["counts"]["all"], "2680") << k;
    EXPECT_EQ(j["problem"], "queens");
    EXPECT_EQ(j["counts"], single["counts"]);  // derived counts too (U = 341 for N = 11)
    EXPECT_EQ(j["tasks"], single["tasks"]);
    EXPECT_EQ(j["nodes"], single["nodes"]);
    merge_args.emplace_back("--raw");
    const auto raw = nlohmann::json::parse(run_count(merge_args).out);
    EXPECT_EQ(raw["counts"]["all"], "2680");
  }
}

TEST_F(Hpc, MissingDuplicatedAndForeignShardsExit1) {
  const auto job = std::vector<std::string>{"--queens", "9", "--method", "search", "--split-depth", "2"};
  std::vector<std::string> outs;
  for (int i = 0; i < 5; ++i) {
    outs.push_back(file("m" + std::to_string(i)));
    EXPECT_EQ(run_count(with(job, {"--shard", std::to_string(i) + "/5", "--out", outs.back()})).status, 0);
  }
  CommandResult r = run_count({"merge", outs[0], outs[2], outs[4]});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(is_one_line(r.err)) << r.err;
  EXPECT_NE(r.err.find("missing shards 1, 3 of 5"), std::string::npos) << r.err;
  r = run_count({"merge", outs[0], outs[1], outs[2], outs[3], outs[4], outs[1]});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("shard 1/5 given twice"), std::string::npos) << r.err;
  const std::string other = file("other");
  EXPECT_EQ(run_count({"--queens", "8", "--method", "search", "--split-depth", "2", "--shard", "1/5", "--out", other}).status, 0);
  r = run_count({"merge", outs[0], other, outs[2], outs[3], outs[4]});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("different jobs"), std::string::npos) << r.err;
  std::ofstream(other, std::ios::trunc) << "{\"format\": \"pcount-shard\"";
  r = run_count({"merge", outs[0], other});
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(is_one_line(r.err)) << r.err;
  r = run_count({"merge"});
  EXPECT_EQ(r.status, 2);
  r = run_count({"merge", "/nonexistent/pcount-shard.json"});
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(is_one_line(r.err)) << r.err;
}

TEST_F(Hpc, ShardsResumeFromCheckpointsToo) {
  const auto job = std::vector<std::string>{"--queens", "10", "--method", "search", "--split-depth", "2"};
  const std::string ck = file("shardck");
  const std::string out0 = file("sc0");
  const std::string out1 = file("sc1");
  EXPECT_EQ(run_count(with(job, {"--shard", "0/2", "--checkpoint", ck, "--out", out0})).status, 0);
  // The same shard again resumes every task from the checkpoint.
  const CommandResult again = run_count(with(job, {"--shard", "0/2", "--checkpoint", ck, "--out", out0, "--json"}));
  EXPECT_EQ(nlohmann::json::parse(again.out)["tasks_run"], 0);
  EXPECT_EQ(run_count(with(job, {"--shard", "1/2", "--out", out1})).status, 0);
  const auto j = nlohmann::json::parse(run_count({"merge", "--json", out0, out1}).out);
  EXPECT_EQ(j["counts"]["all"], "724");
}

TEST_F(Hpc, ProfileHasOneRowPerTask) {
  const std::string csv = file("profile");
  const auto j = run_json({"--queens", "9", "--method", "search", "--split-depth", "2", "--profile", csv});
  const std::string text = slurp(csv);
  EXPECT_EQ(text.rfind("id,seconds,nodes,all,", 0), 0u) << text;
  EXPECT_NE(text.find(",resumed,position\n"), std::string::npos) << text;
  std::vector<std::size_t> positions;
  EXPECT_EQ(count_lines(text), j["tasks"].get<std::size_t>() + 1);
  // The per-task counts add up to Q(9) = 352.
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  const std::size_t columns = static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')) + 1;
  unsigned long long sum = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ls(line);
    std::string cell;
    while (std::getline(ls, cell, ',')) f.push_back(cell);
    ASSERT_EQ(f.size(), columns) << line;
    sum += std::stoull(f[3]);
    positions.push_back(std::stoull(f.back()));
  }
  EXPECT_EQ(sum, 352u);
  // The last column is each task's hand-out position: a permutation of
  // 0 .. tasks-1 (scripts/simulate-scaling replays the tasks in that order).
  std::sort(positions.begin(), positions.end());
  for (std::size_t i = 0; i < positions.size(); ++i) ASSERT_EQ(positions[i], i);
}

/// The fields of one CSV line (RFC 4180 quoting: "a, b" and "" inside quotes).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

TEST_F(Hpc, ProfileHeaderQuotesCounterNamesWithCommas) {
  // The sub-band method's counters are "weighted B squared, bits 0-63", ...:
  // unquoted, the header had three more fields than the rows.
  const std::string csv = file("profile-commas");
  const auto j = run_json({"--sudoku", "2x3", "--method", "subbands", "--profile", csv});
  std::istringstream in(slurp(csv));
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = csv_fields(line);
  ASSERT_GE(header.size(), 6u) << line;
  EXPECT_EQ(header[3], "weighted B squared, bits 0-63") << line;
  EXPECT_EQ(header.back(), "position") << line;
  std::size_t rows = 0;
  while (std::getline(in, line)) {
    ++rows;
    EXPECT_EQ(csv_fields(line).size(), header.size()) << line;
  }
  EXPECT_EQ(rows, j["tasks"].get<std::size_t>());
}

TEST_F(Hpc, BadBatchOptionsAreOneLineExit2) {
  expect_bad_input({
      {{"--queens", "8", "--shard", "3/3"}, "--shard"},
      {{"--queens", "8", "--shard", "x"}, "--shard"},
      {{"--queens", "8", "--shard", "1/0"}, "--shard"},
      {{"--queens", "8", "--checkpoint", ""}, "--checkpoint"},
      {{"--queens", "8", "--checkpoint", "/nonexistent-dir/ck"}, "--checkpoint"},
      {{"--queens", "8", "--out", ""}, "--out"},
      {{"merge", "--frob", "x"}, "--frob"},
      {{"merge"}, "merge"},
  });
}

TEST_F(Hpc, ProgressGoesToStderrAndQuietSilencesIt) {
  const CommandResult shown = run_count({"--queens", "9", "--progress"});
  EXPECT_EQ(shown.status, 0);
  EXPECT_NE(shown.err.find("tasks"), std::string::npos);
  EXPECT_EQ(shown.err.back(), '\n');
  EXPECT_NE(shown.out.find("352"), std::string::npos);
  const CommandResult quiet = run_count({"--queens", "9", "--quiet"});
  EXPECT_EQ(quiet.status, 0);
  EXPECT_EQ(quiet.err, "");
  // Both at once is a contradiction, refused rather than one winning silently.
  const CommandResult both = run_count({"--queens", "9", "--progress", "--quiet"});
  EXPECT_EQ(both.status, 2);
  EXPECT_EQ(both.out, "");
}

}  // namespace
}  // namespace pcount::test
