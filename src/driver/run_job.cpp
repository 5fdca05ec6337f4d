// run_job: one job run with everything a batch run needs — checkpoint and
// resume, shards and result files, profiles, progress, stop file, SIGINT and
// SIGTERM, and (count-mpi) MPI ranks. See docs/hpc.md.

// GCC 12 reports a false -Wrestrict inside inlined std::string concatenation
// (GCC bug 105329); the code is correct, so the warning is off for this file.
#pragma GCC diagnostic ignored "-Wrestrict"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include <unistd.h>

#include "driver/batch.hpp"
#include "driver/output_file.hpp"
#include "pcount/driver/program.hpp"
#include "pcount/engine/checkpoint.hpp"
#include "pcount/engine/files.hpp"
#include "pcount/engine/shard.hpp"
#include "pcount/u128.hpp"

namespace pcount::driver {

namespace {

using Clock = std::chrono::steady_clock;

// Set from the signal handler (lock-free atomics are async-signal-safe); the
// only process-wide state of the driver, as a signal handler needs it.
std::atomic<bool> g_stop{false};
std::atomic<int> g_stop_signal{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

extern "C" void on_stop_signal(int sig) {
  g_stop_signal.store(sig);
  g_stop.store(true);
}

/// Installs the SIGINT/SIGTERM handlers for the lifetime of the object; a
/// second signal gets the default action (SA_RESETHAND), i.e. kills at once.
class SignalGuard {
public:
  SignalGuard() {
    g_stop.store(false);
    g_stop_signal.store(0);
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~SignalGuard() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  SignalGuard(const SignalGuard&) = delete;
  SignalGuard& operator=(const SignalGuard&) = delete;

private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

std::string clock_text(double seconds) {
  if (!(seconds >= 0) || seconds > 1e9) return "?";
  const auto s = static_cast<long long>(seconds + 0.5);
  char buf[48];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%lld:%02lld", s / 60, s % 60);
  return buf;
}

/// A thread that watches the stop file and draws the progress line.
class Monitor {
public:
  Monitor(const Invocation& inv, std::size_t total, std::size_t resumed, const std::atomic<std::size_t>& done,
          bool show)
      : inv_(inv), total_(total), resumed_(resumed), done_(done), show_(show), tty_(isatty(2) != 0),
        start_(Clock::now()) {
    check_stop_file();  // a stop file that is already there stops the run before its first task
    if (!show_ && inv_.common.stop_file.empty()) return;
    thread_ = std::thread([this] { loop(); });
  }
  ~Monitor() { stop(); }
  Monitor(const Monitor&) = delete;
  Monitor& operator=(const Monitor&) = delete;

  void stop() {
    {
      std::lock_guard lock(mutex_);
      if (stopped_) return;
      stopped_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    if (show_) {
      draw(true);
      inv_.err << '\n' << std::flush;
    }
  }
  /// Whether the stop file was seen.
  [[nodiscard]] bool saw_stop_file() const { return saw_stop_file_.load(); }

private:
  void check_stop_file() {
    if (!inv_.common.stop_file.empty() && access(inv_.common.stop_file.c_str(), F_OK) == 0 && !g_stop.load()) {
      saw_stop_file_.store(true);
      g_stop.store(true);
    }
  }

  void loop() {
    auto last_draw = Clock::now() - std::chrono::hours(1);
    const auto period = tty_ ? std::chrono::milliseconds(250) : std::chrono::milliseconds(2000);
    for (;;) {
      check_stop_file();
      if (show_ && Clock::now() - last_draw >= period) {
        draw(false);
        last_draw = Clock::now();
      }
      std::unique_lock lock(mutex_);
      if (wake_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stopped_; })) return;
    }
  }

  void draw(bool final) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    std::size_t done_now = done_.load();
    if (Distributed* d = inv_.session.distributed) done_now = std::min(d->claimed(), total_ - std::min(total_, resumed_));
    const std::size_t done = std::min(total_, resumed_ + done_now);
    const double rate = elapsed > 0 ? static_cast<double>(done_now) / elapsed : 0.0;
    const double eta = rate > 0 ? static_cast<double>(total_ - done) / rate : -1.0;
    std::ostringstream line;
    line << inv_.session.program << ": " << done << "/" << total_ << " tasks";
    if (total_ > 0) line << " (" << std::fixed << std::setprecision(1) << 100.0 * static_cast<double>(done) / static_cast<double>(total_) << "%)";
    line << std::fixed << std::setprecision(1) << "  " << rate << " tasks/s  elapsed " << clock_text(elapsed);
    if (!final) line << "  ETA " << clock_text(eta);
    std::string text = line.str();
    if (tty_) {
      text.resize(std::max<std::size_t>(text.size(), 78), ' ');
      inv_.err << '\r' << text << std::flush;
    } else if (!final) {
      inv_.err << text << '\n' << std::flush;
    } else {
      inv_.err << text << std::flush;
    }
  }

  const Invocation& inv_;
  std::size_t total_;
  std::size_t resumed_;
  const std::atomic<std::size_t>& done_;
  bool show_;
  bool tty_;
  Clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopped_ = false;
  std::atomic<bool> saw_stop_file_{false};
  std::thread thread_;
};

/// A CSV field (RFC 4180): quoted, with quotes doubled, when it holds a
/// comma, quote or line break (counter names such as "weighted B squared,
/// bits 0-63" do).
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + '"';
}

void write_profile(const std::string& path, const engine::Job& job, const std::vector<engine::TaskRecord>& tasks,
                   const std::vector<char>& resumed) {
  std::ostringstream f;
  f << "id,seconds,nodes";
  for (const auto& name : job.counter_names) f << ',' << csv_field(name);
  f << ",resumed,position\n";
  char secs[32];
  for (const auto& t : tasks) {
    std::snprintf(secs, sizeof secs, "%.9f", t.seconds);
    f << t.id << ',' << secs << ',' << to_string(t.counts.nodes);
    for (std::size_t i = 0; i < job.counter_names.size(); ++i) f << ',' << to_string(t.counts.get(i));
    f << ',' << (resumed[t.id] ? 1 : 0) << ',';
    if (t.position != engine::TaskRecord::kNotScheduled) f << t.position;  // empty: not run here
    f << '\n';
  }
  try {
    engine::write_atomically(path, f.str());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string("--profile: ") + e.what());
  }
}

/// FILE and every FILE.rank<r> next to it (the logs of an MPI run).
std::vector<std::string> rank_logs(const std::string& file) {
  std::vector<std::string> paths{file};
  const auto slash = file.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : file.substr(0, slash + 1);
  const std::string stem = (slash == std::string::npos ? file : file.substr(slash + 1)) + ".rank";
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(stem, 0) == 0 && name.size() > stem.size() &&
        name.find_first_not_of("0123456789", stem.size()) == std::string::npos)
      paths.push_back(slash == std::string::npos ? name : dir + name);
  }
  std::sort(paths.begin() + 1, paths.end());
  return paths;
}

