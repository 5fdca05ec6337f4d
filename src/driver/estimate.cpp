// --estimate: what a run would cost, predicted from a sample of its tasks
// run in full (engine::estimate_run), printed instead of running it.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>
#include <cstdlib>
#include <optional>
#include <string>

#include "driver/batch.hpp"
#include "pcount/engine/estimate.hpp"
#include "pcount/engine/shard.hpp"

namespace pcount::driver {

namespace {

std::string seconds_text(double s) {
  char buf[48];
  if (s < 0.01) std::snprintf(buf, sizeof buf, "%.2g s", s);
  else if (s < 100) std::snprintf(buf, sizeof buf, "%.3g s", s);
  else if (s < 7200) std::snprintf(buf, sizeof buf, "%.0f s (%.1f min)", s, s / 60);
  else if (s < 3 * 86400) std::snprintf(buf, sizeof buf, "%.0f s (%.1f h)", s, s / 3600);
  else if (s < 2 * 365.25 * 86400)
    std::snprintf(buf, sizeof buf, "%#.3g s (%.1f days)", s, s / 86400);
  else
    std::snprintf(buf, sizeof buf, "%#.3g s (%#.3g years)", s, s / (365.25 * 86400));
  return buf;
}

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

/// How sure the estimate is, in one word: from the CPU interval's half
/// width relative to the estimate.
std::string confidence(const engine::RunEstimate& e) {
  if (e.sampled == e.tasks && !e.leaf_probes) return "measured";
  const double half = e.cpu_seconds > 0 ? (e.cpu_seconds_high - e.cpu_seconds_low) / (2 * e.cpu_seconds) : 1.0;
  if (e.extrapolated == 0 && half <= 0.15) return "good";
  if (half <= 0.4) return "fair";
  return "rough";
}

/// The fields every --estimate JSON report starts with.
nlohmann::ordered_json estimate_head(const Invocation& inv, const engine::Job& job) {
  nlohmann::ordered_json j = json_head(ReportKind::estimate);
  j["problem"] = inv.problem ? std::string(inv.problem->option) : std::string();
  j["estimate"] = true;
  j["fingerprint"] = job.fingerprint;
  return j;
}

/// The command estimated, as typed (made printable).
std::string command_text(const Invocation& inv) {
  std::string what;
  for (const std::string& w : inv.session.command) what += (what.empty() ? "" : " ") + w;
  return printable(what, 100);
}

/// Prints the report and ends the run (an estimate runs nothing).
[[noreturn]] void emit(const Invocation& inv, const std::string& report) {
  inv.out << report;
  inv.out.flush();
  throw EarlyExit{0};
}

/// --estimate when not one sampled task finished: the tree's size alone.
[[noreturn]] void print_size_only(const Invocation& inv, const engine::Job& job, const engine::NoTaskFinished& e,
                                  std::size_t tasks, double setup) {
  const double cpu_low = e.knuth.probes > 0 ? e.knuth.nodes / kOptimisticNodesPerSecond : -1.0;
  if (inv.common.json) {
    nlohmann::ordered_json j = estimate_head(inv, job);
    j["threads"] = inv.common.threads;
    j["tasks"] = tasks;
    j["tasks_sampled"] = 0;
    j["sampled_by"] = "none";
    j["sample_seconds"] = e.sample_seconds;
    j["setup_seconds"] = setup;
    j["answer"] = nullptr;
    j["cpu_seconds"] = nullptr;
    j["cpu_seconds_low"] = cpu_low >= 0 ? nlohmann::ordered_json(cpu_low) : nullptr;
    j["confidence"] = "rough";
    j["knuth_nodes"] = e.knuth.probes > 0 ? nlohmann::ordered_json(e.knuth.nodes) : nullptr;
    j["knuth_relative_error"] = e.knuth.relative_error;
    j["knuth_probes"] = e.knuth.probes;
    emit(inv, j.dump() + '\n');
  }
  TextBlock t;
  const auto line = [&t](const std::string& key, const std::string& value) { t.line(key, value); };
  line("estimate of", command_text(inv));
  line("tasks", std::to_string(tasks) + "; none finished within " + seconds_text(e.sample_seconds) +
                    " (every task is longer), so only the tree's size is known");
  if (e.knuth.probes > 0) {
    char k[160];
    std::snprintf(k, sizeof k, "about %.3g nodes (Knuth's estimate from %zu probes, ±%.0f%%)", e.knuth.nodes,
                  e.knuth.probes, 100.0 * e.knuth.relative_error);
    line("tree size", k);
    line("cpu", "at least " + seconds_text(cpu_low) + " at an optimistic 1e9 nodes per second and thread");
  } else {
    line("cpu", "unknown: the job has no size probe; give a larger S");
  }
  line("setup", seconds_text(setup) + " before the tasks");
  line("confidence", "rough (from the tree's size alone)");
  emit(inv, t.str());
}

}  // namespace

struct SetupNotice::State {
  std::mutex mutex;
  std::condition_variable wake;
  bool done = false;
  std::thread thread;
};

SetupNotice::SetupNotice(const Invocation& inv) {
  if (!inv.common.estimate || inv.common.quiet) return;
  state_ = std::make_unique<State>();
  state_->thread = std::thread([&inv, st = state_.get()] {
    using namespace std::chrono;
    const auto start = steady_clock::now();
    auto next = start + duration_cast<steady_clock::duration>(duration<double>(inv.common.estimate_budget));
    bool said = false;
    std::unique_lock lock(st->mutex);
    while (!st->wake.wait_until(lock, next, [st] { return st->done; })) {
      const double spent = duration<double>(steady_clock::now() - start).count();
      if (!said)
        inv.err << inv.session.program << ": --estimate " << number_text(inv.common.estimate_budget)
                << ": this job's set-up (building its task list) has taken " << number_text(spent)
                << " s and cannot be cut short; the estimate follows once it is done\n";
      else
        inv.err << inv.session.program << ": --estimate: set-up still running, " << number_text(spent) << " s\n";
      inv.err.flush();
      said = true;
      next += seconds(15);
    }
  });
}

SetupNotice::~SetupNotice() {
  if (!state_) return;
  {
    std::lock_guard lock(state_->mutex);
    state_->done = true;
  }
  state_->wake.notify_all();
  state_->thread.join();
}

namespace {

/// What an estimate is made with: the invocation, its job and shard, the
/// sampling options, and the machine's load now.
struct EstimateSetting {
  const Invocation& inv;
  const engine::Job& job;
  engine::Shard shard;
  engine::RunEstimateOptions o;
  double setup = 0.0;  ///< seconds spent before the tasks (the plan)
  double load = -1.0;  ///< 1-minute load average; < 0 unknown
  int cores = 1;
  bool busy = false;  ///< load above 0.9 per core
  const ReportMaker* report = nullptr;  ///< the plan's report; null when not known
  std::optional<SetupPrice> price;      ///< the set-up's price before it ran (Problem::price_setup)
};

/// The run's report from the sample's counts, when the sample ran every
/// task of the job (not of a shard) and the plan's report is known.
std::optional<Report> answer(const EstimateSetting& st, const engine::RunEstimate& e) {
  if (!e.complete || st.shard.count > 1 || !st.report || !*st.report) return std::nullopt;
  engine::RunResult result;
  result.totals = e.totals;
  result.tasks_total = st.job.task_count;
  result.tasks_run = e.tasks;
  result.threads = st.inv.common.threads;
  result.wall_seconds = e.sample_seconds;
  return (*st.report)(result);
}

/// The answer as JSON: title, method, params and counts as a run reports
/// them (docs/json.md); null when there is none.
nlohmann::ordered_json answer_json(const std::optional<Report>& a) {
  if (!a) return nullptr;
  nlohmann::ordered_json counts = nlohmann::ordered_json::object();
  for (const auto& [name, value] : a->counts) counts[name] = value;
  return {{"title", a->title}, {"params", a->params}, {"method", a->method}, {"counts", counts}};
}

/// The task sizes' line: the largest task's share of the work and the
/// workers up to which whole tasks balance (largest ≤ 1/(4W), docs/hpc.md);
/// for a job whose tasks split while they run, that the largest task does
/// not bound the balance. Empty when there is no largest task.
std::string task_sizes_text(const engine::RunEstimate& e) {
  if (!(e.task_seconds > 0 && e.largest_task_seconds > 0)) return "";
  const double share = e.largest_task_seconds / e.task_seconds;
  const double whole = std::floor(1.0 / (4.0 * share));
  char text[200];
  std::snprintf(text, sizeof text, "largest task %.2g of the work: balanced up to about %.0f workers", share, whole);
  std::string out = text;
  if (e.splits) {
    out +=
        " as whole tasks (largest ≤ 1/(4W)); its tasks split while they run (idle workers take parts of a "
        "running task), so beyond that as far as the parts go";
  } else {
    out += " (largest ≤ 1/(4W))";
    if (share * 4.0 * e.workers > 1.0) out += "; this run is beyond that";
  }
  if (!e.task_estimates && e.sampled != e.tasks) out += "; at most, as the largest task may not have been sampled";
  return out;
}

/// The set-up's line: its time, its price before it ran, and whether the
/// run repeats it.
std::string setup_text(const EstimateSetting& st) {
  std::string text = seconds_text(st.setup) + " before the tasks";
  if (!st.price) return text + " (a run repeats what is not cached)";
  if (st.price->seconds > 0) text += " (priced at " + seconds_text(st.price->seconds) + " before it ran)";
  return text + (st.price->cache.empty() ? "; a run repeats it"
                                         : "; kept in " + st.price->cache + ", which the run reads instead");
}

EstimateSetting estimate_setting(const Invocation& inv, const engine::Job& job) {
  const Common& c = inv.common;
  Distributed* const dist = inv.session.distributed;
  EstimateSetting st{inv, job, engine::Shard{c.shard_index, c.shard_count}, {}, 0.0, -1.0, 1, false, nullptr, {}};
  engine::RunEstimateOptions& o = st.o;
  const engine::Shard shard = st.shard;
  st.setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - inv.session.started).count();
  o.threads = c.threads;
  o.processes = dist ? static_cast<std::size_t>(dist->size()) : 1;
  // S covers the set-up too: the sample gets what is left (at least S/10).
  o.budget_seconds = std::max(c.estimate_budget / 10, c.estimate_budget - st.setup);
  if (shard.count > 1) o.include = [shard](std::size_t id) { return shard.includes(id); };
  // The sample is timed on this machine as it is now; the run comes later.
  // Run-to-run speed variation (the σ of a lognormal factor, one for the
  // whole run) is taken as 7 % for CPU and wall time on a machine that is
  // not busy. On a busy one (load average above 0.9 per core) the run will
  // meet other load than the sample did: the wall noise grows by 20 % per
  // unit of load per core above 0.9, up to 50 %, CPU half of that (at
  // least 7 %). Measured with scripts/speed-noise, 10 back-to-back runs on
  // the shared 2-core VM at load 3.5–4.5 (results/estimate.md): root mean
  // square log ratio of consecutive runs 0.067 CPU and 0.18 wall for
  // Q(17) join, 0.21 CPU and 0.35 wall for R(9) classes; the rule gives
  // 0.15 and 0.30 at load 4.
  double& load = st.load;
  if (getloadavg(&load, 1) != 1) load = -1.0;
  st.cores = engine::hardware_threads();
  const int cores = st.cores;
  st.busy = load > 0.9 * cores;
  o.noise = 0.07;
  o.cpu_noise = 0.07;
  if (st.busy) {
    o.noise = std::min(0.5, 0.07 + 0.2 * (load / cores - 0.9));
    o.cpu_noise = std::max(0.07, o.noise / 2);
  }
  return st;
}

/// The estimate as one JSON object (docs/json.md).
[[noreturn]] void print_estimate_json(const EstimateSetting& st, const engine::RunEstimate& e) {
  const engine::RunEstimateOptions& o = st.o;
  nlohmann::ordered_json j = estimate_head(st.inv, st.job);
  j["threads"] = st.inv.common.threads;
  j["processes"] = o.processes;
  j["workers"] = e.workers;
  if (st.shard.count > 1) j["shard"] = {{"index", st.shard.index}, {"count", st.shard.count}};
  j["tasks"] = e.tasks;
  j["tasks_sampled"] = e.sampled;
  j["sampled_by"] = e.leaf_probes ? "leaf_probes" : "full_runs";
  if (e.leaf_probes) j["leaf_probes_per_task"] = e.leaf_probes_per_task;
  j["tasks_extrapolated"] = e.extrapolated;
  j["strata"] = e.strata;
  j["stratified_by"] = e.task_estimates ? (st.job.estimate ? "task_estimates" : "probes") : "task_id";
  j["sample_seconds"] = e.sample_seconds;
  j["sampled_task_seconds"] = e.sampled_task_seconds;
  j["setup_seconds"] = st.setup;
  j["setup_price_seconds"] = st.price ? nlohmann::ordered_json(st.price->seconds) : nullptr;
  j["setup_cache"] = st.price && !st.price->cache.empty() ? nlohmann::ordered_json(st.price->cache) : nullptr;
  j["answer"] = answer_json(answer(st, e));
  j["cpu_seconds"] = e.cpu_seconds;
  j["cpu_seconds_low"] = e.cpu_seconds_low;
  j["cpu_seconds_high"] = e.cpu_seconds_high;
  j["relative_error"] = e.relative_error;
  j["task_seconds"] = e.task_seconds;
  j["task_seconds_low"] = e.task_seconds_low;
  j["task_seconds_high"] = e.task_seconds_high;
  j["wall_relative_error"] = e.wall_relative_error;
  j["largest_task_seconds"] = e.largest_task_seconds;
  j["largest_task_share"] = e.task_seconds > 0 ? e.largest_task_seconds / e.task_seconds : 0.0;
  j["tasks_split"] = e.splits;
  j["wall_seconds_low"] = e.wall_seconds_low;
  j["wall_seconds_high"] = e.wall_seconds_high;
  j["confidence"] = confidence(e);
  j["load_average"] = st.load >= 0 ? nlohmann::ordered_json(st.load) : nullptr;
  j["cores"] = st.cores;
  j["busy"] = st.busy;
  j["interval"] = "95% (bootstrap percentiles over the sampled tasks, run-to-run timing noise included)";
  j["timing_noise"] = o.noise;
  j["cpu_timing_noise"] = o.cpu_noise;
  j["nodes"] = e.nodes > 0 ? nodes_json(e.nodes) : nullptr;
  if (e.knuth.probes > 0) {
    j["knuth_nodes"] = e.knuth.nodes;
    j["knuth_relative_error"] = e.knuth.relative_error;
    j["knuth_probes"] = e.knuth.probes;
  } else {
    j["knuth_nodes"] = nullptr;
  }
  emit(st.inv, j.dump() + '\n');
}

/// The estimate as text.
[[noreturn]] void print_estimate_text(const EstimateSetting& st, const engine::RunEstimate& e) {
  const Invocation& inv = st.inv;
  const engine::Job& job = st.job;
  const Common& c = inv.common;
  const engine::RunEstimateOptions& o = st.o;
  const engine::Shard shard = st.shard;
  const double load = st.load;
  const int cores = st.cores;
  const bool busy = st.busy;
  const std::string sure = confidence(e);
  const std::string by = e.task_estimates ? (job.estimate ? "the tasks' own estimates" : "Knuth probes of each task")
                                          : "task id (the job has no task estimates)";
  TextBlock t;
  const auto line = [&t](const std::string& key, const std::string& value) { t.line(key, value); };
  line("estimate of", command_text(inv));
  if (const std::optional<Report> a = answer(st, e)) {
    line("answer", a->title + ", measured: the sample ran every task, so these counts are exact");
    for (const auto& [name, value] : a->counts) line(name, value);
  }
  line("tasks", std::to_string(e.tasks) + (shard.count > 1 ? " (shard " + std::to_string(shard.index) + "/" +
                                                                  std::to_string(shard.count) + ")"
                                                            : "") +
                    "; " + std::to_string(e.sampled) +
                    (e.leaf_probes ? " estimated by " + std::to_string(e.leaf_probes_per_task) + " timed leaf probes each"
                                   : std::string(" run in full")) +
                    " in " + seconds_text(e.sample_seconds) + ", " +
                    std::to_string(e.strata) + " strata by " + by +
                    (e.extrapolated ? "; " + std::to_string(e.extrapolated) + " in strata too big to sample, extrapolated"
                                    : ""));
  if (e.nodes > 0 || e.knuth.probes > 0) {
    std::string tree = e.nodes > 0 ? "about " + number_text(e.nodes) + " nodes (from the sample)" : "";
    if (e.knuth.probes > 0) {
      char k[160];
      std::snprintf(k, sizeof k, "%sKnuth's estimate %.3g from %zu probes (±%.0f%%)%s", tree.empty() ? "" : "; ",
                    e.knuth.nodes, e.knuth.probes, 100.0 * e.knuth.relative_error,
                    shard.count > 1 ? ", whole job" : "");
      tree += k;
    }
    line("tree size", tree);
  }
  line("cpu", seconds_text(e.cpu_seconds) + " (95% interval " + seconds_text(e.cpu_seconds_low) + " to " +
                  seconds_text(e.cpu_seconds_high) + ")");
  line("task time", seconds_text(e.task_seconds) + " of wall time summed over the tasks (" +
                        seconds_text(e.task_seconds_low) + " to " + seconds_text(e.task_seconds_high) + ")");
  const int effective = e.workers / static_cast<int>(o.processes);
  line("wall", seconds_text(e.wall_seconds_low) + " to " + seconds_text(e.wall_seconds_high) + " on " +
                   std::to_string(c.threads) + " thread" + (c.threads == 1 ? "" : "s") +
                   (effective < c.threads ? " (" + std::to_string(effective) + " cores here)" : "") +
                   (o.processes > 1 ? " × " + std::to_string(o.processes) + " ranks" : "") +
                   " for the tasks; largest task about " + seconds_text(e.largest_task_seconds) +
                   (e.task_estimates || e.sampled == e.tasks ? "" : " (of those sampled: without task estimates larger ones go unseen)"));
  if (const std::string sizes = task_sizes_text(e); !sizes.empty()) line("task sizes", sizes);
  line("setup", setup_text(st));
  char sure_text[96];
  std::snprintf(sure_text, sizeof sure_text, "%s (standard deviation ±%.0f%% CPU, ±%.0f%% wall)", sure.c_str(),
                100.0 * e.relative_error, 100.0 * e.wall_relative_error);
  line("confidence", sure_text);
  if (e.leaf_probes)
    line("note", "the tasks are too long to run in full here, so each sampled one was estimated by timed probes "
                 "(Knuth 1975, a random path to a leaf whose work is done and timed); work that a run shares "
                 "between tasks (a memo table) is counted at every leaf, so for such a job this is an upper bound");
  if (busy) {
    char busy_text[160];
    std::snprintf(busy_text, sizeof busy_text,
                  "this machine is busy (load average %.1f on %d cores): the run will meet other load than the "
                  "sample did, so the intervals allow ±%.0f%% timing noise",
                  load, cores, 100.0 * o.noise);
    line("note", busy_text);
  }
  emit(inv, t.str());
}

}  // namespace

