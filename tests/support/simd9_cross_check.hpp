#pragma once
// Cross-check of the vectorised 9×9 kernel on a shipped puzzle set: every
// `step`-th puzzle line of data/sudoku/<name> is solved with limit 2 by the
// scalar fast9 kernel (band bitboards, no code shared with simd9's
// propagation) and by simd9 on every instruction-set path this CPU runs;
// all must give the same solution count and limit flag, and for a unique
// puzzle the same solution. The simd9 paths must agree with each other on
// the first solution (a puzzle with several may be found in another order
// than fast9's) and the node count, and that solution must keep the rules
// and the clues. Returns the puzzles checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "pcount/sudoku/puzzle.hpp"
#include "pcount/sudoku/solver.hpp"

namespace pcount::test {

inline int cross_check_simd9_set(const std::string& name, int step) {
  using namespace pcount::sudoku;
  std::vector<Kernel> paths;
  if (simd_path_supported(SimdPath::sse41)) paths.push_back(Kernel::simd9_sse41);
  if (simd_path_supported(SimdPath::avx2)) paths.push_back(Kernel::simd9_avx2);
  if (simd_path_supported(SimdPath::avx512)) paths.push_back(Kernel::simd9_avx512);
  EXPECT_FALSE(paths.empty());
  std::ifstream in(std::string(PCOUNT_DATA_DIR) + "/sudoku/" + name);
  EXPECT_TRUE(in) << name;
  std::string line;
  int n = 0, checked = 0, failures = 0;
  while (std::getline(in, line) && failures < 5) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#' || n++ % step != 0) continue;
    const Puzzle p = parse_puzzle(line);
    std::uint8_t ref_grid[81] = {}, first[81] = {}, grid[81] = {};
    const Solve9Result ref = solve9(p.cells.data(), 2, Kernel::fast9, ref_grid);
    const bool unique = ref.solutions == 1 && !ref.limit_reached;
    std::uint64_t nodes = 0;
    for (std::size_t i = 0; i < paths.size(); ++i) {
      const Solve9Result r = solve9(p.cells.data(), 2, paths[i], i == 0 ? first : grid);
      const std::uint8_t* got = i == 0 ? first : grid;
      bool same = r.solutions == ref.solutions && r.limit_reached == ref.limit_reached &&
                  (!unique || std::equal(got, got + 81, ref_grid)) && (i == 0 || r.nodes == nodes) &&
                  (i == 0 || std::equal(got, got + 81, first));
      if (r.solutions != 0) same = same && is_solution(p, std::vector<std::uint8_t>(got, got + 81));
      if (i == 0) nodes = r.nodes;
      EXPECT_TRUE(same) << name << " line " << n << " " << kernel_name(paths[i]) << ": " << r.solutions << " vs "
                        << ref.solutions;
      failures += same ? 0 : 1;
    }
    ++checked;
  }
  return checked;
}

}  // namespace pcount::test
