// GCC 12 reports a false -Wrestrict inside inlined std::string concatenation
// (GCC bug 105329); the code is correct, so the warning is off for this file.
#pragma GCC diagnostic ignored "-Wrestrict"

#include "pcount/engine/checkpoint.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pcount/errors.hpp"
#include "pcount/engine/files.hpp"
#include "pcount/engine/hash.hpp"
#include "pcount/u128.hpp"

namespace pcount::engine {

namespace {

constexpr const char* kMagic = "# pcount checkpoint 2";
/// The magic line of the format before records were bound to their job.
constexpr const char* kMagicV1 = "# pcount checkpoint 1";
/// The output line of a log whose records carry output marks
/// (<end>:<digest>:<inode>), and that of the earlier form with offsets only.
constexpr const char* kOutputMarks = "marks";
constexpr const char* kOutputOffsetsOnly = "output offsets";

std::string hex8(std::uint32_t v) {
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", v);
  return buf;
}

std::string join_names(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ",") + n;
  return s;
}

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw InvalidArgument("checkpoint", path + ": " + why);
}

std::vector<std::string> split_names(const std::string& joined) {
  std::vector<std::string> names;
  if (joined.empty()) return names;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t comma = joined.find(',', pos);
    names.push_back(joined.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
    if (comma == std::string::npos) return names;
    pos = comma + 1;
  }
}

std::vector<std::string> split_spaces(const std::string& line) {
  std::vector<std::string> parts;
  std::istringstream in(line);
  std::string w;
  while (in >> w) parts.push_back(w);
  return parts;
}

/// Writes all of `data` to `fd`; false on error.
bool write_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

std::string checkpoint_header(const Job& job, bool output_offsets) {
  return std::string(kMagic) + "\nversion " + PCOUNT_VERSION + "\nfingerprint " + job.fingerprint + "\ntasks " +
         std::to_string(job.task_count) + "\ncounters " + join_names(job.counter_names) + "\noutput " +
         (output_offsets ? kOutputMarks : "none") + "\n";
}

namespace {

/// A record's text with its checksum: FNV-1a of the body, continued from
/// the hash of the job's header (`seed`), so a record is valid for one job only.
std::string record_line(std::uint32_t seed, const TaskRecord& task, std::size_t counters, bool output_offsets) {
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.6f", task.seconds);
  std::string body = std::to_string(task.id) + " " + secs + " " + to_string(task.counts.nodes);
  for (std::size_t i = 0; i < counters; ++i) body += " " + to_string(task.counts.get(i));
  if (output_offsets) {
    const OutputMark mark = task.output.value_or(OutputMark{});
    char digest[17];
    std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(mark.digest));
    body += " " + std::to_string(mark.end) + ":" + digest + ":" + std::to_string(mark.inode);
  }
  return body + " " + hex8(fnv1a(body, seed)) + "\n";
}

}  // namespace

std::string checkpoint_line(const TaskRecord& task, const Job& job, bool output_offsets) {
  return record_line(fnv1a(checkpoint_header(job, output_offsets)), task, job.counter_names.size(), output_offsets);
}

std::string checkpoint_record_checksum(std::string_view body, const Job& job) {
  return hex8(fnv1a(body, fnv1a(checkpoint_header(job))));
}

