// Fuzz target: the shard result reader behind `count merge` (a shard file
// comes from another node or user, so it is hostile input).
//
// Input: the bytes of a shard result file. It is read by read_shard_file
// (the path count merge takes). Properties, for a file that is accepted:
// every task belongs to the shard and its id is below task_count, the
// shard index is below its count, the totals and every task hold exactly
// one count per counter name, the totals equal the sum of the tasks,
// writing it back with shard_json_text reads back to the same result, and
// merge_shards on it either adds up or refuses with std::runtime_error. Any
// other exception type (a JSON library error, say) escapes and is a finding.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "pcount/errors.hpp"
#include "pcount/engine/shard.hpp"

namespace {

using pcount::fuzz::broken;
namespace engine = pcount::engine;

void check(const engine::ShardResult& r) {
  if (r.shard.count == 0 || r.shard.index >= r.shard.count) broken("shard index not below its count");
  const std::size_t counters = r.counter_names.size();
  if (r.totals.counts.size() != counters) broken("totals do not hold one count per counter name");
  engine::Tally sum(counters);
  for (const engine::TaskRecord& t : r.tasks) {
    if (t.counts.counts.size() != counters) broken("a task does not hold one count per counter name");
    if (t.id >= r.task_count) broken("task id " + std::to_string(t.id) + " not below task_count");
    if (!r.shard.includes(t.id)) broken("task outside its shard");
    sum.merge(t.counts);
  }
  if (!(sum == r.totals)) broken("totals differ from the sum of the tasks");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = pcount::fuzz::scratch_dir() / "shard.json";
  pcount::fuzz::write_file(path, std::string_view(reinterpret_cast<const char*>(data), size));
  engine::ShardResult r;
  try {
    r = engine::read_shard_file(path.string());
  } catch (const std::runtime_error&) {
    return 0;
  } catch (const std::invalid_argument&) {
    return 0;
  }
  check(r);
  const engine::ShardResult again = engine::parse_shard_json(engine::shard_json_text(r), "again");
  if (again.tasks.size() != r.tasks.size() || !(again.totals == r.totals) || again.counter_names != r.counter_names ||
      again.fingerprint != r.fingerprint || again.task_count != r.task_count)
    broken("shard_json_text does not read back to the same result");
  try {
    const engine::MergeResult m = engine::merge_shards({r}, {"fuzz"});
    if (!(m.totals == r.totals)) broken("merge of one complete shard changed the totals");
  } catch (const std::runtime_error&) {
  }
  return 0;
}
