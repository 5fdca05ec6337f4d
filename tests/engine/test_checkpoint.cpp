// GCC 12: false -Wrestrict in inlined std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"
// Checkpoint log, shard result files and merging, cancellation and claims.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "pcount/engine/batch.hpp"
#include "pcount/engine/checkpoint.hpp"
#include "pcount/errors.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/engine/shard.hpp"
#include "pcount/engine/tree.hpp"
#include "support/toy_tree.hpp"

namespace pcount::engine {
namespace {

using test::NoRepeatWords;


Job words_job(const std::string& tag = "words") {
  auto p = std::make_shared<const NoRepeatWords>(NoRepeatWords{4, 8});  // 4·3^7 = 8748 leaves
  return make_tree_job(p, 3, tag, {"leaves", "ending in 0"});
}
constexpr u128 kLeaves = 8748;

std::string temp_path(const std::string& stem) {
  return "/tmp/pcount-test-" + stem + "-" + std::to_string(::getpid());
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Checkpoint, LineHasChecksumAndRoundTrips) {
  TaskRecord t{7, {}, 0.25};
  t.counts = Tally(2);
  t.counts.counts[0] = join64(5, 1);  // 2^64 + 5: beyond 64 bits
  t.counts.counts[1] = 3;
  t.counts.nodes = 11;
  Job two;
  two.fingerprint = "pcount/line test";
  two.counter_names = {"a", "b"};
  two.task_count = 10;
  const std::string line = checkpoint_line(t, two);
  EXPECT_EQ(line.rfind("7 0.250000 11 18446744073709551621 3 ", 0), 0u) << line;
  EXPECT_EQ(line.back(), '\n');
  EXPECT_EQ(fnv1a(""), 2166136261u);    // FNV-1a offset basis
  EXPECT_EQ(fnv1a("a"), 0xe40c292cu);   // published FNV-1a test vector
}

TEST(Checkpoint, ResumeSkipsFinishedTasksAndGivesTheSameTotal) {
  const Job job = words_job();
  const std::string path = temp_path("resume");
  std::remove(path.c_str());
  std::size_t first_run = 0;
  std::vector<char> written(job.task_count, 0);  // ids recorded before the stop
  std::size_t records = 0;
  {
    CheckpointLog log(path, job, 0.01);
    EXPECT_TRUE(log.resumed().empty());
    std::atomic<bool> cancel{false};
    RunOptions o;
    o.threads = 2;
    o.cancel = &cancel;
    std::mutex m;
    o.on_task_done = [&](std::size_t id, const Tally& t, double s) {
      log.record({id, t, s});
      std::lock_guard lock(m);
      EXPECT_EQ(written[id], 0) << "task " << id << " finished twice";
      written[id] = 1;
      if (++records == 10) cancel.store(true);  // stop after about 10 tasks
    };
    const RunResult r = run(job, o);
    EXPECT_TRUE(r.interrupted);
    EXPECT_GE(r.tasks_run, 10u);
    EXPECT_LT(r.tasks_run, job.task_count);
    EXPECT_EQ(r.tasks_run, records);
    first_run = r.tasks_run;
    log.close();
  }
  // Exactly the recorded tasks come back from the log, each once.
  CheckpointLog again(path, job, 0.01);
  ASSERT_EQ(again.resumed().size(), records);
  std::vector<char> done(job.task_count, 0);
  Tally total;
  for (const TaskRecord& t : again.resumed()) {
    ASSERT_LT(t.id, job.task_count);
    EXPECT_EQ(written[t.id], 1) << "task " << t.id << " resumed but never recorded";
    EXPECT_EQ(done[t.id], 0) << "task " << t.id << " resumed twice";
    done[t.id] = 1;
    total.merge(t.counts);
  }
  EXPECT_EQ(done, written);
  for (int threads : {1, 3}) {
    RunOptions o;
    o.threads = threads;
    o.include = [&](std::size_t id) { return !done[id]; };
    o.record_tasks = true;
    const RunResult r = run(job, o);
    EXPECT_FALSE(r.interrupted);
    // The rest ran, and only the rest: every task exactly once over both runs.
    EXPECT_EQ(r.tasks_run, job.task_count - records) << threads;
    ASSERT_EQ(r.tasks.size(), r.tasks_run);
    std::vector<char> ran = done;
    for (const TaskRecord& t : r.tasks) {
      EXPECT_EQ(ran[t.id], 0) << "task " << t.id << " ran although resumed";
      ran[t.id] = 1;
    }
    EXPECT_EQ(std::count(ran.begin(), ran.end(), 1), static_cast<std::ptrdiff_t>(job.task_count));
    EXPECT_EQ(r.tasks_run + first_run, job.task_count);
    Tally sum = total;
    sum.merge(r.totals);
    EXPECT_EQ(sum.counts[0], kLeaves) << threads;
    EXPECT_EQ(sum.counts[1], kLeaves / 4);
  }
  again.close();
  std::remove(path.c_str());
}

TEST(Checkpoint, ForeignDamagedAndTruncatedFiles) {
  const Job job = words_job();
  const std::string path = temp_path("damage");
  std::remove(path.c_str());
  {
    CheckpointLog log(path, job, 0.01);
    for (std::size_t id = 0; id < 5; ++id) {
      Tally t;
      job.run_task(id, t);
      log.record({id, t, 0.0});
    }
    log.close();
  }
  const std::string good = read_all(path);
  // Another job (other fingerprint) is refused.
  EXPECT_THROW(CheckpointLog(path, words_job("other job"), 0.01), InvalidArgument);
  // A damaged record (one digit changed) is refused.
  {
    std::string bad = good;
    const std::size_t pos = bad.rfind("\n", bad.size() - 2) + 1;  // start of the last record
    bad[pos] = bad[pos] == '4' ? '3' : '4';
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bad;
    EXPECT_THROW(CheckpointLog(path, job, 0.01), InvalidArgument);
  }
  // Not a checkpoint at all.
  std::ofstream(path, std::ios::binary | std::ios::trunc) << "hello\n";
  EXPECT_THROW(CheckpointLog(path, job, 0.01), InvalidArgument);
  // A truncated last line is dropped with a warning and cut off the file.
  {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << good << "5 0.0000";
    CheckpointLog log(path, job, 0.01);
    EXPECT_EQ(log.resumed().size(), 5u);
    EXPECT_NE(log.warning().find("truncated"), std::string::npos);
    Tally t;
    job.run_task(5, t);
    log.record({5, t, 0.0});
    log.close();
  }
  {
    CheckpointLog log(path, job, 0.01);
    EXPECT_EQ(log.resumed().size(), 6u);
    EXPECT_TRUE(log.warning().empty());
  }
  std::remove(path.c_str());
}

// Records whose counts add up past 128 bits (a forged file: each line has a
// valid checksum) are refused naming the file, as a user error.
TEST(Checkpoint, CountsThatOverflowNameTheFile) {
  const Job job = words_job();
  const std::string path = temp_path("overflow");
  std::string text = checkpoint_header(job);
  for (std::size_t id = 0; id < 2; ++id) {
    TaskRecord t{id, Tally(job.counter_names.size()), 0.0};
    t.counts.counts[0] = u128{1} << 127;  // twice 2^127 is 2^128
    text += checkpoint_line(t, job);
  }
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  BatchOptions options;
  options.checkpoint = path;
  try {
    Batch batch(job, options);
    ADD_FAILURE() << "a forged checkpoint whose counts overflow was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.argument(), "checkpoint");
    EXPECT_NE(std::string(e.what()).find(path + ": its records' counts add up past 128 bits"), std::string::npos)
        << e.what();
  }
  std::remove(path.c_str());
}

// A checkpoint that is a symbolic link is refused, also to a valid log, and
// the file it points to is left as it was.
TEST(Checkpoint, ALinkIsNeverOpened) {
  const Job job = words_job();
  const std::string real = temp_path("real-log"), link = temp_path("link-log");
  std::remove(real.c_str());
  std::remove(link.c_str());
  { CheckpointLog(real, job, 0.01).close(); }
  const std::string before = read_all(real);
  ASSERT_EQ(::symlink(real.c_str(), link.c_str()), 0);
  EXPECT_THROW(CheckpointLog(link, job, 0.01), InvalidArgument);
  EXPECT_THROW((void)read_checkpoint(link, job), InvalidArgument);
  EXPECT_EQ(read_all(real), before);
  std::remove(link.c_str());
  std::remove(real.c_str());
}

TEST(Runner, ClaimHandsOutEveryTaskOnce) {
  const Job job = words_job();
  std::mutex m;
  std::size_t next = 0;
  RunOptions o;
  o.threads = 3;
  o.claim = [&] {
    std::lock_guard lock(m);
    return next++;
  };
  const RunResult r = run(job, o);
  EXPECT_EQ(r.totals.counts[0], kLeaves);
  EXPECT_EQ(r.tasks_run, job.task_count);
  // Claims that skip positions (taken elsewhere) leave those tasks out.
  next = 0;
  o.claim = [&] {
    std::lock_guard lock(m);
    const std::size_t s = next;
    next += 2;
    return s;
  };
  const RunResult half = run(job, o);
  EXPECT_EQ(half.tasks_run, (job.task_count + 1) / 2);
  EXPECT_LT(half.totals.counts[0], kLeaves);
}

TEST(Shard, ParseAndMembership) {
  const Shard s = parse_shard("2/7");
  EXPECT_EQ(s.index, 2u);
  EXPECT_EQ(s.count, 7u);
  EXPECT_TRUE(s.includes(9));
  EXPECT_FALSE(s.includes(10));
  EXPECT_EQ(s.size(16), 2u);  // 2, 9
  EXPECT_EQ(parse_shard("3/7").size(16), 2u);
  EXPECT_EQ(parse_shard("1/7").size(16), 3u);  // 1, 8, 15
  for (const char* bad : {"", "3", "7/7", "-1/3", "1/0", "a/b", "1/2/3", "1 /2"})
    EXPECT_THROW((void)parse_shard(bad), InvalidArgument) << bad;
}

std::vector<ShardResult> make_shards(const Job& job, std::size_t k) {
  std::vector<ShardResult> shards;
  for (std::size_t i = 0; i < k; ++i) {
    ShardResult r;
    r.version = "test";
    r.fingerprint = job.fingerprint;
    r.counter_names = job.counter_names;
    r.task_count = job.task_count;
    r.shard = Shard{i, k};
    RunOptions o;
    o.threads = 2;
    o.record_tasks = true;
    o.include = [&](std::size_t id) { return r.shard.includes(id); };
    const RunResult run_result = run(job, o);
    r.totals = run_result.totals;
    r.tasks = run_result.tasks;
    r.tasks_run = run_result.tasks_run;
    shards.push_back(parse_shard_json(shard_json_text(r), "shard"));  // through JSON
  }
  return shards;
}

TEST(Shard, AllShardsMergeToTheSingleRunTotal) {
  const Job job = words_job();
  for (std::size_t k : {1u, 2u, 3u, 7u}) {
    const auto shards = make_shards(job, k);
    std::vector<std::string> names;
    for (std::size_t i = 0; i < k; ++i) names.push_back("s" + std::to_string(i));
    const MergeResult m = merge_shards(shards, names);
    EXPECT_EQ(m.totals.counts[0], kLeaves) << k;
    EXPECT_EQ(m.totals.counts[1], kLeaves / 4) << k;
    EXPECT_EQ(m.shard_count, k);
  }
}

std::string merge_error(const std::vector<ShardResult>& shards, const std::vector<std::string>& names) {
  try {
    (void)merge_shards(shards, names);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(Shard, MissingDuplicatedAndForeignShardsAreReported) {
  const Job job = words_job();
  auto shards = make_shards(job, 7);
  auto missing = shards;
  missing.erase(missing.begin() + 5);
  missing.erase(missing.begin() + 2);
  EXPECT_EQ(merge_error(missing, {"a", "b", "c", "d", "e"}), "missing shards 2, 5 of 7 (rerun with --shard I/7)");
  auto dup = shards;
  dup.push_back(shards[3]);
  EXPECT_EQ(merge_error(dup, {"0", "1", "2", "3", "4", "5", "6", "x"}), "shard 3/7 given twice: 3, x");
  auto foreign = make_shards(words_job("other"), 7);
  auto mixed = shards;
  mixed[4] = foreign[4];
  EXPECT_NE(merge_error(mixed, {"0", "1", "2", "3", "4", "5", "6"}).find("different jobs"), std::string::npos);
  // A file whose totals disagree with its tasks is refused when read.
  auto j = nlohmann::json::parse(shard_json_text(shards[0]));
  j["totals"]["leaves"] = "1";
  EXPECT_THROW((void)parse_shard_json(j.dump(), "x"), std::runtime_error);
  auto short_file = nlohmann::json::parse(shard_json_text(shards[0]));
  short_file["tasks"].erase(short_file["tasks"].size() - 1);
  EXPECT_THROW((void)parse_shard_json(short_file.dump(), "x"), std::runtime_error);
}

}  // namespace
}  // namespace pcount::engine
