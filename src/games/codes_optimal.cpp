// Exact minimum expected length of a code-breaking strategy: branch and
// bound over the strategy tree (docs/games.md; Koyama & Lai 1993 and
// Tanaka 1996 give the optima it must reproduce, see docs/sources.md).
#include <algorithm>
#include <map>
#include <memory>
#include <string>

#include "pcount/engine/errors.hpp"
#include "pcount/engine/task.hpp"
#include "pcount/games/codes.hpp"
#include "games/codes_optimal.hpp"

namespace pcount::games::codes {

namespace {

/// Lower bound on the total guesses for n secrets: one guess solves at most
/// one secret and has at most kAnswers - 2 = 23 unsolved answer classes, of
/// which at most 13 can occur for 4-peg games (14 answers including
/// "solved"), so depth d holds at most 13^(d-1) guesses.
std::vector<std::uint64_t> depth_bounds(std::size_t max_n) {
  std::vector<std::uint64_t> lb(max_n + 1, 0);
  std::uint64_t placed = 0, sum = 0, width = 1, depth = 1;
  std::uint64_t left = width;
  for (std::size_t n = 1; n <= max_n; ++n) {
    if (left == 0) {
      ++depth;
      width *= 13;
      left = width;
    }
    --left;
    ++placed;
    sum += depth;
    lb[n] = sum;
  }
  return lb;
}

/// Digits outside the game's alphabet (never "new"): 0 and 7–9 for Mastermind.
unsigned outside_alphabet_mask(Game game) { return game == Game::mastermind ? (1u | (7u << 7)) : 0u; }

/// A symmetry of the history: positions permuted by sigma together with
/// digits relabelled by pi (pi[d] = -1 for digits no guess used yet; those
/// are interchangeable anyway).
struct Sym {
  std::array<int, 4> sigma;
  std::array<int, 10> pi;
};
using Group = std::vector<Sym>;

/// The elements of `group` that also fix `guess` (extending pi to the new
/// digits of the guess where possible).
Group fixing(const Group& group, const std::array<int, 4>& guess, unsigned used) {
  Group out;
  for (const Sym& e : group) {
    Sym x = e;
    bool ok = true;
    for (std::size_t i = 0; i < 4 && ok; ++i) {
      const int d = guess[i], img = guess[static_cast<std::size_t>(e.sigma[i])];
      const bool d_new = !(used >> d & 1u), img_new = !(used >> img & 1u);
      if (d_new != img_new) ok = false;
      else if (x.pi[static_cast<std::size_t>(d)] >= 0) ok = x.pi[static_cast<std::size_t>(d)] == img;
      else x.pi[static_cast<std::size_t>(d)] = img;
    }
    if (!ok) continue;
    std::array<int, 10> hit{};  // pi must stay injective
    for (int v : x.pi)
      if (v >= 0 && hit[static_cast<std::size_t>(v)]++) ok = false;
    if (ok) out.push_back(x);
  }
  return out;
}

/// A code as a number after renaming its unused digits to the smallest
/// unused ones in order of appearance (the canonical representative under
/// relabelling unused digits).
int fresh_key(const std::array<int, 4>& d, unsigned used) {
  std::array<int, 10> rename;
  rename.fill(-1);
  unsigned taken = used;
  int k = 0;
  for (int x : d) {
    int y = x;
    if (!(used >> x & 1u)) {
      if (rename[static_cast<std::size_t>(x)] < 0) {
        rename[static_cast<std::size_t>(x)] = __builtin_ctz(~taken);
        taken |= 1u << rename[static_cast<std::size_t>(x)];
      }
      y = rename[static_cast<std::size_t>(x)];
    }
    k = 10 * k + y;
  }
  return k;
}

/// True when no element of the group maps `d` to a smaller code (after
/// renaming unused digits); `d` itself must already be fresh-canonical.
bool orbit_least(const std::array<int, 4>& d, const Group& group, unsigned used) {
  const int own = 1000 * d[0] + 100 * d[1] + 10 * d[2] + d[3];
  for (const Sym& e : group) {
    std::array<int, 4> img{};
    for (std::size_t i = 0; i < 4; ++i) {
      const int p = e.pi[static_cast<std::size_t>(d[i])];
      img[static_cast<std::size_t>(e.sigma[i])] = (used >> d[i] & 1u) && p >= 0 ? p : d[i];
    }
    if (fresh_key(img, used) < own) return false;
  }
  return true;
}

struct Candidate {
  std::size_t guess;
  std::uint64_t bound;
  bool consistent;
};

class Solver {
public:
  explicit Solver(const CodeSet& codes, std::uint64_t node_limit = ~std::uint64_t{0})
      : codes_(codes), limit_(node_limit), lb_(depth_bounds(codes.size())) {
    const std::size_t n = codes.size();
    digits_.resize(n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t p = 0; p < 4; ++p) digits_[i][p] = codes.name(i)[p] - '0';
  }

