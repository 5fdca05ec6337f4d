// Long runs (ctest label `long`): 10×10 sudoku grids (2x5 boxes) by Σ B(σ)²,
// Pettersen 2005: 1,903,816,047,972,624,930,994,913,280,000.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <unordered_map>
#include <vector>

#include "pcount/engine/estimate.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/sudoku/grids/bands.hpp"
#include "pcount/sudoku/grids/grids.hpp"
#include "support/known_grids.hpp"

namespace pcount::sudoku {
namespace {

TEST(SudokuGridsLong, TwoByFiveByBandsHas355ClassesAndTheKnownTotal) {
  const auto bands = make_bands_two_column(5);
  EXPECT_EQ(bands->class_count(), 355u);  // docs/sudoku-grids.md
  const BigInt total = bands->total(engine::run(bands->job("test")).totals);
  EXPECT_EQ(to_string(total), test::known_grid_count(2, 5));
  EXPECT_TRUE(total % reduced_multiplier({2, 5}) == 0);
}

TEST(SudokuGridsLong, TwoByFiveByFactorisationsHasTheKnownTotalAtOneAndTwoThreads) {
  for (int threads : {1, 2}) {
    const auto pivot = make_bands_factorisations(5);
    EXPECT_EQ(pivot->class_count(), 355u);
    engine::RunOptions options;
    options.threads = threads;
    EXPECT_EQ(to_string(pivot->total(engine::run(pivot->job("test"), options).totals)), test::known_grid_count(2, 5))
        << threads;
  }
}

TEST(SudokuGridsLong, TwoByFiveStackConfigurationsHave355ClassesAndTheKnownTotal) {
  // The 589,392 histograms of C = 5 (a few seconds); B by the pivot kernel.
  const auto stacks = stack_configuration_classes(5);
  EXPECT_EQ(stacks.size(), 355u);
  FactorisationMemo memo;
  BigInt total = 0;
  for (const auto& e : stacks) {
    const BigInt b = to_big(pivot_factorisations(e.columns, 5, &memo));
    total += to_big(e.weight) * b * b;
  }
  EXPECT_EQ(to_string(total), test::known_grid_count(2, 5));
}

/// Bands of 5 rows row by row: each row a perfect matching of the columns'
/// unused digits, memoised on the exact remaining column sets (10 columns ×
/// 10 bits in one 128-bit key); no isomorphism, no 2-factors.
struct RowMemo {
  std::unordered_map<u128, u128, decltype([](u128 v) { return std::hash<std::uint64_t>{}(static_cast<std::uint64_t>(v ^ (v >> 64) * 0x9E3779B97F4A7C15ULL)); })> memo;

  static u128 key(const std::vector<std::uint32_t>& rest) {
    u128 k = 0;
    for (std::uint32_t m : rest) k = (k << 10) | m;
    return k;
  }
  u128 count(const std::vector<std::uint32_t>& rest) {
    if (rest[0] == 0) return 1;
    const u128 k = key(rest);
    if (auto it = memo.find(k); it != memo.end()) return it->second;
    u128 total = 0;
    std::vector<std::uint32_t> next = rest;
    match(rest, 0, 0, next, total);
    memo.emplace(k, total);
    return total;
  }
  void match(const std::vector<std::uint32_t>& rest, std::size_t col, std::uint32_t used,
             std::vector<std::uint32_t>& next, u128& total) {
    if (col == rest.size()) {
      total += count(next);
      return;
    }
    for (std::uint32_t options = rest[col] & ~used; options; options &= options - 1) {
      const std::uint32_t bit = options & (0u - options);
      next[col] = rest[col] & ~bit;
      match(rest, col + 1, used | bit, next, total);
    }
    next[col] = rest[col];
  }
};

TEST(SudokuGridsLong, SubBandBOfRandomFiveRowBandsEqualsARowByRowCount) {
  std::mt19937_64 rng(2005);
  for (int trial = 0; trial < 2; ++trial) {
    std::vector<std::uint32_t> cols;
    for (int b = 0; b < 5; ++b) {
      std::vector<int> digits{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
      std::shuffle(digits.begin(), digits.end(), rng);
      std::uint32_t s = 0;
      for (int i = 0; i < 5; ++i) s |= 1u << digits[static_cast<std::size_t>(i)];
      cols.push_back(s);
      cols.push_back(1023u & ~s);
    }
    RowMemo direct;
    EXPECT_EQ(sub_band_factorisations(cols, 5), direct.count(cols)) << "trial " << trial;
  }
}

TEST(SudokuGridsLong, TwoByFiveBySubBandsHasTheKnownTotal) {
  const auto bands = make_bands_sub_band(5);
  EXPECT_EQ(bands->class_count(), 355u);
  const BigInt total = bands->total(engine::run(bands->job("test")).totals);
  EXPECT_EQ(to_string(total), test::known_grid_count(2, 5));
}

TEST(SudokuGridsLong, TwoBySixHas63199ClassesAndItsTwoLeafProbeEstimatesAgree) {
  // 63,199 band-configuration classes of 6x2 bands: K. F. Pettersen, 2006
  // (docs/sources.md). A class takes hours, so the job has a leaf probe;
  // the stratified estimate (by the classes' own estimates) and the
  // uniform one (tasks drawn at random) sample differently and must agree.
  const auto bands = make_bands_sub_band(6, 2);
  EXPECT_EQ(bands->class_count(), 63199u);
  const engine::Job job = bands->job("test");
  ASSERT_TRUE(job.leaf_probe);
  engine::RunEstimateOptions o;
  o.threads = 2;
  o.budget_seconds = 3;
  const engine::RunEstimate stratified = engine::estimate_run(job, o);
  EXPECT_TRUE(stratified.leaf_probes);
  EXPECT_EQ(stratified.tasks, 63199u);
  EXPECT_LE(stratified.cpu_seconds_low, stratified.cpu_seconds);
  EXPECT_LE(stratified.cpu_seconds, stratified.cpu_seconds_high);
  const engine::CpuEstimate uniform = engine::estimate_job_cpu(job, 100000, 11, std::chrono::seconds(4));
  EXPECT_GT(uniform.seconds, stratified.cpu_seconds / 2) << uniform.seconds << " " << stratified.cpu_seconds;
  EXPECT_LT(uniform.seconds, stratified.cpu_seconds * 2) << uniform.seconds << " " << stratified.cpu_seconds;
}

}  // namespace
}  // namespace pcount::sudoku
