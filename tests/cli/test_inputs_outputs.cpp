// Careless and hostile files: every output path is checked before any work,
// collisions are refused, damaged checkpoints say so, reads are bounded,
// shard files are range-checked, and count merge runs nothing a file names.

// GCC 12 reports a false -Wrestrict inside inlined std::string concatenation
// (GCC bug 105329); the code is correct, so the warning is off for this file.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/run_command.hpp"
#include "support/shard_files.hpp"

namespace pcount {
namespace {

namespace fs = std::filesystem;
using test::BadInputCase;
using test::expect_bad_input;
using test::is_one_line;
using test::run_count;
using test::slurp;

/// A fresh empty directory for one test.
fs::path scratch(const std::string& name) { return test::scratch_dir("pcount-io-" + name); }

TEST(InputsOutputs, EveryOutputIsCheckedBeforeAnyWork) {
  // --queens 18 takes tens of CPU-seconds: each refusal below comes from
  // the check before the run (the stop file would end the run otherwise).
  const fs::path dir = scratch("fail-fast");
  const std::string d = dir.string();
  const std::vector<std::string> long_job{"--queens", "18"};
  std::vector<BadInputCase> cases;
  for (const std::string option : {"--out", "--profile", "--checkpoint", "--svg"}) {
    std::vector<std::string> a = long_job;
    a.insert(a.end(), {option, "/proc/x/y"});
    cases.push_back({a, option + ": /proc/x/y: cannot be created: No such file or directory"});
    a = long_job;
    a.insert(a.end(), {option, d});
    cases.push_back({a, option + ": " + d + ": is a directory, expected a file"});
  }
  cases.push_back({{"--queens", "18", "--out", "/dev/null"}, "--out: /dev/null: is not a regular file"});
  cases.push_back({{"--queens", "18", "--checkpoint", "/dev/null"}, "--checkpoint: /dev/null: is not a regular file"});
  cases.push_back({{"--latin", "9", "--cache-dir", "/dev/null"}, "--cache-dir: /dev/null: is not a directory"});
  expect_bad_input(cases);
  EXPECT_TRUE(fs::is_empty(dir)) << "a refused run left files behind";
}

TEST(InputsOutputs, TwoOptionsNamingOneFileAreRefused) {
  const fs::path dir = scratch("collisions");
  const std::string f = (dir / "f").string();
  const std::string same = (dir / "." / "f").string();  // another spelling of the same path
  const std::string puzzles = (dir / "puzzles.txt").string();
  test::write_file(puzzles, std::string(81, '.') + "\n");
  expect_bad_input({
      {{"--queens", "9", "--checkpoint", f, "--out", same}, "--checkpoint, --out: both name"},
      {{"--queens", "9", "--checkpoint", f, "--profile", f}, "--checkpoint, --profile: both name"},
      {{"--queens", "9", "--out", f, "--svg", same}, "--out, --svg: both name"},
      {{"--queens", "9", "--checkpoint", f, "--stop-file", f}, "--checkpoint, --stop-file: both name"},
      {{"--puzzle-file", puzzles, "--profile", puzzles}, "--profile, --puzzle-file: both name"},
  });
  EXPECT_FALSE(fs::exists(f));
  EXPECT_EQ(slurp(puzzles), std::string(81, '.') + "\n") << "the input was not touched";
}

TEST(InputsOutputs, DamagedCheckpointHeadersSayDamagedAndHowToStartAfresh) {
  const fs::path dir = scratch("damaged");
  const std::string ckpt = (dir / "q.ckpt").string();
  ASSERT_EQ(run_count({"--queens", "9", "--checkpoint", ckpt, "--quiet"}).status, 0);
  const std::string good = slurp(ckpt);
  const auto header_end = good.find("\ncounters");
  ASSERT_NE(header_end, std::string::npos);

  test::write_file(ckpt, good.substr(0, good.find("fingerprint") + 14));  // cut inside the fingerprint line
  expect_bad_input({{{"--queens", "9", "--checkpoint", ckpt}, "damaged: its header is incomplete; remove it"}});
  std::string garbled = good;
  garbled.replace(garbled.find("fingerprint ") + 12, 7, "pc#@!x ");
  test::write_file(ckpt, garbled);
  expect_bad_input({{{"--queens", "9", "--checkpoint", ckpt}, "damaged: its fingerprint line is garbled"}});
  std::string crlf;
  for (char c : good) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  test::write_file(ckpt, crlf);
  const auto r = run_count({"--queens", "9", "--checkpoint", ckpt});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("CR LF"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << "no stray carriage return in the message";
  // A whole header of another job keeps its own message.
  test::write_file(ckpt, good);
  expect_bad_input({{{"--queens", "10", "--checkpoint", ckpt}, "written by another job"}});
}

TEST(InputsOutputs, APuzzleFileWithoutLineEndsIsReadInBoundedMemory) {
  const auto zero = run_count({"--puzzle-file", "/dev/zero", "--threads", "1"});
  EXPECT_EQ(zero.status, 1);
  EXPECT_EQ(zero.out, "");
  EXPECT_NE(zero.err.find("count: --puzzle-file: line 1: longer than 4096 characters"), std::string::npos) << zero.err;

  // The lines before an overlong one are solved and printed in order.
  const fs::path dir = scratch("long-line");
  const std::string ai_escargot = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..";
  test::write_file(dir / "p.txt", ai_escargot + "\n" + std::string(5000, '1') + "\n" + ai_escargot + "\n");
  const auto r = run_count({"--puzzle-file", (dir / "p.txt").string(), "--threads", "1"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out.rfind("1 1 ", 0), 0u) << r.out;
  EXPECT_TRUE(is_one_line(r.out)) << "reading stopped at line 2: " << r.out;
  EXPECT_NE(r.err.find("line 2: longer than 4096 characters"), std::string::npos) << r.err;
}

/// Writes shard 0/2 and 1/2 of `--queens 8` into `dir` and returns their JSON.
std::vector<nlohmann::json> two_shards(const fs::path& dir) {
  std::vector<nlohmann::json> shards;
  for (const std::string i : {"0", "1"}) {
    const std::string f = (dir / ("s" + i + ".json")).string();
    EXPECT_EQ(run_count({"--queens", "8", "--shard", i + "/2", "--out", f, "--quiet"}).status, 0);
    shards.push_back(nlohmann::json::parse(slurp(f)));
  }
  return shards;
}

TEST(InputsOutputs, ShardFileNumbersAreTypeAndRangeCheckedBeforeUse) {
  const fs::path dir = scratch("shard-numbers");
  const auto shards = two_shards(dir);
  struct Case {
    std::string what;
    std::function<void(nlohmann::json&)> edit;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"float task id", [](nlohmann::json& j) { j["tasks"][0][0] = 5e35; }, "a task id must be a whole number"},
      {"negative task id", [](nlohmann::json& j) { j["tasks"][0][0] = -2; }, "a task id must be a whole number"},
      {"float shard count", [](nlohmann::json& j) { j["shard"]["count"] = 1e18; }, "shard count must be a whole number"},
      {"huge shard count", [](nlohmann::json& j) { j["shard"]["count"] = 1000000000000ull; },
       "shard count must be at most 1000000"},
      {"huge task count", [](nlohmann::json& j) { j["task_count"] = 1ull << 62; }, "task_count must be at most"},
      {"string task count", [](nlohmann::json& j) { j["task_count"] = "738"; }, "task_count must be a whole number"},
      {"negative seconds", [](nlohmann::json& j) { j["tasks"][0][1] = -1.0; }, "must be a number of seconds"},
  };
  for (const Case& c : cases) {
    nlohmann::json j = shards[0];
    c.edit(j);
    const fs::path f = dir / "edited.json";
    test::write_file(f, j.dump());
    const auto r = run_count({"merge", f.string(), (dir / "s1.json").string()});
    EXPECT_EQ(r.status, 1) << c.what;
    EXPECT_EQ(r.out, "") << c.what;
    EXPECT_TRUE(is_one_line(r.err)) << c.what << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.what << ": " << r.err;
  }
}

TEST(InputsOutputs, ManyMissingShardsGiveOneShortLine) {
  const fs::path dir = scratch("missing");
  const std::string f = (dir / "s.json").string();
  ASSERT_EQ(run_count({"--queens", "6", "--shard", "0/1000000", "--out", f, "--quiet"}).status, 0);
  const auto r = run_count({"merge", f});
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(is_one_line(r.err)) << r.err;
  EXPECT_LT(r.err.size(), 300u) << r.err;
  EXPECT_NE(r.err.find("missing shards 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 999989 more of 1000000"),
            std::string::npos)
      << r.err;
}

TEST(InputsOutputs, MergeRunsNothingThatAShardFileNames) {
  const fs::path dir = scratch("merge-command");
  auto shards = two_shards(dir);
  const std::vector<std::string> planted = {"--svg",     (dir / "evil.svg").string(),  "--out",
                                            (dir / "evil.json").string(), "--profile", (dir / "evil.csv").string(),
                                            "--checkpoint", (dir / "evil.ckpt").string(), "--cache-dir",
                                            (dir / "evil-cache").string(), "--stop-file", (dir / "evil-stop").string(),
                                            "--show", "3"};
  for (std::size_t i = 0; i < 2; ++i) {
    for (const auto& a : planted) shards[i]["command"].push_back(a);
    test::write_file(dir / ("p" + std::to_string(i) + ".json"), test::shard_text(shards[i]));
  }
  const auto r = run_count({"merge", (dir / "p0.json").string(), (dir / "p1.json").string(), "--json"});
  EXPECT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["counts"]["all"], "92");  // OEIS A000170
  EXPECT_EQ(j["counts"]["distinct"], "12");  // OEIS A002562
  for (const std::string name : {"evil.svg", "evil.json", "evil.csv", "evil.ckpt", "evil-cache", "evil-stop"})
    EXPECT_FALSE(fs::exists(dir / name)) << name << " was created by merge";
  EXPECT_TRUE(is_one_line(r.err)) << r.err;
  for (const std::string option : {"--svg", "--out", "--profile", "--checkpoint", "--cache-dir", "--stop-file", "--show"})
    EXPECT_NE(r.err.find(option), std::string::npos) << option << " not reported as ignored: " << r.err;
}

TEST(InputsOutputs, MergeKeepsOnlyTheJobFromAFilesCommand) {
  const fs::path dir = scratch("merge-allow-list");
  auto shard = two_shards(dir);
  const std::string a = (dir / "a.json").string(), b = (dir / "b.json").string();
  // A command that would make merge call itself on the file (endless
  // recursion before the allow-list) and control characters meant for the
  // terminal: merge refuses the first and prints the second escaped.
  shard[0]["command"] = {"merge", a};
  test::write_file(a, test::shard_text(shard[0]));
  test::write_file(b, test::shard_text(shard[1]));
  const auto r = run_count({"merge", a, b});
  EXPECT_TRUE(r.status == 1 || r.status == 2) << r.status << ": " << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("its command 'merge ...' names no problem of count"), std::string::npos) << r.err;

