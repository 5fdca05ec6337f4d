// run_job: one job run as the command line asks: the batch (checkpoint and
// resume, shard, records: engine/batch.hpp) with progress, the stop file,
// SIGINT and SIGTERM, where the output goes, result files and profiles, and
// (count-mpi) MPI ranks. See docs/hpc.md.

// GCC 12 reports a false -Wrestrict inside inlined std::string concatenation
// (GCC bug 105329); the code is correct, so the warning is off for this file.
#pragma GCC diagnostic ignored "-Wrestrict"

#include <algorithm>
#include <atomic>
#include <charconv>
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
#include "driver/report_format.hpp"
#include "pcount/engine/batch.hpp"
#include "pcount/engine/files.hpp"
#include "pcount/engine/shard.hpp"
#include "pcount/engine/usage.hpp"
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

/// The lines the set-up's handler writes (composed before it is installed:
/// a handler may only call async-signal-safe functions such as write(2)).
std::string g_setup_stop_line[2];

extern "C" void on_setup_signal(int sig) {
  const std::string& line = g_setup_stop_line[sig == SIGINT ? 0 : 1];
  [[maybe_unused]] const ssize_t n = ::write(2, line.data(), line.size());
  ::_exit(sig == SIGINT ? 130 : 143);
}

}  // namespace

SetupSignals::SetupSignals(const Invocation& inv) {
  for (const int sig : {SIGINT, SIGTERM})
    g_setup_stop_line[sig == SIGINT ? 0 : 1] =
        inv.session.program + ": stopped by " + (sig == SIGINT ? "SIGINT" : "SIGTERM") +
        " during the set-up, before any task ran; nothing was counted" +
        (inv.common.checkpoint.empty() ? std::string() : ", and " + inv.common.checkpoint + " is as it was") + "\n";
  struct sigaction sa {};
  sa.sa_handler = on_setup_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int_);
  sigaction(SIGTERM, &sa, &old_term_);
}

SetupSignals::~SetupSignals() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

namespace {

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
    if (!show_ && inv_.common.stop_file.empty() && !inv_.session.progress) return;
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
    report_progress();
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
    auto last_report = Clock::now();
    const auto period = tty_ ? std::chrono::milliseconds(250) : std::chrono::milliseconds(2000);
    for (;;) {
      check_stop_file();
      if (show_ && Clock::now() - last_draw >= period) {
        draw(false);
        last_draw = Clock::now();
      }
      if (Clock::now() - last_report >= std::chrono::milliseconds(250)) {
        report_progress();
        last_report = Clock::now();
      }
      std::unique_lock lock(mutex_);
      if (wake_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stopped_; })) return;
    }
  }

  /// The tasks done so far, resumed ones included.
  [[nodiscard]] std::size_t tasks_done() const {
    std::size_t done_now = done_.load();
    if (Distributed* d = inv_.session.distributed) done_now = std::min(d->claimed(), total_ - std::min(total_, resumed_));
    return std::min(total_, resumed_ + done_now);
  }

  /// Session::progress, when set (the Python module's callback).
  void report_progress() {
    if (inv_.session.progress) inv_.session.progress(tasks_done(), total_);
  }

  void draw(bool final) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    const std::size_t done = tasks_done();
    const std::size_t done_now = done - std::min(done, resumed_);
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

