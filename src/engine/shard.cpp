// GCC 12 reports a false -Wrestrict inside inlined std::string concatenation
// (GCC bug 105329); the code is correct, so the warning is off for this file.
#pragma GCC diagnostic ignored "-Wrestrict"

#include "pcount/engine/shard.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "pcount/errors.hpp"
#include "pcount/engine/files.hpp"
#include "pcount/engine/hash.hpp"
#include "pcount/u128.hpp"

namespace pcount::engine {

namespace {

bool parse_size(std::string_view text, std::size_t& out) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

[[noreturn]] void bad(const std::string& source, const std::string& why) {
  throw std::runtime_error(source + ": " + why);
}

/// The first ten indices, then how many more.
std::string list_indices(const std::vector<std::size_t>& v) {
  std::string s;
  for (std::size_t k = 0; k < v.size() && k < 10; ++k) s += (s.empty() ? "" : ", ") + std::to_string(v[k]);
  if (v.size() > 10) s += " and " + std::to_string(v.size() - 10) + " more";
  return s;
}

/// A whole number field, type- and range-checked before conversion (a JSON
/// float such as 5e35 or a negative number is refused, never converted).
std::size_t whole(const nlohmann::json& v, const std::string& source, const std::string& what, std::size_t max) {
  if (!v.is_number_unsigned())
    bad(source, what + " must be a whole number ≥ 0, got " + v.dump().substr(0, 40));
  const auto x = v.get<std::uint64_t>();
  if (x > max) bad(source, what + " must be at most " + std::to_string(max) + ", got " + std::to_string(x));
  return static_cast<std::size_t>(x);
}

/// A finite number of seconds ≥ 0.
double seconds(const nlohmann::json& v, const std::string& source, const std::string& what) {
  if (!v.is_number()) bad(source, what + " must be a number");
  const double x = v.get<double>();
  if (!(x >= 0.0 && x <= 1e12)) bad(source, what + " must be a number of seconds ≥ 0");
  return x;
}

/// The digest of a result object: fnv1a64 of its canonical text (sorted
/// keys, as nlohmann::json dumps it) without the "digest" field.
std::string content_digest(nlohmann::json j) {
  j.erase("digest");
  return fnv1a64_digest(j.dump());
}

}  // namespace

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  Shard s;
  if (slash == std::string::npos || !parse_size(std::string_view(text).substr(0, slash), s.index) ||
      !parse_size(std::string_view(text).substr(slash + 1), s.count) || s.count < 1 || s.count > kMaxShards ||
      s.index >= s.count)
    throw InvalidArgument("shard", "expected I/K with 0 ≤ I < K ≤ 1000000 (e.g. 0/4), got '" + text + "'");
  return s;
}

namespace {

/// The format_version written (shard.hpp): 3 has the shard's CPU time and memory.
constexpr std::size_t kFormatVersion = 3;

/// The JSON object of a result file (shard.hpp).
nlohmann::ordered_json to_json(const ShardResult& r) {
  nlohmann::ordered_json j;
  j["format"] = "pcount-shard";
  j["format_version"] = kFormatVersion;
  j["version"] = r.version;
  j["fingerprint"] = r.fingerprint;
  j["counter_names"] = r.counter_names;
  j["task_count"] = r.task_count;
  j["shard"] = {{"index", r.shard.index}, {"count", r.shard.count}};
  j["command"] = r.command;
  j["threads"] = r.threads;
  j["wall_seconds"] = r.wall_seconds;
  j["cpu_seconds"] = r.cpu_seconds;
  j["max_rss_bytes"] = r.max_rss_bytes;
  j["tasks_run"] = r.tasks_run;
  j["tasks_resumed"] = r.tasks_resumed;
  nlohmann::ordered_json totals = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < r.counter_names.size(); ++i) totals[r.counter_names[i]] = to_string(r.totals.get(i));
  totals["nodes"] = to_string(r.totals.nodes);
  j["totals"] = totals;
  nlohmann::ordered_json tasks = nlohmann::ordered_json::array();
  for (const TaskRecord& t : r.tasks) {
    nlohmann::ordered_json row = nlohmann::ordered_json::array({t.id, t.seconds, to_string(t.counts.nodes)});
    for (std::size_t i = 0; i < r.counter_names.size(); ++i) row.push_back(to_string(t.counts.get(i)));
    tasks.push_back(std::move(row));
  }
  j["tasks"] = std::move(tasks);
  if (r.has_outputs) {
    if (r.outputs.size() != r.tasks.size())
      throw std::logic_error("shard result: " + std::to_string(r.outputs.size()) + " outputs for " +
                             std::to_string(r.tasks.size()) + " tasks");
    j["outputs"] = r.outputs;
  }
  j["digest"] = content_digest(nlohmann::json::parse(j.dump()));
  return j;
}