  for (auto& s : shard) s["command"] = {"--queens", "8", "-qh", "--svg", "x\n\x1b[31mred"};
  test::write_file(a, test::shard_text(shard[0]));
  test::write_file(b, test::shard_text(shard[1]));
  const auto e = run_count({"merge", a, b});
  EXPECT_EQ(e.status, 0) << e.err;
  EXPECT_NE(e.out.find("92"), std::string::npos) << e.out;  // OEIS A000170
  EXPECT_TRUE(is_one_line(e.err)) << e.err;
  EXPECT_EQ(e.err.find('\x1b'), std::string::npos) << "escape sequence passed to the terminal";
  EXPECT_NE(e.err.find("-qh, --svg x\\x0a\\x1b[31mred"), std::string::npos) << e.err;
}

TEST(InputsOutputs, CheckingAnOutputTouchesNoExistingFile) {
  const fs::path dir = scratch("probe");
  test::write_file(dir / "r.json.tmp", "precious");
  test::write_file(dir / "run.tmp", "an earlier result");
  ASSERT_EQ(run_count({"--queens", "6", "--out", (dir / "r.json").string(), "--quiet"}).status, 0);
  ASSERT_EQ(run_count({"--queens", "6", "--checkpoint", (dir / "run").string(), "--quiet"}).status, 0);
  EXPECT_EQ(slurp(dir / "r.json.tmp"), "precious");
  EXPECT_EQ(slurp(dir / "run.tmp"), "an earlier result");
}

TEST(InputsOutputs, EmptyOrCutFirstLineCheckpointsAreDamaged) {
  const fs::path dir = scratch("first-line");
  const std::string ckpt = (dir / "t.ckpt").string();
  for (const std::string text : {"", "# pcount che"}) {
    test::write_file(ckpt, text);
    expect_bad_input({{{"--queens", "6", "--checkpoint", ckpt}, "damaged: its header is incomplete; remove it"}});
  }
  test::write_file(ckpt, "something else\n");
  expect_bad_input({{{"--queens", "6", "--checkpoint", ckpt}, "not a pcount checkpoint file"}});
}

TEST(InputsOutputs, MergeReadsNoDeviceOrEndlessStream) {
  const auto r = run_count({"merge", "/dev/zero"});
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(is_one_line(r.err)) << r.err;
  EXPECT_NE(r.err.find("/dev/zero: is not a regular file"), std::string::npos) << r.err;
}

TEST(InputsOutputs, MergeOfADirectoryNamesIt) {
  const fs::path dir = scratch("merge-dir");
  const auto r = run_count({"merge", dir.string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(is_one_line(r.err)) << r.err;
  EXPECT_NE(r.err.find("count: merge: " + dir.string() + ": is a directory"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace pcount
