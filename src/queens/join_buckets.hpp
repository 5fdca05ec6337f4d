#pragma once
// Internal to the queens join (src/queens/join*.cpp): the order of the key
// bits (KeyOrder), the per-worker buffers (Scratch) and the sorting of one
// group's keys into buckets by their most contested bits.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pcount::queens::join_detail {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

/// A permutation of the 2n key bits that puts the boundary squares most
/// often held by both a top and a bottom key at the top: the i-th most
/// contested goes to bit 2n − 1 − i, the others keep their order below.
/// Sorting keys into 2^b buckets by their first b contested bits is then a
/// shift, and the bits still to test after bucketing are the low 2n − b
/// bits (at most 32 for n ≤ 22 once b = 12, so 16 keys fit one vector).
struct KeyOrder {
  std::array<std::array<u64, 256>, 8> table{};
  int width = 0;      ///< 2n key bits
  int contested = 0;  ///< how many bits are ordered at the top (at most 16)

  explicit KeyOrder(int n) : width(2 * n) {
    // Both families are attacked most often near the centre column
    // (n − 1)/2 (measured bit by bit at N = 16 and 18): the ↙ family from
    // ⌈(n−1)/2⌉ outwards, the ↘ family from ⌊(n−1)/2⌋ outwards, in turn.
    std::vector<int> order;  // key bits, most contested first
    const int up = n / 2, down = (n - 1) / 2;
    for (int d = 0; d < 2 * n && order.size() < 16; ++d) {
      const int step = (d + 1) / 2, sign = d % 2 == 0 ? 1 : -1;  // offsets 0, -1, +1, -2, +2, ...
      const int c1 = up - sign * step, c2 = down + sign * step;
      if (c1 >= 0 && c1 < n) order.push_back(c1);                           // top ↙ family: key bits 0..n-1
      if (c2 >= 0 && c2 < n && order.size() < 16) order.push_back(n + c2);  // top ↘ family: key bits n..2n-1
    }
    contested = static_cast<int>(order.size());
    std::vector<int> destination(static_cast<std::size_t>(width), -1);
    for (int k = 0; k < contested; ++k)
      destination[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] = width - 1 - k;
    int next = 0;
    for (int b = 0; b < width; ++b)
      if (destination[static_cast<std::size_t>(b)] < 0) destination[static_cast<std::size_t>(b)] = next++;
    for (int b = 0; b < width; ++b)
      for (int v = 0; v < 256; ++v)
        if ((v >> (b % 8)) & 1)
          table[static_cast<std::size_t>(b / 8)][static_cast<std::size_t>(v)] |=
              u64{1} << destination[static_cast<std::size_t>(b)];
  }
  [[nodiscard]] u64 operator()(u64 key) const {
    // unrolled for the key widths of the join's usual n (a loop over the
    // bytes was measured slower)
    switch ((width + 7) / 8) {
      case 4:
        return bytes<4>(key);
      case 5:
        return bytes<5>(key);
      case 6:
        return bytes<6>(key);
      default:
        return bytes<8>(key);
    }
  }
  template <std::size_t B>
  [[nodiscard]] u64 bytes(u64 key) const {
    u64 r = 0;
    for (std::size_t i = 0; i < B; ++i) r |= table[i][(key >> (8 * i)) & 255u];
    return r;
  }
};

/// Makes `v` hold at least `n` elements. Buffers only grow: a shrink and
/// a regrowth would zero the regrown part on every task (std::vector
/// value-initialises), which cost a few per cent at N = 20.
template <class V>
void grow_to(V& v, std::size_t n) {
  if (v.size() < n) v.resize(n);
}

/// Per-worker buffers, kept between tasks (their capacity is the worker's
/// share of the job's memory).
struct Scratch {
  std::vector<u64> top_sorted, bottom_sorted;      ///< one group's keys sorted into buckets (64-bit)
  std::vector<u32> top_sorted32, bottom_sorted32;  ///< the same when the untested bits fit 32
  std::vector<u32> top_offsets, bottom_offsets, top_counts, bottom_counts, top_zeros, bottom_zeros, index, position;
  std::vector<std::uint16_t> top_bucket_lams, bottom_bucket_lams;  ///< the same for one group's buckets
  std::vector<u32> top_ties, bottom_ties;                          ///< ties per bucket (the last keys of each)
};

/// Keys a bucketed array holds past its last bucket, so that key_fit_mask
/// may read whole vectors past the end of a range.
constexpr std::size_t kReadPast = 8;

/// Sorts `keys` (already reordered by KeyOrder, `width` bits) into 2^bits
/// buckets by their top `bits` bits, keeping the other bits as T; each bucket is filled up to a
/// multiple of `pad` with all-ones keys (they meet every nonzero key of the
/// other side; the join takes back their fits with zero keys). For a
/// padded side (`pad` > 1) `counts` receives the number of keys per bucket,
/// for the unpadded side `zeros` the number of zero keys per bucket.
template <class T>
void bucket(const u64* keys, std::size_t count, int width, int bits, Scratch& s, std::vector<T>& out,
            std::vector<u32>& offsets, std::size_t pad, std::vector<u32>& counts, std::vector<u32>& zeros,
            const std::uint16_t* lams = nullptr, std::vector<std::uint16_t>* lams_out = nullptr,
            std::vector<u32>* ties = nullptr);

extern template void bucket<u32>(const u64*, std::size_t, int, int, Scratch&, std::vector<u32>&, std::vector<u32>&,
                                 std::size_t, std::vector<u32>&, std::vector<u32>&, const std::uint16_t*,
                                 std::vector<std::uint16_t>*, std::vector<u32>*);
extern template void bucket<u64>(const u64*, std::size_t, int, int, Scratch&, std::vector<u64>&, std::vector<u32>&,
                                 std::size_t, std::vector<u32>&, std::vector<u32>&, const std::uint16_t*,
                                 std::vector<std::uint16_t>*, std::vector<u32>*);

}  // namespace pcount::queens::join_detail
