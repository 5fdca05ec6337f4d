#pragma once
// A deliberately plain sudoku solution counter for the tests, sharing no code
// with the library's solvers: one cell at a time, every digit that does not
// already appear in the cell's row, column or box, count the full grids. No
// singles, no bitboards, no propagation of any kind. The only concession to
// speed is the order of the cells: it always fills the empty cell that has
// the fewest allowed digits (a different order visits other nodes but counts
// the same grids, since every allowed digit of the chosen cell is tried).
#include <cstdint>
#include <string>
#include <vector>

namespace pcount::test {

class PlainSudoku {
public:
  /// `cells`: side·side values, 0 = blank, else 1..side; boxes of
  /// box_rows × box_cols cells (side = box_rows·box_cols).
  PlainSudoku(std::vector<int> cells, int box_rows, int box_cols)
      : g_(std::move(cells)), br_(box_rows), bc_(box_cols), n_(box_rows * box_cols) {}

  /// A 9×9 puzzle line: 81 characters, '.' or '0' for a blank.
  static PlainSudoku from_line(const std::string& line) {
    std::vector<int> cells;
    for (char ch : line) cells.push_back(ch >= '1' && ch <= '9' ? ch - '0' : 0);
    return PlainSudoku(std::move(cells), 3, 3);
  }

  /// True when no given digit repeats in a row, column or box.
  [[nodiscard]] bool clues_consistent() const {
    for (int i = 0; i < n_ * n_; ++i) {
      const int v = g_[static_cast<std::size_t>(i)];
      if (v != 0 && !allowed(i, v)) return false;
    }
    return true;
  }

  /// The number of ways to fill every blank, stopping once `limit` are
  /// found (0 = no limit); the first full grid found is kept in first().
  [[nodiscard]] std::uint64_t count_up_to(std::uint64_t limit) {
    limit_ = limit;
    found_ = 0;
    first_.clear();
    keep_first_ = true;
    const std::uint64_t n = count();
    keep_first_ = false;
    limit_ = 0;
    return n;
  }

  /// The first full grid of the last count_up_to (empty if none).
  [[nodiscard]] const std::vector<int>& first() const { return first_; }

  /// The number of ways to fill every blank (the clues must be consistent).
  [[nodiscard]] std::uint64_t count() {
    int best = -1, best_options = n_ + 1;
    std::uint32_t best_used = 0;
    for (int i = 0; i < n_ * n_; ++i) {
      if (g_[static_cast<std::size_t>(i)] != 0) continue;
      const std::uint32_t used = digits_seen_by(i);
      int options = 0;
      for (int v = 1; v <= n_; ++v) options += (used >> v) & 1u ? 0 : 1;
      if (options < best_options) {
        best = i;
        best_options = options;
        best_used = used;
      }
    }
    if (best < 0) {  // no blank left: one full grid
      if (keep_first_ && found_ == 0) first_ = g_;
      ++found_;
      return 1;
    }
    std::uint64_t total = 0;
    for (int v = 1; v <= n_; ++v) {
      if ((best_used >> v) & 1u) continue;
      g_[static_cast<std::size_t>(best)] = v;
      total += count();
      g_[static_cast<std::size_t>(best)] = 0;
      if (limit_ != 0 && found_ >= limit_) break;
    }
    return total;
  }

private:
  std::uint64_t limit_ = 0;   ///< count_up_to's limit while it runs, else 0
  std::uint64_t found_ = 0;   ///< full grids met during count_up_to
  bool keep_first_ = false;
  std::vector<int> first_;

  /// Bit v set: digit v is in another cell of cell i's row, column or box.
  [[nodiscard]] std::uint32_t digits_seen_by(int i) const {
    const int r = i / n_, c = i % n_;
    const int r0 = r / br_ * br_, c0 = c / bc_ * bc_;
    std::uint32_t seen = 0;
    for (int k = 0; k < n_; ++k) {
      const int rr = r0 + k / bc_, cc = c0 + k % bc_;
      if (k != c) seen |= 1u << g_[static_cast<std::size_t>(r * n_ + k)];
      if (k != r) seen |= 1u << g_[static_cast<std::size_t>(k * n_ + c)];
      if (rr != r || cc != c) seen |= 1u << g_[static_cast<std::size_t>(rr * n_ + cc)];
    }
    return seen & ~1u;  // bit 0 is a blank
  }

  /// Digit v does not appear in another cell of cell i's row, column or box.
  [[nodiscard]] bool allowed(int i, int v) const { return ((digits_seen_by(i) >> v) & 1u) == 0; }

  std::vector<int> g_;
  int br_, bc_, n_;
};

}  // namespace pcount::test
