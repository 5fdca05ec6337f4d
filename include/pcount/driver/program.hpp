#pragma once
/// @file
/// The driver: one generic command-line program around engine jobs.
///
/// A problem describes itself once, as a driver::Problem: its option and
/// parameters, its own options, and a plan() that turns the parsed
/// arguments into an engine::Job (fingerprint, named counters, task list,
/// kernel) plus a report() that turns complete totals into what is printed.
/// driver::main does everything else for every problem alike: option
/// parsing and bad-input messages (exit 2), path checks before the run, the
/// size estimate, threads, progress, --json, --checkpoint, --shard/--out,
/// `merge`, --profile, --stop-file, signals and (count-mpi) MPI ranks.
/// docs/engine.md walks through a complete problem (examples/langford).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "pcount/errors.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/engine/shard.hpp"
#include "pcount/engine/task.hpp"

namespace pcount::driver {

namespace po = boost::program_options;

/// Options every problem understands.
struct Common {
  int threads = 0;                 ///< resolved: ≥ 1
  std::optional<int> split_depth;  ///< --split-depth, unset = automatic
  std::string method;              ///< --method, empty = the problem's default
  bool json = false;               ///< --json
  bool quiet = false;              ///< --quiet
  bool progress = false;           ///< --progress
  // Batch options (docs/hpc.md); handled entirely inside run_job.
  std::string checkpoint;          ///< --checkpoint FILE, empty = none
  std::string stop_file;           ///< --stop-file PATH, empty = none
  std::size_t shard_index = 0;     ///< --shard I/K: I
  std::size_t shard_count = 1;     ///< --shard I/K: K (1 = the whole job)
  std::string out_file;            ///< --out FILE (shard result JSON), empty = none
  /// --output FILE: the output of a job whose tasks print (--list,
  /// --puzzle-file) goes to FILE, written exactly once across resumes; the
  /// report goes to stdout. Empty = stdout.
  std::string output_file;
  std::string profile;             ///< --profile FILE (per-task CSV), empty = none
  bool estimate_check = true;      ///< false with --no-estimate-check
  /// --list [K]: the problem prints each object it counts (Problem::lists;
  /// docs/engine.md, "Listing objects").
  bool list = false;
  std::uint64_t list_limit = 0;    ///< --list K: K ≥ 1; 0 = all (--list without K)
  /// --estimate [S]: print the run's predicted cost (a sample of tasks run in
  /// full, about S seconds, default 3) instead of running it.
  bool estimate = false;
  double estimate_budget = 3.0;    ///< S, in seconds: 0.1 ≤ S ≤ 600
};

/// Thrown by run_job when the program must stop without a problem report:
/// an interrupted run (status 130 for SIGINT, 143 for SIGTERM or the stop
/// file; what was done is already on stderr) or a finished shard of K > 1
/// (its partial counts are on stdout and in --out; status 0). driver::main
/// catches it and returns `status`. Problems must let it pass.
struct EarlyExit {
  int status = 0;
};

struct Distributed;
struct Problem;

/// What one call of driver::main keeps for its whole run (no globals): the
/// program's name and arguments, the distributed runner (count-mpi), the
/// merged result `merge` reports instead of running, and result-file
/// writes left until the report is out.
struct Session {
  std::string program = "count";           ///< prefix of every message on stderr
  std::vector<std::string> command;        ///< argv[1..], stored in shard result files
  Distributed* distributed = nullptr;      ///< set by count-mpi, else null
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
};

/// One call of the program with one problem chosen.
struct Invocation {
  const po::variables_map& vm;
  Common common;
  std::ostream& out;
  std::ostream& err;
  Session& session;
  const Problem* problem = nullptr;  ///< the problem chosen

