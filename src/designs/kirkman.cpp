#include "pcount/designs/kirkman.hpp"

#include <algorithm>
#include <memory>
#include <numeric>
#include <set>
#include <string>

#include "pcount/engine/errors.hpp"
#include "pcount/engine/task.hpp"
#include "pcount/engine/tree.hpp"

namespace pcount::designs::kirkman {

namespace {

constexpr std::uint16_t kAll = 0x7FFF;
constexpr std::uint64_t kGroupOrder = 933120;  // 6^5 · 5!

int low(unsigned m) { return __builtin_ctz(m); }
std::uint16_t girl_bit(int g) { return static_cast<std::uint16_t>(1u << g); }

/// A partial schedule: complete days plus the rows of the current day.
struct State {
  std::array<std::uint16_t, kGirls> used{};  ///< used[g]: girls g has walked with
  std::uint16_t placed = 0;                  ///< girls in a row of the current day
  std::int8_t days = 0;                      ///< complete days
  std::int8_t rows = 0;                      ///< rows of the current day
  std::array<std::uint16_t, kDays * kRows> row{};  ///< rows in placement order (for --find)
};

State place(const State& s, int g, int a, int b) {
  State c = s;
  const auto t = static_cast<std::uint16_t>(girl_bit(g) | girl_bit(a) | girl_bit(b));
  c.used[static_cast<std::size_t>(g)] |= static_cast<std::uint16_t>(girl_bit(a) | girl_bit(b));
  c.used[static_cast<std::size_t>(a)] |= static_cast<std::uint16_t>(girl_bit(g) | girl_bit(b));
  c.used[static_cast<std::size_t>(b)] |= static_cast<std::uint16_t>(girl_bit(g) | girl_bit(a));
  c.row[static_cast<std::size_t>(c.days * kRows + c.rows)] = t;
  c.placed = static_cast<std::uint16_t>(c.placed | t);
  if (++c.rows == kRows) {
    c.rows = 0;
    c.placed = 0;
    ++c.days;
  }
  return c;
}

/// Rows that may be placed next, as (a, b) partners of the lowest unplaced
/// girl g. With `canonical`, a new day's first row (g = A) must hold the
/// lowest girl not yet paired with A, which lists unordered days once.
template <class F>
void for_each_row(const State& s, bool canonical, F&& f) {
  const int g = low(~s.placed & kAll);
  unsigned free = kAll & ~static_cast<unsigned>(s.placed | s.used[static_cast<std::size_t>(g)] | girl_bit(g));
  if (canonical && s.rows == 0 && free) free &= 0u - free;  // only the lowest as a
  const unsigned open = kAll & ~static_cast<unsigned>(s.placed | girl_bit(g));
  while (free) {
    const int a = low(free);
    free &= free - 1;
    unsigned bs = open & ~static_cast<unsigned>(s.used[static_cast<std::size_t>(g)] |
                                                s.used[static_cast<std::size_t>(a)]) &
                  ~((2u << a) - 1u);
    while (bs) {
      const int b = low(bs);
      bs &= bs - 1;
      f(g, a, b);
    }
  }
}

/// The rows the searches try next. A new day starts with A's canonical row;
/// inside a day any girl may be placed next, so take the unplaced girl with
/// the fewest possible partners (each partition of the day is still listed
/// once); a girl with fewer than two means a dead end: no row is offered.
template <class F>
void for_each_next_row(const State& s, F&& f) {
  if (s.rows == 0) {
    for_each_row(s, true, f);
    return;
  }
  const unsigned open = kAll & ~static_cast<unsigned>(s.placed);
  int g = -1;
  unsigned best = 0;
  int best_n = kGirls;
  for (unsigned m = open; m; m &= m - 1) {
    const int h = low(m);
    const unsigned avail = open & ~static_cast<unsigned>(s.used[static_cast<std::size_t>(h)] | girl_bit(h));
    const int n = __builtin_popcount(avail);
    if (n < 2) return;
    if (n < best_n) {
      best_n = n;
      best = avail;
      g = h;
    }
  }
  for (unsigned as = best; as; as &= as - 1) {
    const int a = low(as);
    unsigned bs = best & ~static_cast<unsigned>(s.used[static_cast<std::size_t>(a)]) & ~((2u << a) - 1u);
    while (bs) {
      const int b = low(bs);
      bs &= bs - 1;
      f(g, a, b);
    }
  }
}

/// Completions of `s` to 7 days (remaining days canonical). Shortcuts: a
/// day's last row and the whole last day are forced, only checked.
struct Search {
  std::uint64_t nodes = 0;
  /// Stop check (engine::throw_if_stopped) every 2¹⁶ nodes; a node copies
  /// and updates a State, so the tick is negligible.
  engine::StopPoll<> poll{};

