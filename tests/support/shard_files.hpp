#pragma once
// Editing shard result files in tests: a file changed by hand fails its
// digest (engine/shard.hpp), so a test of a check behind the digest gives
// the edited file a matching one, as a careful forger would.
#include <string>

#include <nlohmann/json.hpp>

#include "pcount/engine/hash.hpp"

namespace pcount::test {

/// Replaces j["digest"] by the digest of j's content (without the field).
inline void redigest(nlohmann::json& j) {
  j.erase("digest");
  j["digest"] = engine::fnv1a64_digest(j.dump());
}

/// `j` with a matching digest, as the text of a shard file.
inline std::string shard_text(nlohmann::json j) {
  redigest(j);
  return j.dump();
}

}  // namespace pcount::test
