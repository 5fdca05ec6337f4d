#pragma once
/// @file
/// Checkpoint log: a text file that records every finished task of a job, so
/// that a rerun of the same job skips them and still prints the exact total.
///
/// Format (one record per line, UTF-8, '\n' line ends):
///
///     # pcount checkpoint 1
///     version 0.1.0
///     fingerprint pcount/0.1.0 queens n=14 method=search split=3
///     tasks 1234
///     counters all
///     <id> <seconds> <nodes> <count 0> ... <count k-1> <fnv>
///
/// `counters` lists Job::counter_names, comma-separated; a job may have any
/// number k of them, and every record has exactly 3 + k fields before the
/// checksum. Counts and nodes are decimal 128-bit integers; `<fnv>` is the 32-bit
/// FNV-1a hash (8 hex digits) of the line's text before the last space, so a
/// damaged record is detected. The header is written atomically
/// (engine::write_atomically), so a file either has a whole header or does
/// not exist.
/// Records are appended from a buffer by a writer thread and fsynced at
/// least every `flush_seconds` (a killed run loses at most that much work).
///
/// Reading an existing file: a damaged header (incomplete, garbled, CR LF
/// line ends: "damaged: ...; remove it ... to start afresh"), a header of
/// another job (problem, parameters, method, split depth or program
/// version), a header whose counters differ from the job's in number or
/// names ("has 5 counters, the job has 26; first difference at counter 5:
/// ...", see engine::counter_difference) or a
/// damaged complete record (checksum, a field count other than 3 + k, a bad
/// number, a task id ≥ tasks) → InvalidArgument("checkpoint", ...), never a
/// wrong total.
/// A last line without '\n' (the run was killed while writing it) is
/// dropped with a warning and cut off the file; that task runs again.

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "pcount/engine/runner.hpp"
#include "pcount/engine/task.hpp"

namespace pcount::engine {

/// 32-bit FNV-1a hash of `text` (Fowler–Noll–Vo), used as a line checksum.
[[nodiscard]] std::uint32_t fnv1a(std::string_view text);

/// The header lines identifying `job` (see the file comment).
[[nodiscard]] std::string checkpoint_header(const Job& job);

/// One record line (with checksum and '\n') for a finished task of a job
/// with `counters` counters: counters 0..counters-1 of `task.counts` (a
/// counter past the end of its `counts` is written as 0).
[[nodiscard]] std::string checkpoint_line(const TaskRecord& task, std::size_t counters);

/// Reads the records of an existing checkpoint file of `job` without changing
/// it (MPI ranks read each other's logs); an absent file gives no records.
/// A truncated last line is skipped and described in `*warning` (if given).
/// Each record's tally has exactly job.counter_names.size() counters.
/// Throws InvalidArgument("checkpoint") for a foreign or damaged file.
[[nodiscard]] std::vector<TaskRecord> read_checkpoint(const std::string& path, const Job& job,
                                                      std::string* warning = nullptr);

/// An open checkpoint log for one job. Thread-safe `record`; one writer thread.
class CheckpointLog {
public:
  /// Opens `path` for `job`: reads and checks an existing file (its records
  /// become `resumed()`), or creates it with the header. Throws
  /// InvalidArgument("checkpoint") for a foreign or damaged file or one that
  /// cannot be created. `flush_seconds` > 0 bounds the work a kill can lose.
  CheckpointLog(std::string path, const Job& job, double flush_seconds = 1.0);
  /// Stops the writer thread after a last flush (errors ignored: call close()).
  ~CheckpointLog();
  CheckpointLog(const CheckpointLog&) = delete;
  CheckpointLog& operator=(const CheckpointLog&) = delete;

  /// The tasks recorded by earlier runs, by increasing id, no duplicates.
  [[nodiscard]] const std::vector<TaskRecord>& resumed() const { return resumed_; }
  /// Non-empty when the file had a truncated last line (the warning text).
  [[nodiscard]] const std::string& warning() const { return warning_; }
  /// Queues a finished task (cheap: formats into a buffer under a mutex).
  void record(const TaskRecord& task);
  /// Writes and fsyncs everything queued. Throws std::runtime_error on an I/O error.
  void flush();
  /// Final flush and stop; throws std::runtime_error on an I/O error.
  void close();

private:
  void writer_loop();
  void write_out();

  std::string path_;
  std::size_t counters_;
  std::vector<TaskRecord> resumed_;
  std::string warning_;
  int fd_ = -1;
  double flush_seconds_;
  std::mutex buffer_mutex_;  ///< guards buffer_, stop_, error_
  std::mutex write_mutex_;   ///< serialises write + fsync
  std::condition_variable wake_;
  std::string buffer_;
  std::string error_;
  bool stop_ = false;
  std::thread writer_;
};

}  // namespace pcount::engine
