#pragma once
// The `count` program's internals: the problem table, shared option parsing,
// running a job and printing its report. Not a public header.

#include <cstddef>
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

#include "pcount/engine/errors.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/engine/task.hpp"

namespace pcount::cli {

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
  std::string profile;             ///< --profile FILE (per-task CSV), empty = none
  bool estimate_check = true;      ///< false with --no-estimate-check
};

/// Thrown by run_job when the program must stop without a problem report:
/// an interrupted run (status 130 for SIGINT, 143 for SIGTERM or the stop
/// file; what was done is already on stderr) or a finished shard of K > 1
/// (its partial counts are on stdout and in --out; status 0). cli::main
/// catches it and returns `status`. Problems must let it pass.
struct EarlyExit {
  int status = 0;
};

/// One call of the program with one problem chosen.
struct Invocation {
  const po::variables_map& vm;
  Common common;
  std::ostream& out;
  std::ostream& err;
  /// Writes of result files (--out, --profile) that run_job leaves until the
  /// report is on stdout: cli::main runs them after the problem returns, so
  /// a file that cannot be written at the end loses no printed count (exit 1).
  std::vector<std::function<void()>>* after_report = nullptr;

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
};

/// A problem of the `count` program: `--<option> <value_name>`.
struct ProblemEntry {
  std::string_view option;      ///< long option without dashes, e.g. "latin"
  std::string_view value_name;  ///< e.g. "N"; empty for a flag
  std::string_view help;        ///< one line for --help
  std::string_view group;       ///< entries of one group share problem options
  void (*add_options)(po::options_description&);  ///< the group's own options (one entry per group), or null
  int (*run)(const Invocation&);                  ///< runs the problem; returns the exit status
};

/// The problem table (src/cli/problems.cpp): the one place problems register.
[[nodiscard]] std::span<const ProblemEntry> problems();

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

/// Runs a job with the invocation's thread limit, checkpoint (resume),
/// shard, progress display, profile, stop file, SIGINT/SIGTERM handling and,
/// in count-mpi, across MPI ranks (docs/hpc.md). Returns only complete
/// totals (Job::counter_names.size() counters): an interrupted run or a
/// shard of K > 1 throws EarlyExit instead. A problem calls it once per
/// invocation (one job holds all of a problem's counters). Under `count
/// merge` it returns the merged shards' totals instead of running, after
/// checking that they are results of `job` (engine::check_merge_matches_job;
/// std::runtime_error("merge: ...") otherwise).
/// Throws InvalidArgument("--checkpoint") for a foreign or damaged checkpoint
/// (one whose counters differ from the job's included), and what the engine
/// throws.
[[nodiscard]] engine::RunResult run_job(const Invocation& inv, const engine::Job& job);

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

/// `count merge [--json] [--raw] FILE...` (argv[0] = "merge"): checks and adds
/// shard result files, then prints the problem's report as a single run
/// would (or, with --raw, the raw counters). Returns the exit status:
/// 0, 1 for a problem with the files (one line on stderr), 2 for bad usage.
int merge_main(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

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

/// Installs (or, with nullptr, removes) the distributed runner used by run_job.
void set_distributed(Distributed* d);

/// Prints the report: a readable block, or one JSON object with --json.
void print_report(const Invocation& inv, const engine::Job& job, const engine::RunResult& result,
                  const Report& report);

/// Runs the job and prints its report; returns the exit status (0).
int run_and_report(const Invocation& inv, const engine::Job& job, Report report);

/// Entry point of the program; returns the exit status.
int main(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace pcount::cli
