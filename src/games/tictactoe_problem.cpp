// The `--tictactoe [--misere]` problem: game-tree statistics and minimax values.
#include <algorithm>
#include <string>

#include "pcount/games/problem.hpp"
#include "pcount/games/tictactoe.hpp"

namespace pcount::games {

using namespace driver;

namespace ttt = tictactoe;

namespace {

void add_tictactoe_options(po::options_description& d) {
  d.add_options()("misere", "misère play: completing a line of three loses");
}

std::string value_name(int v) { return v > 0 ? "win" : v < 0 ? "loss" : "draw"; }

int run_tictactoe(const Invocation& inv) {
  const bool misere = inv.has("misere");
  const std::string method = choose_method(inv, {"search"}, "search");
  const int depth = inv.common.split_depth.value_or(2);
  const std::string tag = fingerprint_prefix() + (misere ? "misere" : "normal");

  engine::Job games = ttt::make_games_job(depth);
  games.fingerprint = tag + " " + games.fingerprint;
  engine::Job positions = ttt::make_positions_job();
  positions.fingerprint = tag + " " + positions.fingerprint;
  const engine::RunResult g = run_job(inv, games);
  const engine::RunResult p = run_job(inv, positions);

  // Who wins a game that ends with a line: its maker (normal) or the other player (misère).
  const std::size_t x_wins = misere ? ttt::kOLines : ttt::kXLines;
  const std::size_t o_wins = misere ? ttt::kXLines : ttt::kOLines;
  const std::size_t tx_wins = misere ? ttt::kTerminalOLine : ttt::kTerminalXLine;
  const std::size_t to_wins = misere ? ttt::kTerminalXLine : ttt::kTerminalOLine;
  const auto& gc = g.totals.counts;
  const auto& pc = p.totals.counts;
  if (gc[ttt::kGames] != gc[ttt::kXLines] + gc[ttt::kOLines] + gc[ttt::kDraws] ||
      pc[ttt::kTerminal] != pc[ttt::kTerminalXLine] + pc[ttt::kTerminalOLine] + pc[ttt::kTerminalFull])
    throw InternalError("tic-tac-toe: outcome counts do not add up to the totals");

  Report report;
  report.problem = "tictactoe";
  report.title = std::string("tic-tac-toe game tree, ") + (misere ? "misère play" : "normal play");
  report.params["misere"] = misere;
  report.method = method;
  report.counts = {
      {"games", to_string(gc[ttt::kGames])},
      {"x_wins", to_string(gc[x_wins])},
      {"o_wins", to_string(gc[o_wins])},
      {"draws", to_string(gc[ttt::kDraws])},
      {"games_sym", to_string(gc[ttt::kGamesUpToSymmetry])},
      {"positions", to_string(pc[ttt::kPositions])},
      {"positions_sym", to_string(pc[ttt::kPositionsUpToSymmetry])},
      {"terminal", to_string(pc[ttt::kTerminal])},
      {"terminal_x", to_string(pc[tx_wins])},
      {"terminal_o", to_string(pc[to_wins])},
      {"terminal_draw", to_string(pc[ttt::kTerminalFull])},
  };
  report.extra["value"] = value_name(ttt::game_value(misere));
  const auto openings = ttt::opening_values(misere);
  nlohmann::ordered_json grid = nlohmann::ordered_json::array();
  for (int v : openings) grid.push_back(value_name(v));
  report.extra["openings"] = grid;

  // One report for both jobs: tasks, nodes and wall time added up.
  engine::RunResult both = g;
  both.tasks_total += p.tasks_total;
  both.tasks_run += p.tasks_run;
  both.wall_seconds += p.wall_seconds;
  both.threads = std::max(g.threads, p.threads);
  print_report(inv, games, both, report);
  return 0;
}

}  // namespace

std::span<const Problem> tictactoe_problems() {
  static const Problem table[] = {
      {"tictactoe", "", "tic-tac-toe game-tree statistics and minimax values", "tictactoe", add_tictactoe_options,
       "search", nullptr, run_tictactoe},
  };
  return table;
}

}  // namespace pcount::games
