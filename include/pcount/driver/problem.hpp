#pragma once
/// @file
/// What a problem writer includes: a problem describes itself once, as a
/// driver::Problem — its option and parameters, its own options, and a
/// plan() that turns the parsed arguments into an engine::Job (fingerprint,
/// named counters, task list, kernel) plus a report() that turns complete
/// totals into what is printed. driver::main (driver/program.hpp) does
/// everything else. docs/engine.md walks through a complete problem
/// (examples/langford, examples/derangements).
///
/// Boost.Program_options (a problem declares its own options) and
/// nlohmann::json (a report's parameters and extra fields) are the
/// third-party types a problem meets; the runtime's (sessions, shard and
/// merge files, MPI) stay in driver/program.hpp.

#include <concepts>
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
#include "pcount/engine/fingerprint.hpp"
#include "pcount/engine/task.hpp"

namespace pcount::driver {

namespace po = boost::program_options;

struct Problem;
struct Session;

/// Options every problem understands.
struct Common {
  int threads = 0;                 ///< resolved: ≥ 1
  std::optional<int> split_depth;  ///< --split-depth, unset = automatic
  std::string method;              ///< --method, empty = the problem's default
  bool json = false;               ///< --json
  bool quiet = false;              ///< --quiet
  bool progress = false;           ///< --progress
  // Batch options (docs/hpc.md); handled entirely inside run_job.
  std::string checkpoint;       ///< --checkpoint FILE, empty = none
  std::string stop_file;        ///< --stop-file PATH, empty = none
  std::size_t shard_index = 0;  ///< --shard I/K: I
  std::size_t shard_count = 1;  ///< --shard I/K: K (1 = the whole job)
  std::string out_file;         ///< --out FILE (shard result JSON), empty = none
  /// --output FILE: the output of a job whose tasks print (--list,
  /// --puzzle-file) goes to FILE, written exactly once across resumes; the
  /// report goes to stdout. Empty = stdout.
  std::string output_file;
  std::string profile;         ///< --profile FILE (per-task CSV), empty = none
  bool estimate_check = true;  ///< false with --no-estimate-check
  /// --list [K]: the problem prints each object it counts (Problem::lists;
  /// docs/engine.md, "Listing objects").
  bool list = false;
  std::uint64_t list_limit = 0;  ///< --list K: K ≥ 1; 0 = all (--list without K)
  /// --estimate [S]: print the run's predicted cost (a sample of tasks run in
  /// full, about S seconds, default 3) instead of running it.
  bool estimate = false;
  double estimate_budget = 3.0;  ///< S, in seconds: 0.1 ≤ S ≤ 600
  /// --memory-limit SIZE, in bytes (Problem::memory_limit): a run whose
  /// priced peak memory per process exceeds it is refused before any work.
  /// Unset = the problem's own default.
  std::optional<double> memory_limit;
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
  /// Whether this is one of several processes of count-mpi (ranks share the
  /// job; an interactive run such as --play is refused there).
  [[nodiscard]] bool distributed() const;
  /// The program's name, the prefix of every message on stderr ("count").
  [[nodiscard]] const std::string& program() const;
  /// Under `count merge`: the shards' figures (totals, tasks, threads), which
  /// the plan reports instead of running; its input files are not read then.
  /// nullptr for a run.
  [[nodiscard]] const engine::RunResult* replayed() const;
  /// Under `count merge` of shard files: the fingerprint they carry, which
  /// the plan's job must equal; empty otherwise.
  [[nodiscard]] std::string replayed_fingerprint() const;

  /// The parameters the plan declared through Params, as the fingerprint
  /// fields they must appear as ("n=7", or a bare word such as "misere").
  /// The driver clears it before plan() and afterwards refuses (an
  /// InternalError) a job whose fingerprint lacks one of them.
  mutable std::vector<std::string> declared = {};
};

/// A problem's parameters, each declared once: the declaration parses the
/// option (throwing InvalidArgument naming it, before any work), records
/// the value, and fingerprint() writes every recorded value into the job's
/// fingerprint, in declaration order. After plan() the driver checks that
/// the job's fingerprint holds every declared value (Invocation::declared),
/// so a parameter cannot be parsed and then left out of the fingerprint,
/// which would let checkpoints and shards of different jobs mix:
///
///     Params params(inv);
///     const int n = params.integer("--latin", "n", 1, 16);
///     const int k = params.integer("--rows", "rows", 1, n, n);  // default: n
///     const std::string method = params.method({"search", "classes"}, "search");
///     make_job(..., params.fingerprint("latin"));  // "pcount/<v> latin n=7 rows=7 method=search"
///
/// A parameter that a kernel writes into the fingerprint itself (queens
/// --outer-columns: "outer=4") is declared with Params::checked: fingerprint()
/// leaves it out, the driver's check still requires it. Options that do not
/// change any count (--show, --cache-dir, limits) are read with parse_int.
class Params {
public:
  /// Who writes a parameter into the fingerprint.
  enum Written {
    by_params,  ///< fingerprint() does
    checked,    ///< the kernel, or the problem's own words; only checked
  };