  [[nodiscard]] std::uint64_t nodes() const { return nodes_; }
  [[nodiscard]] bool aborted() const { return aborted_; }
  [[nodiscard]] std::uint64_t lb(std::size_t n) const { return lb_[n]; }

  /// An optimal guess for `set` (solving it first if needed).
  std::size_t best_guess(const std::vector<std::uint16_t>& set, unsigned used) {
    if (set.size() <= 2) return set.front();
    auto it = memo_.find(set);
    if (it == memo_.end() || !it->second.exact) {
      solve(set, used, kInfinity);
      it = memo_.find(set);
    }
    if (it == memo_.end() || !it->second.exact) throw InternalError("optimal strategy: no exact value for a set");
    return it->second.guess;
  }

  /// Plays the optimal strategy for every secret of `set`: adds the number
  /// of secrets solved with k guesses to solved[k] (`made` guesses already).
  void play_all(const std::vector<std::uint16_t>& set, unsigned used, int made, std::vector<std::uint64_t>& solved) {
    const std::size_t g = best_guess(set, used);
    if (static_cast<std::size_t>(made + 2) > solved.size()) solved.resize(static_cast<std::size_t>(made + 2));
    std::array<std::vector<std::uint16_t>, kAnswers> classes;
    for (std::uint16_t s : set) {
      const auto a = codes_.answer(g, s);
      if (a == kSolved) ++solved[static_cast<std::size_t>(made + 1)];
      else classes[a].push_back(s);
    }
    unsigned next_used = used;
    for (int d : digits_[g]) next_used |= 1u << d;
    for (const auto& c : classes)
      if (!c.empty()) play_all(c, next_used, made + 1, solved);
  }

  static constexpr std::uint64_t kInfinity = ~std::uint64_t{0} >> 1;

  /// f(S) if it is < beta; otherwise some proven lower bound ≥ beta.
  /// `allowed` (top call only): further restricts the candidate guesses to
  /// one per orbit of a symmetry group of `set` (see root_candidates).
  /// `group`: symmetries of the history (nullptr or one element: none but
  /// the relabelling of unused digits); one guess per orbit is tried.
  std::uint64_t solve(const std::vector<std::uint16_t>& set, unsigned used, std::uint64_t beta,
                      const std::vector<char>* allowed = nullptr, const Group* group = nullptr) {
    const std::size_t n = set.size();
    if (n == 1) return 1;
    if (n == 2) return 3;
    if (aborted_) return beta;
    poll_.tick();
    auto memo = memo_.find(set);
    if (memo != memo_.end()) {
      if (memo->second.exact || memo->second.value >= beta) return memo->second.value;
    }
    std::uint64_t known_lb = std::max<std::uint64_t>(lb_[n], memo != memo_.end() ? memo->second.value : 0);
    if (known_lb >= beta) return known_lb;

    // A consistent guess that splits the rest into singletons reaches the
    // bound 2n - 1 (optimal for n ≤ 14).
    if (n <= 14) {
      for (std::uint16_t g : set) {
        if (++nodes_ > limit_) return abort(beta);
        unsigned seen = 0;
        bool singletons = true;
        for (std::uint16_t s : set) {
          const unsigned a = 1u << codes_.answer(g, s);
          if (seen & a) {
            singletons = false;
            break;
          }
          seen |= a;
        }
        if (singletons) return store(set, 2 * n - 1, true, g);
      }
    }

    // Candidate guesses, one per class of codes equivalent under the
    // permutations of the digits no earlier guess used.
    std::vector<Candidate> cands;
    for (std::size_t g = 0; g < codes_.size(); ++g) {
      if (!canonical(g, used) || (allowed && !(*allowed)[g])) continue;
      if (group && group->size() > 1 && !orbit_least(digits_[g], *group, used)) continue;
      if (++nodes_ > limit_) return abort(beta);
      std::array<std::uint16_t, kAnswers> count{};
      for (std::uint16_t s : set) ++count[codes_.answer(g, s)];
      const bool consistent = count[kSolved] > 0;
      if (!consistent && *std::max_element(count.begin(), count.end()) == n) continue;  // no information
      std::uint64_t bound = n;
      for (std::size_t a = 0; a < static_cast<std::size_t>(kAnswers); ++a)
        if (a != kSolved) bound += lb_[count[a]];
      cands.push_back({g, bound, consistent});
    }
    std::stable_sort(cands.begin(), cands.end(), [](const Candidate& x, const Candidate& y) {
      return x.bound != y.bound ? x.bound < y.bound : x.consistent > y.consistent;
    });

    std::uint64_t best = beta;  // best exact value found below beta
    std::size_t best_guess = 0;
    bool found = false;
    std::uint64_t min_bound = cands.empty() ? beta : cands.front().bound;
    for (const Candidate& c : cands) {
      if (c.bound >= best) break;
      std::uint64_t v = 0;
      if (!evaluate(set, used, c, best, v, group)) continue;
      if (v < best) {
        best = v;
        best_guess = c.guess;
        found = true;
      }
      if (best == c.bound) break;  // met its own lower bound: cannot do better with later ones
    }
    if (aborted_) return beta;
    if (found) {
      // Every other candidate was shown to be ≥ best or cut at ≥ best.
      return store(set, best, true, best_guess);
    }
    // No candidate below beta: beta is a lower bound (and so is min_bound).
    return store(set, std::max(beta, std::max(min_bound, known_lb)), false);
  }

private:
  struct Entry {
    std::uint64_t value;
    bool exact;
    std::size_t guess = 0;  ///< an optimal first guess, when exact
  };

