#pragma once
// Internal to the queens join (src/queens/join*.cpp): the vectorised join
// of one group's bucketed keys, built once per instruction-set path
// (src/queens/join_kernel.ipp is compiled by join_sse41.cpp, join_avx2.cpp
// and join_avx512.cpp, each copy in its own namespace; join_vector.cpp
// buckets the keys and picks the copy engine::simd_path() names).
#include <cstddef>
#include <cstdint>

#include "join_weights.hpp"
#include "pcount/engine/simd.hpp"

namespace pcount::queens::join_detail {

/// Bytes of keys per vector on path `p`: 64 (AVX-512), 32 (AVX2), 16 (SSE4.1).
constexpr std::size_t vector_bytes(engine::SimdPath p) {
  return p == engine::SimdPath::avx512 ? 64 : p == engine::SimdPath::avx2 ? 32 : 16;
}

/// One side of a group, sorted into 2^bits buckets (join_buckets.hpp's
/// bucket): the keys' low bits as T, each bucket's keys from offsets[i] to
/// offsets[i + 1].
template <class T>
struct BucketedSide {
  const T* keys = nullptr;
  const u32* offsets = nullptr;         ///< 2^bits + 1 entries
  const u32* counts = nullptr;          ///< the padded (bottom) side: keys per bucket, padding not counted
  const u32* zeros = nullptr;           ///< the unpadded (top) side: zero keys per bucket
  const u32* ties = nullptr;            ///< weighted joins: the ties per bucket (its last keys)
  const std::uint16_t* lams = nullptr;  ///< weighted joins: λ (with kTie) per key
};

/// A group's two sides as the kernel joins them: the top unpadded, the
/// bottom padded to whole vectors of the path with all-ones keys (and
/// kReadPast keys past its last bucket); w set for a weighted group.
template <class T>
struct BucketedGroup {
  BucketedSide<T> top, bottom;
  int bits = 0;
  const Weighting* w = nullptr;
};

/// Per path: the number of pairs (top key, bottom key) of `g` that are
/// disjoint (the padding's fits with zero top keys taken back); `tests`
/// gains the key pairs tested, `shortfall` Σ (2 − f) over the fitting
/// pairs with a tie (weighted groups).
#define PCOUNT_JOIN_DECLARE(NS)                                                        \
  namespace NS {                                                                       \
  u64 join_buckets(const BucketedGroup<std::uint32_t>& g, u64& tests, u64& shortfall); \
  u64 join_buckets(const BucketedGroup<std::uint64_t>& g, u64& tests, u64& shortfall); \
  }

PCOUNT_JOIN_DECLARE(join_sse41)
PCOUNT_JOIN_DECLARE(join_avx2)
PCOUNT_JOIN_DECLARE(join_avx512)
#undef PCOUNT_JOIN_DECLARE

}  // namespace pcount::queens::join_detail
