#include "pcount/driver/program.hpp"
#include "driver/batch.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <limits>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include <unistd.h>

#include "pcount/engine/files.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/engine/shard.hpp"
#include "pcount/u128.hpp"

namespace pcount::driver {

namespace {

std::string dashed(std::string_view name) { return "--" + std::string(name); }

/// Options understood with every problem.
po::options_description common_options(const Program& program) {
  std::string methods;
  for (const Problem& e : program.problems)
    if (!e.methods.empty()) methods += (methods.empty() ? "" : ", ") + dashed(e.option) + " " + std::string(e.methods);
  methods = "counting method" + (methods.empty() ? std::string() : ": " + methods) + "; default: the fastest that applies";
  std::string lists;  // the problems that --list applies to, from the program's own table
  for (const Problem& e : program.problems)
    if (e.lists) lists += (lists.empty() ? "" : ", ") + dashed(e.option);
  const std::string list_help =
      "print each object counted, one per line (JSON lines with --json), in a fixed order; K ≥ 1: only the "
      "first K; the report goes to stderr" + (lists.empty() ? std::string("; no problem of ") + program.name +
      " lists" : "; problems that list: " + lists);
  std::string priced;  // the problems that price their memory
  for (const Problem& e : program.problems)
    if (e.memory_limit) priced += (priced.empty() ? "" : ", ") + dashed(e.option);
  const std::string memory_help =
      "refuse (exit 2, before any work) a run whose priced peak memory per process exceeds SIZE (bytes, or "
      "with K, M, G, T: powers of 1024); default: each problem's own" +
      (priced.empty() ? std::string("; no problem of ") + program.name + " prices its memory"
                      : "; problems that price it: " + priced);
  po::options_description d("Common options");
  // One option a line, as --help shows them.
  // clang-format off
  d.add_options()
      ("help,h", "print this help and exit")
      ("version,V", "print the version and the build (compiler, flags) and exit")
      ("threads,t", po::value<std::string>()->value_name("T"),
       "worker threads, T ≥ 1 (may exceed the core count); default: all hardware threads")
      ("split-depth", po::value<std::string>()->value_name("D"),
       "tree depth at which a search is split into tasks, D ≥ 0; default: the shallowest depth "
       "giving enough tasks (see each problem)")
      ("method", po::value<std::string>()->value_name("M"), methods.c_str())
      ("json", "print one JSON object (or JSON lines) on stdout instead of text")
      ("list", po::value<std::string>()->implicit_value("")->value_name("[K]"), list_help.c_str())
      ("estimate", po::value<std::string>()->implicit_value("")->value_name("[S]"),
       "do not run: print the predicted tree size, CPU and wall time (95% interval) for these "
       "--threads/--shard, from a sample of tasks run in full (timed probes of them where tasks take "
       "hours) within about S seconds (default 3)")
      ("memory-limit", po::value<std::string>()->value_name("SIZE"), memory_help.c_str())
      ("quiet,q", "no progress display on stderr")
      ("progress", "show progress on stderr even when it is not a terminal");
  // clang-format on
  return d;
}

/// Options of batch runs (docs/hpc.md), understood with every problem.
po::options_description batch_options(const Program& program) {
  const std::string merge = program.name + " merge";
  const std::string shard_help = "run only the tasks with id ≡ I (mod K); print partial counts; see " + merge;
  const std::string out_help = "write the (shard's) result as JSON to FILE, for " + merge;
  po::options_description d("Batch options (checkpoint, shards, profiles)");
  d.add_options()
      ("checkpoint", po::value<std::string>()->value_name("FILE"),
       "record every finished task in FILE; rerunning the same command resumes from it")
      ("stop-file", po::value<std::string>()->value_name("PATH"),
       "stop like SIGTERM (finish running tasks, exit 143) once PATH exists")
      ("shard", po::value<std::string>()->value_name("I/K"), shard_help.c_str())
      ("out", po::value<std::string>()->value_name("FILE"), out_help.c_str())
      ("output", po::value<std::string>()->value_name("FILE"),
       "write the objects of --list (the results of --puzzle-file) to FILE instead of stdout, exactly once "
       "across --checkpoint resumes (stdout is at-least-once); the report goes to stdout")
      ("profile", po::value<std::string>()->value_name("FILE"),
       "write each task's id, wall seconds, nodes and counts to FILE (CSV)")
      ("no-estimate-check",
       "start the run even when its size estimate says it would take more than ten CPU-years "
       "(such runs are otherwise refused when standard input is not a terminal)");
  return d;
}

struct Parsed {
  po::options_description all;
  po::options_description problems{"Problems (give exactly one)"};
  std::map<std::string, std::string> owner;  ///< problem option name → group
};

Parsed build_options(const Program& program) {
  Parsed p;
  for (const Problem& e : program.problems) {
    const std::string name(e.option);
    if (e.value_name.empty())
      p.problems.add_options()(name.c_str(), std::string(e.help).c_str());
    else
      p.problems.add_options()(name.c_str(), po::value<std::string>()->value_name(std::string(e.value_name)),
                               std::string(e.help).c_str());
  }
  p.all.add(p.problems).add(common_options(program)).add(batch_options(program));
  for (const Problem& e : program.problems) {
    if (!e.add_options) continue;
    std::string members;
    for (const Problem& m : program.problems)
      if (m.group == e.group) members += (members.empty() ? "" : " and ") + dashed(m.option);
    po::options_description own("Options of " + members);
    e.add_options(own);
    if (own.options().empty()) continue;
    for (const auto& opt : own.options()) p.owner[opt->long_name()] = std::string(e.group);
    p.all.add(own);
  }
  return p;
}

void print_help(std::ostream& out, const Program& program, const Parsed& p) {
  out << "usage: " << program.name << " PROBLEM [OPTIONS]\n"
      << "       " << program.name << " merge [--json] [--raw] FILE...\n"
      << (program.summary.empty() ? "Counts exactly, in parallel" : program.summary) << " (pcount " << version()
      << ").\n\n"
      << p.all << "\n"
      << "Exit status: 0 done; 1 a run-time failure; 2 bad arguments.\n";
}

/// --version: a program built with pcount's own CMake (count) has one build;
/// another program (Program::build set) names its own build and the
/// library's apart.
void print_version(std::ostream& out, const Program& program) {
  if (program.build.empty()) {
    out << program.name << " (pcount) " << version() << '\n' << "built with " << build_info() << '\n';
    return;
  }
  out << program.name << " (with pcount " << version() << ")\n"
      << program.name << " built with " << program.build << '\n'
      << "pcount library built with " << build_info() << '\n';
}

const Problem& choose_problem(const Program& program, const po::variables_map& vm) {
  std::vector<const Problem*> chosen;
  for (const Problem& e : program.problems)
    if (vm.count(std::string(e.option))) chosen.push_back(&e);
  if (chosen.empty()) {
    std::string list;
    for (const Problem& e : program.problems) list += (list.empty() ? "" : ", ") + dashed(e.option);
    throw InvalidArgument("", "no problem given; choose one of " + list + " (see --help)");
  }
  if (chosen.size() > 1)
    throw InvalidArgument(dashed(chosen[0]->option) + ", " + dashed(chosen[1]->option),
                          "give one problem at a time");
  return *chosen.front();
}

Common read_common(const po::variables_map& vm) {
  Common c;
  c.threads = engine::hardware_threads();
  if (vm.count("threads"))
    c.threads = static_cast<int>(parse_int("--threads", vm["threads"].as<std::string>(), 1, 4096));
  if (vm.count("split-depth"))
    c.split_depth = static_cast<int>(parse_int("--split-depth", vm["split-depth"].as<std::string>(), 0, 64));
  if (vm.count("method")) {
    c.method = vm["method"].as<std::string>();
    if (c.method.empty()) throw InvalidArgument("--method", "expected a method name, got an empty value (see --help)");
  }
  c.json = vm.count("json") > 0;
  c.quiet = vm.count("quiet") > 0;
  c.progress = vm.count("progress") > 0;
  if (c.quiet && c.progress)
    throw InvalidArgument("--quiet, --progress", "give one: --quiet hides the progress display, --progress shows it");
  c.estimate_check = vm.count("no-estimate-check") == 0;
  if (vm.count("list")) {
    c.list = true;
    const std::string k = vm["list"].as<std::string>();
    if (!k.empty()) {
      try {
        c.list_limit = static_cast<std::uint64_t>(parse_int("--list", k, 1, std::numeric_limits<long long>::max()));
      } catch (const InvalidArgument&) {
        throw InvalidArgument("--list", "expected K, a whole number ≥ 1 (or no K: all), got '" + k + "'");
      }
    }
  }
  if (vm.count("estimate")) {
    c.estimate = true;
    const std::string s = vm["estimate"].as<std::string>();
    if (!s.empty()) {
      double v = 0;
      const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (ec != std::errc() || ptr != s.data() + s.size() || !(v >= 0.1 && v <= 600))
        throw InvalidArgument("--estimate", "expected S, the seconds the estimate may take, from 0.1 to 600 (or "
                                            "no S: 3), got '" + s + "'");
      c.estimate_budget = v;
    }
  }
  if (vm.count("memory-limit"))
    c.memory_limit = parse_memory_size("--memory-limit", vm["memory-limit"].as<std::string>());
  auto file = [&vm](const char* name) -> std::string {
    if (!vm.count(name)) return {};
    const std::string v = vm[name].as<std::string>();
    if (v.empty()) throw InvalidArgument(std::string("--") + name, "expected a file name, got an empty value");
    return v;
  };
  c.checkpoint = file("checkpoint");
  c.stop_file = file("stop-file");
  c.out_file = file("out");
  c.output_file = file("output");
  c.profile = file("profile");
  if (vm.count("shard")) {
    const engine::Shard shard = engine::parse_shard(vm["shard"].as<std::string>());
    c.shard_index = shard.index;
    c.shard_count = shard.count;
  }
  return c;
}

/// Every file an invocation names, checked before any work: outputs can be
/// written (engine::check_output_file), inputs read, and no output names
/// the same file as another output or an input (docs/hpc.md).
/// "-1", "-0.5": a negative number rather than an option.
bool looks_numeric(const std::string& word) {
  return word.size() >= 2 && word[0] == '-' && (std::isdigit(static_cast<unsigned char>(word[1])) || word[1] == '.');
}

bool existing_regular_file(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(std::filesystem::symlink_status(path, ec));
}

/// A file option's path and whether it is written; `fd` >= 0 when the
/// option reads that descriptor ("-": standard input).
struct NamedPath {
  std::string option, path;
  bool output;
  int fd = -1;
};

/// Refuses an output that is the same file as standard input, output or
/// error (`count --list --output F > F`), and an input that is standard
/// output or error (`count --puzzle-file P > P`, which the shell has
/// emptied already): compared by (device, inode), regular files only.
void check_standard_streams(const std::vector<NamedPath>& named) {
  static constexpr const char* kStream[] = {"standard input", "standard output", "standard error"};
  for (const NamedPath& n : named) {
    const auto id = n.fd >= 0 ? engine::regular_fd_id(n.fd) : engine::regular_file_id(n.path);
    if (!id) continue;
    for (int fd = n.output ? 0 : 1; fd <= 2; ++fd)
      if (engine::regular_fd_id(fd) == id)
        throw InvalidArgument(n.option, (n.fd >= 0 ? std::string("-") : n.path) + ": is also the " + kStream[fd] +
                                            " of this run" +
                                            (n.output ? "; give the option another file, or redirect elsewhere"
                                                      : " (the shell emptied it before the run); redirect elsewhere"));
  }
}

void check_paths(const Invocation& inv) {
  struct PathOption {
    const char* name;
    bool output;
    bool input;
  };
  static constexpr PathOption kPaths[] = {
      {"checkpoint", true, true},    {"out", true, false},           {"profile", true, false},
      {"svg", true, false},          {"puzzle-file", false, true},   {"stop-file", false, false},
      {"output", true, false},       {"strategy-out", true, false},  {"strategy-file", false, true},
      {"bound-tree", false, true},
  };
  std::vector<NamedPath> named;
  for (const PathOption& p : kPaths) {
    const auto v = inv.value(p.name);
    if (!v) continue;
    const std::string option = dashed(p.name);
    if (*v == "-" && std::string_view(p.name) == "puzzle-file") {
      named.push_back({option, "/dev/stdin", false, 0});
      continue;
    }
    if (*v == "-" && std::string_view(p.name) == "strategy-file" && inv.replayed()) continue;  // merge reads no tree
    if (std::string_view(p.name) == "checkpoint" && *v != "-" && existing_regular_file(*v)) {
      // An existing checkpoint is opened and locked by the run itself, which
      // also resumes a finished one kept on a read-only file system.
    } else if (p.output) {
      engine::check_output_file(option, *v);
    } else if (p.input) {
      engine::check_input_file(option, *v);
    } else if (v->empty()) {
      throw InvalidArgument(option, "expected a file name, got an empty value");
    } else if (*v == "-") {  // --stop-file
      throw InvalidArgument(option, "'-' is not a stop file: name the file whose creation stops the run");
    } else if (std::error_code ec; std::filesystem::is_directory(*v, ec)) {  // --stop-file
      throw InvalidArgument(option, *v + ": is a directory; the stop file is a path that is created to stop the run");
    }
    named.push_back({option, *v, p.output});
  }
  for (std::size_t i = 0; i < named.size(); ++i)
    for (std::size_t j = i + 1; j < named.size(); ++j)
      if ((named[i].output || named[j].output) && engine::same_file(named[i].path, named[j].path))
        throw InvalidArgument(named[i].option + ", " + named[j].option,
                              "both name " + named[j].path + "; give each its own file");
  check_standard_streams(named);
  if (inv.value("checkpoint")) (void)checkpoint_flush_seconds();  // the environment is checked like an option
  if (const auto dir = inv.value("cache-dir")) {
    std::error_code ec;
    if (std::filesystem::exists(*dir, ec) && !std::filesystem::is_directory(*dir, ec))
      throw InvalidArgument("--cache-dir", *dir + ": is not a directory");
  }
}

/// The option that sets library parameter `argument` (ParameterOption), or
/// `argument` itself when it already is an option or is not known.
std::string option_for(const Problem* problem, const std::string& argument) {
  static constexpr ParameterOption kCommon[] = {
      {"threads", "--threads"}, {"split_depth", "--split-depth"}, {"method", "--method"},
      {"checkpoint", "--checkpoint"}, {"shard", "--shard"}, {"cache_dir", "--cache-dir"}};
  if (problem)
    for (const ParameterOption& p : problem->parameters)
      if (argument == p.parameter) return std::string(p.option);
  for (const ParameterOption& p : kCommon)
    if (argument == p.parameter) return std::string(p.option);
  return argument;
}

/// One line for a Boost.Program_options error, naming the option.
std::pair<std::string, std::string> describe(const po::error& e) {
  if (const auto* u = dynamic_cast<const po::unknown_option*>(&e))
    return {u->get_option_name(), "unknown option (see --help)"};
  if (const auto* m = dynamic_cast<const po::invalid_command_line_syntax*>(&e)) {
    if (m->kind() == po::invalid_command_line_syntax::missing_parameter)
      return {m->get_option_name(), "missing value"};
    if (m->kind() == po::invalid_command_line_syntax::extra_parameter)
      return {m->get_option_name(), "takes no value"};
    return {m->get_option_name(), m->what()};
  }
  if (const auto* r = dynamic_cast<const po::multiple_occurrences*>(&e))
    return {r->get_option_name(), "given more than once"};
  if (const auto* n = dynamic_cast<const po::error_with_option_name*>(&e)) return {n->get_option_name(), e.what()};
  return {"", e.what()};
}

}  // namespace

std::vector<std::string> job_arguments(const Program& program, const std::vector<std::string>& command,
                                       std::vector<std::string>& ignored) {
  static const std::set<std::string> not_job = {
      "help",  "version", "threads", "json",     "quiet", "progress",  "checkpoint", "stop-file",
      "shard", "out",     "profile", "no-estimate-check", "show", "ascii", "svg",     "cache-dir", "estimate"};
  static const std::set<std::string> path_values = {"FILE", "PATH", "DIR", "F"};
  // Input files that decide the count are kept with the value "-", as a
  // problem's input file is: the plan names the job from the shards'
  // fingerprint (which holds the file's digest) and reads nothing.
  static const std::set<std::string> deciding_inputs = {"strategy-file"};
  const Parsed p = build_options(program);
  std::vector<std::string> kept;
  // An allow-list: a known option that defines the job (and its value) is
  // kept; everything else — other options, bare words such as "merge",
  // bundled short flags — is dropped.
  for (std::size_t i = 0; i < command.size(); ++i) {
    const std::string& a = command[i];
    const po::option_description* d = nullptr;
    if (a.rfind("--", 0) == 0 && a.size() > 2)
      d = p.all.find_nothrow(a.substr(2, a.find('=') == std::string::npos ? std::string::npos : a.find('=') - 2),
                             false, false, false);
    else if (a.size() == 2 && a[0] == '-' && a[1] != '-')
      d = p.all.find_nothrow(a, false, false, false);  // -t, -q, -h
    const bool takes_value = d && d->semantic()->max_tokens() > 0;
    const bool inline_value = a.find('=') != std::string::npos;
    // An optional value (--list [K]) is the next word only when that is not an option.
    const bool optional_value = d && d->semantic()->min_tokens() == 0;
    const bool with_next = takes_value && !inline_value && i + 1 < command.size() &&
                           !(optional_value && command[i + 1].rfind("-", 0) == 0);
    bool keep = d != nullptr && !not_job.count(d->long_name());
    if (keep && takes_value) {
      const std::string param = d->format_parameter();
      keep = !path_values.count(param.substr(0, param.find(' ')));
      const bool problem_option = deciding_inputs.count(d->long_name()) != 0 ||
                                  std::any_of(program.problems.begin(), program.problems.end(),
                                              [&d](const Problem& e) { return e.option == d->long_name(); });
      if (!keep && problem_option) {
        // The problem's input file (--puzzle-file F): the problem stays, its
        // file is replaced by "-", which a plan does not read when replaying.
        kept.push_back("--" + d->long_name());
        kept.emplace_back("-");
        if (with_next) ++i;
        continue;
      }
    }
    if (keep) {
      kept.push_back(a);
      if (with_next) kept.push_back(command[++i]);
    } else {
      std::string shown = a;
      if (with_next) shown += " " + command[++i];
      ignored.push_back(printable(shown, 60));
    }
  }
  return kept;
}

std::string_view version() { return engine::program_version(); }

#ifndef PCOUNT_BUILD_INFO
#define PCOUNT_BUILD_INFO "unknown"
#endif
std::string_view build_info() { return PCOUNT_BUILD_INFO; }

bool list_json(const Invocation& inv) {
  if (inv.session.replay_files) {
    const std::string& f = inv.session.replay_files->fingerprint;
    return f.find(" list=json") != std::string::npos;
  }
  return inv.common.json;
}

std::string list_fingerprint(const Invocation& inv) { return list_json(inv) ? " list=json" : " list=text"; }

std::optional<std::string> Invocation::value(const std::string& name) const {
  if (!vm.count(name)) return std::nullopt;
  return vm[name].as<std::string>();
}

bool Invocation::distributed() const { return session.distributed != nullptr; }

const std::string& Invocation::program() const { return session.program; }

const engine::RunResult* Invocation::replayed() const { return session.replay; }

std::string Invocation::replayed_fingerprint() const {
  return session.replay_files ? session.replay_files->fingerprint : std::string();
}

double parse_memory_size(const std::string& arg, const std::string& text) {
  const char* what =
      "must be a size in bytes from 1M to below 16384P (2^64), e.g. 8G or 512M (units K, M, G, T are powers of 1024)";
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || digits > 15) throw InvalidArgument(arg, what);
  double value = std::stod(text.substr(0, digits));
  std::string unit = text.substr(digits);
  if (unit.size() == 3 && unit.substr(1) == "iB") unit = unit.substr(0, 1);
  static const std::string kUnits = "KMGT";
  if (unit.size() == 1 && kUnits.find(unit[0]) != std::string::npos)
    value *= std::pow(1024.0, static_cast<double>(kUnits.find(unit[0]) + 1));
  else if (!unit.empty())
    throw InvalidArgument(arg, what);
  if (value < 1024.0 * 1024.0 || value >= 18446744073709551616.0) throw InvalidArgument(arg, what);
  return value;
}

