#pragma once
/// @file
/// N-Queens by border constellations (after Preußer & Engelhardt, "Putting
/// Queens in Carry Chains, No 27", J. Signal Process. Syst. 2017;
/// docs/queens.md, docs/sources.md).
///
/// Every solution has exactly one queen on each of the four border lines
/// (row 0, row N-1, column 0, column N-1); a corner queen serves two lines.
/// The squares of those queens form the solution's *border constellation*.
/// The 8 symmetries of the square permute constellations, and map the
/// solutions of a constellation one-to-one onto those of its image, so only
/// constellations that are canonical (lexicographically smallest among their
/// images) are searched, each weighted by its orbit size 8/|Stab| (8, 4 or 2
/// — or 1 for N = 1). Solutions fixed by a rotation have a constellation
/// fixed by it, so P(N) and R(N) are counted inside the few symmetric
/// constellations; within a constellation, Burnside over its stabiliser
/// gives its number of distinct solution classes, which sums to U(N).
///
/// The kernel fills rows 1..N-2 (skipping rows whose queen is on the border)
/// with a bitboard search; every square attacked by a border queen is
/// removed per row in advance.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pcount/engine/task.hpp"
#include "pcount/queens/symmetry.hpp"

namespace pcount::queens {

/// One border constellation: the column of the queen in row 0 (`top`) and
/// in row N-1 (`bottom`), the row of the queen in column 0 (`left`) and in
/// column N-1 (`right`). Corner queens make two of these agree, e.g. top = 0
/// ⇔ left = 0.
struct Constellation {
  std::uint8_t top = 0;
  std::uint8_t bottom = 0;
  std::uint8_t left = 0;
  std::uint8_t right = 0;
  /// Bit i set ⇔ kSymmetries[i] maps the constellation onto itself.
  std::uint8_t stabiliser = 1;
  friend bool operator==(const Constellation&, const Constellation&) = default;
};

/// Number of symmetries fixing `c` (1, 2, 4 or 8).
[[nodiscard]] int stabiliser_order(const Constellation& c);
/// Orbit size 8 / stabiliser_order(c): the weight of c's counts in Q(N).
[[nodiscard]] int weight(const Constellation& c);

/// The canonical border constellations of the n×n board (1 ≤ n ≤ 32) whose
/// queens do not attack each other, in a fixed order (by top, bottom, left,
/// right). Throws InvalidArgument("n") for n outside 1..32.
[[nodiscard]] std::vector<Constellation> canonical_constellations(int n);

/// What the completions of one constellation contribute.
struct ConstellationCount {
  u128 completions = 0;  ///< solutions with this constellation
  u128 rot180 = 0;       ///< of them, fixed by the half turn (0 unless the constellation is)
  u128 rot90 = 0;        ///< of them, fixed by the quarter turn (0 unless the constellation is)
  u128 classes = 0;      ///< classes of these solutions under the stabiliser (Burnside)
  u128 nodes = 0;        ///< search nodes visited
};

/// Counts the completions of `c` on the n×n board. Throws InternalError when
/// Burnside over the stabiliser does not divide evenly. Within one
/// constellation the kernel counts in 64 bits (at ~2·10^8 nodes per second a
/// 64-bit counter would need centuries to overflow); the job's totals are
/// 128-bit and overflow-checked.
[[nodiscard]] ConstellationCount count_constellation(int n, const Constellation& c);

/// A rough cost estimate of searching `c`'s completions (free squares left
/// in the inner rows after the border queens' attacks; any unit).
[[nodiscard]] double estimate_constellation(int n, const Constellation& c);

/// Counter indices of the constellation job.
enum ConstellationCounter : std::size_t {
  kCAll = 0,             ///< Σ weight · completions = Q(N)
  kCRot180 = 1,          ///< Σ weight · rot180 = P(N)
  kCRot90 = 2,           ///< Σ weight · rot90 = R(N)
  kCDistinct = 3,        ///< Σ classes = U(N)
  kCRot180Search = 4,    ///< P(N) by its own constrained search (cross-check)
  kCRot90Search = 5,     ///< R(N) by its own constrained search (cross-check)
};

/// The `--method constellations` job: task i (i < T) counts the canonical
/// constellations [i·group, (i+1)·group) of canonical_constellations(n);
/// tasks T and T+1 run the half- and quarter-turn searches. Each task's
/// estimate is the sum of its constellations' estimates (the runner starts
/// the largest first). Throws InvalidArgument("n") for a bad n and
/// InvalidArgument("group") for group < 1.
[[nodiscard]] engine::Job make_constellation_job(int n, std::size_t group, const std::string& fingerprint);

/// Checks a finished constellation job's totals (P and R from the
/// constellations equal those of the constrained searches; Burnside
/// U = (Q + P + 2R)/8 equals the sum of the per-constellation classes) and
/// returns the four counts. Throws InternalError on any mismatch.
[[nodiscard]] QueensCounts constellation_counts(int n, const engine::Tally& totals);

}  // namespace pcount::queens
