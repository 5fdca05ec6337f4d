// Ordered 1-factorisations of a k-regular bipartite graph (column–digit
// graph of a sudoku band): the kernel behind every B(σ).
#include <array>
#include <stdexcept>
#include <string>
#include <utility>

#include "bipartite.hpp"
#include "pcount/engine/split.hpp"
#include "pcount/engine/task.hpp"
#include "pcount/sudoku/grids/bands.hpp"

namespace pcount::sudoku {

namespace {

constexpr int kMaxVertices = 32;
using Adjacency = std::array<std::uint32_t, kMaxVertices>;

struct Factoriser {
  int n;
  /// Stop check (engine::throw_if_stopped) once every 2¹⁶ completed
  /// matchings or 2-factors (each n column nodes and a count of the rest).
  mutable engine::StopPoll<> poll{};

  /// Only the `part`-th choice at column 1 of the first level (k ≥ 4: the
  /// first 2-factor's digit pair there, in increasing order), or every
  /// choice when part < 0. Set for the top call only.
  mutable int part_ = -1;

  /// Unordered 1-factorisations of the `k`-regular graph `adj` (= ordered
  /// ones with column 0's digits in increasing order).
  u128 count(const Adjacency& adj, int k) const {
    if (k <= 1) return 1;
    if (k == 2) return static_cast<u128>(1) << (detail::cycles_of_two_factor(adj.data(), n) - 1);
    if (k >= 4) {
      // Peel the 2-factor F = M(1) ∪ M(2) of the two matchings holding
      // column 0's two smallest digits: each such F splits into that ordered
      // pair in 2^(cycles(F)-1) ways, and any factorisation of G − F
      // completes it (its column-0 digits are all larger).
      Adjacency chosen{};
      const std::uint32_t d1 = adj[0] & (0u - adj[0]);
      const std::uint32_t rest0 = adj[0] ^ d1;
      const std::uint32_t d2 = rest0 & (0u - rest0);
      chosen[0] = d1 | d2;
      u128 total = 0;
      two_factor(adj, k, 1, d1 | d2, 0, chosen, total);
      return total;
    }
    Adjacency chosen{};  // chosen[c] = digit bit of the matching in column c
    u128 total = 0;
    const std::uint32_t first = adj[0] & (0u - adj[0]);  // column 0 takes its smallest digit
    chosen[0] = first;
    match(adj, k, 1, first, chosen, total);
    return total;
  }

  /// Enumerates 2-factors column by column: `once`/`twice` = digits used once/twice so far.
  void two_factor(const Adjacency& adj, int k, int col, std::uint32_t once, std::uint32_t twice, Adjacency& chosen,
                  u128& total) const {
    if (col == n) {
      poll.tick();
      Adjacency rest{};
      for (int c = 0; c < n; ++c) {
        const auto i = static_cast<std::size_t>(c);
        rest[i] = adj[i] & ~chosen[i];
      }
      const u128 split = static_cast<u128>(1) << (detail::cycles_of_two_factor(chosen.data(), n) - 1);
      total = checked_add(total, checked_mul(split, count(rest, k - 2)));
      return;
    }
    const auto i = static_cast<std::size_t>(col);
    // The part filter applies at column 1 of the top level only; deeper
    // levels (count on the rest) run with part_ = -1.
    const int only = col == 1 ? part_ : -1;
    if (col == 1) part_ = -1;
    int choice = 0;
    std::uint32_t first_options = adj[i] & ~twice;
    while (first_options) {
      const std::uint32_t a = first_options & (0u - first_options);
      first_options ^= a;
      std::uint32_t second_options = first_options;  // b > a
      while (second_options) {
        const std::uint32_t b = second_options & (0u - second_options);
        second_options ^= b;
        if (only >= 0 && choice++ != only) continue;
        const std::uint32_t ab = a | b;
        chosen[i] = ab;
        two_factor(adj, k, col + 1, once ^ (ab & ~twice), twice | (once & ab), chosen, total);
      }
    }
  }