double machine_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
}

std::string gibibytes(double bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f GiB", bytes < 1024.0 * 1024.0 * 1024.0 ? 3 : 1,
                bytes / (1024.0 * 1024.0 * 1024.0));
  return buf;
}

long long parse_int(const std::string& arg, const std::string& text, long long lo, long long hi) {
  long long v = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(first, last, v);
  const std::string range = "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
  if (text.empty() || ec != std::errc() || ptr != last)
    throw InvalidArgument(arg, "expected " + range + ", got '" + text + "'");
  if (v < lo || v > hi) throw InvalidArgument(arg, "expected " + range + ", got " + text);
  return v;
}

std::pair<int, int> parse_box(const std::string& arg, const std::string& text, int max_side) {
  const auto x = text.find_first_of("xX");
  if (x == std::string::npos || x == 0 || x + 1 == text.size())
    throw InvalidArgument(arg, "expected a box shape RxC such as 3x3 or 2x3, got '" + text + "'");
  try {
    return {static_cast<int>(parse_int(arg, text.substr(0, x), 1, max_side)),
            static_cast<int>(parse_int(arg, text.substr(x + 1), 1, max_side))};
  } catch (const InvalidArgument&) {
    throw InvalidArgument(arg, "expected a box shape RxC with 1 ≤ R, C ≤ " + std::to_string(max_side) +
                                   " such as 3x3 or 2x3, got '" + text + "'");
  }
}

