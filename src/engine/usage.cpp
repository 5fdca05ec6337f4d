#include "pcount/engine/usage.hpp"

#include <sys/resource.h>

namespace pcount::engine {

ProcessUsage process_usage() noexcept {
  rusage u{};
  if (getrusage(RUSAGE_SELF, &u) != 0) return {};
  // Whole microseconds first, so that the seconds print as 0.015526, not
  // as 0.015525999999999998.
  const auto micros = [](const timeval& t) { return static_cast<long long>(t.tv_sec) * 1'000'000 + t.tv_usec; };
  ProcessUsage p;
  p.cpu_seconds = static_cast<double>(micros(u.ru_utime) + micros(u.ru_stime)) / 1e6;
  p.max_rss_bytes = u.ru_maxrss > 0 ? static_cast<std::uint64_t>(u.ru_maxrss) * 1024 : 0;  // Linux: KiB
  rusage c{};
  if (getrusage(RUSAGE_CHILDREN, &c) == 0)
    p.children_cpu_seconds = static_cast<double>(micros(c.ru_utime) + micros(c.ru_stime)) / 1e6;
  return p;
}

}  // namespace pcount::engine