namespace {

struct Parsed {
  std::vector<TaskRecord> records;
  std::size_t valid = 0;  ///< bytes up to the end of the last complete line
  std::size_t size = 0;
  std::string warning;
};

/// Refuses a file whose header is not `job`'s, saying what differs in one
/// line: a file that is not ours, a damaged header, or a well-formed header
/// of another job. Always throws InvalidArgument.
[[noreturn]] void refuse_header(const std::string& path_, const std::string& text, const Job& job,
                                bool output_offsets) {
  const std::string afresh = "; remove it (or give another --checkpoint path) to start afresh";
  const std::string_view magic(kMagic);
  if (text.size() <= magic.size() && magic.substr(0, text.size()) == text)  // empty, or cut in line 1
    refuse(path_, "damaged: its header is incomplete" + afresh);
  if (text.rfind(kMagicV1, 0) == 0)
    refuse(path_,
           "written by an older pcount (checkpoint format 1, whose records are not bound to their job); "
           "remove it (or give another --checkpoint path) to start afresh");
  if (text.rfind(kMagic, 0) != 0) refuse(path_, "not a pcount checkpoint file");
  if (text.find('\r') != std::string::npos && text.find('\r') < text.find("\ncounters"))
    refuse(path_, "damaged: its lines end in CR LF (edited on Windows?)" + afresh);
  // The six header lines, each complete and with its key.
  static const char* const keys[] = {nullptr, "version ", "fingerprint ", "tasks ", "counters ", "output "};
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (lines.size() < 6) {
    const std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) refuse(path_, "damaged: its header is incomplete" + afresh);
    lines.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  for (std::size_t i = 1; i < 6; ++i)
    if (lines[i].rfind(keys[i], 0) != 0 || lines[i].size() == std::strlen(keys[i]))
      refuse(path_, "damaged: header line " + std::to_string(i + 1) + " is not '" + keys[i] + "...'" + afresh);
  const std::string found = lines[2].substr(12);
  if (found.rfind("pcount/", 0) != 0) refuse(path_, "damaged: its fingerprint line is garbled" + afresh);
  if (found != job.fingerprint) {
    // Only the automatic split depth differs (it may depend on --threads): say which to give.
    const auto split_of = [](const std::string& fp) {
      const auto at = fp.rfind(" split=");
      return at == std::string::npos ? std::string() : fp.substr(at + 7);
    };
    const auto stem = [](const std::string& fp) { return fp.substr(0, fp.rfind(" split=")); };
    if (!split_of(found).empty() && stem(found) == stem(job.fingerprint))
      refuse(path_, "written with split depth " + printable(split_of(found), 8) + ", this run has " +
                        split_of(job.fingerprint) + "; add --split-depth " + printable(split_of(found), 8) +
                        " (or the same --threads) to resume");
    refuse(path_, "written by another job ('" + printable(found) + "'); this job is '" + job.fingerprint +
                      "' (same command, --method and --split-depth needed; or use another file)");
  }
  // Same job otherwise: say what differs, the counters first.
  const std::string counters = counter_difference(split_names(lines[4].substr(9)), job.counter_names, "the file");
  if (!counters.empty())
    refuse(path_, "has " + counters + ": not this job's checkpoint (another program version?); use another file");
  if (output_offsets && lines[5] == kOutputOffsetsOnly)
    refuse(path_,
           "was written by an older pcount, whose --output records hold no digest of the output; remove it "
           "and the --output file to start afresh");
  if (lines[5] != (output_offsets ? std::string("output ") + kOutputMarks : std::string("output none")))
    refuse(path_, output_offsets ? "was written by a run without --output (its listing went to stdout); "
                                   "resume it the same way, or use another file"
                                 : "was written by a run with --output FILE; resume it with the same --output, "
                                   "or use another file");
  refuse(path_, "header differs from this job (program version or task count); use another file");
}

/// The output mark field of a record, "<end>:<16 hex digits>:<inode>".
OutputMark parse_output_mark(const std::string& path_, const std::string& field, const std::string& where) {
  const std::size_t a = field.find(':');
  const std::size_t b = a == std::string::npos ? a : field.find(':', a + 1);
  if (b == std::string::npos || b - a != 17 || field.find_first_not_of("0123456789abcdef", a + 1) != b)
    refuse(path_, where + " (bad output mark)");
  const u128 end = parse_u128(field.substr(0, a));
  const u128 inode = parse_u128(field.substr(b + 1));
  if (end > u128{1} << 62 || inode > u128{~std::uint64_t{0}}) refuse(path_, where + " (bad output mark)");
  return {static_cast<std::uint64_t>(end), std::stoull(field.substr(a + 1, 16), nullptr, 16),
          static_cast<std::uint64_t>(inode)};
}

/// One record line (without its '\n') of a checkpoint of `job`, checked
/// against its checksum (`seed`: the header's hash); `where` names it in errors.
TaskRecord parse_record(const std::string& path_, const std::string& line, const std::string& where, std::uint32_t seed,
                        const Job& job, bool output_offsets) {
  const std::size_t counters_ = job.counter_names.size();
  const std::size_t last_space = line.rfind(' ');
  if (last_space == std::string::npos) refuse(path_, where);
  const std::string body = line.substr(0, last_space);
  if (line.substr(last_space + 1) != hex8(fnv1a(body, seed)))
    refuse(path_, where + " (checksum; or a record of another job)");
  const auto parts = split_spaces(body);
  const std::size_t fields = 3 + counters_ + (output_offsets ? 1 : 0);
  if (parts.size() != fields)
    refuse(path_, where + " (field count: " + std::to_string(parts.size()) + " fields, expected 3 + " +
                      std::to_string(counters_) + " counters" + (output_offsets ? " + an output offset)" : ")"));
  TaskRecord rec;
  rec.counts = Tally(counters_);
  try {
    const u128 id = parse_u128(parts[0]);
    if (id >= job.task_count) refuse(path_, where + " (task id out of range)");
    rec.id = static_cast<std::size_t>(id);
    rec.seconds = std::stod(parts[1]);
    if (!(rec.seconds >= 0.0 && rec.seconds <= 1e12)) refuse(path_, where + " (bad number)");
    rec.counts.nodes = parse_u128(parts[2]);
    for (std::size_t i = 0; i < counters_; ++i) rec.counts.counts[i] = parse_u128(parts[3 + i]);
    if (output_offsets) rec.output = parse_output_mark(path_, parts[3 + counters_], where);
  } catch (const InvalidArgument&) {
    throw;
  } catch (const std::exception&) {
    refuse(path_, where + " (bad number)");
  }
  return rec;
}

/// Parses the text of a checkpoint file of `job`; throws InvalidArgument.
Parsed parse_checkpoint(const std::string& path_, const std::string& text, const Job& job, bool output_offsets) {
  const std::string header = checkpoint_header(job, output_offsets);
  const std::uint32_t seed = fnv1a(header);
  Parsed out;
  out.size = text.size();
  if (text.compare(0, header.size(), header) != 0) refuse_header(path_, text, job, output_offsets);
  std::map<std::size_t, TaskRecord> seen;
  std::size_t pos = header.size();
  std::size_t line_no = static_cast<std::size_t>(std::count(header.begin(), header.end(), '\n'));
  std::size_t valid = pos;
  while (pos < text.size()) {
    const std::size_t nl = text.find('\n', pos);
    ++line_no;
    if (nl == std::string::npos) {
      out.warning = "ignored a truncated last line (" + std::to_string(text.size() - pos) +
                 " bytes; that task runs again)";
      break;
    }
    const std::string line = text.substr(pos, nl - pos);
    const std::string where = "line " + std::to_string(line_no) + " is damaged";
    const TaskRecord rec = parse_record(path_, line, where, seed, job, output_offsets);
    auto [it, inserted] = seen.emplace(rec.id, rec);
    if (!inserted && (it->second.counts != rec.counts || it->second.output != rec.output))
      refuse(path_, where + " (task " + std::to_string(rec.id) + " recorded twice with different counts)");
    pos = nl + 1;
    valid = pos;
  }
  for (auto& [id, rec] : seen) out.records.push_back(rec);
  out.valid = valid;
  return out;
}

}  // namespace

