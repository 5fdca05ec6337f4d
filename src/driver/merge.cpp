// merge: adds up the result files of the shards of one job.

// GCC 12 reports a false -Wrestrict inside inlined std::string concatenation
// (GCC bug 105329); the code is correct, so the warning is off for this file.
#pragma GCC diagnostic ignored "-Wrestrict"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "driver/batch.hpp"
#include "pcount/driver/program.hpp"
#include "pcount/engine/shard.hpp"
#include "pcount/u128.hpp"

namespace pcount::driver {

namespace {

/// The job's figures from the shards' own runs, not from this merge: CPU
/// summed, the longest wall, the largest RSS, the most threads.
engine::RunResult shards_result(const engine::MergeResult& m) {
  engine::RunResult r;
  r.totals = m.totals;
  r.tasks_total = m.task_count;
  r.tasks_run = m.tasks_run;
  r.tasks_resumed = m.tasks_resumed;
  r.threads = m.threads;
  r.wall_seconds = m.wall_seconds;
  r.cpu_seconds = m.cpu_seconds;
  r.max_rss_bytes = m.max_rss_bytes;
  return r;
}

/// The merged counters without the problem's report (--raw, or files whose
/// command is empty).
void print_raw(std::ostream& out, const engine::MergeResult& m, bool json) {
  JobFigures f = run_figures(shards_result(m));
  f.shards = m.shard_count;
  f.task_seconds = m.task_seconds;
  if (json) {
    nlohmann::ordered_json j = json_head(ReportKind::merge);
    j["fingerprint"] = m.fingerprint;
    nlohmann::ordered_json counts = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < m.counter_names.size(); ++i) counts[m.counter_names[i]] = to_string(m.totals.get(i));
    j["counts"] = counts;
    put_figures(j, f);
    out << j.dump() << '\n';
    return;
  }
  TextBlock t;
  t.line("job", m.fingerprint);
  for (std::size_t i = 0; i < m.counter_names.size(); ++i) t.line(m.counter_names[i], to_string(m.totals.get(i)));
  put_figures(t, f);
  out << t.str();
}

struct MergeArgs {
  bool json = false;
  bool raw = false;
  std::vector<std::string> files;
};

/// Parses `merge [--json] [--raw] FILE...`; returns an exit status when
/// there is nothing to merge (--help: 0; bad usage: 2, said on `err`).
std::optional<int> parse_merge_args(int argc, const char* const* argv, const std::string& name, MergeArgs& m,
                                    std::ostream& out, std::ostream& err) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json") {
      m.json = true;
    } else if (a == "--raw") {
      m.raw = true;
    } else if (a == "--help" || a == "-h") {
      out << "usage: " << name << " merge [--json] [--raw] FILE...\n"
          << "Checks that the shard result files (" << name << " ... --shard I/K --out FILE) are all the\n"
             "shards of one job, each once, adds them up and prints the job's report as a\n"
             "single run would (--raw: the raw counters only). Exit 1 names missing or\n"
             "duplicated shards.\n";
      return 0;
    } else if (a.rfind("-", 0) == 0 && a.size() > 1) {
      err << name << ": merge: " << a << ": unknown option (allowed: --json, --raw)\n";
      return 2;
    } else {
      m.files.push_back(a);
    }
  }
  if (m.files.empty()) {
    err << name << ": merge: no files given (usage: " << name << " merge [--json] [--raw] FILE...)\n";
    return 2;
  }
  for (const auto& f : m.files) {
    std::error_code ec;
    if (std::filesystem::is_directory(f, ec)) {
      err << name << ": merge: " << f << ": is a directory, expected a shard result file (" << name << " ... --out FILE)\n";
      return 2;
    }
  }
  return std::nullopt;
}