std::string shard_text(const Common& c) { return std::to_string(c.shard_index) + "/" + std::to_string(c.shard_count); }

}  // namespace

std::vector<std::string> problem_command(const Session& session) {
  static const std::vector<std::string> with_value = {"--checkpoint", "--stop-file", "--shard", "--out", "--profile",
                                                      "--output"};
  static const std::vector<std::string> flags = {"--progress", "--quiet", "-q", "--json"};
  std::vector<std::string> kept;
  const std::vector<std::string>& command = session.command;
  for (std::size_t i = 0; i < command.size(); ++i) {
    const std::string& a = command[i];
    const std::string name = a.substr(0, a.find('='));
    if (std::find(flags.begin(), flags.end(), a) != flags.end()) continue;
    if (std::find(with_value.begin(), with_value.end(), name) != with_value.end()) {
      if (name == a) ++i;  // "--opt value": skip the value too
      continue;
    }
    kept.push_back(a);
  }
  return kept;
}

std::size_t auto_split_min_tasks(const Invocation& inv) {
  return std::max<std::size_t>(1024, 16 * static_cast<std::size_t>(std::max(1, inv.common.threads)));
}

std::size_t run_workers(const Invocation& inv) {
  const Distributed* const dist = inv.session.distributed;
  return static_cast<std::size_t>(std::max(1, inv.common.threads)) *
         static_cast<std::size_t>(dist != nullptr ? std::max(1, dist->size()) : 1);
}

