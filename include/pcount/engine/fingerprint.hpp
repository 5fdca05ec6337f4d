#pragma once
/// @file
/// Job fingerprints (engine::Job::fingerprint): one line naming the program
/// version, the problem and every parameter that changes the task list or a
/// task's counts (docs/engine.md, "The contract"). Checkpoints, shard files
/// and MPI ranks refuse to mix jobs whose fingerprints differ, so a
/// parameter left out can mix two different jobs' counts.
///
/// Kernels and problem adapters build them the same way, with this builder:
/// `Fingerprint("latin").add("n", 7).add("rows", 7).add("method", "search")`
/// gives "pcount/<version> latin n=7 rows=7 method=search". field() reads a
/// parameter back (merge replays shard files without their input).

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pcount::engine {

/// The program's version string ("0.1.0").
[[nodiscard]] std::string_view program_version();

/// "pcount/<version> ": the start of every job fingerprint, so that files of
/// another program version are refused.
[[nodiscard]] std::string fingerprint_prefix();

/// A job fingerprint built one parameter at a time, each named once.
/// Names are words without spaces or '='; values have no spaces (a value
/// that may, such as a file name, enters by digest instead).
class Fingerprint {
public:
  /// Starts with fingerprint_prefix() and `problem`, the problem's name or
  /// a kernel's description of its job (e.g. "kirkman count").
  explicit Fingerprint(std::string_view problem);
  /// Continues a fingerprint that a caller started: a problem adapter hands
  /// a kernel its fingerprint, and the kernel adds the parameters it chose.
  [[nodiscard]] static Fingerprint extending(std::string started);
  /// Appends " name=value".
  Fingerprint& add(std::string_view name, std::string_view value);
  /// Appends " name=<decimal value>".
  template <std::integral T>
  Fingerprint& add(std::string_view name, T value) {
    return add(name, std::string_view(std::to_string(value)));
  }
  /// Appends " name=<16 lower-case hex digits>": a 64-bit digest.
  Fingerprint& add_hex(std::string_view name, std::uint64_t digest);
  /// Appends " word": a mode without a value, e.g. "list-grids".
  Fingerprint& flag(std::string_view word);
  /// The fingerprint so far.
  [[nodiscard]] const std::string& str() const { return text_; }
  operator const std::string&() const { return text_; }  // NOLINT: a fingerprint is a string

private:
  Fingerprint() = default;
  std::string text_;
};

/// The value of parameter `name` in a fingerprint built by Fingerprint (the
/// first " name=" field, up to the next space); nullopt when absent.
[[nodiscard]] std::optional<std::string> fingerprint_field(std::string_view fingerprint, std::string_view name);

}  // namespace pcount::engine
