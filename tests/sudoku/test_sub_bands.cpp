// The sub-band method for 2xC / Cx2 grids (`--method subbands`): B(σ) by the
// sub-band split against band enumerations written here, the signature
// classes against direct sums over every signature, and the grid totals
// against the published values and the older `bands` method.
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

#include "pcount/bigint.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/sudoku/grids/bands.hpp"
#include "pcount/sudoku/grids/grids.hpp"
#include "support/known_grids.hpp"

namespace pcount::sudoku {
namespace {

using Columns = std::vector<std::uint32_t>;

/// Bands with column sets `cols` (k rows, 2k columns, 2k digits), filled
/// cell by cell in row-major order: each cell takes a digit of its column's
/// set not yet in its row or column.
struct CellEnumeration {
  const Columns& cols;
  int k;
  int n;
  std::vector<std::uint32_t> row_used, col_used;
  u128 bands = 0;

  CellEnumeration(const Columns& c, int kk)
      : cols(c), k(kk), n(2 * kk), row_used(static_cast<std::size_t>(kk)), col_used(static_cast<std::size_t>(2 * kk)) {}

  void fill(int cell) {
    if (cell == k * n) {
      ++bands;
      return;
    }
    const auto r = static_cast<std::size_t>(cell / n);
    const auto c = static_cast<std::size_t>(cell % n);
    std::uint32_t options = cols[c] & ~row_used[r] & ~col_used[c];
    while (options) {
      const std::uint32_t bit = options & (0u - options);
      options ^= bit;
      row_used[r] |= bit;
      col_used[c] |= bit;
      fill(cell + 1);
      row_used[r] &= ~bit;
      col_used[c] &= ~bit;
    }
  }
};

u128 bands_by_cells(const Columns& cols, int k) {
  CellEnumeration e(cols, k);
  e.fill(0);
  return e.bands;
}

/// Bands row by row: each row is a perfect matching of the columns' unused
/// digits (enumerated column by column), memoised on the exact remaining
/// column sets (no isomorphism, no 2-factors).
struct RowMemo {
  int n;
  std::map<Columns, u128> memo;

