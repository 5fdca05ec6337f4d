// Code games (long): the optimal Mastermind strategy by exact branch and
// bound — 5625 guesses over 1296 secrets (Koyama & Lai 1993) — with 1 and
// 2 threads.
#include <gtest/gtest.h>

#include "pcount/engine/runner.hpp"
#include "pcount/games/codes.hpp"

namespace pcount::games::codes {
namespace {

TEST(CodesLong, MastermindOptimalIs5625) {
  for (int threads : {1, 2}) {
    engine::RunOptions o;
    o.threads = threads;
    const Summary s = summarize(engine::run(make_strategy_job(Game::mastermind, Strategy::optimal, 1), o).totals);
    EXPECT_EQ(s.secrets, 1296u);
    EXPECT_EQ(s.guesses, 5625u);
    EXPECT_LE(s.max_guesses, 6);
  }
}

}  // namespace
}  // namespace pcount::games::codes
