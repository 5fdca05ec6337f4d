#pragma once
// Internal to the queens join (src/queens/join*.cpp): fit_mask, the test of
// one word against up to 64 others, shared by the building of a group's
// placements (join_parts.cpp) and the vectorised join (join_kernel.ipp). It
// sits in an unnamed namespace, so each file that includes it gets its own
// copy, built for that file's instruction set (AVX2 where it has it).
#include <cstdint>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace pcount::queens::join_detail {

namespace {

/// Bit i of the result: (mu & meet[i]) == 0, for i < n ≤ 64 (four at a time
/// where the build targets AVX2).
inline std::uint64_t fit_mask(std::uint64_t mu, const std::uint64_t* meet, std::uint32_t n) {
  std::uint64_t fits = 0;
  std::uint32_t i = 0;
#if defined(__AVX2__)
  const __m256i m = _mm256_set1_epi64x(static_cast<long long>(mu));
  for (; i + 4 <= n; i += 4) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(meet + i));
    const __m256i z = _mm256_cmpeq_epi64(_mm256_and_si256(x, m), _mm256_setzero_si256());
    fits |= static_cast<std::uint64_t>(_mm256_movemask_pd(_mm256_castsi256_pd(z))) << i;
  }
  if (i < n) {  // the last 1 to 3: a masked load reads only those
    const __m256i live = _mm256_cmpgt_epi64(_mm256_set1_epi64x(n - i), _mm256_setr_epi64x(0, 1, 2, 3));
    const __m256i x = _mm256_maskload_epi64(reinterpret_cast<const long long*>(meet + i), live);
    const __m256i z = _mm256_and_si256(_mm256_cmpeq_epi64(_mm256_and_si256(x, m), _mm256_setzero_si256()), live);
    fits |= static_cast<std::uint64_t>(_mm256_movemask_pd(_mm256_castsi256_pd(z))) << i;
  }
#else
  for (; i < n; ++i) fits |= std::uint64_t{(mu & meet[i]) == 0} << i;
#endif
  return fits;
}

}  // namespace

}  // namespace pcount::queens::join_detail