std::string choose_method(const Invocation& inv, const std::vector<std::string>& allowed,
                          const std::string& fallback) {
  if (inv.common.method.empty()) return fallback;
  if (std::find(allowed.begin(), allowed.end(), inv.common.method) != allowed.end()) return inv.common.method;
  std::string list;
  for (const auto& m : allowed) list += (list.empty() ? "" : ", ") + m;
  throw InvalidArgument("--method", "'" + inv.common.method + "' does not apply here; allowed: " + list);
}

namespace {

/// An extra field of a report as text: seconds (a key ending in
/// "_seconds") to the microsecond, not as 0.11064726799999999.
std::string extra_text(const std::string& key, const nlohmann::ordered_json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_float() && key.ends_with("_seconds")) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(6) << value.get<double>();
    return s.str();
  }
  return value.dump();
}

/// How the job ran, for its report: the run's figures, or under merge the
/// shards' (RunResult from merge_main, shard count and task time from the files).
JobFigures figures(const Invocation& inv, const engine::Job& job, const engine::RunResult& result) {
  JobFigures f = run_figures(result);
  if (job.split_depth >= 0) f.split_depth = job.split_depth;
  if (const engine::MergeResult* m = inv.session.replay_files) {
    f.shards = m->shard_count;
    f.task_seconds = m->task_seconds;
  }
  if (inv.session.distributed) f.ranks = inv.session.distributed->size();
  return f;
}