/// --profile: one CSV row per task of `tasks` (`resumed[id]`: from the checkpoint).
void write_profile(const std::string& path, const std::vector<std::string>& counter_names,
                   const std::vector<engine::TaskRecord>& tasks, const std::vector<char>& resumed) {
  std::ostringstream f;
  f << "id,seconds,nodes";
  for (const auto& name : counter_names) f << ',' << csv_field(name);
  f << ",resumed,position\n";
  char secs[32];
  for (const auto& t : tasks) {
    std::snprintf(secs, sizeof secs, "%.9f", t.seconds);
    f << t.id << ',' << secs << ',' << to_string(t.counts.nodes);
    for (std::size_t i = 0; i < counter_names.size(); ++i) f << ',' << to_string(t.counts.get(i));
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

std::string merge_program(const Session& session) {
  const std::string& name = session.program;
  return name.ends_with("-mpi") ? name.substr(0, name.size() - 4) : name;
}

std::size_t auto_split_min_tasks(const Invocation& inv) {
  return std::max<std::size_t>(1024, 16 * static_cast<std::size_t>(std::max(1, inv.common.threads)));
}

std::size_t run_workers(const Invocation& inv) {
  const Distributed* const dist = inv.session.distributed;
  return static_cast<std::size_t>(std::max(1, inv.common.threads)) *
         static_cast<std::size_t>(dist != nullptr ? std::max(1, dist->size()) : 1);
}

namespace {

/// Refuses what this job cannot do, before any work.
void check_run_options(const Invocation& inv, bool prints) {
  if (prints && inv.session.distributed)
    throw InvalidArgument(inv.common.list ? std::string("--list")
                          : inv.problem   ? "--" + std::string(inv.problem->option)
                                          : std::string(),
                          "does not run under count-mpi (one process prints its output in order); "
                          "use --shard I/K on several nodes and " +
                              merge_program(inv.session) + " merge");
  if (!inv.common.output_file.empty() && !prints)
    throw InvalidArgument("--output", "applies to jobs that print objects (--list, --puzzle-file); a shard's "
                                      "result file is --out FILE");
  // --out where --output was likely meant: valid (a one-shard result file), so a note, not a refusal.
  if (prints && !inv.common.out_file.empty() && inv.common.output_file.empty() && inv.common.shard_count == 1 &&
      !inv.common.quiet)
    inv.err << inv.session.program << ": note: --out " << inv.common.out_file << " is the run's result file for "
            << merge_program(inv.session) << " merge (JSON), not its objects, which go to stdout; --output FILE "
            << "writes them to a file\n";
}

}  // namespace

double checkpoint_flush_seconds() {
  const char* env = std::getenv("PCOUNT_CHECKPOINT_SECONDS");
  if (env == nullptr) return 1.0;
  const std::string text = env;
  double v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || !(v >= 0.001 && v <= 3600))
    throw InvalidArgument("PCOUNT_CHECKPOINT_SECONDS",
                          "expected seconds from 0.001 to 3600, got '" + printable(text, 40) + "'");
  return v;
}

namespace {

/// The batch of this invocation: its shard and checkpoint. Under MPI rank 0
/// logs to FILE and rank r > 0 to FILE.rank<r>; every rank first reads all
/// of them (any earlier -np), then waits for the others before appending to
/// its own. A single process also resumes the rank logs of an earlier
/// count-mpi run. With --output the records carry the file's offsets, and
/// the bytes they name are on disk before they are written.
engine::BatchOptions batch_options(const Invocation& inv, const std::unique_ptr<OutputFile>& output_file) {
  const Common& c = inv.common;
  Distributed* const dist = inv.session.distributed;
  engine::BatchOptions b;
  b.shard = engine::Shard{c.shard_index, c.shard_count};
  if (c.checkpoint.empty()) return b;
  b.checkpoint = c.checkpoint;
  b.flush_seconds = checkpoint_flush_seconds();
  std::vector<std::string> logs = rank_logs(c.checkpoint);
  if (dist) {
    b.also_read = std::move(logs);
    b.before_open = [dist] { dist->barrier(); };
    if (dist->rank() > 0) b.checkpoint += ".rank" + std::to_string(dist->rank());
  } else {
    b.also_read.assign(logs.begin() + 1, logs.end());
    if (!c.output_file.empty()) {
      b.output.offsets = true;
      b.output.before_sync = [&output_file] {
        if (output_file) output_file->sync_written();
      };
      // Flushed by on_output just before the task is recorded.
      b.output_mark = [&output_file] { return output_file ? output_file->mark() : engine::OutputMark{}; };
    }
  }
  return b;
}

/// The note on stderr before a printing job resumes: what earlier runs did
/// and how the output goes on.
void print_resumed_note(const Invocation& inv, const Output& output, const engine::Batch& batch,
                        const OutputFile* output_file) {
  const Common& c = inv.common;
  const std::size_t tasks = batch.resumed().size();
  std::string note = output.resumed_note ? output.resumed_note(batch.resumed_totals(), tasks)
                                         : "--checkpoint " + c.checkpoint + ": " + std::to_string(tasks) +
                                               " tasks were done by earlier runs; their output is not printed again";
  if (output_file)
    note += "; --output " + c.output_file + " is cut back to their " + std::to_string(output_file->length()) +
            " bytes and written on from there (exactly once)";
  else
    note +=
        "; stdout is at-least-once: the last lines before the stop may be printed twice (--output FILE "
        "writes exactly once)";
  inv.err << inv.session.program << ": " << note << '\n' << std::flush;
}

/// Writes the text of a printing job's tasks, in id order (engine/runner.hpp),
/// to stdout or the --output file, flushed before the checkpoint records the
/// task; stops after Output::max_lines lines (--list K: cancels the run
/// through g_stop); keeps each text for a --list shard file when asked.
class TaskPrinter {
public:
  TaskPrinter(const Invocation& inv, const Output& output, std::ostream& sink, bool to_file, bool keep)
      : inv_(inv), output_(output), sink_(sink), to_file_(to_file), keep_(keep) {}

  void operator()(std::size_t id, std::string_view text) {
    if (limit_reached_) return;
    if (output_.max_lines != 0) text = cut_at_limit(text);
    if (keep_) kept_.emplace_back(id, std::string(text));
    if (output_.write)
      output_.write(text, sink_);
    else
      sink_ << text;
    sink_.flush();
    if (!sink_)
      throw std::runtime_error(to_file_
                                   ? "--output: writing " + inv_.common.output_file + " failed: " + std::strerror(errno)
                                   : std::string("writing the output on stdout failed: ") + std::strerror(errno));
  }
  /// Whether --list K's K lines are out (the run was cancelled for it).
  [[nodiscard]] bool limit_reached() const { return limit_reached_; }
  /// The texts kept, by task (with `keep`).
  [[nodiscard]] std::vector<std::pair<std::size_t, std::string>>& kept() { return kept_; }

private:
  std::string_view cut_at_limit(std::string_view text) {
    std::size_t end = 0;
    while (end < text.size() && lines_ < output_.max_lines) {
      const std::size_t nl = text.find('\n', end);
      end = nl == std::string_view::npos ? text.size() : nl + 1;
      if (nl != std::string_view::npos) ++lines_;
    }
    if (lines_ < output_.max_lines) return text;
    limit_reached_ = true;
    g_stop.store(true);  // no further task starts
    return text.substr(0, end);
  }

  const Invocation& inv_;
  const Output& output_;
  std::ostream& sink_;
  bool to_file_;
  bool keep_;
  std::uint64_t lines_ = 0;
  bool limit_reached_ = false;
  std::vector<std::pair<std::size_t, std::string>> kept_;
};

/// Runs the batch's pending tasks with the progress display, the stop file
/// and SIGINT/SIGTERM; a failing rank ends every rank (count-mpi).
engine::RunResult run_watched(const Invocation& inv, engine::Batch& batch, engine::RunOptions options,
                              OutputFile* output_file) {
  Distributed* const dist = inv.session.distributed;
  const Common& c = inv.common;
  const bool show = (!dist || dist->rank() == 0) && !c.quiet && (c.progress || isatty(2) != 0);
  std::atomic<std::size_t> done{0};
  options.on_task_done = [&done](std::size_t, const engine::Tally&, double) {
    done.fetch_add(1, std::memory_order_relaxed);
  };
  SignalGuard signals;
  Monitor monitor(inv, batch.shard_tasks(), batch.resumed().size(), done, show);
  engine::RunResult result;
  try {
    result = batch.run(std::move(options));
    if (output_file) output_file->sync_to_disk();
  } catch (const std::exception& e) {
    monitor.stop();
    if (dist) dist->abort(e.what(), 1);  // the other ranks must not wait for this one
    throw;
  }
  monitor.stop();
  if (monitor.saw_stop_file()) g_stop_signal.store(SIGTERM);
  return result;
}

/// The CPU time and peak memory of the run: this process's, with the
/// helper programs it ran and waited for (genbg for the Latin class lists),
/// or under MPI every rank's (CPU summed, RSS the largest; gathered as one
/// record per rank).
void add_usage(const Invocation& inv, engine::RunResult& result) {
  engine::ProcessUsage own = engine::process_usage();
  own.cpu_seconds += own.children_cpu_seconds;
  result.cpu_seconds = own.cpu_seconds;
  result.max_rss_bytes = own.max_rss_bytes;
  Distributed* const dist = inv.session.distributed;
  if (!dist) return;
  engine::Tally rss(1);
  rss.counts[0] = own.max_rss_bytes;
  std::vector<engine::TaskRecord> ranks{
      engine::TaskRecord{static_cast<std::size_t>(dist->rank()), rss, own.cpu_seconds}};
  dist->gather(ranks, 1);
  if (dist->rank() != 0) return;
  result.cpu_seconds = 0;
  for (const engine::TaskRecord& r : ranks) {
    result.cpu_seconds += r.seconds;
    result.max_rss_bytes = std::max(result.max_rss_bytes, static_cast<std::uint64_t>(r.counts.get(0)));
  }
}

/// An interrupted run: says on stderr what was done and how to go on, and
/// ends with status 130 (SIGINT) or 143 (SIGTERM, the stop file).
[[noreturn]] void stop_interrupted(const Invocation& inv, const engine::RunResult& result, std::size_t shard_tasks) {
  const Common& c = inv.common;
  Distributed* const dist = inv.session.distributed;
  const int sig = g_stop_signal.load();
  const int status = sig == SIGINT ? 130 : 143;
  if (dist && dist->rank() != 0) throw EarlyExit{status};
  const std::string why = sig == SIGINT                           ? "SIGINT"
                          : sig == SIGTERM && c.stop_file.empty() ? "SIGTERM"
                          : sig == SIGTERM                        ? "SIGTERM or the stop file"
                                                                  : "a stop request";
  const std::size_t abandoned = result.tasks_abandoned;
  inv.err << inv.session.program << ": stopped by " << why << " after " << result.tasks_run + result.tasks_resumed
          << " of " << shard_tasks << " tasks" << (c.shard_count > 1 ? " of shard " + shard_text(c) : "") << " ("
          << result.tasks_resumed << " from the checkpoint); "
          << (dist ? std::string("tasks still running were abandoned; ")
              : abandoned > 0
                  ? std::to_string(abandoned) + (abandoned == 1 ? " task" : " tasks") + " still running " +
                        (abandoned == 1 ? "was" : "were") + " abandoned (counted nowhere, run again on resume); "
                  : std::string())
          << (c.checkpoint.empty() ? "no --checkpoint, so this work is lost"
                                   : "rerun the same command to resume from " + c.checkpoint)
          << '\n';
  throw EarlyExit{status};
}

/// --out: the shard result file, written after the report (Session::after_report).
void leave_shard_file(const Invocation& inv, const engine::Batch& batch, const engine::RunResult& result,
                      TaskPrinter* printer) {
  const Common& c = inv.common;
  engine::ShardResult r = batch.shard_result(result);
  r.version = std::string(version());
  r.command = problem_command(inv.session);
  if (printer && batch.resumed().empty()) {
    auto& kept = printer->kept();
    if (kept.size() != r.tasks.size())
      throw InternalError("shard result: " + std::to_string(kept.size()) + " task outputs for " +
                          std::to_string(r.tasks.size()) + " tasks");
    r.has_outputs = true;
    for (auto& [id, text] : kept) r.outputs.push_back(std::move(text));
  } else if (printer && c.list) {
    inv.err << inv.session.program << ": note: --out " << c.out_file << ": " << batch.resumed().size()
            << " tasks came from the checkpoint without their output, so the file keeps the counts only "
            << "(" << merge_program(inv.session) << " merge prints the report, not the output)\n";
  }
  inv.session.after_report.push_back([path = c.out_file, r = std::move(r)] { engine::write_shard_file(path, r); });
}

/// A shard of K > 1: its counts are partial, so no problem report (derived
/// figures and self-checks need the whole job; count merge prints that).
/// A job that prints keeps stdout for its output: the partial counts go to
/// stderr. Ends with status 0.
[[noreturn]] void print_partial(const Invocation& inv, const engine::Job& job, const engine::RunResult& result,
                                std::size_t shard_tasks, bool prints) {
  const Common& c = inv.common;
  const Distributed* const dist = inv.session.distributed;
  std::ostream& summary = prints && c.output_file.empty() ? inv.err : inv.out;
  if ((dist && dist->rank() != 0) || (prints && c.quiet)) throw EarlyExit{0};
  JobFigures f = run_figures(result);
  f.tasks = shard_tasks;
  f.tasks_total = job.task_count;
  if (dist) f.ranks = dist->size();
  if (c.json) {
    nlohmann::ordered_json j = json_head(ReportKind::shard);
    j["fingerprint"] = job.fingerprint;
    j["shard"] = {{"index", c.shard_index}, {"count", c.shard_count}};
    nlohmann::ordered_json partial = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < job.counter_names.size(); ++i)
      partial[job.counter_names[i]] = to_string(result.totals.get(i));
    j["partial_counts"] = partial;
    put_figures(j, f);
    j["out"] = c.out_file.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(c.out_file);
    summary << j.dump() << '\n';
  } else {
    TextBlock t;
    t.line("job", job.fingerprint);
    t.line("shard", shard_text(c) + " (partial counts; add the shards with " + merge_program(inv.session) + " merge)");
    for (std::size_t i = 0; i < job.counter_names.size(); ++i)
      t.line(job.counter_names[i], to_string(result.totals.get(i)));
    put_figures(t, f);
    if (!c.out_file.empty()) t.line("out", c.out_file);
    summary << t.str();
  }
  throw EarlyExit{0};
}

}  // namespace

