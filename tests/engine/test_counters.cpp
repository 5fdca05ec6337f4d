// GCC 12: false -Wrestrict in inlined std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"
// Any number of counters: Tally's shape rules, a 20-counter job through
// engine::run, checkpoint write and resume, shard files and merge, and the
// refusal of checkpoint and shard files whose counters differ from the job.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "pcount/engine/checkpoint.hpp"
#include "pcount/errors.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/engine/shard.hpp"

namespace pcount::engine {
namespace {

constexpr std::size_t kCounters = 20;
constexpr std::size_t kTasks = 300;

/// Task id adds (id + 1)·(c + 1) to counter c < 19 and 2^64 + id to counter
/// 19 (beyond 64 bits); nodes = id. Closed forms below, not earlier output.
Job many_counters_job(std::size_t counters = kCounters, const std::string& fingerprint = "pcount/test many") {
  Job job;
  job.fingerprint = fingerprint;
  for (std::size_t c = 0; c < counters; ++c) job.counter_names.push_back("c" + std::to_string(c));
  job.task_count = kTasks;
  job.run_task = [counters](std::size_t id, Tally& out) {
    for (std::size_t c = 0; c + 1 < counters; ++c) out.add(c, static_cast<u128>(id + 1) * (c + 1));
    out.add(counters - 1, join64(id, 1));
    out.nodes = checked_add(out.nodes, id);
  };
  return job;
}

/// The totals of many_counters_job over all its tasks.
Tally expected_totals(std::size_t counters = kCounters) {
  Tally t(counters);
  const u128 ids = static_cast<u128>(kTasks) * (kTasks + 1) / 2;  // Σ (id + 1)
  for (std::size_t c = 0; c + 1 < counters; ++c) t.counts[c] = ids * (c + 1);
  t.counts[counters - 1] = join64(kTasks * (kTasks - 1) / 2, kTasks);  // Σ (2^64 + id)
  t.nodes = kTasks * (kTasks - 1) / 2;
  return t;
}

std::string temp_path(const std::string& stem) {
  return "/tmp/pcount-test-counters-" + stem + "-" + std::to_string(::getpid());
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Tally, GrowsOnAddMergesDifferentSizesAndComparesWithoutTrailingZeros) {
  Tally a;
  EXPECT_TRUE(a.counts.empty());
  EXPECT_EQ(a.get(5), 0u);
  a.add(12, 7);  // past the end: grows to 13 counters
  ASSERT_EQ(a.counts.size(), 13u);
  EXPECT_EQ(a.counts[12], 7u);
  EXPECT_EQ(a.get(3), 0u);
  Tally b(3);
  b.add(1, 4);
  b.merge(a);  // the smaller takes the larger's size
  ASSERT_EQ(b.counts.size(), 13u);
  EXPECT_EQ(b.counts[1], 4u);
  EXPECT_EQ(b.counts[12], 7u);
  a.merge(Tally(2));  // merging a smaller one keeps the size
  EXPECT_EQ(a.counts.size(), 13u);
  // Equality ignores trailing zero counters, not other ones, and compares nodes.
  Tally short_one(2), long_one(30);
  short_one.add(1, 9);
  long_one.add(1, 9);
  EXPECT_EQ(short_one, long_one);
  long_one.add(29, 1);
  EXPECT_NE(short_one, long_one);
  EXPECT_EQ(long_one.used(), 30u);
  EXPECT_EQ(Tally(8).used(), 0u);
  Tally with_nodes(2);
  with_nodes.add(1, 9);
  with_nodes.nodes = 1;
  EXPECT_NE(short_one, with_nodes);
  // Overflow of any counter, however far out, is detected.
  Tally big;
  big.add(17, ~u128{0});
  EXPECT_THROW(big.add(17, 1), CountOverflow);
  Tally one;
  one.add(17, 1);
  Tally full;
  full.add(17, ~u128{0});
  EXPECT_THROW(full.merge(one), CountOverflow);
}

TEST(ManyCounters, TwentyCountersThroughTheRunnerForEveryThreadCount) {
  const Job job = many_counters_job();
  const Tally expected = expected_totals();
  for (int threads : {1, 2, 3, 5}) {
    RunOptions o;
    o.threads = threads;
    o.record_tasks = true;
    const RunResult r = run(job, o);
    ASSERT_EQ(r.totals.counts.size(), kCounters) << threads;
    EXPECT_EQ(r.totals, expected) << threads;
    EXPECT_GT(r.totals.counts[kCounters - 1], join64(0, 1));  // beyond 64 bits
    ASSERT_EQ(r.tasks.size(), kTasks);
    for (const TaskRecord& t : r.tasks) ASSERT_EQ(t.counts.counts.size(), kCounters);
    EXPECT_EQ(r.tasks[41].counts.counts[3], 42u * 4u);
  }
  // A job without tasks still reports all its counters, as zeros.
  Job empty = job;
  empty.task_count = 0;
  EXPECT_EQ(run(empty).totals.counts.size(), kCounters);
}

TEST(ManyCounters, ATaskAddingToAnUnnamedCounterIsALogicError) {
  Job job = many_counters_job();
  job.run_task = [](std::size_t id, Tally& out) { out.add(id == 5 ? kCounters : 0, 1); };
  EXPECT_THROW((void)run(job), std::logic_error);
}

TEST(ManyCounters, CheckpointWriteAndResume) {
  const Job job = many_counters_job();
  const std::string path = temp_path("checkpoint");
  std::remove(path.c_str());
  Tally first_half;
  {
    CheckpointLog log(path, job, 0.01);
    RunOptions o;
    o.threads = 2;
    o.include = [](std::size_t id) { return id % 2 == 0; };
    o.on_task_done = [&](std::size_t id, const Tally& t, double s) { log.record({id, t, s}); };
    first_half = run(job, o).totals;
    log.close();
  }
  // The header names the 20 counters; each record has 3 + 20 fields and a checksum.
  const std::string text = read_all(path);
  EXPECT_NE(text.find("\ncounters c0,c1,c2,c3,c4,c5,c6,c7,c8,c9,c10,c11,c12,c13,c14,c15,c16,c17,c18,c19\n"),
            std::string::npos);
  const std::string last = text.substr(text.rfind('\n', text.size() - 2) + 1);
  EXPECT_EQ(std::count(last.begin(), last.end(), ' '), static_cast<std::ptrdiff_t>(3 + kCounters));

  CheckpointLog again(path, job, 0.01);
  ASSERT_EQ(again.resumed().size(), kTasks / 2);
  Tally resumed(kCounters);
  std::vector<char> done(kTasks, 0);
  for (const TaskRecord& t : again.resumed()) {
    ASSERT_EQ(t.counts.counts.size(), kCounters);
    EXPECT_EQ(t.counts.counts[7], static_cast<u128>(t.id + 1) * 8);
    EXPECT_EQ(t.counts.counts[kCounters - 1], join64(t.id, 1));
    done[t.id] = 1;
    resumed.merge(t.counts);
  }
  EXPECT_EQ(resumed, first_half);
  RunOptions rest;
  rest.threads = 3;
  rest.include = [&](std::size_t id) { return !done[id]; };
  Tally total = resumed;
  total.merge(run(job, rest).totals);
  EXPECT_EQ(total, expected_totals());
  again.close();
  std::remove(path.c_str());
}

std::string checkpoint_refusal(const std::string& path, const Job& job) {
  try {
    CheckpointLog log(path, job, 0.01);
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.argument(), "checkpoint");
    return e.what();
  }
  return "";
}

TEST(ManyCounters, CheckpointWithOtherCountersIsRefused) {
  const std::string path = temp_path("checkpoint-refused");
  std::remove(path.c_str());
  {
    CheckpointLog log(path, many_counters_job(), 0.01);
    Tally t(kCounters);
    many_counters_job().run_task(3, t);
    log.record({3, t, 0.0});
    log.close();
  }
  // Same fingerprint and task count, one counter fewer or more: refused, saying both numbers.
  const std::string fewer = checkpoint_refusal(path, many_counters_job(kCounters - 1));
  EXPECT_NE(fewer.find("has 20 counters"), std::string::npos) << fewer;
  EXPECT_NE(fewer.find("the job has 19"), std::string::npos) << fewer;
  EXPECT_NE(fewer.find("first difference at counter 19: 'c19' in the file, none in the job"), std::string::npos)
      << fewer;
  const std::string more = checkpoint_refusal(path, many_counters_job(kCounters + 1));
  EXPECT_NE(more.find("the job has 21"), std::string::npos) << more;
  // Same number, other names.
  Job renamed = many_counters_job();
  renamed.counter_names[4] = "four";
  const std::string names = checkpoint_refusal(path, renamed);
  EXPECT_NE(names.find("20 counters like the job, but other names; first difference at counter 4: 'c4' in the "
                       "file, 'four' in the job"),
            std::string::npos)
      << names;
  EXPECT_EQ(read_checkpoint(path, many_counters_job()).size(), 1u);  // the file itself is fine
  // A record with one count too few (a valid checksum) is refused too.
  {
    std::string text = read_all(path);
    const std::size_t start = text.rfind('\n', text.size() - 2) + 1;
    std::string body = text.substr(start, text.rfind(' ') - start);
    body = body.substr(0, body.rfind(' '));  // drop the last count
    char sum[9];
    std::snprintf(sum, sizeof sum, "%08x", fnv1a(body, fnv1a(checkpoint_header(many_counters_job()))));
    text = text.substr(0, start) + body + " " + sum + "\n";
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    const std::string field = checkpoint_refusal(path, many_counters_job());
    EXPECT_NE(field.find("field count"), std::string::npos) << field;
  }
  std::remove(path.c_str());
}

std::vector<std::string> write_shards(const Job& job, std::size_t k) {
  std::vector<std::string> paths;
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
    paths.push_back(temp_path("shard" + std::to_string(i)));
    write_shard_file(paths.back(), r);
  }
  return paths;
}

