// Canonical forms (graph/canonical.hpp) against counts from outside pcount:
// graphs on n unlabelled vertices (OEIS A000088) and bipartite graphs with
// a fixed 2-colouring, with the orbit–stabiliser check Σ n!/|Aut| = labelled.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <vector>

#include "pcount/graph/canonical.hpp"

namespace pcount::graph {
namespace {

std::uint64_t factorial(int n) { return n <= 1 ? 1 : static_cast<std::uint64_t>(n) * factorial(n - 1); }

/// Every labelled graph on n vertices with one colour cell: the number of
/// distinct canonical forms, and Σ n!/|Aut| over one graph per form.
std::pair<std::size_t, std::uint64_t> classes_of_all_graphs(int n) {
  std::vector<std::pair<int, int>> pairs;
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) pairs.emplace_back(a, b);
  std::set<CanonicalForm> forms;
  std::uint64_t labelled = 0;
  const int cells[1] = {n};
  for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << pairs.size()); ++mask) {
    ColouredGraph g(cells);
    for (std::size_t e = 0; e < pairs.size(); ++e)
      if (mask >> e & 1) g.add_edge(pairs[e].first, pairs[e].second);
    CanonicalForm f = canonical_form(g);
    const std::uint64_t aut = f.automorphisms();
    if (forms.insert(std::move(f)).second) labelled += factorial(n) / aut;
  }
  return {forms.size(), labelled};
}

TEST(Canonical, GraphsOnFewVerticesMatchA000088) {
  const std::size_t a000088[] = {1, 1, 2, 4, 11, 34, 156};  // n = 0..6
  for (int n = 1; n <= 6; ++n) {
    const auto [classes, labelled] = classes_of_all_graphs(n);
    EXPECT_EQ(classes, a000088[n]) << "n = " << n;
    EXPECT_EQ(labelled, std::uint64_t{1} << (n * (n - 1) / 2)) << "orbit-stabiliser, n = " << n;
  }
}

TEST(Canonical, ColourCellsAreRespected) {
  // A path a-b-c: with one cell, colouring the middle vertex or an end
  // vertex differently gives non-isomorphic coloured graphs.
  const int one[1] = {3};
  const int split[2] = {1, 2};
  ColouredGraph plain(one), middle_first(split), end_first(split);
  for (ColouredGraph* g : {&plain, &middle_first}) {  // vertex 0 in the middle
    g->add_edge(0, 1);
    g->add_edge(0, 2);
  }
  end_first.add_edge(0, 1);  // vertex 0 at an end
  end_first.add_edge(1, 2);
  EXPECT_NE(canonical_form(middle_first), canonical_form(end_first));
  ColouredGraph plain_end(one);
  plain_end.add_edge(0, 1);
  plain_end.add_edge(1, 2);
  EXPECT_EQ(canonical_form(plain), canonical_form(plain_end));
  EXPECT_EQ(canonical_form(plain).automorphisms(), 2u);
  EXPECT_EQ(canonical_form(middle_first).automorphisms(), 2u);  // swap the two ends
}

TEST(Canonical, BipartiteGraphsWithSidesFixed) {
  // Bipartite graphs between two labelled sides of 3, sides kept apart: the
  // classes are the 0/1 matrices 3×3 up to row and column permutations,
  // 36 of them (OEIS A028657, n = m = 3).
  const int sides[2] = {3, 3};
  std::set<CanonicalForm> forms;
  std::uint64_t labelled = 0;
  for (unsigned mask = 0; mask < 512; ++mask) {
    ColouredGraph g(sides);
    for (int i = 0; i < 9; ++i)
      if (mask >> i & 1) g.add_edge(i / 3, 3 + i % 3);
    CanonicalForm f = canonical_form(g);
    const std::uint64_t aut = f.automorphisms();
    if (forms.insert(std::move(f)).second) labelled += 36 / aut;
  }
  EXPECT_EQ(forms.size(), 36u);
  EXPECT_EQ(labelled, 512u);
}

TEST(Canonical, BadInputThrows) {
  const int empty_cell[2] = {2, 0};
  EXPECT_THROW(ColouredGraph{std::span<const int>(empty_cell)}, std::invalid_argument);
  const int ok[1] = {3};
  ColouredGraph g(ok);
  EXPECT_THROW(g.add_edge(0, 3), std::out_of_range);
  EXPECT_THROW(g.add_edge(1, 1), std::out_of_range);
  EXPECT_THROW((void)canonical_form(ColouredGraph{}), std::invalid_argument);
}

}  // namespace
}  // namespace pcount::graph
