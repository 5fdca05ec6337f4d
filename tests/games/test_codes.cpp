// Bulls and cows and Mastermind: strategy histograms against the known
// values (docs/sources.md), per-secret play as a second method, every split
// depth and thread count, and the CLI.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>
#include <map>
#include <nlohmann/json.hpp>

#include "pcount/errors.hpp"
#include "pcount/engine/runner.hpp"
#include "games/codes_optimal.hpp"
#include "pcount/games/code_strategy.hpp"
#include "pcount/games/codes.hpp"
#include "support/run_command.hpp"
#include "support/shard_files.hpp"
#include "support/until_stolen.hpp"

namespace pcount::games::codes {
namespace {

Summary run(Game game, Strategy strategy, int depth, int threads) {
  engine::RunOptions o;
  o.threads = threads;
  return summarize(engine::run(make_strategy_job(game, strategy, depth), o).totals);
}

std::vector<std::uint64_t> per_secret_histogram(Game game, Strategy strategy) {
  const CodeSet& cs = code_set(game);
  std::vector<std::uint64_t> h;
  for (std::size_t s = 0; s < cs.size(); ++s) {
    const auto k = static_cast<std::size_t>(play(cs, strategy, s));
    if (h.size() < k) h.resize(k);
    ++h[k - 1];
  }
  return h;
}

/// Per-secret play like play(), but with the strategy's choices cached by
/// the answers so far (Knuth's minimax is too slow to redo for every secret).
std::vector<std::uint64_t> per_secret_histogram_cached(Game game, Strategy strategy) {
  const CodeSet& cs = code_set(game);
  std::map<std::string, std::size_t> cache;  // answers so far, one char each
  std::vector<std::uint64_t> h;
  for (std::size_t secret = 0; secret < cs.size(); ++secret) {
    std::vector<std::uint16_t> consistent(cs.size());
    for (std::size_t i = 0; i < cs.size(); ++i) consistent[i] = static_cast<std::uint16_t>(i);
    std::string answers;
    for (;;) {
      auto [it, fresh] = cache.try_emplace(answers, 0);
      if (fresh) it->second = next_guess(cs, strategy, consistent, static_cast<int>(answers.size()));
      const std::size_t guess = it->second;
      const std::uint8_t a = cs.answer(guess, secret);
      answers.push_back(static_cast<char>('a' + a));
      if (a == kSolved) break;
      std::erase_if(consistent, [&](std::uint16_t c) { return cs.answer(guess, c) != a; });
    }
    if (h.size() < answers.size()) h.resize(answers.size());
    ++h[answers.size() - 1];
  }
  return h;
}

TEST(Codes, CodeSetsAndAnswers) {
  const CodeSet& bc = code_set(Game::bulls_and_cows);
  ASSERT_EQ(bc.size(), 5040u);
  EXPECT_EQ(bc.name(0), "0123");
  EXPECT_EQ(bc.name(5039), "9876");
  EXPECT_EQ(bc.find("0123"), 0u);
  EXPECT_FALSE(bc.find("0012").has_value());
  EXPECT_FALSE(bc.find("123").has_value());
  auto answer = [](const CodeSet& cs, const char* g, const char* s) { return cs.answer(*cs.find(g), *cs.find(s)); };
  EXPECT_EQ(answer(bc, "0123", "0132"), 5 * 2 + 2);
  EXPECT_EQ(answer(bc, "0123", "4567"), 0);
  EXPECT_EQ(answer(bc, "0123", "3210"), 4);
  EXPECT_EQ(answer(bc, "9876", "9876"), kSolved);
  const CodeSet& mm = code_set(Game::mastermind);
  ASSERT_EQ(mm.size(), 1296u);
  EXPECT_EQ(mm.name(0), "1111");
  EXPECT_EQ(mm.name(1295), "6666");
  EXPECT_EQ(answer(mm, "1122", "1212"), 5 * 2 + 2);
  EXPECT_EQ(answer(mm, "1111", "1222"), 5 * 1);
  EXPECT_EQ(answer(mm, "1122", "2211"), 4);
  EXPECT_EQ(answer(mm, "1123", "3111"), 5 * 1 + 2);  // one 1 in place; a 1 and the 3 elsewhere
  for (std::size_t g = 0; g < mm.size(); g += 37)
    for (std::size_t s = 0; s < mm.size(); s += 11) EXPECT_EQ(mm.answer(g, s), mm.answer(s, g));
}

TEST(Codes, BullsAndCowsFirstConsistentKnownHistogram) {
  const std::vector<std::uint64_t> expected{1, 13, 108, 596, 1668, 1768, 752, 129, 5};
  for (int depth = 0; depth <= 3; ++depth)
    for (int threads : {1, 2, 4}) {
      const Summary s = run(Game::bulls_and_cows, Strategy::first_consistent, depth, threads);
      EXPECT_EQ(s.secrets, 5040u);
      EXPECT_EQ(s.guesses, 28024u);
      EXPECT_EQ(s.max_guesses, 9);
      EXPECT_EQ(s.histogram, expected) << "depth " << depth << " threads " << threads;
    }
  EXPECT_EQ(per_secret_histogram(Game::bulls_and_cows, Strategy::first_consistent), expected);
  // The seed's five secrets that need nine guesses.
  const CodeSet& bc = code_set(Game::bulls_and_cows);
  for (const char* secret : {"9431", "9241", "5293", "9204", "9214"})
    EXPECT_EQ(play(bc, Strategy::first_consistent, *bc.find(secret)), 9) << secret;
}

// Knuth, "The computer as master mind", J. Recreational Mathematics 9
// (1976-77): 5801 guesses over the 1296 secrets (4.476 on average), never
// more than 5.
TEST(Codes, MastermindKnuthKnownHistogram) {
  const std::vector<std::uint64_t> expected{1, 6, 62, 533, 694};
  for (int depth = 0; depth <= 2; ++depth)
    for (int threads : {1, 2, 4}) {
      const Summary s = run(Game::mastermind, Strategy::knuth, depth, threads);
      EXPECT_EQ(s.secrets, 1296u);
      EXPECT_EQ(s.guesses, 5801u);
      EXPECT_EQ(s.max_guesses, 5);
      EXPECT_EQ(s.histogram, expected) << "depth " << depth << " threads " << threads;
    }
  EXPECT_EQ(per_secret_histogram_cached(Game::mastermind, Strategy::knuth), expected);
  const CodeSet& mm = code_set(Game::mastermind);
  EXPECT_EQ(play(mm, Strategy::knuth, *mm.find("1122")), 1);
  EXPECT_LE(play(mm, Strategy::knuth, *mm.find("6543")), 5);
}

TEST(Codes, MastermindFirstConsistentMatchesPerSecretPlay) {
  const Summary s = run(Game::mastermind, Strategy::first_consistent, 1, 2);
  EXPECT_EQ(s.secrets, 1296u);
  EXPECT_EQ(s.guesses, 7471u);  // average 5.765, the "simple strategy" figure in the literature
  EXPECT_EQ(s.histogram, per_secret_histogram(Game::mastermind, Strategy::first_consistent));
  EXPECT_EQ(run(Game::mastermind, Strategy::first_consistent, 3, 4).histogram, s.histogram);
}

TEST(Codes, BadSplitDepthAndInconsistentTotals) {
  EXPECT_THROW((void)make_strategy_job(Game::mastermind, Strategy::knuth, -1), InvalidArgument);
  EXPECT_THROW((void)make_strategy_job(Game::mastermind, Strategy::knuth, 4), InvalidArgument);
  engine::Tally t(kStrategyCounters);
  t.counts[kSecrets] = 2;
  t.counts[kGuesses] = 3;
  t.counts[solved_in(1)] = 1;  // one secret in one guess: does not add up
  EXPECT_THROW((void)summarize(t), InternalError);
  t.counts[solved_in(2)] = 1;  // one in one guess, one in two
  EXPECT_NO_THROW((void)summarize(t));
  t.add(kStrategyCounters, 1);  // a counter the job does not have
  EXPECT_THROW((void)summarize(t), InternalError);
}

// The histogram is plain named counters (26 of them, more than the engine's
// old limit of 8), one per game length; a task's tally holds them all.
TEST(Codes, HistogramCountersAreNamedOnePerGameLength) {
  const engine::Job job = make_strategy_job(Game::mastermind, Strategy::first_consistent, 1);
  ASSERT_EQ(job.counter_names.size(), kStrategyCounters);
  EXPECT_EQ(kStrategyCounters, 26u);
  EXPECT_EQ(job.counter_names[kSecrets], "secrets");
  EXPECT_EQ(job.counter_names[kGuesses], "guesses");
  EXPECT_EQ(job.counter_names[solved_in(1)], "solved_in_1");
  EXPECT_EQ(job.counter_names[solved_in(kMaxGuesses)], "solved_in_24");
  engine::RunOptions o;
  o.threads = 2;
  const engine::Tally totals = engine::run(make_strategy_job(Game::bulls_and_cows, Strategy::first_consistent, 2), o).totals;
  ASSERT_EQ(totals.counts.size(), kStrategyCounters);
  // The seed 001 histogram, straight from the counters.
  const std::vector<std::uint64_t> expected{1, 13, 108, 596, 1668, 1768, 752, 129, 5};
  for (int k = 1; k <= kMaxGuesses; ++k)
    EXPECT_EQ(totals.counts[solved_in(k)], k <= 9 ? expected[static_cast<std::size_t>(k - 1)] : 0u) << k;
}

/// Minimum total by exhaustive search over every guess (no symmetry),
/// memoised by set: the reference for optimal_total. Its only pruning is
/// the trivial bound (a class of k secrets needs at least 2k - 1 guesses:
/// one secret per guess at best), so it stays independent of the solver's
/// bounds.
std::uint64_t brute_force(const CodeSet& cs, const std::vector<std::uint16_t>& set,
                          std::map<std::vector<std::uint16_t>, std::uint64_t>& memo) {
  if (set.size() == 1) return 1;
  if (auto it = memo.find(set); it != memo.end()) return it->second;
  std::vector<std::pair<std::uint64_t, std::size_t>> order;  // (trivial bound, guess)
  for (std::size_t g = 0; g < cs.size(); ++g) {
    std::array<std::uint64_t, kAnswers> count{};
    for (std::uint16_t s : set) ++count[cs.answer(g, s)];
    if (count[cs.solved()] == 0 && std::find(count.begin(), count.end(), set.size()) != count.end())
      continue;  // learns nothing
    std::uint64_t bound = set.size();
    for (std::size_t a = 0; a < count.size(); ++a)
      if (a != cs.solved() && count[a] > 0) bound += 2 * count[a] - 1;
    order.emplace_back(bound, g);
  }
  std::sort(order.begin(), order.end());
  std::uint64_t best = ~std::uint64_t{0};
  for (const auto& [bound, g] : order) {
    if (bound >= best) break;
    std::array<std::vector<std::uint16_t>, kAnswers> classes;
    for (std::uint16_t s : set) classes[cs.answer(g, s)].push_back(s);
    std::uint64_t total = bound;  // each class's 2k - 1 replaced by its minimum
    for (std::size_t a = 0; a < classes.size() && total < best; ++a)
      if (a != cs.solved() && !classes[a].empty())
        total += brute_force(cs, classes[a], memo) - (2 * classes[a].size() - 1);
    best = std::min(best, total);
  }
  memo.emplace(set, best);
  return best;
}

std::vector<std::uint16_t> answer_class(const CodeSet& cs, const char* guess, int bulls, int cows) {
  std::vector<std::uint16_t> out;
  for (std::size_t s = 0; s < cs.size(); ++s)
    if (cs.answer(*cs.find(guess), s) == 5 * bulls + cows) out.push_back(static_cast<std::uint16_t>(s));
  return out;
}

TEST(CodesOptimal, BranchAndBoundMatchesExhaustiveSearchOnSmallSets) {
  struct Case {
    Game game;
    const char* first;
    int bulls, cows;
    std::size_t size;
  };
  const std::vector<Case> cases = {
      {Game::mastermind, "1123", 2, 2, 5},     {Game::mastermind, "1123", 1, 3, 4},
      {Game::bulls_and_cows, "0123", 2, 2, 6}, {Game::bulls_and_cows, "0123", 1, 3, 8},
      {Game::bulls_and_cows, "0123", 0, 4, 9},
  };
  for (const Case& c : cases) {
    const CodeSet& cs = code_set(c.game);
    const auto set = answer_class(cs, c.first, c.bulls, c.cows);
    ASSERT_EQ(set.size(), c.size);
    unsigned used = 0;
    for (char d : std::string(c.first)) used |= 1u << (d - '0');
    const OptimalSearch r = optimal_total(cs, set, used, 100'000'000);
    const OptimalSearch rc = optimal_class_total(cs, *cs.find(c.first), set, 100'000'000);
    std::map<std::vector<std::uint16_t>, std::uint64_t> memo;
    ASSERT_TRUE(r.total.has_value());
    ASSERT_TRUE(rc.total.has_value());
    const std::uint64_t exhaustive = brute_force(cs, set, memo);
    EXPECT_EQ(*r.total, exhaustive) << c.first << " " << c.bulls << "B" << c.cows << "C";
    EXPECT_EQ(*rc.total, exhaustive) << c.first << " " << c.bulls << "B" << c.cows << "C";
    EXPECT_EQ(r.lower_bound, *r.total);
  }
  // Guesses tried at a class's root, one per orbit of the symmetries fixing
  // the first guess and the class: 0123 is fixed by S4 (positions with their
  // digits) × S6 (the other digits), which has 20 orbits on the 5040 codes
  // (how many of 0-3 a code has, which of them sit at their own place, ...);
  // the class 0 bulls 1 cow has no further symmetry. In the class 0 bulls
  // 0 cows the digits 0-3 occur nowhere, so they are interchangeable too:
  // a guess is then known by how many of them it uses, 0 to 4.
  const CodeSet& bc = code_set(Game::bulls_and_cows);
  EXPECT_EQ(count_root_candidates(bc, 0, 1), 20u);
  EXPECT_EQ(count_root_candidates(bc, 0, 0), 5u);
  // Out of nodes: only the trivial bound.
  const CodeSet& mm = code_set(Game::mastermind);
  const OptimalSearch cut = optimal_total(mm, answer_class(mm, "1123", 0, 0), 0b1110, 10);
  EXPECT_FALSE(cut.total.has_value());
  EXPECT_GT(cut.lower_bound, 81u);
  EXPECT_THROW((void)optimal_total(mm, {}, 0, 10), InvalidArgument);
  EXPECT_THROW((void)make_strategy_job(Game::mastermind, Strategy::optimal, 2), InvalidArgument);
}

// Whole reduced games solved by the branch and bound (digit classes, history
// symmetry, bounds, memo) and by the exhaustive minimax above (every guess
// at every node, no symmetry, no bound): the same minimum, and the strategy
// tree the job's solver plays reaches it.
TEST(CodesOptimal, ReducedGamesMatchExhaustiveSearch) {
  struct Case {
    Game game;
    int positions, symbols;
  };
  const std::vector<Case> cases = {
      {Game::bulls_and_cows, 3, 6}, {Game::bulls_and_cows, 2, 10}, {Game::mastermind, 3, 4},
      {Game::mastermind, 2, 6},     {Game::mastermind, 4, 3},
  };
  for (const Case& c : cases) {
    const CodeSet cs(c.game, c.positions, c.symbols);
    std::vector<std::uint16_t> all(cs.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint16_t>(i);
    std::map<std::vector<std::uint16_t>, std::uint64_t> memo;
    const std::uint64_t exhaustive = brute_force(cs, all, memo);
    const OptimalSearch r = optimal_total(cs, all, 0, ~std::uint64_t{0});
    ASSERT_TRUE(r.total.has_value());
    EXPECT_EQ(*r.total, exhaustive) << c.positions << " of " << c.symbols;
  }

}

/// A strategy's total over `set` (secrets still possible after `made`
/// guesses): always guess the first consistent code. Written here, so the
/// split job's bounds below come from a strategy the solver never saw.
std::uint64_t first_consistent_total(const CodeSet& cs, const std::vector<std::uint16_t>& set) {
  const std::size_t g = set.front();
  std::uint64_t total = set.size();
  std::array<std::vector<std::uint16_t>, kAnswers> classes;
  for (std::uint16_t s : set) classes[cs.answer(g, s)].push_back(s);
  for (std::size_t a = 0; a < classes.size(); ++a)
    if (a != cs.solved() && !classes[a].empty()) total += first_consistent_total(cs, classes[a]);
  return total;
}

/// Runs a split job on `threads` threads, or as `shards` shards (tasks
/// id ≡ s mod shards) whose totals are merged, and reads its result.
OptimalSplit::Result run_split(const OptimalSplit& split, int threads, int shards,
                               std::shared_ptr<OptimalTrees> trees = nullptr) {
  const engine::Job job = split.job(trees);
  engine::Tally totals(job.counter_names.size());
  for (int s = 0; s < shards; ++s) {
    engine::RunOptions o;
    o.threads = threads;
    o.include = [s, shards](std::size_t id) { return id % static_cast<std::size_t>(shards) == static_cast<std::size_t>(s); };
    totals.merge(engine::run(job, o).totals);
  }
  return split.result(totals);
}

// The optimal proof split into (answer class, second guess) tasks, each
// against a bound fixed before the run, on whole reduced games: for every
// first guess (one per orbit), the same optimum as the class job and as the
// exhaustive minimax above (class by class), with the bounds exact, loose
// (a first-consistent strategy's totals, computed here) or exact plus 3;
// on 1 and 2 threads and as 3 merged shards; the strategy it counts is a
// tree that re-evaluates to its histogram. A bound below the optimum is
// caught.
TEST(CodesOptimal, SplitJobMatchesClassJobAndExhaustiveMinimax) {
  struct Case {
    Game game;
    int positions, symbols;
  };
  const std::vector<Case> cases = {
      {Game::bulls_and_cows, 3, 6}, {Game::bulls_and_cows, 2, 10}, {Game::bulls_and_cows, 3, 5},
      {Game::mastermind, 3, 4},     {Game::mastermind, 2, 6},      {Game::mastermind, 4, 3},
  };
  for (const Case& c : cases) {
    const auto cs = std::make_shared<const CodeSet>(c.game, c.positions, c.symbols);
    const std::string name = std::to_string(c.positions) + " of " + std::to_string(c.symbols);
    std::vector<std::uint16_t> all(cs->size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint16_t>(i);
    std::map<std::vector<std::uint16_t>, std::uint64_t> memo;
    std::uint64_t least = ~std::uint64_t{0};
    for (std::size_t first : first_guess_orbits(*cs)) {
      const std::string where = name + " first " + cs->name(first);
      // The classes of `first` and their exhaustive optima.
      std::vector<std::uint64_t> exact, loose, plus3;
      std::uint64_t expected = cs->size();  // the first guess, for every secret
      for (std::uint8_t a = 0; a < kAnswers; ++a) {
        if (a == cs->solved()) continue;
        std::vector<std::uint16_t> cls;
        for (std::uint16_t s : all)
          if (cs->answer(first, s) == a) cls.push_back(s);
        if (cls.empty()) continue;
        exact.push_back(brute_force(*cs, cls, memo));
        loose.push_back(first_consistent_total(*cs, cls));
        plus3.push_back(exact.back() + 3);
        expected += exact.back();
      }
      least = std::min(least, expected);
      engine::RunOptions o;
      o.threads = 2;
      EXPECT_EQ(summarize(engine::run(make_optimal_job(cs, first), o).totals).guesses, expected) << where;
      for (const auto* bounds : {&exact, &loose, &plus3}) {
        const OptimalSplit split(cs, first, *bounds);
        EXPECT_EQ(split.class_count(), exact.size()) << where;
        for (auto [threads, shards] : {std::pair{1, 1}, std::pair{2, 1}, std::pair{2, 3}}) {
          auto trees = std::make_shared<OptimalTrees>();
          const OptimalSplit::Result r = run_split(split, threads, shards, trees);
          EXPECT_EQ(r.summary.guesses, expected) << where << " threads " << threads << " shards " << shards;
          EXPECT_EQ(r.summary.secrets, cs->size()) << where;
          EXPECT_EQ(r.totals, exact) << where;
          // The counted strategy, as a tree: the same histogram.
          const auto solved = evaluate_tree(*cs, trees->assemble(r.chosen));
          std::vector<std::uint64_t> histogram(solved.begin() + 1, solved.end());
          EXPECT_EQ(histogram, r.summary.histogram) << where;
        }
      }
      // The split is finer than the classes where a class has ≥ 3 secrets.
      const OptimalSplit split(cs, first, loose);
      if (*std::max_element(exact.begin(), exact.end()) > 3) {
        EXPECT_GT(split.task_count(), split.class_count()) << where;
      }
      // A bound one below a class's optimum: every task of it is cut.
      std::vector<std::uint64_t> low = exact;
      const std::size_t big = static_cast<std::size_t>(std::max_element(exact.begin(), exact.end()) - exact.begin());
      if (exact[big] > 3) {
        --low[big];
        EXPECT_THROW((void)run_split(OptimalSplit(cs, first, low), 2, 1), InvalidArgument) << where;
      }
      EXPECT_THROW(OptimalSplit(cs, first, std::vector<std::uint64_t>(exact.size() + 1, 100)), InvalidArgument);
    }
    std::map<std::vector<std::uint16_t>, std::uint64_t> whole_memo;
    EXPECT_EQ(least, brute_force(*cs, all, whole_memo)) << name;  // the best first guess is among the orbits
  }
}

// Incomplete totals (a task missing) are refused, not read as a cut.
TEST(CodesOptimal, SplitResultRefusesIncompleteTotals) {
  const auto cs = std::make_shared<const CodeSet>(Game::mastermind, 3, 4);
  const std::size_t first = *cs->find("112");
  std::vector<std::uint64_t> bounds;
  for (std::uint8_t a = 0; a < kAnswers; ++a) {
    if (a == cs->solved()) continue;
    std::vector<std::uint16_t> cls;
    for (std::size_t s = 0; s < cs->size(); ++s)
      if (cs->answer(first, s) == a) cls.push_back(static_cast<std::uint16_t>(s));
    if (!cls.empty()) bounds.push_back(first_consistent_total(*cs, cls));
  }
  const OptimalSplit split(cs, first, bounds);
  const engine::Job job = split.job();
  engine::RunOptions o;
  o.threads = 1;
  o.include = [](std::size_t id) { return id != 0; };
  const engine::Tally partial = engine::run(job, o).totals;
  EXPECT_THROW((void)split.result(partial), InternalError);
  o.include = nullptr;
  EXPECT_NO_THROW((void)split.result(engine::run(job, o).totals));
}

/// A job's run at `threads` threads under `split`.
engine::RunResult run_policy(const engine::Job& job, int threads, engine::SplitPolicy split) {
  engine::RunOptions o;
  o.threads = threads;
  o.split = split;
  return engine::run(job, o);
}

// The strategy walk gives parts of its task away (engine/split.hpp): the
// same tallies (histogram and nodes) as the static run at 1, 2 and 4
// threads, with a part always on offer or only while a worker idles, at
// split depth 0 (one task) and 1.
TEST(Codes, StrategyWalkPartsCountTheSame) {
  const std::vector<std::pair<Game, Strategy>> cases = {{Game::mastermind, Strategy::knuth},
                                                        {Game::mastermind, Strategy::first_consistent},
                                                        {Game::bulls_and_cows, Strategy::first_consistent}};
  for (const auto& [game, strategy] : cases)
    for (int depth : {0, 1}) {
      const engine::Job job = make_strategy_job(game, strategy, depth);
      EXPECT_TRUE(job.splits);
      const engine::RunResult reference = run_policy(job, 1, engine::SplitPolicy::none);
      for (int threads : {1, 2, 4})
        for (engine::SplitPolicy split : {engine::SplitPolicy::idle, engine::SplitPolicy::always}) {
          const engine::RunResult r = run_policy(job, threads, split);
          EXPECT_EQ(r.totals, reference.totals)
              << "depth " << depth << " threads " << threads << " policy " << static_cast<int>(split);
          if (threads == 1 && split == engine::SplitPolicy::idle) {
            EXPECT_EQ(r.steals, 0u);
          }
        }
    }
}

// One task of Knuth's Mastermind strategy (split depth 0) on 2 threads:
// the other thread walks parts of it, and every round counts Knuth's 5801
// guesses with his histogram.
/// Runs `inner`'s one task on 2 threads under both split policies until a
/// part is stolen, and checks every round's total guesses and histogram.
void expect_stolen_rounds(const engine::Job& inner, std::uint64_t guesses,
                          const std::vector<std::uint64_t>& histogram) {
  for (engine::SplitPolicy split : {engine::SplitPolicy::idle, engine::SplitPolicy::always}) {
    std::vector<engine::Tally> rounds;
    const engine::RunResult r = test::one_task_until_stolen(inner, split, rounds);
    EXPECT_GT(r.steals, 0u) << "policy " << static_cast<int>(split);
    ASSERT_FALSE(rounds.empty());
    for (const engine::Tally& round : rounds) {
      const Summary s = summarize(round);
      EXPECT_EQ(s.guesses, guesses);
      EXPECT_EQ(s.histogram, histogram);
    }
  }
}

TEST(Codes, OneWalkTaskOnTwoThreadsHasPartsStolen) {
  expect_stolen_rounds(make_strategy_job(Game::mastermind, Strategy::knuth, 0), 5801, {1, 6, 62, 533, 694});
}

/// The optimal class job's counts and the strategy it played (as JSON) at
/// `threads` threads under `split`.
std::pair<std::vector<u128>, std::string> optimal_run(std::shared_ptr<const CodeSet> cs, std::size_t first, int threads,
                                                      engine::SplitPolicy split) {
  auto trees = std::make_shared<OptimalTrees>();
  const engine::RunResult r = run_policy(make_optimal_job(cs, first, trees), threads, split);
  return {r.totals.counts, tree_to_json(*cs, trees->assemble(), "optimal", 0).dump()};
}

// The optimal class job gives classes of its branch and bound away
// (SplitSearch): at 1, 2 and 4 threads, with a part always on offer or only
// while a worker idles, the same counts and the same strategy tree as the
// static run: Koyama and Lai's 5625 for Mastermind, and a reduced game.
TEST(CodesOptimal, PartsGivenAwayFindTheSameStrategy) {
  const auto mastermind = std::shared_ptr<const CodeSet>(std::shared_ptr<const CodeSet>{}, &code_set(Game::mastermind));
  const auto reduced = std::make_shared<const CodeSet>(Game::bulls_and_cows, 3, 7);
  for (const auto& [cs, first] :
       {std::pair{mastermind, mastermind->find("1123")}, std::pair{reduced, reduced->find("012")}}) {
    ASSERT_TRUE(first.has_value());
    EXPECT_TRUE(make_optimal_job(cs, *first).splits);
    const auto reference = optimal_run(cs, *first, 1, engine::SplitPolicy::none);
    if (cs == mastermind) {
      EXPECT_EQ(reference.first[kGuesses], 5625u);
    }
    for (int threads : {1, 2, 4})
      for (engine::SplitPolicy split : {engine::SplitPolicy::idle, engine::SplitPolicy::always})
        EXPECT_EQ(optimal_run(cs, *first, threads, split), reference)
            << cs->size() << " codes, threads " << threads << " policy " << static_cast<int>(split);
  }
}

// The split proof's tasks (one per answer class and second guess) give
// classes of their second guess away: every eighth task of Mastermind's
// split after 1123 counts the same at 1, 2 and 4 threads under both
// policies as in the static run.
TEST(CodesOptimal, SplitJobPartsGivenAwayCountTheSame) {
  const CodeSet& cs = code_set(Game::mastermind);
  auto trees = std::make_shared<OptimalTrees>();
  (void)run_policy(make_optimal_job(Game::mastermind, trees), 2, engine::SplitPolicy::idle);
  const OptimalSplit split(Game::mastermind, OptimalSplit::bounds_from_tree(cs, *cs.find("1123"), trees->assemble()));
  const engine::Job job = split.job();
  EXPECT_TRUE(job.splits);
  const auto counts = [&job](int threads, engine::SplitPolicy policy) {
    engine::RunOptions o;
    o.threads = threads;
    o.split = policy;
    o.include = [](std::size_t id) { return id % 8 == 0; };
    return engine::run(job, o).totals.counts;
  };
  const std::vector<u128> reference = counts(1, engine::SplitPolicy::none);
  for (int threads : {1, 2, 4})
    for (engine::SplitPolicy policy : {engine::SplitPolicy::idle, engine::SplitPolicy::always})
      EXPECT_EQ(counts(threads, policy), reference) << "threads " << threads << " policy " << static_cast<int>(policy);
}

// The optimal Mastermind job's tasks run inside one task on 2 threads: the
// other thread solves classes given away, and every round finds 5625 with
// the same histogram.
TEST(CodesOptimal, OneTaskOnTwoThreadsHasClassesStolen) {
  expect_stolen_rounds(make_optimal_job(Game::mastermind), 5625, {1, 8, 102, 630, 548, 7});
}

/// Whether some strategy solves every secret of `set` within `d` guesses,
/// by exhaustive AND-OR search (every guess at every node, no symmetry, no
/// bound but "one guess solves one secret"): the reference for the
/// solver's depth-bounded search. The least worst case is the least d for
/// which it holds.
bool brute_within(const CodeSet& cs, const std::vector<std::uint16_t>& set, int d,
                  std::map<std::pair<std::vector<std::uint16_t>, int>, bool>& memo) {
  if (d <= 0) return false;
  if (set.size() == 1) return true;
  if (d == 1) return false;
  if (auto it = memo.find({set, d}); it != memo.end()) return it->second;
  bool ok = false;
  for (std::size_t g = 0; g < cs.size() && !ok; ++g) {
    std::array<std::vector<std::uint16_t>, kAnswers> classes;
    for (std::uint16_t s : set) classes[cs.answer(g, s)].push_back(s);
    ok = true;
    for (std::size_t a = 0; a < classes.size() && ok; ++a)
      if (a != cs.solved() && !classes[a].empty())
        ok = classes[a].size() < set.size() && brute_within(cs, classes[a], d - 1, memo);
  }
  memo.emplace(std::make_pair(set, d), ok);
  return ok;
}

int brute_depth(const CodeSet& cs, const std::vector<std::uint16_t>& set) {
  std::map<std::pair<std::vector<std::uint16_t>, int>, bool> memo;
  int d = 1;
  while (!brute_within(cs, set, d, memo)) ++d;
  return d;
}

/// Least total among the strategies solving every secret within `cap`
/// guesses, by exhaustive search (no symmetry; only the trivial bound 2k-1
/// of brute_force); kNone when there is none.
constexpr std::uint64_t kNone = ~std::uint64_t{0} >> 2;
std::uint64_t brute_capped(const CodeSet& cs, const std::vector<std::uint16_t>& set, int cap,
                           std::map<std::pair<std::vector<std::uint16_t>, int>, std::uint64_t>& memo) {
  if (cap <= 0) return kNone;
  if (set.size() == 1) return 1;
  if (cap == 1) return kNone;
  if (auto it = memo.find({set, cap}); it != memo.end()) return it->second;
  std::uint64_t best = kNone;
  for (std::size_t g = 0; g < cs.size(); ++g) {
    std::array<std::vector<std::uint16_t>, kAnswers> classes;
    for (std::uint16_t s : set) classes[cs.answer(g, s)].push_back(s);
    bool informative = !classes[cs.solved()].empty();
    std::uint64_t total = set.size();
    for (std::size_t a = 0; a < classes.size(); ++a)
      if (a != cs.solved() && !classes[a].empty()) {
        if (classes[a].size() < set.size()) informative = true;
        total += 2 * classes[a].size() - 1;
      }
    if (!informative || total >= best) continue;
    for (std::size_t a = 0; a < classes.size() && total < best; ++a)
      if (a != cs.solved() && !classes[a].empty())
        total += brute_capped(cs, classes[a], cap - 1, memo) - (2 * classes[a].size() - 1);
    best = std::min(best, total);
  }
  memo.emplace(std::make_pair(set, cap), best);
  return best;
}

// The worst-case objective on whole reduced games and on classes of the
// full games: the least worst case (depth-bounded AND-OR search) against
// the exhaustive minimax, the least total within it (and within one guess
// more) against the exhaustive capped search, and no strategy one guess
// shorter.
TEST(CodesWorstCase, ReducedGamesMatchExhaustiveMinimax) {
  struct Case {
    Game game;
    int positions, symbols;
  };
  const std::vector<Case> cases = {
      {Game::bulls_and_cows, 3, 6}, {Game::bulls_and_cows, 2, 10}, {Game::bulls_and_cows, 3, 5},
      {Game::mastermind, 3, 4},     {Game::mastermind, 2, 6},      {Game::mastermind, 4, 3},
      {Game::mastermind, 3, 3},
  };
  for (const Case& c : cases) {
    const CodeSet cs(c.game, c.positions, c.symbols);
    std::vector<std::uint16_t> all(cs.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint16_t>(i);
    const std::string name = std::to_string(c.positions) + " of " + std::to_string(c.symbols);
    const int depth = brute_depth(cs, all);
    std::map<std::pair<std::vector<std::uint16_t>, int>, std::uint64_t> memo;
    const CappedSearch r = optimal_capped_total(cs, all);
    EXPECT_EQ(r.min_depth, depth) << name;
    EXPECT_EQ(r.total, brute_capped(cs, all, depth, memo)) << name;
    EXPECT_FALSE(capped_total(cs, all, depth - 1).has_value()) << name;
    EXPECT_LE(r.plain, r.total) << name;
    if (cs.size() <= 81) {  // (the exhaustive searches grow fast)
      EXPECT_EQ(capped_total(cs, all, depth + 1), brute_capped(cs, all, depth + 1, memo)) << name;
      std::map<std::vector<std::uint16_t>, std::uint64_t> plain_memo;
      EXPECT_EQ(r.plain, brute_force(cs, all, plain_memo)) << name;
    }
    if (r.plain_depth <= r.min_depth) {
      EXPECT_EQ(r.plain, r.total) << name;
    }
  }
  // Classes of the full games after their first guess.
  struct Class {
    Game game;
    const char* first;
    int bulls, cows;
  };
  for (const Class& k : std::vector<Class>{{Game::mastermind, "1123", 2, 2},
                                           {Game::mastermind, "1123", 1, 3},
                                           {Game::bulls_and_cows, "0123", 1, 3},
                                           {Game::bulls_and_cows, "0123", 0, 4}}) {
    const CodeSet& cs = code_set(k.game);
    const auto set = answer_class(cs, k.first, k.bulls, k.cows);
    ASSERT_FALSE(set.empty());
    std::map<std::pair<std::vector<std::uint16_t>, int>, std::uint64_t> memo;
    const CappedSearch r = optimal_capped_total(cs, set);
    const std::string name = std::string(k.first) + " " + std::to_string(k.bulls) + "B" + std::to_string(k.cows) + "C";
    EXPECT_EQ(r.min_depth, brute_depth(cs, set)) << name;
    EXPECT_EQ(r.total, brute_capped(cs, set, r.min_depth, memo)) << name;
  }
  EXPECT_THROW((void)optimal_capped_total(code_set(Game::mastermind), {}), InvalidArgument);
}

// One first guess per orbit of the symmetries (positions, symbols): the
// five Mastermind opening patterns, and 0123 for bulls and cows.
// The worst-case job's plain and capped searches give classes away: its
// task of 1112's class 1 black 0 white (whose least total within 5
// guesses is above the plain optimum: the capped search ran) counts the
// same at 1, 2 and 4 threads under both policies as in the static run.
TEST(CodesWorstCase, PartsGivenAwayCountTheSame) {
  const engine::Job job = make_worst_case_job(Game::mastermind);
  EXPECT_TRUE(job.splits);
  const auto counts = [&job](int threads, engine::SplitPolicy policy) {
    engine::RunOptions o;
    o.threads = threads;
    o.split = policy;
    o.include = [](std::size_t id) { return id == 7; };
    return engine::run(job, o).totals.counts;
  };
  const std::vector<u128> reference = counts(1, engine::SplitPolicy::none);
  EXPECT_GT(reference[worst_guesses(1, 4)], reference[worst_guesses(1, 5)]);
  for (int threads : {1, 2, 4})
    for (engine::SplitPolicy policy : {engine::SplitPolicy::idle, engine::SplitPolicy::always})
      EXPECT_EQ(counts(threads, policy), reference) << "threads " << threads << " policy " << static_cast<int>(policy);
}

TEST(CodesWorstCase, FirstGuessOrbits) {
  const CodeSet& mm = code_set(Game::mastermind);
  std::vector<std::string> names;
  for (std::size_t g : first_guess_orbits(mm)) names.push_back(mm.name(g));
  EXPECT_EQ(names, (std::vector<std::string>{"1111", "1112", "1122", "1123", "1234"}));
  const CodeSet& bc = code_set(Game::bulls_and_cows);
  ASSERT_EQ(first_guess_orbits(bc).size(), 1u);
  EXPECT_EQ(bc.name(first_guess_orbits(bc)[0]), "0123");
  EXPECT_EQ(first_guess_orbits(CodeSet(Game::mastermind, 3, 4)).size(), 3u);  // 111, 112, 123
}

TEST(CodesOptimal, ReducedCodeSetsAreCountedAndChecked) {
  EXPECT_EQ(CodeSet(Game::bulls_and_cows, 3, 10).size(), 720u);  // 10·9·8
  EXPECT_EQ(CodeSet(Game::mastermind, 3, 4).size(), 64u);
  const CodeSet small(Game::bulls_and_cows, 3, 6);
  EXPECT_EQ(small.solved(), 15);
  EXPECT_EQ(small.answer(*small.find("012"), *small.find("120")), 3);   // 0 bulls 3 cows
  EXPECT_EQ(small.answer(*small.find("012"), *small.find("015")), 10);  // 2 bulls
  EXPECT_THROW(CodeSet(Game::bulls_and_cows, 5, 10), InvalidArgument);
  EXPECT_THROW(CodeSet(Game::bulls_and_cows, 4, 3), InvalidArgument);
  EXPECT_THROW(CodeSet(Game::mastermind, 4, 9), InvalidArgument);
}

std::string temp_path(const std::string& name) {
  return "/tmp/pcount-test-codes-" + std::to_string(::getpid()) + "-" + name;
}

// Every tree written by --strategy-out evaluates (--strategy-file) to the
// total the run printed: Knuth's 5801 and the optimum 5625 for Mastermind.
TEST(CodesCli, StrategyTreesRoundTrip) {
  using test::run_count;
  for (const char* strategy : {"knuth", "optimal", "first-consistent"}) {
    const std::string file = temp_path(std::string(strategy) + ".json");
    const auto made = run_count({"--mastermind", "--strategy", strategy, "--strategy-out", file, "--json"});
    ASSERT_EQ(made.status, 0) << made.err;
    const auto guesses = nlohmann::json::parse(made.out)["counts"]["guesses"];
    const auto doc = nlohmann::json::parse(test::slurp(file));
    EXPECT_EQ(doc["game"], "mastermind");
    EXPECT_EQ(std::to_string(doc["guesses"].get<std::uint64_t>()), guesses.get<std::string>());
    const auto back = run_count({"--mastermind", "--strategy-file", file, "--json"});
    ASSERT_EQ(back.status, 0) << back.err;
    const auto j = nlohmann::json::parse(back.out);
    EXPECT_EQ(j["counts"]["guesses"], guesses) << strategy;
    EXPECT_EQ(j["params"]["strategy"], "file");
    std::remove(file.c_str());
  }
  // The published totals, from the trees (independent of the job's counters).
  const CodeSet& mm = code_set(Game::mastermind);
  const auto knuth = evaluate_tree(mm, strategy_tree(mm, Strategy::knuth));
  std::uint64_t total = 0;
  for (std::size_t k = 1; k < knuth.size(); ++k) total += knuth[k] * k;
  EXPECT_EQ(total, 5801u);
}

// Mastermind's least worst case is 5 (Knuth 1976 reaches it; no first guess
// does better, and 1111 cannot: its 625 secrets of 0 black 0 white need 5
// more), and the least total within 5 guesses is 5626 (Koyama & Lai 1993,
// one more than the unconstrained 5625). The tree written re-evaluates to
// it within 5 guesses; 1 and 2 threads and two merged shards count the same.
TEST(CodesCli, MastermindWorstCaseIs5With5626Guesses) {
  using test::run_count;
  const std::string file = temp_path("worst.json");
  nlohmann::json first;
  for (const char* threads : {"1", "2"}) {
    const auto made = run_count({"--mastermind", "--objective", "worst-case", "--threads", threads, "--strategy-out",
                                 file, "--json"});
    ASSERT_EQ(made.status, 0) << made.err;
    const auto j = nlohmann::json::parse(made.out);
    EXPECT_EQ(j["counts"]["worst_case"], "5");
    EXPECT_EQ(j["counts"]["guesses"], "5626");
    EXPECT_EQ(j["params"]["objective"], "worst-case");
    EXPECT_EQ(j["worst_case_by_first_guess"]["1111"], 6);
    EXPECT_EQ(j["worst_case_by_first_guess"]["1122"], 5);  // Knuth's opening
    EXPECT_EQ(j["max_guesses"], 5);
    if (first.is_null()) first = j["histogram"];
    EXPECT_EQ(j["histogram"], first);
  }
  const auto back = run_count({"--mastermind", "--strategy-file", file, "--json"});
  ASSERT_EQ(back.status, 0) << back.err;
  const auto j = nlohmann::json::parse(back.out);
  EXPECT_EQ(j["counts"]["guesses"], "5626");
  EXPECT_EQ(j["max_guesses"], 5);
  EXPECT_EQ(j["histogram"], first);
  std::remove(file.c_str());
  // Two shards merged: the same report.
  const std::string s0 = temp_path("worst-0.out"), s1 = temp_path("worst-1.out");
  ASSERT_EQ(run_count({"--mastermind", "--objective", "worst-case", "--shard", "0/2", "--out", s0}).status, 0);
  ASSERT_EQ(run_count({"--mastermind", "--objective", "worst-case", "--shard", "1/2", "--out", s1}).status, 0);
  const auto merged = run_count({"merge", s0, s1, "--json"});
  ASSERT_EQ(merged.status, 0) << merged.err;
  const auto m = nlohmann::json::parse(merged.out);
  EXPECT_EQ(m["counts"]["worst_case"], "5");
  EXPECT_EQ(m["counts"]["guesses"], "5626");
  EXPECT_EQ(m["histogram"], first);
  std::remove(s0.c_str());
  std::remove(s1.c_str());
  // --objective average is the default objective of --strategy optimal.
  const auto average = run_count({"--mastermind", "--objective", "average", "--json"});
  ASSERT_EQ(average.status, 0) << average.err;
  EXPECT_EQ(nlohmann::json::parse(average.out)["counts"]["guesses"], "5625");
}

// A tree that is not a strategy is refused before any work, the first bad
// node named by its path of guesses and answers.
TEST(CodesCli, BadStrategyTreesNameTheirFirstBadNode) {
  using test::run_count;
  const std::string file = temp_path("tree.json");
  const CodeSet& mm = code_set(Game::mastermind);
  auto good = tree_to_json(mm, strategy_tree(mm, Strategy::knuth), "knuth", 5801);
  // The first leaf, always following the first answer: its secret is its
  // own guess, so no unsolved answer can follow it.
  const std::function<nlohmann::json&(nlohmann::json&)> first_leaf = [&](nlohmann::json& n) -> nlohmann::json& {
    return n.contains("next") ? first_leaf(n["next"].begin().value()) : n;
  };
  std::string first_leaf_path = "node";
  for (const nlohmann::json* n = &good["tree"]; n->contains("next");) {
    first_leaf_path += " " + (*n)["guess"].get<std::string>() + " " + (*n)["next"].begin().key();
    n = &(*n)["next"].begin().value();
  }
  first_leaf_path += " " + first_leaf(good["tree"])["guess"].get<std::string>();
  struct Edit {
    std::string what;
    std::function<void(nlohmann::json&)> edit;
    std::string names;
  };
  const std::vector<Edit> edits = {
      {"not a code", [](nlohmann::json& j) { j["tree"]["next"]["0B0C"]["guess"] = "7777"; },
       "node 1122 0B0C: guess '7777' is not a code of mastermind"},
      {"missing answer", [](nlohmann::json& j) { j["tree"]["next"].erase("1B0C"); },
       "the root: guess 1122: no subtree for the answer 1B0C"},
      {"answer nobody gives", [&](nlohmann::json& j) { first_leaf(j["tree"])["next"] = {{"0B0C", {{"guess", "1111"}}}}; },
       first_leaf_path + " 0B0C: no secret consistent"},
      {"unknown key", [](nlohmann::json& j) { j["tree"]["next"]["0B1C"]["why"] = 1; },
       "node 1122 0B1C: unknown key 'why'"},
      {"not an answer", [](nlohmann::json& j) { j["tree"]["next"]["3B1C"] = {{"guess", "1111"}}; },
       "the root: '3B1C' is not an answer"},
      {"other game", [](nlohmann::json& j) { j["game"] = "bulls-and-cows"; }, "\"game\" must be \"mastermind\""},
      {"stops early", [](nlohmann::json& j) { j["tree"]["next"]["0B0C"].erase("next"); },
       "node 1122 0B0C: guess " + good["tree"]["next"]["0B0C"]["guess"].get<std::string>() + ": no subtree for"},
  };
  for (const Edit& e : edits) {
    nlohmann::json j = good;
    e.edit(j);
    std::ofstream(file, std::ios::binary | std::ios::trunc) << j.dump();
    const auto r = run_count({"--mastermind", "--strategy-file", file});
    EXPECT_EQ(r.status, 2) << e.what;
    EXPECT_EQ(r.out, "") << e.what;
    EXPECT_TRUE(test::is_one_line(r.err)) << e.what << ": " << r.err;
    EXPECT_EQ(r.err.rfind("count: --strategy-file", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(e.names), std::string::npos) << e.what << ": " << r.err;
  }
  std::ofstream(file, std::ios::binary | std::ios::trunc) << "{\"game\": ";
  const auto r = run_count({"--mastermind", "--strategy-file", file});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("not JSON"), std::string::npos) << r.err;
  std::remove(file.c_str());
}

/// Bulls and cows / black and white pegs of `guess` against `secret`,
/// written here independently of CodeSet.
std::pair<int, int> score_by_hand(const std::string& guess, const std::string& secret) {
  int bulls = 0, common = 0;
  std::map<char, int> g, s;
  for (std::size_t i = 0; i < guess.size(); ++i) {
    bulls += guess[i] == secret[i];
    ++g[guess[i]];
    ++s[secret[i]];
  }
  for (const auto& [c, k] : g) common += std::min(k, s[c]);
  return {bulls, common - bulls};
}

// --secret plays one game: every line's answer is right (checked by hand
// scoring), the last one solves, within the strategy's worst case; --play
// fed the same answers through standard input makes the same guesses and
// reports the same win.
TEST(CodesCli, SecretAndPlayWinEveryGame) {
  using test::run_count;
  struct Game {
    std::string option, strategy;
    int worst;
  };
  const std::vector<Game> games = {{"--mastermind", "knuth", 5},
                                   {"--bulls-and-cows", "first-consistent", 9},
                                   {"--mastermind", "optimal", 6}};
  const std::string answers = temp_path("answers.txt");
  for (const Game& g : games) {
    const CodeSet& cs = code_set(g.option == "--mastermind" ? codes::Game::mastermind : codes::Game::bulls_and_cows);
    for (std::size_t secret = 0; secret < cs.size(); secret += cs.size() / 6 + 1) {
      const std::string code = cs.name(secret);
      const auto r = run_count({g.option, "--strategy", g.strategy, "--secret", code});
      ASSERT_EQ(r.status, 0) << r.err;
      std::istringstream lines(r.out);
      std::string line, typed, last_guess;
      std::vector<std::string> guesses;
      while (std::getline(lines, line)) {
        ASSERT_EQ(line.size(), 11u) << line;  // "0123  1B 2C"
        const std::string guess = line.substr(0, 4);
        const auto [b, c] = score_by_hand(guess, code);
        EXPECT_EQ(line.substr(4), "  " + std::to_string(b) + "B " + std::to_string(c) + "C") << code << ": " << line;
        // Every form --play accepts, in turn: "1 2", "12", "1B 2C" (as
        // --secret prints it), "2c1b".
        const std::string sb = std::to_string(b), sc = std::to_string(c);
        const std::string forms[] = {sb + " " + sc, sb + sc, sb + "B " + sc + "C", sc + "c" + sb + "b"};
        typed += forms[guesses.size() % 4] + "\n";
        guesses.push_back(guess);
      }
      ASSERT_FALSE(guesses.empty());
      EXPECT_EQ(guesses.back(), code);
      EXPECT_LE(static_cast<int>(guesses.size()), g.worst) << code;
      std::ofstream(answers, std::ios::binary | std::ios::trunc) << typed;
      const auto p = run_count({g.option, "--strategy", g.strategy, "--play"}, answers);
      ASSERT_EQ(p.status, 0) << p.err;
      for (std::size_t k = 0; k < guesses.size(); ++k)
        EXPECT_NE(p.out.find("guess " + std::to_string(k + 1) + ": " + guesses[k]), std::string::npos) << p.out;
      EXPECT_NE(p.out.find("solved: " + code + " in " + std::to_string(guesses.size()) + " guesses"),
                std::string::npos)
          << p.out;
    }
  }
  // The first three lines say what to do.
  std::ofstream(answers, std::ios::binary | std::ios::trunc) << "q\n";
  const auto quit = run_count({"--bulls-and-cows", "--play"}, answers);
  EXPECT_EQ(quit.status, 0) << quit.err;
  EXPECT_EQ(quit.out.rfind("Think of a secret of 4 different digits 0-9", 0), 0u) << quit.out;
  EXPECT_NE(quit.out.find("1B 2C, 1 2 or 12.\n4B (or 4 0) means I found it; q quits.\nguess 1: 0123"),
            std::string::npos) << quit.out;
  EXPECT_NE(quit.out.find("quit after 0 guesses"), std::string::npos) << quit.out;
  std::remove(answers.c_str());
}

// The shipped optimal tree (data/games/README.md) is a valid strategy for
// every secret and needs Tanaka's 26274 guesses (docs/sources.md).
TEST(CodesCli, ShippedOptimalBullsAndCowsTreeNeeds26274) {
  const auto r = test::run_count(
      {"--bulls-and-cows", "--strategy-file", PCOUNT_DATA_DIR "/games/bulls-and-cows-optimal.json", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["counts"]["secrets"], "5040");
  EXPECT_EQ(j["counts"]["guesses"], "26274");
  EXPECT_EQ(j["average"], "5.2131");
}

/// The record lines of a checkpoint file (after its header).
std::vector<std::string> checkpoint_lines(const std::string& text, std::string& header) {
  std::istringstream in(text);
  std::vector<std::string> records;
  std::string line;
  header.clear();
  while (std::getline(in, line)) {
    if (!line.empty() && std::isdigit(static_cast<unsigned char>(line[0]))) records.push_back(line);
    else header += line + "\n";
  }
  return records;
}

// --bound-tree: Mastermind's optimal proof split by (first answer, second
// guess), bounded by a tree given as a certificate: the optimal tree, or
// the worst-case tree (5626, looser). Always 5625 (Koyama & Lai 1993) on 1
// and 2 threads, as 3 merged shards and after a checkpoint cut short (as a
// SIGKILL leaves it: the records of the tasks finished so far) and resumed;
// its --strategy-out tree re-evaluates to it.
TEST(CodesCli, BoundTreeSplitsTheOptimalProof) {
  using test::run_count;
  const std::string optimal = temp_path("bound-optimal.json"), worst = temp_path("bound-worst.json");
  ASSERT_EQ(run_count({"--mastermind", "--strategy", "optimal", "--strategy-out", optimal}).status, 0);
  ASSERT_EQ(run_count({"--mastermind", "--objective", "worst-case", "--strategy-out", worst}).status, 0);
  nlohmann::json histogram;
  for (const std::string& bound : {optimal, worst}) {
    for (const char* threads : {"1", "2"}) {
      const auto r = run_count({"--mastermind", "--strategy", "optimal", "--bound-tree", bound, "--threads", threads,
                                "--json"});
      ASSERT_EQ(r.status, 0) << r.err;
      const auto j = nlohmann::json::parse(r.out);
      EXPECT_EQ(j["counts"]["guesses"], "5625") << bound;
      EXPECT_EQ(j["params"]["bound_tree"], bound);
      EXPECT_GT(j["tasks"].get<std::size_t>(), 13u);  // finer than the 13 answer classes of 1123
      if (histogram.is_null()) histogram = j["histogram"];
      EXPECT_EQ(j["histogram"], histogram);
    }
  }
  // Its own tree re-evaluates to 5625 with the same histogram.
  const std::string out = temp_path("bound-out.json");
  ASSERT_EQ(run_count({"--mastermind", "--strategy", "optimal", "--bound-tree", worst, "--strategy-out", out}).status, 0);
  const auto back = run_count({"--mastermind", "--strategy-file", out, "--json"});
  ASSERT_EQ(back.status, 0) << back.err;
  EXPECT_EQ(nlohmann::json::parse(back.out)["counts"]["guesses"], "5625");
  EXPECT_EQ(nlohmann::json::parse(back.out)["histogram"], histogram);
  // Three shards merged: merge replays no file, so --shard asks for the
  // tree's bounds as numbers, which it names; the worst-case tree's total
  // over the 13 classes is 5626 - 1296.
  const auto asked = run_count({"--mastermind", "--strategy", "optimal", "--bound-tree", worst, "--shard", "0/3",
                                "--out", temp_path("unused.json")});
  EXPECT_EQ(asked.status, 2);
  const std::string key = "--class-bounds ";
  ASSERT_NE(asked.err.find(key), std::string::npos) << asked.err;
  const std::string bounds = asked.err.substr(asked.err.find(key) + key.size(), asked.err.find('\n') - asked.err.find(key) - key.size());
  {
    std::uint64_t sum = 0;
    std::istringstream in(bounds);
    std::string item;
    while (std::getline(in, item, ',')) sum += std::stoull(item);
    EXPECT_EQ(sum, 5626u - 1296u) << bounds;
  }
  std::vector<std::string> merge{"merge", "--json"};
  for (int i = 0; i < 3; ++i) {
    merge.push_back(temp_path("bound-shard" + std::to_string(i) + ".json"));
    const auto r = run_count({"--mastermind", "--strategy", "optimal", "--class-bounds", bounds, "--shard",
                              std::to_string(i) + "/3", "--out", merge.back()});
    ASSERT_EQ(r.status, 0) << r.err;
  }
  const auto m = run_count(merge);
  ASSERT_EQ(m.status, 0) << m.err;
  EXPECT_EQ(nlohmann::json::parse(m.out)["counts"]["guesses"], "5625");
  EXPECT_EQ(nlohmann::json::parse(m.out)["histogram"], histogram);
  EXPECT_EQ(nlohmann::json::parse(m.out)["params"]["class_bounds"], bounds);
  // Bounds below the optimum in every class: caught after the run, a user
  // error (exit 2, naming --class-bounds), not an internal one.
  {
    std::string low;
    std::istringstream in(bounds);
    std::string item;
    while (std::getline(in, item, ',')) low += (low.empty() ? "" : ",") + std::to_string(std::stoull(item) / 2);
    const auto r = run_count({"--mastermind", "--strategy", "optimal", "--class-bounds", low});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("count: --class-bounds: every second guess of class ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("the bound is below the optimum"), std::string::npos) << r.err;
  }
  // A checkpoint with only its first third of records, then resumed.
  const std::string ck = temp_path("bound.ck");
  std::remove(ck.c_str());
  const std::vector<std::string> job{"--mastermind", "--strategy", "optimal", "--bound-tree", worst, "--threads", "2",
                                     "--checkpoint", ck, "--json"};
  ASSERT_EQ(run_count(job).status, 0);
  std::string header;
  const std::vector<std::string> records = checkpoint_lines(test::slurp(ck), header);
  ASSERT_GT(records.size(), 13u);
  const std::size_t kept = records.size() / 3;
  {
    std::ofstream cut(ck, std::ios::binary | std::ios::trunc);
    cut << header;
    for (std::size_t i = 0; i < kept; ++i) cut << records[i] << "\n";
  }
  const auto resumed = run_count(job);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  const auto j = nlohmann::json::parse(resumed.out);
  EXPECT_EQ(j["counts"]["guesses"], "5625");
  EXPECT_EQ(j["histogram"], histogram);
  EXPECT_EQ(j["tasks_resumed"].get<std::size_t>(), kept);
  EXPECT_EQ(j["tasks_run"].get<std::size_t>() + kept, j["tasks"].get<std::size_t>());
  // The class job's checkpoint is another job: refused.
  const auto other = run_count({"--mastermind", "--strategy", "optimal", "--checkpoint", ck});
  EXPECT_EQ(other.status, 2);
  EXPECT_NE(other.err.find("--checkpoint"), std::string::npos) << other.err;
  // A tree starting with another guess than the search's (Knuth's 1122) is refused.
  const std::string knuth = temp_path("bound-knuth.json");
  ASSERT_EQ(run_count({"--mastermind", "--strategy", "knuth", "--strategy-out", knuth}).status, 0);
  const auto refused = run_count({"--mastermind", "--strategy", "optimal", "--bound-tree", knuth});
  EXPECT_EQ(refused.status, 2);
  EXPECT_EQ(refused.out, "");
  EXPECT_TRUE(test::is_one_line(refused.err)) << refused.err;
  EXPECT_NE(refused.err.find("count: --bound-tree: " + knuth + ": starts with 1122; the optimal search starts with 1123"),
            std::string::npos)
      << refused.err;
  for (const std::string& f : {optimal, worst, out, ck, knuth}) std::remove(f.c_str());
  for (std::size_t i = 2; i < merge.size(); ++i) std::remove(merge[i].c_str());
}

TEST(CodesCli, JsonHoldsTheHistogram) {
  using test::run_count;
  const auto r = run_count({"--bulls-and-cows", "--json", "--threads", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  ASSERT_TRUE(test::is_one_line(r.out));
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["problem"], "bulls-and-cows");
  EXPECT_EQ(j["params"]["strategy"], "first-consistent");
  EXPECT_EQ(j["counts"]["secrets"], "5040");
  EXPECT_EQ(j["counts"]["guesses"], "28024");
  EXPECT_EQ(j["average"], "5.5603");
  EXPECT_EQ(j["max_guesses"], 9);
  EXPECT_EQ(j["histogram"], nlohmann::json({1, 13, 108, 596, 1668, 1768, 752, 129, 5}));

  const auto m = run_count({"--mastermind", "--strategy", "knuth", "--json", "--threads", "1"});
  ASSERT_EQ(m.status, 0) << m.err;
  const auto k = nlohmann::json::parse(m.out);
  EXPECT_EQ(k["counts"]["guesses"], "5801");
  EXPECT_EQ(k["max_guesses"], 5);
  EXPECT_EQ(k["histogram"], nlohmann::json({1, 6, 62, 533, 694}));

  const auto text = run_count({"--mastermind"});  // knuth is the default for Mastermind
  ASSERT_EQ(text.status, 0);
  EXPECT_NE(text.out.find("5801"), std::string::npos);
  EXPECT_NE(text.out.find("knuth"), std::string::npos);
}

// A shard file edited to one counter fewer (consistently: names, totals and
// rows) reads as a valid file, but count merge refuses it: the job it
// rebuilds has 26 counters.
TEST(CodesCli, MergeRefusesShardFilesWithOtherCounters) {
  using test::run_count;
  const std::string stem = "/tmp/pcount-test-codes-" + std::to_string(::getpid());
  std::vector<std::string> files;
  for (int i = 0; i < 2; ++i) {
    files.push_back(stem + "-shard" + std::to_string(i) + ".json");
    const auto r = run_count({"--mastermind", "--strategy", "first-consistent", "--shard",
                              std::to_string(i) + "/2", "--out", files.back()});
    ASSERT_EQ(r.status, 0) << r.err;
  }
  const auto good = run_count({"merge", "--json", files[0], files[1]});
  ASSERT_EQ(good.status, 0) << good.err;
  EXPECT_EQ(nlohmann::json::parse(good.out)["counts"]["guesses"], "7471");
  const auto raw = run_count({"merge", "--json", "--raw", files[0], files[1]});
  ASSERT_EQ(raw.status, 0) << raw.err;
  const auto counts = nlohmann::json::parse(raw.out)["counts"];
  EXPECT_EQ(counts.size(), kStrategyCounters);
  EXPECT_EQ(counts["solved_in_1"], "1");
  EXPECT_EQ(counts["solved_in_24"], "0");
  for (const auto& f : files) {
    auto j = nlohmann::json::parse(test::slurp(f));
    j["counter_names"].erase(j["counter_names"].size() - 1);
    j["totals"].erase("solved_in_24");
    for (auto& row : j["tasks"]) row.erase(row.size() - 1);
    std::ofstream(f, std::ios::binary | std::ios::trunc) << test::shard_text(j) << "\n";
  }
  const auto edited = run_count({"merge", files[0], files[1]});
  EXPECT_EQ(edited.status, 1);
  EXPECT_EQ(edited.out, "");
  EXPECT_NE(edited.err.find("have 25 counters"), std::string::npos) << edited.err;
  EXPECT_NE(edited.err.find("the job has 26"), std::string::npos) << edited.err;
  for (const auto& f : files) std::remove(f.c_str());
}

TEST(CodesCli, BadInput) {
  using test::run_count;
  const std::string kShipped = PCOUNT_DATA_DIR "/games/bulls-and-cows-optimal.json";
  const std::vector<test::BadInputCase> cases = {
      {{"--bulls-and-cows", "--strategy", "random"}, "--strategy"},
      {{"--mastermind", "--strategy", "Knuth"}, "--strategy"},
      {{"--mastermind", "--strategy"}, "--strategy"},
      {{"--mastermind", "--strategy", "optimal", "--split-depth", "2"}, "--split-depth"},
      {{"--mastermind", "--strategy", "optimal", "--method", "strategy-tree"}, "--method"},
      {{"--queens", "8", "--strategy", "knuth"}, "--strategy"},
      {{"--tictactoe", "--strategy", "knuth"}, "--strategy"},
      {{"--mastermind", "--misere"}, "--misere"},
      {{"--mastermind", "--split-depth", "4"}, "--split-depth"},
      {{"--bulls-and-cows", "--method", "search"}, "--method"},
      {{"--bulls-and-cows", "--mastermind"}, "one problem"},
      {{"--mastermind", "--strategy-file", "/nonexistent/tree.json"}, "--strategy-file"},
      {{"--mastermind", "--strategy-file", "/tmp"}, "--strategy-file"},
      {{"--mastermind", "--strategy-file", "data/games/bulls-and-cows-optimal.json", "--strategy", "knuth"},
       "--strategy-file"},
      {{"--mastermind", "--strategy-out", "/nonexistent/dir/tree.json"}, "--strategy-out"},
      {{"--mastermind", "--strategy-out", "/tmp"}, "--strategy-out"},
      {{"--mastermind", "--strategy", "optimal", "--strategy-out", "/tmp/x.json", "--checkpoint", "/tmp/c.ckpt"},
       "--strategy-out"},
      {{"--bulls-and-cows", "--secret", "0012"}, "--secret"},
      {{"--mastermind", "--secret", "0123"}, "--secret"},
      {{"--mastermind", "--secret", "1234", "--play"}, "--play"},
      {{"--mastermind", "--play", "--json"}, "--play"},
      {{"--mastermind", "--objective", "fastest"}, "--objective"},
      {{"--mastermind", "--objective", "worst-case", "--strategy", "knuth"}, "--objective"},
      {{"--mastermind", "--objective", "worst-case", "--strategy-file",
        PCOUNT_DATA_DIR "/games/bulls-and-cows-optimal.json"},
       "--objective"},
      {{"--mastermind", "--objective", "worst-case", "--secret", "1234"}, "--secret"},
      {{"--mastermind", "--objective", "worst-case", "--split-depth", "2"}, "--split-depth: the worst-case search"},
      {{"--mastermind", "--objective", "worst-case", "--strategy-out", "/tmp/x.json", "--shard", "1/2"},
       "--strategy-out"},
      {{"--mastermind", "--objective", "worst-case", "--strategy-out", "/nonexistent/dir/x.json"}, "--strategy-out"},
      {{"--mastermind", "--strategy", "optimal", "--bound-tree", "/nonexistent/tree.json"}, "--bound-tree"},
      {{"--mastermind", "--strategy", "optimal", "--bound-tree", "/tmp"}, "--bound-tree"},
      {{"--mastermind", "--strategy", "optimal", "--bound-tree", kShipped},
       "--bound-tree: " + kShipped + ": \"game\" must be \"mastermind\""},
      {{"--bulls-and-cows", "--bound-tree", kShipped}, "--bound-tree: applies to"},
      {{"--bulls-and-cows", "--strategy", "knuth", "--bound-tree", kShipped},
       "--bound-tree: applies to"},
      {{"--bulls-and-cows", "--objective", "worst-case", "--bound-tree", kShipped},
       "--bound-tree"},
      {{"--bulls-and-cows", "--strategy-file", kShipped, "--bound-tree",
        kShipped},
       "--bound-tree"},
      {{"--bulls-and-cows", "--strategy", "optimal", "--bound-tree", kShipped,
        "--split-depth", "1"},
       "--split-depth"},
      {{"--bulls-and-cows", "--strategy", "optimal", "--bound-tree", kShipped,
        "--secret", "1234"},
       "--secret"},
      {{"--bulls-and-cows", "--strategy", "optimal", "--bound-tree", kShipped,
        "--strategy-out", "/tmp/x.json", "--checkpoint", "/tmp/c.ckpt"},
       "--strategy-out"},
      {{"--mastermind", "--strategy", "optimal", "--class-bounds", "1,2,3"}, "--class-bounds: expected 13 numbers"},
      {{"--mastermind", "--strategy", "optimal", "--class-bounds", "1,,3"}, "--class-bounds"},
      {{"--mastermind", "--strategy", "optimal", "--class-bounds", "-1"}, "--class-bounds"},
      {{"--mastermind", "--strategy", "optimal", "--class-bounds", "99999999999999999999"}, "--class-bounds"},
      {{"--mastermind", "--strategy", "optimal", "--class-bounds", ""}, "--class-bounds"},
      {{"--mastermind", "--class-bounds", "1,2,3,4,5,6,7,8,9,10,11,12,13"}, "--class-bounds: applies to"},
      {{"--mastermind", "--strategy", "optimal", "--class-bounds", "1,2,3,4,5,6,7,8,9,10,11,12,13", "--bound-tree",
        kShipped},
       "--class-bounds"},
      {{"--bulls-and-cows", "--strategy", "optimal", "--bound-tree", kShipped,
        "--shard", "0/2", "--out", "/tmp/pcount-unused-shard.json"},
       "--bound-tree: merge cannot read the tree again: with --shard give its bounds as --class-bounds "},
  };
  test::expect_bad_input(cases);
}

}  // namespace
}  // namespace pcount::games::codes