TEST(ManyCounters, ShardFilesWriteReadAndMerge) {
  const Job job = many_counters_job();
  const auto paths = write_shards(job, 4);
  std::vector<ShardResult> shards;
  for (const auto& p : paths) shards.push_back(read_shard_file(p));
  for (const auto& s : shards) {
    ASSERT_EQ(s.counter_names.size(), kCounters);
    ASSERT_EQ(s.totals.counts.size(), kCounters);
    for (const TaskRecord& t : s.tasks) ASSERT_EQ(t.counts.counts.size(), kCounters);
  }
  const MergeResult m = merge_shards(shards, paths);
  ASSERT_EQ(m.totals.counts.size(), kCounters);
  EXPECT_EQ(m.totals, expected_totals());
  EXPECT_NO_THROW(check_merge_matches_job(m, job));
  for (const auto& p : paths) std::remove(p.c_str());
}

std::string merge_refusal(const MergeResult& m, const Job& job) {
  try {
    check_merge_matches_job(m, job);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

std::string read_refusal(const nlohmann::json& j) {
  try {
    (void)parse_shard_json(j.dump(), "edited");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(ManyCounters, ShardFilesWithOtherCountersAreRefused) {
  const Job job = many_counters_job();
  const auto paths = write_shards(job, 2);
  std::vector<ShardResult> shards;
  for (const auto& p : paths) shards.push_back(read_shard_file(p));
  const MergeResult m = merge_shards(shards, paths);
  // Files of the same fingerprint whose counters differ from the job's.
  const std::string fewer = merge_refusal(m, many_counters_job(kCounters - 1));
  EXPECT_NE(fewer.find("have 20 counters"), std::string::npos) << fewer;
  EXPECT_NE(fewer.find("the job has 19"), std::string::npos) << fewer;
  Job renamed = job;
  renamed.counter_names[0] = "zero";
  EXPECT_NE(merge_refusal(m, renamed).find("other names; first difference at counter 0: 'c0' in the files"),
            std::string::npos)
      << merge_refusal(m, renamed);

  // A file edited to name one counter fewer than its rows and totals hold.
  const nlohmann::json good = nlohmann::json::parse(read_all(paths[0]));
  nlohmann::json names = good;
  names["counter_names"].erase(names["counter_names"].size() - 1);
  EXPECT_NE(read_refusal(names), "");
  // Rows with one count too few.
  nlohmann::json rows = good;
  for (auto& row : rows["tasks"]) row.erase(row.size() - 1);
  EXPECT_NE(read_refusal(rows).find("a task row has 22 entries, expected 3 + 20 counters"), std::string::npos)
      << read_refusal(rows);
  // Totals with a counter too many.
  nlohmann::json totals = good;
  totals["totals"]["c20"] = "0";
  EXPECT_NE(read_refusal(totals).find("totals must hold the 20 counters"), std::string::npos) << read_refusal(totals);
  // A counter named twice.
  nlohmann::json twice = good;
  twice["counter_names"][1] = "c0";
  EXPECT_NE(read_refusal(twice).find("named twice"), std::string::npos) << read_refusal(twice);
  for (const auto& p : paths) std::remove(p.c_str());
}

}  // namespace
}  // namespace pcount::engine
