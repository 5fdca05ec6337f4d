#pragma once
// Published numbers of completed sudoku grids with boxes of R rows × C
// columns (side N = R·C), for tests and benchmarks. A grid and its transpose
// (boxes C × R) are counted alike, so RxC and CxR share a value.
//   2x2  (4×4)   288                                     OEIS A107739 (n = 2)
//   2x3  (6×6)   28,200,960                              Frazer Jarvis, "Sudoku enumeration
//                                                        problems" (2005), table of rectangular grids
//   2x4  (8×8)   29,136,487,207,403,520                  Ed Russell (2005), in the same table
//   3x3  (9×9)   6,670,903,752,021,072,936,960           Felgenhauer & Jarvis, "Mathematics of
//                                                        Sudoku I", Mathematical Spectrum 39 (2006);
//                                                        OEIS A107739 (n = 3)
//   2x5  (10×10) 1,903,816,047,972,624,930,994,913,280,000  Kjell Fredrik Pettersen (2005), in the
//                                                        same table
// These are the expected values of the grid tests; they must never be
// replaced by what the program prints.
#include <string>

namespace pcount::test {

/// The published grid total for boxes of `rows` × `cols` cells, as decimal
/// digits, or "" for a shape with no value here.
inline std::string known_grid_count(int rows, int cols) {
  if (rows > cols) return known_grid_count(cols, rows);
  if (rows == 2 && cols == 2) return "288";
  if (rows == 2 && cols == 3) return "28200960";
  if (rows == 2 && cols == 4) return "29136487207403520";
  if (rows == 3 && cols == 3) return "6670903752021072936960";
  if (rows == 2 && cols == 5) return "1903816047972624930994913280000";
  return "";
}

}  // namespace pcount::test