/// The header fields of a result file (everything but totals, tasks and
/// outputs) into `r`.
void read_header(const nlohmann::json& j, const std::string& source, ShardResult& r) {
  if (!j.is_object() || j.value("format", "") != "pcount-shard") bad(source, "not a pcount shard result file");
  const std::size_t format = whole(j.at("format_version"), source, "format_version", 1000);
  if (format == 1 || format == 2)
    bad(source, "format_version " + std::to_string(format) +
                    " was written by an older pcount, without the "
                    "shard's CPU time and memory; run the shard again with this program");
  if (format != kFormatVersion) bad(source, "unknown format_version " + std::to_string(format));
  r.has_outputs = j.contains("outputs");
  r.version = j.at("version").get<std::string>();
  r.fingerprint = j.at("fingerprint").get<std::string>();
  r.counter_names = j.at("counter_names").get<std::vector<std::string>>();
  const std::size_t counters = r.counter_names.size();
  for (std::size_t i = 0; i < counters; ++i) {
    if (r.counter_names[i].empty() || r.counter_names[i] == "nodes")
      bad(source, "counter_names: a counter may not be named '" + r.counter_names[i] + "'");
    for (std::size_t k = 0; k < i; ++k)
      if (r.counter_names[k] == r.counter_names[i])
        bad(source, "counter_names: '" + printable(r.counter_names[i], 40) + "' is named twice");
  }
  r.task_count = whole(j.at("task_count"), source, "task_count", kMaxShardTasks);
  r.shard.count = whole(j.at("shard").at("count"), source, "shard count", kMaxShards);
  r.shard.index = whole(j.at("shard").at("index"), source, "shard index", kMaxShards);
  if (r.shard.count < 1 || r.shard.index >= r.shard.count) bad(source, "bad shard index");
  r.command = j.at("command").get<std::vector<std::string>>();
  r.threads = static_cast<int>(whole(j.at("threads"), source, "threads", 1'000'000));
  r.wall_seconds = seconds(j.at("wall_seconds"), source, "wall_seconds");
  r.cpu_seconds = seconds(j.at("cpu_seconds"), source, "cpu_seconds");
  r.max_rss_bytes = whole(j.at("max_rss_bytes"), source, "max_rss_bytes", std::size_t{1} << 60);
  r.tasks_run = whole(j.at("tasks_run"), source, "tasks_run", r.task_count);
  r.tasks_resumed = whole(j.at("tasks_resumed"), source, "tasks_resumed", r.task_count);
}

/// The totals and task rows of a result file into `r` (its header read),
/// checked against each other and the shard.
void read_tasks(const nlohmann::json& j, const std::string& source, ShardResult& r) {
  const std::size_t counters = r.counter_names.size();
  const auto& totals = j.at("totals");
  if (!totals.is_object() || totals.size() != counters + 1)
    bad(source, "totals must hold the " + std::to_string(counters) + " counters of counter_names and nodes, got " +
                    std::to_string(totals.size()) + " entries");
  r.totals = Tally(counters);
  for (std::size_t i = 0; i < counters; ++i)
    r.totals.counts[i] = parse_u128(totals.at(r.counter_names[i]).get<std::string>());
  r.totals.nodes = parse_u128(totals.at("nodes").get<std::string>());
  Tally sum(counters);
  std::size_t expected_next = r.shard.index;
  const auto& rows = j.at("tasks");
  if (!rows.is_array()) bad(source, "tasks must be an array");
  if (rows.size() != r.shard.size(r.task_count))
    bad(source, "has " + std::to_string(rows.size()) + " of the shard's " + std::to_string(r.shard.size(r.task_count)) +
                    " tasks (an unfinished run?)");
  r.tasks.reserve(rows.size());
  for (const auto& row : rows) {
    if (!row.is_array() || row.size() != 3 + counters)
      bad(source, "a task row has " + std::to_string(row.is_array() ? row.size() : 0) + " entries, expected 3 + " +
                      std::to_string(counters) + " counters");
    TaskRecord t;
    t.counts = Tally(counters);
    t.id = whole(row.at(0), source, "a task id", kMaxShardTasks);
    if (t.id != expected_next || t.id >= r.task_count)
      bad(source, "task " + std::to_string(t.id) + " is out of order or not in shard " + std::to_string(r.shard.index) +
                      "/" + std::to_string(r.shard.count));
    expected_next += r.shard.count;
    t.seconds = seconds(row.at(1), source, "a task's seconds");
    t.counts.nodes = parse_u128(row.at(2).get<std::string>());
    for (std::size_t i = 0; i < counters; ++i) t.counts.counts[i] = parse_u128(row.at(3 + i).get<std::string>());
    sum.merge(t.counts);
    r.tasks.push_back(std::move(t));
  }
  if (r.tasks.size() != r.shard.size(r.task_count))
    bad(source, "has " + std::to_string(r.tasks.size()) + " of the shard's " +
                    std::to_string(r.shard.size(r.task_count)) + " tasks (an unfinished run?)");
  if (!(sum == r.totals)) bad(source, "totals differ from the sum of the tasks (damaged file)");
}