namespace {

/// The most bytes a checkpoint of `job` can hold: its header and two
/// records of the longest form per task (a record may be repeated).
std::size_t max_checkpoint_bytes(const Job& job, bool output_offsets) {
  const std::size_t line = 3 * 40 + 40 * job.counter_names.size() + (output_offsets ? 60 : 0) + 10;
  return checkpoint_header(job, output_offsets).size() + 2 * (job.task_count + 1) * line;
}

/// The open checkpoint `fd` read from its start (bounded) and parsed: a
/// file of another job is refused as such, one longer than any checkpoint
/// of this job can be as too long.
Parsed read_and_parse(const std::string& path, int fd, const Job& job, bool output_offsets, std::size_t& size) {
  std::string text;
  bool whole = false;
  try {
    if (::lseek(fd, 0, SEEK_SET) != 0) throw std::runtime_error(std::strerror(errno));
    whole = read_up_to(fd, max_checkpoint_bytes(job, output_offsets), text);
  } catch (const std::runtime_error& e) {
    refuse(path, std::string("cannot be read: ") + e.what());
  }
  Parsed p = parse_checkpoint(path, text, job, output_offsets);  // the header first: another job's file says so
  if (!whole) refuse(path, "is longer than any checkpoint of this job can be; not this job's file?");
  size = text.size();
  return p;
}

}  // namespace

std::vector<TaskRecord> read_checkpoint(const std::string& path, const Job& job, std::string* warning) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return {};
  int fd = -1;
  try {
    fd = open_regular_file(path, O_RDONLY, false);
  } catch (const std::runtime_error& e) {
    throw InvalidArgument("checkpoint", std::string(e.what()) + " (a checkpoint is a regular file, never a link)");
  }
  Parsed p;
  try {
    std::size_t size = 0;
    p = read_and_parse(path, fd, job, false, size);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  if (warning) *warning = p.warning;
  return std::move(p.records);
}

