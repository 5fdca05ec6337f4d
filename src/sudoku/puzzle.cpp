#include "pcount/sudoku/puzzle.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#if defined(__x86_64__) && defined(__SSE2__)
#include <immintrin.h>
#endif

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

namespace {

/// Bit i of the result: byte i of `p` (32 readable bytes) equals v.
std::uint32_t bytes_equal(const std::uint8_t* p, std::uint8_t v) {
#if defined(__x86_64__) && defined(__AVX2__)
  const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, _mm256_set1_epi8(static_cast<char>(v)))));
#elif defined(__x86_64__) && defined(__SSE2__)
  const __m128i w = _mm_set1_epi8(static_cast<char>(v));
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16));
  return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(lo, w))) |
         (static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(hi, w))) << 16);
#else
  std::uint32_t m = 0;
  for (int i = 0; i < 32; ++i) m |= static_cast<std::uint32_t>(p[i] == v) << i;
  return m;
#endif
}

}  // namespace

// Digit planes: for each digit and band the 27-bit set of the band's cells
// holding it (bit 9·(row mod 3) + column), from byte compares. A grid is
// valid when every digit is in every row, column and box: a row's nine
// cells then hold nine different digits, so every cell holds one of 1-9
// and every unit holds each digit exactly once. The rows and boxes of a
// band, and the columns of the three bands' OR, are checked for all digits
// at once in 8-lane vectors (GCC vector extensions: SIMD where the target
// has it, plain code elsewhere).
bool is_solution9(const std::uint8_t* clues, const std::uint8_t* grid) {
  typedef std::uint32_t V8 __attribute__((vector_size(32)));
  typedef std::uint8_t B32 __attribute__((vector_size(32)));
  constexpr std::uint32_t kBand = 0x7FFFFFF, kLead = 0x1249249, kRowLeads = 0x40201, kBoxLeads = 0111;
  alignas(32) std::uint8_t g[96] = {}, k[96] = {};  // band 2's compares read 5 bytes past the grid
  std::memcpy(g, grid, 81);
  std::memcpy(k, clues, 81);
  B32 moved{};  // a clue whose cell holds another value
  for (int i = 0; i < 96; i += 32) {
    B32 v, c;
    std::memcpy(&v, g + i, sizeof v);
    std::memcpy(&c, k + i, sizeof c);
    moved |= reinterpret_cast<B32>((c != 0) & (c != v));
  }
  // Lane d of plane[b]: digit d + 1 in band b; lanes 9-15 full (nothing missing).
  alignas(32) std::uint32_t plane[3][16];
  for (int b = 0; b < 3; ++b) {
    for (int d = 0; d < 9; ++d) plane[b][d] = bytes_equal(g + 27 * b, static_cast<std::uint8_t>(d + 1)) & kBand;
    for (int d = 9; d < 16; ++d) plane[b][d] = kBand;
  }
  V8 missing{};
  for (int h = 0; h < 16; h += 8) {
    V8 all{};
    for (int b = 0; b < 3; ++b) {
      V8 x;
      std::memcpy(&x, plane[b] + h, sizeof x);
      all |= x;
      const V8 seg = (x | (x >> 1) | (x >> 2)) & kLead;  // row r, box c: bit 9r + 3c
      missing |= (((seg | (seg >> 3) | (seg >> 6)) & kRowLeads) ^ kRowLeads) |
                 (((seg | (seg >> 9) | (seg >> 18)) & kBoxLeads) ^ kBoxLeads);
    }
    missing |= ((all | (all >> 9) | (all >> 18)) & 0777u) ^ 0777u;
  }
  std::uint64_t words[8];
  std::memcpy(words, &moved, 32);
  std::memcpy(words + 4, &missing, 32);
  return (words[0] | words[1] | words[2] | words[3] | words[4] | words[5] | words[6] | words[7]) == 0;
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
