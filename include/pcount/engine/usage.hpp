#pragma once
/// @file
/// What this process has used so far: CPU time and peak memory (getrusage).

#include <cstdint>

namespace pcount::engine {

/// The resources a process has used since it started.
struct ProcessUsage {
  double cpu_seconds = 0.0;         ///< user + system CPU time of all its threads, in seconds
  std::uint64_t max_rss_bytes = 0;  ///< peak resident set size, in bytes (0 when unknown)
  /// user + system CPU time of the child processes that have ended and been
  /// waited for (RUSAGE_CHILDREN), in seconds: a helper program's cost.
  double children_cpu_seconds = 0.0;
};

/// This process's usage so far (getrusage(RUSAGE_SELF); Linux reports the
/// peak RSS in KiB, converted here). Never throws; zeros when unavailable.
[[nodiscard]] ProcessUsage process_usage() noexcept;

}  // namespace pcount::engine
