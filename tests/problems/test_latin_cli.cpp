// `count --latin`: output, --json, both methods, --rows, and every bad input
// (one line on stderr naming the argument, nothing on stdout, exit 2).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_command.hpp"

namespace pcount::test {
namespace {

namespace fs = std::filesystem;

/// A cache directory per test process, removed when it exits.
struct TempDir {
  fs::path path;
  TempDir() : path(fs::temp_directory_path() / ("pcount-latin-cli-" + std::to_string(::getpid()))) {
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string cache_dir() {
  static const TempDir dir;
  return dir.path.string();
}

nlohmann::json run_json(std::vector<std::string> args) {
  args.insert(args.end(), {"--json", "--cache-dir", cache_dir()});
  const CommandResult r = run_count(args);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(is_one_line(r.out)) << r.out;
  return nlohmann::json::parse(r.out);
}

TEST(LatinCli, SearchPrintsReducedAndAll) {
  const CommandResult r = run_count({"--latin", "7", "--threads", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("16942080"), std::string::npos);
  EXPECT_NE(r.out.find("61479419904000"), std::string::npos);
  EXPECT_NE(r.out.find("search"), std::string::npos);
}

TEST(LatinCli, JsonForBothMethods) {
  const auto s = run_json({"--latin", "6", "--method", "search", "--threads", "3", "--split-depth", "4"});
  EXPECT_EQ(s["problem"], "latin");
  EXPECT_EQ(s["method"], "search");
  EXPECT_EQ(s["counts"]["reduced"], "9408");
  EXPECT_EQ(s["counts"]["all"], "812851200");
  EXPECT_EQ(s["split_depth"], 4);
  // The search kernel splits its tasks while they run; the classes job does not.
  EXPECT_EQ(s["schedule"], "id-order, steal");
  EXPECT_TRUE(s["steals"].is_number_unsigned());
  const double share = s["largest_task_share"].get<double>();
  EXPECT_GT(share, 0.0);
  EXPECT_LE(share, 1.0);
  const auto c = run_json({"--latin", "6", "--method", "classes", "--threads", "2"});
  EXPECT_EQ(c["schedule"], "id-order, static");
  EXPECT_EQ(c["method"], "classes");
  EXPECT_EQ(c["counts"]["reduced"], "9408");
  EXPECT_TRUE(c["classes"].is_number_unsigned());
  EXPECT_TRUE(c["table_seconds"].is_number());
  // Classes is the default from N = 8.
  const auto eight = run_json({"--latin", "8", "--threads", "2"});
  EXPECT_EQ(eight["method"], "classes");
  EXPECT_EQ(eight["counts"]["reduced"], "535281401856");
  EXPECT_EQ(eight["counts"]["all"], "108776032459082956800");
  EXPECT_EQ(eight["params"]["n"], 8);
}

TEST(LatinCli, Rows) {
  const auto r = run_json({"--latin", "9", "--rows", "4", "--threads", "2"});
  EXPECT_EQ(r["counts"]["reduced"], "207624560256");
  EXPECT_EQ(r["params"]["rows"], 4);
  const auto s = run_json({"--latin", "7", "--rows", "3", "--method", "search"});
  EXPECT_EQ(s["counts"]["reduced"], "35792");
  const auto t = run_json({"--latin", "7", "--rows", "6", "--method", "classes"});
  EXPECT_EQ(t["counts"]["reduced"], "16942080");
  // R(4,11) = 143968880078466048 (OEIS A000573): 3-regular classes and the
  // fourth row by extension, as the report says; the same by 4-regular
  // classes for R(4,8) = 420909504.
  const auto u = run_json({"--latin", "11", "--rows", "4", "--threads", "2"});
  EXPECT_EQ(u["counts"]["reduced"], "143968880078466048");
  EXPECT_EQ(u["method"], "classes");
  EXPECT_EQ(u["class_degree"], 3);
  EXPECT_EQ(u["extension_rows"], 1);
  const auto v = run_json({"--latin", "8", "--rows", "4", "--class-degree", "4"});
  EXPECT_EQ(v["counts"]["reduced"], "420909504");
  EXPECT_EQ(v["extension_rows"], 0);
}

/// Writes each damaged content over the cache `file` and runs again: the
/// report's `from_cache` flag must be false, the counts those of `counts`,
/// and the file rewritten to `built`.
template <class Run>
void expect_each_damage_rebuilt(const std::string& file, const std::string& built,
                                const std::vector<std::pair<std::string, std::string>>& damages, Run run,
                                const std::string& from_cache, const nlohmann::json& counts) {
  for (const auto& [what, content] : damages) {
    {
      std::ofstream out(file, std::ios::binary | std::ios::trunc);
      out << content;
    }
    const auto again = run();
    EXPECT_EQ(again[from_cache], false) << what;
    EXPECT_EQ(again["counts"], counts) << what;
    EXPECT_EQ(slurp(file), built) << what;
  }
}

TEST(LatinCli, TheLookupTableIsCachedAndADamagedCacheIsRebuilt) {
  // 5×8 rectangles over the 5-regular classes (--class-degree 5) peel into
  // the 4-regular table, itself built from the 3-regular one: both are
  // cached beside the class lists.
  const std::string dir = cache_dir() + "/table-cache";
  const auto run = [&dir] {
    const CommandResult r = run_count({"--latin", "8", "--rows", "5", "--method", "classes", "--class-degree", "5",
                                       "--threads", "2", "--json", "--cache-dir", dir});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    return nlohmann::json::parse(r.out);
  };
  const auto cold = run();
  EXPECT_EQ(cold["counts"]["reduced"], "27206658048");  // R(5,8), McKay & Wanless (2005)
  EXPECT_EQ(cold["table_from_cache"], false);
  const std::string file = dir + "/latin-table-n8-d4.txt";
  const std::string built = slurp(file);
  ASSERT_NE(built.find("pcount latin table v1 version="), std::string::npos) << built.substr(0, 200);
  const auto warm = run();
  EXPECT_EQ(warm["table_from_cache"], true);
  EXPECT_EQ(warm["counts"], cold["counts"]);
  EXPECT_EQ(slurp(dir + "/latin-table-n8-d3.txt").empty(), false);

  // Each damage is detected: the table is rebuilt (same counts) and the file
  // rewritten whole.
  const std::size_t first_value = built.find('\n') + 1;
  std::string edited = built;
  edited[first_value] = edited[first_value] == '1' ? '2' : '1';  // one wrong N, checksum unchanged
  std::string other_version = built;
  other_version.replace(other_version.find("version="), 8, "version=0.0.0-other ");
  const std::vector<std::pair<std::string, std::string>> damages = {
      {"one value edited", edited},
      {"cut in the middle", built.substr(0, built.size() / 2)},
      {"no end line", built.substr(0, built.rfind("end "))},
      {"another version", other_version},
      {"something else", "not a table\n"},
      {"empty", ""},
  };
  expect_each_damage_rebuilt(file, built, damages, run, "table_from_cache", cold["counts"]);
}

TEST(LatinCli, TheComplementPairingIsCachedAndADamagedCacheIsRebuilt) {
  // Even-order squares pair each (n/2)-regular class with its complement's;
  // the pairing is cached beside the class lists and checked when read.
  const std::string dir = cache_dir() + "/complement-cache";
  fs::remove_all(dir);
  const auto run = [&dir] {
    const CommandResult r = run_count({"--latin", "8", "--method", "classes", "--json", "--cache-dir", dir});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    return nlohmann::json::parse(r.out);
  };
  const auto cold = run();
  EXPECT_EQ(cold["counts"]["reduced"], "535281401856");  // R(8), OEIS A000315
  EXPECT_EQ(cold["complements_from_cache"], false);
  const std::string file = dir + "/latin-complements-n8-d4.txt";
  const std::string built = slurp(file);
  ASSERT_EQ(built.rfind("pcount latin complements v1 version=", 0), 0u) << built.substr(0, 200);
  const auto warm = run();
  EXPECT_EQ(warm["complements_from_cache"], true);
  EXPECT_EQ(warm["counts"], cold["counts"]);

  // Swapping two index lines keeps every line well formed (the checksum
  // line catches it): rebuilt like a cut or foreign file.
  std::istringstream lines(built);
  std::vector<std::string> rows;
  for (std::string line; std::getline(lines, line);) rows.push_back(line);
  ASSERT_GE(rows.size(), 4u);
  std::string swapped;
  for (std::size_t i = 0; i < rows.size(); ++i)
    swapped += (i == 1 ? rows[2] : i == 2 ? rows[1] : rows[i]) + "\n";
  const std::vector<std::pair<std::string, std::string>> damages = {
      {"two indices swapped", swapped},
      {"cut in the middle", built.substr(0, built.size() / 2)},
      {"something else", "not a pairing\n"},
  };
  expect_each_damage_rebuilt(file, built, damages, run, "complements_from_cache", cold["counts"]);
}

TEST(LatinCli, ClassesResumeFromACheckpoint) {
  // R(10) is a multi-hour job: its tasks go through the engine's checkpoint
  // log. A finished log makes the rerun skip every task and print the same
  // exact count.
  const std::string log = cache_dir() + "/r8.ckpt";
  fs::remove(log);
  const auto first = run_json({"--latin", "8", "--checkpoint", log});
  const auto again = run_json({"--latin", "8", "--checkpoint", log});
  EXPECT_EQ(first["counts"]["reduced"], "535281401856");
  EXPECT_EQ(again["counts"], first["counts"]);
  EXPECT_EQ(again["tasks_resumed"], first["tasks"]);
  EXPECT_EQ(again["tasks_run"], 0);
}

TEST(LatinCli, ShardsMergeToTheWholeCount) {
  // Both methods split into shards run with different thread counts; `count
  // merge` prints the full report from the partial files.
  for (const std::string method : {"search", "classes"}) {
    std::vector<std::string> files;
    for (int i = 0; i < 3; ++i) {
      files.push_back(cache_dir() + "/l7-" + method + std::to_string(i) + ".json");
      const CommandResult r =
          run_count({"--latin", "7", "--method", method, "--shard", std::to_string(i) + "/3", "--out", files.back(),
                     "--threads", std::to_string(i + 1), "--cache-dir", cache_dir()});
      ASSERT_EQ(r.status, 0) << r.err;
    }
    std::vector<std::string> args{"merge", "--json"};
    args.insert(args.end(), files.begin(), files.end());
    const CommandResult m = run_count(args);
    ASSERT_EQ(m.status, 0) << m.err;
    const auto j = nlohmann::json::parse(m.out);
    EXPECT_EQ(j["counts"]["reduced"], "16942080") << method;
    EXPECT_EQ(j["method"], method);
  }
}

TEST(LatinCli, ClassListBuiltAsShardsOfGenbgSlices) {
  // The 4-regular 9+9 list as 7 genbg slices in two shards (a cluster's job
  // array): the parts merge into the list genbg gives whole, and R(9) is
  // counted from it.
  const auto run_in = [](const fs::path& dir, std::vector<std::string> args) {
    args.insert(args.end(), {"--json", "--cache-dir", dir.string()});
    const CommandResult r = run_count(args);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.status == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
  };
  const fs::path sliced = fs::path(cache_dir()) / "sliced";
  const fs::path whole = fs::path(cache_dir()) / "whole";
  fs::remove_all(sliced);
  fs::remove_all(whole);
  std::vector<std::string> files;
  std::size_t classes = 0;
  for (int i = 0; i < 2; ++i) {
    files.push_back(
        (fs::path(cache_dir()) / std::string("sliced-s").append(std::to_string(i)).append(".json")).string());
    const CommandResult r = run_count({"--latin", "9", "--build-classes", "4", "--slices", "7", "--shard",
                                       std::to_string(i) + "/2", "--json", "--out", files.back(), "--cache-dir",
                                       sliced.string(), "--threads", std::to_string(i + 1)});
    ASSERT_EQ(r.status, 0) << r.err;
    classes += std::stoull(nlohmann::json::parse(r.out)["partial_counts"]["classes"].get<std::string>());
  }
  const fs::path list = sliced / "latin-classes-n9-d4.txt";
  EXPECT_FALSE(fs::exists(list));  // shards print partial counts and merge nothing
  for (int res = 0; res < 7; ++res)
    EXPECT_TRUE(
        fs::exists(sliced / std::string("latin-classes-n9-d4.part-").append(std::to_string(res)).append("-of-7.txt")))
        << res;
  // A damaged part is rebuilt by a rerun, which keeps the valid ones.
  const fs::path part3 = sliced / "latin-classes-n9-d4.part-3-of-7.txt";
  write_file(part3, slurp(part3.string()).substr(0, 200));
  const auto rerun = run_in(sliced, {"--latin", "9", "--build-classes", "4", "--slices", "7"});
  EXPECT_EQ(rerun["counts"]["classes"], std::to_string(classes));
  EXPECT_EQ(rerun["list_file"], list.string());
  const CommandResult merged = run_count({"merge", "--json", files[0], files[1]});
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_EQ(nlohmann::json::parse(merged.out)["counts"]["classes"], std::to_string(classes));
  // The merged list is genbg's whole list, byte for byte, and R(9) follows.
  const auto r9 = run_in(sliced, {"--latin", "9"});
  EXPECT_EQ(r9["counts"]["reduced"], "377597570964258816");  // A000315
  (void)run_in(whole, {"--latin", "9"});
  EXPECT_EQ(slurp(list.string()), slurp((whole / "latin-classes-n9-d4.txt").string()));
}

TEST(LatinCli, BadInput) {
  expect_bad_input({
      {{"--latin", "0"}, "--latin"},
      {{"--latin", "17"}, "--latin"},
      {{"--latin", "x"}, "--latin"},
      {{"--latin", "12", "--method", "classes"}, "--method"},
      // R(11) runs by classes, within --memory-limit (its price: 6.4–11.7 GiB).
      {{"--latin", "11", "--memory-limit", "1G"}, "--memory-limit"},
      {{"--latin", "11", "--method", "classes", "--memory-limit", "4096M"}, "--memory-limit"},
      {{"--latin", "9", "--memory-limit", "1M"}, "--memory-limit"},
      {{"--latin", "9", "--memory-limit", "1000"}, "--memory-limit"},
      {{"--latin", "8", "--rows", "4", "--memory-limit", "8G"}, "--memory-limit"},
      {{"--latin", "7", "--method", "search", "--memory-limit", "8G"}, "--memory-limit"},
      {{"--latin", "7", "--list", "--memory-limit", "8G"}, "--memory-limit"},
      {{"--sudoku", "2x2", "--memory-limit", "1G"}, "--memory-limit"},
      {{"--latin", "8", "--build-classes", "0"}, "--build-classes"},
      {{"--latin", "8", "--build-classes", "5"}, "--build-classes"},
      {{"--latin", "12", "--build-classes", "3"}, "--latin"},
      {{"--latin", "8", "--build-classes", "3", "--slices", "0"}, "--slices"},
      {{"--latin", "8", "--build-classes", "3", "--rows", "4"}, "--rows"},
      {{"--latin", "8", "--build-classes", "3", "--method", "classes"}, "--method"},
      {{"--latin", "8", "--slices", "4"}, "--slices"},
      {{"--latin", "8", "--build-classes", "3", "--cache-dir", "/proc/pcount-no"}, "--cache-dir"},
      {{"--latin", "11", "--rows", "7", "--method", "classes"}, "--rows"},
      {{"--latin", "11", "--rows", "8", "--estimate", "60"}, "--rows"},  // refused, not priced
      {{"--latin", "9", "--rows", "6", "--class-degree", "3"}, "--class-degree"},
      {{"--latin", "9", "--rows", "6", "--class-degree", "7"}, "--class-degree"},
      {{"--latin", "9", "--class-degree", "3"}, "--class-degree"},
      {{"--latin", "9", "--rows", "4", "--class-degree", "x"}, "--class-degree"},
      {{"--latin", "6", "--rows", "4", "--method", "search", "--class-degree", "3"}, "--class-degree"},
      {{"--latin", "1", "--method", "classes"}, "--method"},
      {{"--latin", "5", "--method", "magic"}, "--method"},
      {{"--latin", "5", "--rows", "6"}, "--rows"},
      {{"--latin", "5", "--rows", "0"}, "--rows"},
      {{"--latin", "9", "--rows", "-1"}, "--rows"},
      {{"--latin", "9", "--rows"}, "--rows"},
      {{"--queens", "5", "--rows", "2"}, "--rows"},
      {{"--latin", "5", "--method", "classes", "--cache-dir", "/proc/pcount-no"}, "--cache-dir"},
      {{"--latin", "5", "--method", "classes", "--cache-dir", ""}, "--cache-dir"},
      {{"--latin", "8", "--split-depth", "2"}, "--split-depth"},
  });
}

TEST(LatinCli, MissingGenbgIsOneLineAndExit2) {
  // A fresh cache, so genbg must run; PCOUNT_GENBG names a missing program.
  const std::string empty_cache = cache_dir() + "/empty";
  std::filesystem::remove_all(empty_cache);
  ::setenv("PCOUNT_GENBG", "/nonexistent/nauty-genbg", 1);
  const CommandResult r = run_count({"--latin", "6", "--method", "classes", "--cache-dir", empty_cache});
  ::unsetenv("PCOUNT_GENBG");
  EXPECT_EQ(r.status, 2);
  // Refused before anything was cached: the directory is not made.
  EXPECT_FALSE(std::filesystem::exists(empty_cache));
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(is_one_line(r.err)) << r.err;
  EXPECT_NE(r.err.find("genbg"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.rfind("count: ", 0), 0u) << r.err;
  // The search method does not need it.
  ::setenv("PCOUNT_GENBG", "/nonexistent/nauty-genbg", 1);
  const CommandResult s = run_count({"--latin", "6", "--method", "search"});
  ::unsetenv("PCOUNT_GENBG");
  EXPECT_EQ(s.status, 0) << s.err;
}

TEST(LatinCli, OrderElevenSaysItsSetUpIsLongBeforeStartingIt) {
  // R(11) with nothing cached: a note names the set-up's size first; here
  // genbg is missing, so the run then stops with its one error line.
  const std::string empty_cache = cache_dir() + "/empty11";
  std::filesystem::remove_all(empty_cache);
  ::setenv("PCOUNT_GENBG", "/nonexistent/nauty-genbg", 1);
  const CommandResult r = run_count({"--latin", "11", "--cache-dir", empty_cache});
  const CommandResult quiet = run_count({"--latin", "11", "--cache-dir", empty_cache, "--quiet"});
  ::unsetenv("PCOUNT_GENBG");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.rfind("count: --latin 11: note: the set-up lists the 5-regular 11+11 classes", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("\ncount: --method: the classes method needs nauty's genbg"), std::string::npos) << r.err;
  EXPECT_EQ(quiet.status, 2);
  EXPECT_TRUE(is_one_line(quiet.err)) << quiet.err;
}

}  // namespace
}  // namespace pcount::test
