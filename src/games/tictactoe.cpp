#include "pcount/games/tictactoe.hpp"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "pcount/errors.hpp"

namespace pcount::games::tictactoe {

namespace {

constexpr std::uint16_t kFull = 0x1FF;
constexpr std::array<std::uint16_t, 8> kLines = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};

struct Tables {
  std::array<bool, 512> line{};
  std::array<std::array<std::uint8_t, 9>, 8> cell{};      ///< cell[s][i] = image of cell i
  std::array<std::array<std::uint16_t, 512>, 8> image{};  ///< image[s][mask]
};

Tables make_tables() {
  Tables t;
  for (unsigned m = 0; m < 512; ++m)
    for (std::uint16_t l : kLines)
      if ((m & l) == l) t.line[m] = true;
  for (int s = 0; s < 8; ++s) {
    for (int i = 0; i < 9; ++i) {
      int r = i / 3, c = i % 3;
      if (s & 1) c = 2 - c;  // left–right flip first
      for (int k = 0; k < s / 2; ++k) {  // then k quarter turns clockwise
        const int nr = c, nc = 2 - r;
        r = nr;
        c = nc;
      }
      t.cell[static_cast<std::size_t>(s)][static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(3 * r + c);
    }
    for (unsigned m = 0; m < 512; ++m) {
      unsigned img = 0;
      for (std::size_t i = 0; i < 9; ++i)
        if (m >> i & 1u) img |= 1u << t.cell[static_cast<std::size_t>(s)][i];
      t.image[static_cast<std::size_t>(s)][m] = static_cast<std::uint16_t>(img);
    }
  }
  return t;
}

const Tables& tables() {
  static const Tables t = make_tables();
  return t;
}

/// 0 = game goes on, 1 = line of X, 2 = line of O, 3 = full board without a line.
int status(const Tables& t, Board b) {
  if (t.line[b.x]) return 1;
  if (t.line[b.o]) return 2;
  if ((b.x | b.o) == kFull) return 3;
  return 0;
}

struct Node {
  Board board;
  int moves = 0;
};

Node play(const Node& n, int cell) {
  Node c = n;
  const auto bit = static_cast<std::uint16_t>(1u << cell);
  if (n.moves % 2 == 0) c.board.x = static_cast<std::uint16_t>(c.board.x | bit);
  else c.board.o = static_cast<std::uint16_t>(c.board.o | bit);
  ++c.moves;
  return c;
}

/// Symmetries that fix the board, as a bit set over s = 0..7.
unsigned stabiliser(const Tables& t, Board b) {
  unsigned stab = 0;
  for (std::size_t s = 0; s < 8; ++s)
    if (t.image[s][b.x] == b.x && t.image[s][b.o] == b.o) stab |= 1u << s;
  return stab;
}

/// Moves of the node: every empty cell, or (up to symmetry) the least cell of
/// each orbit of the board's stabiliser on the empty cells.
std::vector<int> moves(const Tables& t, const Node& n, bool up_to_symmetry) {
  std::vector<int> out;
  if (status(t, n.board) != 0) return out;
  const unsigned stab = up_to_symmetry ? stabiliser(t, n.board) : 1u;
  unsigned seen = 0;
  const unsigned empty = kFull & ~static_cast<unsigned>(n.board.x | n.board.o);
  for (int i = 0; i < 9; ++i) {
    if (!(empty >> i & 1u) || (seen >> i & 1u)) continue;
    for (std::size_t s = 0; s < 8; ++s)
      if (stab >> s & 1u) seen |= 1u << t.cell[s][static_cast<std::size_t>(i)];
    out.push_back(i);
  }
  return out;
}

/// The nodes at `depth` (and the games that end earlier), in DFS order;
/// `above` counts the nodes expanded on the way.
std::vector<Node> frontier(const Tables& t, int depth, bool up_to_symmetry, std::uint64_t& above) {
  std::vector<Node> level{Node{}};
  above = 0;
  for (int d = 0; d < depth; ++d) {
    std::vector<Node> next;
    for (const Node& n : level) {
      const auto ms = moves(t, n, up_to_symmetry);
      if (ms.empty()) next.push_back(n);
      else ++above;
      for (int m : ms) next.push_back(play(n, m));
    }
    level = std::move(next);
  }
  return level;
}

struct GameCounts {
  std::uint64_t games = 0, x = 0, o = 0, draws = 0, nodes = 0;
};

/// Full game tree below (x, o) with `moves` moves made. No allocation.
void walk_full(const Tables& t, unsigned x, unsigned o, int moves_made, GameCounts& c) {
  ++c.nodes;
  if (t.line[x]) { ++c.games; ++c.x; return; }
  if (t.line[o]) { ++c.games; ++c.o; return; }
  unsigned empty = kFull & ~(x | o);
  if (!empty) { ++c.games; ++c.draws; return; }
  const bool x_to_move = moves_made % 2 == 0;
  while (empty) {
    const unsigned bit = empty & (0u - empty);
    empty ^= bit;
    if (x_to_move) walk_full(t, x | bit, o, moves_made + 1, c);
    else walk_full(t, x, o | bit, moves_made + 1, c);
  }
}

/// Tree up to symmetry: leaves below the node, children one per stabiliser orbit.
std::uint64_t walk_symmetric(const Tables& t, Board b, int moves_made) {
  if (status(t, b) != 0) return 1;
  const unsigned stab = stabiliser(t, b);
  const unsigned empty = kFull & ~static_cast<unsigned>(b.x | b.o);
  unsigned seen = 0;
  std::uint64_t leaves = 0;
  for (int i = 0; i < 9; ++i) {
    if (!(empty >> i & 1u) || (seen >> i & 1u)) continue;
    for (std::size_t s = 0; s < 8; ++s)
      if (stab >> s & 1u) seen |= 1u << t.cell[s][static_cast<std::size_t>(i)];
    Board c = b;
    if (moves_made % 2 == 0) c.x = static_cast<std::uint16_t>(c.x | 1u << i);
    else c.o = static_cast<std::uint16_t>(c.o | 1u << i);
    leaves += walk_symmetric(t, c, moves_made + 1);
  }
  return leaves;
}

bool legal(const Tables& t, Board b) {
  if (b.x & b.o) return false;
  const int nx = __builtin_popcount(b.x), no = __builtin_popcount(b.o);
  if (nx != no && nx != no + 1) return false;
  const bool lx = t.line[b.x], lo = t.line[b.o];
  if (lx && lo) return false;
  if (lx && nx != no + 1) return false;
  if (lo && nx != no) return false;
  return true;
}

unsigned key(Board b) { return static_cast<unsigned>(b.x) | static_cast<unsigned>(b.o) << 9; }

bool canonical(const Tables& t, Board b) {
  const unsigned k = key(b);
  for (std::size_t s = 1; s < 8; ++s)
    if ((static_cast<unsigned>(t.image[s][b.x]) | static_cast<unsigned>(t.image[s][b.o]) << 9) < k) return false;
  return true;
}

/// Negamax value for the player to move (+1 win, 0 draw, −1 loss); memo over x | o << 9.
int negamax(const Tables& t, Board b, bool x_to_move, bool misere, std::vector<signed char>& memo) {
  const unsigned k = key(b);
  if (memo[k] != 2) return memo[k];
  int v;
  const int st = status(t, b);
  if (st == 1 || st == 2) v = misere ? 1 : -1;  // the opponent just completed a line
  else if (st == 3) v = 0;
  else {
    v = -2;
    const unsigned empty = kFull & ~static_cast<unsigned>(b.x | b.o);
    for (int i = 0; i < 9; ++i) {
      if (!(empty >> i & 1u)) continue;
      Board c = b;
      if (x_to_move) c.x = static_cast<std::uint16_t>(c.x | 1u << i);
      else c.o = static_cast<std::uint16_t>(c.o | 1u << i);
      const int w = -negamax(t, c, !x_to_move, misere, memo);
      if (w > v) v = w;
    }
  }
  memo[k] = static_cast<signed char>(v);
  return v;
}

}  // namespace

bool has_line(std::uint16_t mask) { return tables().line[mask & kFull]; }

Board transform(const Board& board, int s) {
  if (s < 0 || s >= 8) throw std::out_of_range("tictactoe::transform: symmetry index must be 0..7");
  const auto& img = tables().image[static_cast<std::size_t>(s)];
  return Board{img[board.x & kFull], img[board.o & kFull]};
}

namespace {

/// Positions task `id` (0..26): the 729 colourings whose first three cells
/// are base-3 digits of id, cell 0 first. Adds the Position* counters.
void count_positions(const Tables& t, std::size_t id, engine::Tally& out) {
  std::array<std::uint64_t, kTerminalFull - kPositions + 1> c{};
  const auto at = [&c](Counter k) -> std::uint64_t& { return c[static_cast<std::size_t>(k - kPositions)]; };
  for (unsigned rest = 0; rest < 729; ++rest) {
    Board b;
    unsigned code = static_cast<unsigned>(id) + 27u * rest;  // base-3 digits, cell 0 first
    for (int i = 0; i < 9; ++i, code /= 3) {
      if (code % 3 == 1) b.x = static_cast<std::uint16_t>(b.x | 1u << i);
      if (code % 3 == 2) b.o = static_cast<std::uint16_t>(b.o | 1u << i);
    }
    if (!legal(t, b)) continue;
    ++at(kPositions);
    if (canonical(t, b)) ++at(kPositionsUpToSymmetry);
    switch (status(t, b)) {
      case 1: ++at(kTerminal); ++at(kTerminalXLine); break;
      case 2: ++at(kTerminal); ++at(kTerminalOLine); break;
      case 3: ++at(kTerminal); ++at(kTerminalFull); break;
      default: break;
    }
  }
  for (std::size_t i = 0; i < c.size(); ++i) out.add(kPositions + i, c[i]);
}

}  // namespace

engine::Job make_job(int split_depth, engine::Fingerprint started) {
  if (split_depth < 0 || split_depth > 9)
    throw InvalidArgument("split_depth",
                          "tic-tac-toe games have at most 9 moves; expected 0 to 9, got " + std::to_string(split_depth));
  const Tables& t = tables();
  std::uint64_t above = 0, above_sym = 0;
  auto full = std::make_shared<const std::vector<Node>>(frontier(t, split_depth, false, above));
  auto sym = std::make_shared<const std::vector<Node>>(frontier(t, split_depth, true, above_sym));
  engine::Job job;
  job.fingerprint = started.flag("tictactoe").add("split", split_depth);
  job.counter_names = {"games", "x_lines", "o_lines", "draws", "games_up_to_symmetry",  // the game trees
                       "positions", "positions_up_to_symmetry", "terminal", "terminal_x_lines", "terminal_o_lines",
                       "terminal_full"};  // the positions
  job.task_count = full->size() + sym->size() + kPositionTasks;
  job.split_depth = split_depth;
  job.run_task = [full, sym, above](std::size_t id, engine::Tally& out) {
    const Tables& tt = tables();
    if (id < full->size()) {
      const Node& n = (*full)[id];
      GameCounts c;
      walk_full(tt, n.board.x, n.board.o, n.moves, c);
      out.add(kGames, c.games);
      out.add(kXLines, c.x);
      out.add(kOLines, c.o);
      out.add(kDraws, c.draws);
      // Task 0 also owns the nodes above the split, so totals do not depend on it.
      out.nodes = checked_add(out.nodes, c.nodes + (id == 0 ? above : 0));
    } else if (id < full->size() + sym->size()) {
      const Node& n = (*sym)[id - full->size()];
      out.add(kGamesUpToSymmetry, walk_symmetric(tt, n.board, n.moves));
    } else {
      count_positions(tt, id - full->size() - sym->size(), out);
    }
  };
  return job;
}

std::size_t count_positions_by_play() {
  const Tables& t = tables();
  std::vector<bool> seen(1u << 18, false);
  std::vector<Node> stack{Node{}};
  std::size_t count = 0;
  while (!stack.empty()) {
    const Node n = stack.back();
    stack.pop_back();
    if (seen[key(n.board)]) continue;
    seen[key(n.board)] = true;
    ++count;
    for (int m : moves(t, n, false)) stack.push_back(play(n, m));
  }
  return count;
}

int game_value(bool misere) {
  std::vector<signed char> memo(1u << 18, 2);
  return negamax(tables(), Board{}, true, misere, memo);
}

std::array<int, 9> opening_values(bool misere) {
  std::vector<signed char> memo(1u << 18, 2);
  std::array<int, 9> v{};
  for (int i = 0; i < 9; ++i)
    v[static_cast<std::size_t>(i)] =
        -negamax(tables(), Board{static_cast<std::uint16_t>(1u << i), 0}, false, misere, memo);
  return v;
}

}  // namespace pcount::games::tictactoe
