// count merge reports the job from the shard files: the shards' CPU seconds
// summed, the longest shard wall, the largest peak RSS and the number of
// shards, never its own; and shard files without those figures (format 1
// and 2) are refused with a clear message.

// GCC 12 reports a false -Wrestrict inside inlined std::string concatenation
// (GCC bug 105329); the warning is off here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "support/run_command.hpp"
#include "support/shard_files.hpp"

namespace pcount::test {
namespace {

namespace fs = std::filesystem;

class MergeReport : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("pcount-merge-report-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    for (int i = 0; i < 3; ++i) {
      const std::string out = (dir_ / ("q" + std::to_string(i) + ".json")).string();
      const CommandResult s = run_count({"--queens", "10", "--method", "search", "--shard", std::to_string(i) + "/3",
                                         "--out", out, "--quiet", "--threads", "1"});
      ASSERT_EQ(s.status, 0) << s.err;
      files_.push_back(out);
    }
  }
  void TearDown() override { fs::remove_all(dir_); }

  nlohmann::json shard(int i) const { return nlohmann::json::parse(slurp(files_[static_cast<std::size_t>(i)])); }
  void rewrite(int i, const nlohmann::json& j) const { write_file(files_[static_cast<std::size_t>(i)], shard_text(j)); }
  nlohmann::json merged_json() const {
    std::vector<std::string> args{"merge", "--json"};
    args.insert(args.end(), files_.begin(), files_.end());
    const CommandResult m = run_count(args);
    EXPECT_EQ(m.status, 0) << m.err;
    return nlohmann::json::parse(m.out);
  }

  fs::path dir_;
  std::vector<std::string> files_;
};

TEST_F(MergeReport, ShardFilesKeepTheirProcessCpuAndMemory) {
  for (int i = 0; i < 3; ++i) {
    const nlohmann::json j = shard(i);
    EXPECT_EQ(j["format_version"], 3);
    // A time is only checked to be a number (its size depends on the machine;
    // JsonSchema holds a shard's to the schema's minimum of 0).
    ASSERT_TRUE(j["cpu_seconds"].is_number()) << j.dump().substr(0, 300);
    ASSERT_TRUE(j["max_rss_bytes"].is_number_unsigned());
    EXPECT_GT(j["max_rss_bytes"].get<std::uint64_t>(), 1u << 20);  // a running count holds over 1 MiB
  }
}

TEST_F(MergeReport, TheJobsFiguresAreTheShards) {
  // Figures no merge process could have of its own: 7 GiB of memory and
  // hours of CPU, written into the files (with matching digests).
  const std::uint64_t big = std::uint64_t{7} << 30;
  const double cpu[3] = {3600.25, 7200.5, 1800.125};
  const double wall[3] = {900.0, 2700.5, 450.0};
  for (int i = 0; i < 3; ++i) {
    nlohmann::json j = shard(i);
    j["cpu_seconds"] = cpu[i];
    j["wall_seconds"] = wall[i];
    j["max_rss_bytes"] = i == 1 ? big : std::uint64_t{5} << 20;
    rewrite(i, j);
  }
  const nlohmann::json m = merged_json();
  EXPECT_EQ(m["report"], "merge");
  EXPECT_DOUBLE_EQ(m["cpu_seconds"].get<double>(), 3600.25 + 7200.5 + 1800.125);
  EXPECT_DOUBLE_EQ(m["wall_seconds"].get<double>(), 2700.5);  // the longest shard
  EXPECT_EQ(m["max_rss_bytes"].get<std::uint64_t>(), big);    // the largest shard
  EXPECT_EQ(m["shards"], 3);
  EXPECT_EQ(m["threads"], 1);
  EXPECT_EQ(m["counts"]["all"], "724");  // Q(10), OEIS A000170

  std::vector<std::string> args{"merge"};
  args.insert(args.end(), files_.begin(), files_.end());
  const CommandResult text = run_count(args);
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("\nshards        3\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("\nwall          2700.500 s (the longest shard)\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("\ncpu           12600.875 s (summed over the shards)\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("\nmax RSS       7168.0 MiB (the largest shard)\n"), std::string::npos) << text.out;

  args.insert(args.begin() + 1, "--raw");  // the raw counters carry the same figures
  const CommandResult raw = run_count(args);
  ASSERT_EQ(raw.status, 0) << raw.err;
  EXPECT_NE(raw.out.find("\ncpu           12600.875 s (summed over the shards)\n"), std::string::npos) << raw.out;
}

TEST_F(MergeReport, OlderShardFilesAreRefusedClearly) {
  nlohmann::json j = shard(0);
  j["format_version"] = 1;
  j.erase("cpu_seconds");
  j.erase("max_rss_bytes");
  rewrite(0, j);
  std::vector<std::string> args{"merge"};
  args.insert(args.end(), files_.begin(), files_.end());
  const CommandResult m = run_count(args);
  EXPECT_EQ(m.status, 1);
  EXPECT_EQ(m.out, "");
  EXPECT_TRUE(is_one_line(m.err)) << m.err;
  EXPECT_NE(m.err.find(files_[0] + ": format_version 1 was written by an older pcount, without the shard's CPU "
                                   "time and memory; run the shard again"),
            std::string::npos)
      << m.err;
}

}  // namespace
}  // namespace pcount::test
