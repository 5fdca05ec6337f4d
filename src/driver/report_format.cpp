#include "driver/report_format.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <limits>

#include <unistd.h>

#include "pcount/driver/program.hpp"
#include "pcount/engine/runner.hpp"

#ifndef PCOUNT_COMMIT
#define PCOUNT_COMMIT "unknown"
#endif

namespace pcount::driver {

namespace {

/// The CPU model from /proc/cpuinfo ("model name"), or "unknown".
std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  return "unknown";
}

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

/// Now in UTC, ISO 8601 to the second: "2025-01-31T12:34:56Z".
std::string utc_date() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string mebibytes(std::uint64_t bytes) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

}  // namespace

void TextBlock::line(const std::string& key, const std::string& value) {
  s_ << std::left << std::setw(static_cast<int>(std::max<std::size_t>(14, key.size() + 1))) << key << value << '\n';
}

nlohmann::ordered_json json_head(ReportKind kind) {
  static constexpr const char* kKinds[] = {"run", "shard", "merge", "estimate"};
  nlohmann::ordered_json j;
  j["program"] = "pcount";
  j["version"] = std::string(version());
  j["report"] = kKinds[static_cast<int>(kind)];
  double load = 0;
  nlohmann::ordered_json context;
  context["date"] = utc_date();
  context["host"] = host_name();
  context["cpu"] = cpu_model();
  context["cores"] = engine::hardware_threads();
  context["load"] = getloadavg(&load, 1) == 1 ? nlohmann::ordered_json(load) : nullptr;
  context["commit"] = PCOUNT_COMMIT;
  context["build"] = std::string(build_info());
  j["context"] = std::move(context);
  return j;
}

JobFigures run_figures(const engine::RunResult& result) {
  JobFigures f;
  f.threads = result.threads;
  f.tasks = result.tasks_total;
  f.tasks_run = result.tasks_run;
  f.tasks_resumed = result.tasks_resumed;
  f.schedule = result.schedule;
  f.steals = result.steals;
  f.largest_task_share = result.largest_task_share;
  f.nodes = result.totals.nodes;
  f.wall_seconds = result.wall_seconds;
  f.cpu_seconds = result.cpu_seconds;
  f.max_rss_bytes = result.max_rss_bytes;
  return f;
}

void put_figures(nlohmann::ordered_json& j, const JobFigures& f) {
  j["threads"] = f.threads;
  j["tasks"] = f.tasks;
  if (f.tasks_total) j["tasks_total"] = f.tasks_total;
  j["tasks_run"] = f.tasks_run;
  j["tasks_resumed"] = f.tasks_resumed;
  j["split_depth"] = f.split_depth ? nlohmann::ordered_json(*f.split_depth) : nullptr;
  const bool scheduled = !f.schedule.empty();
  j["schedule"] = scheduled ? nlohmann::ordered_json(f.schedule) : nullptr;
  j["steals"] = scheduled ? nlohmann::ordered_json(f.steals) : nullptr;
  j["largest_task_share"] = f.largest_task_share > 0 ? nlohmann::ordered_json(f.largest_task_share) : nullptr;
  j["nodes"] = f.nodes ? nodes_json(f.nodes) : nullptr;
  j["wall_seconds"] = f.wall_seconds;
  j["cpu_seconds"] = f.cpu_seconds > 0 ? nlohmann::ordered_json(f.cpu_seconds) : nullptr;
  j["max_rss_bytes"] = f.max_rss_bytes ? nlohmann::ordered_json(f.max_rss_bytes) : nullptr;
  if (f.shards) {
    j["shards"] = f.shards;
    j["task_seconds"] = f.task_seconds;
  }
  if (f.ranks) j["ranks"] = f.ranks;
}

std::string schedule_text(const JobFigures& f) {
  std::ostringstream s;
  s << f.schedule;
  if (!f.schedule.ends_with(", static")) s << "; " << f.steals << (f.steals == 1 ? " part" : " parts") << " stolen";
  if (f.largest_task_share > 0)
    s << "; largest task " << std::fixed << std::setprecision(1) << 100 * f.largest_task_share << " % of the nodes";
  return s.str();
}

void put_figures(TextBlock& t, const JobFigures& f) {
  const bool merged = f.shards > 0;
  if (merged) t.line("shards", std::to_string(f.shards));
  if (f.ranks) t.line("ranks", std::to_string(f.ranks));
  t.line("threads",
         std::to_string(f.threads) + (merged ? " (the most of any shard)" : "") + (f.ranks ? " per rank" : ""));
  t.line("tasks", std::to_string(f.tasks) + (f.tasks_total ? " of " + std::to_string(f.tasks_total) : "") +
                      (f.split_depth ? " (split depth " + std::to_string(*f.split_depth) + ")" : "") +
                      (f.tasks_resumed ? ", " + std::to_string(f.tasks_resumed) + " from earlier runs" : ""));
  if (!f.schedule.empty()) t.line("schedule", schedule_text(f));
  if (f.nodes) t.line("nodes", to_string(f.nodes));
  t.line("wall", seconds3(f.wall_seconds) + (merged ? " (the longest shard)" : ""));
  if (merged) t.line("task time", seconds3(f.task_seconds) + " (the tasks' times summed over the shards)");
  // CPU and memory in text only where they add up several processes (a
  // single process's are what `time` shows); JSON always has them.
  if (!merged && !f.ranks) return;
  const std::string over = merged ? " (summed over the shards)" : " (summed over the ranks)";
  if (f.cpu_seconds > 0) t.line("cpu", seconds3(f.cpu_seconds) + over);
  if (f.max_rss_bytes)
    t.line("max RSS", mebibytes(f.max_rss_bytes) + (merged ? " (the largest shard)" : " (the largest rank)"));
}

std::string seconds3(double seconds) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(3) << seconds << " s";
  return s.str();
}

nlohmann::ordered_json nodes_json(const u128& nodes) {
  if (nodes <= std::numeric_limits<std::uint64_t>::max()) return static_cast<std::uint64_t>(nodes);
  return to_string(nodes);
}

nlohmann::ordered_json nodes_json(double nodes) {
  if (nodes >= 0 && nodes < 0x1p64) return static_cast<std::uint64_t>(std::round(nodes));
  if (nodes >= 0x1p64 && nodes < 0x1p127) return to_string(static_cast<u128>(nodes));
  return nullptr;  // not finite or negative: no estimate
}

}  // namespace pcount::driver