void print_estimate(const Invocation& inv, const engine::Job& job, const ReportMaker& report,
                    const std::optional<SetupPrice>& price) {
  Distributed* const dist = inv.session.distributed;
  if (dist && dist->rank() != 0) throw EarlyExit{0};  // rank 0 samples and prints
  EstimateSetting st = estimate_setting(inv, job);
  st.report = &report;
  st.price = price;
  engine::RunEstimate e;
  try {
    e = engine::estimate_run(job, st.o);
  } catch (const engine::NoTaskFinished& none) {
    print_size_only(inv, job, none, st.shard.size(job.task_count), st.setup);
  }
  if (inv.common.json) print_estimate_json(st, e);
  print_estimate_text(st, e);
}

namespace {

/// A measured quantity with three significant digits and always a decimal
/// point (so that scripts/docs-examples masks it): 17.0, 522.3, 1.32e+06.
std::string measured_text(double v) {
  char buf[32];
  if (v >= 100 && v < 1e5)
    std::snprintf(buf, sizeof buf, "%.1f", v);
  else
    std::snprintf(buf, sizeof buf, "%#.3g", v);
  return buf;
}

/// "a–b unit", "a unit" when they agree (whole numbers below 10⁷ exactly).
std::string size_text(const PriceStage::Size& z) {
  if (z.low == z.high && z.low < 1e7 && z.low == std::floor(z.low))
    return std::to_string(static_cast<long long>(z.low)) + " " + z.unit;
  if (z.low == z.high) return measured_text(z.low) + " " + z.unit;
  return measured_text(z.low) + "–" + measured_text(z.high) + " " + z.unit;
}

/// CPU time from `low` to `high` seconds in one unit: CPU-s, CPU-min or
/// CPU-h; "at least …" when `high` is infinite.
std::string cpu_range_text(double low, double high) {
  const double top = std::isinf(high) ? low : high;
  const auto [unit, scale] = top < 120    ? std::pair<const char*, double>{"CPU-s", 1.0}
                             : top < 7200 ? std::pair<const char*, double>{"CPU-min", 60.0}
                                          : std::pair<const char*, double>{"CPU-h", 3600.0};
  if (std::isinf(high)) return "at least " + measured_text(low / scale) + " " + unit;
  if (low == high) return measured_text(low / scale) + " " + unit;
  return measured_text(low / scale) + "–" + measured_text(high / scale) + " " + unit;
}

/// The stage lines of a set-up priced stage by stage, its total, the
/// 16-core nodes that finish it in a day, and its peak memory.
void stage_lines(TextBlock& t, const SetupPrice& price) {
  double low = 0.0, high = 0.0;
  for (const PriceStage& st : price.stages) {
    std::string sizes;
    for (const PriceStage::Size& z : st.sizes) sizes += (sizes.empty() ? "" : ", ") + size_text(z);
    t.line("stage", st.name + ": " + sizes + "; " +
                        (st.cached ? std::string("cached, read by the run")
                                   : cpu_range_text(st.cpu_low, st.cpu_high) + " (" + st.basis + ")"));
    if (!st.cached) {
      low += st.cpu_low;
      high += st.cpu_high;
    }
  }
  constexpr double kNodeDay = 16 * 86400.0;
  const std::string nodes = std::isinf(high) ? "at least " + measured_text(low / kNodeDay)
                                             : measured_text(low / kNodeDay) + "–" + measured_text(high / kNodeDay);
  t.line("total", cpu_range_text(low, high) + "; " + nodes + " 16-core nodes for a day");
  if (price.peak_bytes_high > 0)
    t.line("memory", "peak about " + measured_text(price.peak_bytes_low / (1 << 30)) + "–" +
                         measured_text(price.peak_bytes_high / (1 << 30)) + " GiB per process (" + price.peak_what +
                         ")");
}

nlohmann::ordered_json stages_json(const SetupPrice& price) {
  nlohmann::ordered_json stages = nlohmann::ordered_json::array();
  for (const PriceStage& st : price.stages) {
    nlohmann::ordered_json j;
    j["name"] = st.name;
    nlohmann::ordered_json sizes = nlohmann::ordered_json::array();
    for (const PriceStage::Size& z : st.sizes) sizes.push_back({{"unit", z.unit}, {"low", z.low}, {"high", z.high}});
    j["sizes"] = sizes;
    j["cpu_seconds_low"] = st.cached ? 0.0 : st.cpu_low;
    j["cpu_seconds_high"] = st.cached                 ? nlohmann::ordered_json(0.0)
                            : std::isinf(st.cpu_high) ? nlohmann::ordered_json(nullptr)
                                                      : nlohmann::ordered_json(st.cpu_high);
    j["cached"] = st.cached;
    j["basis"] = st.basis;
    stages.push_back(j);
  }
  return stages;
}

/// --estimate S when the set-up is priced above S: the price alone; the
/// set-up is not run.
[[noreturn]] void print_setup_only(const Invocation& inv, const SetupPrice& price) {
  const double s = inv.common.estimate_budget;
  if (inv.common.json) {
    nlohmann::ordered_json j = json_head(ReportKind::estimate);
    j["problem"] = inv.problem ? std::string(inv.problem->option) : std::string();
    j["estimate"] = true;
    j["fingerprint"] = nullptr;  // the job is known once the set-up ran
    j["threads"] = inv.common.threads;
    j["tasks"] = nullptr;
    j["tasks_sampled"] = 0;
    j["sampled_by"] = "none";
    j["sample_seconds"] = 0.0;
    j["setup_seconds"] = nullptr;
    j["setup_price_seconds"] = price.seconds;
    j["setup_cache"] = price.cache.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(price.cache);
    j["setup_run"] = false;
    if (!price.stages.empty()) j["stages"] = stages_json(price);
    if (price.peak_bytes_high > 0) {
      j["peak_bytes_low"] = price.peak_bytes_low;
      j["peak_bytes_high"] = price.peak_bytes_high;
    }
    j["answer"] = nullptr;
    j["cpu_seconds"] = nullptr;
    j["confidence"] = "rough";
    emit(inv, j.dump() + '\n');
  }
  TextBlock t;
  t.line("estimate of", command_text(inv));
  t.line("setup", "about " + seconds_text(price.seconds) + " before the tasks (" + price.what + "; " + price.basis +
                      "); more than S = " + number_text(s) + " s, so not run");
  if (!price.cache.empty())
    t.line("cache", "it is kept in " + price.cache +
                        ", which the run reads instead: an --estimate whose S is "
                        "above the set-up's time runs it once, and the run and later estimates reuse it");
  if (!price.stages.empty()) stage_lines(t, price);
  t.line("tasks", price.stages.empty() ? "not sampled: they need the set-up"
                                       : "not sampled: they need the set-up (priced above from measured rates)");
  t.line("confidence", "rough (the set-up's price only)");
  emit(inv, t.str());
}

}  // namespace

std::optional<SetupPrice> price_setup(const Invocation& inv) {
  if (!inv.common.estimate || !inv.problem || !inv.problem->price_setup || inv.session.replay) return std::nullopt;
  const Distributed* const dist = inv.session.distributed;
  std::optional<SetupPrice> price = inv.problem->price_setup(inv);
  if (price && price->seconds > inv.common.estimate_budget) {
    if (dist && dist->rank() != 0) throw EarlyExit{0};  // rank 0 prints
    print_setup_only(inv, *price);
  }
  return price;
}

}  // namespace pcount::driver
