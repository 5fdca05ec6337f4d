#pragma once
/// @file
/// Checksums of the files a run writes (checkpoints, shard results): the
/// FNV-1a hash (Fowler, Noll and Vo; the 32- and 64-bit parameters of
/// draft-eastlake-fnv). They catch damage and hand edits, not a forger:
/// a person who edits a file on purpose can recompute them.

#include <cstdint>
#include <string>
#include <string_view>

namespace pcount::engine {

/// 32-bit FNV-1a hash of `text`; `seed` continues an earlier hash (default:
/// the FNV offset basis 2166136261). fnv1a("a") = 0xe40c292c.
[[nodiscard]] std::uint32_t fnv1a(std::string_view text, std::uint32_t seed = 2166136261u);

/// The 64-bit FNV-1a offset basis: fnv1a64 of no bytes.
inline constexpr std::uint64_t kFnv1a64Basis = 0xcbf29ce484222325ULL;

/// 64-bit FNV-1a hash of `text` (offset basis kFnv1a64Basis, prime
/// 0x100000001b3); `seed` continues an earlier hash, so that
/// fnv1a64(b, fnv1a64(a)) == fnv1a64(a + b). fnv1a64("a") = 0xaf63dc4c8601ec8c.
[[nodiscard]] std::uint64_t fnv1a64(std::string_view text, std::uint64_t seed = kFnv1a64Basis);

/// fnv1a64 as "fnv1a64:" and 16 lower-case hex digits: the digest field of
/// a shard result file.
[[nodiscard]] std::string fnv1a64_digest(std::string_view text);

}  // namespace pcount::engine
