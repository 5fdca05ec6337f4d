#include "pcount/queens/show.hpp"

#include <algorithm>
#include <sstream>
#include <string>

#include "pcount/errors.hpp"
#include "pcount/queens/search.hpp"
#include "pcount/queens/symmetry.hpp"

namespace pcount::queens {

namespace {

/// Lexicographic search (columns in increasing order, row by row) keeping
/// the solutions that are their own canonical form.
struct FirstDistinct {
  int n;
  std::size_t k;
  std::uint32_t full;
  std::vector<int> placement;
  std::vector<std::vector<int>> found;

  void dfs(int row, std::uint32_t cols, std::uint32_t d1, std::uint32_t d2) {
    if (found.size() >= k) return;
    if (row == n) {
      if (canonical(placement) == placement) found.push_back(placement);
      return;
    }
    std::uint32_t free = full & ~(cols | d1 | d2);
    while (free && found.size() < k) {
      const std::uint32_t bit = free & (0u - free);
      free ^= bit;
      placement[static_cast<std::size_t>(row)] = __builtin_ctz(bit);
      dfs(row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1);
    }
  }
};

std::string columns_text(const std::vector<int>& p) {
  std::ostringstream s;
  for (std::size_t i = 0; i < p.size(); ++i) s << (i ? " " : "") << p[i] + 1;
  return s.str();
}

}  // namespace

std::vector<std::vector<int>> first_distinct_solutions(int n, std::size_t k) {
  if (n < 1 || n > kMaxN)
    throw InvalidArgument("n", "expected N from 1 to " + std::to_string(kMaxN) + ", got " + std::to_string(n));
  FirstDistinct f{n, k, n == 32 ? ~0u : (1u << n) - 1u, std::vector<int>(static_cast<std::size_t>(n), 0), {}};
  if (k > 0) f.dfs(0, 0, 0, 0);
  return f.found;
}

std::string board_text(std::span<const int> placement, bool ascii) {
  const std::string queen = ascii ? "Q" : "\u265B";
  const std::string empty = ascii ? "." : "\u00B7";
  std::string out;
  const int n = static_cast<int>(placement.size());
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      if (c) out += ' ';
      out += placement[static_cast<std::size_t>(r)] == c ? queen : empty;
    }
    out += '\n';
  }
  return out;
}

std::string boards_svg(const std::vector<std::vector<int>>& solutions) {
  const int n = solutions.empty() ? 1 : static_cast<int>(solutions.front().size());
  const int cell = std::max(8, 256 / n);
  const int board = cell * n;
  const int caption = 20, margin = 16;
  const int per_row = std::min<int>(4, std::max<int>(1, static_cast<int>(solutions.size())));
  const int rows = std::max<int>(1, (static_cast<int>(solutions.size()) + per_row - 1) / per_row);
  const int width = margin + per_row * (board + margin);
  const int height = margin + rows * (board + caption + margin);
  std::ostringstream s;
  s << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" << width << "\" height=\"" << height
    << "\" viewBox=\"0 0 " << width << ' ' << height << "\">\n"
    << "<title>" << n << "-Queens: " << solutions.size() << " distinct solutions (canonical form)</title>\n"
    << "<rect x=\"0\" y=\"0\" width=\"" << width << "\" height=\"" << height << "\" fill=\"#ffffff\"/>\n";
  for (std::size_t i = 0; i < solutions.size(); ++i) {
    const int x0 = margin + static_cast<int>(i % static_cast<std::size_t>(per_row)) * (board + margin);
    const int y0 = margin + static_cast<int>(i / static_cast<std::size_t>(per_row)) * (board + caption + margin);
    s << "<g>\n<text x=\"" << x0 << "\" y=\"" << y0 + 14 << "\" font-family=\"sans-serif\" font-size=\"12\">"
      << '#' << i + 1 << ": " << columns_text(solutions[i]) << "</text>\n";
    const int top = y0 + caption;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c)
        s << "<rect x=\"" << x0 + c * cell << "\" y=\"" << top + r * cell << "\" width=\"" << cell << "\" height=\""
          << cell << "\" fill=\"" << ((r + c) % 2 ? "#b58863" : "#f0d9b5") << "\"/>\n";
    for (int r = 0; r < n; ++r)
      s << "<circle cx=\"" << x0 + solutions[i][static_cast<std::size_t>(r)] * cell + cell / 2 << "\" cy=\""
        << top + r * cell + cell / 2 << "\" r=\"" << std::max(2, cell * 3 / 8) << "\" fill=\"#1a1a1a\"/>\n";
    s << "</g>\n";
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace pcount::queens