/// Reads, checks and adds the files; throws std::runtime_error naming the problem.
engine::MergeResult read_and_merge(const std::vector<std::string>& files, const std::string& name, std::ostream& err) {
  std::vector<engine::ShardResult> shards;
  for (const auto& f : files) shards.push_back(engine::read_shard_file(f));
  engine::MergeResult merged = engine::merge_shards(shards, files);
  const auto kept = std::count_if(shards.begin(), shards.end(), [](const auto& s) { return s.has_outputs; });
  if (kept != 0 && !merged.has_outputs)
    err << name << ": merge: note: only " << kept << " of " << shards.size()
        << " files keep their tasks' output (the others resumed from a checkpoint); printing the report only\n";
  return merged;
}

/// Whether `word` of a shard file's command names a problem of `program`.
bool names_problem_of(const Program& program, const std::string& word) {
  return std::any_of(program.problems.begin(), program.problems.end(), [&word](const Problem& p) {
    const std::string option = "--" + std::string(p.option);
    return word == option || word.rfind(option + "=", 0) == 0;
  });
}

/// The arguments that rebuild the job from the files' command (argv[0]
/// first). The command comes from a file, which may come from anywhere: it
/// may choose the problem and its parameters, nothing else. Options that
/// name files or do more than count (--svg, --out, --checkpoint,
/// --cache-dir, --show, ...) are dropped, and said so; --threads only says
/// how a shard ran (every Slurm shard passes it) and is dropped silently.
std::vector<std::string> replay_arguments(const Program& program, const engine::MergeResult& merged, bool json,
                                          std::ostream& err) {
  const std::string& name = program.name;
  std::vector<std::string> args{name};
  std::vector<std::string> ignored;
  const std::vector<std::string> kept = job_arguments(program, merged.command, ignored);
  args.insert(args.end(), kept.begin(), kept.end());
  std::erase_if(ignored, [](const std::string& a) {
    return a.rfind("--threads", 0) == 0 || a.rfind("-t ", 0) == 0 || a == "-t";
  });
  if (!ignored.empty()) {
    std::string list;
    for (std::size_t i = 0; i < ignored.size() && i < 12; ++i) list += (list.empty() ? "" : ", ") + ignored[i];
    if (ignored.size() > 12) list += " and " + std::to_string(ignored.size() - 12) + " more";
    err << name << ": merge: ignored from the shard files' command: " << list << '\n';
  }
  if (json) args.emplace_back("--json");
  return args;
}

}  // namespace

int merge_main(int argc, const char* const* argv, const Program& program, std::ostream& out, std::ostream& err) {
  const std::string& name = program.name;
  MergeArgs args;
  if (const auto status = parse_merge_args(argc, argv, name, args, out, err)) return *status;
  engine::MergeResult merged;
  try {
    merged = read_and_merge(args.files, name, err);
  } catch (const std::exception& e) {
    err << name << ": merge: " << one_line(e.what()) << '\n';
    return 1;
  }
  if (args.raw || merged.command.empty()) {
    print_raw(out, merged, args.json);
    return 0;
  }
  // The files' command must name a problem of this program: a shard of
  // another program built on pcount (examples/langford) is merged by that
  // program, or with --raw.
  if (std::none_of(merged.command.begin(), merged.command.end(),
                   [&program](const std::string& w) { return names_problem_of(program, w); })) {
    err << name << ": merge: " << args.files.front() << ": written by another program (its command '"
        << printable(merged.command.front(), 40) << " ...' names no problem of " << name
        << "); merge it with that program, or use " << name << " merge --raw for its counters\n";
    return 1;
  }
  // Rebuild the job from its command and let the problem print its report
  // (derived figures included) from the merged totals, through the same
  // driver path as a run: parse, plan, report (Session::replay).
  const engine::RunResult result = shards_result(merged);
  const std::vector<std::string> words = replay_arguments(program, merged, args.json, err);
  std::vector<const char*> cargs;
  for (const auto& a : words) cargs.push_back(a.c_str());
  Session session;
  session.program = name;
  session.command.assign(words.begin() + 1, words.end());
  session.replay = &result;
  session.replay_files = &merged;
  return run_invocation(static_cast<int>(cargs.size()), cargs.data(), program, session, out, err);
}

}  // namespace pcount::driver
