#pragma once
// Internal to the queens join (src/queens/join*.cpp): the join of one
// group, the number of disjoint (top, bottom) key pairs, vectorised.
#include <cstddef>
#include <cstdint>

#include "join_buckets.hpp"
#include "join_weights.hpp"
#include "pcount/engine/simd.hpp"

namespace pcount::queens::join_detail {

/// Number of pairs (x in top, y in bottom) with x & y == 0: both sides
/// sorted into buckets by their most contested bits, only bucket pairs that
/// avoid each other on those bits tested, 16 keys per vector where the
/// remaining bits fit 32.
u64 count_disjoint(const u64* top, std::size_t nt, const u64* bottom, std::size_t nb, const KeyOrder& order, Scratch& s,
                   u64& tests, bool wide = false, const Weighting* w = nullptr, u64* shortfall = nullptr,
                   engine::SimdPath path = engine::simd_path());

}  // namespace pcount::queens::join_detail
