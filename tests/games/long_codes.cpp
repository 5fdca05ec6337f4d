// Code games (long): the optimal strategies by exact branch and bound —
// Mastermind 5625 guesses over 1296 secrets (Koyama & Lai 1993), with 1
// and 2 threads; bulls and cows 26274 over 5040 (Tanaka 1996), the whole
// proof (tens of minutes on 2 cores; results/games.md).
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

TEST(CodesLong, BullsAndCowsOptimalIs26274) {
  engine::RunOptions o;
  o.threads = 0;  // every core
  const Summary s = summarize(engine::run(make_strategy_job(Game::bulls_and_cows, Strategy::optimal, 1), o).totals);
  EXPECT_EQ(s.secrets, 5040u);
  EXPECT_EQ(s.guesses, 26274u);
}

}  // namespace
}  // namespace pcount::games::codes