  std::uint64_t abort(std::uint64_t beta) {
    aborted_ = true;
    return beta;
  }

  std::uint64_t store(const std::vector<std::uint16_t>& set, std::uint64_t value, bool exact, std::size_t guess = 0) {
    if (!aborted_ && (memo_.size() < kMemoLimit || exact)) {
      auto [it, fresh] = memo_.try_emplace(set, Entry{value, exact, guess});
      if (!fresh && !it->second.exact) it->second = Entry{std::max(value, it->second.value), exact, guess};
    }
    return value;
  }
  static constexpr std::size_t kMemoLimit = 4'000'000;

  /// Total for guess c (n for this guess plus the classes' optimal totals)
  /// if it is < best; false when cut.
  bool evaluate(const std::vector<std::uint16_t>& set, unsigned used, const Candidate& c, std::uint64_t best,
                std::uint64_t& out, const Group* group) {
    Group child_group;
    if (group && group->size() > 1) child_group = fixing(*group, digits_[c.guess], used);
    std::array<std::vector<std::uint16_t>, kAnswers> classes;
    for (std::uint16_t s : set) {
      const auto a = codes_.answer(c.guess, s);
      if (a != kSolved) classes[a].push_back(s);
    }
    unsigned next_used = used;
    for (int d : digits_[c.guess]) next_used |= 1u << d;
    // Larger classes first: they decide the cut soonest.
    std::array<std::size_t, kAnswers> order{};
    for (std::size_t a = 0; a < order.size(); ++a) order[a] = a;
    std::sort(order.begin(), order.end(),
              [&](std::size_t x, std::size_t y) { return classes[x].size() > classes[y].size(); });
    std::uint64_t total = c.bound;  // n + Σ lb(class); replace each lb by the exact value
    for (std::size_t a : order) {
      const std::size_t k = classes[a].size();
      if (k == 0) break;
      const std::uint64_t rest = total - lb_[k];
      const std::uint64_t v =
          solve(classes[a], next_used, best - rest, nullptr, child_group.size() > 1 ? &child_group : nullptr);
      total = rest + v;
      if (total >= best || aborted_) return false;
    }
    out = total;
    return true;
  }

  /// Digits never used before are interchangeable: keep the guess only if
  /// its new digits, left to right, are the smallest unused ones in order.
  [[nodiscard]] bool canonical(std::size_t g, unsigned used) const {
    unsigned taken = used;
    for (int d : digits_[g]) {
      if (used >> d & 1u) continue;
      if (taken >> d & 1u) continue;  // a repeated new colour (Mastermind)
      const int smallest = __builtin_ctz(~taken);
      if (d != smallest) return false;
      taken |= 1u << d;
    }
    return true;
  }