  explicit Params(const Invocation& inv) : inv_(inv) {}

  /// Option `option` ("--rows"; the problem's own option, "--latin", too)
  /// as a whole number in [lo, hi] (parse_int), recorded as "name=value";
  /// when the option is absent, `fallback` (recorded the same way), or an
  /// InvalidArgument if there is none.
  long long integer(std::string_view option, std::string_view name, long long lo, long long hi,
                    std::optional<long long> fallback = std::nullopt, Written written = by_params);
  /// As integer(), without a fallback: nullopt, and nothing recorded, when
  /// the option is absent (the job then chooses, e.g. latin's class degree).
  std::optional<long long> optional_integer(std::string_view option, std::string_view name, long long lo, long long hi,
                                            Written written = by_params);
  /// Option `option` as one of `allowed`, or `fallback` when absent,
  /// recorded as "name=value". Throws InvalidArgument(option) listing them.
  std::string choice(std::string_view option, std::string_view name, const std::vector<std::string>& allowed,
                     const std::string& fallback, Written written = by_params);
  /// --method (choose_method), recorded as "method=value".
  std::string method(const std::vector<std::string>& allowed, const std::string& fallback, Written written = by_params);
  /// Flag `option` given or not, recorded as the bare word `if_set` or
  /// `if_unset` ("misere" or "normal"); an empty word records nothing.
  bool flag(std::string_view option, std::string_view if_set, std::string_view if_unset, Written written = by_params);
  /// A value the problem computes from its arguments (a box shape),
  /// recorded as "name=value".
  void record(std::string_view name, std::string_view value, Written written = by_params);

