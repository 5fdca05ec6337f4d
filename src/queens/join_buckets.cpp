// The queens join's buckets: one group's keys sorted by their most
// contested bits, padded for the vector join (join_buckets.hpp).
#include "join_buckets.hpp"

#include <algorithm>

#include "join_weights.hpp"

namespace pcount::queens::join_detail {

namespace {

/// bucket's scatter: its buffers as raw arrays.
template <class T>
struct ScatterArgs {
  const u64* keys;
  std::size_t count;
  u64 low_mask;
  const u32* __restrict index;  ///< each key's bucket
  u32* __restrict position;     ///< each bucket's next slot
  T* __restrict out;
  const std::uint16_t* lams;
  std::uint16_t* __restrict lams_out;
  u32* __restrict zeros;
};

/// Writes each key's low bits (and λ when kLams) to its bucket's next slot,
/// counting the zero keys per bucket when kZeros; a copy per case, so the
/// loop tests nothing but the zero key.
template <class T, bool kLams, bool kZeros>
void scatter(const ScatterArgs<T>& a) {
  for (std::size_t i = 0; i < a.count; ++i) {
    const T v = static_cast<T>(a.keys[i] & a.low_mask);
    const u32 b = a.index[i];
    const u32 at = a.position[b]++;
    a.out[at] = v;
    if constexpr (kLams) a.lams_out[at] = a.lams[i];
    if constexpr (kZeros) a.zeros[b] += v == 0 ? 1u : 0u;
  }
}

}  // namespace

/// Sorts `keys` (already reordered by KeyOrder, `width` bits) into 2^bits
/// buckets by their top `bits` bits, keeping the other bits as T; each bucket is filled up to a
/// multiple of `pad` with all-ones keys (they meet every nonzero key of the
/// other side; the join takes back their fits with zero keys). For a
/// padded side (`pad` > 1) `counts` receives the number of keys per bucket,
/// for the unpadded side `zeros` the number of zero keys per bucket.
template <class T>
void bucket(const u64* keys, std::size_t count, int width, int bits, Scratch& s, std::vector<T>& out,
            std::vector<u32>& offsets, std::size_t pad, std::vector<u32>& counts, std::vector<u32>& zeros,
            const std::uint16_t* lams, std::vector<std::uint16_t>* lams_out, std::vector<u32>* ties) {
  const std::size_t buckets = std::size_t{1} << bits;
  const int low = width - bits;
  const u64 low_mask = low >= 64 ? ~u64{0} : (u64{1} << low) - 1;
  offsets.assign(buckets + 1, 0);
  grow_to(s.index, count);
  for (std::size_t i = 0; i < count; ++i) {
    const u32 b = bits == 0 ? 0 : static_cast<u32>(keys[i] >> low);
    s.index[i] = b;
    ++offsets[b + 1];
  }
  // Buffers only grow: the scatter writes every key slot, and only the
  // padding slots are filled apart (a full fill per group cost about a
  // tenth of the run at N = 20).
  if (pad > 1) {
    counts.assign(offsets.begin() + 1, offsets.end());
    for (std::size_t b = 1; b <= buckets; ++b) offsets[b] = static_cast<u32>((offsets[b] + pad - 1) / pad * pad);
  }
  for (std::size_t b = 0; b < buckets; ++b) offsets[b + 1] += offsets[b];
  s.position.assign(offsets.begin(), offsets.end() - 1);
  grow_to(out, offsets[buckets] + kReadPast);
  if (pad > 1)
    for (std::size_t b = 0; b < buckets; ++b)
      std::fill(out.begin() + offsets[b] + counts[b], out.begin() + offsets[b + 1], static_cast<T>(~T{0}));
  if (pad == 1) zeros.assign(buckets, 0);  // zero keys matter on the unpadded side only
  if (lams != nullptr) {
    // the input holds its ties last, so the stable scatter keeps them last
    // in every bucket
    grow_to(*lams_out, offsets[buckets]);
    ties->assign(buckets, 0);
  }
  std::uint16_t* lo = lams != nullptr ? lams_out->data() : nullptr;
  const ScatterArgs<T> a{keys, count, low_mask, s.index.data(), s.position.data(), out.data(), lams, lo, zeros.data()};
  if (lams != nullptr)
    pad == 1 ? scatter<T, true, true>(a) : scatter<T, true, false>(a);
  else
    pad == 1 ? scatter<T, false, true>(a) : scatter<T, false, false>(a);
  if (lams != nullptr)  // the ties, the input's last keys
    for (std::size_t i = count; i > 0 && (lams[i - 1] & kTie) != 0; --i) ++(*ties)[s.index[i - 1]];
}

template void bucket<u32>(const u64*, std::size_t, int, int, Scratch&, std::vector<u32>&, std::vector<u32>&,
                          std::size_t, std::vector<u32>&, std::vector<u32>&, const std::uint16_t*,
                          std::vector<std::uint16_t>*, std::vector<u32>*);
template void bucket<u64>(const u64*, std::size_t, int, int, Scratch&, std::vector<u64>&, std::vector<u32>&,
                          std::size_t, std::vector<u32>&, std::vector<u32>&, const std::uint16_t*,
                          std::vector<std::uint16_t>*, std::vector<u32>*);

}  // namespace pcount::queens::join_detail
