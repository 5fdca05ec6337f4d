// The classes method's price (latin/price.hpp): the exact count of
// labelled regular bipartite graphs against OEIS and against the class
// lists, the uniform random graph, and the stages of a square's price.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <string>

#include "pcount/errors.hpp"
#include "pcount/latin/classes.hpp"
#include "pcount/latin/price.hpp"

namespace pcount::latin {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& stem) : path(fs::temp_directory_path() / (stem + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

struct Known {
  int n, d;
  const char* count;
};

// OEIS A008300 (n×n 0-1 matrices with all line sums d) and A001501 (d = 3).
constexpr Known kKnown[] = {
    {1, 1, "1"},
    {4, 2, "90"},
    {6, 3, "297200"},
    {8, 3, "24046189440"},
    {8, 4, "116963796250"},
    {9, 4, "315031400802720"},
    {10, 5, "6736218287430460752"},
    {11, 3, "7673688777463632000"},
    {11, 5, "226885231700215713535680"},
};

TEST(RegularBipartiteCount, PublishedValues) {
  for (const Known& k : kKnown) EXPECT_EQ(to_string(regular_bipartite_count(k.n, k.d)), k.count) << k.n << " " << k.d;
}

TEST(RegularBipartiteCount, PermutationsAndComplements) {
  for (int n = 1; n <= kMaxClassOrder; ++n) {
    EXPECT_EQ(regular_bipartite_count(n, 0), 1u);
    EXPECT_EQ(
        regular_bipartite_count(n, 1), labelled_factor(n) / labelled_factor(n) * [n] {
          u128 f = 1;
          for (int i = 2; i <= n; ++i) f *= static_cast<u128>(i);
          return f;
        }());
    for (int d = 0; d <= n; ++d) EXPECT_EQ(regular_bipartite_count(n, d), regular_bipartite_count(n, n - d));
  }
}

TEST(RegularBipartiteCount, EqualsTheClassListsLabelledCopies) {
  // Σ over genbg's classes of (n!)²/|Aut| counts every labelled graph once:
  // an independent route to the same number.
  const TempDir dir("pcount-price-test-");
  for (const auto& [n, d] : {std::pair{6, 3}, std::pair{8, 3}, std::pair{8, 4}, std::pair{9, 4}}) {
    u128 sum = 0;
    for (const GraphClass& c : regular_classes(n, d, CacheOptions{dir.path, "--cache-dir"}, 1))
      sum += labelled_factor(n) / c.automorphisms;
    EXPECT_EQ(sum, regular_bipartite_count(n, d)) << n << " " << d;
  }
}

TEST(RegularBipartiteCount, RefusesOtherSizes) {
  EXPECT_THROW((void)regular_bipartite_count(12, 3), InvalidArgument);
  EXPECT_THROW((void)regular_bipartite_count(5, 6), InvalidArgument);
  EXPECT_THROW((void)regular_bipartite_count(5, -1), InvalidArgument);
}

TEST(RandomRegular, IsRegularAndUniform) {
  // All 90 labelled 2-regular 4+4 graphs, 200 draws each expected: a
  // chi-square with 89 degrees of freedom stays below 160 with probability
  // 1 − 10⁻⁶ for a uniform sampler; a sampler biased by N(G) (a union of
  // random permutations) lands far above.
  std::mt19937_64 rng(42);
  std::map<std::array<std::uint32_t, kMaxClassOrder>, int> seen;
  constexpr int kDraws = 90 * 200;
  for (int i = 0; i < kDraws; ++i) {
    const BipGraph g = random_regular(4, 2, rng);
    ASSERT_EQ(g.regular_degree(), 2);
    ++seen[g.adj];
  }
  EXPECT_EQ(seen.size(), 90u);
  double chi2 = 0;
  for (const auto& [adj, k] : seen) chi2 += (k - 200.0) * (k - 200.0) / 200.0;
  EXPECT_LT(chi2, 160.0);
  for (int d = 0; d <= 11; ++d) EXPECT_EQ(random_regular(11, d, rng).regular_degree(), d);
  EXPECT_THROW((void)random_regular(12, 3, rng), InvalidArgument);
}

TEST(SquarePrice, StagesOfOrderNine) {
  const TempDir dir("pcount-price-nine-");
  const SquarePrice p = price_square_classes(9, CacheOptions{dir.path, "--cache-dir"});
  // Lists 3 and 4, tables 3 and 4, the sum over the 4-regular classes.
  ASSERT_EQ(p.stages.size(), 5u);
  EXPECT_EQ(p.stages[0].name, "3-regular list (nauty-genbg)");
  EXPECT_EQ(p.stages[1].classes.low, 3529);  // genbg's whole list, recorded
  EXPECT_EQ(p.stages[1].classes.high, 3529);
  EXPECT_EQ(p.stages[4].name, "the sum (tasks)");
  // The pricing lists the 3-regular classes itself (224 of them) but
  // leaves the cache as it was: nothing is cached, nothing is free.
  EXPECT_TRUE(fs::is_empty(dir.path));
  for (const StagePrice& s : p.stages) EXPECT_FALSE(s.cached) << s.name;
  for (const StagePrice& s : p.stages) {
    EXPECT_LE(s.classes.low, s.classes.high) << s.name;
    EXPECT_LE(s.lookups.low, s.lookups.high) << s.name;
  }
  EXPECT_GT(p.stages[4].lookups.low, 0.0);
  EXPECT_GT(p.peak_bytes.low, 0.0);
  EXPECT_THROW((void)price_square_classes(8, CacheOptions{dir.path, "--cache-dir"}), InvalidArgument);
  // With the lists and tables cached, only the sum costs anything.
  (void)make_class_job(9, 9, CacheOptions{dir.path, "--cache-dir"}, 1);
  const SquarePrice warm = price_square_classes(9, CacheOptions{dir.path, "--cache-dir"});
  for (std::size_t i = 0; i + 1 < warm.stages.size(); ++i) EXPECT_TRUE(warm.stages[i].cached) << warm.stages[i].name;
  EXPECT_FALSE(warm.stages.back().cached);
  EXPECT_GT(warm.stages.back().lookups.low, 0.0);
}

TEST(SquarePrice, OrderElevenClassCountsBracketTheAsymptotics) {
  const TempDir dir("pcount-price-eleven-");
  const SquarePrice p = price_square_classes(11, CacheOptions{dir.path, "--cache-dir"});
  // The 5-regular classes: at least labelled / (11!)² = 1.4240e8; at most
  // that times the excess of the 10+10 list (601,055 against 511,552).
  const StagePrice& five = p.stages[2];
  EXPECT_EQ(five.name, "5-regular list (nauty-genbg)");
  EXPECT_NEAR(five.classes.low, 1.4240e8, 1e5);
  EXPECT_NEAR(five.classes.high / five.classes.low, 601055.0 / 511552.35, 1e-4);
  // genbg's rate from one slice of 1000, ×2 either way for the balance of
  // the slices: the CPU interval is the class interval times 4.
  EXPECT_NEAR(five.cpu_seconds.high / five.cpu_seconds.low, 4 * five.classes.high / five.classes.low, 1e-9);
  EXPECT_EQ(p.stages.back().name, "the sum (tasks)");
  EXPECT_FALSE(std::isinf(p.cpu_seconds.high));
}

}  // namespace
}  // namespace pcount::latin
