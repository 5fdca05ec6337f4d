// The queens join's vector join: one group's keys bucketed, then joined by
// the kernel copy of the instruction-set path engine::simd_path() names
// (join_kernel.hpp; join_vector.hpp).
#include "join_vector.hpp"

#include <cmath>

#include "join_kernel.hpp"

namespace pcount::queens::join_detail {

namespace {

/// Buckets both sides of a group with T-wide keys (the bottom padded to the
/// path's vectors) and joins them on `path`.
template <class T>
u64 join_group(const u64* top, std::size_t nt, const u64* bottom, std::size_t nb, int bits, const KeyOrder& order,
               Scratch& s, std::vector<T>& top_sorted, std::vector<T>& bottom_sorted, u64& tests, const Weighting* w,
               u64& shortfall, engine::SimdPath path) {
  const std::size_t lanes = vector_bytes(path) / sizeof(T);
  bucket<T>(top, nt, order.width, bits, s, top_sorted, s.top_offsets, 1, s.top_counts, s.top_zeros,
            w ? w->top_lams : nullptr, &s.top_bucket_lams, &s.top_ties);
  bucket<T>(bottom, nb, order.width, bits, s, bottom_sorted, s.bottom_offsets, lanes, s.bottom_counts, s.bottom_zeros,
            w ? w->bottom_lams : nullptr, &s.bottom_bucket_lams, &s.bottom_ties);
  const BucketedGroup<T> g{{top_sorted.data(), s.top_offsets.data(), s.top_counts.data(), s.top_zeros.data(),
                            s.top_ties.data(), s.top_bucket_lams.data()},
                           {bottom_sorted.data(), s.bottom_offsets.data(), s.bottom_counts.data(),
                            s.bottom_zeros.data(), s.bottom_ties.data(), s.bottom_bucket_lams.data()},
                           bits,
                           w};
  switch (path) {
    case engine::SimdPath::avx512:
      return join_avx512::join_buckets(g, tests, shortfall);
    case engine::SimdPath::avx2:
      return join_avx2::join_buckets(g, tests, shortfall);
    default:
      return join_sse41::join_buckets(g, tests, shortfall);
  }
}

}  // namespace

/// Number of pairs (x in top, y in bottom) with x & y == 0: both sides
/// sorted into buckets by their most contested bits, only bucket pairs that
/// avoid each other on those bits tested, 16 keys per vector where the
/// remaining bits fit 32.
u64 count_disjoint(const u64* top, std::size_t nt, const u64* bottom, std::size_t nb, const KeyOrder& order, Scratch& s,
                   u64& tests, bool wide, const Weighting* w, u64* shortfall, engine::SimdPath path) {
  u64 unused = 0;
  u64& short_sum = shortfall != nullptr ? *shortfall : unused;
  // Bucket by `bits` bits: 3^bits bucket pairs survive of 4^bits. The
  // bound asks for about 16384 key pairs per surviving bucket pair (4096
  // for odd n, whose keys have two more bits); the bucket pairs actually
  // met hold far fewer (keys crowd into the buckets with few contested
  // bits set: at 1024 the N = 18 join met 118 M bucket pairs of 8.4 top
  // keys × 1.9 bottom vectors each), and each costs mispredicted loop
  // exits. Measured with one thread, CPU seconds, medians of 3–5
  // (results/queens.md, 2026-11-25): N = 18: 256: 8.1, 1024: 6.8, 4096:
  // 5.7, 16384: 5.4, 32768: 5.4, 65536: 6.1, 2^18: 8.6; a fortieth of
  // N = 20: 4096: 5.2, 16384: 4.7, 65536: 5.4; a twentieth of N = 19:
  // 1024: 3.5, 4096: 3.1, 16384: 4.1; N = 17 alike from 1024 to 16384.
  const double per_pair = (order.width / 2) % 2 == 0 ? 16384.0 : 4096.0;
  const double pairs = static_cast<double>(nt) * static_cast<double>(nb);
  int bits = 0;
  while (bits < 12 && bits < order.contested && std::pow(3.0, bits + 1) * per_pair < pairs) ++bits;
  const bool narrow = !wide && order.width - bits <= 32;
  if (narrow)
    return join_group<u32>(top, nt, bottom, nb, bits, order, s, s.top_sorted32, s.bottom_sorted32, tests, w, short_sum,
                           path);
  return join_group<u64>(top, nt, bottom, nb, bits, order, s, s.top_sorted, s.bottom_sorted, tests, w, short_sum, path);
}

}  // namespace pcount::queens::join_detail
