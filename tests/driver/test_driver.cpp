// driver::main with a problem that is not part of `count`: a program of one
// toy problem (words over k letters with no two equal neighbours, k·(k-1)^(L-1)
// of them) gets threads, --json, shards with merge, checkpoints and the
// option-naming of library errors from the driver alone.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "pcount/driver/program.hpp"
#include "pcount/engine/tree.hpp"
#include "support/toy_tree.hpp"

namespace pcount::driver {
namespace {

void add_words_options(po::options_description& d) {
  d.add_options()("letters", po::value<std::string>()->value_name("K"), "alphabet size K, 2 ≤ K ≤ 9; default 4");
}

/// The library side: names its parameter, not an option.
std::shared_ptr<const test::NoRepeatWords> make_words(int letters, int length) {
  if (letters < 2 || letters > 9) throw InvalidArgument("letters", "expected 2 to 9 letters");
  return std::make_shared<const test::NoRepeatWords>(test::NoRepeatWords{letters, length});
}

Plan plan_words(const Invocation& inv) {
  const int length = static_cast<int>(parse_int("--words", *inv.value("words"), 1, 20));
  int letters = 4;
  if (auto k = inv.value("letters")) letters = std::stoi(*k);  // range checked by make_words
  auto tree = make_words(letters, length);
  const int depth = inv.common.split_depth.value_or(engine::auto_split_depth(*tree, auto_split_min_tasks(inv)));
  Plan plan;
  plan.job = engine::make_tree_job(tree, depth, Fingerprint("words").add("k", letters).add("length", length),
                                   {"words", "ending_in_0"});
  plan.report = [](const engine::RunResult& r) {
    Report report;
    report.problem = "words";
    report.title = "words with no two equal neighbours";
    report.method = "search";
    report.counts = {{"words", to_string(r.totals.counts[0])}, {"ending_in_0", to_string(r.totals.counts[1])}};
    return report;
  };
  return plan;
}

/// The words job with its parameters declared through Params; `forget`
/// leaves the alphabet out of a fingerprint written by hand, the mistake
/// the driver's check is there for (two alphabets would share shards).
Plan declared_words(const Invocation& inv, const std::string& option, bool forget) {
  Params params(inv);
  const int length = static_cast<int>(params.integer(option, "length", 1, 20));
  const int letters = static_cast<int>(params.integer("--letters", "k", 2, 9, 4));
  const std::string method = params.method({"search"}, "search");
  auto tree = make_words(letters, length);
  const Fingerprint fingerprint =
      forget ? Fingerprint("words").add("length", length).add("method", method) : params.fingerprint("words");
  Plan plan;
  plan.job = engine::make_tree_job(tree, 2, fingerprint, {"words", "ending_in_0"});
  plan.report = [](const engine::RunResult& r) {
    return Report{.problem = "words", .counts = {{"words", to_string(r.totals.counts[0])}}};
  };
  return plan;
}
Plan plan_declared(const Invocation& inv) { return declared_words(inv, "--declared", false); }
Plan plan_forgetful(const Invocation& inv) { return declared_words(inv, "--forgetful", true); }

constexpr ParameterOption kParameters[] = {{"letters", "--letters"}};
const Problem kProblems[] = {
    {.option = "words",
     .value_name = "L",
     .help = "words of length L",
     .group = "words",
     .add_options = add_words_options,
     .methods = "search",
     .plan = plan_words,
     .parameters = kParameters},
    {.option = "declared", .value_name = "L", .help = "words, by Params", .group = "words", .plan = plan_declared},
    {.option = "forgetful", .value_name = "L", .help = "words, k left out", .group = "words", .plan = plan_forgetful},
};
const Program kProgram{"words", "Counts words", kProblems};

struct Result {
  int status;
  std::string out, err;
};

Result run(std::vector<std::string> args) {
  args.insert(args.begin(), "words");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  const int status = main(static_cast<int>(argv.size()), argv.data(), kProgram, out, err);
  return {status, out.str(), err.str()};
}

std::string words_of(const Result& r) { return nlohmann::json::parse(r.out)["counts"]["words"]; }

// The builder names each parameter once and writes it as " name=value"
// after the version prefix; a mode without value is a bare word.
TEST(Driver, FingerprintNamesEachParameterOnce) {
  const std::string built =
      Fingerprint("latin").add("n", 7).add("rows", std::size_t{5}).add("method", "search").flag("list-rectangles");
  EXPECT_EQ(built, fingerprint_prefix() + "latin n=7 rows=5 method=search list-rectangles");
  EXPECT_EQ(fingerprint_prefix().rfind("pcount/", 0), 0u);
  EXPECT_NE(Fingerprint("latin").add("n", 7).str(), Fingerprint("latin").add("n", 8).str());
  // A parameter reads back by name (merge replays shards without their input).
  EXPECT_EQ(engine::fingerprint_field(built, "rows"), "5");
  EXPECT_EQ(engine::fingerprint_field(built, "method"), "search");
  EXPECT_EQ(engine::fingerprint_field(built, "list-rectangles"), std::nullopt);
  EXPECT_EQ(engine::fingerprint_field(built, "row"), std::nullopt);
  EXPECT_EQ(engine::fingerprint_field(Fingerprint("x").add("lines", 12).add("input", "h").str(), "lines"), "12");
}

// A parameter declared once is parsed, checked and written into the
// fingerprint in declaration order; one parsed through Params but left out
// of a fingerprint written by hand is refused before any work.
TEST(Driver, DeclaredParametersEnterTheFingerprint) {
  const auto out = std::filesystem::temp_directory_path() / ("pcount-params-" + std::to_string(::getpid()) + ".json");
  const Result r = run({"--declared", "6", "--letters", "3", "--shard", "0/2", "--out", out.string(), "--quiet"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream in(out);
  const std::string fingerprint = nlohmann::json::parse(in)["fingerprint"];
  std::filesystem::remove(out);
  EXPECT_EQ(fingerprint, fingerprint_prefix() + "words length=6 k=3 method=search split=2");

  const Result bad = run({"--declared", "0"});  // parsed by the declaration: exit 2, the option named
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.err, "words: --declared: expected a whole number from 1 to 20, got 0\n");
  const Result method = run({"--declared", "3", "--method", "classes"});
  EXPECT_EQ(method.status, 2);
  EXPECT_NE(method.err.find("--method: 'classes' does not apply here; allowed: search"), std::string::npos);

  const Result forgot = run({"--forgetful", "6", "--letters", "3", "--json"});
  EXPECT_EQ(forgot.status, 1);
  EXPECT_TRUE(forgot.out.empty()) << forgot.out;
  EXPECT_NE(forgot.err.find("lacks the declared parameter k=3"), std::string::npos) << forgot.err;
}

TEST(Driver, OwnProgramCountsWithAnyThreads) {
  for (const char* threads : {"1", "2", "7"}) {
    const Result r = run({"--words", "9", "--threads", threads, "--json", "--quiet"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(words_of(r), std::to_string(4 * 6561));  // 4·3^8
    EXPECT_EQ(nlohmann::json::parse(r.out)["counts"]["ending_in_0"], std::to_string(6561));  // 1/4 by symmetry
  }
  const Result text = run({"--words", "3", "--letters", "5", "--quiet"});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("words         80\n"), std::string::npos) << text.out;  // 5·4·4
}

TEST(Driver, ShardsMergeAndCheckpointsResume) {
  const auto dir = std::filesystem::temp_directory_path() / ("pcount-driver-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::vector<std::string> merge_args{"merge", "--json"};
  for (int i = 0; i < 3; ++i) {
    const std::string out = (dir / ("shard" + std::to_string(i) + ".json")).string();
    const Result r = run({"--words", "10", "--shard", std::to_string(i) + "/3", "--out", out, "--quiet"});
    ASSERT_EQ(r.status, 0) << r.err;
    merge_args.push_back(out);
  }
  const Result merged = run(merge_args);
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_EQ(words_of(merged), std::to_string(4 * 19683));  // 4·3^9

  const std::string ckpt = (dir / "words.ckpt").string();
  ASSERT_EQ(run({"--words", "10", "--checkpoint", ckpt, "--quiet"}).status, 0);
  const Result resumed = run({"--words", "10", "--checkpoint", ckpt, "--json", "--quiet"});
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  const auto j = nlohmann::json::parse(resumed.out);
  EXPECT_EQ(words_of(resumed), std::to_string(4 * 19683));
  EXPECT_EQ(j["tasks_run"], 0);
  EXPECT_EQ(j["tasks_resumed"], j["tasks"]);
  // Another job's checkpoint is refused, naming the option.
  const Result other = run({"--words", "11", "--checkpoint", ckpt});
  EXPECT_EQ(other.status, 2);
  EXPECT_EQ(other.err.rfind("words: --checkpoint: ", 0), 0u) << other.err;
  std::filesystem::remove_all(dir);
}

TEST(Driver, BadInputNamesTheOptionOfTheLibraryParameter) {
  const struct {
    std::vector<std::string> args;
    std::string starts;
  } cases[] = {
      {{"--words", "9", "--letters", "12"}, "words: --letters: expected 2 to 9 letters"},  // mapped from "letters"
      {{"--words", "0"}, "words: --words: expected a whole number from 1 to 20"},
      {{"--words", "5", "--threads", "0"}, "words: --threads: "},
      {{"--words", "5", "--split-depth", "x"}, "words: --split-depth: "},
      {{}, "words: no problem given; choose one of --words"},
      {{"--words", "5", "--bogus"}, "words: --bogus: unknown option"},
  };
  for (const auto& c : cases) {
    const Result r = run(c.args);
    EXPECT_EQ(r.status, 2) << c.starts;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(r.err.rfind(c.starts, 0), 0u) << "got: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  const Result help = run({"--help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.out.rfind("usage: words PROBLEM [OPTIONS]", 0), 0u) << help.out;
  EXPECT_NE(help.out.find("--words L"), std::string::npos);
  EXPECT_NE(help.out.find("--letters K"), std::string::npos);
}

}  // namespace
}  // namespace pcount::driver
