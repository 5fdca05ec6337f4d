#pragma once
// Internals shared by run_job (src/driver/run_job.cpp), merge
// (src/driver/merge.cpp) and driver::main. Not a public header.
#include <csignal>
#include <functional>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include "pcount/driver/program.hpp"
#include "pcount/u128.hpp"
#include "driver/report_format.hpp"

namespace pcount::driver {

/// The session's arguments without the batch and output options (--shard,
/// --out, --checkpoint, --stop-file, --profile, --progress, --quiet, --json):
/// what rebuilds the same job for `merge`.
[[nodiscard]] std::vector<std::string> problem_command(const Session& session);

/// The program whose `merge` adds up this session's shards, for messages:
/// the program itself, except that count-mpi's shards are merged by count.
[[nodiscard]] std::string merge_program(const Session& session);

/// The arguments of `command` (a shard file's "command") that define the
/// job: the problem option and its parameters, by an allow-list against the
/// options of `program`. Every option that names a file (its value is FILE,
/// PATH, DIR or F), prints or draws more than the counts (--show, --ascii,
/// --svg) or controls the run (threads, progress, batch options), and every
/// word that is not a known option or its value (e.g. "merge", bundled flags
/// such as -qh), is dropped and added to `ignored` (made printable, at most
/// 60 bytes each); so that `merge` never writes, reads or runs anything a
/// file names. A problem option whose value is a file (--puzzle-file F) is
/// kept with the value "-": the problem stays chosen, and its plan does not
/// read input when replaying (Session::replay). So is an input file that
/// decides the count (--strategy-file): its plan names the job from the
/// shards' fingerprint, which holds the file's digest, and reads nothing.
[[nodiscard]] std::vector<std::string> job_arguments(const Program& program, const std::vector<std::string>& command,
                                                     std::vector<std::string>& ignored);

/// PCOUNT_CHECKPOINT_SECONDS: the checkpoint's flush period (default 1 s;
/// tests use less), a number of seconds from 0.001 to 3600. Throws
/// InvalidArgument("PCOUNT_CHECKPOINT_SECONDS") for any other value, as for
/// an option (checked before any work when --checkpoint is given).
[[nodiscard]] double checkpoint_flush_seconds();

/// Parses `argv` (argv[0] is the program) against the options of
/// `program`, plans the chosen problem and runs it — or, when
/// `session.replay` is set (merge), reports the replayed totals after
/// checking the plan's fingerprint — then prints the report and runs the
/// deferred result-file writes. Returns the exit status (driver::main).
[[nodiscard]] int run_invocation(int argc, const char* const* argv, const Program& program, Session& session,
                                 std::ostream& out, std::ostream& err);

/// Optimistic search speed, nodes per second and thread: no kernel of ours
/// visits more, so CPU times computed with it are lower bounds (the check
/// before a run, and --estimate when no task finishes).
inline constexpr double kOptimisticNodesPerSecond = 1e9;

/// While a job with --estimate S is planned (its set-up: class lists,
/// tables), says on stderr once S seconds have passed that the set-up cannot
/// be cut short, then how long it has run every 15 s, until destroyed. Does
/// nothing without --estimate or with --quiet.
class SetupNotice {
public:
  explicit SetupNotice(const Invocation& inv);
  ~SetupNotice();
  SetupNotice(const SetupNotice&) = delete;
  SetupNotice& operator=(const SetupNotice&) = delete;

private:
  struct State;
  std::unique_ptr<State> state_;
};

/// While a job is planned (its set-up: input read, class lists, tables),
/// SIGINT and SIGTERM end the process at once with the run's exit status
/// (130, 143) and one line on stderr, "count: stopped by SIGINT during the
/// set-up, before any task ran; nothing was counted"; the old handlers come
/// back when destroyed. Nothing is lost: no task has run, and files are
/// only ever replaced whole (engine/files.hpp).
class SetupSignals {
public:
  explicit SetupSignals(const Invocation& inv);
  ~SetupSignals();
  SetupSignals(const SetupSignals&) = delete;
  SetupSignals& operator=(const SetupSignals&) = delete;

private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

/// The report of a plan (Plan::report).
using ReportMaker = std::function<Report(const engine::RunResult&)>;

/// --estimate, before the plan: the problem's price of its set-up
/// (Problem::price_setup). When that exceeds S it prints an estimate of the
/// set-up alone (text, or one JSON object) and throws EarlyExit{0} without
/// running it; otherwise it returns the price (nullopt without --estimate or
/// without a price).
[[nodiscard]] std::optional<SetupPrice> price_setup(const Invocation& inv);

/// --estimate: predicts the cost of running `job` as the invocation asks
/// (threads, shard, MPI ranks) from a sample of its tasks run in full
/// (engine::estimate_run), prints it (text, or one JSON object with --json)
/// and throws EarlyExit{0}. When the sample ran every task of the job (not
/// a shard of it), it prints the answer as well: `report` of the sample's
/// counts, exact (when `report` is set). When no task finishes within the
/// budget it prints the tree size (Knuth's estimate) and the CPU time that
/// gives at kOptimisticNodesPerSecond instead. The sample gets what is left
/// of S after the set-up (at least a tenth of S); `price` is what the set-up
/// was priced at before it ran (price_setup). run_job calls it instead of
/// running when Common::estimate is set; run_invocation calls it through
/// estimate_plan, with the plan's report.
[[noreturn]] void print_estimate(const Invocation& inv, const engine::Job& job, const ReportMaker& report = {},
                                 const std::optional<SetupPrice>& price = {});

/// --estimate of a plan: the checks run_job makes first, then print_estimate
/// with the plan's report and the set-up's price.
[[noreturn]] void estimate_plan(const Invocation& inv, const Plan& plan, const std::optional<SetupPrice>& price);

}  // namespace pcount::driver
