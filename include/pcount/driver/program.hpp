#pragma once
/// @file
/// The driver's runtime: the generic command-line program around engine
/// jobs, for whoever writes a program (`count`, `count-mpi`, examples/) or
/// works on the driver. A problem writer needs only driver/problem.hpp.
///
/// driver::main does everything for every problem alike: option parsing
/// and bad-input messages (exit 2), path checks before the run, the size
/// estimate, threads, progress, --json, --checkpoint, --shard/--out,
/// `merge`, --profile, --stop-file, signals and (count-mpi) MPI ranks.
/// docs/engine.md walks through a complete problem (examples/langford).

#include <chrono>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pcount/driver/problem.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/engine/shard.hpp"
#include "pcount/engine/task.hpp"

namespace pcount::driver {

struct Distributed;

/// Thrown by run_job when the program must stop without a problem report:
/// an interrupted run (status 130 for SIGINT, 143 for SIGTERM or the stop
/// file; what was done is already on stderr) or a finished shard of K > 1
/// (its partial counts are on stdout and in --out; status 0). driver::main
/// catches it and returns `status`. Problems must let it pass.
struct EarlyExit {
  int status = 0;
};

/// What one call of driver::main keeps for its whole run (no globals): the
/// program's name and arguments, the distributed runner (count-mpi), the
/// merged result `merge` reports instead of running, and result-file
/// writes left until the report is out.
struct Session {
  std::string program = "count";              ///< prefix of every message on stderr
  std::vector<std::string> command;           ///< argv[1..], stored in shard result files
  Distributed* distributed = nullptr;         ///< set by count-mpi, else null
  const engine::RunResult* replay = nullptr;  ///< merge: the shards' sum, returned instead of a run
  /// merge: what the shard files say (fingerprint, counters, task count),
  /// checked against the rebuilt job (engine::check_merge_matches_job).
  const engine::MergeResult* replay_files = nullptr;
  /// Writes of result files (--out, --profile) that run_job leaves until the
  /// report is on stdout; main runs them after the problem, so a file that
  /// cannot be written at the end loses no printed count (exit 1).
  std::vector<std::function<void()>> after_report;
  /// When the call started: --estimate reports the time spent before the
  /// tasks (the plan: class lists, tables) from it.
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  /// Program::progress of the program run.
  std::function<void(std::size_t done, std::size_t total)> progress;
};

/// How the program presents itself.
struct Program {
  std::string name = "count";              ///< in usage lines and as the prefix of messages
  std::string summary = {};                ///< one line under the usage in --help
  std::span<const Problem> problems = {};  ///< the problems it offers (one or more)
  /// How the program itself was built (compiler, build type, flags), for
  /// --version, which then names it and the library's build_info() apart;
  /// empty for a program built with the library in pcount's own CMake
  /// (count), whose one build is build_info().
  std::string build = {};
  /// Where a run reports its progress besides (or instead of) the progress
  /// line: called with the tasks done and the tasks of the run (this shard's,
  /// resumed ones included) about every 250 ms from a thread of the driver,
  /// and once more when the run ends; empty for none (count). The Python
  /// module hands it to a callback.
  std::function<void(std::size_t done, std::size_t total)> progress = {};
};

/// How this program was built, one line: compiler and its version, build
/// type, and the C++ flags of that type with the -march used (from CMake
/// at configure time; "unknown" for a build outside the project's CMake).
/// `count --version` prints it after the version.
[[nodiscard]] std::string_view build_info();

/// Runs a job with the invocation's thread limit, checkpoint (resume),
/// shard, progress display, profile, stop file, SIGINT/SIGTERM handling and,
/// in count-mpi, across MPI ranks (docs/hpc.md). A job whose tasks print
/// (Job::run_task_output) has its output written in task-id order through
/// `output` (see Output); it runs in one process (count-mpi refuses it with
/// InvalidArgument naming the problem). Returns only complete totals: an
/// interrupted run or a shard of K > 1 throws EarlyExit instead (totals
/// have Job::counter_names.size() counters; one job holds all of a
/// problem's counters). Throws InvalidArgument("checkpoint") for a foreign
/// or damaged checkpoint (one whose counters differ from the job's
/// included), and what the engine throws. Under `merge` the driver does not
/// call it: it reports the merged totals after engine::check_merge_matches_job.
[[nodiscard]] engine::RunResult run_job(const Invocation& inv, const engine::Job& job, const Output& output = {});

/// Before a job runs: estimates its size from Job::probe (Knuth 1975): 128
/// probes, and when those do not show the job to be small (under a
/// hundredth of the note threshold), 4000 (at most about half a second). Above one CPU-day at an
/// optimistic 10⁹ nodes per second per thread it prints a note on `inv.err`
/// (the estimate, the time, how to stop); above ten CPU-years it throws
/// InvalidArgument with the same estimate when standard input is not a
/// terminal, so that a batch job never starts an endless run by accident.
/// Jobs without a probe and --no-estimate-check skip it. run_job calls it.
void check_feasible(const Invocation& inv, const engine::Job& job);

/// `NAME merge [--json] [--raw] FILE...` (argv[0] = "merge"): checks and
/// adds shard result files, rebuilds the job from the files' command with
/// the problem's plan() (nothing runs) and prints its report as a single run
/// would (or, with --raw, the raw counters). Returns the exit status:
/// 0, 1 for a problem with the files (one line on stderr), 2 for bad usage.
int merge_main(int argc, const char* const* argv, const Program& program, std::ostream& out, std::ostream& err);

/// A distributed runner (count-mpi installs one before calling main): how
/// run_job hands out tasks across processes and adds up the results.
struct Distributed {
  virtual ~Distributed() = default;
  /// This process's rank (0 prints) and the number of processes.
  [[nodiscard]] virtual int rank() const = 0;
  [[nodiscard]] virtual int size() const = 0;
  /// Starts a run over `slots` schedule positions: checks every rank has the
  /// same fingerprint (throws otherwise) and resets the shared counter.
  virtual void begin(const std::string& fingerprint, std::size_t slots) = 0;
  /// Claims the next schedule position (thread-safe); ≥ slots when none left.
  [[nodiscard]] virtual std::size_t claim() = 0;
  /// Positions claimed so far by all ranks (for the progress display).
  [[nodiscard]] virtual std::size_t claimed() = 0;
  /// Adds up `result` (the tasks this rank ran) over all ranks; every rank
  /// gets the sum: the totals, with exactly `counters` counters (the job's;
  /// every rank passes the same number), tasks_run and steals (each rank's
  /// threads steal inside its own tasks). `interrupted` becomes true if any
  /// rank was interrupted; largest_task_share is the largest task of any
  /// rank over the nodes of all. Throws CountOverflow when a sum exceeds
  /// 128 bits.
  virtual void reduce(engine::RunResult& result, std::size_t counters) = 0;
  /// Gathers all ranks' finished task records on rank 0 (others keep theirs);
  /// each record carries `counters` counters.
  virtual void gather(std::vector<engine::TaskRecord>& tasks, std::size_t counters) = 0;
  /// Waits for every rank.
  virtual void barrier() = 0;
  /// A failure on this rank only: prints "count-mpi: rank R: <message>" on
  /// stderr and ends every rank (MPI_Abort) so that none waits forever.
  [[noreturn]] virtual void abort(const std::string& message, int status) = 0;
};

/// Prints the report: a readable block, or one JSON object with --json.
void print_report(const Invocation& inv, const engine::Job& job, const engine::RunResult& result, const Report& report);

/// Entry point of a program: `NAME PROBLEM [OPTIONS]` or `NAME merge FILE…`.
/// Parses argv, plans the chosen problem, runs its job (run_job) and prints
/// its report. Returns the exit status: 0 done, 1 a run-time failure (one
/// line on `err`), 2 bad arguments (one line on `err` naming the argument,
/// before any work), 130/143 stopped by SIGINT/SIGTERM or the stop file.
/// `distributed` is count-mpi's runner (null for a single process).
int main(int argc, const char* const* argv, const Program& program, std::ostream& out, std::ostream& err,
         Distributed* distributed = nullptr);

/// The exit status once `out` and `err` are flushed and checked (main calls
/// it last; so does any program that prints after main): a write to `out`
/// that failed (full disk, closed stdout, /dev/full) turns status 0 into 1
/// with one line on `err` ("NAME: error: writing to stdout failed:
/// No space left on device"); a failed `err` turns 0 into 1 silently. A
/// non-zero `status` is kept. For std::cout and std::cerr the C streams
/// stdout and stderr are flushed and checked too.
[[nodiscard]] int checked_exit(int status, const std::string& name, std::ostream& out, std::ostream& err);

}  // namespace pcount::driver
