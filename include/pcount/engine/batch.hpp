#pragma once
/// @file
/// Batch runs: a job run that resumes from a checkpoint log, runs only its
/// shard's tasks, records every finished task in the log and gives what a
/// shard result file needs. The driver's run_job adds signals, progress, the
/// stop file and where the output goes; a program built on the engine alone
/// gets resume and shards from here.
///
///     engine::BatchOptions b;
///     b.checkpoint = "run.ckpt";           // resume from it and record in it
///     b.shard = engine::parse_shard("2/8");
///     engine::RunResult r = engine::run_batch(job, b, {.threads = 4});
///     // r.totals: the shard's complete totals (resumed tasks included)

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pcount/engine/checkpoint.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/engine/shard.hpp"
#include "pcount/engine/task.hpp"

namespace pcount::engine {

/// What a batch run resumes from and records to.
struct BatchOptions {
  /// The tasks of this run: ids ≡ index (mod count). Default: every task.
  Shard shard;
  /// The checkpoint log this process appends to (engine/checkpoint.hpp);
  /// empty = no checkpoint: nothing resumes, nothing is recorded.
  std::string checkpoint;
  /// Further logs of the same job whose records resume too, read and never
  /// written (e.g. the FILE.rank<r> logs of an earlier count-mpi run). They
  /// are read before `checkpoint` is opened.
  std::vector<std::string> also_read;
  /// Called after `also_read` was read and before `checkpoint` is opened
  /// (count-mpi: a barrier, so that no rank appends to a log another rank
  /// still reads). Unset = nothing.
  std::function<void()> before_open;
  /// The log's flush period in seconds (> 0): a kill loses at most that much work.
  double flush_seconds = 1.0;
  /// Records with output marks (exactly-once listings; CheckpointOutput).
  CheckpointOutput output;
  /// With output.offsets: the mark recorded with each finished task (the
  /// output file's length and digest once that task's text is written),
  /// called on the thread that finished it, after RunOptions::on_output.
  std::function<OutputMark()> output_mark;
};

/// One batch run of one job: opening reads what earlier runs recorded,
/// run() runs the rest of the shard and records it, add_resumed() completes
/// the result. `job` must outlive the object.
class Batch {
public:
  /// Opens and locks the checkpoint (when given) and reads every log: the
  /// records of this shard's tasks become resumed(). Throws
  /// InvalidArgument("checkpoint", ...) for a foreign or damaged log (see
  /// CheckpointLog), a task logged twice with different counts (two logs
  /// that disagree), or a log that cannot be written (read-only) while tasks
  /// of this shard are missing from it.
  Batch(const Job& job, BatchOptions options);
  ~Batch();
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;

  /// This shard's tasks recorded by earlier runs, by increasing id, each once.
  [[nodiscard]] const std::vector<TaskRecord>& resumed() const { return resumed_; }
  /// The sum of resumed(); Job::counter_names.size() counters.
  [[nodiscard]] const Tally& resumed_totals() const { return resumed_totals_; }
  /// Whether task `id` was resumed.
  [[nodiscard]] bool is_resumed(std::size_t id) const { return resumed_ids_[id] != 0; }
  /// Notes about truncated last lines of the logs ("PATH: ..."), one each.
  [[nodiscard]] const std::vector<std::string>& warnings() const { return warnings_; }
  /// The shard's tasks, resumed or not.
  [[nodiscard]] std::size_t shard_tasks() const { return options_.shard.size(job_.task_count); }
  /// The shard's tasks still to run.
  [[nodiscard]] std::size_t pending() const { return shard_tasks() - resumed_.size(); }
  /// Where the output of the resumed tasks ends: the recorded mark with the
  /// largest offset (offset 0, the empty file's digest, without offsets).
  [[nodiscard]] OutputMark output_mark() const;

  /// Runs the shard's pending tasks with `options` (its `include` is
  /// replaced by the shard filter without the resumed tasks): each finished
  /// task is recorded in the log before options.on_task_done is called with
  /// it. Closes the log when the run ends, also when it throws (what
  /// finished is kept), then rethrows. Throws what engine::run and the log
  /// throw. Call once.
  [[nodiscard]] RunResult run(RunOptions options);
  /// Adds the resumed tasks to a result of run() (after an MPI reduction,
  /// if any): their counts to the totals, their number to tasks_resumed,
  /// and, when the run recorded its tasks, their records to result.tasks,
  /// which then holds every task of the shard by id.
  void add_resumed(RunResult& result) const;
  /// A shard result file's content (engine/shard.hpp) for a complete result
  /// of this shard (after add_resumed, with recorded tasks): the library's
  /// version, no command (callers that can rebuild the job set it), and the
  /// CPU seconds and peak RSS of `result` (set by callers). Throws
  /// InternalError when result.tasks does not hold every task of the shard.
  [[nodiscard]] ShardResult shard_result(const RunResult& result) const;

private:
  void read_logs();
  void resume(std::vector<TaskRecord> records);

  const Job& job_;
  BatchOptions options_;
  std::unique_ptr<CheckpointLog> log_;
  std::vector<TaskRecord> resumed_;
  std::vector<char> resumed_ids_;
  Tally resumed_totals_;
  std::vector<std::string> warnings_;
  bool recorded_ = false;  ///< run() kept its task records
};

/// Batch(job, batch), run(options) and add_resumed in one call: the
/// shard's complete totals, resumed tasks included. Throws what those throw.
[[nodiscard]] RunResult run_batch(const Job& job, BatchOptions batch, RunOptions options = {});

}  // namespace pcount::engine