CheckpointLog::CheckpointLog(std::string path, const Job& job, double flush_seconds, CheckpointOutput output)
    : path_(std::move(path)),
      counters_(job.counter_names.size()),
      output_offsets_(output.offsets),
      seed_(fnv1a(checkpoint_header(job, output.offsets))),
      before_sync_(std::move(output.before_sync)),
      flush_seconds_(flush_seconds) {
  if (path_.empty()) refuse(path_, "empty file name");
  if (struct stat st{}; ::lstat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    refuse(path_, S_ISLNK(st.st_mode) ? "is a symbolic link (a checkpoint is a regular file, never a link)"
                                      : "is not a regular file (a directory?)");
  bool created = false;
  try {
    created = create_atomically(path_, checkpoint_header(job, output_offsets_));
  } catch (const std::runtime_error& e) {
    if (::access(path_.c_str(), F_OK) != 0) throw InvalidArgument("checkpoint", e.what());
  }
  const auto open = [this](int access) {
    try {
      fd_ = open_regular_file(path_, access, false);
    } catch (const std::runtime_error& e) {
      fd_ = -1;
      return std::string(e.what());
    }
    return std::string();
  };
  std::string failed = open(O_RDWR);
  if (fd_ < 0 && !created && (errno == EROFS || errno == EACCES)) {  // a finished run's file, kept read-only
    read_only_ = true;
    read_only_why_ = std::strerror(errno);
    failed = open(O_RDONLY);
  }
  if (fd_ < 0) throw InvalidArgument("checkpoint", failed.insert(path_.size(), ": cannot be opened"));
  if (const std::string busy = lock_file(fd_, !read_only_); !busy.empty()) {
    ::close(fd_);
    fd_ = -1;
    refuse(path_, busy + "; wait for it to end, or give another --checkpoint file");
  }
  try {
    std::size_t size = 0;
    Parsed p = read_and_parse(path_, fd_, job, output_offsets_, size);
    resumed_ = std::move(p.records);
    warning_ = std::move(p.warning);
    if (p.valid < size && !read_only_ && ::ftruncate(fd_, static_cast<off_t>(p.valid)) != 0)
      refuse(path_, std::string("cannot cut off the truncated line: ") + std::strerror(errno));
    if (::lseek(fd_, 0, SEEK_END) < 0) refuse(path_, std::string("cannot be appended to: ") + std::strerror(errno));
  } catch (...) {
    ::close(fd_);  // and its lock: the object is not made, so no destructor runs
    fd_ = -1;
    throw;
  }
  if (!read_only_) writer_ = std::thread([this] { writer_loop(); });
}

CheckpointLog::~CheckpointLog() {
  try {
    close();
  } catch (...) {  // NOLINT(bugprone-empty-catch): destructor must not throw; close() reports
  }
  if (fd_ >= 0) ::close(fd_);
}

void CheckpointLog::record(const TaskRecord& task) {
  std::string line = record_line(seed_, task, counters_, output_offsets_);
  std::lock_guard lock(buffer_mutex_);
  if (read_only_) {
    if (error_.empty()) error_ = path_ + ": cannot record a finished task: the file is read-only (" + read_only_why_ + ")";
    return;
  }
  buffer_ += line;
}

void CheckpointLog::write_out() {
  std::lock_guard wlock(write_mutex_);
  std::string data;
  {
    std::lock_guard lock(buffer_mutex_);
    data.swap(buffer_);
  }
  if (data.empty() || fd_ < 0) return;
  bool synced = true;
  if (before_sync_) try {
      before_sync_();  // e.g. the --output file: no record may name bytes not yet on disk
    } catch (const std::exception& e) {
      std::lock_guard lock(buffer_mutex_);
      if (error_.empty()) error_ = e.what();
      synced = false;
    }
  if (!synced) return;
  if (!write_all(fd_, data) || ::fsync(fd_) != 0) {
    std::lock_guard lock(buffer_mutex_);
    if (error_.empty()) error_ = path_ + ": write failed: " + std::strerror(errno);
  }
}

void CheckpointLog::writer_loop() {
  const auto period = std::chrono::duration<double>(flush_seconds_);
  for (;;) {
    {
      std::unique_lock lock(buffer_mutex_);
      wake_.wait_for(lock, period, [this] { return stop_; });
      if (stop_) return;
    }
    write_out();
  }
}

void CheckpointLog::flush() {
  write_out();
  std::lock_guard lock(buffer_mutex_);
  if (!error_.empty()) throw std::runtime_error("--checkpoint: " + error_);
}

void CheckpointLog::close() {
  {
    std::lock_guard lock(buffer_mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (writer_.joinable()) writer_.join();
  flush();
}

}  // namespace pcount::engine
