// Tic-tac-toe: the known game-tree numbers (Bottomley; docs/sources.md), the same
// totals for every split depth and thread count, two methods for positions,
// minimax values, and the CLI.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>
#include <nlohmann/json.hpp>

#include "pcount/errors.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/games/tictactoe.hpp"
#include "support/run_command.hpp"

namespace pcount::games::tictactoe {
namespace {

engine::Tally run(const engine::Job& job, int threads) {
  engine::RunOptions o;
  o.threads = threads;
  return engine::run(job, o).totals;
}

// Games, wins, draws, games up to symmetry, positions and terminal positions:
// the published counts of Henry Bottomley, "How many Tic-Tac-Toe (noughts
// and crosses) games are possible?" (2001).
TEST(TicTacToe, GameTreeKnownValuesForEverySplitAndThreadCount) {
  const engine::Job job0 = make_job(0);
  ASSERT_EQ(job0.counter_names.size(), 11u);  // games and positions in one job, every counter named
  const engine::Tally reference = run(job0, 1);
  EXPECT_EQ(reference.counts[kGames], 255168u);
  EXPECT_EQ(reference.counts[kXLines], 131184u);
  EXPECT_EQ(reference.counts[kOLines], 77904u);
  EXPECT_EQ(reference.counts[kDraws], 46080u);
  EXPECT_EQ(reference.counts[kGamesUpToSymmetry], 26830u);
  EXPECT_EQ(reference.nodes, 549946u);  // 1 + 9 + 72 + ... nodes of the whole tree
  for (int depth = 0; depth <= 9; ++depth)
    for (int threads : {1, 2, 4}) {
      const engine::Job job = make_job(depth);
      EXPECT_EQ(run(job, threads), reference) << "depth " << depth << " threads " << threads;
    }
}

TEST(TicTacToe, SplitDepthOutOfRangeIsRejected) {
  EXPECT_THROW((void)make_job(-1), InvalidArgument);
  EXPECT_THROW((void)make_job(10), InvalidArgument);
}

TEST(TicTacToe, PositionsKnownValuesAndCrossCheckByPlay) {
  for (int threads : {1, 2, 4}) {
    const engine::Tally t = run(make_job(2), threads);
    EXPECT_EQ(t.counts[kPositions], 5478u);
    EXPECT_EQ(t.counts[kPositionsUpToSymmetry], 765u);
    EXPECT_EQ(t.counts[kTerminal], 958u);
    EXPECT_EQ(t.counts[kTerminalXLine], 626u);
    EXPECT_EQ(t.counts[kTerminalOLine], 316u);
    EXPECT_EQ(t.counts[kTerminalFull], 16u);
  }
  EXPECT_EQ(count_positions_by_play(), 5478u);
}

TEST(TicTacToe, SymmetriesFormTheDihedralGroup) {
  const Board b{0b000000011, 0b000000100};  // X on 0, 1; O on 2
  std::vector<std::pair<int, int>> images;
  for (int s = 0; s < 8; ++s) {
    const Board i = transform(b, s);
    EXPECT_EQ(__builtin_popcount(i.x), 2);
    EXPECT_EQ(__builtin_popcount(i.o), 1);
    images.emplace_back(i.x, i.o);
  }
  std::sort(images.begin(), images.end());
  EXPECT_EQ(std::unique(images.begin(), images.end()), images.end());  // asymmetric board: 8 images
  EXPECT_THROW((void)transform(b, 8), std::out_of_range);
  EXPECT_TRUE(has_line(0b100010001));
  EXPECT_FALSE(has_line(0b100010010));
}

TEST(TicTacToe, MinimaxValues) {
  EXPECT_EQ(game_value(false), 0);
  EXPECT_EQ(game_value(true), 0);
  const auto normal = opening_values(false);
  const auto misere = opening_values(true);
  for (std::size_t i = 0; i < 9; ++i) {
    EXPECT_EQ(normal[i], 0) << i;
    EXPECT_EQ(misere[i], i == 4 ? 0 : -1) << i;
  }
}

TEST(TicTacToeCli, TextAndJson) {
  using test::run_count;
  const auto r = run_count({"--tictactoe", "--json", "--threads", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  ASSERT_TRUE(test::is_one_line(r.out));
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["problem"], "tictactoe");
  EXPECT_EQ(j["counts"]["games"], "255168");
  EXPECT_EQ(j["counts"]["x_wins"], "131184");
  EXPECT_EQ(j["counts"]["o_wins"], "77904");
  EXPECT_EQ(j["counts"]["draws"], "46080");
  EXPECT_EQ(j["counts"]["games_sym"], "26830");
  EXPECT_EQ(j["counts"]["positions"], "5478");
  EXPECT_EQ(j["counts"]["positions_sym"], "765");
  EXPECT_EQ(j["counts"]["terminal"], "958");
  EXPECT_EQ(j["counts"]["terminal_x"], "626");
  EXPECT_EQ(j["counts"]["terminal_o"], "316");
  EXPECT_EQ(j["counts"]["terminal_draw"], "16");
  EXPECT_EQ(j["value"], "draw");
  ASSERT_EQ(j["openings"].size(), 9u);  // one value per first move: the loop below cannot be empty
  for (const auto& v : j["openings"]) EXPECT_EQ(v, "draw");

  const auto m = run_count({"--tictactoe", "--misere", "--json", "--split-depth", "4", "--threads", "1"});
  ASSERT_EQ(m.status, 0) << m.err;
  const auto k = nlohmann::json::parse(m.out);
  EXPECT_EQ(k["params"]["misere"], true);
  EXPECT_EQ(k["counts"]["x_wins"], "77904");  // X wins when O completes a line
  EXPECT_EQ(k["counts"]["o_wins"], "131184");
  EXPECT_EQ(k["counts"]["terminal_x"], "316");
  EXPECT_EQ(k["value"], "draw");
  ASSERT_EQ(k["openings"].size(), 9u);
  for (std::size_t i = 0; i < 9; ++i) EXPECT_EQ(k["openings"][i], i == 4 ? "draw" : "loss") << i;

  const auto text = run_count({"--tictactoe"});
  ASSERT_EQ(text.status, 0);
  EXPECT_NE(text.out.find("255168"), std::string::npos);
  EXPECT_NE(text.out.find("26830"), std::string::npos);
}

/// The published counts (Bottomley), as the --json report names them.
void expect_published_counts(const nlohmann::json& j) {
  EXPECT_EQ(j["counts"]["games"], "255168");
  EXPECT_EQ(j["counts"]["x_wins"], "131184");
  EXPECT_EQ(j["counts"]["o_wins"], "77904");
  EXPECT_EQ(j["counts"]["draws"], "46080");
  EXPECT_EQ(j["counts"]["games_sym"], "26830");
  EXPECT_EQ(j["counts"]["positions"], "5478");
  EXPECT_EQ(j["counts"]["positions_sym"], "765");
  EXPECT_EQ(j["counts"]["terminal"], "958");
  EXPECT_EQ(j["counts"]["terminal_x"], "626");
  EXPECT_EQ(j["counts"]["terminal_o"], "316");
  EXPECT_EQ(j["counts"]["terminal_draw"], "16");
}

// One job: one checkpoint file holds games and positions (no FILE.2), a
// rerun resumes every task from it, and shards split the positions too.
TEST(TicTacToeCli, OneJobForCheckpointsAndShards) {
  using test::run_count;
  const std::string stem = "/tmp/pcount-test-ttt-" + std::to_string(::getpid());
  const std::string ck = stem + ".ck";
  std::remove(ck.c_str());
  const auto first = run_count({"--tictactoe", "--json", "--checkpoint", ck, "--threads", "2"});
  ASSERT_EQ(first.status, 0) << first.err;
  expect_published_counts(nlohmann::json::parse(first.out));
  EXPECT_NE(test::slurp(ck).find("\ncounters games,x_lines,o_lines,draws,games_up_to_symmetry,positions,"),
            std::string::npos);
  EXPECT_FALSE(std::ifstream(ck + ".2").good());
  const auto again = run_count({"--tictactoe", "--json", "--checkpoint", ck, "--threads", "1"});
  ASSERT_EQ(again.status, 0) << again.err;
  const auto k = nlohmann::json::parse(again.out);
  expect_published_counts(k);
  EXPECT_EQ(k["tasks_run"], 0);
  EXPECT_EQ(k["tasks_resumed"], k["tasks"]);
  // A checkpoint whose header names one counter fewer is refused, saying so.
  {
    std::string text = test::slurp(ck);
    const std::string last = ",terminal_full\n";
    text.replace(text.find(last), last.size(), "\n");
    std::ofstream(ck, std::ios::binary | std::ios::trunc) << text;
    const auto r = run_count({"--tictactoe", "--checkpoint", ck});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("has 10 counters"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("the job has 11"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("'terminal_full' in the job"), std::string::npos) << r.err;
  }
  std::remove(ck.c_str());

  std::vector<std::string> merge{"merge", "--json"};
  for (int i = 0; i < 3; ++i) {
    merge.push_back(stem + "-shard" + std::to_string(i) + ".json");
    const auto r = run_count({"--tictactoe", "--shard", std::to_string(i) + "/3", "--out", merge.back()});
    ASSERT_EQ(r.status, 0) << r.err;
  }
  const auto m = run_count(merge);
  ASSERT_EQ(m.status, 0) << m.err;
  const auto j = nlohmann::json::parse(m.out);
  expect_published_counts(j);
  // The job's figures are the shards': each task ran once in a shard, none
  // was resumed from a checkpoint.
  EXPECT_EQ(j["tasks_run"], j["tasks"]);
  EXPECT_EQ(j["tasks_resumed"], 0);
  EXPECT_EQ(j["shards"], 3);
  for (std::size_t i = 2; i < merge.size(); ++i) std::remove(merge[i].c_str());
}

TEST(TicTacToeCli, BadInput) {
  using test::run_count;
  const std::vector<test::BadInputCase> cases = {
      {{"--queens", "8", "--misere"}, "--misere"},
      {{"--tictactoe", "--split-depth", "10"}, "--split-depth"},
      {{"--tictactoe", "--method", "magic"}, "--method"},
      {{"--tictactoe", "--misere=yes"}, "--misere"},
      {{"--tictactoe", "--strategy", "knuth"}, "--strategy"},
  };
  test::expect_bad_input(cases);
}

}  // namespace
}  // namespace pcount::games::tictactoe