  /// The string value of option `name` (without dashes); nullopt if absent.
  [[nodiscard]] std::optional<std::string> value(const std::string& name) const;
  /// Whether the flag or option `name` was given.
  [[nodiscard]] bool has(const std::string& name) const { return vm.count(name) > 0; }
};

/// What a problem prints about its counts.
struct Report {
  std::string problem;                                      ///< e.g. "latin"
  std::string title;                                        ///< e.g. "reduced Latin squares of order 7"
  nlohmann::ordered_json params = nlohmann::ordered_json::object();  ///< e.g. {"n": 7}
  std::string method;                                       ///< e.g. "search"
  std::vector<std::pair<std::string, std::string>> counts;  ///< name → decimal, in print order
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();   ///< further fields (JSON and text)
  std::string text_after;  ///< printed after the text block (not with --json), e.g. drawn boards
  /// Exit status of a run after the report: e.g. 1 when some input lines
  /// were bad. Not used by `merge` (0 when the files add up).
  int status = 0;
};

/// How run_job delivers the output of a job whose tasks print
/// (engine::Job::run_task_output): each task's text, in task-id order
/// (engine/runner.hpp, "Ordered output"), so stdout is the same for every
/// thread count. Only the tasks run in this call print: a resumed
/// checkpoint's tasks print nothing again, and a shard prints its own
/// tasks only.
struct Output {
  /// Writes one task's text to `out`: inv.out (stdout), or the file of
  /// --output FILE. Default: as is. run_job flushes `out` after each task,
  /// before the checkpoint records it (so a recorded task's output is
  /// written). On stdout that is at-least-once: after a kill -9 the last
  /// tasks written may be printed again by the resumed run, never lost.
  /// With --output FILE it is exactly once: the checkpoint records the
  /// file's length after each task, and a resumed run cuts the file back to
  /// the last recorded length before it writes on.
  std::function<void(std::string_view text, std::ostream& out)> write;
  /// The line (without program name and newline) run_job prints on stderr
  /// before the run when the checkpoint already holds `tasks` tasks of this
  /// shard, whose counts add up to `resumed`. Default: "--checkpoint FILE:
  /// T tasks were done by earlier runs; their output is not printed again".
  std::function<std::string(const engine::Tally& resumed, std::size_t tasks)> resumed_note;
  /// Most lines to write (0 = no limit), for --list K: once that many lines
  /// are written run_job writes nothing more, cancels the run (no task
  /// starts, running ones finish) and, when tasks were left out or stopped,
  /// prints a note on stderr instead of the report and exits 0 (EarlyExit).
  std::uint64_t max_lines = 0;
};

/// A problem's answer to one invocation: the job to run and how to report it.
struct Plan {
  /// The job (fingerprint, counter names, tasks, kernel; engine/task.hpp).
  /// Its fingerprint should start with driver::fingerprint_prefix().
  engine::Job job;
  /// Builds the report from the job's complete totals — after a full run, a
  /// resumed one or `merge` of all shards. May throw InternalError when a
  /// run-time self-check fails (nothing wrong is then printed).
  std::function<Report(const engine::RunResult&)> report;
  /// false for a job whose report needs more than its counts (a search that
  /// finds one object): --checkpoint, --shard and --out are refused.
  bool batch = true;
  /// For a job whose tasks print (Job::run_task_output): how their text is
  /// written. Such a job's stdout is its tasks' output only: its report (and
  /// a shard's partial counts) go to stderr instead, and --quiet leaves them
  /// out; `merge` prints the report on stdout as for any job.
  Output output;
};

/// Library code names the parameter at fault in InvalidArgument ("order",
/// "box_shape", "split_depth"); the driver turns it into the option that
/// sets it ("--latin", "--sudoku", "--split-depth") before printing.
/// Common parameters (threads, split_depth, method, checkpoint, shard,
/// cache_dir) are known to the driver; a problem lists its own.
struct ParameterOption {
  std::string_view parameter;  ///< e.g. "order"
  std::string_view option;     ///< e.g. "--latin"
};

/// A problem the driver runs: chosen by `--<option> <value_name>`.
struct Problem {
  std::string_view option;      ///< long option without dashes, e.g. "latin"
  std::string_view value_name;  ///< e.g. "N"; empty for a flag
  std::string_view help;        ///< one line for --help
  std::string_view group;       ///< entries of one group share problem options
  void (*add_options)(po::options_description&);  ///< the group's own options (one entry per group), or null
  std::string_view methods;     ///< its --method values for --help, e.g. "search|classes"; empty if none
  /// Parses the problem's arguments (throwing InvalidArgument naming the
  /// option, before any work) and returns the job and its report.
  Plan (*plan)(const Invocation&) = nullptr;
  /// Instead of plan: a problem that runs its jobs itself (several jobs,
  /// its own printing) through run_job; returns the exit status. (A job
  /// whose tasks print, such as --puzzle-file, is a plan: Plan::output.)
  int (*run)(const Invocation&) = nullptr;
  /// What `run` returns, in a problem that has both run and plan, to go on
  /// with plan (run handles only some invocations, e.g. --play).
  static constexpr int kUsePlan = -1;
  /// Its parameters' options, for error messages (see ParameterOption).
  std::span<const ParameterOption> parameters = {};
  /// Whether its plan supports --list (a job with run_task_output that
  /// prints one object per line; see list_json and docs/engine.md). The
  /// driver refuses --list for the others (exit 2) before any work.
  bool lists = false;
};

/// For a listing plan (--list): whether each object is printed as one JSON
/// object per line (--json) rather than as text. Under `merge` the format
/// is the one the shard files were written with (from their fingerprint,
/// which a listing job ends with list_fingerprint(inv)).
[[nodiscard]] bool list_json(const Invocation& inv);
/// " list=text" or " list=json": appended to a listing job's fingerprint, so
/// that checkpoints and shards of the two formats, or of a counting run, do
/// not mix.
[[nodiscard]] std::string list_fingerprint(const Invocation& inv);

/// How the program presents itself.
struct Program {
  std::string name = "count";         ///< in usage lines and as the prefix of messages
  std::string summary;                ///< one line under the usage in --help
  std::span<const Problem> problems;  ///< the problems it offers (one or more)
  /// How the program itself was built (compiler, build type, flags), for
  /// --version, which then names it and the library's build_info() apart;
  /// empty for a program built with the library in pcount's own CMake
  /// (count), whose one build is build_info().
  std::string build = {};
};

/// "pcount/<version> ": the start of every job fingerprint, so that files of
/// another program version are refused.
[[nodiscard]] std::string fingerprint_prefix();

/// Whole number from `text` in [lo, hi]; throws InvalidArgument(arg) naming
/// the range otherwise.
[[nodiscard]] long long parse_int(const std::string& arg, const std::string& text, long long lo, long long hi);

/// "RxC" box shape, 1 ≤ R, C ≤ max_side; throws InvalidArgument(arg).
[[nodiscard]] std::pair<int, int> parse_box(const std::string& arg, const std::string& text, int max_side = 16);

/// The --method value checked against `allowed`, or `fallback` when absent.
/// Throws InvalidArgument("--method") naming the allowed methods.
[[nodiscard]] std::string choose_method(const Invocation& inv, const std::vector<std::string>& allowed,
                                        const std::string& fallback);

/// The program's version string.
[[nodiscard]] std::string_view version();

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

/// The `min_tasks` to pass to engine::auto_split_depth for an automatic
/// split depth: max(1024, 16 × threads). It does not depend on --threads up
/// to 64 threads, so a checkpoint resumed (or shards merged, or an MPI job
/// run) with another --threads still has the same split and fingerprint.
[[nodiscard]] std::size_t auto_split_min_tasks(const Invocation& inv);

/// The workers of the run: --threads times the MPI ranks under count-mpi
/// (1 without). For a problem whose task decomposition depends on it
/// (a task should be at most 1/(4 × workers) of the work), so that its
/// fingerprint, and what a checkpoint resumes, stays the same for every
/// worker count on the same side of the problem's threshold.
[[nodiscard]] std::size_t run_workers(const Invocation& inv);

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
  /// Sums `local` (the tasks this rank ran) over all ranks; every rank gets
  /// the sum, with exactly `counters` counters (the job's; every rank passes
  /// the same number). `interrupted` becomes true if any rank was
  /// interrupted. Throws CountOverflow when a sum exceeds 128 bits.
  virtual void reduce(engine::Tally& local, std::size_t counters, std::size_t& tasks_run, bool& interrupted) = 0;
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
void print_report(const Invocation& inv, const engine::Job& job, const engine::RunResult& result,
                  const Report& report);

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
