// The Slurm scripts (scripts/slurm/) end to end, with a stub `sbatch`
// (tests/support/slurm-stub/sbatch) that runs each array task here in turn:
// the shards' results merge to the single run's total, and the merge job
// writes the total, the joined profile and a scaling prediction.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "support/run_command.hpp"

namespace pcount::test {
namespace {

namespace fs = std::filesystem;

const std::string kSource = PCOUNT_SOURCE_DIR;

/// Submits the array of K shards of `job` and the merge job, as
/// docs/hpc.md shows, through the stub sbatch; returns the results folder.
fs::path submit(const std::string& name, const std::string& job, int shards) {
  const fs::path results = fs::path(::testing::TempDir()) / ("pcount-slurm-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(results);
  const std::string script = "set -e; cd '" + kSource + "'; "
                             "jid=$(sbatch --parsable --array=0-" + std::to_string(shards - 1) +
                             " scripts/slurm/count-array.sbatch " + job + "); "
                             "sbatch --dependency=afterok:$jid scripts/slurm/merge.sbatch >/dev/null";
  const char* path = std::getenv("PATH");
  const CommandResult r = run_command({"/usr/bin/env", "PATH=" + kSource + "/tests/support/slurm-stub:" +
                                                           (path ? path : "/usr/bin:/bin"),
                                       "PCOUNT_COUNT=" + std::string(PCOUNT_COUNT_EXE),
                                       "PCOUNT_RESULTS=" + results.string(), "/bin/bash", "-c", script});
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
  EXPECT_FALSE(slurp((results / "scaling.txt").string()).empty());
  fs::remove_all(results);
}

TEST(Slurm, ClassMethodShardsMergeToo) {
  const fs::path results = submit("latin", "--latin 7 --method classes", 3);
  const nlohmann::json total = nlohmann::json::parse(slurp((results / "total.json").string()));
  EXPECT_EQ(total["counts"]["reduced"], "16942080");  // R(7), OEIS A000315
  EXPECT_EQ(total["counts"], single_run({"--latin", "7", "--method", "classes"})["counts"]);
  fs::remove_all(results);
}

}  // namespace
}  // namespace pcount::test