void estimate_plan(const Invocation& inv, const Plan& plan, const std::optional<SetupPrice>& price) {
  check_run_options(inv, static_cast<bool>(plan.job.run_task_output));
  print_estimate(inv, plan.job, plan.report, price);
}

engine::RunResult run_job(const Invocation& inv, const engine::Job& job, const Output& output) {
  const bool prints = static_cast<bool>(job.run_task_output);  // tasks print, in id order
  check_run_options(inv, prints);
  if (inv.common.estimate) print_estimate(inv, job);
  check_feasible(inv, job);
  const Common& c = inv.common;
  Distributed* const dist = inv.session.distributed;
  const bool rank0 = !dist || dist->rank() == 0;

  std::unique_ptr<OutputFile> output_file;  // --output FILE, opened once the checkpoint says where to go on
  engine::Batch batch(job, batch_options(inv, output_file));
  if (rank0)
    for (const auto& w : batch.warnings()) inv.err << inv.session.program << ": warning: --checkpoint: " << w << '\n';
  if (!c.output_file.empty()) {
    output_file = std::make_unique<OutputFile>(c.output_file, batch.output_mark());
    if (!output_file->note().empty()) inv.err << inv.session.program << ": " << output_file->note() << '\n';
  }
  if (prints && rank0 && !batch.resumed().empty()) print_resumed_note(inv, output, batch, output_file.get());
  std::ostream listing(output_file.get());  // the --output file's stream (unused without it)

  engine::RunOptions options;
  options.threads = c.threads;
  options.record_tasks = !c.out_file.empty() || !c.profile.empty();
  options.cancel = &g_stop;
  // --out of a listing job (--list): each task's text is kept for the shard
  // file when every task of the shard runs now. (Other printing jobs,
  // --puzzle-file, keep their counts only: merge reports.)
  const bool keep = prints && c.list && !c.out_file.empty() && rank0 && batch.resumed().empty();
  TaskPrinter printer(inv, output, output_file ? listing : inv.out, output_file != nullptr, keep);
  if (prints) options.on_output = [&printer](std::size_t id, std::string_view text) { printer(id, text); };
  if (dist) {
    dist->begin(job.fingerprint, batch.pending());
    options.claim = [dist] { return dist->claim(); };
  }
  engine::RunResult result = run_watched(inv, batch, std::move(options), output_file.get());
  if (dist) {
    dist->reduce(result, job.counter_names.size());
    if (!c.out_file.empty() || !c.profile.empty()) dist->gather(result.tasks, job.counter_names.size());
  }
  add_usage(inv, result);
  batch.add_resumed(result);  // result.tasks: every task of this shard, by id

  // Result files are written after the report is printed (run_invocation
  // runs Session::after_report), so that a write failing at the end loses no count.
  if (!c.profile.empty() && rank0) {
    std::vector<char> resumed(job.task_count, 0);
    for (const engine::TaskRecord& t : batch.resumed()) resumed[t.id] = 1;
    inv.session.after_report.push_back([path = c.profile, names = job.counter_names, tasks = result.tasks,
                                        resumed = std::move(resumed)] { write_profile(path, names, tasks, resumed); });
  }
  if (printer.limit_reached() && g_stop_signal.load() == 0) {
    // --list K: the first K objects are out. The counts cover only part of
    // the job, so there is no report (a job with fewer objects than K runs
    // to its end and reports as usual).
    if (rank0 && !c.quiet)
      inv.err << inv.session.program << ": --list " << output.max_lines << ": stopped after the first "
              << (output.max_lines == 1 ? "line" : std::to_string(output.max_lines) + " lines")
              << "; the counts are not complete, so no report\n";
    throw EarlyExit{0};
  }
  if (result.interrupted) stop_interrupted(inv, result, batch.shard_tasks());
  if (!c.out_file.empty() && rank0) leave_shard_file(inv, batch, result, prints && c.list ? &printer : nullptr);
  if (c.shard_count > 1) print_partial(inv, job, result, batch.shard_tasks(), prints);
  return result;
}

}  // namespace pcount::driver
