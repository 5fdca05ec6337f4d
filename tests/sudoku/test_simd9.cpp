// The vectorised 9×9 kernel (simd9): on samples of the five reference sets,
// and on puzzles derived from them with no solution and with several, its
// classification (0, 1, 2+) and solved grid agree with the general kernel
// and with the plain backtracker of tests/support/plain_sudoku.hpp (no
// propagation, no code shared with the library); every instruction-set path
// this CPU runs gives identical results, node counts included, through the
// library and through the program (PCOUNT_SIMD).
#include <gtest/gtest.h>

#include <cpuid.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "pcount/engine/runner.hpp"
#include "pcount/sudoku/puzzle.hpp"
#include "pcount/sudoku/solver.hpp"
#include "support/plain_sudoku.hpp"
#include "support/run_command.hpp"
#include "support/simd9_cross_check.hpp"
#include "sudoku/simd9.hpp"

namespace pcount::sudoku {
namespace {

using test::CommandResult;
using test::run_count;

const char* const kSets[] = {"puzzles2_17_clue", "puzzles3_magictour_top1465", "puzzles5_forum_hardest_1905_11+",
                             "puzzles6_forum_hardest_1106", "puzzles7_serg_benchmark"};

/// Every `step`-th puzzle line of a reference set, `count` of them.
std::vector<std::string> sample(const std::string& name, int count, int step) {
  std::ifstream in(std::string(PCOUNT_DATA_DIR) + "/sudoku/" + name);
  EXPECT_TRUE(in) << name;
  std::vector<std::string> out;
  std::string line;
  int n = 0;
  while (static_cast<int>(out.size()) < count && std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    if (n++ % step == 0) out.push_back(line);
  }
  EXPECT_EQ(static_cast<int>(out.size()), count) << name;
  return out;
}

std::vector<Kernel> supported_simd_kernels() {
  std::vector<Kernel> ks;
  if (simd_path_supported(SimdPath::sse41)) ks.push_back(Kernel::simd9_sse41);
  if (simd_path_supported(SimdPath::avx2)) ks.push_back(Kernel::simd9_avx2);
  if (simd_path_supported(SimdPath::avx512)) ks.push_back(Kernel::simd9_avx512);
  return ks;
}

/// 0, 1 or 2 (two or more) solutions.
int kind(std::uint64_t solutions) { return solutions == 0 ? 0 : solutions == 1 ? 1 : 2; }

/// Puzzle line → the grid the plain counter found, as values.
std::vector<std::uint8_t> as_cells(const std::vector<int>& grid) { return {grid.begin(), grid.end()}; }

/// Checks one puzzle: simd9 (every path), general and the plain counter
/// agree on the class and, for a unique puzzle, on the grid.
void check_puzzle(const std::string& line, const std::vector<Kernel>& paths) {
  SCOPED_TRACE(line);
  const Puzzle p = parse_puzzle(line);
  test::PlainSudoku plain = test::PlainSudoku::from_line(line);
  ASSERT_TRUE(plain.clues_consistent());
  const std::uint64_t plain_n = plain.count_up_to(2);
  const SolveResult general = solve(p, 2, Kernel::general);
  EXPECT_EQ(kind(general.solutions), kind(plain_n));
  ASSERT_FALSE(paths.empty());
  const SolveResult first = solve(p, 2, paths.front());
  EXPECT_EQ(kind(first.solutions), kind(plain_n));
  EXPECT_EQ(first.limit_reached, plain_n >= 2);
  if (plain_n >= 1) {
    EXPECT_TRUE(is_solution(p, first.first));
    EXPECT_TRUE(is_solution(p, general.first));
  } else {
    EXPECT_TRUE(first.first.empty());
  }
  if (plain_n == 1) {
    EXPECT_EQ(first.first, as_cells(plain.first()));
    EXPECT_EQ(general.first, as_cells(plain.first()));
  }
  for (Kernel k : paths) {
    const SolveResult other = solve(p, 2, k);
    EXPECT_EQ(other.solutions, first.solutions) << kernel_name(k);
    EXPECT_EQ(other.limit_reached, first.limit_reached) << kernel_name(k);
    EXPECT_EQ(other.first, first.first) << kernel_name(k);
    EXPECT_EQ(other.nodes, first.nodes) << kernel_name(k);
  }
  // The allocation-free entry point agrees.
  std::uint8_t grid[81] = {};
  const Solve9Result r9 = solve9(p.cells.data(), 2, paths.front(), grid);
  EXPECT_EQ(r9.solutions, first.solutions);
  EXPECT_EQ(r9.nodes, first.nodes);
  if (first.solutions) {
    EXPECT_EQ(std::vector<std::uint8_t>(grid, grid + 81), first.first);
  }
}

TEST(Simd9, ReferenceSetSamplesAgreeWithGeneralAndPlain) {
  const std::vector<Kernel> paths = supported_simd_kernels();
  int unique = 0, none = 0, several = 0;
  for (const char* name : kSets) {
    SCOPED_TRACE(name);
    for (const std::string& line : sample(name, 12, 31)) {
      check_puzzle(line, paths);
      // Derived puzzles: a wrong digit in a blank cell that clashes with no
      // clue (no solution when the puzzle is unique), and the puzzle with
      // its last four clues taken away (usually several solutions).
      test::PlainSudoku plain = test::PlainSudoku::from_line(line);
      const std::uint64_t n = plain.count_up_to(2);
      if (n == 1) {
        ++unique;
        const std::vector<int> sol = plain.first();
        for (int i = 0; i < 81; ++i) {
          if (line[static_cast<std::size_t>(i)] != '.' && line[static_cast<std::size_t>(i)] != '0') continue;
          bool placed = false;
          for (int v = 1; v <= 9 && !placed; ++v) {
            if (v == sol[static_cast<std::size_t>(i)]) continue;
            std::string wrong = line;
            wrong[static_cast<std::size_t>(i)] = static_cast<char>('0' + v);
            if (!test::PlainSudoku::from_line(wrong).clues_consistent()) continue;
            check_puzzle(wrong, paths);
            ++none;
            placed = true;
          }
          if (placed) break;
        }
      }
      std::string fewer = line;
      for (int i = 80, taken = 0; i >= 0 && taken < 4; --i)
        if (fewer[static_cast<std::size_t>(i)] >= '1' && fewer[static_cast<std::size_t>(i)] <= '9') {
          fewer[static_cast<std::size_t>(i)] = '.';
          ++taken;
        }
      if (test::PlainSudoku::from_line(fewer).count_up_to(2) >= 2) ++several;
      check_puzzle(fewer, paths);
    }
  }
  // The samples cover all three classes.
  EXPECT_GT(unique, 20);
  EXPECT_GT(none, 20);
  EXPECT_GT(several, 20);
}

TEST(Simd9, ShippedSetsAgreeWithFast9OnEveryPath) {
  // Every 16th puzzle of the five sets (the whole sets under `long`).
  int checked = 0;
  for (const char* name : kSets) checked += test::cross_check_simd9_set(name, 16);
  EXPECT_GT(checked, 6800);
}

// After an assignment the sweeps skip step 1 (locked candidates) on a
// piece where a cheaper test says it has no work; on 200,000 pieces of
// random segment patterns the test and the step itself agree on every
// path this CPU runs. Checked to fail when the test leaves out the empty
// rows and boxes, and when it takes "or" for "exclusive or".
TEST(Simd9, StepOneTestAgreesWithTheStep) {
  for (std::uint32_t seed : {1u, 2u, 12345u, 0xdeadbeefu}) {
    if (simd_path_supported(SimdPath::sse41)) {
      EXPECT_EQ(detail::simd9_sse41::lock_test_misses(seed, 50000), 0) << seed;
    }
    if (simd_path_supported(SimdPath::avx2)) {
      EXPECT_EQ(detail::simd9_avx2::lock_test_misses(seed, 50000), 0) << seed;
    }
    if (simd_path_supported(SimdPath::avx512)) {
      EXPECT_EQ(detail::simd9_avx512::lock_test_misses(seed, 50000), 0) << seed;
    }
  }
}

TEST(Simd9, DispatchTakesTheWidestPathTheCpuReports) {
  // What the CPU reports, read with CPUID here (leaf 1: SSE4.1/4.2, POPCNT;
  // leaf 7: AVX2, BMI1/2, AVX-512 F/DQ/BW/VL) and the OS's saved register
  // state (XGETBV: YMM for AVX2, ZMM and mask registers for AVX-512).
  unsigned a = 0, b = 0, c = 0, d = 0;
  ASSERT_TRUE(__get_cpuid(1, &a, &b, &c, &d));
  const bool osxsave = (c >> 27) & 1u;
  const bool v2 = ((c >> 19) & 1u) && ((c >> 20) & 1u) && ((c >> 23) & 1u) && ((c >> 9) & 1u);
  const bool fma = (c >> 12) & 1u;
  unsigned long long xcr0 = 0;
  if (osxsave) {
    unsigned lo = 0, hi = 0;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    xcr0 = (static_cast<unsigned long long>(hi) << 32) | lo;
  }
  __cpuid_count(7, 0, a, b, c, d);
  const bool v3 = v2 && fma && ((b >> 5) & 1u) && ((b >> 3) & 1u) && ((b >> 8) & 1u) && (xcr0 & 0x6) == 0x6;
  const bool v4 =
      v3 && ((b >> 16) & 1u) && ((b >> 17) & 1u) && ((b >> 30) & 1u) && ((b >> 31) & 1u) && (xcr0 & 0xE6) == 0xE6;
  EXPECT_EQ(simd_path_supported(SimdPath::sse41), v2);
  EXPECT_EQ(simd_path_supported(SimdPath::avx2), v3);
  EXPECT_EQ(simd_path_supported(SimdPath::avx512), v4);
  if (!simd_path_forced()) {
    EXPECT_EQ(simd_path(), v4 ? SimdPath::avx512 : v3 ? SimdPath::avx2 : SimdPath::sse41);
  }
  // A path the CPU lacks is refused before the run.
  for (const char* name : {"avx2", "avx512"}) {
    const bool have = std::string(name) == "avx2" ? v3 : v4;
    if (have) continue;
    ::setenv("PCOUNT_SIMD", name, 1);
    const CommandResult r = run_count({"--puzzle", std::string(81, '.'), "--limit", "1"});
    ::unsetenv("PCOUNT_SIMD");
    EXPECT_EQ(r.status, 2) << name;
    EXPECT_NE(r.err.find("PCOUNT_SIMD: this CPU cannot run the"), std::string::npos) << r.err;
  }
}

TEST(Simd9, FullCountsMatchThePlainCounterOnEveryPath) {
  // Exact counts (no limit) of puzzles with many solutions: the serg set's
  // first puzzles (up to a few thousand solutions each).
  const std::vector<std::string> lines = sample("puzzles7_serg_benchmark", 60, 1);
  for (const std::string& line : lines) {
    SCOPED_TRACE(line);
    const std::uint64_t plain = test::PlainSudoku::from_line(line).count();
    for (Kernel k : supported_simd_kernels()) EXPECT_EQ(solve(parse_puzzle(line), 0, k).solutions, plain) << kernel_name(k);
  }
}

TEST(Simd9, CountJobsAgreeOnEveryPath) {
  // The 6,696,000 puzzle's subtrees: same task count and same total on
  // every path (the published value is checked in test_solver.cpp).
  const Puzzle p = parse_puzzle("1234567894567891237891234562........5........8........3........6........9........");
  for (Kernel k : supported_simd_kernels()) {
    CountJobOptions o;
    o.kernel = k;
    o.split_depth = 6;
    const engine::Job job = make_count_job(p, o);
    engine::RunOptions run;
    run.threads = 2;
    EXPECT_EQ(engine::run(job, run).totals.counts[0], 6'696'000u) << kernel_name(k);
  }
}

TEST(Simd9, AutomaticRunsTheChosenPath) {
  EXPECT_TRUE(simd_path_supported(SimdPath::sse41) || !simd_path_supported(SimdPath::avx2));
  EXPECT_TRUE(simd_path_supported(simd_path()));
  const Puzzle p = parse_puzzle(sample("puzzles3_magictour_top1465", 1, 1).front());
  const SolveResult a = solve(p, 2);
  const Kernel nine = automatic_kernel(BoxShape{3, 3});
  ASSERT_TRUE(nine == Kernel::simd9 || nine == Kernel::fast9);
  EXPECT_EQ(nine == Kernel::simd9, simd_path() != SimdPath::sse41 || simd_path_forced());
  EXPECT_EQ(automatic_kernel(BoxShape{2, 3}), Kernel::general);
  const Kernel chosen = nine == Kernel::fast9                 ? Kernel::fast9
                        : simd_path() == SimdPath::avx512 ? Kernel::simd9_avx512
                        : simd_path() == SimdPath::avx2   ? Kernel::simd9_avx2
                                                          : Kernel::simd9_sse41;
  const SolveResult b = solve(p, 2, chosen);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.first, b.first);
}

TEST(Simd9, ForcedPathsGiveIdenticalProgramOutput) {
  // --puzzle-file on a sample of every set, once per path this CPU runs,
  // forced with PCOUNT_SIMD: identical stdout, and the summary names the path.
  std::string text;
  for (const char* name : kSets)
    for (const std::string& line : sample(name, 30, 7)) text += line + "\n";
  const std::string path = ::testing::TempDir() + "simd9_sample.txt";
  {
    std::ofstream out(path);
    out << text;
  }
  std::string reference;
  for (const char* name : {"sse4.1", "avx2", "avx512"}) {
    const SimdPath p = std::string(name) == "sse4.1" ? SimdPath::sse41
                       : std::string(name) == "avx2" ? SimdPath::avx2
                                                     : SimdPath::avx512;
    if (!simd_path_supported(p)) continue;
    ::setenv("PCOUNT_SIMD", name, 1);
    const CommandResult r = run_count({"--puzzle-file", path, "--threads", "2"});
    ::unsetenv("PCOUNT_SIMD");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find(std::string("simd9 ") + name), std::string::npos) << r.err;
    EXPECT_EQ(test::count_lines(r.out), 150u);
    if (reference.empty()) reference = r.out;
    EXPECT_EQ(r.out, reference) << name;
  }
  EXPECT_FALSE(reference.empty());
  ::setenv("PCOUNT_SIMD", "mmx", 1);
  const CommandResult bad = run_count({"--puzzle-file", path});
  ::unsetenv("PCOUNT_SIMD");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("PCOUNT_SIMD"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace pcount::sudoku
