// scripts/simulate-scaling --subtrees: the replay of work stealing inside
// tasks on a profile small enough to work out by hand, and a refusal of a
// finer profile that is not the same job.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/run_command.hpp"

namespace pcount::test {
namespace {

const std::string kScript = std::string(PCOUNT_SOURCE_DIR) + "/scripts/simulate-scaling";

/// Three tasks: task 0 (10 nodes) has two children of 5 and 4 nodes
/// (5 s and 4 s), task 1 (3 nodes, 3 s) is childless, task 2 (4 nodes)
/// has three children of 1 node (1 s each). 15 s of work in all.
constexpr const char* kCoarse = "id,seconds,nodes,all,resumed,position\n0,9,10,1,0,0\n1,3,3,1,0,1\n2,3,4,1,0,2\n";
constexpr const char* kFine =
    "id,seconds,nodes,all,resumed,position\n"
    "0,5,5,1,0,0\n1,4,4,0,0,1\n2,3,3,1,0,2\n3,1,1,0,0,3\n4,1,1,0,0,4\n5,1,1,1,0,5\n";

std::string write(const std::filesystem::path& dir, const std::string& name, const std::string& text) {
  const std::string path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}

// By hand, 4 workers: static, task 0 runs 9 s on one worker. Stealing:
// worker 0 takes task 0 and starts its 5 s subtree, worker 3 finds no task
// and takes the untried 4 s subtree: the run ends at 5 s (the largest
// subtree), 15 / 5 = 3.00, after one steal.
TEST(SimulateScaling, StealingReplaysSubtreesByHand) {
  const auto dir = scratch_dir("simulate-scaling");
  const CommandResult r = run_command(
      {kScript, "--subtrees", write(dir, "fine.csv", kFine), "--max-workers", "4", write(dir, "coarse.csv", kCoarse)});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("subtrees 6, largest subtree 5.0000 s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("     1      15.0000      1.00      15.0000      1.00        0\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("     4       9.0000      1.67       5.0000      3.00        1\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("speedup ≤ 3.0"), std::string::npos) << r.out;
  // --work nodes: the same shape (seconds equal nodes here up to one node per task).
  const CommandResult n = run_command({kScript, "--work", "nodes", "--subtrees", (dir / "fine.csv").string(),
                                       "--max-workers", "4", (dir / "coarse.csv").string()});
  ASSERT_EQ(n.status, 0) << n.err;
  EXPECT_NE(n.out.find("largest subtree 5.0000 s"), std::string::npos) << n.out;
}

TEST(SimulateScaling, AFinerProfileOfAnotherJobIsRefused) {
  const auto dir = scratch_dir("simulate-scaling-bad");
  const std::string wrong = "id,seconds,nodes,all,resumed,position\n0,5,5,1,0,0\n1,4,3,0,0,1\n";
  const CommandResult r =
      run_command({kScript, "--subtrees", write(dir, "fine.csv", wrong), write(dir, "coarse.csv", kCoarse)});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("do not add up to task 0"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace pcount::test
