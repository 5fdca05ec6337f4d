// merge: adds up the result files of the shards of one job.

// GCC 12 reports a false -Wrestrict inside inlined std::string concatenation
// (GCC bug 105329); the code is correct, so the warning is off for this file.
#pragma GCC diagnostic ignored "-Wrestrict"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "driver/batch.hpp"
#include "pcount/driver/program.hpp"
#include "pcount/engine/shard.hpp"
#include "pcount/u128.hpp"

namespace pcount::driver {

namespace {

void print_raw(std::ostream& out, const engine::MergeResult& m, bool json) {
  if (json) {
    nlohmann::ordered_json j;
    j["program"] = "pcount";
    j["version"] = std::string(version());
    j["fingerprint"] = m.fingerprint;
    nlohmann::ordered_json counts = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < m.counter_names.size(); ++i) counts[m.counter_names[i]] = to_string(m.totals.get(i));
    j["counts"] = counts;
    j["tasks"] = m.task_count;
    j["shards"] = m.shard_count;
    j["task_seconds"] = m.task_seconds;
    j["nodes"] = m.totals.nodes ? nodes_json(m.totals.nodes) : nullptr;
    out << j.dump() << '\n';
    return;
  }
  std::ostringstream s;
  auto line = [&s](const std::string& key, const std::string& value) {
    s << std::left << std::setw(static_cast<int>(std::max<std::size_t>(14, key.size() + 1))) << key << value << '\n';
  };
  line("job", m.fingerprint);
  for (std::size_t i = 0; i < m.counter_names.size(); ++i) line(m.counter_names[i], to_string(m.totals.get(i)));
  line("tasks", std::to_string(m.task_count) + " in " + std::to_string(m.shard_count) + " shards");
  if (m.totals.nodes) line("nodes", to_string(m.totals.nodes));
  std::ostringstream secs;
  secs << std::fixed << std::setprecision(3) << m.task_seconds << " s";
  line("task time", secs.str());
  out << s.str();
}

}  // namespace

int merge_main(int argc, const char* const* argv, const Program& program, std::ostream& out, std::ostream& err) {
  const std::string& name = program.name;
  bool json = false;
  bool raw = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json") {
      json = true;
    } else if (a == "--raw") {
      raw = true;
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
      files.push_back(a);
    }
  }
  if (files.empty()) {
    err << name << ": merge: no files given (usage: " << name << " merge [--json] [--raw] FILE...)\n";
    return 2;
  }
  for (const auto& f : files) {
    std::error_code ec;
    if (std::filesystem::is_directory(f, ec)) {
      err << name << ": merge: " << f << ": is a directory, expected a shard result file (" << name << " ... --out FILE)\n";
      return 2;
    }
  }
  engine::MergeResult merged;
  // The job's figures from the shards' own runs, not from this merge.
  engine::RunResult result;
  try {
    std::vector<engine::ShardResult> shards;
    for (const auto& f : files) shards.push_back(engine::read_shard_file(f));
    merged = engine::merge_shards(shards, files);
    for (const engine::ShardResult& s : shards) {
      result.threads = std::max(result.threads, s.threads);
      result.tasks_run += s.tasks_run;
      result.tasks_resumed += s.tasks_resumed;
    }
    const auto kept = std::count_if(shards.begin(), shards.end(), [](const auto& s) { return s.has_outputs; });
    if (kept != 0 && !merged.has_outputs)
      err << name << ": merge: note: only " << kept << " of " << shards.size()
          << " files keep their tasks' output (the others resumed from a checkpoint); printing the report only\n";
  } catch (const std::exception& e) {
    err << name << ": merge: " << e.what() << '\n';
    return 1;
  }
  if (raw || merged.command.empty()) {
    print_raw(out, merged, json);
    return 0;
  }
  // The files' command must name a problem of this program: a shard of
  // another program built on pcount (examples/langford) is merged by that
  // program, or with --raw.
  const auto names_ours = [&program](const std::string& word) {
    return std::any_of(program.problems.begin(), program.problems.end(), [&word](const Problem& p) {
      const std::string option = "--" + std::string(p.option);
      return word == option || word.rfind(option + "=", 0) == 0;
    });
  };
  if (std::none_of(merged.command.begin(), merged.command.end(), names_ours)) {
    err << name << ": merge: " << files.front() << ": written by another program (its command '"
        << printable(merged.command.front(), 40) << " ...' names no problem of " << name
        << "); merge it with that program, or use " << name << " merge --raw for its counters\n";
    return 1;
  }
  // Rebuild the job from its command and let the problem print its report
  // (derived figures included) from the merged totals.
  result.totals = merged.totals;
  result.tasks_total = merged.task_count;
  result.wall_seconds = merged.wall_seconds;
  // The command comes from a file, which may come from anywhere: it may
  // choose the problem and its parameters, nothing else. Options that name
  // files or do more than count (--svg, --out, --checkpoint, --cache-dir,
  // --show, ...) are dropped, and said so.
  std::vector<std::string> args{name};
  std::vector<std::string> ignored;
  const std::vector<std::string> kept = job_arguments(program, merged.command, ignored);
  args.insert(args.end(), kept.begin(), kept.end());
  // --threads only says how the shard ran (every Slurm shard passes it):
  // dropped without a word; what names a file or draws is listed.
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
  std::vector<const char*> cargs;
  for (const auto& a : args) cargs.push_back(a.c_str());
  // The same driver path as a run: parse, plan, report — with the merged
  // totals in place of the run (Session::replay).
  Session session;
  session.program = name;
  session.command.assign(args.begin() + 1, args.end());
  session.replay = &result;
  session.replay_files = &merged;
  return run_invocation(static_cast<int>(cargs.size()), cargs.data(), program, session, out, err);
}

}  // namespace pcount::driver
