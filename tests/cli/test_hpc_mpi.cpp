// count-mpi under mpirun gives the single-process totals for one size of
// every problem, and its checkpoints and shards mix with single-process runs.
// Skipped when count-mpi was not built or mpirun is missing, unless the
// environment sets PCOUNT_REQUIRE_MPI=1 (CI does): then they fail.
// GCC 12: false -Wrestrict in inlined std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "support/run_command.hpp"

namespace pcount::test {
namespace {

#ifdef PCOUNT_COUNT_MPI_EXE
const char* const kMpiExe = PCOUNT_COUNT_MPI_EXE;
const char* const kMpirun = PCOUNT_MPIEXEC;
#else
const char* const kMpiExe = "";
const char* const kMpirun = "";
#endif

class HpcMpi : public ::testing::Test {
protected:
  void SetUp() override {
    const char* require = std::getenv("PCOUNT_REQUIRE_MPI");
    const bool required = require && std::string(require) == "1";
    std::string missing;
    if (std::string(kMpiExe).empty()) missing = "count-mpi was not built (no MPI found)";
    else if (std::string(kMpirun).empty() || access(kMpirun, X_OK) != 0) missing = "mpirun is missing";
    if (!missing.empty()) {
      if (required) FAIL() << missing << ", and PCOUNT_REQUIRE_MPI=1 requires the MPI tests";
      GTEST_SKIP() << missing;
    }
    // CI runs as root without a network: allow root, shared memory only.
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    setenv("OMPI_MCA_btl", "self,vader", 1);
    setenv("OMPI_MCA_plm_rsh_agent", "false", 1);  // never try ssh
  }
  void TearDown() override {
    for (const auto& f : files_) std::remove(f.c_str());
  }
  std::string file(const std::string& stem) {
    files_.push_back("/tmp/pcount-mpi-" + stem + "-" + std::to_string(::getpid()));
    std::remove(files_.back().c_str());
    return files_.back();
  }
  std::vector<std::string> files_;
};

CommandResult run_mpi(int ranks, const std::vector<std::string>& args) {
  // Open MPI's session directory under a base of this test process's own:
  // two mpiruns started at the same moment (ctest -j, other builds' tests)
  // otherwise race to create /tmp/ompi.<host>.<uid> and one fails.
  struct SessionBase {
    std::string dir = "/tmp/pcount-ompi-" + std::to_string(::getpid());
    SessionBase() { std::filesystem::create_directories(dir); }
    ~SessionBase() {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  };
  static const SessionBase session_base;
  std::vector<std::string> argv{kMpirun, "--oversubscribe", "--mca", "orte_tmpdir_base", session_base.dir,
                                "-np", std::to_string(ranks), kMpiExe};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv);
}

nlohmann::json parse(const CommandResult& r, const std::string& what) {
  EXPECT_EQ(r.status, 0) << what << "\n" << r.err;
  EXPECT_TRUE(is_one_line(r.out)) << what << "\n" << r.out;
  return nlohmann::json::parse(r.out, nullptr, false);
}

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& more) {
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

std::string shown(const std::vector<std::string>& args) {
  std::string s;
  for (const auto& a : args) s += a + " ";
  return s;
}

// One quick size of every problem (each method that runs tasks).
const std::vector<std::vector<std::string>> kProblems = {
    {"--queens", "10"},
    {"--queens", "10", "--method", "search", "--split-depth", "2"},
    {"--latin", "6"},
    {"--latin", "7", "--method", "classes"},
    {"--sudoku", "2x3"},
    {"--sudoku", "3x3"},
    {"--tictactoe"},
    {"--kirkman"},
    {"--bulls-and-cows"},
    {"--mastermind"},
    {"--puzzle", "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."},
};

TEST_F(HpcMpi, EstimatePrintsOnceForAllRanks) {
  // Rank 0 samples and prints; the prediction is for threads × ranks workers.
  const auto j = parse(run_mpi(2, {"--queens", "12", "--estimate", "0.3", "--threads", "1", "--json"}), "estimate");
  EXPECT_EQ(j["estimate"], true);
  EXPECT_EQ(j["processes"], 2);
  EXPECT_EQ(j["workers"].get<int>() % 2, 0);
  EXPECT_GT(j["wall_seconds_low"].get<double>(), 0.0);
  EXPECT_LE(j["wall_seconds_low"].get<double>(), j["wall_seconds_high"].get<double>());
}

TEST_F(HpcMpi, TwoRanksGiveTheSingleProcessCounts) {
  for (const auto& p : kProblems) {
    const auto args = with(p, {"--threads", "1", "--json"});
    const auto single = parse(run_count(args), shown(args));
    const auto mpi = parse(run_mpi(2, args), "mpi 2: " + shown(args));
    EXPECT_EQ(mpi["counts"], single["counts"]) << shown(args);
    EXPECT_EQ(mpi["tasks"], single["tasks"]) << shown(args);
  }
}

TEST_F(HpcMpi, ThreeRanksGiveTheSingleProcessCounts) {
  for (const auto& p : {kProblems[0], kProblems[1], kProblems[3], kProblems[5], kProblems[6]}) {
    const auto args = with(p, {"--threads", "2", "--json"});
    const auto single = parse(run_count(args), shown(args));
    const auto mpi = parse(run_mpi(3, args), "mpi 3: " + shown(args));
    EXPECT_EQ(mpi["counts"], single["counts"]) << shown(args);
    EXPECT_EQ(mpi["tasks_run"], single["tasks"]) << shown(args);  // every task ran once, job-wide
    EXPECT_EQ(mpi["ranks"], 3) << shown(args);
    EXPECT_FALSE(single.contains("ranks")) << shown(args);
    // The job's CPU time and memory are the ranks' (summed, the largest), reported as such.
    // A time is only checked to be a number here (its size depends on the machine).
    ASSERT_TRUE(mpi["cpu_seconds"].is_number()) << mpi;
    ASSERT_TRUE(mpi["max_rss_bytes"].is_number_unsigned()) << mpi;
    EXPECT_GT(mpi["max_rss_bytes"].get<std::uint64_t>(), 1u << 20) << shown(args);  // a process holds over 1 MiB
  }
}

// The schedule's figures are the job's, not rank 0's: the largest task's
// share of all ranks' nodes (the same as in one process: the tree task of
// split depth 0 against the two symmetric searches, whichever rank ran
// it), and the parts stolen summed over the ranks (each rank's threads
// steal inside its own tasks; how many is up to the threads' timing).
TEST_F(HpcMpi, ScheduleFiguresAreSummedOverTheRanks) {
  for (const char* threads : {"1", "2"}) {
    const std::vector<std::string> args = {"--queens", "11",        "--method", "search", "--split-depth",
                                           "0",        "--threads", threads,    "--json"};
    const auto single = parse(run_count(args), shown(args));
    const auto mpi = parse(run_mpi(2, args), "mpi 2: " + shown(args));
    EXPECT_EQ(mpi["counts"]["all"], "2680");
    EXPECT_EQ(mpi["nodes"], single["nodes"]);
    EXPECT_EQ(mpi["schedule"], single["schedule"]);
    const double share = single["largest_task_share"].get<double>();
    EXPECT_GT(share, 0.9);  // the tree task: all but the two symmetric searches
    EXPECT_NEAR(mpi["largest_task_share"].get<double>(), share, 1e-9 * share) << mpi;
    ASSERT_TRUE(mpi["steals"].is_number_unsigned()) << mpi;
    if (std::string(threads) == "1") {
      EXPECT_EQ(mpi["steals"], 0u);
    }
  }
}

TEST_F(HpcMpi, APuzzleFileIsRefusedWithAPointerToShards) {
  // Its lines are printed in order by one process; count-mpi says to use shards.
  const std::string f = file("puzzles");
  std::ofstream(f) << "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..\n";
  const CommandResult r = run_mpi(2, {"--puzzle-file", f, "--threads", "1"});
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("--puzzle-file: does not run under count-mpi"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--shard I/K"), std::string::npos) << r.err;
}

TEST_F(HpcMpi, AListingIsRefusedNamingList) {
  const CommandResult r = run_mpi(2, {"--queens", "8", "--list", "--threads", "1"});
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("--list: does not run under count-mpi"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("--queens:"), std::string::npos) << r.err;
}

TEST_F(HpcMpi, ShardsAndCheckpointsMixWithSingleProcessRuns) {
  const std::vector<std::string> job = {"--queens", "11", "--method", "search", "--split-depth", "2", "--threads", "1"};
  const std::string out0 = file("s0");
  const std::string out1 = file("s1");
  EXPECT_EQ(run_mpi(2, with(job, {"--shard", "0/2", "--out", out0})).status, 0);
  EXPECT_EQ(run_count(with(job, {"--shard", "1/2", "--out", out1})).status, 0);
  const auto merged = parse(run_count({"merge", "--json", out0, out1}), "merge");
  EXPECT_EQ(merged["counts"]["all"], "2680");

  // A run stopped at once (the stop file exists) and resumed on 3 ranks, then
  // its logs (FILE, FILE.rank<r>) read by a single process.
  const std::string ck = file("ck");
  const std::string stop = file("stop");
  std::ofstream(stop) << "";
  const CommandResult stopped = run_mpi(2, with(job, {"--checkpoint", ck, "--stop-file", stop}));
  EXPECT_EQ(stopped.status, 143) << stopped.err;
  EXPECT_EQ(stopped.out, "");
  std::remove(stop.c_str());
  const auto resumed = parse(run_mpi(3, with(job, {"--checkpoint", ck, "--json"})), "resume");
  EXPECT_EQ(resumed["counts"]["all"], "2680");
  for (const char* suffix : {".rank1", ".rank2"}) files_.push_back(ck + suffix);
  const auto again = parse(run_count(with(job, {"--checkpoint", ck, "--json"})), "single after mpi");
  EXPECT_EQ(again["counts"]["all"], "2680");
  EXPECT_EQ(again["tasks_resumed"], again["tasks"]);  // every rank's log was read
}

TEST_F(HpcMpi, InteractivePlayIsRefused) {
  // One game on a terminal is one process's: every rank refuses it at once
  // (it used to read EOF on rank 1 and exit 1).
  const CommandResult r = run_mpi(2, {"--bulls-and-cows", "--play"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("--play: plays one game in one process"), std::string::npos) << r.err;
}

TEST_F(HpcMpi, BadInputExits2WithOneMessage) {
  const CommandResult r = run_mpi(2, {"--queens", "99"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("count-mpi: --queens: "), std::string::npos) << r.err;  // its own name
}

// scripts/slurm/mpi.sbatch as Slurm runs it (the stub sbatch runs a spooled
// copy; the stub srun starts 2 ranks with mpirun): the total of 12-Queens
// (OEIS A000170: 14200; A002562: 1787), and a requeued job (the same
// submission again) resumes every task from the ranks' checkpoints.
TEST_F(HpcMpi, TheBatchScriptRunsUnderSrunAndARequeueResumes) {
  const std::string results = file("sbatch");
  const char* path = std::getenv("PATH");
  const std::string source = PCOUNT_SOURCE_DIR;
  const std::vector<std::string> submit = {
      "/usr/bin/env",
      "PATH=" + source + "/tests/support/slurm-stub:" + (path ? path : "/usr/bin:/bin"),
      "STUB_MPIEXEC=" + std::string(kMpirun),
      "PCOUNT_COUNT_MPI=" + std::string(kMpiExe),
      "PCOUNT_RESULTS=" + results,
      "sbatch",
      source + "/scripts/slurm/mpi.sbatch",
      "--queens",
      "12"};
  for (const char* tasks : {"tasks         8\n", "tasks         8, 8 from earlier runs\n"}) {
    const CommandResult r = run_command(submit);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string total = slurp(results + "/mpi-total.txt");
    EXPECT_NE(total.find("all           14200\n"), std::string::npos) << total;
    EXPECT_NE(total.find("distinct      1787\n"), std::string::npos) << total;
    EXPECT_NE(total.find("ranks         2\n"), std::string::npos) << total;
    EXPECT_NE(total.find(tasks), std::string::npos) << total;
  }
  std::filesystem::remove_all(results);
}

}  // namespace
}  // namespace pcount::test
