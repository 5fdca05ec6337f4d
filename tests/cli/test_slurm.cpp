// The Slurm scripts (scripts/slurm/) end to end, with a stub `sbatch`
// (tests/support/slurm-stub/sbatch) that runs each array task here in turn
// from a spooled copy of the script, as Slurm does: the shards' results merge
// to the single run's total, the merge job writes the total, the joined
// profile and a scaling prediction, a missing shard is resubmitted by its
// index alone (docs/hpc.md's recipe), and a failing task fails the array.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/run_command.hpp"

namespace pcount::test {
namespace {

namespace fs = std::filesystem;

const std::string kSource = PCOUNT_SOURCE_DIR;

/// A fresh, empty folder for one test's results, removed at exit.
fs::path fresh_dir(const std::string& name) { return scratch_dir("pcount-slurm-" + name); }

/// Runs `script` in bash in `cwd` with the stub sbatch first in PATH,
/// PCOUNT_RESULTS=results and the extra `env` (NAME=VALUE); the scripts
/// name scripts/slurm/ through $S.
CommandResult shell(const fs::path& cwd, const fs::path& results, const std::vector<std::string>& env,
                    const std::string& script) {
  const char* path = std::getenv("PATH");
  std::vector<std::string> argv{"/usr/bin/env", "-u", "PCOUNT_COUNT", "-u", "PCOUNT_SHARDS",
                                "PATH=" + kSource + "/tests/support/slurm-stub:" + (path ? path : "/usr/bin:/bin"),
                                "PCOUNT_RESULTS=" + results.string(), "S=" + kSource + "/scripts/slurm"};
  argv.insert(argv.end(), env.begin(), env.end());
  argv.insert(argv.end(), {"/bin/bash", "-c", "cd '" + cwd.string() + "' || exit 99; " + script});
  return run_command(argv);
}

/// The environment of a submission of K shards with the program named.
std::vector<std::string> shards_env(int shards) {
  return {"PCOUNT_COUNT=" + std::string(PCOUNT_COUNT_EXE), "PCOUNT_SHARDS=" + std::to_string(shards)};
}

/// Submits the array of K shards of `job` and the merge job, as
/// docs/hpc.md shows, through the stub sbatch; returns the results folder.
fs::path submit(const std::string& name, const std::string& job, int shards) {
  const fs::path results = fresh_dir(name);
  const CommandResult r = shell(kSource, results, shards_env(shards),
                                "set -e; jid=$(sbatch --parsable --array=0-" + std::to_string(shards - 1) +
                                    " $S/count-array.sbatch " + job +
                                    "); sbatch --dependency=afterok:$jid $S/merge.sbatch >/dev/null");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  return results;
}

nlohmann::json single_run(const std::vector<std::string>& job) {
  std::vector<std::string> args = job;
  args.insert(args.end(), {"--json", "--threads", "2"});
  const CommandResult r = run_count(args);
  EXPECT_EQ(r.status, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(Slurm, AnArrayOfShardsMergesToTheSingleRunTotal) {
  const fs::path results = submit("queens", "--queens 10", 4);
  for (int i = 0; i < 4; ++i) {
    EXPECT_TRUE(fs::exists(results / ("shard-" + std::to_string(i) + ".json"))) << i;
    EXPECT_TRUE(fs::exists(results / ("shard-" + std::to_string(i) + ".checkpoint"))) << i;
  }
  const nlohmann::json total = nlohmann::json::parse(slurp((results / "total.json").string()));
  EXPECT_EQ(total["counts"]["all"], "724");  // Q(10), OEIS A000170
  const nlohmann::json single = single_run({"--queens", "10"});
  EXPECT_EQ(total["counts"], single["counts"]);
  EXPECT_EQ(total["tasks"], single["tasks"]);
  // Every task once in the joined profile (one header line).
  EXPECT_EQ(count_lines(slurp((results / "profile.csv").string())), single["tasks"].get<std::size_t>() + 1);
  EXPECT_NE(slurp((results / "total.txt").string()).find("724"), std::string::npos);
  EXPECT_NE(slurp((results / "scaling.txt").string()).find("speedup"), std::string::npos);
}

TEST(Slurm, ClassMethodShardsMergeToo) {
  const fs::path results = submit("latin", "--latin 7 --method classes", 3);
  const nlohmann::json total = nlohmann::json::parse(slurp((results / "total.json").string()));
  EXPECT_EQ(total["counts"]["reduced"], "16942080");  // R(7), OEIS A000315
  EXPECT_EQ(total["counts"], single_run({"--latin", "7", "--method", "classes"})["counts"]);
}

// docs/hpc.md's recipe: the merge job names the missing shard and fails;
// resubmitting that one index (an array of one task, with the same
// PCOUNT_SHARDS) and merging again gives the total.
TEST(Slurm, AMissingShardIsResubmittedByItsIndex) {
  const fs::path results = fresh_dir("retry");
  CommandResult r = shell(kSource, results, shards_env(4),
                          "sbatch --array=0,1,3 $S/count-array.sbatch --queens 10 && sbatch $S/merge.sbatch");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("missing shard 2 of 4"), std::string::npos) << r.err;
  r = shell(kSource, results, shards_env(4),
            "sbatch --array=2 $S/count-array.sbatch --queens 10 && sbatch $S/merge.sbatch");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(slurp((results / "total.json").string()))["counts"]["all"], "724");
}

// Real sbatch runs a spooled copy, so the scripts find count through
// SLURM_SUBMIT_DIR (build/count under the directory sbatch was called from)
// when PCOUNT_COUNT is not set.
TEST(Slurm, TheProgramIsFoundUnderTheSubmitDirectory) {
  const fs::path results = fresh_dir("submit-dir");
  const fs::path tree = results / "tree";
  fs::create_directories(tree / "build");
  fs::create_directories(tree / "scripts");
  fs::create_symlink(PCOUNT_COUNT_EXE, tree / "build" / "count");
  fs::create_symlink(kSource + "/scripts/simulate-scaling", tree / "scripts" / "simulate-scaling");
  const CommandResult r = shell(tree, results, {"PCOUNT_SHARDS=2"},
                                "sbatch --array=0-1 $S/count-array.sbatch --queens 8 && sbatch $S/merge.sbatch");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(slurp((results / "total.json").string()))["counts"]["all"], "92");
  EXPECT_NE(slurp((results / "scaling.txt").string()).find("speedup"), std::string::npos);
}

// A task that fails fails the whole submission (the stub's exit status is
// the first failing task's), with one line naming what is missing.
TEST(Slurm, AFailingTaskFailsTheArray) {
  struct Case {
    std::vector<std::string> env;
    std::string script;
    std::string names;
  };
  const std::string count = "PCOUNT_COUNT=" + std::string(PCOUNT_COUNT_EXE);
  const std::vector<Case> cases = {
      {{count}, "sbatch --array=0-1 $S/count-array.sbatch --queens 8", "PCOUNT_SHARDS is not set"},
      {{count, "PCOUNT_SHARDS=2"}, "sbatch $S/count-array.sbatch --queens 8", "SLURM_ARRAY_TASK_ID"},
      {{"PCOUNT_SHARDS=2"}, "sbatch --array=0-1 $S/count-array.sbatch --queens 8", "no program at"},
      {{count, "PCOUNT_SHARDS=2"}, "sbatch --array=0-1 $S/count-array.sbatch --queens 8 --bogus", "--bogus"},
      {{count, "PCOUNT_SHARDS=2"}, "sbatch --array=0-2 $S/count-array.sbatch --queens 8", "--shard"},
      {{"PCOUNT_COUNT=/nonexistent/count"}, "sbatch $S/merge.sbatch", "no program at"},
  };
  for (const Case& c : cases) {
    const fs::path results = fresh_dir("fail");
    const fs::path empty = results / "cwd";
    fs::create_directories(empty);
    const CommandResult r = shell(empty, results, c.env, c.script);
    EXPECT_EQ(r.status, 2) << c.script << "\n" << r.err;
    EXPECT_NE(r.err.find(c.names), std::string::npos) << c.script << "\n" << r.err;
  }
}

// The scaling prediction piped into head (which closes the pipe after a
// line, long before the 400 kB the script writes) ends quietly, as cat
// does, without a Python traceback.
TEST(Slurm, ScalingPredictionEndsQuietlyIntoHead) {
  const fs::path dir = fresh_dir("head");
  {
    std::ofstream csv(dir / "profile.csv");
    csv << "id,seconds,nodes\n";
    for (int i = 0; i < 100; ++i) csv << i << "," << 0.01 * (i + 1) << ",1\n";
  }
  const CommandResult r =
      shell(dir, dir, {},
            "python3 '" + kSource + "/scripts/simulate-scaling' $(for i in $(seq 5000); do echo --compare 2:1.5; done) "
            "profile.csv | head -1; echo \"status ${PIPESTATUS[0]}\"");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("tasks 100, total 50.500 s of work"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("status 141"), std::string::npos) << r.out;  // 128 + SIGPIPE
}

TEST(Slurm, LatinSquaresListTablesShardsAndMerge) {
  // scripts/slurm/latin-squares: the 4-regular 8+8 list as 5 genbg slices,
  // shard 0 building the tables, the other 3 shards, the merge: R(8).
  const fs::path results = fresh_dir("latin-squares");
  const CommandResult r = shell(kSource, results, {"PCOUNT_COUNT=" + std::string(PCOUNT_COUNT_EXE)},
                                "$S/latin-squares 8 '" + (results / "cache").string() + "' 5 4");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  for (int i = 0; i < 5; ++i)
    EXPECT_TRUE(fs::exists(results / "cache" / ("latin-classes-n8-d4.part-" + std::to_string(i) + "-of-5.txt"))) << i;
  EXPECT_TRUE(fs::exists(results / "list" / "shard-4.json"));
  const nlohmann::json total = nlohmann::json::parse(slurp((results / "total.json").string()));
  EXPECT_EQ(total["counts"]["reduced"], "535281401856");  // R(8), A000315
  EXPECT_EQ(total["shards"], 4);
  // Bad arguments: the usage, exit 2, nothing submitted.
  EXPECT_EQ(shell(kSource, results, {}, "$S/latin-squares 8").status, 2);
  EXPECT_EQ(shell(kSource, results, {}, "$S/latin-squares x cache").status, 2);
}

}  // namespace
}  // namespace pcount::test
