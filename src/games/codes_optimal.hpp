#pragma once
// Internal: the optimal-strategy job (src/games/codes_optimal.cpp), used by
// make_strategy_job.
#include <string>

#include "pcount/engine/task.hpp"
#include "pcount/games/codes.hpp"

namespace pcount::games::codes {

/// The fixed first guess of the optimal strategy: 0123 (bulls and cows, all
/// first guesses are equivalent) or 1123 (Mastermind, Koyama & Lai 1993).
[[nodiscard]] std::string optimal_first_guess(Game game);

/// optimal_total for an answer class `cls` of the single guess `first`,
/// also using the symmetries that fix `first` (positions permuted together
/// with its digits) at the class's root.
[[nodiscard]] OptimalSearch optimal_class_total(const CodeSet& codes, std::size_t first,
                                                std::span<const std::uint16_t> cls, std::uint64_t node_limit);

/// Number of root candidates optimal_class_total tries after `first`.
[[nodiscard]] std::size_t count_root_candidates(const CodeSet& codes, std::size_t first);

/// One task per answer class of the first guess; each runs the exact branch
/// and bound on its class, then plays the optimal strategy it found.
[[nodiscard]] engine::Job make_optimal_job(Game game);

}  // namespace pcount::games::codes
