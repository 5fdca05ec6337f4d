// Kirkman's schoolgirls up to isomorphism: the 7 solutions and 4 Steiner
// triple systems (Cole 1922), by nauty canonical forms (graph/canonical.hpp)
// of every completion of the second-day orbit representatives.
#include <set>
#include <vector>

#include "pcount/designs/kirkman.hpp"
#include "pcount/errors.hpp"
#include "pcount/graph/canonical.hpp"
#include "designs/kirkman_state.hpp"

namespace pcount::designs::kirkman {

namespace {

/// Every completion of `s` to 7 days, as schedules (no shortcuts).
void collect(const State& s, std::vector<Schedule>& out) {
  if (s.days == kDays) {
    Schedule sch{};
    for (int d = 0; d < kDays; ++d) sch[static_cast<std::size_t>(d)] = day_of(s, d);
    out.push_back(sch);
    return;
  }
  for_each_next_row(s, [&](int g, int a, int b) { collect(place(s, g, a, b), out); });
}

/// Canonical form (nauty) of the girls–rows(–days) incidence graph with
/// colour classes {girls | rows | days}; without days it is the triple system.
graph::CanonicalForm canonical_form(const Schedule& sch, bool with_days) {
  const int rows = kDays * kRows;
  std::vector<int> cells{kGirls, rows};
  if (with_days) cells.push_back(kDays);
  graph::ColouredGraph g(cells);
  // Rows sorted so that the triple system does not depend on day order.
  std::vector<std::uint16_t> all;
  for (const Day& d : sch)
    for (std::uint16_t t : d) all.push_back(t);
  for (int r = 0; r < rows; ++r) {
    const int v = kGirls + r;
    for (unsigned t = all[static_cast<std::size_t>(r)]; t; t &= t - 1) g.add_edge(low(t), v);
    if (with_days) g.add_edge(v, kGirls + rows + r / kRows);
  }
  return graph::canonical_form(g);
}

}  // namespace

std::size_t isomorphism_classes(std::size_t& systems) {
  // Every solution is isomorphic to one containing day 1 and an orbit
  // representative as another day, so the representatives' completions
  // meet every class.
  std::vector<Schedule> all;
  for (const auto& o : second_day_orbits()) collect(with_second_day(o.representative), all);
  std::set<graph::CanonicalForm> kts, sts;
  for (const Schedule& s : all) {
    if (!is_solution(s)) throw InternalError("kirkman: a completion is not a valid schedule");
    kts.insert(canonical_form(s, true));
    sts.insert(canonical_form(s, false));
  }
  systems = sts.size();
  return kts.size();
}

}  // namespace pcount::designs::kirkman