/// The kept task outputs of a result file into `r` (tasks read).
void read_outputs(const nlohmann::json& j, const std::string& source, ShardResult& r) {
  if (!r.has_outputs) return;
  const auto& outputs = j.at("outputs");
  if (!outputs.is_array() || outputs.size() != r.tasks.size())
    bad(source, "outputs must be an array of one string per task (" + std::to_string(r.tasks.size()) + ")");
  r.outputs.reserve(outputs.size());
  for (const auto& text : outputs) {
    if (!text.is_string()) bad(source, "outputs: every entry must be a string");
    r.outputs.push_back(text.get<std::string>());
  }
}

}  // namespace

std::string shard_json_text(const ShardResult& result) { return to_json(result).dump() + "\n"; }

ShardResult parse_shard_json(std::string_view text, const std::string& source) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) bad(source, "not valid JSON (truncated or damaged)");
  ShardResult r;
  try {
    read_header(j, source, r);
    read_tasks(j, source, r);
    read_outputs(j, source, r);
    // Last, once the structure is known good: the whole content.
    if (!j.contains("digest") || !j["digest"].is_string())
      bad(source, "has no digest (written by an older pcount, or not by pcount)");
    if (j["digest"].get<std::string>() != content_digest(j))
      bad(source, "its content does not match its digest (an edited or damaged file)");
  } catch (const nlohmann::json::exception& e) {
    bad(source, std::string("malformed result file (") + e.what() + ")");
  } catch (const std::invalid_argument& e) {
    bad(source, std::string("bad count (") + e.what() + ")");
  } catch (const CountOverflow& e) {
    bad(source, std::string("bad count (") + e.what() + ")");
  }
  return r;
}

void write_shard_file(const std::string& path, const ShardResult& result) {
  try {
    write_atomically(path, shard_json_text(result));
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string("--out: ") + e.what());
  }
}

ShardResult read_shard_file(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(status)) throw std::runtime_error(path + ": is a directory, expected a shard result file");
  if (!ec && !std::filesystem::is_regular_file(status))
    throw std::runtime_error(path + ": is not a regular file, expected a shard result file");
  if (!ec && std::filesystem::file_size(path, ec) > kMaxShardFileBytes && !ec)
    throw std::runtime_error(path + ": larger than " + std::to_string(kMaxShardFileBytes >> 20) +
                             " MiB, not a shard result file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
  // Read at most kMaxShardFileBytes (+1 to notice a larger file): a device
  // or an endless stream named by mistake must not fill the memory.
  std::string text;
  char buf[1 << 16];
  while (in && text.size() <= kMaxShardFileBytes) {
    in.read(buf, sizeof buf);
    text.append(buf, static_cast<std::size_t>(in.gcount()));
  }
  if (text.size() > kMaxShardFileBytes)
    throw std::runtime_error(path + ": larger than " + std::to_string(kMaxShardFileBytes >> 20) +
                             " MiB, not a shard result file");
  return parse_shard_json(text, path);
}