/// print_report on `out`.
void write_report(std::ostream& out, const Invocation& inv, const engine::Job& job, const engine::RunResult& result,
                  const Report& report) {
  const JobFigures f = figures(inv, job, result);
  if (inv.common.json) {
    nlohmann::ordered_json j = json_head(inv.session.replay ? ReportKind::merge : ReportKind::run);
    j["problem"] = report.problem;
    j["title"] = report.title;
    j["params"] = report.params;
    j["method"] = report.method;
    nlohmann::ordered_json counts = nlohmann::ordered_json::object();
    for (const auto& [name, value] : report.counts) counts[name] = value;
    j["counts"] = counts;
    put_figures(j, f);
    for (const auto& [key, value] : report.extra.items()) j[key] = value;
    out << j.dump() << '\n';
    return;
  }
  TextBlock t;
  t.line("problem", report.title);
  for (const auto& [name, value] : report.counts) t.line(name, value);
  t.line("method", report.method);
  for (const auto& [key, value] : report.extra.items()) t.line(key, extra_text(key, value));
  put_figures(t, f);
  out << t.str() << report.text_after;
}

/// merge of a job whose tasks print: the tasks' output kept in the shard
/// files, in task-id order, as the run would have printed it (its report
/// then goes to stderr). A listing's kept text is checked line by line
/// against each task's count (Job::listed_counter) before anything is
/// printed; a listing whose files kept no text is refused rather than
/// printing the report in place of the list.
void replay_outputs(const Invocation& inv, const Plan& plan, const engine::MergeResult& merged) {
  if (!plan.job.run_task_output) return;
  if (!merged.has_outputs) {
    if (inv.common.list)
      throw std::runtime_error(
          "merge: the shard files of this --list job keep counts only (a shard resumed from a checkpoint keeps no "
          "output), so the list cannot be printed; run those shards again without --checkpoint (or with --output "
          "FILE and concatenate the files in shard order), or use " +
          merge_program(inv.session) + " merge --raw for the counts");
    return;
  }
  if (const auto counter = plan.job.listed_counter)
    for (std::size_t id = 0; id < merged.outputs.size() && id < merged.tasks.size(); ++id) {
      const std::string& text = merged.outputs[id];
      const auto lines = static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n'));
      const u128 counted = merged.tasks[id].counts.get(*counter);
      if (u128{lines} != counted || (!text.empty() && text.back() != '\n'))
        throw std::runtime_error("merge: " + merged.files[id] + ": task " + std::to_string(id) + " keeps " +
                                 std::to_string(lines) + " lines of output but counts " + to_string(counted) +
                                 " objects (an edited or damaged file)");
    }
  for (const std::string& text : merged.outputs) {
    if (plan.output.write)
      plan.output.write(text, inv.out);
    else
      inv.out << text;
  }
  inv.out.flush();
  if (!inv.out) throw std::runtime_error("writing the output on stdout failed");
}

}  // namespace

