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

/// One task per answer class of the first guess; each runs the exact branch
/// and bound on its class, then plays the optimal strategy it found.
[[nodiscard]] engine::Job make_optimal_job(Game game);

}  // namespace pcount::games::codes