  std::uint64_t count(const State& s) {
    ++nodes;
    poll.tick();
    if (s.days == kDays) return 1;
    if (s.days == kDays - 1 && s.rows == 0) {
      // Every girl has two partners left; they must be partners of each other.
      for (int g = 0; g < kGirls; ++g) {
        const unsigned left = kAll & ~static_cast<unsigned>(s.used[static_cast<std::size_t>(g)] | girl_bit(g));
        const int a = low(left);
        const int b = low(left & (left - 1));
        if (s.used[static_cast<std::size_t>(a)] >> b & 1u) return 0;
      }
      return 1;
    }
    if (s.rows == kRows - 1) {
      unsigned left = kAll & ~static_cast<unsigned>(s.placed);
      const int g = low(left);
      left &= left - 1;
      const int a = low(left);
      left &= left - 1;
      const int b = low(left);
      if ((s.used[static_cast<std::size_t>(g)] & (girl_bit(a) | girl_bit(b))) || (s.used[static_cast<std::size_t>(a)] >> b & 1u))
        return 0;
      return count(place(s, g, a, b));
    }
    std::uint64_t total = 0;
    for_each_next_row(s, [&](int g, int a, int b) { total += count(place(s, g, a, b)); });
    return total;
  }
};

State after_first_day() {
  State s;
  for (int r = 0; r < kRows; ++r) s = place(s, 3 * r, 3 * r + 1, 3 * r + 2);
  return s;
}

Day day_of(const State& s, int d) {
  Day day{};
  for (std::size_t r = 0; r < kRows; ++r) day[r] = s.row[static_cast<std::size_t>(d * kRows) + r];
  std::sort(day.begin(), day.end(), [](std::uint16_t x, std::uint16_t y) { return low(x) < low(y); });
  return day;
}

/// Every way to fill the current day (not canonical), depth-first.
void days_from(const State& s, std::vector<Day>& out) {
  for_each_row(s, false, [&](int g, int a, int b) {
    const State c = place(s, g, a, b);
    if (c.rows == 0) out.push_back(day_of(c, c.days - 1));
    else days_from(c, out);
  });
}

State with_second_day(const Day& d) {
  State s = after_first_day();
  for (std::uint16_t t : d) {
    unsigned m = t;
    const int g = low(m);
    m &= m - 1;
    const int a = low(m);
    m &= m - 1;
    s = place(s, g, a, low(m));
  }
  return s;
}

/// Girl permutation applied to a day; rows re-sorted.
Day apply(const std::array<int, kGirls>& p, const Day& d) {
  Day out{};
  for (std::size_t r = 0; r < kRows; ++r) {
    unsigned m = 0;
    for (unsigned t = d[r]; t; t &= t - 1) m |= 1u << p[static_cast<std::size_t>(low(t))];
    out[r] = static_cast<std::uint16_t>(m);
  }
  std::sort(out.begin(), out.end(), [](std::uint16_t x, std::uint16_t y) { return low(x) < low(y); });
  return out;
}

u128 key(const Day& d) {
  u128 k = 0;
  for (std::uint16_t t : d) k = k << 15 | t;
  return k;
}

struct Task {
  State state;
  std::uint64_t weight;
};

/// Children of a completion-search node (canonical rows), for the split.
struct CompletionTree {
  using Node = State;
  State start;
  [[nodiscard]] State root() const { return start; }
  [[nodiscard]] std::vector<State> children(const State& s) const {
    std::vector<State> kids;
    if (s.days == kDays) return kids;
    for_each_next_row(s, [&](int g, int a, int b) { kids.push_back(place(s, g, a, b)); });
    return kids;
  }
  void count_subtree(const State& s, engine::Tally& t) const {
    Search c;
    t.add(0, c.count(s));
    t.nodes = checked_add(t.nodes, c.nodes);
  }
};

}  // namespace

Day first_day() { return day_of(after_first_day(), 0); }

std::vector<Day> second_days() {
  std::vector<Day> out;
  days_from(after_first_day(), out);
  return out;
}

namespace {
std::vector<SecondDayOrbit> compute_orbits() {
  const std::vector<Day> days = second_days();
  std::vector<std::pair<u128, std::uint32_t>> index(days.size());
  for (std::size_t i = 0; i < days.size(); ++i) index[i] = {key(days[i]), static_cast<std::uint32_t>(i)};
  std::sort(index.begin(), index.end());
  auto find_index = [&](const Day& d) {
    const auto it = std::lower_bound(index.begin(), index.end(), std::make_pair(key(d), std::uint32_t{0}));
    if (it == index.end() || it->first != key(d)) throw InternalError("kirkman: a permuted second day is not listed");
    return it->second;
  };
  // Generators of S3 wr S5 on the rows of day 1: (A B), (B C), rows 1↔2, rows shifted by one.
  std::array<std::array<int, kGirls>, 4> gens{};
  for (auto& p : gens) std::iota(p.begin(), p.end(), 0);
  std::swap(gens[0][0], gens[0][1]);
  std::swap(gens[1][1], gens[1][2]);
  for (int i = 0; i < 3; ++i) std::swap(gens[2][static_cast<std::size_t>(i)], gens[2][static_cast<std::size_t>(i + 3)]);
  for (int i = 0; i < kGirls; ++i) gens[3][static_cast<std::size_t>(i)] = (i + 3) % kGirls;

  std::vector<std::uint32_t> parent(days.size());
  std::iota(parent.begin(), parent.end(), 0u);
  auto root = [&](std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (std::size_t i = 0; i < days.size(); ++i)
    for (const auto& p : gens) {
      const std::uint32_t a = root(static_cast<std::uint32_t>(i)), b = root(find_index(apply(p, days[i])));
      if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the root is the orbit's first member
    }
  std::vector<std::uint64_t> size(days.size(), 0);
  for (std::size_t i = 0; i < days.size(); ++i) ++size[root(static_cast<std::uint32_t>(i))];
  std::vector<SecondDayOrbit> orbits;
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < days.size(); ++i)
    if (size[i]) {
      if (kGroupOrder % size[i] != 0) throw InternalError("kirkman: an orbit size does not divide 933120");
      orbits.push_back({days[i], size[i]});
      total += size[i];
    }
  if (total != days.size())
    throw InternalError("kirkman: the second-day orbits do not add up to the " + std::to_string(days.size()) +
                        " second days");
  return orbits;
}
}  // namespace

std::vector<SecondDayOrbit> second_day_orbits() {
  static const std::vector<SecondDayOrbit> orbits = compute_orbits();  // computed once, thread-safe
  return orbits;
}

engine::Job make_count_job(int split_depth) {
  if (split_depth < 0 || split_depth > 10)
    throw InvalidArgument("split_depth", "Kirkman searches split after 0 to 10 further rows, got " +
                                               std::to_string(split_depth));
  auto tasks = std::make_shared<std::vector<Task>>();
  for (const auto& o : second_day_orbits()) {
    const CompletionTree tree{with_second_day(o.representative)};
    for (const State& s : engine::expand(tree, split_depth)) tasks->push_back({s, o.size});
  }
  engine::Job job;
  job.fingerprint = "kirkman count method=orbits split=" + std::to_string(split_depth);
  job.counter_names = {"weighted_completions", "completions"};
  job.task_count = tasks->size();
  job.split_depth = split_depth;
  job.run_task = [tasks](std::size_t id, engine::Tally& out) {
    const Task& t = (*tasks)[id];
    Search c;
    const std::uint64_t n = c.count(t.state);
    out.add(kWeightedCompletions, checked_mul(n, t.weight));
    out.add(kCompletions, n);
    out.nodes = checked_add(out.nodes, c.nodes);
  };
  return job;
}

std::uint64_t completions(const Day& second) {
  const Day one = first_day();
  unsigned covered = 0;
  for (std::uint16_t t : second) {
    bool ok = __builtin_popcount(t) == 3 && !(covered & t) && !(t & ~kAll);
    for (std::uint16_t u : one) ok = ok && __builtin_popcount(static_cast<unsigned>(t & u)) <= 1;
    if (!ok) throw InvalidArgument("second day", "'" + format(second) + "' is not a day orthogonal to day 1");
    covered |= t;
  }
  Search c;
  return c.count(with_second_day(second));
}

u128 solutions(const engine::Tally& totals) {
  const u128 w = totals.get(kWeightedCompletions);
  if (w % 6 != 0) throw InternalError("kirkman: the weighted completions are not a multiple of 6");
  return w / 6;
}

namespace {
bool find_from(const State& s, State& found) {
  if (s.days == kDays) {
    found = s;
    return true;
  }
  bool done = false;
  for_each_next_row(s, [&](int g, int a, int b) {
    if (!done) done = find_from(place(s, g, a, b), found);
  });
  return done;
}
}  // namespace

namespace {

/// The plain search from day 1 (remaining days canonical, as in the count's
/// completions) as a tree, for --list: every solution once, in DFS order.
struct ListTree {
  using Node = State;
  [[nodiscard]] Node root() const { return after_first_day(); }
  [[nodiscard]] std::vector<Node> children(const Node& s) const {
    std::vector<Node> kids;
    if (s.days == kDays) return kids;
    for_each_next_row(s, [&](int g, int a, int b) { kids.push_back(place(s, g, a, b)); });
    return kids;
  }
  void count_subtree(const Node& s, engine::Tally& tally) const {
    Walk w{nullptr, false, 0};
    w.dfs(s);
    tally.add(0, w.found);
    tally.nodes = checked_add(tally.nodes, w.nodes);
  }

