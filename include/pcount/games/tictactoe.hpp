#pragma once
/// @file
/// Tic-tac-toe (noughts and crosses, 3×3): whole game-tree statistics and
/// minimax values, for normal play and misère play.
///
/// Cells are numbered 0..8 row by row; X moves first. A game ends when a
/// player completes a line of three (normal play: that player wins; misère:
/// that player loses) or when the board is full. Known values (checked in
/// tests; H. Bottomley's tic-tac-toe pages, see docs/sources.md):
/// 255,168 games (131,184 end with a line of X, 77,904 with a line of O,
/// 46,080 full-board draws); 26,830 games up to symmetry; 5,478 legal
/// positions (765 up to symmetry); 958 terminal positions (626 with a line
/// of X, 316 with a line of O, 16 full-board draws).

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "pcount/engine/fingerprint.hpp"
#include "pcount/engine/task.hpp"

namespace pcount::games::tictactoe {

/// A position: the cells held by X and by O as 9-bit masks (bit i = cell i).
struct Board {
  std::uint16_t x = 0;
  std::uint16_t o = 0;
  friend bool operator==(const Board&, const Board&) = default;
};

/// True when the 9-bit mask contains a full row, column or diagonal.
[[nodiscard]] bool has_line(std::uint16_t mask);

/// The image of `board` under symmetry s of the square, 0 ≤ s < 8
/// (s = 2·k + f: rotation by k·90° after a left–right flip when f = 1).
/// Throws std::out_of_range for another s.
[[nodiscard]] Board transform(const Board& board, int s);

/// Counters of the job from make_job, in order (Job::counter_names gives
/// each its name: "games", "x_lines", ..., "terminal_full").
enum Counter : std::size_t {
  kGames = 0,                  ///< complete games (move sequences)
  kXLines = 1,                 ///< games ending with a line of X (X wins; O wins in misère)
  kOLines = 2,                 ///< games ending with a line of O
  kDraws = 3,                  ///< games ending on a full board without a line
  kGamesUpToSymmetry = 4,      ///< games up to symmetry (see make_job)
  kPositions = 5,              ///< legal positions reachable in play, empty board included
  kPositionsUpToSymmetry = 6,  ///< ... up to symmetry
  kTerminal = 7,               ///< positions where the game is over
  kTerminalXLine = 8,          ///< ... with a line of X
  kTerminalOLine = 9,          ///< ... with a line of O
  kTerminalFull = 10,          ///< ... full board, no line
};

/// Tasks of make_job that count positions (the last ones of its list).
inline constexpr std::size_t kPositionTasks = 27;

/// The whole game tree and every position as one engine job; counters:
/// Counter. Tasks, in order:
/// - the nodes at `split_depth` moves (0 ≤ split_depth ≤ 9; games that end
///   earlier are their own task) of the full tree (games, x_lines, o_lines,
///   draws);
/// - then those of the tree "up to symmetry", in which a node's children are
///   its moves taken one per orbit of the symmetries that fix the current
///   board (games_up_to_symmetry: 26,830 games; the plain orbit count of
///   move sequences would be 255,168 / 8);
/// - then kPositionTasks tasks over all 3^9 cell colourings, split by the
///   first three cells, each tested for legality: |X| = |O| or |O| + 1, not
///   both players with a line, a line of X only with |X| = |O| + 1, of O only
///   with |X| = |O| (positions ... terminal_full; "up to symmetry" counts
///   colourings that are the least of their 8 images).
/// Node count = nodes of the full tree (549,946, root included, whatever
/// the split). Throws InvalidArgument("split_depth") for a depth outside
/// 0..9. Its fingerprint is `started` (the caller's: the program's version
/// and the play its counts are read for, "normal" or "misere"; the counts
/// are the same, the report's reading of them differs) followed by
/// "tictactoe split=D".
[[nodiscard]] engine::Job make_job(int split_depth, engine::Fingerprint started = engine::Fingerprint("normal"));

/// Legal positions found by a plain depth-first walk of the game tree with
/// a visited set (an independent check of make_job's legality rule).
[[nodiscard]] std::size_t count_positions_by_play();

/// Game value with perfect play from X's point of view: +1 X wins, 0 draw,
/// −1 X loses. `misere`: completing a line loses.
[[nodiscard]] int game_value(bool misere);

/// Value for X of each opening move (cell 0..8) with perfect play after it:
/// +1 X wins, 0 draw, −1 X loses. Normal play: all 0. Misère: centre 0, the
/// other eight −1.
[[nodiscard]] std::array<int, 9> opening_values(bool misere);

}  // namespace pcount::games::tictactoe
