#pragma once
// Internal to the queens join (src/queens/join*.cpp): a task's halves as
// parts (the upper and the lower rows, listed once per task by column set)
// and one group's half placements built from them.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "join_buckets.hpp"
#include "join_halves.hpp"
#include "join_weights.hpp"

namespace pcount::queens::join_detail {

/// The placements of rows [first, last) of a half (rows counted from the
/// half's own edge), grouped by column set. A half placement is an upper
/// part (rows 0..h−1) and a lower part (rows h..a−1) with disjoint column
/// sets whose diagonals do not meet; both parts' diagonals are projected
/// onto row h, where two queens on one diagonal would both leave a bit
/// (the board is convex), so the parts fit when their `meet` words are
/// disjoint. The half placement's key and λ are the ORs of its parts'
/// (KeyOrder moves single bits, so the parts' keys are reordered already).
struct PartList {
  std::vector<u32> sets;   ///< the distinct column sets
  std::vector<u32> first;  ///< the placements with column set sets[i]: first[i] .. first[i+1]
  std::vector<u64> meet;   ///< its diagonals on row h: ↘ family in bits 0..n−1, ↙ in n..2n−1
  std::vector<u64> key;    ///< its share of the half's diagonal key, reordered by KeyOrder
  std::vector<u32> lam;    ///< its share of λ
  std::vector<u32> slots;  ///< open addressing: 1 + the index in `sets` of a set hashed there, 0 for none
  int slot_bits = 0;

  [[nodiscard]] std::size_t slot(u32 set) const {
    return static_cast<std::size_t>((u64{set} * 0x9e3779b97f4a7c15ull) >> (64 - slot_bits));
  }
  /// Makes the hash table of `sets` (at most half full).
  void index() {
    slot_bits = std::max(4, static_cast<int>(std::bit_width(sets.size())) + 1);
    slots.assign(std::size_t{1} << slot_bits, 0);
    const std::size_t mask = slots.size() - 1;
    for (std::size_t i = 0; i < sets.size(); ++i) {
      std::size_t at = slot(sets[i]);
      while (slots[at] != 0) at = (at + 1) & mask;
      slots[at] = static_cast<u32>(i + 1);
    }
  }
  /// The placements with column set `set`: {begin, end}, empty when none.
  [[nodiscard]] std::pair<u32, u32> range(u32 set) const {
    const std::size_t mask = slots.size() - 1;
    for (std::size_t at = slot(set);; at = (at + 1) & mask) {
      const u32 i = slots[at];
      if (i == 0) return {0, 0};
      if (sets[i - 1] == set) return {first[i - 1], first[i]};
    }
  }
};

/// PartBuilder's buffers, kept by each worker between tasks (a builder
/// per task would grow them from empty every time).
struct PartBuffers {
  std::vector<u64> item, spare;  ///< column set << 32 | walk index
  std::vector<u64> meet, key;
  std::vector<u32> lam;
};

/// The parts of one upper column set and of its complement in the lower
/// rows: upper [u0, u1), lower [v0, v1).
struct PartPair {
  u32 u0, u1, v0, v1;
};

/// A group's half placements, as count_disjoint and Weighting take them:
/// the keys kept (clear ones first, then the ties) and their λ (kTie set
/// on the ties).
struct GroupSide {
  std::vector<u64> keys, tie_keys;
  std::vector<std::uint16_t> lams, tie_lams;
  u32 count = 0;
  std::vector<PartPair> pairs;  ///< build_group's work list
};

/// Per worker: the parts of the task's two halves and one group's half
/// placements of each.
struct Parts {
  PartList top_upper, top_lower, bottom_upper, bottom_lower;
  GroupSide top, bottom;
  PartBuffers buffers;  ///< PartBuilder's
};

/// Lists the parts of `half` (h upper rows) into `upper` (rows 0..h−1) and
/// `lower` (rows h..a−1), each by column set, their keys reordered by `order`.
void build_parts(const Half& half, const KeyOrder& order, int h, PartBuffers& buffers, PartList& upper,
                 PartList& lower);

/// Fills `side` with the half placements of column set `columns` (upper
/// and lower parts with complementary column sets, h upper rows) that
/// group plan `p` keeps (DiagonalOrder: weighted groups drop those with
/// min(λ, ~λ) below the threshold). The upper part holds λ's high h bits,
/// which decide the comparison unless they tie with the threshold's.
/// The (upper, lower) column-set pairs are looked up first, so that the
/// next pair's lower parts are fetched while this pair's are joined.
void build_group(const PartList& upper, const PartList& lower, u32 columns, int rows, int h, const GroupPlan& p,
                 GroupSide& side);

}  // namespace pcount::queens::join_detail
