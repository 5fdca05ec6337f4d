// Long batch-run checks (ctest label `long`): a count killed with SIGKILL
// again and again at random moments, each time resumed from its checkpoint,
// still ends with the exact total, and no record once written is lost.
// GCC 12: false -Wrestrict in inlined std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
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

std::size_t records(const std::string& path) { return checkpoint_records(path); }

TEST(HpcLong, RepeatedSigkillsThenResumeGiveTheExactTotal) {
  // Q(16) = 14772512 (OEIS A000170), U(16) = 1846955 (A002562).
  const std::vector<std::string> job = {"--queens", "16", "--method", "search", "--split-depth", "4", "--threads", "2"};
  const std::string ck = "/tmp/pcount-long-hpc-" + std::to_string(::getpid());
  std::remove(ck.c_str());
  // Flush often enough that every round after the first half second leaves
  // records behind (the default period is 1 s).
  setenv("PCOUNT_CHECKPOINT_SECONDS", "0.2", 1);
  const std::uint32_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (PCOUNT_TEST_SEED)");
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> when(0.5, 3.0);
  std::vector<std::string> args = job;
  args.insert(args.end(), {"--checkpoint", ck});
  std::size_t before = 0;
  for (int round = 0; round < 6; ++round) {
    const pid_t pid = start_count(args);
    const double wait_s = when(rng);
    std::this_thread::sleep_for(std::chrono::duration<double>(wait_s));
    kill(pid, SIGKILL);
    (void)wait_status(pid);
    const std::size_t now = records(ck);
    EXPECT_GE(now, before) << "round " << round;  // nothing recorded is ever lost
    before = now;
  }
  args.emplace_back("--json");
  const CommandResult r = run_count(args);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["counts"]["all"], "14772512");
  EXPECT_EQ(j["counts"]["distinct"], "1846955");
  EXPECT_EQ(j["tasks_resumed"].get<std::size_t>(), before);
  EXPECT_GE(before, 1u);  // at least one kill came after a flushed record: something was resumed
  unsetenv("PCOUNT_CHECKPOINT_SECONDS");
  std::remove(ck.c_str());
}

}  // namespace
}  // namespace pcount::test
