// Sudoku puzzle solvers: known unique solutions checked against the rules,
// counts checked against published values or against the plain counter of
// tests/support/plain_sudoku.hpp (an independent method), both kernels
// against each other, engine jobs for every thread count and split depth.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "pcount/engine/runner.hpp"
#include "pcount/sudoku/puzzle.hpp"
#include "pcount/sudoku/solver.hpp"
#include "support/known_grids.hpp"
#include "support/plain_sudoku.hpp"

namespace pcount::sudoku {
namespace {

const std::string kSeed003 = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const std::string kEscargot = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..";
// Row 1 needs a 9 in column 9, but column 9 has a 9 in row 2: no solution,
// although no clue repeats.
const std::string kContradiction = "12345678.........9" + std::string(63, '.');
// Seed 003 with the clues of its last two rows removed: several solutions
// (240, as the plain counter finds).
const std::string kSeed003Open = kSeed003.substr(0, 63) + std::string(18, '.');

/// Solutions of a 9×9 puzzle line by the plain counter.
std::uint64_t plain_count(const std::string& line) {
  test::PlainSudoku p = test::PlainSudoku::from_line(line);
  EXPECT_TRUE(p.clues_consistent()) << line;
  return p.count();
}

/// Checks `grid` cell by cell against the rules and the clues, independently
/// of the library's own checker.
void expect_valid_solution(const std::string& puzzle, const std::vector<std::uint8_t>& grid) {
  ASSERT_EQ(grid.size(), 81u);
  for (int i = 0; i < 81; ++i) {
    const int v = grid[static_cast<std::size_t>(i)];
    ASSERT_GE(v, 1) << "cell " << i;
    ASSERT_LE(v, 9) << "cell " << i;
    if (puzzle[static_cast<std::size_t>(i)] != '.') {
      EXPECT_EQ(v, puzzle[static_cast<std::size_t>(i)] - '0') << "clue at cell " << i;
    }
    const int r = i / 9, c = i % 9;
    for (int j = 0; j < 81; ++j) {
      if (j == i) continue;
      const int r2 = j / 9, c2 = j % 9;
      const bool peer = r == r2 || c == c2 || (r / 3 == r2 / 3 && c / 3 == c2 / 3);
      if (peer) {
        EXPECT_NE(grid[static_cast<std::size_t>(j)], v) << "cells " << i << " and " << j;
      }
    }
  }
}

TEST(PuzzleSolver, Seed003IsUniqueAndSolvedByTheRules) {
  for (Kernel k : {Kernel::fast9, Kernel::general}) {
    const SolveResult r = solve(parse_puzzle(kSeed003), 0, k);
    EXPECT_EQ(r.solutions, 1u) << kernel_name(k);
    EXPECT_FALSE(r.limit_reached);
    expect_valid_solution(kSeed003, r.first);
    EXPECT_EQ(to_line(r.first), "534678912672195348198342567859761423426853791713924856961537284287419635345286179");
  }
}

TEST(PuzzleSolver, AiEscargotIsUniqueAndSolvedByTheRules) {
  for (Kernel k : {Kernel::fast9, Kernel::general}) {
    const SolveResult r = solve(parse_puzzle(kEscargot), 0, k);
    EXPECT_EQ(r.solutions, 1u) << kernel_name(k);
    expect_valid_solution(kEscargot, r.first);
    EXPECT_GT(r.nodes, 0u);  // needs search: singles alone do not finish it
  }
}

TEST(KernelTable, EveryKernelIsNamedOnceAndEveryRunnableOneSolves) {
  // The table is in enum order, names round-trip, and every concrete kernel
  // this CPU runs finds AI Escargot's one solution through the table's own
  // entry points (solve, solve9, count job), as solve() dispatches them.
  const auto table = kernels();
  ASSERT_EQ(table.size(), static_cast<std::size_t>(Kernel::simd9_avx512) + 1);
  for (std::size_t i = 0; i < table.size(); ++i) {
    const KernelInfo& k = table[i];
    EXPECT_EQ(static_cast<std::size_t>(k.kernel), i);
    ASSERT_TRUE(kernel_by_name(k.name).has_value()) << k.name;
    EXPECT_EQ(*kernel_by_name(k.name), k.kernel) << k.name;
    EXPECT_EQ((k.solve == nullptr), (k.count_job == nullptr)) << k.name;
    if (!k.solve || (k.path && !simd_path_supported(*k.path))) continue;
    const Puzzle p = parse_puzzle(kEscargot);
    EXPECT_EQ(k.solve(p, 0).solutions, 1u) << k.name;
    if (k.solve9) {
      std::uint8_t first[81] = {};
      EXPECT_EQ(k.solve9(p.cells.data(), 0, first).solutions, 1u) << k.name;
    }
    engine::RunOptions options;
    options.threads = 2;
    EXPECT_EQ(engine::run(k.count_job(p, {}), options).totals.counts[0], 1u) << k.name;
  }
  EXPECT_FALSE(kernel_by_name("simd10").has_value());
}

TEST(PuzzleSolver, EmptyFourByFourHas288) {
  const SolveResult r = solve(parse_puzzle(std::string(16, '.'), BoxShape{2, 2}));
  EXPECT_EQ(std::to_string(r.solutions), test::known_grid_count(2, 2));  // 288, OEIS A107739
  EXPECT_TRUE(is_solution(parse_puzzle(std::string(16, '.'), BoxShape{2, 2}), r.first));
  EXPECT_THROW((void)solve(parse_puzzle(std::string(16, '.'), BoxShape{2, 2}), 0, Kernel::fast9), InvalidArgument);
}

TEST(PuzzleSolver, ContradictionHasNoSolution) {
  for (Kernel k : {Kernel::fast9, Kernel::general}) {
    const SolveResult r = solve(parse_puzzle(kContradiction), 0, k);
    EXPECT_EQ(r.solutions, 0u) << kernel_name(k);
    EXPECT_TRUE(r.first.empty());
  }
}

TEST(PuzzleSolver, KernelsAgreeOnAPuzzleWithSeveralSolutions) {
  const Puzzle p = parse_puzzle(kSeed003Open);
  const SolveResult fast = solve(p, 0, Kernel::fast9);
  const SolveResult general = solve(p, 0, Kernel::general);
  const std::uint64_t plain = plain_count(kSeed003Open);
  EXPECT_GT(plain, 2u);
  EXPECT_EQ(fast.solutions, plain);
  EXPECT_EQ(general.solutions, plain);
  EXPECT_TRUE(is_solution(p, fast.first));
  EXPECT_TRUE(is_solution(p, general.first));
  // Counting with a limit stops there.
  const SolveResult two = solve(p, 2, Kernel::fast9);
  EXPECT_EQ(two.solutions, 2u);
  EXPECT_TRUE(two.limit_reached);
  const SolveResult all = solve(p, fast.solutions, Kernel::general);
  EXPECT_EQ(all.solutions, fast.solutions);
  EXPECT_TRUE(all.limit_reached);  // reached exactly: the count is "at least"
}

TEST(PuzzleSolver, LimitOnAnEmptyGrid) {
  for (Kernel k : {Kernel::fast9, Kernel::general}) {
    const SolveResult r = solve(parse_puzzle(std::string(81, '.')), 1000, k);
    EXPECT_EQ(r.solutions, 1000u);
    EXPECT_TRUE(r.limit_reached);
    EXPECT_TRUE(is_solution(parse_puzzle(std::string(81, '.')), r.first));
  }
}

TEST(PuzzleSolver, OtherShapes) {
  // 2×3 boxes: a 6×6 with the first row and the rest of box 1 fixed. Every
  // 6×6 grid is one of these up to relabelling the digits (6!) and permuting
  // the three columns of box 1 (3!, digits 1-3 relabelled back), so there are
  // 28,200,960 / (6!·3!) = 6528 of them (the published total); the plain
  // counter must agree.
  const std::string p6 = "123456" "456" + std::string(27, '.');
  const std::uint64_t p6_count = solve(parse_puzzle(p6, BoxShape{2, 3})).solutions;
  EXPECT_EQ(std::to_string(p6_count * 720 * 6), test::known_grid_count(2, 3));
  {
    std::vector<int> cells;
    for (char ch : p6) cells.push_back(ch == '.' ? 0 : ch - '0');
    EXPECT_EQ(test::PlainSudoku(cells, 2, 3).count(), p6_count);
  }
  // 3×2 boxes: a puzzle and its transpose (2×3 boxes) have equally many
  // solutions.
  const std::string p6t = "123456" "34" + std::string(28, '.');
  const Puzzle q = parse_puzzle(p6t, BoxShape{3, 2});
  std::string transposed(36, '.');
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c) transposed[static_cast<std::size_t>(c * 6 + r)] = p6t[static_cast<std::size_t>(r * 6 + c)];
  const SolveResult rq = solve(q);
  EXPECT_GT(rq.solutions, 1u);
  EXPECT_EQ(rq.solutions, solve(parse_puzzle(transposed, BoxShape{2, 3})).solutions);
  {
    std::vector<int> cells;
    for (char ch : p6t) cells.push_back(ch == '.' ? 0 : ch - '0');
    EXPECT_EQ(test::PlainSudoku(cells, 3, 2).count(), rq.solutions);
  }
  EXPECT_TRUE(is_solution(q, rq.first));
  // 16×16 (4×4 boxes): an empty grid has a first solution found quickly.
  const Puzzle big = parse_puzzle(std::string(256, '.'), BoxShape{4, 4});
  const SolveResult rb = solve(big, 1);
  EXPECT_EQ(rb.solutions, 1u);
  EXPECT_TRUE(is_solution(big, rb.first));
  // 1×1.
  EXPECT_EQ(solve(parse_puzzle(".", BoxShape{1, 1})).solutions, 1u);
}

TEST(PuzzleSolver, SharedDataSetsAgreeBetweenKernels) {
  // The first puzzles of each reference set: the kernels agree on the count
  // (limit 2) and give valid solutions.
  for (const char* name : {"puzzles2_17_clue", "puzzles5_forum_hardest_1905_11+", "puzzles7_serg_benchmark"}) {
    std::ifstream in(std::string(PCOUNT_DATA_DIR) + "/sudoku/" + name);
    ASSERT_TRUE(in) << name;
    std::string line;
    int n = 0;
    while (n < 60 && std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      ++n;
      const Puzzle p = parse_puzzle(line);
      const SolveResult a = solve(p, 2, Kernel::fast9);
      const SolveResult b = solve(p, 2, Kernel::general);
      EXPECT_EQ(a.solutions, b.solutions) << line;
      EXPECT_GE(a.solutions, 1u) << line;
      EXPECT_TRUE(is_solution(p, a.first)) << line;
      EXPECT_TRUE(is_solution(p, b.first)) << line;
      if (a.solutions == 1) {
        EXPECT_EQ(a.first, b.first) << line;
      }
    }
    EXPECT_EQ(n, 60) << name;
  }
}

TEST(PuzzleSolver, SergBenchmarkCountsMatchThePlainCounter) {
  // puzzles7_serg_benchmark has puzzles with up to a few thousand solutions
  // each. For its first 500 puzzles (the first 100 with the general kernel
  // too, which is slower) every kernel count must equal the plain counter's,
  // puzzle by puzzle. The plain counter takes about two seconds for these.
  std::ifstream in(std::string(PCOUNT_DATA_DIR) + "/sudoku/puzzles7_serg_benchmark");
  ASSERT_TRUE(in);
  std::string line;
  std::uint64_t total = 0;
  int n = 0, several = 0;
  while (n < 500 && std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const Puzzle p = parse_puzzle(line);
    const std::uint64_t plain = plain_count(line);
    EXPECT_EQ(solve(p, 0, Kernel::fast9).solutions, plain) << "puzzle " << n + 1 << ": " << line;
    if (n < 100) {
      EXPECT_EQ(solve(p, 0, Kernel::general).solutions, plain) << "puzzle " << n + 1 << ": " << line;
    }
    total += plain;
    several += plain > 1 ? 1 : 0;
    ++n;
  }
  EXPECT_EQ(n, 500);
  EXPECT_GT(several, 0);  // the set is meant to hold puzzles with several solutions
  EXPECT_GT(total, static_cast<std::uint64_t>(n));
}

TEST(PuzzleJob, SameCountForEveryThreadCountAndSplitDepth) {
  for (const auto& [text, shape] : std::vector<std::pair<std::string, BoxShape>>{
           {kSeed003Open, BoxShape{3, 3}}, {std::string(16, '.'), BoxShape{2, 2}}, {"123456" "456" + std::string(27, '.'), BoxShape{2, 3}}}) {
    const Puzzle p = parse_puzzle(text, shape);
    const std::uint64_t expected = solve(p).solutions;
    for (int depth : {-1, 0, 1, 2, 3, 5}) {
      for (int threads : {1, 2, 4}) {
        CountJobOptions o;
        o.split_depth = depth;
        const engine::Job job = make_count_job(p, o);
        engine::RunOptions ro;
        ro.threads = threads;
        const engine::RunResult r = engine::run(job, ro);
        EXPECT_EQ(r.totals.counts[0], expected) << text << " depth " << depth << " threads " << threads;
        if (depth >= 0) {
          EXPECT_EQ(job.split_depth, depth);
        }
      }
    }
  }
}

TEST(PuzzleJob, BandAndFirstColumnHas6696000Solutions) {
  // The same number comes from band counts alone in test_grids.cpp
  // (SudokuGrids.ThreeByThreePerClassCheckTopBandAndFirstColumn): two
  // independent methods. The count's last bands come from the band cache
  // (solver.cpp); every thread count splits the puzzle into its own tasks
  // (64 per thread) and must give the same total. More splits and the
  // general kernel are in long_puzzle.cpp.
  const Puzzle p =
      parse_puzzle("1234567894567891237891234562........5........8........3........6........9........");
  for (int threads : {1, 2, 3}) {
    CountJobOptions o;
    o.min_tasks = 64 * static_cast<std::size_t>(threads);
    engine::RunOptions ro;
    ro.threads = threads;
    EXPECT_EQ(engine::run(make_count_job(p, o), ro).totals.counts[0], 6'696'000u) << threads << " threads";
  }
}

TEST(PuzzleJob, BandCacheCountsAgreeWithThePlainCounter) {
  // The 6,696,000 puzzle with part of row 4 filled in: small enough for the
  // plain counter of the test (no propagation, no endgame, no band cache),
  // large enough that the solver's unlimited count reuses its last band
  // many times. Every kernel, and the count job on 1, 2, 3 threads.
  for (const char* text : {"123456789456789123789123456297315...5........8........3........6........9........",
                           "1234567894567891237891234562973156485........8........3........6........9........"}) {
    SCOPED_TRACE(text);
    const std::uint64_t plain = test::PlainSudoku::from_line(text).count();
    ASSERT_GT(plain, 1000u);
    const Puzzle p = parse_puzzle(text);
    for (Kernel k : {Kernel::automatic, Kernel::fast9, Kernel::general})
      EXPECT_EQ(solve(p, 0, k).solutions, plain) << kernel_name(k);
    for (int threads : {1, 2, 3}) {
      CountJobOptions o;
      o.min_tasks = 16;
      engine::RunOptions ro;
      ro.threads = threads;
      EXPECT_EQ(engine::run(make_count_job(p, o), ro).totals.counts[0], plain) << threads << " threads";
    }
  }
  // Other shapes whose bands have at most 32 cells (2×4 boxes: 16; 4×2: 32).
  struct Case {
    BoxShape shape;
    const char* text;
  };
  for (const Case& c : {Case{BoxShape{2, 4}, ".7.6...41......67....8....1......35...68..4...............6....."},
                        Case{BoxShape{4, 2}, "......8..78.................3.15.1...2......5.62...1....48......"}}) {
    SCOPED_TRACE(c.text);
    std::vector<int> cells;
    for (const char* ch = c.text; *ch; ++ch) cells.push_back(*ch == '.' ? 0 : *ch - '0');
    const std::uint64_t plain = test::PlainSudoku(cells, c.shape.rows, c.shape.cols).count();
    ASSERT_GT(plain, 1000u);
    EXPECT_EQ(solve(parse_puzzle(c.text, c.shape), 0).solutions, plain);
  }
}

TEST(PuzzleJob, KernelsGiveTheSameTasks) {
  // fast9 and sweep both branch on the first bivalue cell in row order, and
  // here their propagation leaves the same candidates at the branching
  // cells, so they cut the same frontier. (general breaks ties between
  // bivalue cells by their open peers and cuts a different one; its totals
  // are checked against both in GeneralSolver.*.)
  const Puzzle p = parse_puzzle(kSeed003Open);
  for (int depth : {1, 2, 3}) {
    CountJobOptions a, b;
    a.split_depth = b.split_depth = depth;
    a.kernel = Kernel::fast9;
    b.kernel = Kernel::sweep;
    engine::RunOptions ro;
    ro.record_tasks = true;
    ro.threads = 2;
    const engine::RunResult ra = engine::run(make_count_job(p, a), ro);
    const engine::RunResult rb = engine::run(make_count_job(p, b), ro);
    EXPECT_GT(ra.tasks_total, 1u);
    EXPECT_EQ(ra.totals.counts[0], plain_count(kSeed003Open));
    EXPECT_EQ(rb.totals.counts[0], ra.totals.counts[0]);
    // The same frontier, task by task: same ids, same count in each.
    ASSERT_EQ(ra.tasks_total, rb.tasks_total) << "depth " << depth;
    ASSERT_EQ(ra.tasks.size(), ra.tasks_total) << "depth " << depth;
    ASSERT_EQ(rb.tasks.size(), rb.tasks_total) << "depth " << depth;
    for (std::size_t i = 0; i < ra.tasks.size(); ++i) {
      EXPECT_EQ(ra.tasks[i].id, rb.tasks[i].id) << "depth " << depth;
      EXPECT_EQ(ra.tasks[i].counts.counts[0], rb.tasks[i].counts.counts[0])
          << "depth " << depth << " task " << ra.tasks[i].id;
    }
  }
}

TEST(PuzzleJob, LimitStopsAtLeastThere) {
  const Puzzle p = parse_puzzle(std::string(81, '.'));
  for (int threads : {1, 2, 4}) {
    CountJobOptions o;
    o.limit = 500;
    o.split_depth = 3;
    engine::RunOptions ro;
    ro.threads = threads;
    const engine::RunResult r = engine::run(make_count_job(p, o), ro);
    EXPECT_GE(r.totals.counts[0], 500u);
  }
  // A limit above the true count changes nothing.
  const Puzzle q = parse_puzzle(kSeed003Open);
  const std::uint64_t exact = solve(q).solutions;
  CountJobOptions o;
  o.limit = exact + 1;
  o.split_depth = 2;
  EXPECT_EQ(engine::run(make_count_job(q, o)).totals.counts[0], exact);
  // Contradiction: no tasks find anything.
  EXPECT_EQ(engine::run(make_count_job(parse_puzzle(kContradiction))).totals.counts[0], 0u);
}

TEST(PuzzleJob, FingerprintNamesPuzzleLimitAndSplit) {
  CountJobOptions o;
  o.split_depth = 2;
  o.limit = 7;
  const engine::Job job = make_count_job(parse_puzzle(kSeed003), o);
  EXPECT_NE(job.fingerprint.find(kSeed003), std::string::npos);
  EXPECT_NE(job.fingerprint.find("limit=7"), std::string::npos);
  EXPECT_NE(job.fingerprint.find("split=2"), std::string::npos);
  EXPECT_EQ(job.counter_names, std::vector<std::string>{"solutions"});
}

}  // namespace
}  // namespace pcount::sudoku
