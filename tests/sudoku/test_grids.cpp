// Sudoku grid counts: the reduced-grid search, the 1-factorisation kernel,
// the 3x3 band tables and the two-column bands, with known values and
// cross-checks between methods.
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <stdexcept>
#include <vector>

#include "pcount/bigint.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/sudoku/grids/bands.hpp"
#include "pcount/sudoku/grids/grids.hpp"
#include "support/known_grids.hpp"

namespace pcount::sudoku {
namespace {

u128 search_reduced(BoxShape shape, int depth, int threads) {
  auto tree = std::make_shared<const GridSearchTree>(shape);
  const engine::Job job = engine::make_tree_job(tree, depth, "test", {"reduced"});
  engine::RunOptions options;
  options.threads = threads;
  return engine::run(job, options).totals.counts[0];
}

BigInt bands_total(const BandCount& bands, int threads) {
  engine::RunOptions options;
  options.threads = threads;
  return bands.total(engine::run(bands.job("test"), options).totals);
}

std::shared_ptr<const BandCount> bands_for(BoxShape s) {
  if (s.rows == 3 && s.cols == 3) return make_bands_3x3(2);
  return make_bands_two_column(s.rows == 2 ? s.cols : s.rows, 2);
}

TEST(SudokuGrids, MultiplierIsNFactorialTimesCFactorialTimesRMinusOneFactorial) {
  EXPECT_EQ(reduced_multiplier({2, 3}), BigInt(720 * 6));     // seed 001: 6! · 3!
  EXPECT_EQ(reduced_multiplier({3, 2}), BigInt(720 * 2 * 2));
  EXPECT_EQ(reduced_multiplier({3, 3}), BigInt(362880) * 6 * 2);
  EXPECT_THROW((void)reduced_multiplier({0, 3}), std::invalid_argument);
}

TEST(SudokuGrids, SearchGivesKnownReducedCountsAndTotals) {
  // Each reduced count is the published total over the multiplier:
  // 288 / 48, 28,200,960 / 4320 and 28,200,960 / 2880; the loop below checks
  // the products against the published totals themselves.
  EXPECT_EQ(search_reduced({2, 2}, 3, 2), 6u);
  EXPECT_EQ(search_reduced({2, 3}, 3, 2), 6528u);
  EXPECT_EQ(search_reduced({3, 2}, 3, 2), 9792u);
  for (BoxShape s : {BoxShape{2, 2}, BoxShape{2, 3}, BoxShape{3, 2}})
    EXPECT_EQ(to_string(to_big(search_reduced(s, 2, 2)) * reduced_multiplier(s)),
              test::known_grid_count(s.rows, s.cols))
        << s.name();
}

TEST(SudokuGrids, SearchIsTheSameForEveryThreadCountAndSplitDepth) {
  for (BoxShape s : {BoxShape{2, 2}, BoxShape{2, 3}, BoxShape{3, 2}}) {
    const u128 expected = search_reduced(s, 0, 1);
    for (int threads : {1, 2, 3, 4})
      for (int depth : {0, 1, 2, 3, 4, 40})
        EXPECT_EQ(search_reduced(s, depth, threads), expected) << s.name() << " t=" << threads << " d=" << depth;
  }
}

// The search kernel gives parts of its task away (engine/split.hpp): the
// reduced counts times the multiplier are the published totals, and the
// counts and nodes are those of the static run, at 1, 2 and 4 threads
// under both policies.
TEST(SudokuGrids, SearchPartsGivenAwayCountTheSame) {
  for (BoxShape s : {BoxShape{2, 2}, BoxShape{2, 3}, BoxShape{3, 2}})
    for (int depth : {0, 1, 3}) {
      auto tree = std::make_shared<const GridSearchTree>(s);
      const engine::Job job = engine::make_tree_job(tree, depth, "test", {"reduced"});
      EXPECT_TRUE(job.splits);
      engine::RunOptions options;
      options.threads = 1;
      options.split = engine::SplitPolicy::none;
      const engine::Tally reference = engine::run(job, options).totals;
      EXPECT_EQ(to_string(to_big(reference.counts[0]) * reduced_multiplier(s)), test::known_grid_count(s.rows, s.cols));
      for (int threads : {1, 2, 4})
        for (engine::SplitPolicy split : {engine::SplitPolicy::idle, engine::SplitPolicy::always}) {
          options.threads = threads;
          options.split = split;
          EXPECT_EQ(engine::run(job, options).totals, reference)
              << s.name() << " depth " << depth << " threads " << threads << " policy " << static_cast<int>(split);
        }
    }
}

TEST(SudokuGrids, SearchTreeRootAndOrderConditions) {
  const GridSearchTree tree({2, 3});
  const auto root = tree.root();
  EXPECT_EQ(root.pos, 6);
  // Cell (1,0) must hold the smallest digit of the rest of box 0 (digit 3).
  EXPECT_EQ(tree.candidates(root), 1u << 3);
  const auto kids = tree.children(root);
  ASSERT_EQ(kids.size(), 1u);
  // Cell (1,1): greater than 3 and not in box 0's row 0 → digits 4, 5.
  EXPECT_EQ(tree.candidates(kids[0]), (1u << 4) | (1u << 5));
  EXPECT_THROW(GridSearchTree({3, 4}), std::invalid_argument);
  EXPECT_THROW(GridSearchTree({1, 4}), std::invalid_argument);
}

TEST(SudokuGrids, OrderedOneFactorisationsOfCompleteGraphsAreLatinSquares) {
  // K_{n,n}: ordered 1-factorisations = Latin squares L(n) (OEIS A002860).
  const std::vector<std::uint64_t> latin = {1, 2, 12, 576, 161280, 812851200};
  for (int n = 1; n <= 6; ++n) {
    std::vector<std::uint32_t> adj(static_cast<std::size_t>(n), (1u << n) - 1u);
    EXPECT_EQ(ordered_one_factorisations(adj, n), latin[static_cast<std::size_t>(n - 1)]) << n;
  }
  // A 6-cycle plus a 4-cycle (2-regular): each cycle splits 2 ways, 2^cycles = 4.
  const std::vector<std::uint32_t> two_cycles = {0b00011, 0b00110, 0b00101, 0b11000, 0b11000};
  EXPECT_EQ(ordered_one_factorisations(two_cycles, 2), 4u);
  const std::vector<std::uint32_t> irregular = {0b011, 0b011, 0b110};
  EXPECT_THROW((void)ordered_one_factorisations(irregular, 2), std::invalid_argument);
  const std::vector<std::uint32_t> wrong_degree = {0b011, 0b101, 0b111};
  EXPECT_THROW((void)ordered_one_factorisations(wrong_degree, 2), std::invalid_argument);
}

TEST(SudokuGrids, ThreeByThreeTablesHave44ClassesAndTheKnownBandTotal) {
  const Bands3x3Tables t = bands_3x3_tables();
  ASSERT_EQ(t.shapes.size(), 280u);
  EXPECT_EQ(t.classes, 44u);
  ASSERT_EQ(t.b_fixed_box1.size(), 280u * 280u);
  // Every B computed directly (not from its class) matches the table, and
  // Σ_σ B(σ) = 6³·280·Σ_{x,y} B(P*, x, y) = 9!·56·6⁶.
  const auto& p1 = t.shapes[t.box1_shape];
  u128 sum = 0;
  std::vector<std::uint32_t> class_b(t.classes, 0);
  for (std::size_t x = 0; x < 280; ++x)
    for (std::size_t y = 0; y < 280; ++y) {
      const auto& a = t.shapes[x];
      const auto& b = t.shapes[y];
      const u128 direct = band_count_3x3({p1[0], p1[1], p1[2], a[0], a[1], a[2], b[0], b[1], b[2]});
      const std::size_t i = x * 280 + y;
      ASSERT_EQ(direct, t.b_fixed_box1[i]) << x << "," << y;
      sum += direct;
      auto& cb = class_b[t.class_of[i]];
      if (cb == 0) cb = t.b_fixed_box1[i];
      EXPECT_EQ(cb, t.b_fixed_box1[i]);
    }
  EXPECT_EQ(sum * 216 * 280, u128{362880} * 56 * 46656);  // 9!·56·6⁶
}

/// The ordered box configurations (3 column digit-masks partitioning the 9
/// digits) whose columns avoid those of `top`.
std::vector<std::array<std::uint32_t, 3>> disjoint_boxes(const std::array<std::uint32_t, 3>& top) {
  std::vector<std::array<std::uint32_t, 3>> out;
  for (std::uint32_t a = 0; a < 512; ++a) {
    if (__builtin_popcount(a) != 3 || (a & top[0])) continue;
    for (std::uint32_t b = 0; b < 512; ++b) {
      if (__builtin_popcount(b) != 3 || (b & (top[1] | a))) continue;
      const std::uint32_t c = 511u & ~(a | b);
      if (!(c & top[2])) out.push_back({a, b, c});
    }
  }
  return out;
}

TEST(SudokuGrids, ThreeByThreePerClassCheckTopBandAndFirstColumn) {
  // docs/sudoku-grids.md: top band 123456789/456789123/789123456 with the
  // first column 2,5,8,3,6,9 below it has 6,696,000 completions. Bands are
  // independent given their signatures, and the 3! row orders of a band act
  // freely, so a fixed first column keeps B(σ)/6 of the bands with σ:
  //   Σ_{σ2 compatible, column 0 = {2,5,8}} B(σ2)/6 · B(σ3)/6.
  // B is computed directly here (no tables, no classes).
  const std::array<std::uint32_t, 3> top = {0b001001001, 0b010010010, 0b100100100};  // {1,4,7},{2,5,8},{3,6,9}
  const auto boxes = disjoint_boxes(top);
  ASSERT_EQ(boxes.size(), 56u);
  u128 sum = 0;
  for (const auto& s0 : boxes) {
    if (s0[0] != 0b010010010) continue;  // band 2's column 0 holds 2, 5, 8
    for (const auto& s1 : boxes)
      for (const auto& s2 : boxes) {
        std::array<std::uint32_t, 9> mid{}, low{};
        const std::array<const std::array<std::uint32_t, 3>*, 3> stacks = {&s0, &s1, &s2};
        for (std::size_t c = 0; c < 9; ++c) {
          mid[c] = (*stacks[c / 3])[c % 3];
          low[c] = 511u & ~(mid[c] | top[c % 3]);
        }
        sum += band_count_3x3(mid) * band_count_3x3(low);
      }
  }
  EXPECT_EQ(sum % 36, 0u);
  EXPECT_EQ(sum / 36, 6696000u);
}

TEST(SudokuGrids, BandsGiveKnownTotalsForEveryThreadCount) {
  for (BoxShape s : {BoxShape{2, 2}, BoxShape{2, 3}, BoxShape{3, 2}, BoxShape{2, 4}, BoxShape{4, 2}, BoxShape{3, 3}}) {
    const auto bands = bands_for(s);
    for (int threads : {1, 2, 4})
      EXPECT_EQ(to_string(bands_total(*bands, threads)), test::known_grid_count(s.rows, s.cols)) << s.name();
  }
}

TEST(SudokuGrids, FactorisationPartsAddUpToTheWholeCount) {
  // K_{n,n}: the parts of L(n) (OEIS A002860) add up to L(n); below degree
  // 4 there is one part.
  const std::vector<std::uint64_t> latin = {1, 2, 12, 576, 161280, 812851200};
  for (int n = 1; n <= 6; ++n) {
    std::vector<std::uint32_t> adj(static_cast<std::size_t>(n), (1u << n) - 1u);
    const int parts = one_factorisation_parts(n, n);
    EXPECT_EQ(parts, n >= 4 ? n * (n - 1) / 2 : 1) << n;
    u128 sum = 0;
    for (int p = 0; p < parts; ++p) sum += ordered_one_factorisations_part(adj, n, p);
    EXPECT_EQ(sum, latin[static_cast<std::size_t>(n - 1)]) << n;
    EXPECT_THROW((void)ordered_one_factorisations_part(adj, n, parts), std::invalid_argument) << n;
  }
}

TEST(SudokuGrids, SplitBandClassesGiveTheSameTotalsWithStableIds) {
  for (BoxShape s : {BoxShape{2, 2}, BoxShape{2, 3}, BoxShape{2, 4}, BoxShape{4, 2}}) {
    const int c = s.rows == 2 ? s.cols : s.rows;
    const auto whole = make_bands_two_column(c, 2);
    const auto split = make_bands_two_column(c, 2, true);
    const engine::Job job = split->job("test");
    const auto parts = static_cast<std::size_t>(one_factorisation_parts(2 * c, c));
    EXPECT_EQ(job.task_count, split->class_count() * parts) << s.name();
    EXPECT_EQ(job.fingerprint, make_bands_two_column(c, 1, true)->job("test").fingerprint) << s.name();
    EXPECT_NE(job.fingerprint, whole->job("test").fingerprint) << s.name();
    for (int threads : {1, 3})
      EXPECT_EQ(to_string(bands_total(*split, threads)), test::known_grid_count(s.rows, s.cols)) << s.name();
    // Task by task, the parts of class i add up to its whole B: run every
    // task alone and compare the per-class sums.
    const engine::RunResult all = engine::run(job);
    for (std::size_t i = 0; i < split->class_count(); ++i) {
      u128 parts_sum = 0;
      for (std::size_t p = 0; p < parts; ++p) {
        engine::Tally t(job.counter_names.size());
        job.run_task(i * parts + p, t);
        parts_sum += t.get(i);
      }
      EXPECT_EQ(parts_sum, all.totals.get(i)) << s.name() << " class " << i;
    }
  }
}

TEST(SudokuGrids, TwoColumnClassCounts) {
  EXPECT_EQ(make_bands_two_column(2, 1)->class_count(), 2u);
  EXPECT_EQ(make_bands_two_column(3, 1)->class_count(), 4u);
  EXPECT_EQ(make_bands_two_column(4, 2)->class_count(), 26u);  // docs/sudoku-grids.md
  EXPECT_THROW((void)make_bands_two_column(1, 1), std::invalid_argument);
  EXPECT_THROW((void)make_bands_two_column(6, 1), std::invalid_argument);
}

TEST(SudokuGrids, PivotFactorisationsOfCompleteGraphsAreLatinSquares) {
  // K_{n,n}: L(n) ordered 1-factorisations (OEIS A002860), with and without
  // the memo (degree 4 by the two-factor identity, 5 and 6 by the pivot).
  const std::vector<std::uint64_t> latin = {1, 2, 12, 576, 161280, 812851200};
  FactorisationMemo memo(1000);
  for (int n = 1; n <= 6; ++n) {
    std::vector<std::uint32_t> adj(static_cast<std::size_t>(n), (1u << n) - 1u);
    EXPECT_EQ(pivot_factorisations(adj, n), latin[static_cast<std::size_t>(n - 1)]) << n;
    EXPECT_EQ(pivot_factorisations(adj, n, &memo), latin[static_cast<std::size_t>(n - 1)]) << n;
  }
  const std::vector<std::uint32_t> irregular = {0b011, 0b011, 0b110};
  EXPECT_THROW((void)pivot_factorisations(irregular, 2), std::invalid_argument);
}

TEST(SudokuGrids, PivotFactorisationsEqualTheDirectCountOnEveryBandClass) {
  // Every 2x3 and 2x4 band class, and the first 2x5 ones: the pivot kernel
  // (memo on and off) against ordered_one_factorisations.
  FactorisationMemo memo;
  for (int c = 3; c <= 4; ++c) {
    const SignatureClasses classes = two_column_signature_classes(c, 2);
    for (const BandSignatureClass& cls : classes.classes) {
      const u128 direct = ordered_one_factorisations(cls.columns, c);
      EXPECT_EQ(pivot_factorisations(cls.columns, c), direct) << c;
      EXPECT_EQ(pivot_factorisations(cls.columns, c, &memo), direct) << c;
    }
  }
  const SignatureClasses five = two_column_signature_classes(5, 2);
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_EQ(pivot_factorisations(five.classes[i].columns, 5, &memo),
              ordered_one_factorisations(five.classes[i].columns, 5))
        << i;
  const FactorisationMemo::Stats st = memo.stats();
  EXPECT_GT(st.entries, 0u);
  EXPECT_LE(st.hits, st.lookups);
}

TEST(SudokuGrids, StackConfigurationClassesHaveTheKnownCountsAndWeights) {
  // 2, 4, 26 orbits (linche89/sudoku-enumeration; the column–digit graph
  // classes of two_column_signature_classes are as many), weights summing
  // to binom(2C,C)^C, and Σ weight · B (bands kernel) equal over both class
  // lists, a check of the weights class by class in aggregate.
  const std::size_t expected[] = {2, 4, 26};
  for (int c = 2; c <= 4; ++c) {
    const auto stacks = stack_configuration_classes(c);
    const auto graphs = two_column_signature_classes(c, 2).classes;
    EXPECT_EQ(stacks.size(), expected[c - 2]) << c;
    EXPECT_EQ(stacks.size(), graphs.size()) << c;
    u128 binom = 1;
    for (int i = 1; i <= c; ++i) binom = binom * static_cast<u128>(c + i) / static_cast<u128>(i);
    u128 all = 1, sum = 0, by_stacks = 0, by_graphs = 0;
    for (int i = 0; i < c; ++i) all *= binom;
    for (const auto& e : stacks) {
      sum += e.weight;
      by_stacks += e.weight * ordered_one_factorisations(e.columns, c);
    }
    for (const auto& e : graphs) by_graphs += e.weight * ordered_one_factorisations(e.columns, c);
    EXPECT_EQ(sum, all) << c;
    EXPECT_EQ(by_stacks, by_graphs) << c;
  }
  EXPECT_THROW((void)stack_configuration_classes(1), std::invalid_argument);
  EXPECT_THROW((void)stack_configuration_classes(6), std::invalid_argument);
}

TEST(SudokuGrids, FactorisationMemoStopsStoringAtItsBound) {
  FactorisationMemo memo(64);  // one graph per shard
  for (std::uint64_t k = 0; k < 10000; ++k) memo.insert(k, k);
  EXPECT_LE(memo.stats().entries, 64u);
  u128 v = 0;
  std::size_t found = 0;
  for (std::uint64_t k = 0; k < 10000; ++k)
    if (memo.find(k, v)) {
      EXPECT_EQ(v, k);
      ++found;
    }
  EXPECT_EQ(found, memo.stats().entries);
  EXPECT_EQ(memo.stats().lookups, 10000u);
}

TEST(SudokuGrids, FactorisationsAndBandsAgreeForEveryThreadCount) {
  for (BoxShape s : {BoxShape{2, 2}, BoxShape{2, 3}, BoxShape{3, 2}, BoxShape{2, 4}, BoxShape{4, 2}}) {
    const int c = s.rows == 2 ? s.cols : s.rows;
    const auto pivot = make_bands_factorisations(c, 2);
    const auto bands = make_bands_two_column(c, 2);
    EXPECT_EQ(pivot->class_count(), bands->class_count()) << s.name();
    const BigInt by_bands = bands_total(*bands, 2);
    EXPECT_EQ(to_string(by_bands), test::known_grid_count(s.rows, s.cols)) << s.name();
    for (int threads : {1, 2, 4})
      EXPECT_EQ(bands_total(*make_bands_factorisations(c, 2), threads), by_bands) << s.name() << " " << threads;
    // Task by task (the stack-configuration classes, in order): weight · B²
    // with B by the bands kernel, ordered_one_factorisations.
    const engine::Job job = pivot->job("test");
    const auto classes = stack_configuration_classes(c);
    ASSERT_EQ(job.task_count, classes.size()) << s.name();
    for (std::size_t i = 0; i < job.task_count; ++i) {
      engine::Tally t(1);
      job.run_task(i, t);
      const u128 b = ordered_one_factorisations(classes[i].columns, c);
      EXPECT_EQ(t.get(0), classes[i].weight * b * b) << s.name() << " class " << i;
    }
  }
  EXPECT_THROW((void)make_bands_factorisations(6, 1), std::invalid_argument);
}

TEST(SudokuGrids, BandsAndSearchAgree) {
  for (BoxShape s : {BoxShape{2, 2}, BoxShape{2, 3}, BoxShape{3, 2}}) {
    const BigInt by_search = to_big(search_reduced(s, 3, 2)) * reduced_multiplier(s);
    EXPECT_EQ(bands_total(*bands_for(s), 2), by_search) << s.name();
  }
}

TEST(SudokuGrids, ThreeByThreeTotalIsAMultipleOfTheReducedMultiplier) {
  const BigInt total = bands_total(*make_bands_3x3(), 2);
  EXPECT_EQ(total % reduced_multiplier({3, 3}), 0);
  // Felgenhauer & Jarvis 2005: 9!·72²·2⁷·27,704,267,971.
  EXPECT_EQ(total, factorial(9) * 72 * 72 * 128 * BigInt(27704267971ULL));
}

}  // namespace
}  // namespace pcount::sudoku
