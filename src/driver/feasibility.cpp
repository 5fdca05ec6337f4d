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

namespace pcount::driver {

namespace {

constexpr double kNodesPerSecond = kOptimisticNodesPerSecond;
/// A run longer than this (CPU time at that speed) gets a note on stderr.
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
  // well below the note threshold (a hundredth of it) nothing is said.
  const engine::SizeEstimate first = engine::estimate_job_nodes(job, 128);
  if (first.nodes / kNodesPerSecond < kNoteSeconds / 100) return;
  const engine::SizeEstimate e = engine::estimate_job_nodes(job);
  const double cpu = e.nodes / kNodesPerSecond;
  if (!(cpu > kNoteSeconds)) return;  // also skips NaN
  char head[160];
  std::snprintf(head, sizeof head, "about %.2g search nodes (Knuth's estimate from %zu probes, ±%.0f%%)", e.nodes,
                e.probes, 100.0 * e.relative_error);
  const std::string what = problem_option(inv) + ": " + head + ", roughly " + duration(cpu) +
                           " of CPU at an optimistic 1e9 nodes per second (" + on_threads(inv, cpu) + ")";
  if (cpu > kEndlessSeconds && isatty(0) == 0)
    throw InvalidArgument("", what + "; not started because standard input is not a terminal — add "
                              "--no-estimate-check to start it anyway");
  note_long_run(inv, what);
}

}  // namespace pcount::driver
