#include "pcount/engine/simd.hpp"

#include <cstdlib>
#include <cstring>
#include <string>

#include "pcount/errors.hpp"

namespace pcount::engine {

const char* simd_path_name(SimdPath p) {
  switch (p) {
    case SimdPath::avx512:
      return "avx512";
    case SimdPath::avx2:
      return "avx2";
    default:
      return "sse4.1";
  }
}

bool simd_path_supported(SimdPath p) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  // Feature by feature (clang 14 does not know the "x86-64-vN" level names
  // GCC accepts): the v2, v3 and v4 levels.
  const bool v2 =
      __builtin_cpu_supports("sse4.2") && __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("ssse3");
  const bool v3 = v2 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
                  __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("fma");
  const bool v4 = v3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                  __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  switch (p) {
    case SimdPath::avx512:
      return v4;
    case SimdPath::avx2:
      return v3;
    default:
      return v2;
  }
#else
  return p == SimdPath::sse41;
#endif
}

bool simd_path_forced() {
  const char* env = std::getenv("PCOUNT_SIMD");
  return env && *env;
}

SimdPath simd_path() {
  static const SimdPath path = [] {
    const char* env = std::getenv("PCOUNT_SIMD");
    if (env && *env) {
      for (SimdPath p : {SimdPath::sse41, SimdPath::avx2, SimdPath::avx512})
        if (std::strcmp(env, simd_path_name(p)) == 0) {
          if (!simd_path_supported(p))
            throw InvalidArgument("PCOUNT_SIMD", std::string("this CPU cannot run the ") + env + " path");
          return p;
        }
      throw InvalidArgument("PCOUNT_SIMD", std::string("unknown path '") + env + "' (allowed: sse4.1, avx2, avx512)");
    }
    for (SimdPath p : {SimdPath::avx512, SimdPath::avx2})
      if (simd_path_supported(p)) return p;
    return SimdPath::sse41;
  }();
  return path;
}

}  // namespace pcount::engine