engine::RunResult run_job(const Invocation& inv, const engine::Job& job, const Output& output) {
  Distributed* const dist = inv.session.distributed;
  const bool prints = static_cast<bool>(job.run_task_output);  // tasks print, in id order
  if (prints && dist)
    throw InvalidArgument(inv.common.list ? std::string("--list")
                          : inv.problem   ? "--" + std::string(inv.problem->option)
                                          : std::string(),
                          "does not run under count-mpi (one process prints its output in order); "
                          "use --shard I/K on several nodes and count merge");
  if (!inv.common.output_file.empty() && !prints)
    throw InvalidArgument("--output", "applies to jobs that print objects (--list, --puzzle-file); a shard's "
                                      "result file is --out FILE");
  if (inv.common.estimate) print_estimate(inv, job);
  check_feasible(inv, job);
  const Common& c = inv.common;
  const engine::Shard shard{c.shard_index, c.shard_count};
  const bool rank0 = !dist || dist->rank() == 0;
  const std::size_t counters = job.counter_names.size();

  // Checkpoint: load what earlier runs finished. Under MPI rank 0 logs to
  // FILE and rank r > 0 to FILE.rank<r>; every rank first reads all of them
  // (any earlier -np), then waits for the others before appending to its own.
  std::unique_ptr<OutputFile> output_file;  // --output FILE, opened once the checkpoint says where to go on
  std::unique_ptr<engine::CheckpointLog> log;
  std::vector<char> resumed(job.task_count, 0);
  engine::Tally resumed_totals(counters);
  std::vector<engine::TaskRecord> resumed_tasks;
  if (!c.checkpoint.empty()) {
    // PCOUNT_CHECKPOINT_SECONDS: flush period (default 1 s; tests use less).
    double flush_seconds = 1.0;
    if (const char* env = std::getenv("PCOUNT_CHECKPOINT_SECONDS")) {
      char* end = nullptr;
      const double v = std::strtod(env, &end);
      if (end != env && v > 0 && v <= 3600) flush_seconds = v;
    }
    std::vector<engine::TaskRecord> records;
    std::vector<std::string> warnings;
    auto take = [&](const std::string& path, std::vector<engine::TaskRecord> found, const std::string& warning) {
      if (!warning.empty()) warnings.push_back(path + ": " + warning);
      records.insert(records.end(), found.begin(), found.end());
    };
    std::string own = c.checkpoint;
    if (dist) {
      for (const std::string& path : rank_logs(c.checkpoint)) {
        std::string warning;
        auto found = engine::read_checkpoint(path, job, &warning);
        take(path, std::move(found), warning);
      }
      dist->barrier();
      if (dist->rank() > 0) own += ".rank" + std::to_string(dist->rank());
      log = std::make_unique<engine::CheckpointLog>(own, job, flush_seconds);
    } else {
      engine::CheckpointOutput offsets;
      if (!c.output_file.empty()) {
        offsets.offsets = true;
        // Before records are written: the bytes they name are on disk.
        offsets.before_sync = [&output_file] {
          if (output_file) output_file->sync_written();
        };
      }
      log = std::make_unique<engine::CheckpointLog>(own, job, flush_seconds, std::move(offsets));
      take(own, log->resumed(), log->warning());
      // The logs of ranks > 0 of an earlier count-mpi run of this job.
      const auto paths = rank_logs(c.checkpoint);
      for (std::size_t i = 1; i < paths.size(); ++i) {
        std::string warning;
        auto found = engine::read_checkpoint(paths[i], job, &warning);
        take(paths[i], std::move(found), warning);
      }
    }
    if (rank0)
      for (const auto& w : warnings) inv.err << inv.session.program << ": warning: --checkpoint: " << w << '\n';
    std::sort(records.begin(), records.end(),
              [](const engine::TaskRecord& a, const engine::TaskRecord& b) { return a.id < b.id; });
    for (std::size_t i = 0; i < records.size(); ++i) {
      const engine::TaskRecord& t = records[i];
      if (i > 0 && records[i - 1].id == t.id) {  // logged by two ranks: counts once, if they agree
        if (!(records[i - 1].counts == t.counts))
          throw InvalidArgument("--checkpoint", c.checkpoint + ": task " + std::to_string(t.id) +
                                                    " is logged twice with different counts (damaged logs)");
        continue;
      }
      if (!shard.includes(t.id)) continue;
      resumed[t.id] = 1;
      resumed_totals.merge(t.counts);
      resumed_tasks.push_back(t);
    }
  }
  const std::size_t shard_tasks = shard.size(job.task_count);
  if (log && log->read_only() && resumed_tasks.size() < shard_tasks)
    throw InvalidArgument("--checkpoint", c.checkpoint + ": cannot be written (read-only), and " +
                                              std::to_string(shard_tasks - resumed_tasks.size()) +
                                              " tasks of this run are not in it yet; copy it somewhere writable");
  if (!c.output_file.empty()) {
    std::uint64_t length = 0;  // where the output of the resumed tasks ends
    for (const engine::TaskRecord& t : resumed_tasks) length = std::max(length, t.output_end.value_or(0));
    output_file = std::make_unique<OutputFile>(c.output_file, length);
  }
  if (prints && rank0 && !resumed_tasks.empty()) {
    std::string note =
        output.resumed_note ? output.resumed_note(resumed_totals, resumed_tasks.size())
                            : "--checkpoint " + c.checkpoint + ": " + std::to_string(resumed_tasks.size()) +
                                  " tasks were done by earlier runs; their output is not printed again";
    if (output_file)
      note += "; --output " + c.output_file + " is cut back to their " + std::to_string(output_file->length()) +
              " bytes and written on from there (exactly once)";
    else
      note += "; stdout is at-least-once: the last lines before the stop may be printed twice (--output FILE "
              "writes exactly once)";
    inv.err << inv.session.program << ": " << note << '\n' << std::flush;
  }
  std::ostream listing(output_file.get());  // the --output file's stream (unused without it)
  std::ostream& sink = output_file ? listing : inv.out;

  engine::RunOptions options;
  options.threads = c.threads;
  options.include = [&](std::size_t id) { return shard.includes(id) && !resumed[id]; };
  options.record_tasks = !c.out_file.empty() || !c.profile.empty();
  options.cancel = &g_stop;
  std::atomic<std::size_t> done{0};
  options.on_task_done = [&](std::size_t id, const engine::Tally& counts, double seconds) {
    if (log) {
      engine::TaskRecord record{id, counts, seconds};
      if (output_file) record.output_end = output_file->length();  // flushed by on_output just before
      log->record(record);
    }
    done.fetch_add(1, std::memory_order_relaxed);
  };
  // --out of a listing job (--list): each task's text is kept for the shard
  // file (format_version 2) when every task of the shard runs now. (Other
  // printing jobs, --puzzle-file, keep their counts only: merge reports.)
  const bool keep_outputs = prints && c.list && !c.out_file.empty() && rank0 && resumed_tasks.empty();
  std::vector<std::pair<std::size_t, std::string>> kept_outputs;
  // Output::max_lines (--list K): lines written so far, and whether the
  // limit was reached (the run is then cancelled through g_stop).
  std::uint64_t lines_written = 0;
  bool limit_reached = false;
  if (prints) {
    // In id order, one task at a time (engine/runner.hpp); flushed before
    // on_task_done lets the checkpoint record the task.
    options.on_output = [&](std::size_t id, std::string_view text) {
      if (limit_reached) return;
      if (output.max_lines != 0) {
        std::size_t end = 0;
        while (end < text.size() && lines_written < output.max_lines) {
          const std::size_t nl = text.find('\n', end);
          end = nl == std::string_view::npos ? text.size() : nl + 1;
          if (nl != std::string_view::npos) ++lines_written;
        }
        if (lines_written >= output.max_lines) {
          text = text.substr(0, end);
          limit_reached = true;
          g_stop.store(true);  // no further task starts
        }
      }
      if (keep_outputs) kept_outputs.emplace_back(id, std::string(text));
      if (output.write)
        output.write(text, sink);
      else
        sink << text;
      sink.flush();
      if (!sink)
        throw std::runtime_error(output_file ? "--output: writing " + c.output_file + " failed: " + std::strerror(errno)
                                             : std::string("writing the output on stdout failed: ") +
                                                   std::strerror(errno));
    };
  }
  if (dist) {
    dist->begin(job.fingerprint, shard_tasks - resumed_tasks.size());
    options.claim = [dist] { return dist->claim(); };
  }

  const bool show = rank0 && !c.quiet && (c.progress || isatty(2) != 0);
  SignalGuard signals;
  engine::RunResult result;
  {
    Monitor monitor(inv, shard_tasks, resumed_tasks.size(), done, show);
    try {
      result = engine::run(job, options);
      if (output_file) output_file->sync_to_disk();
    } catch (const std::exception& e) {
      monitor.stop();
      if (log) log->close();  // keep what finished before the error
      if (dist) dist->abort(e.what(), 1);  // the other ranks must not wait for this one
      throw;
    }
    monitor.stop();
    if (log) log->close();
    if (monitor.saw_stop_file()) g_stop_signal.store(SIGTERM);
  }
  if (dist) {
    dist->reduce(result.totals, counters, result.tasks_run, result.interrupted);
    if (options.record_tasks) dist->gather(result.tasks, counters);
  }
  result.totals.merge(resumed_totals);
  result.tasks_resumed = resumed_tasks.size();

  // All tasks of this shard, by id: the resumed ones and the ones run now.
  std::vector<engine::TaskRecord> all_tasks;
  if (options.record_tasks && rank0) {
    all_tasks = resumed_tasks;
    all_tasks.insert(all_tasks.end(), result.tasks.begin(), result.tasks.end());
    std::sort(all_tasks.begin(), all_tasks.end(),
              [](const engine::TaskRecord& a, const engine::TaskRecord& b) { return a.id < b.id; });
  }
  // Result files are written after the report is printed (cli::main runs
  // inv.after_report), so that a write failing at the end loses no count.
  const auto later = [&inv](std::function<void()> write) { inv.session.after_report.push_back(std::move(write)); };
  if (!c.profile.empty() && rank0)
    later([path = c.profile, job, all_tasks, resumed] { write_profile(path, job, all_tasks, resumed); });

  if (limit_reached && g_stop_signal.load() == 0) {
    // --list K: the first K objects are out. The counts cover only part of
    // the job, so there is no report (a job with fewer objects than K runs
    // to its end and reports as usual).
    if (rank0 && !c.quiet)
      inv.err << inv.session.program << ": --list " << output.max_lines << ": stopped after the first "
              << output.max_lines << " lines; the counts are not complete, so no report\n";
    throw EarlyExit{0};
  }
  if (result.interrupted) {
    const int sig = g_stop_signal.load();
    const int status = sig == SIGINT ? 130 : 143;
    if (rank0) {
      const std::string why = sig == SIGINT ? "SIGINT" : sig == SIGTERM && c.stop_file.empty() ? "SIGTERM"
                              : sig == SIGTERM ? "SIGTERM or the stop file" : "a stop request";
      inv.err << inv.session.program << ": stopped by " << why << " after " << result.tasks_run + result.tasks_resumed << " of "
              << shard_tasks << " tasks" << (c.shard_count > 1 ? " of shard " + shard_text(c) : "") << " ("
              << result.tasks_resumed << " from the checkpoint); "
              << (dist ? std::string("tasks still running were abandoned; ")
                  : result.tasks_abandoned > 0
                      ? std::to_string(result.tasks_abandoned) + (result.tasks_abandoned == 1 ? " task" : " tasks") +
                            " still running " + (result.tasks_abandoned == 1 ? "was" : "were") +
                            " abandoned (counted nowhere, run again on resume); "
                      : std::string())
              << (c.checkpoint.empty() ? "no --checkpoint, so this work is lost"
                                       : "rerun the same command to resume from " + c.checkpoint)
              << '\n';
    }
    throw EarlyExit{status};
  }

  if (!c.out_file.empty() && rank0) {
    engine::ShardResult r;
    r.version = std::string(version());
    r.fingerprint = job.fingerprint;
    r.counter_names = job.counter_names;
    r.task_count = job.task_count;
    r.shard = shard;
    r.command = problem_command(inv.session);
    r.threads = result.threads;
    r.wall_seconds = result.wall_seconds;
    r.tasks_run = result.tasks_run;
    r.tasks_resumed = result.tasks_resumed;
    r.totals = result.totals;
    r.tasks = all_tasks;
    if (keep_outputs) {
      if (kept_outputs.size() != all_tasks.size())
        throw InternalError("shard result: " + std::to_string(kept_outputs.size()) + " task outputs for " +
                            std::to_string(all_tasks.size()) + " tasks");
      r.has_outputs = true;
      for (auto& [id, text] : kept_outputs) r.outputs.push_back(std::move(text));
    } else if (prints && c.list && !resumed_tasks.empty()) {
      inv.err << inv.session.program << ": note: --out " << c.out_file << ": " << resumed_tasks.size()
              << " tasks came from the checkpoint without their output, so the file keeps the counts only "
                 "(count merge prints the report, not the output)\n";
    }
    if (r.tasks.size() != shard_tasks)
      throw InternalError("shard result has " + std::to_string(r.tasks.size()) + " of " +
                          std::to_string(shard_tasks) + " tasks");
    later([path = c.out_file, r = std::move(r)] { engine::write_shard_file(path, r); });
  }
  if (c.shard_count > 1) {
    // A shard's counts are partial: no problem report (derived figures and
    // self-checks need the whole job). count merge prints that. A job that
    // prints keeps stdout for its output: the partial counts go to stderr.
    std::ostream& summary = prints && c.output_file.empty() ? inv.err : inv.out;
    if (rank0 && !(prints && c.quiet)) {
      if (c.json) {
        nlohmann::ordered_json j;
        j["program"] = "pcount";
        j["version"] = std::string(version());
        j["build"] = std::string(build_info());
        j["fingerprint"] = job.fingerprint;
        j["shard"] = {{"index", shard.index}, {"count", shard.count}};
        nlohmann::ordered_json partial = nlohmann::ordered_json::object();
        for (std::size_t i = 0; i < counters; ++i) partial[job.counter_names[i]] = to_string(result.totals.get(i));
        j["partial_counts"] = partial;
        j["tasks"] = shard_tasks;
        j["tasks_total"] = job.task_count;
        j["tasks_run"] = result.tasks_run;
        j["tasks_resumed"] = result.tasks_resumed;
        j["wall_seconds"] = result.wall_seconds;
        j["out"] = c.out_file.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(c.out_file);
        summary << j.dump() << '\n';
      } else {
        std::ostringstream s;
        auto line = [&s](const std::string& key, const std::string& value) {
          s << std::left << std::setw(static_cast<int>(std::max<std::size_t>(14, key.size() + 1))) << key << value << '\n';
        };
        line("job", job.fingerprint);
        line("shard", shard_text(c) + " (partial counts; add the shards with count merge)");
        for (std::size_t i = 0; i < counters; ++i) line(job.counter_names[i], to_string(result.totals.get(i)));
        line("tasks", std::to_string(shard_tasks) + " of " + std::to_string(job.task_count));
        std::ostringstream wall;
        wall << std::fixed << std::setprecision(3) << result.wall_seconds << " s";
        line("wall", wall.str());
        if (!c.out_file.empty()) line("out", c.out_file);
        summary << s.str();
      }
    }
    throw EarlyExit{0};
  }
  return result;
}

}  // namespace pcount::driver
