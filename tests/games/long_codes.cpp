// Code games (long): the optimal strategies by exact branch and bound —
// Mastermind 5625 guesses over 1296 secrets (Koyama & Lai 1993), with 1
// and 2 threads; bulls and cows 26274 over 5040 (Tanaka 1996), the whole
// proof (tens of minutes on 2 cores; results/games.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "games/codes_optimal.hpp"
#include "pcount/games/code_strategy.hpp"
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

// The same proof split by (first answer, second guess), bounded by the
// shipped tree's class totals (data/games): 26274 (Tanaka 1996), at least
// 7 guesses for some secret (no strategy wins within 6), and the strategy
// it counts, written out as a tree, re-evaluates to its histogram. Tens of
// minutes on 2 cores (results/games.md).
TEST(CodesLong, BullsAndCowsSplitProofIs26274) {
  const CodeSet& cs = code_set(Game::bulls_and_cows);
  std::ifstream in(std::string(PCOUNT_DATA_DIR) + "/games/bulls-and-cows-optimal.json");
  const StrategyTree tree = tree_from_json(cs, nlohmann::json::parse(in));
  const OptimalSplit split(Game::bulls_and_cows, OptimalSplit::bounds_from_tree(cs, *cs.find("0123"), tree));
  engine::RunOptions o;
  o.threads = 0;
  auto trees = std::make_shared<OptimalTrees>();
  const OptimalSplit::Result r = split.result(engine::run(split.job(trees), o).totals);
  EXPECT_EQ(r.summary.secrets, 5040u);
  EXPECT_EQ(r.summary.guesses, 26274u);
  EXPECT_GE(r.summary.max_guesses, 7);
  const auto solved = evaluate_tree(cs, trees->assemble(r.chosen));
  EXPECT_EQ(std::vector<std::uint64_t>(solved.begin() + 1, solved.end()), r.summary.histogram);
}

// No bulls-and-cows strategy solves every secret within 6 guesses: after
// 0123 (every first guess is equivalent) the classes 0 bulls 2 cows (1260
// secrets) and 0 bulls 1 cow (1440) each need 6 more guesses in the worst
// case (the depth-bounded search refutes every second guess up to
// symmetry); every other class needs at most 5. About a minute.
TEST(CodesLong, BullsAndCowsCannotAlwaysWinInSixGuesses) {
  const CodeSet& cs = code_set(Game::bulls_and_cows);
  const std::size_t first = *cs.find("0123");
  std::array<std::vector<std::uint16_t>, kAnswers> by_answer;
  for (std::size_t s = 0; s < cs.size(); ++s) by_answer[cs.answer(first, s)].push_back(static_cast<std::uint16_t>(s));
  int deepest = 0;
  for (std::size_t a = 0; a < by_answer.size(); ++a) {
    if (a == kSolved || by_answer[a].empty()) continue;
    const int d = optimal_class_depth(cs, first, by_answer[a]);
    if (a == 1 || a == 2) {  // 0 bulls 1 cow, 0 bulls 2 cows
      EXPECT_EQ(d, 6) << answer_name(static_cast<std::uint8_t>(a));
    } else {
      EXPECT_LE(d, 5) << answer_name(static_cast<std::uint8_t>(a));
    }
    deepest = std::max(deepest, d);
  }
  EXPECT_EQ(1 + deepest, 7);
}

// The whole worst-case job for bulls and cows: worst case 7 (see above) and,
// within 7 guesses, the unconstrained optimum 26274 (Tanaka 1996), whose
// strategy already needs at most 7. Runs the full optimal proof (tens of
// minutes on 2 cores; results/games.md).
TEST(CodesLong, BullsAndCowsWorstCaseIs7With26274Guesses) {
  engine::RunOptions o;
  o.threads = 0;
  const engine::RunResult r = engine::run(make_worst_case_job(Game::bulls_and_cows), o);
  for (int c = 1; c <= 5; ++c) EXPECT_GT(r.totals.get(worst_unsolvable(0, c)), 0u) << c;
  EXPECT_EQ(r.totals.get(worst_unsolvable(0, 6)), 0u);
  EXPECT_EQ(static_cast<std::uint64_t>(r.totals.get(worst_guesses(0, 6))) + 5040, 26274u);
}

}  // namespace
}  // namespace pcount::games::codes
