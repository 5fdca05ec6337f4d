// The check before a run that cannot finish: a size estimate from the job's
// probe (Knuth 1975), a note on stderr for a long run, a refusal for an
// endless one started without a terminal (docs/hpc.md, "Endless runs").
#include <cmath>
#include <cstdio>
#include <string>

#include <unistd.h>

#include "driver/batch.hpp"
#include "pcount/driver/program.hpp"
#include "pcount/engine/estimate.hpp"
#include "pcount/engine/shard.hpp"

namespace pcount::driver {

namespace {

/// A run longer than this (CPU time at the job's speed) gets a note on stderr.
constexpr double kNoteSeconds = 86400.0;  // one CPU-day
/// A run longer than this is refused without a terminal.
constexpr double kEndlessSeconds = 10 * 365.25 * 86400.0;  // ten CPU-years

std::string duration(double s) {
  char buf[64];
  if (s < 120) std::snprintf(buf, sizeof buf, "%.0f seconds", s);
  else if (s < 7200) std::snprintf(buf, sizeof buf, "%.0f minutes", s / 60);
  else if (s < 2 * 86400) std::snprintf(buf, sizeof buf, "%.0f hours", s / 3600);
  else if (s < 2 * 365.25 * 86400) std::snprintf(buf, sizeof buf, "%.0f days", s / 86400);
  else std::snprintf(buf, sizeof buf, "%.3g years", s / (365.25 * 86400));
  return buf;
}

std::string problem_option(const Invocation& inv) {
  if (!inv.problem) return "the job";
  const std::string option(inv.problem->option);
  std::string s = "--" + option;
  if (auto v = inv.value(option); v && !v->empty() && v->size() <= 16) s += " " + *v;
  return s;
}

/// "D on T thread(s)" for `cpu` CPU seconds shared by the run's threads.
std::string on_threads(const Invocation& inv, double cpu) {
  const int threads = std::max(1, inv.common.threads);
  return duration(cpu / threads) + " on " + std::to_string(threads) + " thread" + (threads == 1 ? "" : "s");
}

/// The note on stderr before a long run, with how to stop it.
void note_long_run(const Invocation& inv, const std::string& what) {
  inv.err << inv.session.program << ": note: " << what << "; --stop-file or SIGTERM stops it"
          << (inv.common.checkpoint.empty() ? ", and --checkpoint keeps its work" : "") << '\n';
}

/// How fast a job's kernel goes through its tree (check_feasible).
struct Speed {
  double nodes_per_second = kOptimisticNodesPerSecond;      ///< tree nodes (as the probes count them) per CPU-second
  std::string text = "an optimistic 1e9 nodes per second";  ///< how the message names it
};

/// The job's own speed, measured: a sample of its tasks run in full for
/// about half a second (engine::estimate_run, the smallest first), whose
/// estimate of the job's CPU seconds is set against Knuth's estimate of its
/// nodes from the same call — tree nodes as the probes count them per
/// CPU-second of this kernel on this machine (a kernel that cuts the tree
/// by symmetry is fast by that measure, as it is). When no task finishes in
/// that time, or when the sample is faster than that, the optimistic 10⁹
/// nodes per second: a lower bound of the CPU.
Speed measured_speed(const Invocation& inv, const engine::Job& job) {
  engine::RunEstimateOptions o;
  o.threads = inv.common.threads;
  o.budget_seconds = 0.5;
  o.include = [shard = engine::Shard{inv.common.shard_index, inv.common.shard_count}](std::size_t id) {
    return shard.includes(id);
  };
  Speed speed;
  try {
    const engine::RunEstimate r = engine::estimate_run(job, o);
    const double whole = r.knuth.nodes * static_cast<double>(r.tasks) / static_cast<double>(job.task_count);
    if (!(r.cpu_seconds > 0 && whole > 0)) return speed;
    // Never above the optimistic speed: a kernel whose leaves count many
    // nodes at once (a closed formula) would otherwise make an endless
    // job look short, and the check is there to catch those.
    if (whole / r.cpu_seconds >= kOptimisticNodesPerSecond) return speed;
    speed.nodes_per_second = whole / r.cpu_seconds;
    char text[160];
    std::snprintf(text, sizeof text, "%.2g nodes per second and thread, the speed of %zu of its tasks run here",
                  speed.nodes_per_second, r.sampled);
    speed.text = text;
  } catch (const engine::NoTaskFinished&) {
    // Every task is longer than the sample: only the tree's size is known.
  }
  return speed;
}

}  // namespace

void check_feasible(const Invocation& inv, const engine::Job& job) {
  if (!inv.common.estimate_check || job.task_count == 0) return;
  if (!job.probe && job.leaf_probe) {
    // Tasks timed by leaf probes (about two seconds of them): a measured
    // CPU estimate, but an upper bound where the run memoises, so it gives
    // a note and never a refusal.
    const engine::CpuEstimate e = engine::estimate_job_cpu(job);
    if (!(e.seconds > kNoteSeconds)) return;
    char head[200];
    std::snprintf(head, sizeof head, "about %.2g CPU seconds by %zu timed leaf probes (±%.0f%%, Knuth's estimator)",
                  e.seconds, e.probes, 100.0 * e.relative_error);
    note_long_run(inv, problem_option(inv) + ": " + head + ", roughly " + duration(e.seconds) + " of CPU (" +
                           on_threads(inv, e.seconds) + "; less where the run reuses memoised work)");
    return;
  }
  if (!job.probe) return;
  // A first look with few probes lets the many small runs skip the rest:
  // a job below a thousandth of the note at the optimistic speed (86 s of
  // CPU) is below the note at any speed down to 10⁶ nodes per second.
  const engine::SizeEstimate first = engine::estimate_job_nodes(job, 128);
  if (first.nodes / kOptimisticNodesPerSecond < kNoteSeconds / 1000) return;
  const engine::SizeEstimate e = engine::estimate_job_nodes(job);
  // The measured speed is never above the optimistic one, so a job endless
  // at that speed is refused without measuring (its tasks may not finish
  // or stop within the sample's time).
  const Speed speed = e.nodes / kOptimisticNodesPerSecond > kEndlessSeconds ? Speed{} : measured_speed(inv, job);
  const double cpu = e.nodes / speed.nodes_per_second;
  if (!(cpu > kNoteSeconds)) return;  // also skips NaN
  char head[160];
  std::snprintf(head, sizeof head, "about %.2g search nodes (Knuth's estimate from %zu probes, ±%.0f%%)", e.nodes,
                e.probes, 100.0 * e.relative_error);
  const std::string what = problem_option(inv) + ": " + head + ", roughly " + duration(cpu) + " of CPU at " +
                           speed.text + " (" + on_threads(inv, cpu) + ")";
  if (cpu > kEndlessSeconds && isatty(0) == 0)
    throw InvalidArgument("", what + "; not started because standard input is not a terminal — add "
                              "--no-estimate-check to start it anyway");
  note_long_run(inv, what);
}

}  // namespace pcount::driver
