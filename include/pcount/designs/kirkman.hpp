#pragma once
/// @file
/// Kirkman's 15 schoolgirls (Kirkman 1850): 15 girls walk out in 5 rows of
/// 3 on 7 days so that every two girls walk in the same row exactly once — a
/// resolvable Steiner triple system STS(15), i.e. a Kirkman triple system.
///
/// Girls are 0..14 (printed A..O). Day 1 is fixed as ABC DEF GHI JKL MNO and
/// the other days are unordered. Known values (docs/sources.md, "Kirkman's
/// schoolgirl problem"): 7 solutions up to isomorphism (Cole 1922), from 4
/// of the 80 STS(15) (Cole, Cummings & White 1917); 132,192 possible second
/// days and 2,021,760 solutions (our own counts, no published source).
///
/// Counting method: every solution contains 6 further days, so
/// 6·N = Σ over second days D of c(D), with c(D) = the number of ways to
/// complete {day 1, D} (remaining days unordered: each is listed with the
/// row of girl A that holds the lowest girl not yet paired with A). c is
/// constant on the orbits of the 933,120 girl permutations that fix day 1
/// (S3 wr S5: permute inside rows, permute rows), so the sum runs over one
/// representative per orbit, weighted by the orbit's size.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pcount/engine/task.hpp"

namespace pcount::designs::kirkman {

inline constexpr int kGirls = 15;
inline constexpr int kDays = 7;
inline constexpr int kRows = 5;

/// One day: its 5 rows as 15-bit masks of girls, in increasing order of
/// the rows' lowest girl.
using Day = std::array<std::uint16_t, kRows>;
/// A full schedule: day 1 first.
using Schedule = std::array<Day, kDays>;

/// ABC DEF GHI JKL MNO.
[[nodiscard]] Day first_day();

/// Every day whose rows share no pair with day 1 (132,192 of them), in the
/// search's deterministic order.
[[nodiscard]] std::vector<Day> second_days();

/// An orbit of second days under the permutations fixing day 1.
struct SecondDayOrbit {
  Day representative;  ///< the orbit's first member in second_days() order
  std::uint64_t size;  ///< number of second days in the orbit
};

/// The orbits of second_days() under S3 wr S5 (order 933,120), ordered by
/// representative: the days are classified by which rows of day 1 their rows
/// meet (a 5-cycle pattern: 93,312 days; a triangle and a double edge:
/// 38,880), each pattern being one orbit (proof in kirkman.cpp and
/// docs/games.md). Computed once per process, the listing split by the
/// second day's first row over `threads` engine workers (0 = all; the first
/// call's value counts; the result is the same for any). Throws
/// InternalError if the listed second days do not split into these two
/// sizes (together the 132,192 second days); InvalidArgument("threads") for
/// threads < 0.
[[nodiscard]] std::vector<SecondDayOrbit> second_day_orbits(int threads = 1);

/// Counters of make_count_job.
enum Counter : std::size_t {
  kWeightedCompletions = 0,  ///< Σ orbit size × completions = 6 × solutions
  kCompletions = 1,          ///< completions of the representatives alone
};

/// The count as an engine job: one second day per orbit (2 orbits, of
/// 38,880 and 93,312 days), weighted by the orbit's size; about 5.5 million
/// search nodes (a plain search from day 1 would need some 10,000 times
/// more). Each representative's completion search is split after
/// `split_depth` further rows (0 ≤ split_depth ≤ 10); every frontier node is
/// one task. Nodes = search nodes below the split. Throws
/// InvalidArgument("split_depth") for another depth. `threads` is passed to
/// second_day_orbits (its first call in the process lists the second days).
[[nodiscard]] engine::Job make_count_job(int split_depth, int threads = 1);

/// Every solution written out (--list), as an engine job with ordered
/// output: the plain search from day 1 (no orbits; some 10,000 times the
/// count's nodes, so the whole list of 2,021,760 takes CPU-minutes), split
/// after `split_depth` rows (0 ≤ split_depth ≤ 10), one task per frontier
/// node. A task writes its solutions in DFS order, one per line: the 7 days
/// (day 1 first, then in the canonical order of the search) as
/// `ABC DEF GHI JKL MNO | ADG … | …`, or with `json` as
/// `{"days":["ABC DEF GHI JKL MNO",…]}`; at most `limit` per task (0 = all).
/// Counter 0 = solutions written. Throws InvalidArgument("split_depth").
[[nodiscard]] engine::Job make_list_job(int split_depth, bool json, std::uint64_t limit);

/// c(D): the number of ways to complete {day 1, `second`} to a solution
/// (remaining days unordered). Throws InvalidArgument if `second` is not one
/// of second_days(). Used to check that c is constant on each orbit.
[[nodiscard]] std::uint64_t completions(const Day& second);

/// The number of solutions from the job's totals (weighted / 6); throws
/// InternalError when the weighted sum is not a multiple of 6.
[[nodiscard]] u128 solutions(const engine::Tally& totals);

/// The first solution in search order (day 1 fixed), or nullopt if none.
[[nodiscard]] std::optional<Schedule> find_solution();

/// True when the schedule has 7 days of 5 disjoint rows of 3 covering all
/// girls and every pair of girls shares exactly one row.
[[nodiscard]] bool is_solution(const Schedule& schedule);

/// "ABC DEF GHI JKL MNO"-style text of one day.
[[nodiscard]] std::string format(const Day& day);

/// Isomorphism classes of all solutions. Every solution is isomorphic to one
/// holding day 1 and an orbit representative (map any of its other days to
/// its orbit's representative), so the 172 completions of the two
/// representatives meet every class. Each is put in canonical form with
/// nauty (densenauty on the girls–rows–days incidence graph, colour classes
/// girls | rows | days). Returns the number of schedules up to isomorphism
/// (7, Cole 1922) and stores in `systems` the number of distinct underlying
/// triple systems (the same graph without days: 4). Throws InternalError if a
/// completion is not a valid schedule.
[[nodiscard]] std::size_t isomorphism_classes(std::size_t& systems);

}  // namespace pcount::designs::kirkman
