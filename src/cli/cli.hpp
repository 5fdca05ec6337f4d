#pragma once
// The `count` program's internals: the problem table, shared option parsing,
// running a job and printing its report. Not a public header.

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
};

/// One call of the program with one problem chosen.
struct Invocation {
  const po::variables_map& vm;
  Common common;
  std::ostream& out;
  std::ostream& err;

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

/// Runs a job with the invocation's thread limit (and, as they are added,
/// checkpoints, shards, progress). Throws what the engine throws.
[[nodiscard]] engine::RunResult run_job(const Invocation& inv, const engine::Job& job);

/// Prints the report: a readable block, or one JSON object with --json.
void print_report(const Invocation& inv, const engine::Job& job, const engine::RunResult& result,
                  const Report& report);

/// Runs the job and prints its report; returns the exit status (0).
int run_and_report(const Invocation& inv, const engine::Job& job, Report report);

/// Entry point of the program; returns the exit status.
int main(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace pcount::cli
