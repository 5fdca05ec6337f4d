#pragma once
/// @file
/// Checksums of the files a run writes (checkpoints, shard results): the
/// FNV-1a hash (Fowler, Noll and Vo; the 32- and 64-bit parameters of
/// draft-eastlake-fnv). They catch damage and hand edits, not a forger:
/// a person who edits a file on purpose can recompute them.

#include <cstdint>
#include <string>
#include <string_view>

#include "pcount/u128.hpp"

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

/// The 64-bit FNV prime.
inline constexpr std::uint64_t kFnv1a64Prime = 0x100000001b3ULL;

/// Incremental 64-bit FNV-1a (the parameters of fnv1a64), for hashes built
/// from parts: bytes, integers as their little-endian bytes, or whole
/// 64-bit words in one step (the word-wise variant: one multiply per word,
/// for memo keys). Every hash of a list that enters a fingerprint (class
/// lists, puzzle files) is made with it, so one definition serves all.
class Fnv1a64 {
public:
  /// Adds the bytes of `text`.
  Fnv1a64& add(std::string_view text) {
    h_ = fnv1a64(text, h_);
    return *this;
  }
  /// Adds the 8 bytes of `v`, least significant first.
  Fnv1a64& add_le64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) h_ = (h_ ^ ((v >> (8 * i)) & 0xFFu)) * kFnv1a64Prime;
    return *this;
  }
  /// Adds the 16 bytes of `v`, least significant first.
  Fnv1a64& add_le128(u128 v) {
    add_le64(static_cast<std::uint64_t>(v));
    return add_le64(static_cast<std::uint64_t>(v >> 64));
  }
  /// Adds the whole word `w` in one step: h = (h ^ w) · prime.
  Fnv1a64& add_word(std::uint64_t w) {
    h_ = (h_ ^ w) * kFnv1a64Prime;
    return *this;
  }
  /// The hash of everything added so far.
  [[nodiscard]] std::uint64_t value() const { return h_; }

private:
  std::uint64_t h_ = kFnv1a64Basis;
};

/// Word-wise FNV-1a of a byte stream: Fnv1a64::add_word on its 8-byte
/// little-endian words (the last one zero-padded), then on the byte count;
/// one multiply per 8 bytes, so that hashing a large input file costs
/// little next to solving it. The bytes may come in pieces of any length.
class WordFnv1a64 {
public:
  /// Adds the bytes of `bytes`.
  void add(std::string_view bytes);
  /// The hash of the bytes so far (the stream is not closed).
  [[nodiscard]] std::uint64_t value() const;

private:
  void flush();
  Fnv1a64 hash_;
  std::uint64_t word_ = 0;  ///< the bytes of a word not yet whole
  unsigned fill_ = 0;       ///< how many of them
  std::uint64_t count_ = 0;
};

}  // namespace pcount::engine
