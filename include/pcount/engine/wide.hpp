#pragma once
/// @file
/// Counts wider than 128 bits in a job's counters. A value is added as
/// base-2^64 limbs to `limbs` consecutive counters: counter first + j gets
/// bits 64j … 64j + 63 of the value, and the last counter gets every bit
/// from 64·(limbs − 1) up. Each counter is a checked u128, so 2^64 additions
/// fit in the low counters before any of them could overflow, and
/// checkpoints, shards and `count merge` carry the limbs as they carry any
/// counter. The total is read back as Σ counters[first + j]·2^(64j).
/// Used where a labelled total passes 2^128: L(11) ≈ 7.8·10⁴⁷ (McKay &
/// Wanless 2005) and the 2×C sudoku bands' weighted B².

#include <cstddef>
#include <string>
#include <vector>

#include "pcount/bigint.hpp"
#include "pcount/engine/task.hpp"

namespace pcount::engine {

/// The counter names of a wide count: {name} for one limb, else
/// "<name>, bits 0-63", "<name>, bits 64-127", … (limbs ≥ 1).
[[nodiscard]] std::vector<std::string> wide_counter_names(const std::string& name, std::size_t limbs);

/// Adds `value` to counters first … first + limbs − 1 of `tally` as limbs
/// (see the file comment). Throws CountOverflow when `value` is negative,
/// when its top limb is 2^128 or more, or when a counter overflows.
void add_wide(Tally& tally, std::size_t first, std::size_t limbs, const BigInt& value);

/// Σ_j tally.get(first + j)·2^(64j) over j < limbs.
[[nodiscard]] BigInt wide_total(const Tally& tally, std::size_t first, std::size_t limbs);

}  // namespace pcount::engine
