// The queens join's vectorised kernel: one group's bucketed keys joined a
// vector of keys at a time (layout and entry points: join_kernel.hpp). This
// file is included once per instruction-set path (join_sse41.cpp,
// join_avx2.cpp, join_avx512.cpp) with PCOUNT_JOIN_NS naming the namespace
// and PCOUNT_JOIN_PATH the engine::SimdPath; CMake adds -march=x86-64-v2
// (SSE4.1), -v3 (AVX2) or -v4 (AVX-512) after the project flags, as for the
// sudoku simd9 kernel. The code is the same on every path, written with GCC
// vector extensions of the path's vector width (plus one AVX-512 block
// where the compiler has AVX-512). Only the two join_buckets functions
// leave this file, and what it calls from other headers is inlined (fit_mask
// has a copy per file; Weighting::shortfall is always_inline), so no copy
// built for a wider instruction set is linked into a narrower path.
#include <algorithm>
#include <bit>
#include <type_traits>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "join_fit_mask.hpp"
#include "join_kernel.hpp"

#if !defined(PCOUNT_JOIN_NS) || !defined(PCOUNT_JOIN_PATH)
#error "define PCOUNT_JOIN_NS (the namespace) and PCOUNT_JOIN_PATH (an engine::SimdPath) before including this file"
#endif

