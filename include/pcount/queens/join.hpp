#pragma once
/// @file
/// N-Queens by meet in the middle (`--method join`; docs/queens.md, "join").
///
/// The board is cut across: the top half (rows 0..a-1, a = ⌊N/2⌋) and the
/// bottom half (the last a rows); for odd N the middle row a holds one queen
/// in column m, and both halves avoid its column and diagonals. A solution
/// is a pair (top placement, bottom placement) that uses complementary column
/// sets and whose diagonals do not meet. Each half placement is reduced to
/// its column set C and a 2N-bit *diagonal key*: the squares of the boundary
/// row on its queens' diagonals (N bits per diagonal direction). A top and a
/// bottom placement fit exactly when their column sets are complementary and
/// their keys are disjoint, so Q(N) = Σ over column sets C of the number of
/// disjoint (top, bottom) key pairs with top columns C.
///
/// Bottom placements are top placements turned upside down, so one
/// enumeration serves both halves. The half turn of the board about the
/// horizontal axis (top ↔ bottom, C ↔ its complement) and the left–right
/// mirror map column sets to column sets with the same count, so only one
/// column set per class is joined, weighted by the class size (up to 4).
/// For even n ≤ 24 the reflection in the main diagonal halves the join
/// again: it swaps a solution's top column set S and its left row set L,
/// so each pair counts 2, 1 or 0 times as c(L) >, =, < c(S) (c: the least
/// image under complement and reversal), and half placements that can only
/// count 0 are pruned or dropped (docs/queens.md, "The diagonal reflection").
///
/// Tasks: the k outer columns (k/2 on each side) split the column sets: a
/// task fixes which outer columns the top half uses (and, for odd N, the
/// middle queen's column) and joins its column sets one by one: a column
/// set's half placements are built from two parts of each half (the upper
/// and the lower rows, listed once per task by column set) whose diagonals
/// do not meet, so none is sorted. The join of a group
/// sorts both sides into buckets by a few of their most-contested key bits
/// and tests only bucket pairs that do not clash on those bits, each pair of
/// keys with one AND. P(N) and R(N) come from the constrained symmetric
/// searches of the search method (two extra tasks), U(N) by Burnside.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "pcount/engine/simd.hpp"
#include "pcount/engine/task.hpp"
#include "pcount/queens/symmetry.hpp"

