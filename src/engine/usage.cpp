#include "pcount/engine/usage.hpp"

#include <sys/resource.h>

namespace pcount::engine {

ProcessUsage process_usage() noexcept {
  rusage u{};
  if (getrusage(RUSAGE_SELF, &u) != 0) return {};
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
  ProcessUsage p;
  p.cpu_seconds = seconds(u.ru_utime) + seconds(u.ru_stime);
  p.max_rss_bytes = u.ru_maxrss > 0 ? static_cast<std::uint64_t>(u.ru_maxrss) * 1024 : 0;  // Linux: KiB
  return p;
}

}  // namespace pcount::engine
