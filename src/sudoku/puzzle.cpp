#include "pcount/sudoku/puzzle.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>

namespace pcount::sudoku {

namespace {

std::string cell_name(int row, int col) {
  return "row " + std::to_string(row + 1) + ", column " + std::to_string(col + 1);
}

/// Value of character ch (0 for a blank), or -1 when it is not a value of a
/// grid of side n.
int char_value(char ch, int n) {
  if (ch == '.' || ch == '0') return 0;
  int v = -1;
  if (ch >= '1' && ch <= '9') v = ch - '0';
  else if (ch >= 'A' && ch <= 'Z') v = ch - 'A' + 10;
  else if (ch >= 'a' && ch <= 'z') v = ch - 'a' + 10;
  return v >= 1 && v <= n ? v : -1;
}

std::string allowed_values(int n) {
  std::string s = n == 1 ? "1" : "1-" + std::string(1, value_char(std::min(n, 9)));
  if (n >= 10) s += ", A-" + std::string(1, value_char(n));
  return s + ", '.' or '0' for a blank";
}

std::string shown_char(char ch) {
  const auto u = static_cast<unsigned char>(ch);
  if (std::isprint(u)) return "'" + std::string(1, ch) + "'";
  static const char* hex = "0123456789abcdef";
  return std::string("byte 0x") + hex[u >> 4] + hex[u & 15];
}

}  // namespace

void check_shape(const BoxShape& shape, const std::string& argument) {
  if (shape.rows < 1 || shape.cols < 1 || shape.side() > kMaxSide)
    throw InvalidArgument(argument, "box " + std::to_string(shape.rows) + "x" + std::to_string(shape.cols) +
                                        " gives a grid side of " + std::to_string(shape.side()) +
                                        "; the side R·C must be at most " + std::to_string(kMaxSide));
}

char value_char(int v) {
  if (v <= 0) return '.';
  if (v <= 9) return static_cast<char>('0' + v);
  return static_cast<char>('A' + v - 10);
}

Puzzle parse_puzzle(std::string_view text, const BoxShape& shape, const std::string& argument) {
  check_shape(shape);
  const int n = shape.side();
  const int total = shape.cells();
  Puzzle p;
  p.shape = shape;
  p.cells.reserve(static_cast<std::size_t>(total));
  for (char ch : text) {
    if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f') continue;
    const int v = char_value(ch, n);
    const int index = static_cast<int>(p.cells.size());
    if (v < 0) {
      const std::string where = index < total ? cell_name(index / n, index % n) : "cell " + std::to_string(index + 1);
      throw PuzzleError(argument,
                        where + ": bad character " + shown_char(ch) + "; allowed: " + allowed_values(n),
                        index < total ? index / n + 1 : 0, index < total ? index % n + 1 : 0);
    }
    p.cells.push_back(static_cast<std::uint8_t>(v));
  }
  if (static_cast<int>(p.cells.size()) != total)
    throw PuzzleError(argument,
                      "expected " + std::to_string(total) + " cells for a " + std::to_string(n) + "×" +
                          std::to_string(n) + " grid (" + std::to_string(shape.rows) + "x" +
                          std::to_string(shape.cols) + " boxes), got " + std::to_string(p.cells.size()),
                      0, 0);
  // Values seen so far per row, column and box; the earlier cell is looked
  // up only to word the error.
  std::array<std::uint32_t, kMaxSide> row_seen{}, col_seen{}, box_seen{};
  for (int i = 0; i < total; ++i) {
    const int v = p.cells[static_cast<std::size_t>(i)];
    if (v == 0) continue;
    const int r = i / n;
    const int c = i % n;
    const int b = shape.box_of(r, c);
    const std::uint32_t bit = 1u << v;
    auto& rs = row_seen[static_cast<std::size_t>(r)];
    auto& cs = col_seen[static_cast<std::size_t>(c)];
    auto& bs = box_seen[static_cast<std::size_t>(b)];
    if ((rs | cs | bs) & bit) {
      auto clash = [&](const std::string& unit, auto same_unit) {
        int e = 0;
        while (!(same_unit(e / n, e % n) && p.cells[static_cast<std::size_t>(e)] == v)) ++e;
        throw PuzzleError(argument,
                          cell_name(r, c) + ": digit " + std::string(1, value_char(v)) + " repeats in " + unit +
                              " (already at " + cell_name(e / n, e % n) + ")",
                          r + 1, c + 1);
      };
      if (rs & bit) clash("row " + std::to_string(r + 1), [&](int r2, int) { return r2 == r; });
      if (cs & bit) clash("column " + std::to_string(c + 1), [&](int, int c2) { return c2 == c; });
      clash("box " + std::to_string(b + 1), [&](int r2, int c2) { return shape.box_of(r2, c2) == b; });
    }
    rs |= bit;
    cs |= bit;
    bs |= bit;
  }
  return p;
}

std::string to_line(const std::vector<std::uint8_t>& cells) {
  std::string s;
  s.reserve(cells.size());
  for (auto v : cells) s += value_char(v);
  return s;
}

std::string to_grid(const std::vector<std::uint8_t>& cells, const BoxShape& shape) {
  const int n = shape.side();
  std::string s;
  std::string rule;
  for (int c = 0; c < n; ++c) {
    if (c > 0 && c % shape.cols == 0) rule += "+-";
    rule += c + 1 < n ? "--" : "-";
  }
  for (int r = 0; r < n; ++r) {
    if (r > 0 && r % shape.rows == 0) s += rule + "\n";
    for (int c = 0; c < n; ++c) {
      if (c > 0) s += c % shape.cols == 0 ? " | " : " ";
      s += value_char(cells[static_cast<std::size_t>(r * n + c)]);
    }
    s += '\n';
  }
  return s;
}

// Each value's bit (one-hot, 32-bit) in a padded array; a unit of nine cells
// holds every digit once exactly when the OR of its bits is 0x3FE. Columns
// and boxes are ORs of whole rows as 16-lane vectors (GCC vector
// extensions: SIMD where the target has it, plain code elsewhere); rows are
// ORed one by one.
bool is_solution9(const std::uint8_t* clues, const std::uint8_t* grid) {
  typedef std::uint32_t V16 __attribute__((vector_size(64)));
  // Each loop on its own so that the compiler vectorises it.
  unsigned bad = 0;
  for (int i = 0; i < 81; ++i) {
    const unsigned v = grid[i], k = clues[i];
    bad |= static_cast<unsigned>(v - 1u > 8u) | (static_cast<unsigned>(k != 0u) & static_cast<unsigned>(k != v));
  }
  alignas(64) std::uint32_t one[81 + 16];  // the last row's vector reads 7 padding lanes
  for (int i = 0; i < 81; ++i) one[i] = 1u << (grid[i] & 15u);
  for (int i = 81; i < 81 + 16; ++i) one[i] = 0;
  unsigned all = 0x3FE;
  V16 columns{};
  for (int band = 0; band < 3; ++band) {
    // Lanes 0-8: the columns of this band; box s is lanes 3s..3s+2.
    V16 b{};
    for (int r = 3 * band; r < 3 * band + 3; ++r) {
      V16 x;
      std::memcpy(&x, one + 9 * r, sizeof x);
      b |= x;
    }
    columns |= b;
    for (int s = 0; s < 3; ++s) all &= b[3 * s] | b[3 * s + 1] | b[3 * s + 2];
  }
  for (int c = 0; c < 9; ++c) all &= columns[c];
  for (int r = 0; r < 9; ++r) {
    unsigned row = 0;
    for (int c = 0; c < 9; ++c) row |= one[9 * r + c];
    all &= row;
  }
  return bad == 0 && all == 0x3FE;
}

bool is_solution(const Puzzle& puzzle, const std::vector<std::uint8_t>& grid) {
  const BoxShape& shape = puzzle.shape;
  const int n = shape.side();
  if (n < 1 || n > kMaxSide || static_cast<int>(grid.size()) != shape.cells() || puzzle.cells.size() != grid.size())
    return false;
  if (shape == BoxShape{3, 3}) return is_solution9(puzzle.cells.data(), grid.data());
  std::array<std::uint32_t, kMaxSide> rows{}, cols{}, boxes{};
  std::array<int, kMaxSide> box_col{};  // box index offset of each column
  for (int c = 0; c < n; ++c) box_col[static_cast<std::size_t>(c)] = c / shape.cols;
  for (int r = 0; r < n; ++r) {
    const int band = (r / shape.rows) * shape.rows;
    for (int c = 0; c < n; ++c) {
      const std::size_t i = static_cast<std::size_t>(r * n + c);
      const int v = grid[i];
      if (v < 1 || v > n) return false;
      if (puzzle.cells[i] != 0 && puzzle.cells[i] != v) return false;
      const std::uint32_t bit = 1u << v;
      const auto b = static_cast<std::size_t>(band + box_col[static_cast<std::size_t>(c)]);
      if ((rows[static_cast<std::size_t>(r)] | cols[static_cast<std::size_t>(c)] | boxes[b]) & bit) return false;
      rows[static_cast<std::size_t>(r)] |= bit;
      cols[static_cast<std::size_t>(c)] |= bit;
      boxes[b] |= bit;
    }
  }
  return true;
}

}  // namespace pcount::sudoku
