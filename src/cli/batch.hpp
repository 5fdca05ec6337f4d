#pragma once
// Internals shared by run_job (src/cli/run_job.cpp), count merge
// (src/cli/merge.cpp) and cli::main. Not a public header.
#include <string>
#include <vector>

#include "pcount/engine/runner.hpp"
#include "pcount/engine/shard.hpp"

namespace pcount::cli {

/// Keeps the program's arguments (argv[1..]) for shard result files.
void remember_command(int argc, const char* const* argv);

/// The remembered arguments without the batch and output options (--shard,
/// --out, --checkpoint, --stop-file, --profile, --progress, --quiet, --json):
/// what rebuilds the same job for `count merge`.
[[nodiscard]] std::vector<std::string> problem_command();

/// The arguments of `command` (a shard file's "command") that define the
/// job: the problem option and its parameters, by an allow-list. Every
/// option that names a file (its value is FILE, PATH, DIR or F), prints or
/// draws more than the counts (--show, --ascii, --svg) or controls the run
/// (threads, progress, batch options), and every word that is not a known
/// option or its value (e.g. "merge", bundled flags such as -qh), is
/// dropped and added to `ignored` (made printable, at most 60 bytes each);
/// so that `count merge` never writes, reads or runs anything a file names.
[[nodiscard]] std::vector<std::string> job_arguments(const std::vector<std::string>& command,
                                                     std::vector<std::string>& ignored);

/// Makes run_job return `result` instead of running (count merge), after
/// checking that the job is the one the shard files `files` describe
/// (engine::check_merge_matches_job: fingerprint, counters, task count);
/// nullptr clears.
void set_replay(const engine::RunResult* result, const engine::MergeResult* files);

}  // namespace pcount::cli
