// Slow Latin checks (ctest label `long`): R(8) by tree search (~100 CPU-s),
// R(9) and R(K,9) by classes, both methods for N = 8, every class degree
// for N = 9, R(5,10), R(6,10) and R(6,11).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <optional>

#include "pcount/engine/runner.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/latin/classes.hpp"
#include "pcount/latin/search.hpp"

namespace pcount::latin {
namespace {

/// A cache directory per test process, removed when it exits.
struct TempDir {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("pcount-latin-long-" + std::to_string(::getpid()));
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

CacheOptions cache() {
  static const TempDir dir;
  return CacheOptions{dir.path, "--cache-dir"};
}

u128 by_classes(int n, int k, std::optional<int> degree = std::nullopt) {
  const ClassJob cj = make_class_job(n, k, cache(), 2, degree);
  engine::RunOptions options;
  options.threads = 2;
  return reduced_from_all(n, k, labelled_total(cj, engine::run(cj.job, options).totals));
}

u128 by_search(int n, int k, int depth) {
  auto tree = std::make_shared<const LatinTree>(n, k);
  engine::RunOptions options;
  options.threads = 2;
  return engine::run(engine::make_tree_job(tree, depth, "long", {"reduced"}), options).totals.counts[0];
}

TEST(LatinLong, R8BySearch) {
  const u128 r8 = by_search(8, 8, 4);
  EXPECT_EQ(to_string(r8), "535281401856");
  EXPECT_EQ(to_string(r8), to_string(by_classes(8, 8)));
  EXPECT_NO_THROW(check_mod_n(8, r8));
}

TEST(LatinLong, R9ByClasses) {
  const u128 r9 = by_classes(9, 9);
  EXPECT_EQ(to_string(r9), "377597570964258816");
  EXPECT_NO_THROW(check_mod_n(9, r9));
}

TEST(LatinLong, RectanglesOfOrder9) {
  // R(k,n) table of docs/latin.md (McKay & Wanless 2005), column n = 9.
  EXPECT_EQ(to_string(by_classes(9, 2)), "16687");
  EXPECT_EQ(to_string(by_classes(9, 3)), "103443808");
  EXPECT_EQ(to_string(by_classes(9, 4)), "207624560256");
  EXPECT_EQ(to_string(by_classes(9, 5)), "112681643083776");
  EXPECT_EQ(to_string(by_classes(9, 8)), "377597570964258816");
}

TEST(LatinLong, EverySplitOfOrder9) {
  // The splits the regular suite leaves out (5-regular 9+9 tables), against
  // the published R(6,9) (OEIS A275922) and R(5,9) (A275921), and R(7,9)
  // by its two routes (7-regular classes peeled; 5-regular classes and two
  // rows by extension).
  EXPECT_EQ(to_string(by_classes(9, 5, 5)), "112681643083776");
  EXPECT_EQ(to_string(by_classes(9, 6, 5)), "12952605404381184");
  EXPECT_EQ(to_string(by_classes(9, 6, 6)), "12952605404381184");
  EXPECT_EQ(to_string(by_classes(9, 7, 5)), to_string(by_classes(9, 7, 7)));
}

TEST(LatinLong, RowsOfOrder10) {
  // R(5,10) (A275921) by 3-regular classes and two rows by extension;
  // R(6,10) (A275922) by the 4-regular 10+10 classes and two rows.
  EXPECT_EQ(to_string(by_classes(10, 5)), "746988383076286464");
  EXPECT_EQ(to_string(by_classes(10, 6)), "870735405591003709440");
}

TEST(LatinLong, SixRowsOfOrder11) {
  // R(6,11) = 96299552373292505158778880 (McKay & Wanless 2005; OEIS
  // A275922): the 4-regular 11+11 classes (genbg), N(G) by peeling into the
  // 3-regular table, two rows by extension in each 7-regular complement
  // (several CPU-hours, results/latin.md).
  const u128 r = by_classes(11, 6);
  EXPECT_EQ(to_string(r), "96299552373292505158778880");
}

TEST(LatinLong, RectanglesOfOrder8BySearch) {
  EXPECT_EQ(to_string(by_search(8, 4, 3)), "420909504");
}

}  // namespace
}  // namespace pcount::latin
