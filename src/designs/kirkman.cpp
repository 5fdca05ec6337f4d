#include "pcount/designs/kirkman.hpp"

#include <algorithm>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "pcount/errors.hpp"
#include "pcount/engine/fingerprint.hpp"
#include "pcount/engine/parallel.hpp"
#include "pcount/engine/task.hpp"
#include "pcount/engine/tree.hpp"
#include "designs/kirkman_state.hpp"

namespace pcount::designs::kirkman {

namespace {

constexpr std::uint64_t kGroupOrder = 933120;  // 6^5 · 5!

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

/// Calls visit(day) for every way to fill the current day (not canonical),
/// depth-first.
template <class F>
void days_from(const State& s, F&& visit) {
  for_each_row(s, false, [&](int g, int a, int b) {
    const State c = place(s, g, a, b);
    if (c.rows == 0) visit(day_of(c, c.days - 1));
    else days_from(c, visit);
  });
}

struct Task {
  State state;
  std::uint64_t weight;
};

/// The states after each canonical next row of `s` (none when complete):
/// the children of both trees below.
std::vector<State> next_states(const State& s) {
  std::vector<State> kids;
  if (s.days == kDays) return kids;
  for_each_next_row(s, [&](int g, int a, int b) { kids.push_back(place(s, g, a, b)); });
  return kids;
}

/// Children of a completion-search node (canonical rows), for the split.
struct CompletionTree {
  using Node = State;
  State start;
  [[nodiscard]] State root() const { return start; }
  [[nodiscard]] std::vector<State> children(const State& s) const { return next_states(s); }
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
  days_from(after_first_day(), [&](const Day& d) { out.push_back(d); });
  return out;
}

namespace {
/// The rows of day 1 that a row of another day meets, as a 5-bit mask.
unsigned day_one_rows(std::uint16_t t) {
  unsigned m = 0;
  for (unsigned u = t; u; u &= u - 1) m |= 1u << (low(u) / 3);
  return m;
}

/// The orbits of the second days under the stabiliser of day 1, G = S3 wr S5
/// (a girl permutation keeping day 1's rows as rows), without touching G:
/// each row of a second day meets three rows of day 1, and each row of day 1
/// meets three rows of the second day, so the five complements (pairs of
/// day-1 rows a row misses) form a 2-regular multigraph on the 5 rows of
/// day 1: a 5-cycle, or a triangle and a double edge (two rows of the second
/// day meeting the same three rows of day 1). G acts on this pattern through
/// S5, which is transitive on labelled 5-cycles (12) and on labelled
/// triangle + double edge (10); the days over one labelled pattern are the
/// choices, per row of day 1, of which of its girls goes to which of the
/// three rows through it, on which S3^5 is transitive. So the two patterns
/// are the two orbits, of sizes 12·6^5 = 93,312 and 10·6^5/2 = 38,880 (the
/// two rows over the double edge are unordered). Classifying the listed days
/// by pattern needs no lookup of permuted days (the union–find over G's
/// generators this replaced spent 80 ms on them); the test checks each
/// orbit by orbit–stabiliser against G counted element by element.
std::vector<SecondDayOrbit> compute_orbits(int threads) {
  // The listing is split by the second day's first row (A's row: 54 of
  // them), one engine loop index each; each part keeps its first day and
  // count per pattern, merged below in listing order, so the result is the
  // same for every thread count.
  struct Part {
    std::array<std::uint64_t, 2> size{};
    std::array<Day, 2> first{};                ///< each pattern's first day in the part
    std::array<std::uint64_t, 2> first_at{};   ///< and its place in the part's listing
    std::uint64_t listed = 0;
  };
  const State start = after_first_day();
  std::vector<State> firsts;
  for_each_row(start, false, [&](int g, int a, int b) { firsts.push_back(place(start, g, a, b)); });
  std::vector<Part> parts(firsts.size());
  engine::for_each_index(firsts.size(), threads, [&](std::size_t i) {
    Part& part = parts[i];
    days_from(firsts[i], [&](const Day& d) {
      std::array<unsigned, kRows> rows{};
      for (std::size_t r = 0; r < kRows; ++r) rows[r] = day_one_rows(d[r]);
      std::sort(rows.begin(), rows.end());
      if (!std::all_of(rows.begin(), rows.end(), [](unsigned m) { return __builtin_popcount(m) == 3; }))
        throw InternalError("kirkman: a second day has a row inside one row of day 1");
      const std::size_t pattern = std::adjacent_find(rows.begin(), rows.end()) != rows.end() ? 1 : 0;
      if (part.size[pattern]++ == 0) {
        part.first[pattern] = d;
        part.first_at[pattern] = part.listed;
      }
      ++part.listed;
    });
  });
  // Each pattern's size, and its first day in listing order: the first part
  // that meets it, at that part's first_at.
  constexpr std::array<std::uint64_t, 2> kPatternSize{93312, 38880};  // 5-cycle, double edge
  static_assert(kGroupOrder % kPatternSize[0] == 0 && kGroupOrder % kPatternSize[1] == 0,
                "an orbit's size divides the group order");
  std::array<std::uint64_t, 2> size{};
  std::array<std::pair<std::size_t, std::uint64_t>, 2> first_pos{};  // (part, place in it)
  std::array<Day, 2> first{};
  for (std::size_t i = 0; i < parts.size(); ++i)
    for (std::size_t p = 0; p < 2; ++p) {
      if (parts[i].size[p] == 0) continue;
      if (size[p] == 0) {
        first[p] = parts[i].first[p];
        first_pos[p] = {i, parts[i].first_at[p]};
      }
      size[p] += parts[i].size[p];
    }
  // The listing holds 132,192 = 93,312 + 38,880 days exactly when both
  // patterns have their proved sizes.
  if (size != kPatternSize)
    throw InternalError("kirkman: the second days do not split 93,312 + 38,880 by row pattern");
  std::vector<SecondDayOrbit> orbits{{first[0], size[0]}, {first[1], size[1]}};
  if (first_pos[1] < first_pos[0]) std::swap(orbits[0], orbits[1]);  // ordered by representative
  return orbits;
}
}  // namespace

std::vector<SecondDayOrbit> second_day_orbits(int threads) {
  static std::once_flag once;  // computed once per process (thread-safe); a throw leaves it to the next call
  static std::vector<SecondDayOrbit> orbits;
  std::call_once(once, [threads] { orbits = compute_orbits(threads); });
  return orbits;
}

engine::Job make_count_job(int split_depth, int threads) {
  if (split_depth < 0 || split_depth > 10)
    throw InvalidArgument("split_depth", "Kirkman searches split after 0 to 10 further rows, got " +
                                               std::to_string(split_depth));
  auto tasks = std::make_shared<std::vector<Task>>();
  for (const auto& o : second_day_orbits(threads)) {
    const CompletionTree tree{with_second_day(o.representative)};
    for (const State& s : engine::expand(tree, split_depth)) tasks->push_back({s, o.size});
  }
  engine::Job job;
  job.fingerprint = engine::Fingerprint("kirkman count").add("method", "orbits").add("split", split_depth);
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
  [[nodiscard]] std::vector<Node> children(const Node& s) const { return next_states(s); }
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
  job.fingerprint = engine::Fingerprint("kirkman list").add("split", split_depth);
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