  void match(const Adjacency& adj, int k, int col, std::uint32_t used, Adjacency& chosen, u128& total) const {
    if (col == n) {
      poll.tick();
      Adjacency rest;
      for (int c = 0; c < n; ++c) {
        const auto i = static_cast<std::size_t>(c);
        rest[i] = adj[i] & ~chosen[i];
      }
      total = checked_add(total, count(rest, k - 1));
      return;
    }
    const auto i = static_cast<std::size_t>(col);
    std::uint32_t options = adj[i] & ~used;
    while (options) {
      const std::uint32_t bit = options & (0u - options);
      options ^= bit;
      chosen[i] = bit;
      match(adj, k, col + 1, used | bit, chosen, total);
    }
  }
};

/// Factoriser's top level, giving parts of its search away while the run
/// wants them (engine::Subtasks): the first 2-factor (k ≥ 4) or matching
/// (k = 3) is enumerated column by column with the untried choices of each
/// column kept, and when a part is wanted (checked at each complete first
/// level) those of the shallowest open column go to a part that walks them
/// the same way. `sum` adds up the unordered factorisations met, so the
/// parts' sums add up to Factoriser::count's.
struct SplitFactoriser {
  /// The untried choices of one column: a 2-factor's digit pairs (a, b) for
  /// b in `second`, then every pair of `first`; a matching's digits `first`.
  struct Choices {
    std::uint32_t first = 0;
    std::uint32_t a = 0;
    std::uint32_t second = 0;
    [[nodiscard]] bool empty() const { return first == 0 && second == 0; }
  };

  const Factoriser& f;
  const Adjacency& adj;
  int k;
  engine::Subtasks& parts;
  int start;         ///< the first column this walk fills
  Adjacency chosen;  ///< the first level's digits, by column
  u128 sum = 0;      ///< unordered factorisations met
  std::array<Choices*, kMaxVertices> open{};
  std::array<std::uint32_t, kMaxVertices> once_at{}, twice_at{};  ///< walk state at each column

  /// Walks column `col`'s choices `c` (digits used once / twice before it).
  void walk(int col, std::uint32_t once, std::uint32_t twice, Choices c) {
    const auto i = static_cast<std::size_t>(col);
    open[i] = &c;
    once_at[i] = once;
    twice_at[i] = twice;
    if (k == 3) {
      while (c.first) {
        const std::uint32_t bit = c.first & (0u - c.first);
        c.first ^= bit;
        chosen[i] = bit;
        next(col, once | bit, 0);
      }
    } else {
      for (;;) {
        while (c.second) {
          const std::uint32_t b = c.second & (0u - c.second);
          c.second ^= b;
          const std::uint32_t ab = c.a | b;
          chosen[i] = ab;
          next(col, once ^ (ab & ~twice), twice | (once & ab));
        }
        if (c.first == 0) break;
        c.a = c.first & (0u - c.first);
        c.first ^= c.a;
        c.second = c.first;
      }
    }
    open[i] = nullptr;
  }

  /// After column col's choice: the next column, or the count of the rest.
  void next(int col, std::uint32_t once, std::uint32_t twice) {
    if (col + 1 < f.n) return walk(col + 1, once, twice, choices(col + 1, once, twice));
    if (parts.wanted()) offer();
    f.poll.tick();
    Adjacency rest{};
    for (int c = 0; c < f.n; ++c) {
      const auto i = static_cast<std::size_t>(c);
      rest[i] = adj[i] & ~chosen[i];
    }
    if (k == 3) {
      sum = checked_add(sum, f.count(rest, 2));
      return;
    }
    const u128 split = static_cast<u128>(1) << (detail::cycles_of_two_factor(chosen.data(), f.n) - 1);
    sum = checked_add(sum, checked_mul(split, f.count(rest, k - 2)));
  }

  /// Every choice of column col, as Factoriser enumerates them.
  [[nodiscard]] Choices choices(int col, std::uint32_t once, std::uint32_t twice) const {
    const std::uint32_t options = adj[static_cast<std::size_t>(col)] & ~(k == 3 ? once : twice);
    if (k == 3) return {options, 0, 0};
    Choices c;
    if (options == 0) return c;
    c.a = options & (0u - options);
    c.first = options ^ c.a;
    c.second = c.first;
    return c;
  }