  u128 count(const Columns& rest) {
    if (rest[0] == 0) return 1;
    if (auto it = memo.find(rest); it != memo.end()) return it->second;
    u128 total = 0;
    Columns next = rest;
    match(rest, 0, 0, next, total);
    memo.emplace(rest, total);
    return total;
  }
  void match(const Columns& rest, int col, std::uint32_t used, Columns& next, u128& total) {
    if (col == n) {
      total += count(next);
      return;
    }
    const auto i = static_cast<std::size_t>(col);
    std::uint32_t options = rest[i] & ~used;
    while (options) {
      const std::uint32_t bit = options & (0u - options);
      options ^= bit;
      next[i] = rest[i] & ~bit;
      match(rest, col + 1, used | bit, next, total);
    }
    next[i] = rest[i];
  }
};

u128 bands_by_rows(const Columns& cols, int k) {
  RowMemo m{2 * k, {}};
  return m.count(cols);
}

/// A uniformly random signature of C×2 boxes: per box a random C-set and its
/// complement.
Columns random_signature(int c, std::mt19937_64& rng) {
  const int n = 2 * c;
  Columns cols;
  for (int b = 0; b < c; ++b) {
    std::vector<int> digits(static_cast<std::size_t>(n));
    for (int d = 0; d < n; ++d) digits[static_cast<std::size_t>(d)] = d;
    std::shuffle(digits.begin(), digits.end(), rng);
    std::uint32_t s = 0;
    for (int i = 0; i < c; ++i) s |= 1u << digits[static_cast<std::size_t>(i)];
    cols.push_back(s);
    cols.push_back(((1u << n) - 1u) & ~s);
  }
  return cols;
}

BigInt run_total(const BandCount& bands, int threads) {
  engine::RunOptions options;
  options.threads = threads;
  return bands.total(engine::run(bands.job("test"), options).totals);
}

TEST(SudokuSubBands, BOfRandomSignaturesEqualsACellByCellEnumeration) {
  std::mt19937_64 rng(18);
  for (int c : {3, 4})
    for (int trial = 0; trial < 12; ++trial) {
      const Columns cols = random_signature(c, rng);
      const u128 direct = bands_by_cells(cols, c);
      EXPECT_GT(direct, 0u);
      EXPECT_EQ(sub_band_factorisations(cols, c), direct) << "C=" << c << " trial " << trial;
    }
}

TEST(SudokuSubBands, BOfEveryClassAgreesWithTheRowByRowCountAndTheFactorisationKernel) {
  // C = 3 and 4: every class against the row-by-row count; C = 5: a sample
  // of classes against ordered_one_factorisations (the `bands` kernel; the
  // row-by-row count of random 5-row bands is in long_grids.cpp).
  for (int c : {2, 3, 4}) {
    for (const auto& e : two_column_signature_classes(c, 2).classes)
      EXPECT_EQ(sub_band_factorisations(e.columns, c), bands_by_rows(e.columns, c)) << "C=" << c;
  }
  const auto five = two_column_signature_classes(5, 2).classes;
  for (std::size_t i = 0; i < five.size(); i += 180)
    EXPECT_EQ(sub_band_factorisations(five[i].columns, 5), ordered_one_factorisations(five[i].columns, 5))
        << "class " << i;
}

TEST(SudokuSubBands, ClassCountsAndWeightsSumToEverySignature) {
  // 2, 4, 26 and 355 graph classes: the counts of the `bands` enumeration,
  // which visits every signature with box 0 fixed (SudokuGrids.TwoColumnClassCounts).
  const std::array<std::size_t, 4> expected{2, 4, 26, 355};
  for (int c = 2; c <= 5; ++c) {
    const SignatureClasses found = two_column_signature_classes(c, 2);
    EXPECT_EQ(found.classes.size(), expected[static_cast<std::size_t>(c - 2)]) << "C=" << c;
    EXPECT_GE(found.box_orbits, found.classes.size());
    BigInt sum = 0;
    for (const auto& e : found.classes) sum += to_big(e.weight);
    BigInt binom = 1;
    for (int i = 1; i <= c; ++i) binom = binom * (c + i) / i;
    EXPECT_EQ(sum, boost::multiprecision::pow(binom, static_cast<unsigned>(c))) << "C=" << c;
  }
  EXPECT_THROW((void)two_column_signature_classes(1), std::invalid_argument);
  EXPECT_THROW((void)two_column_signature_classes(7), std::invalid_argument);
}

TEST(SudokuSubBands, ClassSumsEqualSumsOverEverySignatureForThreeRowBands) {
  // C = 3: all 20³ ordered signatures, B of each by the cell enumeration.
  BigInt sum_b = 0, sum_b2 = 0;
  for (std::uint32_t s0 = 0; s0 < 64; ++s0)
    for (std::uint32_t s1 = 0; s1 < 64; ++s1)
      for (std::uint32_t s2 = 0; s2 < 64; ++s2) {
        if (__builtin_popcount(s0) != 3 || __builtin_popcount(s1) != 3 || __builtin_popcount(s2) != 3) continue;
        const Columns cols{s0, 63u & ~s0, s1, 63u & ~s1, s2, 63u & ~s2};
        const BigInt b = to_big(bands_by_cells(cols, 3));
        sum_b += b;
        sum_b2 += b * b;
      }
  BigInt class_b = 0, class_b2 = 0;
  for (const auto& e : two_column_signature_classes(3, 1).classes) {
    const BigInt b = to_big(sub_band_factorisations(e.columns, 3));
    class_b += to_big(e.weight) * b;
    class_b2 += to_big(e.weight) * b * b;
  }
  EXPECT_EQ(class_b, sum_b);
  EXPECT_EQ(class_b2, sum_b2);
  EXPECT_EQ(to_string(sum_b2), test::known_grid_count(2, 3));
}

/// All bands of C×2 boxes (C rows, 2C columns), row by row with one used-digit
/// mask per box; row 0 fixed to 0..2C-1 (× (2C)!), the last row forced as a
/// set per box (× 2^C orders).
struct AllBands {
  int c;
  std::vector<std::uint32_t> box_used;
  u128 rows_found = 0;

