#pragma once
/// @file
/// Checkpoint log: a text file that records every finished task of a job, so
/// that a rerun of the same job skips them and still prints the exact total.
///
/// Format (one record per line, UTF-8, '\n' line ends):
///
///     # pcount checkpoint 2
///     version 0.1.0
///     fingerprint pcount/0.1.0 queens n=14 method=search split=3
///     tasks 1234
///     counters all
///     output none
///     <id> <seconds> <nodes> <count 0> ... <count k-1> [<output mark>] <fnv>
///
/// `counters` lists Job::counter_names, comma-separated; a job may have any
/// number k of them, and every record has exactly 3 + k fields before the
/// checksum, plus one with `output marks` (exactly-once listings,
/// docs/hpc.md): `<end>:<digest>:<inode>`, the byte offset in the run's
/// --output file just after the task's text, the 64-bit FNV-1a of the
/// file's bytes before it (16 hex digits), and the file's inode (OutputMark),
/// so that a resume can refuse an output file that is not what this job
/// wrote. A log of the earlier form `output offsets` (offsets only) is
/// refused, saying so. Counts and nodes are decimal 128-bit integers. `<fnv>` is
/// the 32-bit FNV-1a hash (8 hex digits) of the line's text before the last
/// space, continued from the hash of the whole header: a damaged record is
/// detected, and so is a record spliced in from another job's file. The
/// header is written atomically and exclusively
/// (engine::create_atomically), so a file either has a whole header or does
/// not exist, and two processes cannot both create it.
/// Records are appended from a buffer by a writer thread and fsynced at
/// least every `flush_seconds` (a killed run loses at most that much work).
///
/// One owner: CheckpointLog holds a POSIX advisory lock (fcntl F_SETLK) on
/// the file while it is open; a second process opening the same file is
/// refused, naming the pid that holds it. A file that cannot be opened for
/// writing (read-only file system or permissions) is opened read-only: its
/// records resume, and recording a further task is an error.
///
/// Reading an existing file: a damaged header (incomplete, garbled, CR LF
/// line ends: "damaged: ...; remove it ... to start afresh"), a header of
/// another job (problem, parameters, method, split depth, program version,
/// or --output versus stdout), a file of format 1, a header whose counters
/// differ from the job's in number or
/// names ("has 5 counters, the job has 26; first difference at counter 5:
/// ...", see engine::counter_difference), a file longer than any
/// checkpoint of the job, or a
/// damaged complete record (checksum, a field count other than 3 + k, a bad
/// number, a task id ≥ tasks) → InvalidArgument("checkpoint", ...), never a
/// wrong total.
/// A last line without '\n' (the run was killed while writing it) is
/// dropped with a warning and cut off the file; that task runs again.

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "pcount/engine/hash.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/engine/task.hpp"

namespace pcount::engine {

/// The header lines identifying `job` (see the file comment); with
/// `output_offsets` the records carry --output marks.
[[nodiscard]] std::string checkpoint_header(const Job& job, bool output_offsets = false);

/// One record line (with checksum and '\n') for a finished task of `job`:
/// its Job::counter_names.size() counters of `task.counts` (a counter past
/// the end of its `counts` is written as 0), and with `output_offsets` its
/// TaskRecord::output (an empty file's mark when unset).
[[nodiscard]] std::string checkpoint_line(const TaskRecord& task, const Job& job, bool output_offsets = false);

/// The checksum field (8 hex digits) that a record line of `job` whose text
/// before the checksum is `body` must end with (no output marks): for tools
/// that write records, such as the fuzz target that reseals mutated lines.
[[nodiscard]] std::string checkpoint_record_checksum(std::string_view body, const Job& job);

/// A checkpoint whose records carry marks of a listing's output file.
struct CheckpointOutput {
  bool offsets = false;  ///< records carry TaskRecord::output
  /// Called before each batch of records is written and fsynced (the output
  /// file is synced first, so that no record names bytes not yet on disk);
  /// what it throws becomes the log's error (flush() and close() throw it).
  std::function<void()> before_sync;
};

/// Reads the records of an existing checkpoint file of `job` (without output
/// offsets) without changing or locking
/// it (MPI ranks read each other's logs); an absent file gives no records.
/// A truncated last line is skipped and described in `*warning` (if given).
/// Each record's tally has exactly job.counter_names.size() counters.
/// Throws InvalidArgument("checkpoint") for a foreign or damaged file.
[[nodiscard]] std::vector<TaskRecord> read_checkpoint(const std::string& path, const Job& job,
                                                      std::string* warning = nullptr);

/// An open checkpoint log for one job. Thread-safe `record`; one writer thread.
class CheckpointLog {
public:
  /// Opens and locks `path` for `job`: reads and checks an existing file
  /// (its records become `resumed()`), or creates it with the header.
  /// Throws InvalidArgument("checkpoint") for a foreign or damaged file,
  /// one that cannot be created, or one another process holds ("is in use
  /// by process P"). `flush_seconds` > 0 bounds the work a kill can lose.
  CheckpointLog(std::string path, const Job& job, double flush_seconds = 1.0, CheckpointOutput output = {});
  /// Stops the writer thread after a last flush (errors ignored: call close()).
  ~CheckpointLog();
  CheckpointLog(const CheckpointLog&) = delete;
  CheckpointLog& operator=(const CheckpointLog&) = delete;

  /// The tasks recorded by earlier runs, by increasing id, no duplicates.
  [[nodiscard]] const std::vector<TaskRecord>& resumed() const { return resumed_; }
  /// Non-empty when the file had a truncated last line (the warning text).
  [[nodiscard]] const std::string& warning() const { return warning_; }
  /// Whether the file could only be opened for reading (then record() is an
  /// error, reported by flush() and close()).
  [[nodiscard]] bool read_only() const { return read_only_; }
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
  bool output_offsets_;
  std::uint32_t seed_;  ///< FNV-1a of the header: each record's checksum starts from it
  std::function<void()> before_sync_;
  bool read_only_ = false;
  std::string read_only_why_;
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
