// The bipartite-graph class method: agreement with the tree search, the
// R(k,n) table of docs/latin.md, R(n) mod n, thread
// invariance, the genbg wrapper and the on-disk class cache.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <algorithm>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <string>

#include "pcount/errors.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/latin/bipartite.hpp"
#include "pcount/latin/classes.hpp"
#include "pcount/latin/extend.hpp"
#include "pcount/latin/genbg.hpp"
#include "pcount/latin/search.hpp"

namespace pcount::latin {
namespace {

namespace fs = std::filesystem;

/// A fresh cache directory per test process, removed when it exits.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& stem)
      : path(fs::temp_directory_path() / (stem + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

const fs::path& test_cache() {
  static const TempDir dir("pcount-latin-test-");
  return dir.path;
}

CacheOptions cache() { return CacheOptions{test_cache(), "--cache-dir"}; }

u128 by_classes(int n, int k, int threads = 2, std::optional<int> degree = std::nullopt) {
  const ClassJob cj = make_class_job(n, k, cache(), threads, degree);
  engine::RunOptions options;
  options.threads = threads;
  return reduced_from_all(n, k, labelled_total(cj, engine::run(cj.job, options).totals));
}

u128 by_search(int n, int k) {
  auto tree = std::make_shared<const LatinTree>(n, k);
  const engine::Job job = engine::make_tree_job(tree, 2, "test", {"reduced"});
  engine::RunOptions options;
  options.threads = 2;
  return engine::run(job, options).totals.counts[0];
}

TEST(LatinClasses, AgreeWithSearchUpTo7) {
  for (int n = 2; n <= 7; ++n)
    for (int k = 1; k <= n; ++k) {
      if (n == 7 && k == 5) continue;  // 11 M leaves by search: checked against the table below
      EXPECT_EQ(to_string(by_classes(n, k)), to_string(by_search(n, k))) << k << "x" << n;
    }
}

TEST(LatinClasses, RectangleTableUpTo8) {
  // docs/latin.md table (R(n-1,n) = R(n,n) = R(n)); R(1,n) = 1.
  const char* table[9][9] = {};
  table[4][2] = "3"; table[4][3] = "4"; table[4][4] = "4";
  table[5][2] = "11"; table[5][3] = "46"; table[5][4] = "56"; table[5][5] = "56";
  table[6][2] = "53"; table[6][3] = "1064"; table[6][4] = "6552"; table[6][5] = "9408"; table[6][6] = "9408";
  table[7][2] = "309"; table[7][3] = "35792"; table[7][4] = "1293216"; table[7][5] = "11270400";
  table[7][6] = "16942080"; table[7][7] = "16942080";
  table[8][2] = "2119"; table[8][3] = "1673792"; table[8][4] = "420909504"; table[8][5] = "27206658048";
  table[8][6] = "335390189568"; table[8][7] = "535281401856"; table[8][8] = "535281401856";
  for (int n = 4; n <= 8; ++n) {
    EXPECT_EQ(to_string(by_classes(n, 1)), "1") << n;
    for (int k = 2; k <= n; ++k) EXPECT_EQ(to_string(by_classes(n, k)), table[n][k]) << k << "x" << n;
  }
}

BipGraph relabel(const BipGraph& g, std::mt19937& rng);

/// R(k,n) for 2 ≤ k ≤ n − 2 and 6 ≤ n ≤ 11, the columns of docs/latin.md's
/// table (McKay & Wanless 2005; OEIS A000255, A001623, A000573, A275921,
/// A275922 for k = 2 … 6); empty where not checked here.
const char* published(int n, int k) {
  static const char* table[12][7] = {
      {},
      {},
      {},
      {},
      {},
      {},
      {nullptr, nullptr, "53", "1064", "6552"},
      {nullptr, nullptr, "309", "35792", "1293216", "11270400"},
      {nullptr, nullptr, "2119", "1673792", "420909504", "27206658048", "335390189568"},
      {nullptr, nullptr, "16687", "103443808", "207624560256", "112681643083776", "12952605404381184"},
      {nullptr, nullptr, "148329", "8154999232", "147174521059584", "746988383076286464", "870735405591003709440"},
      {nullptr, nullptr, "1468457", "798030483328", "143968880078466048", "7533492323047902093312",
       "96299552373292505158778880"},
  };
  return k <= 6 ? table[n][k] : nullptr;
}

TEST(LatinClasses, EverySplitGivesThePublishedCount) {
  // Each allowed class degree D (k−2 … k) is an independent route: D-regular
  // classes by DFS or peeling, then k−D rows by row extension.
  for (int n = 6; n <= 9; ++n)
    for (int k = 2; k <= std::min(n - 2, 6); ++k) {
      const char* want = published(n, k);
      const u128 by_default = by_classes(n, k);
      ASSERT_NE(want, nullptr) << k << "x" << n;
      EXPECT_EQ(to_string(by_default), want) << k << "x" << n;
      for (int d = std::max(1, k - kMaxExtensionRows); d <= k; ++d) {
        if (n == 9 && d >= 5) continue;  // 5-regular 9+9 tables: LatinLong.EverySplitOfOrder9
        EXPECT_EQ(to_string(by_classes(n, k, 2, d)), to_string(by_default)) << k << "x" << n << " D=" << d;
      }
    }
}

TEST(LatinClasses, ReducedFromAllPastTwoTo128) {
  // L(11) = R(11)·11!·10! ≈ 7.8·10⁴⁷ (R(11): McKay & Wanless 2005, A000315).
  const BigInt r11("5363937773277371298119673540771840");
  EXPECT_EQ(to_string(reduced_from_all(11, 11, r11 * factorial(11) * factorial(10))), to_string(r11));
  EXPECT_EQ(to_string(reduced_from_all(11, 10, r11 * factorial(11) * factorial(10))), to_string(r11));
  EXPECT_THROW((void)reduced_from_all(11, 11, r11 * factorial(11) * factorial(10) + 1), InternalError);
  EXPECT_THROW((void)reduced_from_all(11, 11, (BigInt(1) << 129) * factorial(11) * factorial(10)), CountOverflow);
}

TEST(LatinClasses, ElevenColumnsUpToFiveRows) {
  // R(2,11) = D(11)/10 (A000255), R(3,11) (A001623), R(4,11) (A000573),
  // R(5,11) (A275921): the 7,454 3-regular 11+11 classes, the fourth row by
  // the permanent, the fourth and fifth as X_2 of the 8-regular complement
  // (whose partial sums wrap modulo 2^64), summed in three 64-bit limbs as
  // every order-11 job is.
  EXPECT_EQ(make_class_job(11, 2, cache(), 2).limbs, 3u);
  for (int k = 2; k <= 5; ++k) EXPECT_EQ(to_string(by_classes(11, k)), published(11, k)) << k;
  EXPECT_EQ(to_string(by_classes(10, 4)), published(10, 4));
  for (int k = 7; k <= 9; ++k) EXPECT_THROW((void)make_class_job(11, k, cache(), 2), InvalidArgument) << k;
  EXPECT_THROW((void)make_class_job(9, 6, cache(), 2, 3), InvalidArgument);  // 3 rows by extension
  EXPECT_THROW((void)make_class_job(9, 9, cache(), 2, 3), InvalidArgument);  // squares: degree 4 only
}

/// X_e(h) by brute force: every perfect matching of h, then X_{e−1} of the rest.
u128 extensions_by_peeling(const BipGraph& h, int e) {
  if (e == 0) return 1;
  u128 sum = 0;
  const auto rec = [&](auto& self, int c, std::uint32_t used, BipGraph rest) -> void {
    if (c == h.n) {
      sum += extensions_by_peeling(rest, e - 1);
      return;
    }
    for (std::uint32_t a = h.adj[static_cast<std::size_t>(c)] & ~used; a; a &= a - 1) {
      const std::uint32_t b = a & (0u - a);
      rest.adj[static_cast<std::size_t>(c)] ^= b;
      self(self, c + 1, used | b, rest);
      rest.adj[static_cast<std::size_t>(c)] ^= b;
    }
  };
  rec(rec, 0, 0u, h);
  return sum;
}

TEST(RowExtensions, CompleteGraphsAndBruteForce) {
  // X_1(K_{n,n}) = n!; X_2(K_{n,n}) = n!·D(n), D = derangements (A000166).
  const char* d_n[] = {"1", "0", "1", "2", "9", "44", "265", "1854", "14833", "133496", "1334961", "14684570"};
  u128 f = 1;
  for (int n = 1; n <= kMaxClassOrder; ++n) {
    f *= static_cast<u128>(n);
    BipGraph full;
    full.n = n;
    full = full.complement();
    EXPECT_TRUE(row_extensions(full, 0) == 1) << n;
    EXPECT_TRUE(row_extensions(full, 1) == f) << n;
    EXPECT_EQ(to_string(row_extensions(full, 2)), to_string(f * parse_u128(d_n[n]))) << n;
  }
  // Relabelled complements of classes: the programme against peeling.
  std::mt19937 rng(7);
  for (const GraphClass& c : regular_classes(7, 2, cache())) {
    const BipGraph h = relabel(c.graph(7).complement(), rng);
    for (int e = 1; e <= 2; ++e)
      EXPECT_EQ(to_string(row_extensions(h, e)), to_string(extensions_by_peeling(h, e))) << e;
  }
  BipGraph g;
  g.n = 4;
  EXPECT_THROW((void)row_extensions(g, 3), InvalidArgument);
}

TEST(LatinClasses, ModNAndThreads) {
  for (int n = 2; n <= 8; ++n) EXPECT_NO_THROW(check_mod_n(n, by_classes(n, n))) << n;
  for (int threads : {1, 2, 4}) {
    EXPECT_EQ(to_string(by_classes(8, 8, threads)), "535281401856") << threads;
    EXPECT_EQ(to_string(by_classes(7, 4, threads)), "1293216") << threads;
  }
}

TEST(LatinClasses, ClassCountsFromGenbg) {
  // 9+9 4-regular: 3529 classes (nauty genbg); 5-regular ones are their complements.
  EXPECT_EQ(regular_classes(9, 4, cache()).size(), 3529u);
  EXPECT_EQ(regular_classes(9, 5, cache()).size(), 3529u);  // complements
  EXPECT_EQ(regular_classes(5, 1, cache()).size(), 1u);
  EXPECT_EQ(regular_classes(5, 1, cache())[0].automorphisms, 120u);
  // Σ (n!)²/|Aut| over 2-regular 4+4 classes = labelled 2-regular 4+4 bipartite graphs = 90 (A001499).
  u128 labelled = 0;
  for (const GraphClass& c : regular_classes(4, 2, cache())) labelled += labelled_factor(4) / c.automorphisms;
  EXPECT_EQ(to_string(labelled), "90");
}

TEST(LatinClasses, Graph6AndFactorisations) {
  // 2+2 with all four edges: graph6 of K_{2,2} on vertices {0,1 | 2,3}.
  const BipGraph k22 = from_graph6("C]", 2);
  EXPECT_EQ(k22.regular_degree(), 2);
  EXPECT_EQ(to_string(count_factorisations(k22)), "2");  // L(2)
  EXPECT_THROW((void)from_graph6("C]", 3), std::runtime_error);
  EXPECT_THROW((void)from_graph6("C~", 2), std::runtime_error);  // edges inside a side
  BipGraph full;
  full.n = 5;
  full = full.complement();
  EXPECT_EQ(to_string(count_factorisations(full)), "161280");  // L(5)
}

/// g with columns and symbols relabelled by two pseudo-random permutations.
BipGraph relabel(const BipGraph& g, std::mt19937& rng) {
  std::vector<int> cols(static_cast<std::size_t>(g.n)), syms(static_cast<std::size_t>(g.n));
  std::iota(cols.begin(), cols.end(), 0);
  std::iota(syms.begin(), syms.end(), 0);
  std::shuffle(cols.begin(), cols.end(), rng);
  std::shuffle(syms.begin(), syms.end(), rng);
  BipGraph h;
  h.n = g.n;
  for (int c = 0; c < g.n; ++c)
    for (int s = 0; s < g.n; ++s)
      if (g.adj[static_cast<std::size_t>(c)] >> s & 1u)
        h.adj[static_cast<std::size_t>(cols[static_cast<std::size_t>(c)])] |= 1u << syms[static_cast<std::size_t>(s)];
  return h;
}

TEST(LatinClasses, InvariantLookupIsExactUnderRelabelling) {
  // Every 9+9 3-regular class (13 of the 224 share an invariant value), each
  // relabelled at random: the invariant and canonical keys do not move, and
  // the fast lookup returns exactly the value stored under the canonical key.
  const auto list = std::make_shared<const std::vector<GraphClass>>(regular_classes(9, 3, cache()));
  const std::vector<GraphClass>& classes = *list;
  std::vector<u128> values(classes.size());
  for (std::size_t i = 0; i < classes.size(); ++i) values[i] = i + 1;  // distinct tags
  const FactorTable table(list, 9, values);
  EXPECT_GT(table.ambiguous(), 0u);
  EXPECT_LT(table.ambiguous(), classes.size() / 10);
  // Values past 2^64 are kept whole (a table of 16-byte values).
  std::vector<u128> wide = values;
  wide.back() = join64(7, 1);
  const FactorTable wide_table(list, 9, wide);
  EXPECT_TRUE(wide_table.at(classes.back().key()) == join64(7, 1));
  EXPECT_GT(wide_table.bytes(), table.bytes());
  std::mt19937 rng(12345);
  for (std::size_t i = 0; i < classes.size(); ++i) {
    const BipGraph h = relabel(classes[i].graph(9), rng);
    EXPECT_EQ(invariant_key(h), invariant_key(classes[i].graph(9))) << i;
    ASSERT_TRUE(canonical(h).key == classes[i].key()) << i;
    ASSERT_TRUE(table.lookup(h) == values[i]) << i;
    ASSERT_TRUE(wide_table.lookup(h) == wide[i]) << i;
  }
  // A class that is not in the table is an internal error, never a number.
  BipGraph three = classes[0].graph(9);
  for_each_peel(classes[0].graph(9), [&](const BipGraph& x) { three = x; });
  EXPECT_THROW((void)table.at(canonical(three).key), InternalError);
  // Nor is a list out of order, or one of another size than its values.
  auto reversed = std::make_shared<std::vector<GraphClass>>(classes.rbegin(), classes.rend());
  EXPECT_THROW(FactorTable(reversed, 9, values), InternalError);
  EXPECT_THROW(FactorTable(list, 9, std::vector<u128>(3, 1)), InternalError);
}

TEST(LatinClasses, TheRootEdgeIsInTheFewestPerfectMatchings) {
  // Counted edge by edge by enumeration: the pivot's count is the least.
  std::mt19937 rng(99);
  for (const GraphClass& c : regular_classes(8, 3, cache())) {
    const BipGraph g = relabel(c.graph(8).complement(), rng);  // 5-regular
    const auto none = [](const BipGraph&) {};
    std::uint64_t least = ~std::uint64_t{0};
    for (int col = 0; col < g.n; ++col)
      for (int sym = 0; sym < g.n; ++sym)
        if (g.adj[static_cast<std::size_t>(col)] >> sym & 1u)
          least = std::min(least, for_each_peel_at(g, RootEdge{col, sym}, none));
    const RootEdge pivot = fewest_matchings_edge(g);
    EXPECT_EQ(for_each_peel_at(g, pivot, none), least);
    EXPECT_LE(least, for_each_peel(g, none));
  }
}

TEST(LatinClasses, GenbgSlicesPartitionTheList) {
  // res/mod slices are disjoint and together give the whole list.
  auto whole = genbg_regular(8, 3);
  std::vector<std::string> joined;
  for (int res = 0; res < 3; ++res)
    for (auto& line : genbg_regular(8, 3, res, 3)) joined.push_back(line);
  std::sort(whole.begin(), whole.end());
  std::sort(joined.begin(), joined.end());
  EXPECT_EQ(joined, whole);
  EXPECT_GT(whole.size(), 10u);
}

TEST(LatinClasses, MissingOrFailingGenbg) {
  EXPECT_THROW((void)run_lines("/nonexistent/nauty-genbg", {}), InvalidArgument);
  EXPECT_THROW((void)run_lines("false", {}), std::runtime_error);
  const auto lines = run_lines("echo", {"a", "b"});
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "a b");
  // Lines are handed over as they come: a refusal stops an endless program
  // (yes never ends by itself) and goes on as the error.
  int seen = 0;
  EXPECT_THROW(run_each_line("yes", {"0123456789"},
                             [&](std::string_view l) {
                               EXPECT_EQ(l, "0123456789");
                               if (++seen == 100000) throw std::runtime_error("enough");
                             }),
               std::runtime_error);
  EXPECT_EQ(seen, 100000);
  // Reads are bounded: a line over 4096 bytes is refused.
  EXPECT_THROW((void)run_lines("printf", {std::string(5000, 'a')}), std::runtime_error);
  EXPECT_EQ(run_lines("printf", {std::string(4000, 'a') + "\\n\\nb"}).size(), 2u);
}

TEST(LatinClasses, CacheIsRebuiltWhenCorruptAndRefusedWhenUnwritable) {
  const fs::path dir = test_cache() / "corrupt";
  const CacheOptions c{dir, "--cache-dir"};
  const auto first = regular_classes(6, 3, c);
  const fs::path file = dir / "latin-classes-n6-d3.txt";
  ASSERT_TRUE(fs::exists(file));
  { std::ofstream(file, std::ios::trunc) << "garbage\n"; }
  const auto again = regular_classes(6, 3, c);
  EXPECT_EQ(again.size(), first.size());
  // Drop one class line but keep a matching "end" count: the checksum
  // catches it and the list is rebuilt whole.
  {
    std::ifstream full(file);
    std::vector<std::string> lines;
    for (std::string l; std::getline(full, l);) lines.push_back(l);
    ASSERT_GE(lines.size(), 4u);
    lines.erase(lines.begin() + 1);
    lines.back() = "end " + std::to_string(first.size() - 1) + lines.back().substr(lines.back().rfind(' '));
    std::ofstream out(file, std::ios::trunc);
    for (const auto& l : lines) out << l << '\n';
  }
  const auto rebuilt = regular_classes(6, 3, c);
  ASSERT_EQ(rebuilt.size(), first.size());
  for (std::size_t i = 0; i < first.size(); ++i) EXPECT_TRUE(rebuilt[i].key() == first[i].key()) << i;
  // Reads are bounded: /dev/zero in the cache's place (no line end, no
  // end of file) and a valid file with a long line after its end line are
  // both invalid, and the list is rebuilt.
  fs::remove(file);
  fs::create_symlink("/dev/zero", file);
  ASSERT_EQ(regular_classes(6, 3, c).size(), first.size());
  EXPECT_FALSE(fs::is_symlink(file));
  { std::ofstream(file, std::ios::app) << std::string(100'000, 'x'); }
  ASSERT_EQ(regular_classes(6, 3, c).size(), first.size());
  EXPECT_LT(fs::file_size(file), 100'000u);
  std::ifstream in(file);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("pcount latin classes v2", 0), 0u);
  const CacheOptions bad{fs::path("/proc/pcount-cannot-write"), "--cache-dir"};
  EXPECT_THROW((void)regular_classes(6, 3, bad), InvalidArgument);
  EXPECT_THROW((void)make_class_job(11, 8, cache(), 1), InvalidArgument);
  EXPECT_THROW((void)make_class_job(8, 9, cache(), 1), InvalidArgument);
}

}  // namespace
}  // namespace pcount::latin
