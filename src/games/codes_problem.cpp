// The `--bulls-and-cows` and `--mastermind [--strategy S]` problems: a code-breaking
// strategy played against every secret.
#include <cstdio>
#include <string>

#include "pcount/games/problem.hpp"
#include "pcount/games/codes.hpp"

namespace pcount::games {

using namespace driver;

namespace {

void add_codes_options(po::options_description& d) {
  d.add_options()("strategy", po::value<std::string>()->value_name("S"),
                  "guessing strategy of --bulls-and-cows and --mastermind: first-consistent (default for "
                  "bulls and cows), knuth (minimax; default for Mastermind) or optimal (least average, exact "
                  "branch and bound: seconds for Mastermind, hours for bulls and cows)");
}

codes::Strategy parse_strategy(const Invocation& inv, codes::Strategy fallback) {
  const auto s = inv.value("strategy");
  if (!s) return fallback;
  if (*s == "first-consistent") return codes::Strategy::first_consistent;
  if (*s == "knuth") return codes::Strategy::knuth;
  if (*s == "optimal") return codes::Strategy::optimal;
  throw InvalidArgument("--strategy", "unknown strategy '" + *s + "'; allowed: first-consistent, knuth, optimal");
}

Plan plan_codes(const Invocation& inv, codes::Game game) {
  const codes::Strategy strategy = parse_strategy(
      inv, game == codes::Game::mastermind ? codes::Strategy::knuth : codes::Strategy::first_consistent);
  const std::string method = strategy == codes::Strategy::optimal
                                 ? choose_method(inv, {"branch-and-bound"}, "branch-and-bound")
                                 : choose_method(inv, {"strategy-tree"}, "strategy-tree");
  const std::string strategy_name = strategy == codes::Strategy::knuth     ? "knuth"
                                    : strategy == codes::Strategy::optimal ? "optimal"
                                                                           : "first-consistent";
  const int depth = inv.common.split_depth.value_or(1);
  engine::Job job = codes::make_strategy_job(game, strategy, depth);
  job.fingerprint = fingerprint_prefix() + job.fingerprint;
  Plan plan;
  plan.job = std::move(job);
  plan.report = [game, method, strategy_name](const engine::RunResult& result) {
  const codes::Summary s = codes::summarize(result.totals);
  const bool mastermind = game == codes::Game::mastermind;
  if (s.secrets != code_set(game).size())
    throw InternalError("code game: " + std::to_string(s.secrets) + " secrets played, expected " +
                        std::to_string(code_set(game).size()));

  Report report;
  report.problem = mastermind ? "mastermind" : "bulls-and-cows";
  report.title = mastermind ? "Mastermind (4 pegs, 6 colours, 1296 secrets), strategy " + strategy_name
                            : "bulls and cows (4 distinct digits, 5040 secrets), strategy " + strategy_name;
  report.params["strategy"] = strategy_name;
  report.method = method;
  report.counts = {{"secrets", std::to_string(s.secrets)}, {"guesses", std::to_string(s.guesses)}};
  char average[32];
  std::snprintf(average, sizeof average, "%.4f", static_cast<double>(s.guesses) / static_cast<double>(s.secrets));
  report.extra["average"] = average;
  report.extra["max_guesses"] = s.max_guesses;
  report.extra["histogram"] = s.histogram;
  return report;
  };
  return plan;
}

Plan plan_bulls_and_cows(const Invocation& inv) { return plan_codes(inv, codes::Game::bulls_and_cows); }
Plan plan_mastermind(const Invocation& inv) { return plan_codes(inv, codes::Game::mastermind); }

}  // namespace

std::span<const Problem> code_problems() {
  static const Problem table[] = {
      {"bulls-and-cows", "", "evaluate a bulls-and-cows strategy over all 5040 secrets", "codes", add_codes_options,
       "strategy-tree|branch-and-bound", plan_bulls_and_cows, nullptr},
      {"mastermind", "", "evaluate a Mastermind strategy (4 pegs, 6 colours) over all 1296 secrets", "codes",
       nullptr, "strategy-tree|branch-and-bound", plan_mastermind, nullptr},
  };
  return table;
}

}  // namespace pcount::games
