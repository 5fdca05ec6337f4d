#pragma once
/// @file
/// `--sudoku RxC --list` and `--puzzle P --list`: every completed grid (of an
/// empty grid: all sudoku grids; of a puzzle: its solutions), one per line,
/// by a plain backtracking search that fills, at each node, the empty cell
/// with the fewest candidates (the lowest index among equals), values in
/// increasing order. The search is split into engine tasks at a depth (a
/// tree job); each task writes its grids in DFS order, so the whole output
/// is the DFS order of the search: fixed, but not sorted.

#include <cstdint>
#include <string>
#include <vector>

#include "pcount/engine/task.hpp"
#include "pcount/sudoku/box_shape.hpp"

namespace pcount::sudoku {

/// What a listing job writes.
struct ListJobOptions {
  int split_depth = -1;            ///< -1: the shallowest depth giving `min_tasks` tasks
  std::size_t min_tasks = 1024;
  bool json = false;               ///< {"grid":"..."} per line instead of the bare line
  std::uint64_t limit = 0;         ///< a task stops after this many grids (0 = no limit)
  std::string fingerprint;         ///< " split=D" is appended
};

/// The listing job of the grids completing `cells` (N² values, 0 = empty,
/// consistent clues), boxes `shape`. Counter 0 ("grids") = grids written;
/// Tally::nodes = nodes visited. A line is parse_puzzle's alphabet
/// (to_line: 1–9 then A–G for sides above 9). Without a limit the job has
/// a Knuth probe (engine/tree.hpp), so endless listings are refused like
/// endless counts. Throws InvalidArgument("split_depth") for a split too
/// deep, InvalidArgument("box_shape") for a side R·C above 16 (check_shape)
/// and InvalidArgument("cells") when `cells` does not hold N² values.
[[nodiscard]] engine::Job make_grid_list_job(const BoxShape& shape, const std::vector<std::uint8_t>& cells,
                                             const ListJobOptions& options);

}  // namespace pcount::sudoku