namespace pcount::queens::join_detail::PCOUNT_JOIN_NS {

namespace {

#define PCOUNT_JOIN_INLINE inline __attribute__((always_inline))

/// Bytes of keys per vector on this path.
constexpr std::size_t kBytes = vector_bytes(engine::SimdPath::PCOUNT_JOIN_PATH);

/// One vector of W bytes of keys: 64 (16 keys of 32 bits or 8 of 64) on
/// the AVX-512 path, 32 on the AVX2 path, 16 on the SSE4.1 one. Each width
/// is compiled for its own instruction set (this file, once per path) and
/// picked at run time (engine::simd_path()), so a portable x86-64-v3 build
/// still joins 64 bytes at a time where the CPU has AVX-512. A vector wider
/// than the instruction set's registers is lowered lane by lane (scalar
/// compares): the join of a portable build whose keys always went 64 bytes
/// at a time was about six times slower than its AVX-512 build
/// (results/queens.md, 2026-11-25).
template <class T, std::size_t W>
struct VectorOf;
template <>
struct VectorOf<u32, 16> {
  typedef u32 type __attribute__((vector_size(16)));
};
template <>
struct VectorOf<u32, 32> {
  typedef u32 type __attribute__((vector_size(32)));
};
template <>
struct VectorOf<u32, 64> {
  typedef u32 type __attribute__((vector_size(64)));
};
template <>
struct VectorOf<u64, 16> {
  typedef u64 type __attribute__((vector_size(16)));
};
template <>
struct VectorOf<u64, 32> {
  typedef u64 type __attribute__((vector_size(32)));
};
template <>
struct VectorOf<u64, 64> {
  typedef u64 type __attribute__((vector_size(64)));
};
template <class T, std::size_t W>
using Lanes = typename VectorOf<T, W>::type;

#if defined(__AVX512F__)
/// count_block for 32-bit keys on the AVX-512 path: the top key broadcast
/// from memory into the test (vptestnmd … {1to16}) and the fits subtracted
/// under the mask, two instructions per 16 pairs where the generic loop
/// needs four (and, test, mask to vector, add).
PCOUNT_JOIN_INLINE void count_block_avx512(const u32* top, u32 t0, u32 t1, const u32* bottom, u32 b0, u32 b1,
                                           Lanes<u32, 64>& acc) {
  const __m512i one = _mm512_set1_epi32(1);
  __m512i a1 = reinterpret_cast<__m512i>(acc), a2 = _mm512_setzero_si512();
  u32 y = b0;
  for (; y + 32 <= b1; y += 32) {
    const __m512i v = _mm512_loadu_si512(bottom + y), v2 = _mm512_loadu_si512(bottom + y + 16);
    for (u32 x = t0; x < t1; ++x) {
      const __m512i k = _mm512_set1_epi32(static_cast<int>(top[x]));
      a1 = _mm512_mask_sub_epi32(a1, _mm512_testn_epi32_mask(k, v), a1, one);  // −1 where the pair fits
      a2 = _mm512_mask_sub_epi32(a2, _mm512_testn_epi32_mask(k, v2), a2, one);
    }
  }
  for (; y < b1; y += 16) {
    const __m512i v = _mm512_loadu_si512(bottom + y);
    for (u32 x = t0; x < t1; ++x)
      a1 = _mm512_mask_sub_epi32(a1, _mm512_testn_epi32_mask(_mm512_set1_epi32(static_cast<int>(top[x])), v), a1, one);
  }
  acc = reinterpret_cast<Lanes<u32, 64>>(_mm512_add_epi32(a1, a2));
}
#endif

/// Adds to `acc` (lane by lane, as −1 per pair) the pairs (x in top[t0, t1),
/// y in bottom[b0, b1)) with x & y == 0; b1 − b0 is a multiple of the lanes.
template <class T, std::size_t W>
PCOUNT_JOIN_INLINE void count_block(const T* top, u32 t0, u32 t1, const T* bottom, u32 b0, u32 b1, Lanes<T, W>& acc) {
  constexpr u32 lanes = W / sizeof(T);
#if defined(__AVX512F__)
  if constexpr (std::is_same_v<T, u32> && W == 64) {
    count_block_avx512(top, t0, t1, bottom, b0, b1, acc);
    return;
  }
#endif
  Lanes<T, W> acc2{};
  u32 y = b0;
  for (; y + 8 * lanes <= b1; y += 8 * lanes) {
    Lanes<T, W> v0, v1, v2, v3, v4, v5, v6, v7;  // named, so that they stay in registers
    __builtin_memcpy(&v0, bottom + y, sizeof v0);
    __builtin_memcpy(&v1, bottom + y + lanes, sizeof v1);
    __builtin_memcpy(&v2, bottom + y + 2 * lanes, sizeof v2);
    __builtin_memcpy(&v3, bottom + y + 3 * lanes, sizeof v3);
    __builtin_memcpy(&v4, bottom + y + 4 * lanes, sizeof v4);
    __builtin_memcpy(&v5, bottom + y + 5 * lanes, sizeof v5);
    __builtin_memcpy(&v6, bottom + y + 6 * lanes, sizeof v6);
    __builtin_memcpy(&v7, bottom + y + 7 * lanes, sizeof v7);
    for (u32 x = t0; x < t1; ++x) {
      acc += (top[x] & v0) == 0;
      acc2 += (top[x] & v1) == 0;
      acc += (top[x] & v2) == 0;
      acc2 += (top[x] & v3) == 0;
      acc += (top[x] & v4) == 0;
      acc2 += (top[x] & v5) == 0;
      acc += (top[x] & v6) == 0;
      acc2 += (top[x] & v7) == 0;
    }
  }
  for (; y + 4 * lanes <= b1; y += 4 * lanes) {  // four vectors per top key where the bucket has them
    Lanes<T, W> v, v2, v3, v4;
    __builtin_memcpy(&v, bottom + y, sizeof v);
    __builtin_memcpy(&v2, bottom + y + lanes, sizeof v2);
    __builtin_memcpy(&v3, bottom + y + 2 * lanes, sizeof v3);
    __builtin_memcpy(&v4, bottom + y + 3 * lanes, sizeof v4);
    for (u32 x = t0; x < t1; ++x) {
      acc += (top[x] & v) == 0;
      acc2 += (top[x] & v2) == 0;
      acc += (top[x] & v3) == 0;
      acc2 += (top[x] & v4) == 0;
    }
  }
  for (; y + 2 * lanes <= b1; y += 2 * lanes) {  // two vectors per top key: one broadcast for both
    Lanes<T, W> v, v2;
    __builtin_memcpy(&v, bottom + y, sizeof v);
    __builtin_memcpy(&v2, bottom + y + lanes, sizeof v2);
    for (u32 x = t0; x < t1; ++x) {
      acc += (top[x] & v) == 0;  // a lane is −1 where the pair fits
      acc2 += (top[x] & v2) == 0;
    }
  }
  for (; y < b1; y += lanes) {
    Lanes<T, W> v;
    __builtin_memcpy(&v, bottom + y, sizeof v);
    for (u32 x = t0; x < t1; ++x) acc += (top[x] & v) == 0;
  }
  acc += acc2;
}

/// Bit i of the result: (x & p[i]) == 0, for i < n ≤ 64. Where the build
/// targets AVX2, eight 32-bit keys at a time, the last vector reading up
/// to 7 keys past p[n] (kReadPast) and its bits past n dropped.
template <class T>
u64 key_fit_mask(T x, const T* p, u32 n) {
#if defined(__AVX2__)
  if constexpr (sizeof(T) == 4) {
    u64 fits = 0;
    const __m256i m = _mm256_set1_epi32(static_cast<int>(x));
    for (u32 i = 0; i < n; i += 8) {
      const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
      const __m256i z = _mm256_cmpeq_epi32(_mm256_and_si256(y, m), _mm256_setzero_si256());
      fits |= static_cast<u64>(static_cast<u32>(_mm256_movemask_ps(_mm256_castsi256_ps(z)))) << i;
    }
    return n == 64 ? fits : fits & ((u64{1} << n) - 1);
  } else {
    return fit_mask(x, p, n);
  }
#else
  u64 fits = 0;
  for (u32 i = 0; i < n; ++i) fits |= u64{(x & p[i]) == 0} << i;
  return fits;
#endif
}

/// Σ w.shortfall over the pairs of own keys [x0, x1) (λ in own_lams;
/// tops when `top`) and keys of p[0, n) (λ in lams) that fit. kOneMask:
/// n ≤ 64, one mask per own key, its bounds the same for all of them.
template <class T, bool kOneMask>
u64 shortfalls(const T* own, const std::uint16_t* own_lams, u32 x0, u32 x1, bool top, const T* p,
               const std::uint16_t* lams, u32 n, const Weighting& w) {
  u64 sum = 0;
  for (u32 x = x0; x < x1; ++x)
    for (u32 v = 0; v < n; v += 64) {
      for (u64 fits = key_fit_mask<T>(own[x], p + v, kOneMask ? n : std::min(n - v, 64u)); fits != 0;
           fits &= fits - 1) {
        const u32 y = v + static_cast<u32>(std::countr_zero(fits));
        sum += top ? w.shortfall(own_lams[x], lams[y]) : w.shortfall(lams[y], own_lams[x]);
      }
      if constexpr (kOneMask) break;
    }
  return sum;
}

/// shortfalls with the copy for n.
template <class T>
u64 shortfalls_any(const T* own, const std::uint16_t* own_lams, u32 x0, u32 x1, bool top, const T* p,
                   const std::uint16_t* lams, u32 n, const Weighting& w) {
  if (x0 == x1) return 0;
  return n <= 64 ? shortfalls<T, true>(own, own_lams, x0, x1, top, p, lams, n, w)
                 : shortfalls<T, false>(own, own_lams, x0, x1, top, p, lams, n, w);
}

/// Σ (2 − f) over the fitting pairs of one bucket pair that involve a tie
/// (DiagonalOrder): the tie tops of [t0, t1) with the bottoms of [b0, b1),
/// the tie bottoms with the other tops. Ties stand last in each bucket
/// (`top_ties`, `bottom_ties` of them), a few per cent of the keys, and
/// their fits are rarer still: a mask of the fits first, weigh only those.
template <class T>
u64 tie_shortfall(const T* t, u32 t0, u32 t1, u32 top_ties, const T* b, u32 b0, u32 b1, u32 bottom_ties,
                  const std::uint16_t* tl, const std::uint16_t* bl, const Weighting& w) {
  const u32 clear_end = t1 - top_ties;
  u64 sum = shortfalls_any<T>(t, tl, clear_end, t1, true, b + b0, bl + b0, b1 - b0, w);
  if (clear_end != t0) sum += shortfalls_any<T>(b, bl, b1 - bottom_ties, b1, false, t + t0, tl + t0, clear_end - t0, w);
  return sum;
}

/// The join of one group with T-wide keys (the bits left after bucketing
/// by `bits` bits fit T), W bytes of keys per vector: Σ over the pairs of
/// top and bottom buckets that avoid each other on the bucket bits.
template <class T, std::size_t W>
PCOUNT_JOIN_INLINE u64 count_disjoint_as(const BucketedGroup<T>& g, u64& tests, u64& shortfall) {
  constexpr u32 lanes = W / sizeof(T);
  const int bits = g.bits;
  const Weighting* w = g.w;
  const u32 all = (1u << bits) - 1u;
  const T* t = g.top.keys;
  const T* b = g.bottom.keys;
  u64 total = 0;
  // A 32-bit lane must not count 2^32 fits: acc is flushed into `total`
  // before the fits it may hold reach 2^31.
  constexpr u64 lane_limit = sizeof(T) == 4 ? u64{1} << 31 : ~u64{0};
  // Every bottom vector of the group: a lane of acc gains at most one fit
  // per (top key, bottom vector), so a top bucket whose keys times this
  // stay below the limit needs no flush inside its loop (almost always).
  const u64 bottom_vectors = g.bottom.offsets[all + 1] / lanes;
  for (u32 i = 0; i <= all; ++i) {
    const u32 t0 = g.top.offsets[i], t1 = g.top.offsets[i + 1];
    if (t0 == t1) continue;
    const u32 free = all & ~i;
    Lanes<T, W> acc{};  // summed over the top bucket's compatible bottom buckets
    auto flush = [&] {
      for (u32 lane = 0; lane < lanes; ++lane)
        total += static_cast<T>(T{0} - static_cast<T>(acc[lane]));  // each fit added −1
      acc = Lanes<T, W>{};
    };
    const bool ties = w != nullptr && g.top.ties[i] != 0;
    u64 padding = 0;  // bottom padding keys met by this top bucket
    u64 width = 0;    // bottom keys (padding included) met by this top bucket
    // past the limit (never below N = 23), cut the top keys into pieces
    const bool safe = u64{t1 - t0} * bottom_vectors < lane_limit;
    u64 load = 0;                              // most fits any lane of acc may hold (only when not safe)
    for (u32 j = free;; j = (j - 1) & free) {  // the buckets whose index bits avoid i's
      const u32 b0 = g.bottom.offsets[j], b1 = g.bottom.offsets[j + 1];
      if (b0 != b1) {
        if (safe) {
          count_block<T, W>(t, t0, t1, b, b0, b1, acc);
        } else {
          const u64 vectors = (b1 - b0) / lanes;
          const u32 piece = static_cast<u32>(std::min<u64>(t1 - t0, std::max<u64>(1, (lane_limit - 1) / vectors)));
          for (u32 x0 = t0; x0 < t1; x0 += piece) {
            const u32 x1 = x0 + std::min(piece, t1 - x0);
            if (load + u64{x1 - x0} * vectors >= lane_limit) {
              flush();
              load = 0;
            }
            load += u64{x1 - x0} * vectors;
            count_block<T, W>(t, x0, x1, b, b0, b1, acc);
          }
        }
        width += b1 - b0;
        padding += b1 - b0 - g.bottom.counts[j];
        if (w != nullptr && (ties || g.bottom.ties[j] != 0))
          shortfall += tie_shortfall<T>(t, t0, t1, g.top.ties[i], b, b0, b0 + g.bottom.counts[j], g.bottom.ties[j],
                                        g.top.lams, g.bottom.lams, *w);
      }
      if (j == 0) break;
    }
    flush();
    tests += u64{t1 - t0} * width;
    // the top bucket's zero keys fit the padding keys too: take those back
    total -= u64{g.top.zeros[i]} * padding;
  }
  return total;
}

}  // namespace

u64 join_buckets(const BucketedGroup<u32>& g, u64& tests, u64& shortfall) {
  return count_disjoint_as<u32, kBytes>(g, tests, shortfall);
}

u64 join_buckets(const BucketedGroup<u64>& g, u64& tests, u64& shortfall) {
  return count_disjoint_as<u64, kBytes>(g, tests, shortfall);
}

#undef PCOUNT_JOIN_INLINE

}  // namespace pcount::queens::join_detail::PCOUNT_JOIN_NS