MergeResult merge_shards(const std::vector<ShardResult>& shards, const std::vector<std::string>& names) {
  if (shards.empty()) throw std::runtime_error("no shard files given");
  const ShardResult& first = shards.front();
  MergeResult m;
  m.fingerprint = first.fingerprint;
  m.counter_names = first.counter_names;
  m.command = first.command;
  m.task_count = first.task_count;
  m.shard_count = first.shard.count;
  m.totals = Tally(first.counter_names.size());
  std::map<std::size_t, std::size_t> by_index;  // shard index → position in `shards`
  std::vector<std::string> dupes;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const ShardResult& s = shards[i];
    const std::string& name = i < names.size() ? names[i] : std::to_string(i);
    if (s.fingerprint != first.fingerprint || s.version != first.version)
      throw std::runtime_error("different jobs: " + names.front() + " is '" + printable(first.fingerprint) + "' (" +
                               printable(first.version, 20) + "), " + name + " is '" + printable(s.fingerprint) +
                               "' (" + printable(s.version, 20) + ")");
    if (s.counter_names != first.counter_names || s.task_count != first.task_count)
      throw std::runtime_error("different jobs: " + names.front() + " and " + name +
                               " differ in counters or task count");
    if (s.shard.count != first.shard.count)
      throw std::runtime_error("different shard counts: " + names.front() + " is one of " +
                               std::to_string(first.shard.count) + ", " + name + " one of " +
                               std::to_string(s.shard.count));
    auto [it, inserted] = by_index.emplace(s.shard.index, i);
    if (!inserted)
      dupes.push_back("shard " + std::to_string(s.shard.index) + "/" + std::to_string(s.shard.count) +
                      " given twice: " + names[it->second] + ", " + name);
  }
  std::vector<std::size_t> missing;
  for (std::size_t k = 0; k < m.shard_count; ++k)
    if (!by_index.count(k)) missing.push_back(k);
  std::string problem;
  if (!dupes.empty()) problem = dupes.front() + (dupes.size() > 1 ? " (and " + std::to_string(dupes.size() - 1) + " more)" : "");
  if (!missing.empty())
    problem += (problem.empty() ? "" : "; ") + std::string("missing shard") + (missing.size() > 1 ? "s " : " ") +
               list_indices(missing) + " of " + std::to_string(m.shard_count) + " (rerun with --shard I/" +
               std::to_string(m.shard_count) + ")";
  if (!problem.empty()) throw std::runtime_error(problem);
  m.has_outputs = std::all_of(shards.begin(), shards.end(), [](const ShardResult& s) { return s.has_outputs; });
  if (m.has_outputs) m.outputs.resize(m.task_count);
  m.tasks.resize(m.task_count);
  m.files.resize(m.task_count);
  for (const auto& [index, pos] : by_index) {
    const ShardResult& s = shards[pos];
    for (const TaskRecord& t : s.tasks) {
      m.tasks[t.id] = t;
      m.files[t.id] = pos < names.size() ? names[pos] : std::to_string(pos);
    }
    if (m.has_outputs)
      for (std::size_t i = 0; i < s.tasks.size(); ++i) m.outputs[s.tasks[i].id] = s.outputs[i];
    m.totals.merge(s.totals);
    for (const TaskRecord& t : s.tasks) m.task_seconds += t.seconds;
    m.wall_seconds = std::max(m.wall_seconds, s.wall_seconds);
    m.cpu_seconds += s.cpu_seconds;
    m.max_rss_bytes = std::max(m.max_rss_bytes, s.max_rss_bytes);
    m.threads = std::max(m.threads, s.threads);
    m.tasks_run += s.tasks_run;
    m.tasks_resumed += s.tasks_resumed;
  }
  return m;
}

void check_merge_matches_job(const MergeResult& merged, const Job& job) {
  if (merged.fingerprint != job.fingerprint)
    throw std::runtime_error("the shard files are results of '" + printable(merged.fingerprint) +
                             "' but their stored command builds '" + printable(job.fingerprint) +
                             "' (an edited file, or another program version)");
  const std::string counters = counter_difference(merged.counter_names, job.counter_names, "the files");
  if (!counters.empty())
    throw std::runtime_error("the shard files have " + counters + " (an edited file, or another program version)");
  if (merged.task_count != job.task_count)
    throw std::runtime_error("the shard files are of a job with " + std::to_string(merged.task_count) +
                             " tasks, the job has " + std::to_string(job.task_count) +
                             " (an edited file, or another program version)");
}

}  // namespace pcount::engine
