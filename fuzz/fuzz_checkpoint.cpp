// Fuzz target: the checkpoint reader (a checkpoint may be damaged by a
// crash, a full disk or a careless edit, and must never give a wrong total).
//
// Input: the bytes of a checkpoint file for a fixed job (fingerprint
// "pcount/fuzz job", counters a and b, 1000 tasks). The committed corpus
// holds valid files of that job, so mutations reach the record parser.
// Properties, for a file that is accepted: every record's id is below the
// job's task count, ids are unique, every record holds exactly the job's 2
// counters, and each record written back with
// checkpoint_line reads back unchanged. A refusal must be
// InvalidArgument("checkpoint"); any other exception escapes and is a finding.
//
// Each input is read twice: as it is, and "sealed": when it starts with the
// job's header, every complete record line gets the checksum it should
// have (engine::checkpoint_record_checksum), so that a mutated field
// reaches the field parser instead of failing the line checksum.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "pcount/engine/checkpoint.hpp"
#include "pcount/errors.hpp"

namespace {

using pcount::fuzz::broken;
namespace engine = pcount::engine;

const engine::Job& fuzz_job() {
  static const engine::Job job = [] {
    engine::Job j;
    j.fingerprint = "pcount/fuzz job";
    j.counter_names = {"a", "b"};
    j.task_count = 1000;
    j.run_task = [](std::size_t, engine::Tally&) {};
    return j;
  }();
  return job;
}

/// `text` with the checksum of every complete record line recomputed (the
/// text after its last space replaced), when it starts with the job's header.
std::string sealed(std::string_view text, const engine::Job& job) {
  const std::string header = engine::checkpoint_header(job);
  if (text.substr(0, header.size()) != header) return std::string(text);
  std::string out = header;
  std::size_t pos = header.size();
  for (;;) {
    const std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) break;
    const std::string_view line = text.substr(pos, nl - pos);
    const std::size_t space = line.rfind(' ');
    const std::string_view body = space == std::string_view::npos ? line : line.substr(0, space);
    out += std::string(body) + " " + engine::checkpoint_record_checksum(body, job) + "\n";
    pos = nl + 1;
  }
  out += text.substr(pos);
  return out;
}

/// Reads `text` as the checkpoint of the fuzz job and checks the properties.
void check(std::string_view text) {
  const auto path = pcount::fuzz::scratch_dir() / "checkpoint";
  pcount::fuzz::write_file(path, text);
  const engine::Job& job = fuzz_job();
  std::vector<engine::TaskRecord> records;
  try {
    std::string warning;
    records = engine::read_checkpoint(path.string(), job, &warning);
  } catch (const pcount::InvalidArgument& e) {
    if (e.argument() != "checkpoint") broken("refusal names '" + e.argument() + "', not checkpoint");
    return;
  }
  std::set<std::size_t> ids;
  std::string rewritten = engine::checkpoint_header(job);
  for (const engine::TaskRecord& r : records) {
    if (r.id >= job.task_count) broken("record id " + std::to_string(r.id) + " not below the task count");
    if (!ids.insert(r.id).second) broken("record id " + std::to_string(r.id) + " accepted twice");
    if (r.counts.counts.size() != job.counter_names.size()) broken("a record does not hold the job's counters");
    rewritten += engine::checkpoint_line(r, job);
  }
  pcount::fuzz::write_file(path, rewritten);
  std::vector<engine::TaskRecord> again;
  try {
    again = engine::read_checkpoint(path.string(), job);
  } catch (const pcount::InvalidArgument& e) {
    broken(std::string("records written back are refused: ") + e.what());
  }
  if (again.size() != records.size()) broken("records written back read back to another number");
  for (std::size_t i = 0; i < again.size(); ++i)
    if (again[i].id != records[i].id || !(again[i].counts == records[i].counts))
      broken("record written back reads back changed");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check(text);
  const std::string resealed = sealed(text, fuzz_job());
  if (resealed != text) check(resealed);
  return 0;
}
