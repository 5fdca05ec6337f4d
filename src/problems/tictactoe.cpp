// The `--tictactoe [--misere]` problem: game-tree statistics and minimax values.
#include <algorithm>
#include <string>

#include "pcount/problems/games.hpp"
#include "pcount/games/tictactoe.hpp"

namespace pcount::games {

using namespace driver;

namespace ttt = tictactoe;

namespace {

void add_tictactoe_options(po::options_description& d) {
  d.add_options()("misere", "misère play: completing a line of three loses");
}

std::string value_name(int v) { return v > 0 ? "win" : v < 0 ? "loss" : "draw"; }

Plan plan_tictactoe(const Invocation& inv) {
  // The play ("normal", "misere") is the fingerprint's first word, before
  // the kernel's job description (ttt::make_job).
  const bool misere = Params(inv).flag("--misere", "misere", "normal", Params::checked);
  const std::string method = choose_method(inv, {"search"}, "search");
  const int depth = inv.common.split_depth.value_or(2);

  Plan plan;
  plan.job = ttt::make_job(depth, Fingerprint(misere ? "misere" : "normal"));
  plan.report = [misere, method](const engine::RunResult& result) {
    // Who wins a game that ends with a line: its maker (normal) or the other player (misère).
    const std::size_t x_wins = misere ? ttt::kOLines : ttt::kXLines;
    const std::size_t o_wins = misere ? ttt::kXLines : ttt::kOLines;
    const std::size_t tx_wins = misere ? ttt::kTerminalOLine : ttt::kTerminalXLine;
    const std::size_t to_wins = misere ? ttt::kTerminalXLine : ttt::kTerminalOLine;
    const auto& c = result.totals.counts;
    if (c[ttt::kGames] != c[ttt::kXLines] + c[ttt::kOLines] + c[ttt::kDraws] ||
        c[ttt::kTerminal] != c[ttt::kTerminalXLine] + c[ttt::kTerminalOLine] + c[ttt::kTerminalFull])
      throw InternalError("tic-tac-toe: outcome counts do not add up to the totals");

    Report report;
    report.problem = "tictactoe";
    report.title = std::string("tic-tac-toe game tree, ") + (misere ? "misère play" : "normal play");
    report.params["misere"] = misere;
    report.method = method;
    report.counts = {
        {"games", to_string(c[ttt::kGames])},
        {"x_wins", to_string(c[x_wins])},
        {"o_wins", to_string(c[o_wins])},
        {"draws", to_string(c[ttt::kDraws])},
        {"games_sym", to_string(c[ttt::kGamesUpToSymmetry])},
        {"positions", to_string(c[ttt::kPositions])},
        {"positions_sym", to_string(c[ttt::kPositionsUpToSymmetry])},
        {"terminal", to_string(c[ttt::kTerminal])},
        {"terminal_x", to_string(c[tx_wins])},
        {"terminal_o", to_string(c[to_wins])},
        {"terminal_draw", to_string(c[ttt::kTerminalFull])},
    };
    report.extra["value"] = value_name(ttt::game_value(misere));
    const auto openings = ttt::opening_values(misere);
    nlohmann::ordered_json grid = nlohmann::ordered_json::array();
    for (int v : openings) grid.push_back(value_name(v));
    report.extra["openings"] = grid;
    return report;
  };
  return plan;
}

}  // namespace

std::span<const Problem> tictactoe_problems() {
  static const Problem table[] = {
      {.option = "tictactoe",
       .help = "tic-tac-toe game-tree statistics and minimax values",
       .group = "tictactoe",
       .add_options = add_tictactoe_options,
       .methods = "search",
       .plan = plan_tictactoe},
  };
  return table;
}

}  // namespace pcount::games