namespace pcount::queens {

/// One task of the join: the queen of the middle row (odd n) and the outer
/// columns the top half uses.
struct JoinTask {
  int middle = -1;          ///< column of the middle row's queen (odd n); -1 for even n
  std::uint32_t outer = 0;  ///< bit c set ⇔ outer column c holds a top-half queen
  friend bool operator==(const JoinTask&, const JoinTask&) = default;
};

/// The default number of outer columns for the n×n board, measured fastest:
/// n − 8 for even n, n − 11 for odd n (whose tasks are also split by the
/// middle queen); beyond n = 20 (even) and 19 (odd), n − 6 and n − 7, so
/// that a task holds about 100 MB at most (results/queens.md); always
/// within join_outer_range(n).
[[nodiscard]] int default_join_outer(int n);

/// The outer column counts the join accepts for the n×n board, {least,
/// most} (even numbers): at most 20 inner columns (a task keeps a bucket per
/// inner column set), at most n − 2 outer columns and at most 18 (even n)
/// or 14 (odd n), so the task list stays below about 2^16 (even) or
/// n·2^12 (odd) tasks.
[[nodiscard]] std::pair<int, int> join_outer_range(int n);

/// Checks a board side and outer column count for the join: 1 ≤ n ≤ 32
/// (InvalidArgument("n") otherwise) and `outer` even within
/// join_outer_range(n) (InvalidArgument("outer") otherwise).
void check_join(int n, int outer);

/// The canonical tasks of the n×n board with `outer` outer columns, in a
/// fixed order (by middle column, then outer mask): one task per class of
/// (middle, outer mask) under the mirror and the top–bottom turn. Throws
/// like check_join.
[[nodiscard]] std::vector<JoinTask> join_tasks(int n, int outer);

/// What one task contributes.
struct JoinTaskCount {
  u128 solutions = 0;   ///< Σ class size × compatible pairs over the task's column sets
  u128 placements = 0;  ///< half placements built and kept for the joins (top and bottom)
  u128 pair_tests = 0;  ///< key pairs tested with an AND
};

/// Runs task `t` of the n×n board with `outer` outer columns. For even n
/// from 4 to 24 the task also uses the reflection in the main diagonal
/// (docs/queens.md, "diagonal reflection"): each pair is weighted 2, 1 or 0
/// by comparing the solution's left row set with its top column set, so a
/// task's own total is not the number of solutions with its column sets,
/// but the tasks' sum is Q(n); `diagonal` = false turns this off (the sum
/// is the same). The keys are joined on instruction-set path `path` (16, 32
/// or 64 bytes per vector; count_disjoint_keys), by default
/// engine::simd_path(). Polls for a stop between column sets (throws
/// TaskAbandoned). Throws like check_join, CountOverflow if a sum
/// overflows, InternalError if a weight correction is inconsistent.
[[nodiscard]] JoinTaskCount count_join_task(int n, int outer, const JoinTask& t, bool diagonal = true,
                                            engine::SimdPath path = engine::simd_path());

/// Estimated half placements of task `t` (mean of `probes` random
/// root-to-leaf probes of its two enumerations; Knuth 1975), without the
/// diagonal reflection's pruning, of the groups it does not join included
/// (an upper bound of count_join_task's placements).
[[nodiscard]] double estimate_join_placements(int n, int outer, const JoinTask& t, int probes = 64);

/// Number of pairs (x in top, y in bottom) with x & y == 0, for keys of
/// 2n bits, by the bucketed join each task runs per column set (exposed
/// so tests can check it against a plain double loop). Keys are sorted
/// into buckets by their most contested bits; the bits left are tested in
/// 32-bit lanes when they fit 32 bits, else in 64-bit lanes (`wide` forces
/// them), a vector of 64, 32 or 16 bytes on the AVX-512, AVX2 or SSE4.1
/// path: `path`, by default engine::simd_path() (the join's tasks always
/// use that one). Throws InvalidArgument("n") unless 1 ≤ n ≤ 32,
/// InvalidArgument("top") or ("bottom") for a key with a bit at or above
/// 2n, InvalidArgument("path") for a path this CPU cannot run, and like
/// engine::simd_path() for a bad PCOUNT_SIMD.
[[nodiscard]] std::uint64_t count_disjoint_keys(int n, std::span<const std::uint64_t> top,
                                                std::span<const std::uint64_t> bottom, bool wide = false);
[[nodiscard]] std::uint64_t count_disjoint_keys(int n, std::span<const std::uint64_t> top,
                                                std::span<const std::uint64_t> bottom, bool wide,
                                                engine::SimdPath path);

/// Counter indices of the join job.
enum JoinCounter : std::size_t {
  kJAll = 0,     ///< Q(N) from the join
  kJRot180 = 1,  ///< P(N) from the half-turn search
  kJRot90 = 2,   ///< R(N) from the quarter-turn search
};

/// The `--method join` job: tasks 0..T-1 are join_tasks(n, outer) (counter
/// kJAll), task T the half-turn search (kJRot180), task T+1 the quarter-turn
/// search (kJRot90). Estimates are the tasks' estimated placements squared
/// over their column sets. Every task joins on `path`, by default
/// engine::simd_path() (what the program runs; the tests force each path
/// this CPU has). Throws like check_join, like engine::simd_path() for a
/// bad PCOUNT_SIMD, and InvalidArgument("path") for a path this CPU cannot
/// run.
[[nodiscard]] engine::Job make_join_job(int n, int outer, const std::string& fingerprint,
                                        engine::SimdPath path = engine::simd_path());

/// Estimated peak bytes of the join job for `workers` workers: each worker
/// holds at most the largest task's placements at 32 bytes each (a bound:
/// it holds the parts of the task's halves, 28 bytes each while they are
/// built and fewer than its half placements, and one column set's
/// placements at a time) plus 1 MiB of tables, plus 16 MiB for the program
/// itself. Throws like check_join.
[[nodiscard]] double join_memory_estimate(int n, int outer, int workers);

/// Reads Q, P and R from a finished join job's totals and applies burnside()
/// (throws InternalError when Q + P + 2R is not divisible by 8).
[[nodiscard]] QueensCounts join_counts(int n, const engine::Tally& totals);

}  // namespace pcount::queens