  /// Writes the solutions below a node (all, or the first `limit`).
  struct Walk {
    std::string* text;
    bool json;
    std::uint64_t limit;
    std::uint64_t found = 0;
    std::uint64_t nodes = 0;
    engine::StopPoll<> poll{};

    /// False once `limit` solutions were written.
    bool dfs(const State& s) {
      ++nodes;
      poll.tick();
      if (s.days == kDays) {
        ++found;
        if (text) write(s);
        return limit == 0 || found < limit;
      }
      bool more = true;
      for_each_next_row(s, [&](int g, int a, int b) {
        if (more) more = dfs(place(s, g, a, b));
      });
      return more;
    }

    void write(const State& s) const {
      std::string& t = *text;
      t += json ? "{\"days\":[" : "";
      for (int d = 0; d < kDays; ++d) {
        if (d > 0) t += json ? "," : " | ";
        if (json) t += '"';
        t += format(day_of(s, d));
        if (json) t += '"';
      }
      t += json ? "]}\n" : "\n";
    }
  };
};
static_assert(engine::TreeProblem<ListTree>);

}  // namespace

engine::Job make_list_job(int split_depth, bool json, std::uint64_t limit) {
  if (split_depth < 0 || split_depth > 10)
    throw InvalidArgument("split_depth", "expected 0 to 10 rows, got " + std::to_string(split_depth));
  auto tree = std::make_shared<const ListTree>();
  auto frontier = std::make_shared<const std::vector<State>>(engine::expand(*tree, split_depth));
  engine::Job job;
  job.fingerprint = "kirkman list split=" + std::to_string(split_depth);
  job.counter_names = {"solutions"};
  job.task_count = frontier->size();
  job.split_depth = split_depth;
  job.run_task_output = [frontier, json, limit](std::size_t id, engine::Tally& out, std::string& text) {
    ListTree::Walk w{&text, json, limit};
    w.dfs((*frontier)[id]);
    out.add(0, w.found);
    out.nodes = checked_add(out.nodes, w.nodes);
  };
  return job;
}

std::optional<Schedule> find_solution() {
  State found;
  if (!find_from(after_first_day(), found)) return std::nullopt;
  Schedule out{};
  for (int d = 0; d < kDays; ++d) out[static_cast<std::size_t>(d)] = day_of(found, d);
  return out;
}

bool is_solution(const Schedule& schedule) {
  std::array<unsigned, kGirls> met{};
  for (const Day& day : schedule) {
    unsigned covered = 0;
    for (std::uint16_t t : day) {
      if (__builtin_popcount(t) != 3 || (covered & t) || (t & ~kAll)) return false;
      covered |= t;
      for (unsigned m = t; m; m &= m - 1) {
        const auto g = static_cast<std::size_t>(low(m));
        if (met[g] & (t & ~(1u << g))) return false;  // a pair walked together twice
        met[g] |= t & ~(1u << g);
      }
    }
    if (covered != kAll) return false;
  }
  for (unsigned m : met)
    if (__builtin_popcount(m) != kGirls - 1) return false;
  return true;
}

std::string format(const Day& day) {
  std::string s;
  for (std::uint16_t t : day) {
    if (!s.empty()) s += ' ';
    for (unsigned m = t; m; m &= m - 1) s += static_cast<char>('A' + low(m));
  }
  return s;
}

}  // namespace pcount::designs::kirkman

// ---------------------------------------------------------------------------
// Isomorphism classes (nauty canonical forms, graph/canonical.hpp).
#include "pcount/graph/canonical.hpp"

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
