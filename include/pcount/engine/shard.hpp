#pragma once
/// @file
/// Shards for job arrays: shard I of K runs the tasks with id ≡ I (mod K) and
/// writes a result file; `count merge` checks that the files belong to one
/// job and cover every task exactly once, and adds them up.
///
/// Result file (JSON object, one per shard):
///
///     {"format": "pcount-shard", "format_version": 3, "version": "0.1.0",
///      "fingerprint": "...", "counter_names": ["all"], "task_count": 1234,
///      "shard": {"index": 2, "count": 7}, "command": ["--queens", "14"],
///      "threads": 2, "wall_seconds": 1.5, "cpu_seconds": 2.9,
///      "max_rss_bytes": 8388608, "tasks_run": 176, "tasks_resumed": 0,
///      "totals": {"all": "52228", "nodes": "..."},
///      "tasks": [[id, seconds, "nodes", "count0", ...], ...],
///      "digest": "fnv1a64:0123456789abcdef"}
///
/// Counts are decimal strings (they may exceed 2^64). A job may have any
/// number k of counters: `counter_names` lists them (distinct, non-empty,
/// none named "nodes"), `totals` holds exactly those k names and "nodes",
/// and every task row has exactly 3 + k entries. `cpu_seconds` and
/// `max_rss_bytes` are the CPU time and peak resident set of the process
/// that ran the shard (all its MPI ranks: CPU summed, RSS the largest), so
/// that `count merge` reports the job's cost, not its own.
/// `digest` is engine::fnv1a64_digest of the object's canonical JSON text
/// (keys sorted, no spaces, as nlohmann::json::dump writes it) without the
/// digest field: a file edited by hand or damaged is refused, even when its
/// totals were edited to match its tasks.
///
/// An optional `"outputs": ["text", ...]` holds one string per task row, in
/// the same order: each task's output (Job::run_task_output, e.g. the lines
/// of --list), so that `count merge` prints the whole output in task-id
/// order. The driver writes it for a --list job when every task of the
/// shard ran in that call (a task resumed from a checkpoint has no text to
/// keep). Files of format_version 1 and 2 (written before the shard's CPU
/// time and memory were kept) are refused with a note to run the shard
/// again.

#include <cstddef>
#include <string>
#include <cstdint>
#include <string_view>
#include <vector>

#include "pcount/engine/runner.hpp"
#include "pcount/engine/task.hpp"