  /// Fingerprint(problem) with every by_params parameter declared so far,
  /// in declaration order.
  [[nodiscard]] engine::Fingerprint fingerprint(std::string_view problem) const;

private:
  void note(std::string field, Written written);
  const Invocation& inv_;
  std::vector<std::string> fields_;  ///< by_params fields, in order
};

/// The declared parameters (Invocation::declared) that `fingerprint` lacks,
/// in declaration order; empty when it holds them all.
[[nodiscard]] std::vector<std::string> missing_parameters(const Invocation& inv, std::string_view fingerprint);

/// What a problem prints about its counts.
struct Report {
  std::string problem = {};                                          ///< e.g. "latin"
  std::string title = {};                                            ///< e.g. "reduced Latin squares of order 7"
  nlohmann::ordered_json params = nlohmann::ordered_json::object();  ///< e.g. {"n": 7}
  std::string method = {};                                           ///< e.g. "search"
  std::vector<std::pair<std::string, std::string>> counts = {};      ///< name → decimal, in print order
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();   ///< further fields (JSON and text)
  std::string text_after = {};  ///< printed after the text block (not with --json), e.g. drawn boards
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

/// One stage of a priced set-up (or of tasks that cannot be sampled
/// before the set-up exists), with its CPU time as an interval.
struct PriceStage {
  /// A quantity the stage handles, from `low` to `high` `unit` (equal when
  /// known exactly), e.g. 1.42e8 to 1.67e8 "classes".
  struct Size {
    double low = 0.0;
    double high = 0.0;
    std::string unit = {};
  };
  std::string name = {};         ///< e.g. "5-regular list (nauty-genbg)"
  std::vector<Size> sizes = {};  ///< what it handles
  double cpu_low = 0.0;          ///< CPU seconds of all workers together, lower end
  double cpu_high = 0.0;         ///< upper end; +infinity when only a lower bound is known
  bool cached = false;           ///< already kept in the cache: the run reads it (costs 0)
  std::string basis = {};        ///< where its rate comes from, one line
};

/// What a problem's set-up will cost — the work its plan() does before any
/// task (class lists, lookup tables) — told before that work is done, so
/// that --estimate S can say so instead of running a set-up longer than S
/// (docs/hpc.md, "How long will it take?").
struct SetupPrice {
  /// Predicted wall seconds of the set-up for this invocation (its threads,
  /// what is cached now); 0 when negligible.
  double seconds = 0.0;
  std::string what = {};   ///< what it builds, e.g. "graph class lists (nauty-genbg) and a lookup table"
  std::string basis = {};  ///< where the figure comes from, e.g. a recorded run
  /// Where the set-up's results are kept, so that the run (and later runs)
  /// read them instead of building them again; empty when nothing is kept.
  std::string cache = {};
  /// The stages, when the problem prices them one by one (then `seconds`
  /// is the set-up's part of them on the run's threads).
  std::vector<PriceStage> stages = {};
  /// Bytes one process holds at its peak, as an interval; 0 = not priced.
  double peak_bytes_low = 0.0;
  double peak_bytes_high = 0.0;
  std::string peak_what = {};  ///< what holds them
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

/// A problem the driver runs: chosen by `--<option> <value_name>`. Tables
/// of problems are written with designated initialisers
/// (`{.option = "pairs", .value_name = "N", ...}`), so every field is named.
struct Problem {
  std::string_view option = {};                             ///< long option without dashes, e.g. "latin"
  std::string_view value_name = {};                         ///< e.g. "N"; empty for a flag
  std::string_view help = {};                               ///< one line for --help
  std::string_view group = {};                              ///< entries of one group share problem options
  void (*add_options)(po::options_description&) = nullptr;  ///< the group's own options (one entry per group), or null
  std::string_view methods = {};  ///< its --method values for --help, e.g. "search|classes"; empty if none
  /// Parses the problem's arguments (throwing InvalidArgument naming the
  /// option, before any work) and returns the job and its report.
  Plan (*plan)(const Invocation&) = nullptr;
  /// Instead of plan, or before it: a problem that runs something itself
  /// (an interactive game, several jobs through run_job, its own printing)
  /// returns the exit status; std::nullopt hands the invocation on to
  /// plan (a problem with both handles only some invocations itself, e.g.
  /// --play). (A job whose tasks print, such as --puzzle-file, is a plan:
  /// Plan::output.)
  std::optional<int> (*run)(const Invocation&) = nullptr;
  /// Its parameters' options, for error messages (see ParameterOption).
  std::span<const ParameterOption> parameters = {};
  /// Whether its plan supports --list (a job with run_task_output that
  /// prints one object per line; see list_json and docs/engine.md). The
  /// driver refuses --list for the others (exit 2) before any work.
  bool lists = false;
  /// Whether its plan prices its peak memory per process and refuses a run
  /// above --memory-limit (InvalidArgument("--memory-limit")). The driver
  /// refuses --memory-limit for the others (exit 2) before any work.
  bool memory_limit = false;
  /// Optional, for a problem whose plan() has a long set-up: its price for
  /// this invocation, from cheap checks only (which cache files exist), or
  /// nullopt when there is nothing to say. --estimate calls it before
  /// plan(). Null: the set-up is taken as negligible (it still counts
  /// against --estimate S, and is reported after it ran).
  std::optional<SetupPrice> (*price_setup)(const Invocation&) = nullptr;
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

/// The job fingerprint builder and its prefix live in the engine, so that
/// kernels build their own jobs' fingerprints the same way
/// (engine/fingerprint.hpp); every problem of pcount builds its fingerprint
/// with it: `Fingerprint("latin").add("n", 7)`.
using engine::Fingerprint;
using engine::fingerprint_prefix;

/// The program's version string ("0.1.0"), as fingerprints and --version give it.
[[nodiscard]] std::string_view version();

/// Whole number from `text` in [lo, hi]; throws InvalidArgument(arg) naming
/// the range otherwise.
[[nodiscard]] long long parse_int(const std::string& arg, const std::string& text, long long lo, long long hi);

/// A size in bytes from `text`: a whole number, optionally with a binary
/// unit K, M, G or T (also KiB, MiB, GiB, TiB), from 1 MiB to below 2^64
/// bytes; throws InvalidArgument(arg) naming that range otherwise.
[[nodiscard]] double parse_memory_size(const std::string& arg, const std::string& text);

/// Physical memory of the machine in bytes (sysconf); 0 when unknown.
[[nodiscard]] double machine_memory();

/// "12.5 GiB" (three decimals below 1 GiB).
[[nodiscard]] std::string gibibytes(double bytes);

/// "RxC" box shape, 1 ≤ R, C ≤ max_side; throws InvalidArgument(arg).
[[nodiscard]] std::pair<int, int> parse_box(const std::string& arg, const std::string& text, int max_side = 16);

/// The --method value checked against `allowed`, or `fallback` when absent.
/// Throws InvalidArgument("--method") naming the allowed methods.
[[nodiscard]] std::string choose_method(const Invocation& inv, const std::vector<std::string>& allowed,
                                        const std::string& fallback);

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

}  // namespace pcount::driver