  /// Gives away the untried choices of the shallowest column with any.
  void offer() {
    for (int at = start; at < f.n; ++at) {
      const auto a = static_cast<std::size_t>(at);
      if (open[a] == nullptr || open[a]->empty()) continue;
      const Choices c = std::exchange(*open[a], Choices{});
      parts.give(engine::counting_part(0, [n = f.n, adj = adj, k = k, chosen = chosen, at, once = once_at[a],
                                           twice = twice_at[a], c](engine::Subtasks& more) {
        const Factoriser counter{n};
        SplitFactoriser w{counter, adj, k, more, at, chosen};
        w.walk(at, once, twice, c);
        return w.sum;
      }));
      return;
    }
  }
};

/// Factoriser::count(adj, k) of the top call, through SplitFactoriser while
/// the run may split (f.part_ applies at column 1, as in Factoriser).
u128 count_splitting(const Factoriser& f, const Adjacency& adj, int k) {
  engine::Subtasks parts;
  if (!parts.enabled() || k < 3) return f.count(adj, k);
  SplitFactoriser w{f, adj, k, parts, 1, {}};
  const std::uint32_t d1 = adj[0] & (0u - adj[0]);
  const std::uint32_t rest0 = adj[0] ^ d1;
  w.chosen[0] = k == 3 ? d1 : d1 | (rest0 & (0u - rest0));
  const std::uint32_t once = w.chosen[0];
  SplitFactoriser::Choices c = w.choices(1, once, 0);
  if (k >= 4 && f.part_ >= 0) {  // only the part_-th pair of column 1
    SplitFactoriser::Choices only;
    for (int choice = 0; !c.empty();) {
      if (c.second == 0) {
        c.a = c.first & (0u - c.first);
        c.first ^= c.a;
        c.second = c.first;
        continue;
      }
      const std::uint32_t b = c.second & (0u - c.second);
      c.second ^= b;
      if (choice++ == f.part_) {
        only = {0, c.a, b};
        break;
      }
    }
    c = only;
  }
  f.part_ = -1;  // the counts below the first level take every choice
  w.walk(1, once, 0, c);
  engine::Tally sum(1);
  sum.add(0, w.sum);
  parts.join(sum);
  return sum.get(0);
}

}  // namespace

namespace {

/// Checks the graph (as documented in bands.hpp) and copies it.
Adjacency checked_graph(std::span<const std::uint32_t> adjacency, int k) {
  const auto n = static_cast<int>(adjacency.size());
  if (n < 1 || n > kMaxVertices) throw std::invalid_argument("1-factorisation needs 1..32 columns");
  if (k < 1 || k > n) throw std::invalid_argument("1-factorisation degree k must be 1..n");
  Adjacency adj{};
  std::array<int, kMaxVertices> digit_degree{};
  const std::uint32_t all = n == 32 ? ~0u : (1u << n) - 1u;
  for (int c = 0; c < n; ++c) {
    const std::uint32_t m = adjacency[static_cast<std::size_t>(c)];
    if ((m & ~all) || __builtin_popcount(m) != k)
      throw std::invalid_argument("column " + std::to_string(c) + " does not have exactly k digits");
    adj[static_cast<std::size_t>(c)] = m;
    for (int d = 0; d < n; ++d)
      if (m & (1u << d)) ++digit_degree[static_cast<std::size_t>(d)];
  }
  for (int d = 0; d < n; ++d)
    if (digit_degree[static_cast<std::size_t>(d)] != k)
      throw std::invalid_argument("digit " + std::to_string(d) + " does not have degree k");
  return adj;
}

u128 times_k_factorial(u128 v, int k) {
  for (int i = 2; i <= k; ++i) v = checked_mul(v, static_cast<u128>(i));
  return v;
}

}  // namespace

u128 ordered_one_factorisations(std::span<const std::uint32_t> adjacency, int k) {
  const Adjacency adj = checked_graph(adjacency, k);
  return times_k_factorial(Factoriser{static_cast<int>(adjacency.size())}.count(adj, k), k);
}

int one_factorisation_parts(int n, int k) { return k >= 4 && n >= 2 ? k * (k - 1) / 2 : 1; }

u128 ordered_one_factorisations_part(std::span<const std::uint32_t> adjacency, int k, int part) {
  const Adjacency adj = checked_graph(adjacency, k);
  const auto n = static_cast<int>(adjacency.size());
  const int parts = one_factorisation_parts(n, k);
  if (part < 0 || part >= parts)
    throw std::invalid_argument("part must be 0.." + std::to_string(parts - 1) + ", got " + std::to_string(part));
  Factoriser f{n};
  if (parts > 1) f.part_ = part;
  return times_k_factorial(f.count(adj, k), k);
}

u128 ordered_one_factorisations_splitting(std::span<const std::uint32_t> adjacency, int k, int part) {
  const Adjacency adj = checked_graph(adjacency, k);
  const auto n = static_cast<int>(adjacency.size());
  Factoriser f{n};
  if (part >= 0) {
    const int parts = one_factorisation_parts(n, k);
    if (part >= parts)
      throw std::invalid_argument("part must be 0.." + std::to_string(parts - 1) + ", got " + std::to_string(part));
    if (parts > 1) f.part_ = part;
  }
  return times_k_factorial(count_splitting(f, adj, k), k);
}

}  // namespace pcount::sudoku
