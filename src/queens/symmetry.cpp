#include "pcount/queens/symmetry.hpp"

#include <algorithm>
#include <string>

#include "pcount/errors.hpp"

namespace pcount::queens {

std::vector<int> map_placement(Symmetry g, std::span<const int> p) {
  const int n = static_cast<int>(p.size());
  std::vector<int> image(p.size(), 0);
  for (int r = 0; r < n; ++r) {
    const Square s = map_square(g, Square{r, p[static_cast<std::size_t>(r)]}, n);
    image[static_cast<std::size_t>(s.row)] = s.col;
  }
  return image;
}

bool is_solution(std::span<const int> p) {
  const int n = static_cast<int>(p.size());
  std::vector<bool> col(p.size(), false), sum(2 * p.size(), false), diff(2 * p.size(), false);
  for (int r = 0; r < n; ++r) {
    const int c = p[static_cast<std::size_t>(r)];
    if (c < 0 || c >= n) return false;
    const auto cs = static_cast<std::size_t>(c);
    const auto ss = static_cast<std::size_t>(r + c);
    const auto ds = static_cast<std::size_t>(r - c + n);
    if (col[cs] || sum[ss] || diff[ds]) return false;
    col[cs] = sum[ss] = diff[ds] = true;
  }
  return true;
}

std::vector<int> canonical(std::span<const int> p) {
  std::vector<int> best(p.begin(), p.end());
  for (Symmetry g : kSymmetries) best = std::min(best, map_placement(g, p));
  return best;
}

QueensCounts burnside(int n, u128 all, u128 rot180, u128 rot90) {
  const u128 reflections = n == 1 ? 4 : 0;  // four reflections, each fixing the one queen of N = 1
  const u128 sum = checked_add(checked_add(all, rot180), checked_add(checked_mul(2, rot90), reflections));
  if (sum % 8 != 0)
    throw InternalError("queens " + std::to_string(n) + ": Burnside sum Q + P + 2R = " + to_string(sum) +
                        " is not divisible by 8 (Q=" + to_string(all) + ", P=" + to_string(rot180) +
                        ", R=" + to_string(rot90) + ")");
  if (rot90 > rot180 || rot180 > all)
    throw InternalError("queens " + std::to_string(n) + ": symmetric counts exceed the total");
  return QueensCounts{all, sum / 8, rot180, rot90};
}

std::string_view name(Symmetry g) {
  switch (g) {
    case Symmetry::identity: return "identity";
    case Symmetry::rot90: return "rot90";
    case Symmetry::rot180: return "rot180";
    case Symmetry::rot270: return "rot270";
    case Symmetry::mirror_cols: return "mirror_cols";
    case Symmetry::mirror_rows: return "mirror_rows";
    case Symmetry::transpose: return "transpose";
    case Symmetry::antitranspose: return "antitranspose";
  }
  return "?";
}

}  // namespace pcount::queens
