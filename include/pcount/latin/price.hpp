#pragma once
/// @file
/// The price of the classes method for reduced Latin squares, stage by
/// stage, before any of it runs (`count --latin N --estimate S`,
/// docs/latin.md "The price of a square").
///
/// A square of order n by classes (classes.hpp) lists the d-regular n+n
/// classes for d = 3 … h = ⌊n/2⌋ with nauty's genbg, builds the lookup
/// tables N(G) (degree 3 by DFS, each higher degree by peeling one perfect
/// matching into the table below), and sums over the h-regular classes,
/// peeling each complement. Each stage's price is an interval:
///   classes × CPU per class (lists), classes × lookups per class × CPU per
///   lookup (tables and the sum).
/// The class counts come from the exact number of labelled regular
/// bipartite graphs (regular_bipartite_count) divided by (n!)², a lower
/// bound, and that bound times the excess measured one order below, an
/// upper bound. Lookups per class, CPU per lookup and per canonical form,
/// and the machine's speed against the recorded genbg rates are measured
/// when the price is asked for (a few seconds).

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "pcount/latin/bipartite.hpp"
#include "pcount/latin/classes.hpp"
#include "pcount/u128.hpp"

namespace pcount::latin {

/// The number of labelled d-regular n+n bipartite graphs, that is of n×n
/// 0-1 matrices with every row and column sum d (OEIS A008300, the
/// triangle; A001501 for d = 3), counted exactly by a programme over the columns
/// whose state is how many rows still need each number of ones.
/// 0 ≤ d ≤ n ≤ kMaxClassOrder; throws InvalidArgument("order") otherwise.
[[nodiscard]] u128 regular_bipartite_count(int n, int d);

/// A uniformly random labelled d-regular n+n bipartite graph: column by
/// column, each column's degree pattern drawn in proportion to the
/// completions the column programme of regular_bipartite_count counts,
/// then its symbols uniformly among those with that need. Every class then
/// comes up in proportion to its labelled copies (n!)²/|Aut|, as in the
/// sums over classes. 0 ≤ d ≤ n ≤ kMaxClassOrder; throws
/// InvalidArgument("order") otherwise.
[[nodiscard]] BipGraph random_regular(int n, int d, std::mt19937_64& rng);

/// A closed interval of a non-negative quantity; `high` is +infinity when
/// only a lower bound is known.
struct Interval {
  double low = 0.0;
  double high = 0.0;
};

/// One stage of a classes job and its price.
struct StagePrice {
  std::string name;      ///< e.g. "5-regular list (nauty-genbg)"
  Interval classes;      ///< the classes it lists or runs over
  Interval lookups;      ///< table lookups it does (0 for lists)
  Interval cpu_seconds;  ///< its CPU time, all workers together; 0 when cached
  bool cached = false;   ///< already in the cache directory: the run reads it
  std::string basis;     ///< where the rate comes from, one line
};

/// The price of a classes job for reduced Latin squares.
struct SquarePrice {
  int n = 0;
  std::vector<StagePrice> stages;  ///< in the order the job runs them
  Interval cpu_seconds;            ///< their sum
  /// Bytes one process holds at its peak (square_peak_bytes).
  Interval peak_bytes;
  double speed = 1.0;  ///< this machine's genbg CPU time over the recorded one (1 = as recorded)
};

/// Prices `count --latin n --method classes` (9 ≤ n ≤ kMaxClassOrder) on
/// this machine: what `cache` already holds costs nothing, and nothing is
/// written to it. Runs genbg once on the 3-regular 11+11 list (about 1.6
/// CPU-s; its CPU time against the recorded one gives `speed`), lists the
/// 3-regular n+n classes (from the cache when there) and times lookups
/// into their table: a few seconds in all. Throws what
/// regular_classes and genbg throw (InvalidArgument("method") when genbg
/// cannot be run), InvalidArgument("order") for another n.
[[nodiscard]] SquarePrice price_square_classes(int n, const CacheOptions& cache);

/// SquarePrice::peak_bytes alone, from the class counts and the layout of
/// classes.hpp (no measurement, microseconds): the peak of one process of
/// `count --latin n --method classes`, 9 ≤ n ≤ kMaxClassOrder (throws
/// InvalidArgument("order") otherwise). Checked against R(10)'s peak RSS
/// (results/latin.md).
[[nodiscard]] Interval square_peak_bytes(int n);

}  // namespace pcount::latin