void print_report(const Invocation& inv, const engine::Job& job, const engine::RunResult& result,
                  const Report& report) {
  write_report(inv.out, inv, job, result, report);
}

int main(int argc, const char* const* argv, const Program& program, std::ostream& out, std::ostream& err,
         Distributed* distributed) {
  int status = 0;
  if (argc >= 2 && std::string_view(argv[1]) == "merge") {
    status = merge_main(argc - 1, argv + 1, program, out, err);
  } else {
    Session session;
    session.program = program.name;
    session.progress = program.progress;
    session.command.assign(argv + (argc > 0 ? 1 : 0), argv + argc);
    session.distributed = distributed;
    status = run_invocation(argc, argv, program, session, out, err);
  }
  return checked_exit(status, program.name, out, err);
}

int checked_exit(int status, const std::string& name, std::ostream& out, std::ostream& err) {
  errno = 0;
  out.flush();
  if (&out == &std::cout && std::fflush(stdout) != 0) out.setstate(std::ios::badbit);
  if (!out && status == 0) {  // a run that failed already said why
    const int e = errno;
    err << name << ": error: writing to stdout failed" << (e != 0 ? std::string(": ") + std::strerror(e) : "")
        << '\n';
    status = 1;
  }
  err.flush();
  if (&err == &std::cerr && std::fflush(stderr) != 0) err.setstate(std::ios::badbit);
  if (!err && status == 0) status = 1;  // nowhere left to say it
  return status;
}