  const CodeSet& codes_;
  std::uint64_t limit_;
  std::uint64_t nodes_ = 0;
  bool aborted_ = false;
  /// Stop check (engine::throw_if_stopped) every 256 searched sets: each
  /// does a memo lookup on the set and scores candidate guesses, so the
  /// tick is negligible and 256 of them stay far under a second.
  engine::StopPoll<256> poll_{};
  std::vector<std::uint64_t> lb_;
  std::vector<std::array<int, 4>> digits_;
  std::map<std::vector<std::uint16_t>, Entry> memo_;
};

/// Candidate guesses for the answer classes of a first guess g1: one per
/// orbit of the group of (position permutation σ, digit relabelling π) that
/// fixes g1 (g1[σ(i)] = π(g1[i])), combined with any relabelling of the
/// digits g1 does not use. Every answer class of g1 is invariant under that
/// group, so one guess per orbit suffices at the class's root. (For bulls
/// and cows after 0123 the group is S4 × S6: 5040 guesses become 20.)
std::vector<char> root_candidates(const CodeSet& codes, std::size_t first, unsigned used) {
  auto digits_of = [&](std::size_t c) {
    std::array<int, 4> d{};
    for (std::size_t p = 0; p < 4; ++p) d[p] = codes.name(c)[p] - '0';
    return d;
  };
  const auto g1 = digits_of(first);
  std::vector<std::array<int, 10>> group;  // π for each valid σ, paired below
  std::vector<std::array<int, 4>> sigmas;
  std::array<int, 4> sigma{0, 1, 2, 3};
  do {
    std::array<int, 10> pi;
    pi.fill(-1);
    bool ok = true;
    for (std::size_t i = 0; i < 4 && ok; ++i) {
      const int d = g1[i], e = g1[static_cast<std::size_t>(sigma[i])];
      if (pi[static_cast<std::size_t>(d)] >= 0 && pi[static_cast<std::size_t>(d)] != e) ok = false;
      pi[static_cast<std::size_t>(d)] = e;
    }
    std::array<int, 10> hit{};
    for (int d = 0; d < 10 && ok; ++d)
      if (pi[static_cast<std::size_t>(d)] >= 0 && hit[static_cast<std::size_t>(pi[static_cast<std::size_t>(d)])]++) ok = false;
    if (!ok) continue;
    for (int d = 0; d < 10; ++d)
      if (pi[static_cast<std::size_t>(d)] < 0) pi[static_cast<std::size_t>(d)] = d;  // fresh digits: relabelled below
    group.push_back(pi);
    sigmas.push_back(sigma);
  } while (std::next_permutation(sigma.begin(), sigma.end()));
  // Image of a code, with new digits renamed to the smallest unused ones in
  // order of appearance, as a number (smaller = preferred).
  auto key = [used](const std::array<int, 4>& d) { return fresh_key(d, used); };
  std::vector<char> allowed(codes.size(), 0);
  for (std::size_t c = 0; c < codes.size(); ++c) {
    const auto d = digits_of(c);
    const int own = 1000 * d[0] + 100 * d[1] + 10 * d[2] + d[3];
    if (key(d) != own) continue;  // new digits not in canonical order
    bool minimal = true;
    for (std::size_t t = 0; t < group.size() && minimal; ++t) {
      std::array<int, 4> img{};
      for (std::size_t i = 0; i < 4; ++i)
        img[static_cast<std::size_t>(sigmas[t][i])] = group[t][static_cast<std::size_t>(d[i])];
      if (key(img) < own) minimal = false;
    }
    allowed[c] = minimal;
  }
  return allowed;
}

/// The symmetries fixing the single guess `first` (pi defined on its digits).
Group first_guess_group(const CodeSet& codes, std::size_t first) {
  Sym id{};
  id.sigma = {0, 1, 2, 3};
  id.pi.fill(-1);
  Group all;
  std::array<int, 4> sigma{0, 1, 2, 3};
  do {
    Sym e = id;
    e.sigma = sigma;
    all.push_back(e);
  } while (std::next_permutation(sigma.begin(), sigma.end()));
  std::array<int, 4> d{};
  for (std::size_t p = 0; p < 4; ++p) d[p] = codes.name(first)[p] - '0';
  return fixing(all, d, outside_alphabet_mask(codes.game()));
}

/// Digits that can never be "new": outside the game's alphabet.
unsigned outside_alphabet(Game game) { return game == Game::mastermind ? (1u | (7u << 7)) : 0u; }

/// The codes of `codes` in increasing order (the order the solver expects).
std::vector<std::uint16_t> sorted(std::span<const std::uint16_t> codes) {
  std::vector<std::uint16_t> set(codes.begin(), codes.end());
  std::sort(set.begin(), set.end());
  return set;
}

/// The outcome of one solve: the exact total when the node limit was not
/// hit, else the best proven lower bound.
OptimalSearch result_of(const Solver& solver, const std::vector<std::uint16_t>& set, std::uint64_t value) {
  OptimalSearch r;
  r.nodes = solver.nodes();
  r.lower_bound = solver.lb(set.size());
  if (!solver.aborted()) {
    r.total = value;
    r.lower_bound = value;
  }
  return r;
}

}  // namespace

OptimalSearch optimal_total(const CodeSet& codes, std::span<const std::uint16_t> consistent, unsigned used_digits,
                            std::uint64_t node_limit) {
  if (consistent.empty()) throw InvalidArgument("consistent set", "must not be empty");
  used_digits |= outside_alphabet(codes.game());
  Solver solver(codes, node_limit);
  const std::vector<std::uint16_t> set = sorted(consistent);
  return result_of(solver, set, solver.solve(set, used_digits, Solver::kInfinity));
}

std::size_t optimal_guess(const CodeSet& codes, std::span<const std::uint16_t> consistent) {
  if (consistent.empty()) throw InvalidArgument("consistent set", "must not be empty");
  Solver solver(codes);
  const std::vector<std::uint16_t> set = sorted(consistent);
  return solver.best_guess(set, 0x3FFu);  // every digit counts as used: no symmetry assumed
}

OptimalSearch optimal_class_total(const CodeSet& codes, std::size_t first, std::span<const std::uint16_t> cls,
                                  std::uint64_t node_limit) {
  unsigned used = outside_alphabet(codes.game());
  for (char c : codes.name(first)) used |= 1u << (c - '0');
  const std::vector<char> allowed = root_candidates(codes, first, used);
  Solver solver(codes, node_limit);
  const std::vector<std::uint16_t> set = sorted(cls);
  const Group group = first_guess_group(codes, first);
  return result_of(solver, set, solver.solve(set, used, Solver::kInfinity, &allowed, &group));
}

std::size_t count_root_candidates(const CodeSet& codes, std::size_t first) {
  unsigned used = outside_alphabet(codes.game());
  for (char c : codes.name(first)) used |= 1u << (c - '0');
  const auto allowed = root_candidates(codes, first, used);
  return static_cast<std::size_t>(std::count(allowed.begin(), allowed.end(), 1));
}

std::string optimal_first_guess(Game game) { return game == Game::mastermind ? "1123" : "0123"; }

engine::Job make_optimal_job(Game game) {
  const CodeSet& codes = code_set(game);
  const std::size_t first = *codes.find(optimal_first_guess(game));
  unsigned used = outside_alphabet(game);
  for (char c : codes.name(first)) used |= 1u << (c - '0');
  // One task per answer class of the first guess.
  auto classes = std::make_shared<std::vector<std::vector<std::uint16_t>>>();
  std::array<std::vector<std::uint16_t>, kAnswers> by_answer;
  for (std::size_t s = 0; s < codes.size(); ++s) by_answer[codes.answer(first, s)].push_back(static_cast<std::uint16_t>(s));
  for (std::size_t a = 0; a < by_answer.size(); ++a)
    if (a != kSolved && !by_answer[a].empty()) classes->push_back(by_answer[a]);
  engine::Job job;
  job.fingerprint = std::string(game == Game::mastermind ? "mastermind" : "bulls-and-cows") +
                    " strategy=optimal first=" + codes.name(first);
  job.counter_names = strategy_counter_names();
  job.task_count = classes->size();
  job.split_depth = 1;
  job.estimate = [classes](std::size_t id) { return static_cast<double>((*classes)[id].size()); };
  auto allowed = std::make_shared<const std::vector<char>>(root_candidates(codes, first, used));
  auto group = std::make_shared<const Group>(first_guess_group(codes, first));
  job.run_task = [classes, game, used, allowed, group](std::size_t id, engine::Tally& out) {
    const CodeSet& cs = code_set(game);
    Solver solver(cs);
    std::vector<std::uint64_t> solved;  // solved[k]: secrets solved with k guesses in all
    const auto& set = (*classes)[id];
    const std::uint64_t total = solver.solve(set, used, Solver::kInfinity, allowed.get(), group.get());
    solver.play_all(set, used, 1, solved);
    // The class's minimum counts the guesses after the first one.
    std::uint64_t after_first = 0, members = 0;
    for (std::size_t k = 1; k < solved.size(); ++k) {
      after_first += solved[k] * (k - 1);
      members += solved[k];
    }
    if (after_first != total || members != set.size())
      throw InternalError("optimal strategy: the played strategy does not reach the computed minimum");
    if (id == 0) ++solved[1];  // the secret equal to the first guess
    add_solved(solved, out);
  };
  return job;
}

}  // namespace pcount::games::codes
