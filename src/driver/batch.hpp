#pragma once
// Internals shared by run_job (src/driver/run_job.cpp), merge
// (src/driver/merge.cpp) and driver::main. Not a public header.
#include <string>
#include <vector>

#include "pcount/driver/driver.hpp"
#include "pcount/engine/u128.hpp"

namespace pcount::driver {

/// The session's arguments without the batch and output options (--shard,
/// --out, --checkpoint, --stop-file, --profile, --progress, --quiet, --json):
/// what rebuilds the same job for `merge`.
[[nodiscard]] std::vector<std::string> problem_command(const Session& session);

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
/// read input when replaying (Session::replay).
[[nodiscard]] std::vector<std::string> job_arguments(const Program& program, const std::vector<std::string>& command,
                                                     std::vector<std::string>& ignored);

/// Parses `argv` (argv[0] is the program) against the options of
/// `program`, plans the chosen problem and runs it — or, when
/// `session.replay` is set (merge), reports the replayed totals after
/// checking the plan's fingerprint — then prints the report and runs the
/// deferred result-file writes. Returns the exit status (driver::main).
[[nodiscard]] int run_invocation(int argc, const char* const* argv, const Program& program, Session& session,
                                 std::ostream& out, std::ostream& err);

/// --estimate: predicts the cost of running `job` as the invocation asks
/// (threads, shard, MPI ranks) from a sample of its tasks run in full
/// (engine::estimate_run), prints it (text, or one JSON object with --json)
/// and throws EarlyExit{0}; nothing of the sample is kept. run_job calls it
/// instead of running when Common::estimate is set.
[[noreturn]] void print_estimate(const Invocation& inv, const engine::Job& job);

/// A node count in a JSON report: an integer (every count below 2^64, that
/// is every run that can finish), else its decimal string. An estimate's
/// nodes (a double) are rounded to an integer below 2^64 and stay a number
/// above.
[[nodiscard]] nlohmann::ordered_json nodes_json(const u128& nodes);
[[nodiscard]] nlohmann::ordered_json nodes_json(double nodes);

}  // namespace pcount::driver