namespace {

/// "--list K" and "--estimate S": K and S are optional (implicit values),
/// which Boost only takes as "--list=K"; the next word is K when it is not
/// an option (no positional arguments exist, so it cannot be anything
/// else). "--list -1" is a bad K, not an option.
std::vector<std::string> join_optional_values(int argc, const char* const* argv) {
  std::vector<std::string> words(argv, argv + argc);
  for (std::size_t i = 1; i + 1 < words.size(); ++i)
    if ((words[i] == "--list" || words[i] == "--estimate") &&
        (words[i + 1].rfind("-", 0) != 0 || looks_numeric(words[i + 1]))) {
      words[i] += "=" + words[i + 1];
      words.erase(words.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    }
  return words;
}

/// The edit distance (insertions, deletions, substitutions) of a and b.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

/// For an unknown option ("--thread", "--thread=2"): "; did you mean
/// --threads?" naming the options it is a prefix of (up to three), else
/// the closest within two edits (a typo); empty when nothing is that close.
std::string did_you_mean(const std::string& given, const po::options_description& all) {
  const std::string word =
      given.substr(given.find_first_not_of('-') == std::string::npos ? given.size() : given.find_first_not_of('-'));
  const std::string typed = word.substr(0, word.find('='));
  if (typed.empty()) return {};
  std::vector<std::string> prefixed;
  std::string closest;
  std::size_t best = 3;
  for (const auto& option : all.options()) {
    const std::string& candidate = option->long_name();
    if (candidate.rfind(typed, 0) == 0) prefixed.push_back("--" + candidate);
    if (const std::size_t d = edit_distance(typed, candidate); d < best) {
      best = d;
      closest = "--" + candidate;
    }
  }
  if (prefixed.empty() && !closest.empty()) prefixed.push_back(closest);
  if (prefixed.empty() || prefixed.size() > 3) return {};
  std::string list;
  for (std::size_t i = 0; i < prefixed.size(); ++i)
    list += (i == 0 ? "" : i + 1 == prefixed.size() ? " or " : ", ") + prefixed[i];
  return "; did you mean " + list + "?";
}

/// Parses `words` into `vm`; on a bad command line says why on `err` and
/// returns 2.
std::optional<int> parse_words(const std::vector<std::string>& words, const Parsed& p, po::variables_map& vm,
                               const std::string& name, std::ostream& err) {
  std::vector<const char*> args;
  for (const auto& w : words) args.push_back(w.c_str());
  try {
    const po::parsed_options parsed =
        po::command_line_parser(static_cast<int>(args.size()), args.data())
            .options(p.all)
            .style(po::command_line_style::unix_style ^ po::command_line_style::allow_guessing)
            .run();
    // No positional arguments are allowed: name the first one.
    for (const po::option& o : parsed.options)
      if (o.string_key.empty() && !o.original_tokens.empty()) {
        err << name << ": '" << one_line(o.original_tokens.front()) << "': unexpected argument without an option (see "
            << name << " --help)\n";
        return 2;
      }
    po::store(parsed, vm);
    po::notify(vm);
  } catch (const po::error& e) {
    auto [arg, msg] = describe(e);
    if (dynamic_cast<const po::unknown_option*>(&e))
      msg = "unknown option" + did_you_mean(arg, p.all) + " (see --help)";
    err << name << ": " << one_line(arg.empty() ? "" : arg + ": ") << one_line(msg) << '\n';
    return 2;
  }
  return std::nullopt;
}

/// The combinations --estimate and --list refuse (InvalidArgument).
void check_combinations(const Invocation& inv, const Program& program) {
  const Problem& problem = *inv.problem;
  if (inv.common.estimate)
    for (const char* o : {"checkpoint", "out", "profile", "list", "output", "strategy-out", "svg"})
      if (inv.has(o))
        throw InvalidArgument("--estimate", std::string("runs only a sample and keeps nothing; drop --") + o);
  if (inv.common.memory_limit && !problem.memory_limit) {
    std::string can;
    for (const Problem& e : program.problems)
      if (e.memory_limit) can += (can.empty() ? "" : ", ") + dashed(e.option);
    throw InvalidArgument("--memory-limit", "does not apply to " + dashed(problem.option) +
                                                " (it does not price its memory)" +
                                                (can.empty() ? std::string() : "; problems that do: " + can));
  }
  if (!inv.common.list) return;
  if (!problem.lists) {
    std::string can;
    for (const Problem& e : program.problems)
      if (e.lists) can += (can.empty() ? "" : ", ") + dashed(e.option);
    throw InvalidArgument("--list", "does not apply to " + dashed(problem.option) +
                                        " (it counts without "
                                        "listing)" +
                                        (can.empty() ? std::string() : "; problems that list: " + can));
  }
  if (inv.common.list_limit != 0 && inv.common.shard_count > 1)
    throw InvalidArgument("--list", "K (the first K objects) does not combine with --shard; list all and " +
                                        merge_program(inv.session) + " merge, or run without --shard");
  if (inv.common.list_limit != 0 && (!inv.common.checkpoint.empty() || !inv.common.out_file.empty()))
    throw InvalidArgument("--list", std::string("K (the first K objects) does not combine with ") +
                                        (inv.common.checkpoint.empty() ? "--out" : "--checkpoint"));
}

/// The problem's plan for the invocation, checked against it.
Plan plan_job(const Invocation& inv) {
  const Problem& problem = *inv.problem;
  if (!problem.plan) throw InternalError("problem --" + std::string(problem.option) + " has neither plan nor run");
  inv.declared.clear();
  Plan plan = [&] {
    const SetupNotice notice(inv);    // --estimate S: the set-up counts against S
    const SetupSignals signals(inv);  // ^C before the run: the run's "stopped" line and status
    return problem.plan(inv);
  }();
  // Every parameter declared through Params is in the fingerprint, so jobs
  // that differ in one never share a checkpoint or merge their shards.
  if (const auto missing = missing_parameters(inv, plan.job.fingerprint); !missing.empty())
    throw InternalError("--" + std::string(problem.option) + ": the job's fingerprint '" + plan.job.fingerprint +
                        "' lacks the declared parameter " + missing.front());
  if (inv.common.list) {
    if (!plan.job.run_task_output)
      throw InternalError("--list: --" + std::string(problem.option) + " planned a job that does not print");
    plan.output.max_lines = inv.common.list_limit;
  }
  if (!plan.batch)
    for (const char* o : {"checkpoint", "shard", "out"})
      if (inv.has(o)) throw InvalidArgument(dashed(o), "does not apply to this search (it finds, it does not count)");
  return plan;
}

/// The job's totals: run_job's, or under merge the shards' sum (after
/// checking that the files are this job's results).
engine::RunResult run_or_replay(const Invocation& inv, const Plan& plan) {
  const Session& session = inv.session;
  if (!session.replay) return run_job(inv, plan.job, plan.output);
  try {
    if (session.replay_files) engine::check_merge_matches_job(*session.replay_files, plan.job);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string("merge: ") + e.what());
  }
  engine::RunResult result = *session.replay;  // threads, tasks run and resumed, wall: the shards' (merge_main)
  if (result.threads <= 0) result.threads = inv.common.threads;
  if (session.replay_files) replay_outputs(inv, plan, *session.replay_files);
  return result;
}

/// Prints the report, on stdout or (when the tasks printed there) stderr;
/// returns the exit status.
int print_outcome(const Invocation& inv, const Plan& plan, const engine::RunResult& result) {
  const Session& session = inv.session;
  const Report report = plan.report(result);
  // A job whose tasks printed keeps stdout for that output (Plan::output).
  const bool printed = plan.job.run_task_output && inv.common.output_file.empty() &&
                       (!session.replay || (session.replay_files && session.replay_files->has_outputs));
  inv.out.flush();
  if (!printed)
    print_report(inv, plan.job, result, report);
  else if (!inv.common.quiet)
    write_report(inv.err, inv, plan.job, result, report);
  inv.out.flush();
  if (!printed && !inv.out) {  // nothing computed is lost: the report goes to stderr instead
    const int e = errno;
    inv.err << session.program << ": error: writing the report to stdout failed (" << std::strerror(e)
            << "); the report follows on stderr\n";
    write_report(inv.err, inv, plan.job, result, report);
    return 1;
  }
  return session.replay ? 0 : report.status;
}

/// Runs the writes run_job left until the report was out
/// (Session::after_report); a failing write turns status 0 into 1.
int finish(Session& session, int status, std::ostream& err) {
  for (auto& write : session.after_report) try {
      write();
    } catch (const std::exception& e) {
      err << session.program << ": error: " << one_line(e.what())
          << (status == 0 ? " (the counts printed are complete)" : "") << '\n';
      if (status == 0) status = 1;
    }
  session.after_report.clear();
  return status;
}

}  // namespace

