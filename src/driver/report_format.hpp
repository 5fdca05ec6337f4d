#pragma once
// How every report is written: the text block of aligned lines, the fields
// every JSON report starts with (docs/json.md), and the figures of how a job
// ran, shared by the run, shard, merge and estimate reports. Not a public
// header.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "pcount/engine/runner.hpp"
#include "pcount/u128.hpp"

namespace pcount::driver {

/// A text report: one "key  value" line each, values aligned at column 14
/// (or one past a longer key).
class TextBlock {
public:
  /// Adds the line "key value".
  void line(const std::string& key, const std::string& value);
  /// The lines so far, each ending in '\n'.
  [[nodiscard]] std::string str() const { return s_.str(); }

private:
  std::ostringstream s_;
};

/// The kinds of JSON report (the "report" field of docs/json.md).
enum class ReportKind { run, shard, merge, estimate };

/// The fields every JSON report starts with: program, version, report (its
/// kind) and context (date, host, cpu, cores, load, commit, build; see
/// docs/json.md).
[[nodiscard]] nlohmann::ordered_json json_head(ReportKind kind);

/// How a job ran, as a report shows it. Unset or zero fields are left out
/// of the text and are null (or absent: shards, ranks, task_seconds) in JSON.
struct JobFigures {
  int threads = 0;                  ///< threads (per process; the most of any shard under merge)
  std::size_t tasks = 0;            ///< the job's tasks (a shard: its own)
  std::size_t tasks_total = 0;      ///< the job's tasks when `tasks` is a shard's share, else 0
  std::size_t tasks_run = 0;        ///< computed by the run(s)
  std::size_t tasks_resumed = 0;    ///< taken from checkpoints
  std::optional<int> split_depth;   ///< the job's split depth, when it has one
  std::string schedule;             ///< the run's schedule (engine::schedule_name); "" = not known (merge)
  std::uint64_t steals = 0;         ///< parts of tasks run by another thread (with `schedule`)
  double largest_task_share = 0.0;  ///< the largest task's share of the nodes; 0 = not known
  u128 nodes = 0;                   ///< search nodes (0: the job counts none)
  double wall_seconds = 0.0;        ///< wall time (merge: the longest shard)
  double cpu_seconds = 0.0;         ///< CPU time of the process(es) (merge: summed over the shards)
  std::uint64_t max_rss_bytes = 0;  ///< the largest peak resident set of those processes
  std::size_t shards = 0;           ///< merge: the number of shards; 0 = not a merge
  double task_seconds = 0.0;        ///< merge: the tasks' times summed over the shards
  int ranks = 0;                    ///< count-mpi: the number of ranks; 0 = one process
};

/// The figures of a run's result (threads, tasks, nodes, wall, CPU, RSS).
[[nodiscard]] JobFigures run_figures(const engine::RunResult& result);

/// The figures as JSON fields of `j`: threads, tasks, tasks_run,
/// tasks_resumed, split_depth, schedule, steals, largest_task_share (each
/// null when not known), nodes (nodes_json), wall_seconds,
/// cpu_seconds, max_rss_bytes, and with a merge shards and task_seconds,
/// under count-mpi ranks.
void put_figures(nlohmann::ordered_json& j, const JobFigures& f);
/// The figures as text lines: shards, ranks, threads, tasks, schedule
/// (schedule_text, when known), nodes, wall,
/// task time, and where several processes ran the job (merge, count-mpi)
/// their CPU summed and largest peak RSS.
void put_figures(TextBlock& t, const JobFigures& f);
/// The text report's schedule line: the policies, the parts stolen (unless
/// static) and the largest task's share of the nodes, e.g. "id-order,
/// steal; 3 parts stolen; largest task 90.0 % of the nodes".
[[nodiscard]] std::string schedule_text(const JobFigures& f);

/// "1.234 s": seconds to the millisecond, as text reports show times.
[[nodiscard]] std::string seconds3(double seconds);

/// A node count in a JSON report: an integer below 2^64, else its decimal
/// string (the same rule in every report; docs/json.md). An estimate's nodes
/// (a double) are rounded to an integer first.
[[nodiscard]] nlohmann::ordered_json nodes_json(const u128& nodes);
[[nodiscard]] nlohmann::ordered_json nodes_json(double nodes);

}  // namespace pcount::driver