  void row(int r) {
    if (r == c - 1) {
      ++rows_found;
      return;
    }
    fill_box(r, 0, 0);
  }
  void fill_box(int r, int b, std::uint32_t row_used) {
    if (b == c) {
      row(r + 1);
      return;
    }
    const auto i = static_cast<std::size_t>(b);
    const std::uint32_t options = ((1u << (2 * c)) - 1u) & ~box_used[i] & ~row_used;
    for (std::uint32_t x = options; x; x &= x - 1)
      for (std::uint32_t y = options; y; y &= y - 1) {
        const std::uint32_t bx = x & (0u - x), by = y & (0u - y);
        if (bx == by) continue;
        box_used[i] |= bx | by;
        fill_box(r, b + 1, row_used | bx | by);
        box_used[i] &= ~(bx | by);
      }
  }
};

TEST(SudokuSubBands, WeightedBandCountsSumToAllBandsCountedDirectly) {
  for (int c : {3, 4}) {
    AllBands all{c, std::vector<std::uint32_t>(static_cast<std::size_t>(c)), 0};
    for (int b = 0; b < c; ++b) all.box_used[static_cast<std::size_t>(b)] = 3u << (2 * b);  // row 0 = 0..2C-1
    all.row(1);
    const BigInt direct = to_big(all.rows_found) * factorial(2 * c) * (BigInt(1) << c);
    BigInt by_classes = 0;
    for (const auto& e : two_column_signature_classes(c, 2).classes)
      by_classes += to_big(e.weight) * to_big(sub_band_factorisations(e.columns, c));
    EXPECT_EQ(by_classes, direct) << "C=" << c;
  }
}

TEST(SudokuSubBands, TotalsEqualThePublishedValuesAndTheBandsMethodForEveryThreadCount) {
  for (int c : {2, 3, 4}) {
    const auto sub = make_bands_sub_band(c, 2);
    const BigInt old_total = run_total(*make_bands_two_column(c, 2), 2);
    for (int threads : {1, 2, 3}) {
      const BigInt total = run_total(*sub, threads);
      EXPECT_EQ(to_string(total), test::known_grid_count(2, c)) << "C=" << c << " threads " << threads;
      EXPECT_EQ(total, old_total);
    }
  }
}

TEST(SudokuSubBands, PartsAddUpToTheWholeAndTheLeafEstimateIsNearTheLeaves) {
  std::mt19937_64 rng(6);
  for (int c : {3, 4, 5}) {
    const Columns cols = random_signature(c, rng);
    u128 sum = 0;
    std::uint64_t leaves = 0;
    for (int p = 0; p < c * (c - 1) / 2; ++p) {
      std::uint64_t l = 0;
      sum += sub_band_factorisations_part(cols, c, p, &l);
      leaves += l;
    }
    EXPECT_EQ(sum, c < 5 ? bands_by_rows(cols, c) : ordered_one_factorisations(cols, c)) << "C=" << c;
    // An unbiased estimate from 4000 probes: within 20 % of the true count.
    const double est = sub_band_leaf_estimate(cols, c, 4000, 1);
    EXPECT_NEAR(est, static_cast<double>(leaves), 0.2 * static_cast<double>(leaves)) << "C=" << c;
  }
  EXPECT_THROW((void)sub_band_factorisations_part(random_signature(4, rng), 4, 6), std::invalid_argument);
}

TEST(SudokuSubBands, TheCacheHitRateIsHighWhereTopPartsRepeat) {
  // All six stacks with the same column sets: the column–digit graph is
  // two disjoint K(6,6), so a top part is two 4-regular 6 + 6 graphs, each
  // the complement of a 2-factor of cycle type (12), (8,4), (6,6) or
  // (4,4,4): at most 10 classes, so all but at most 10 lookups hit.
  Columns same;
  for (int b = 0; b < 6; ++b) {
    same.push_back(0x03Fu);
    same.push_back(0xFC0u);
  }
  EXPECT_GE(sub_band_cache_hit_rate(same, 6, 0, 500), 1.0 - 10.0 / 500.0);
  std::mt19937_64 rng(12);
  const double random = sub_band_cache_hit_rate(random_signature(6, rng), 6, 0, 50);
  EXPECT_GE(random, 0.0);
  EXPECT_LE(random, 1.0);
  EXPECT_THROW((void)sub_band_cache_hit_rate(random_signature(5, rng), 5, 0, 50), std::invalid_argument);
  EXPECT_THROW((void)sub_band_cache_hit_rate(same, 6, 15, 50), std::invalid_argument);
}

TEST(SudokuSubBands, RefusesGraphsThatAreNotRegular) {
  EXPECT_THROW((void)sub_band_factorisations(Columns{3u, 3u, 3u}, 2), std::invalid_argument);    // 3 columns for k = 2
  EXPECT_THROW((void)sub_band_factorisations(Columns{3u, 3u, 12u, 13u}, 2), std::invalid_argument);  // 3 digits in a column
  EXPECT_THROW((void)sub_band_factorisations(Columns{3u, 3u, 12u, 6u}, 2), std::invalid_argument);  // digit 1 thrice
  EXPECT_EQ(sub_band_factorisations(Columns{3u, 3u, 12u, 12u}, 2), 4u);  // two 4-cycles, 2 row orders each
  EXPECT_THROW((void)sub_band_factorisations(Columns(14, 0x7Fu), 7), std::invalid_argument);
  EXPECT_THROW((void)make_bands_sub_band(7), std::invalid_argument);
}

}  // namespace
}  // namespace pcount::sudoku