int run_invocation(int argc, const char* const* argv, const Program& program, Session& session, std::ostream& out,
                   std::ostream& err) {
  const std::string& name = session.program;
  const Problem* chosen = nullptr;  // for naming options in errors
  try {
    const Parsed p = build_options(program);
    po::variables_map vm;
    if (const auto status = parse_words(join_optional_values(argc, argv), p, vm, name, err)) return *status;
    if (vm.count("help")) {
      print_help(out, program, p);
      return 0;
    }
    if (vm.count("version")) {
      print_version(out, program);
      return 0;
    }
    const Problem& problem = choose_problem(program, vm);
    chosen = &problem;
    for (const auto& [option, group] : p.owner)
      if (vm.count(option) && group != problem.group)
        throw InvalidArgument(dashed(option), "does not apply to " + dashed(problem.option));
    Invocation inv{vm, read_common(vm), out, err, session, &problem};
    check_paths(inv);
    check_combinations(inv, program);
    // The input is read and the tasks planned below; the run's workers wake
    // meanwhile (engine::start_workers), so that it starts at full width.
    if (!session.replay) engine::start_workers(inv.common.threads);
    if (problem.run && !(session.replay && problem.plan)) {
      if (session.replay) throw std::runtime_error("merge: --" + std::string(problem.option) + " has no shards to merge");
      const std::optional<int> status = problem.run(inv);
      if (status || !problem.plan) {
        out.flush();
        return finish(session, status.value_or(0), err);
      }
    }
    // --estimate S: a set-up priced above S is not run (Problem::price_setup).
    const std::optional<SetupPrice> price = price_setup(inv);
    const Plan plan = plan_job(inv);
    if (inv.common.estimate && !session.replay) estimate_plan(inv, plan, price);
    const engine::RunResult result = run_or_replay(inv, plan);
    return finish(session, print_outcome(inv, plan, result), err);
  } catch (const EarlyExit& e) {
    out.flush();
    return finish(session, e.status, err);
  } catch (const InvalidArgument& e) {
    const std::string option = option_for(chosen, e.argument());
    err << name << ": " << one_line(option.empty() ? "" : option + ": ") << one_line(e.what()) << '\n';
    return 2;
  } catch (const InternalError& e) {
    err << name << ": internal error: " << one_line(e.what()) << '\n';
    return 1;
  } catch (const std::exception& e) {
    err << name << ": error: " << one_line(e.what()) << '\n';
    return 1;
  }
}

}  // namespace pcount::driver