namespace pcount::engine {

/// Most shards of one job: the K of --shard I/K and of a result file.
inline constexpr std::size_t kMaxShards = 1'000'000;
/// Most tasks a result file may claim for its job (the most a depth split
/// may produce, engine::kMaxSplitTasks).
inline constexpr std::size_t kMaxShardTasks = 20'000'000;
/// Largest result file read_shard_file reads (1 GiB); a larger file, a
/// device or an endless stream is refused without being read to the end.
inline constexpr std::size_t kMaxShardFileBytes = std::size_t{1} << 30;

/// Which tasks a shard runs: ids with id % count == index.
struct Shard {
  std::size_t index = 0;  ///< 0 ≤ index < count
  std::size_t count = 1;  ///< K ≥ 1
  /// Whether task `id` belongs to this shard.
  [[nodiscard]] bool includes(std::size_t id) const { return id % count == index; }
  /// Number of the job's `task_count` tasks in this shard.
  [[nodiscard]] std::size_t size(std::size_t task_count) const {
    return task_count / count + (index < task_count % count ? 1 : 0);
  }
};

/// Parses "I/K" with 0 ≤ I < K ≤ kMaxShards; throws InvalidArgument("shard").
[[nodiscard]] Shard parse_shard(const std::string& text);

/// The content of one shard result file.
struct ShardResult {
  std::string version;                     ///< program version that wrote it
  std::string fingerprint;                 ///< Job::fingerprint
  std::vector<std::string> counter_names;  ///< Job::counter_names
  std::size_t task_count = 0;              ///< Job::task_count
  Shard shard;                             ///< which tasks
  std::vector<std::string> command;        ///< the problem's arguments, to rebuild its report
  int threads = 0;                         ///< threads used
  double wall_seconds = 0.0;               ///< wall time of the run
  double cpu_seconds = 0.0;                ///< CPU seconds of the process(es) that ran the shard
  std::uint64_t max_rss_bytes = 0;         ///< their largest peak resident set, in bytes
  std::size_t tasks_run = 0;               ///< tasks computed by the run that wrote the file
  std::size_t tasks_resumed = 0;           ///< tasks taken from a checkpoint
  Tally totals;                            ///< sum of `tasks`; counter_names.size() counters when read
  std::vector<TaskRecord> tasks;           ///< every task of the shard, by id
  /// Whether `outputs` is set (format_version 2): the job printed and every
  /// task's text is kept.
  bool has_outputs = false;
  std::vector<std::string> outputs;        ///< with has_outputs: tasks[i]'s text
};

/// The text of a result file (see the file comment): one line of JSON
/// with its digest, and a final '\n'. Throws std::logic_error when
/// `has_outputs` is set and `outputs` does not hold one text per task.
[[nodiscard]] std::string shard_json_text(const ShardResult& result);

/// Reads a result from the text of a result file; `source` names it in
/// errors. Every number is checked for its JSON type and range before
/// conversion (task_count ≤ kMaxShardTasks, shard count ≤ kMaxShards, index
/// < count, ids whole numbers below task_count), and the task list's length
/// is checked before anything is allocated for it. Throws
/// std::runtime_error("<source>: ...") for text that is not JSON, a missing
/// field, a wrong type or range, an older format_version, counter names
/// that repeat, `totals` or a task row whose number of counts differs from
/// counter_names, a task outside the shard, totals that differ from the
/// sum of the tasks, or a digest that is missing or does not match. Every
/// tally read (totals, tasks) has exactly counter_names.size() counters.
[[nodiscard]] ShardResult parse_shard_json(std::string_view text, const std::string& source);

/// Writes the file atomically (engine::write_atomically); throws
/// std::runtime_error("--out: <path>: ...").
void write_shard_file(const std::string& path, const ShardResult& result);

/// Reads and checks a file of at most kMaxShardFileBytes; throws
/// std::runtime_error("<path>: ...") for a directory, an unreadable,
/// oversized or malformed file (see parse_shard_json).
[[nodiscard]] ShardResult read_shard_file(const std::string& path);

/// All shards added up.
struct MergeResult {
  std::string fingerprint;
  std::vector<std::string> counter_names;
  std::vector<std::string> command;  ///< of the first file
  std::size_t task_count = 0;
  std::size_t shard_count = 0;  ///< K
  Tally totals;                 ///< over all tasks; counter_names.size() counters
  double task_seconds = 0.0;    ///< sum of the task times (CPU work)
  double wall_seconds = 0.0;    ///< longest shard run
  double cpu_seconds = 0.0;     ///< the shards' CPU seconds, summed
  std::uint64_t max_rss_bytes = 0;  ///< the largest peak resident set of any shard, in bytes
  int threads = 0;                  ///< the most threads of any shard
  std::size_t tasks_run = 0;        ///< tasks the shards' runs computed, summed
  std::size_t tasks_resumed = 0;    ///< tasks the shards took from checkpoints, summed
  std::vector<TaskRecord> tasks;  ///< every task, by id (tasks[i].id == i)
  std::vector<std::string> files; ///< files[i]: the file that held task i
  /// Whether every shard file kept its tasks' output (format_version 2).
  bool has_outputs = false;
  std::vector<std::string> outputs;  ///< with has_outputs: the text of task 0, 1, ..., task_count-1
};

/// Checks and adds the shards: same fingerprint, version, counters, task
/// count and K; every index 0..K-1 exactly once. Throws std::runtime_error
/// with one line naming the problem: "missing shards 2, 5 of 7", "shard 3/7
/// given twice: a.json, b.json", "different jobs: ...". `names` are the
/// file names, parallel to `shards`.
[[nodiscard]] MergeResult merge_shards(const std::vector<ShardResult>& shards, const std::vector<std::string>& names);

/// Checks that merged shard files are results of `job` (count merge rebuilds
/// the job from the files' command): same fingerprint, the same counters in
/// number and names, the same task count. Throws std::runtime_error with one
/// line saying what differs, e.g. "the shard files have 25 counters, the job
/// has 26; first difference at counter 25: none in the files,
/// 'solved_in_24' in the job ..." (engine::counter_difference).
void check_merge_matches_job(const MergeResult& merged, const Job& job);

}  // namespace pcount::engine
