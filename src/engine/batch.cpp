#include "pcount/engine/batch.hpp"

#include <algorithm>
#include <utility>

#include "pcount/errors.hpp"
#include "pcount/u128.hpp"

namespace pcount::engine {

namespace {

bool by_id(const TaskRecord& a, const TaskRecord& b) { return a.id < b.id; }

}  // namespace

Batch::Batch(const Job& job, BatchOptions options)
    : job_(job),
      options_(std::move(options)),
      resumed_ids_(job.task_count, 0),
      resumed_totals_(job.counter_names.size()) {
  if (options_.checkpoint.empty()) return;
  read_logs();
  if (log_->read_only() && resumed_.size() < shard_tasks())
    throw InvalidArgument("checkpoint", options_.checkpoint + ": cannot be written (read-only), and " +
                                            std::to_string(pending()) +
                                            " tasks of this run are not in it yet; copy it somewhere writable");
}

Batch::~Batch() = default;

void Batch::read_logs() {
  std::vector<TaskRecord> records;
  const auto take = [&](const std::string& path, const std::vector<TaskRecord>& found, const std::string& warning) {
    if (!warning.empty()) warnings_.push_back(path + ": " + warning);
    records.insert(records.end(), found.begin(), found.end());
  };
  for (const std::string& path : options_.also_read) {
    std::string warning;
    const std::vector<TaskRecord> found = read_checkpoint(path, job_, &warning);
    take(path, found, warning);
  }
  if (options_.before_open) options_.before_open();
  log_ = std::make_unique<CheckpointLog>(options_.checkpoint, job_, options_.flush_seconds, options_.output);
  // A log also read above said its warning there.
  const bool read_before =
      std::find(options_.also_read.begin(), options_.also_read.end(), options_.checkpoint) != options_.also_read.end();
  take(options_.checkpoint, log_->resumed(), read_before ? std::string() : log_->warning());
  resume(std::move(records));
}

void Batch::resume(std::vector<TaskRecord> records) {
  std::sort(records.begin(), records.end(), by_id);
  for (std::size_t i = 0; i < records.size(); ++i) {
    const TaskRecord& t = records[i];
    if (i > 0 && records[i - 1].id == t.id) {  // in two logs (MPI ranks): counts once, if they agree
      if (!(records[i - 1].counts == t.counts))
        throw InvalidArgument("checkpoint", options_.checkpoint + ": task " + std::to_string(t.id) +
                                                " is logged twice with different counts (damaged logs)");
      continue;
    }
    if (!options_.shard.includes(t.id)) continue;
    resumed_ids_[t.id] = 1;
    try {
      resumed_totals_.merge(t.counts);
    } catch (const CountOverflow&) {
      throw InvalidArgument("checkpoint", options_.checkpoint + ": its records' counts add up past 128 bits (at task " +
                                              std::to_string(t.id) +
                                              "): not a real run's file; remove it to start "
                                              "afresh");
    }
    resumed_.push_back(t);
  }
}

OutputMark Batch::output_mark() const {
  OutputMark mark;
  for (const TaskRecord& t : resumed_)
    if (t.output && t.output->end >= mark.end) mark = *t.output;
  return mark;
}

RunResult Batch::run(RunOptions options) {
  recorded_ = options.record_tasks;
  options.include = [this](std::size_t id) { return options_.shard.includes(id) && !resumed_ids_[id]; };
  if (log_) {
    options.on_task_done = [this, done = std::move(options.on_task_done)](std::size_t id, const Tally& counts,
                                                                          double seconds) {
      TaskRecord record{id, counts, seconds};
      if (options_.output_mark) record.output = options_.output_mark();
      log_->record(record);
      if (done) done(id, counts, seconds);
    };
  }
  RunResult result;
  try {
    result = engine::run(job_, options);
  } catch (...) {
    if (log_) {
      try {
        log_->close();  // keep what finished before the error
      } catch (...) {
        // the run's error is the one to report
      }
    }
    throw;
  }
  if (log_) log_->close();
  return result;
}

void Batch::add_resumed(RunResult& result) const {
  result.totals.merge(resumed_totals_);
  result.tasks_resumed = resumed_.size();
  if (!recorded_) return;
  result.tasks.insert(result.tasks.end(), resumed_.begin(), resumed_.end());
  std::sort(result.tasks.begin(), result.tasks.end(), by_id);
}

ShardResult Batch::shard_result(const RunResult& result) const {
  ShardResult r;
  r.version = PCOUNT_VERSION;
  r.fingerprint = job_.fingerprint;
  r.counter_names = job_.counter_names;
  r.task_count = job_.task_count;
  r.shard = options_.shard;
  r.threads = result.threads;
  r.wall_seconds = result.wall_seconds;
  r.cpu_seconds = result.cpu_seconds;
  r.max_rss_bytes = result.max_rss_bytes;
  r.tasks_run = result.tasks_run;
  r.tasks_resumed = result.tasks_resumed;
  r.totals = result.totals;
  r.tasks = result.tasks;
  if (r.tasks.size() != shard_tasks())
    throw InternalError("shard result has " + std::to_string(r.tasks.size()) + " of " + std::to_string(shard_tasks()) +
                        " tasks");
  return r;
}

RunResult run_batch(const Job& job, BatchOptions batch, RunOptions options) {
  Batch b(job, std::move(batch));
  RunResult result = b.run(std::move(options));
  b.add_resumed(result);
  return result;
}

}  // namespace pcount::engine
