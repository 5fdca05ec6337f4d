// Exact minimum total (= expected) length of a code-breaking strategy:
// branch and bound over the strategy tree (docs/games.md, "How the optimum
// is proved"; Koyama & Lai 1993 and Tanaka 1996 give the optima it must
// reproduce, see docs/sources.md).
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "pcount/errors.hpp"
#include "pcount/engine/task.hpp"
#include "pcount/games/codes.hpp"
#include "games/codes_optimal.hpp"

namespace pcount::games::codes {

namespace {

/// Unsolved answers one guess can give: pairs (bulls, cows) with
/// bulls + cows ≤ positions, less (positions-1, 1) (impossible) and the
/// solved answer: 13 for 4 positions.
int branching(const CodeSet& codes) {
  const int p = codes.positions();
  return std::max(1, (p + 1) * (p + 2) / 2 - 2);
}

/// Lower bound on the total guesses for n secrets, whatever they are: one
/// guess solves at most one secret and leaves at most b unsolved answer
/// classes (b = branching), so depth d holds at most b^(d-1) secrets.
std::vector<std::uint64_t> size_bounds(std::size_t max_n, std::uint64_t b) {
  std::vector<std::uint64_t> lb(max_n + 1, 0);
  std::uint64_t sum = 0, width = 1, depth = 1;
  std::uint64_t left = width;
  for (std::size_t n = 1; n <= max_n; ++n) {
    if (left == 0) {
      ++depth;
      width *= b;
      left = width;
    }
    --left;
    sum += depth;
    lb[n] = sum;
  }
  return lb;
}

using Code = std::array<int, 4>;

/// A symmetry of the history: positions permuted by sigma together with
/// digits relabelled by pi (pi[d] = -1 for digits no guess used yet; those
/// are interchangeable anyway).
struct Sym {
  std::array<int, 4> sigma;
  std::array<int, 10> pi;
};
using Group = std::vector<Sym>;

/// The elements of `group` that also fix `guess` (its first p digits),
/// extending pi to the guess's new digits where possible.
Group fixing(const Group& group, const Code& guess, int p, unsigned used) {
  Group out;
  for (const Sym& e : group) {
    Sym x = e;
    bool ok = true;
    for (std::size_t i = 0; i < static_cast<std::size_t>(p) && ok; ++i) {
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

/// Digits interchangeable in a set of codes: cls[d] = the smallest digit e
/// such that swapping d and e everywhere maps the set onto itself (d itself
/// when there is none). Swapping is transitive, so these are classes.
using DigitClasses = std::array<int, 10>;

/// A code as a number after renaming, left to right, each digit to the
/// smallest digit of its class not yet taken: the least code the digit-class
/// permutations reach. Equal to the code's own number exactly when it is
/// the least of its orbit.
int class_key(const Code& d, int p, const DigitClasses& cls) {
  std::array<int, 10> rename;
  rename.fill(-1);
  unsigned taken = 0;
  int k = 0;
  for (std::size_t i = 0; i < static_cast<std::size_t>(p); ++i) {
    const int x = d[i];
    int& r = rename[static_cast<std::size_t>(x)];
    if (r < 0) {
      int y = cls[static_cast<std::size_t>(x)];
      while (taken >> y & 1u || cls[static_cast<std::size_t>(y)] != cls[static_cast<std::size_t>(x)]) ++y;
      r = y;
      taken |= 1u << y;
    }
    k = 10 * k + r;
  }
  return k;
}

int number(const Code& d, int p) {
  int k = 0;
  for (std::size_t i = 0; i < static_cast<std::size_t>(p); ++i) k = 10 * k + d[i];
  return k;
}

struct Candidate {
  std::size_t guess;
  std::uint64_t bound;
  bool consistent;
};

struct VecHash {
  std::size_t operator()(const std::vector<std::uint16_t>& v) const noexcept {
    std::uint64_t h = 0x9E3779B97F4A7C15ull ^ v.size();
    for (std::uint16_t x : v) h = (h ^ x) * 0x100000001B3ull + (h >> 29);
    return static_cast<std::size_t>(h);
  }
};

}  // namespace

class Solver {
public:
  explicit Solver(const CodeSet& codes, std::uint64_t node_limit = ~std::uint64_t{0})
      : codes_(codes),
        p_(codes.positions()),
        solved_(codes.solved()),
        limit_(node_limit),
        lb_(size_bounds(codes.size(), static_cast<std::uint64_t>(branching(codes)))),
        member_((codes.size() + 63) / 64, 0) {
    // within_[d]: a guess solves at most one secret and leaves at most b
    // unsolved answer classes, so d guesses solve at most 1 + b·within_[d-1].
    within_.assign(kNoCap + 1, codes.size());
    within_[0] = 0;
    for (std::size_t d = 1; d < within_.size() && within_[d - 1] < codes.size(); ++d)
      within_[d] = std::min<std::uint64_t>(codes.size(), 1 + static_cast<std::uint64_t>(branching(codes)) * within_[d - 1]);
    const std::size_t n = codes.size();
    digits_.resize(n);
    index_.assign(10'000, -1);
    for (std::size_t i = 0; i < n; ++i) {
      digits_[i].fill(0);
      for (std::size_t q = 0; q < static_cast<std::size_t>(p_); ++q) digits_[i][q] = codes.name(i)[q] - '0';
      index_[static_cast<std::size_t>(number(digits_[i], p_))] = static_cast<int>(i);
    }
    const int lo = codes.game() == Game::mastermind ? 1 : 0;
    for (int d = lo; d < lo + codes.symbols(); ++d) alphabet_ |= 1u << d;
  }

  [[nodiscard]] std::uint64_t nodes() const { return nodes_; }
  [[nodiscard]] bool aborted() const { return aborted_; }
  [[nodiscard]] std::uint64_t lb(std::size_t n) const { return lb_[n]; }
  [[nodiscard]] const Code& digits(std::size_t c) const { return digits_[c]; }
  [[nodiscard]] std::size_t memo_size() const { return memo_.size(); }

  static constexpr std::uint64_t kInfinity = ~std::uint64_t{0} >> 1;
  /// "No depth cap": the plain minimum total.
  static constexpr int kNoCap = 255;

  /// The most secrets any strategy solves within `cap` guesses (cap ≥ 0).
  [[nodiscard]] std::uint64_t within(int cap) const { return within_[static_cast<std::size_t>(cap)]; }

  /// Depth (most guesses for one secret) of the optimal strategy stored for
  /// `set` by an uncapped solve; kNoCap when none is stored.
  [[nodiscard]] int stored_depth(const std::vector<std::uint16_t>& set) const {
    if (set.size() <= 2) return static_cast<int>(set.size());
    const auto it = memo_.find(set);
    return it != memo_.end() && it->second.exact ? it->second.depth : kNoCap;
  }

  /// Whether every secret of `set` (sorted) can be solved within `cap`
  /// guesses: an AND-OR search over one guess per orbit (as solve), the
  /// guesses whose largest answer class is smallest first, memoised by set
  /// (the least cap known to work, the greatest known not to).
  bool feasible(const std::vector<std::uint16_t>& set, int cap, const Group* group = nullptr, unsigned used = 0) {
    const std::size_t n = set.size();
    if (n > within(cap)) return false;
    if (n <= 2) return true;
    poll_.tick();
    auto& known = reach_[set];
    if (cap >= known.yes) return true;
    if (cap <= known.no) return false;
    if (stored_depth(set) <= cap) return true;
    const DigitClasses cls = digit_classes(set);
    struct Try {
      std::size_t guess;
      std::uint64_t largest;
      int classes;
      bool consistent;
    };
    std::vector<Try> tries;
    for (std::size_t g = 0; g < codes_.size(); ++g) {
      if (!orbit_representative(g, cls, group, used)) continue;
      ++nodes_;
      std::array<std::uint16_t, kAnswers> count{};
      const std::uint8_t* row = codes_.row(g);
      for (std::uint16_t s : set) ++count[row[s]];
      std::uint64_t largest = 0;
      int classes = 0;
      for (std::size_t a = 0; a < static_cast<std::size_t>(kAnswers); ++a)
        if (a != solved_ && count[a] > 0) largest = std::max<std::uint64_t>(largest, count[a]), ++classes;
      if (largest == n || largest > within(cap - 1)) continue;  // learns nothing, or a class too big
      tries.push_back({g, largest, classes, count[solved_] > 0});
    }
    std::stable_sort(tries.begin(), tries.end(), [](const Try& x, const Try& y) {
      if (x.largest != y.largest) return x.largest < y.largest;
      if (x.classes != y.classes) return x.classes > y.classes;
      return x.consistent > y.consistent;
    });
    for (const Try& t : tries) {
      Group child_group;
      if (group && group->size() > 1) child_group = fixing(*group, digits_[t.guess], p_, used);
      unsigned next_used = used;
      for (std::size_t i = 0; i < static_cast<std::size_t>(p_); ++i) next_used |= 1u << digits_[t.guess][i];
      std::array<std::vector<std::uint16_t>, kAnswers> classes;
      const std::uint8_t* row = codes_.row(t.guess);
      for (std::uint16_t s : set)
        if (row[s] != solved_) classes[row[s]].push_back(s);
      std::sort(classes.begin(), classes.end(), [](const auto& x, const auto& y) { return x.size() > y.size(); });
      bool all = true;
      for (const auto& c : classes) {
        if (c.size() <= 1) break;
        if (!feasible(c, cap - 1, child_group.size() > 1 ? &child_group : nullptr, next_used)) {
          all = false;
          break;
        }
      }
      if (all) {
        auto& k = reach_[set];  // (the reference above may have moved)
        k.yes = std::min(k.yes, cap);
        return true;
      }
    }
    auto& k = reach_[set];
    k.no = std::max(k.no, cap);
    return false;
  }

  /// The least number of guesses within which every secret of `set` can be
  /// solved (iterative deepening on feasible).
  int min_depth(const std::vector<std::uint16_t>& set, const Group* group = nullptr, unsigned used = 0) {
    for (int cap = 1; cap < kNoCap; ++cap)
      if (feasible(set, cap, group, used)) return cap;
    throw InternalError("optimal strategy: no strategy within 254 guesses");
  }

  /// Number of guesses solve() tries for `set` before bounds: one per orbit.
  std::size_t count_candidates(const std::vector<std::uint16_t>& set, const Group* group, unsigned used) {
    const DigitClasses cls = digit_classes(set);
    std::size_t k = 0;
    for (std::size_t g = 0; g < codes_.size(); ++g)
      if (orbit_representative(g, cls, group, used)) ++k;
    return k;
  }

  /// The guesses solve() tries at the root of `set` (sorted, ≥ 3 secrets),
  /// in the order it tries them (least one-level bound first, consistent
  /// guesses first on ties, then code order), with their one-level bounds.
  std::vector<Candidate> root_candidates(const std::vector<std::uint16_t>& set, const Group* group, unsigned used) {
    const DigitClasses cls = digit_classes(set);
    std::vector<Candidate> cands;
    for (std::size_t g = 0; g < codes_.size(); ++g) {
      if (!orbit_representative(g, cls, group, used)) continue;
      std::array<std::uint16_t, kAnswers> count{};
      if (const std::optional<Candidate> c = score(set, g, count)) cands.push_back(*c);
    }
    sort_candidates(cands);
    return cands;
  }

  /// The least total of the strategies for `set` (sorted) that start with
  /// guess `c` (a candidate of root_candidates), when it is < beta;
  /// nullopt when it is proved ≥ beta. The classes it leaves are then
  /// solved exactly in the memo (play_optimal and optimal_subtree read
  /// them). `group`, `used`: as solve.
  std::optional<std::uint64_t> guess_total(const std::vector<std::uint16_t>& set, const Candidate& c,
                                           std::uint64_t beta, const Group* group, unsigned used) {
    if (c.bound >= beta) return std::nullopt;
    std::uint64_t v = 0;
    if (!evaluate(set, c, beta, v, group, used, kNoCap)) return std::nullopt;
    return v;
  }

  /// An optimal guess for `set` (sorted; solving it first if needed).
  /// With `cap`: a guess starting a strategy of least total among those
  /// solving every secret within `cap` guesses (which must exist).
  std::size_t best_guess(const std::vector<std::uint16_t>& set, int cap = kNoCap) {
    if (set.size() <= 2) return set.front();
    if (cap < kNoCap) {
      if (stored_depth(set) <= cap) return memo_.find(set)->second.guess;  // the plain optimum fits
      const std::vector<std::uint16_t> key = capped(set, cap);
      auto it = memo_.find(key);
      if (it == memo_.end() || !it->second.exact) {
        solve(set, kInfinity, nullptr, 0, cap);
        if (stored_depth(set) <= cap) return memo_.find(set)->second.guess;
        it = memo_.find(key);
      }
      if (it == memo_.end() || !it->second.exact) throw InternalError("optimal strategy: no exact value for a set");
      return it->second.guess;
    }
    auto it = memo_.find(set);
    if (it == memo_.end() || !it->second.exact) {
      solve(set, kInfinity);
      it = memo_.find(set);
    }
    if (it == memo_.end() || !it->second.exact) throw InternalError("optimal strategy: no exact value for a set");
    return it->second.guess;
  }

  /// f(S) if it is < beta; otherwise some proven lower bound ≥ beta.
  /// `group`: symmetries of the history that fix S (nullptr: none known
  /// beyond the digit classes, which are found from S itself); one guess
  /// per orbit of the group they generate is tried. `used`: digits some
  /// earlier guess used (only to extend `group` to the children).
  /// `cap` < kNoCap: the least total among the strategies that solve every
  /// secret within `cap` guesses (kInfinity when there is none). The plain
  /// optimum is tried first (for cap ≥ kPlainFirst): when its stored
  /// strategy fits within the cap it is the capped optimum too, and it is a
  /// lower bound otherwise.
  std::uint64_t solve(const std::vector<std::uint16_t>& set, std::uint64_t beta, const Group* group = nullptr,
                      unsigned used = 0, int cap = kNoCap) {
    const std::size_t n = set.size();
    if (cap < kNoCap && n > within(cap)) return kInfinity;
    if (n == 1) return 1;
    if (n == 2) return 3;
    if (aborted_) return beta;
    std::uint64_t plain_lb = 0;
    if (cap < kNoCap) {
      if (cap >= kPlainFirst) {
        const std::uint64_t u = solve(set, beta, group, used, kNoCap);
        if (aborted_ || u >= beta) return u;
        if (stored_depth(set) <= cap) return u;
      }
      if (auto plain = memo_.find(set); plain != memo_.end()) plain_lb = plain->second.value;
    }
    std::vector<std::uint16_t> capped_key;
    if (cap < kNoCap) capped_key = capped(set, cap);
    const std::vector<std::uint16_t>& key = cap < kNoCap ? capped_key : set;
    poll_.tick();
    auto memo = memo_.find(key);
    if (memo != memo_.end() && (memo->second.exact || memo->second.value >= beta)) return memo->second.value;
    const std::uint64_t known_lb =
        std::max({lb_[n], plain_lb, memo != memo_.end() ? memo->second.value : std::uint64_t{0}});
    if (known_lb >= beta) return known_lb;

    const DigitClasses cls = digit_classes(set);
    std::vector<Candidate> cands;
    cands.reserve(256);
    for (std::size_t g = 0; g < codes_.size(); ++g) {
      if (!orbit_representative(g, cls, group, used)) continue;
      if (++nodes_ > limit_) return abort(beta);
      std::array<std::uint16_t, kAnswers> count{};
      const std::optional<Candidate> scored = score(set, g, count);
      if (!scored) continue;  // every secret gives the same answer
      if (cap < kNoCap) {
        bool fits = true;
        for (std::size_t a = 0; a < static_cast<std::size_t>(kAnswers) && fits; ++a)
          if (a != solved_ && count[a] > within(cap - 1)) fits = false;
        if (!fits) continue;  // some class cannot be solved within the cap
      }
      cands.push_back(*scored);
    }
    sort_candidates(cands);
    const std::uint64_t min_bound =
        std::max(known_lb, cands.empty() ? (cap < kNoCap ? kInfinity : beta) : cands.front().bound);
    if (min_bound >= beta) return store(key, min_bound, false);

    std::uint64_t best = beta;  // best exact value found below beta
    std::size_t best_guess = 0;
    bool found = false;
    for (const Candidate& c : cands) {
      if (c.bound >= best) break;
      std::uint64_t v = 0;
      if (!evaluate(set, c, best, v, group, used, cap)) {
        if (aborted_) return beta;
        continue;
      }
      best = v;
      best_guess = c.guess;
      found = true;
    }
    if (aborted_) return beta;
    if (found) return store(key, best, true, best_guess, cap < kNoCap ? cap : depth_of(set, best_guess));
    return store(key, std::max(beta, min_bound), false);  // every candidate is ≥ beta
  }

  /// The least total over all guesses of n + Σ size bound of the classes:
  /// a lower bound on f(S) one level deep (a memoised value when better).
  std::uint64_t one_level_bound(const std::vector<std::uint16_t>& set) {
    const std::size_t n = set.size();
    if (n <= 2) return n == 1 ? 1 : 3;
    auto memo = memo_.find(set);
    if (memo != memo_.end() && memo->second.exact) return memo->second.value;
    const std::uint64_t floor = std::max<std::uint64_t>(lb_[n], memo != memo_.end() ? memo->second.value : 0);
    std::uint64_t best = kInfinity;
    for (std::size_t g = 0; g < codes_.size() && best > floor; ++g) {
      ++nodes_;
      std::array<std::uint16_t, kAnswers> count{};
      const std::uint8_t* row = codes_.row(g);
      for (std::uint16_t s : set) ++count[row[s]];
      std::uint64_t bound = n;
      bool informative = count[solved_] > 0;
      for (std::size_t a = 0; a < static_cast<std::size_t>(kAnswers); ++a) {
        if (a == solved_ || count[a] == 0) continue;
        bound += lb_[count[a]];
        if (count[a] < n) informative = true;
      }
      if (informative) best = std::min(best, bound);
    }
    best = std::max(best, floor);
    store(set, best, false);
    return best;
  }

private:
  /// Scores guess g on `set`: count[a] = secrets giving answer a; the
  /// candidate with its one-level bound n + Σ size bound of the classes;
  /// nullopt when every secret gives the same unsolved answer.
  std::optional<Candidate> score(const std::vector<std::uint16_t>& set, std::size_t g,
                                 std::array<std::uint16_t, kAnswers>& count) const {
    const std::size_t n = set.size();
    const std::uint8_t* row = codes_.row(g);
    for (std::uint16_t s : set) ++count[row[s]];
    const bool consistent = count[solved_] > 0;
    std::uint64_t bound = n;
    bool informative = consistent;
    for (std::size_t a = 0; a < static_cast<std::size_t>(kAnswers); ++a) {
      if (a == solved_ || count[a] == 0) continue;
      bound += lb_[count[a]];
      if (count[a] < n) informative = true;
    }
    if (!informative) return std::nullopt;
    return Candidate{g, bound, consistent};
  }

  /// Best-first order: least bound first, consistent guesses first on ties,
  /// then code order (stable).
  static void sort_candidates(std::vector<Candidate>& cands) {
    std::stable_sort(cands.begin(), cands.end(), [](const Candidate& x, const Candidate& y) {
      return x.bound != y.bound ? x.bound < y.bound : x.consistent > y.consistent;
    });
  }

  struct Entry {
    std::uint64_t value;
    bool exact;
    std::size_t guess = 0;  ///< an optimal first guess, when exact
    int depth = kNoCap;     ///< most guesses of the stored strategy (a bound under a cap), when exact
  };
  /// Caps from which solve tries the plain optimum first (below it the cap
  /// prunes so much that the capped search alone is cheaper).
  static constexpr int kPlainFirst = 4;
  /// What solve() and feasible() know of a set's depth.
  struct Reach {
    int yes = kNoCap;  ///< least cap known to be enough
    int no = 0;        ///< greatest cap known not to be
  };

  /// The memo key of `set` under a cap: the set and one entry no code
  /// number reaches (codes are < 2^13).
  static std::vector<std::uint16_t> capped(const std::vector<std::uint16_t>& set, int cap) {
    std::vector<std::uint16_t> key;
    key.reserve(set.size() + 1);
    key = set;
    key.push_back(static_cast<std::uint16_t>(0xF000u | static_cast<unsigned>(cap)));
    return key;
  }

  /// Depth of the strategy stored for `set` (uncapped) starting with `guess`.
  int depth_of(const std::vector<std::uint16_t>& set, std::size_t guess) const {
    std::array<std::vector<std::uint16_t>, kAnswers> classes;
    const std::uint8_t* row = codes_.row(guess);
    for (std::uint16_t s : set)
      if (row[s] != solved_) classes[row[s]].push_back(s);
    int deepest = 0;
    for (const auto& c : classes)
      if (!c.empty()) deepest = std::max(deepest, stored_depth(c));
    return std::min(kNoCap, deepest + 1);
  }

  std::uint64_t abort(std::uint64_t beta) {
    aborted_ = true;
    return beta;
  }

  std::uint64_t store(const std::vector<std::uint16_t>& set, std::uint64_t value, bool exact, std::size_t guess = 0,
                      int depth = kNoCap) {
    if (aborted_) return value;
    if (memo_.size() >= kMemoLimit && !exact) return value;
    auto [it, fresh] = memo_.try_emplace(set, Entry{value, exact, guess, depth});
    if (!fresh && !it->second.exact) it->second = Entry{std::max(value, it->second.value), exact, guess, depth};
    return value;
  }
  /// Lower-bound (inexact) entries stop being added past this many entries;
  /// exact ones always are.
  static constexpr std::size_t kMemoLimit = 3'000'000;

  /// Classes of digits interchangeable in `set` (see DigitClasses).
  DigitClasses digit_classes(const std::vector<std::uint16_t>& set) {
    DigitClasses cls;
    for (int d = 0; d < 10; ++d) cls[static_cast<std::size_t>(d)] = d;
    for (std::uint16_t s : set) member_[s >> 6] |= std::uint64_t{1} << (s & 63);
    std::array<int, 10> reps{};
    int nreps = 0;
    for (int d = 0; d < 10; ++d) {
      if (!(alphabet_ >> d & 1u)) continue;
      for (int r = 0; r < nreps; ++r)
        if (swap_preserves(set, reps[static_cast<std::size_t>(r)], d)) {
          cls[static_cast<std::size_t>(d)] = reps[static_cast<std::size_t>(r)];
          break;
        }
      if (cls[static_cast<std::size_t>(d)] == d) reps[static_cast<std::size_t>(nreps++)] = d;
    }
    for (std::uint16_t s : set) member_[s >> 6] = 0;
    return cls;
  }

  bool swap_preserves(const std::vector<std::uint16_t>& set, int a, int b) const {
    for (std::uint16_t s : set) {
      Code d = digits_[s];
      bool moved = false;
      for (std::size_t i = 0; i < static_cast<std::size_t>(p_); ++i) {
        if (d[i] == a) d[i] = b, moved = true;
        else if (d[i] == b) d[i] = a, moved = true;
      }
      if (!moved) continue;
      const int t = index_[static_cast<std::size_t>(number(d, p_))];
      if (t < 0 || !(member_[static_cast<std::size_t>(t) >> 6] >> (t & 63) & 1u)) return false;
    }
    return true;
  }

  /// True when guess g is the one guess tried for its orbit: the least of
  /// its class under the digit classes of the set (`cls`) and, when a
  /// group of history symmetries is known, the least of its orbit.
  bool orbit_representative(std::size_t g, const DigitClasses& cls, const Group* group, unsigned used) const {
    const Code& d = digits_[g];
    const int own = number(d, p_);
    if (class_key(d, p_, cls) != own) return false;
    return !(group && group->size() > 1 && !orbit_least(d, own, *group, used, cls));
  }

  /// True when no element of the history group maps `d` to a code whose
  /// digit-class key is smaller than `own` (d's number, d class-least).
  bool orbit_least(const Code& d, int own, const Group& group, unsigned used, const DigitClasses& cls) const {
    for (const Sym& e : group) {
      Code img{};
      for (std::size_t i = 0; i < static_cast<std::size_t>(p_); ++i) {
        const int q = e.pi[static_cast<std::size_t>(d[i])];
        img[static_cast<std::size_t>(e.sigma[i])] = (used >> d[i] & 1u) && q >= 0 ? q : d[i];
      }
      if (class_key(img, p_, cls) < own) return false;
    }
    return true;
  }

  /// Total for guess c (n for this guess plus the classes' optimal totals)
  /// if it is < best; false when cut. First every class's one-level bound
  /// (cheap), then the classes exactly, largest first.
  bool evaluate(const std::vector<std::uint16_t>& set, const Candidate& c, std::uint64_t best, std::uint64_t& out,
                const Group* group, unsigned used, int cap) {
    Group child_group;
    if (group && group->size() > 1) child_group = fixing(*group, digits_[c.guess], p_, used);
    unsigned next_used = used;
    for (std::size_t i = 0; i < static_cast<std::size_t>(p_); ++i) next_used |= 1u << digits_[c.guess][i];
    std::array<std::vector<std::uint16_t>, kAnswers> classes;
    const std::uint8_t* row = codes_.row(c.guess);
    for (std::uint16_t s : set) {
      const auto a = row[s];
      if (a != solved_) classes[a].push_back(s);
    }
    std::array<std::size_t, kAnswers> order{};
    for (std::size_t a = 0; a < order.size(); ++a) order[a] = a;
    std::sort(order.begin(), order.end(),
              [&](std::size_t x, std::size_t y) { return classes[x].size() > classes[y].size(); });
    std::array<std::uint64_t, kAnswers> bound{};
    std::uint64_t total = c.bound;  // n + Σ lb(class size)
    for (std::size_t a : order) {
      const std::size_t k = classes[a].size();
      if (k == 0) break;
      bound[a] = lb_[k];
      if (k < 3) continue;
      const std::uint64_t v = one_level_bound(classes[a]);
      total += v - bound[a];
      bound[a] = v;
      if (total >= best) return false;
    }
    for (std::size_t a : order) {
      const std::size_t k = classes[a].size();
      if (k == 0) break;
      const std::uint64_t rest = total - bound[a];
      const std::uint64_t v =
          solve(classes[a], best - rest, child_group.size() > 1 ? &child_group : nullptr, next_used,
                cap < kNoCap ? cap - 1 : kNoCap);
      total = rest + v;
      if (total >= best || aborted_) return false;
    }
    out = total;
    return true;
  }

  const CodeSet& codes_;
  int p_;
  std::uint8_t solved_;
  std::uint64_t limit_;
  std::uint64_t nodes_ = 0;
  bool aborted_ = false;
  unsigned alphabet_ = 0;
  /// Stop check (engine::throw_if_stopped) every 256 searched sets: each
  /// does a memo lookup and scores candidate guesses, so the tick is
  /// negligible and 256 of them stay far under a second.
  engine::StopPoll<256> poll_{};
  std::vector<std::uint64_t> lb_;
  std::vector<Code> digits_;
  std::vector<int> index_;            ///< code number → code index (-1: not a code)
  std::vector<std::uint64_t> member_;  ///< scratch membership bits (all zero between calls)
  std::unordered_map<std::vector<std::uint16_t>, Entry, VecHash> memo_;
  std::vector<std::uint64_t> within_;  ///< within_[cap]: see within()
  std::unordered_map<std::vector<std::uint16_t>, Reach, VecHash> reach_;
};

namespace {

/// Digits outside the game's alphabet count as used (never "new").
unsigned outside_alphabet(const CodeSet& codes) {
  const int lo = codes.game() == Game::mastermind ? 1 : 0;
  unsigned in = 0;
  for (int d = lo; d < lo + codes.symbols(); ++d) in |= 1u << d;
  return 0x3FFu & ~in;
}

Code digits_of(const CodeSet& codes, std::size_t c) {
  Code d{};
  for (std::size_t q = 0; q < static_cast<std::size_t>(codes.positions()); ++q) d[q] = codes.name(c)[q] - '0';
  return d;
}

/// The symmetries fixing the single guess `first` (pi defined on its digits).
Group first_guess_group(const CodeSet& codes, std::size_t first) {
  const int p = codes.positions();
  Sym id{};
  id.sigma = {0, 1, 2, 3};
  id.pi.fill(-1);
  Group all;
  std::array<int, 4> sigma{0, 1, 2, 3};
  do {
    Sym e = id;
    e.sigma = sigma;
    all.push_back(e);
  } while (std::next_permutation(sigma.begin(), sigma.begin() + p));
  return fixing(all, digits_of(codes, first), p, outside_alphabet(codes));
}

unsigned digits_used(const CodeSet& codes, std::size_t first) {
  unsigned used = outside_alphabet(codes);
  for (char c : codes.name(first)) used |= 1u << (c - '0');
  return used;
}

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

OptimalSearch optimal_total(const CodeSet& codes, std::span<const std::uint16_t> consistent, unsigned /*used_digits*/,
                            std::uint64_t node_limit) {
  if (consistent.empty()) throw InvalidArgument("consistent set", "must not be empty");
  Solver solver(codes, node_limit);
  const std::vector<std::uint16_t> set = sorted(consistent);
  return result_of(solver, set, solver.solve(set, Solver::kInfinity));
}

std::size_t optimal_guess(const CodeSet& codes, std::span<const std::uint16_t> consistent) {
  if (consistent.empty()) throw InvalidArgument("consistent set", "must not be empty");
  Solver solver(codes);
  return solver.best_guess(sorted(consistent));
}

OptimalSearch optimal_class_total(const CodeSet& codes, std::size_t first, std::span<const std::uint16_t> cls,
                                  std::uint64_t node_limit) {
  Solver solver(codes, node_limit);
  const std::vector<std::uint16_t> set = sorted(cls);
  const Group group = first_guess_group(codes, first);
  return result_of(solver, set, solver.solve(set, Solver::kInfinity, &group, digits_used(codes, first)));
}

int optimal_class_depth(const CodeSet& codes, std::size_t first, std::span<const std::uint16_t> cls) {
  if (cls.empty()) throw InvalidArgument("answer class", "must not be empty");
  Solver solver(codes);
  const std::vector<std::uint16_t> set = sorted(cls);
  const Group group = first_guess_group(codes, first);
  return solver.min_depth(set, &group, digits_used(codes, first));
}

std::size_t count_root_candidates(const CodeSet& codes, std::size_t first, std::uint8_t answer) {
  std::vector<std::uint16_t> none;
  for (std::size_t s = 0; s < codes.size(); ++s)
    if (codes.answer(first, s) == answer) none.push_back(static_cast<std::uint16_t>(s));
  Solver solver(codes);
  const Group group = first_guess_group(codes, first);
  return solver.count_candidates(none, &group, digits_used(codes, first));
}

std::string optimal_first_guess(Game game) { return game == Game::mastermind ? "1123" : "0123"; }


StrategyTree optimal_subtree(Solver& solver, const CodeSet& codes, const std::vector<std::uint16_t>& set, int cap) {
  StrategyTree node;
  node.guess = static_cast<std::uint16_t>(solver.best_guess(set, cap));
  std::array<std::vector<std::uint16_t>, kAnswers> classes;
  for (std::uint16_t s : set) classes[codes.answer(node.guess, s)].push_back(s);
  for (std::size_t a = 0; a < classes.size(); ++a) {
    if (a == codes.solved() || classes[a].empty()) continue;
    node.answers.push_back(static_cast<std::uint8_t>(a));
    node.next.push_back(optimal_subtree(solver, codes, classes[a], cap < Solver::kNoCap ? cap - 1 : cap));
  }
  return node;
}

StrategyTree OptimalTrees::assemble() {
  std::vector<std::size_t> identity;
  {
    std::lock_guard lock(mutex);
    identity.resize(answers.size());
  }
  for (std::size_t i = 0; i < identity.size(); ++i) identity[i] = i;
  return assemble(identity);
}

StrategyTree OptimalTrees::assemble(const std::vector<std::size_t>& chosen) {
  std::lock_guard lock(mutex);
  StrategyTree root;
  root.guess = first;
  if (chosen.size() != answers.size()) throw InternalError("optimal strategy: one task per class must be chosen");
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    if (chosen[i] >= trees.size() || !trees[chosen[i]])
      throw InternalError("optimal strategy: the tree of class " + answer_name(answers[i]) + " was not built by this run");
    root.answers.push_back(answers[i]);
    root.next.push_back(*trees[chosen[i]]);
  }
  return root;
}

namespace {

/// The answer classes of `first` (solved answer excluded, increasing
/// answer order): answers[i], classes[i] (sorted).
void first_classes(const CodeSet& codes, std::size_t first, std::vector<std::uint8_t>& answers,
                   std::vector<std::vector<std::uint16_t>>& classes) {
  std::array<std::vector<std::uint16_t>, kAnswers> by_answer;
  for (std::size_t s = 0; s < codes.size(); ++s) by_answer[codes.answer(first, s)].push_back(static_cast<std::uint16_t>(s));
  for (std::size_t a = 0; a < by_answer.size(); ++a)
    if (a != codes.solved() && !by_answer[a].empty()) {
      classes.push_back(by_answer[a]);
      answers.push_back(static_cast<std::uint8_t>(a));
    }
}

/// The game (and, for a reduced code set, its shape) for fingerprints.
std::string game_label(const CodeSet& codes) {
  std::string s = codes.game() == Game::mastermind ? "mastermind" : "bulls-and-cows";
  const bool full = codes.positions() == 4 && codes.symbols() == (codes.game() == Game::mastermind ? 6 : 10);
  if (!full) s += " positions=" + std::to_string(codes.positions()) + " symbols=" + std::to_string(codes.symbols());
  return s;
}

/// A full game's shared code set as a non-owning pointer.
std::shared_ptr<const CodeSet> shared_code_set(Game game) {
  return std::shared_ptr<const CodeSet>(std::shared_ptr<const CodeSet>{}, &code_set(game));
}

/// Checks a class's played histogram (solved[k]: secrets solved with k
/// guesses in all) against its computed total (guesses after the first).
void check_played(const std::vector<std::uint64_t>& solved, std::uint64_t total, std::size_t members) {
  std::uint64_t after_first = 0, played = 0;
  for (std::size_t k = 1; k < solved.size(); ++k) {
    after_first += solved[k] * (k - 1);
    played += solved[k];
  }
  if (after_first != total || played != members)
    throw InternalError("optimal strategy: the played strategy does not reach the computed minimum");
}

}  // namespace

engine::Job make_optimal_job(Game game, std::shared_ptr<OptimalTrees> trees) {
  const CodeSet& codes = code_set(game);
  return make_optimal_job(shared_code_set(game), *codes.find(optimal_first_guess(game)), std::move(trees));
}

engine::Job make_optimal_job(std::shared_ptr<const CodeSet> codes_ptr, std::size_t first,
                             std::shared_ptr<OptimalTrees> trees) {
  const CodeSet& codes = *codes_ptr;
  if (first >= codes.size()) throw InvalidArgument("first guess", "must be a code of the game");
  const unsigned used = digits_used(codes, first);
  // One task per answer class of the first guess.
  auto classes = std::make_shared<std::vector<std::vector<std::uint16_t>>>();
  std::vector<std::uint8_t> answers;
  first_classes(codes, first, answers, *classes);
  if (trees) {
    trees->first = static_cast<std::uint16_t>(first);
    trees->answers = answers;
    trees->trees.assign(answers.size(), std::nullopt);
  }
  engine::Job job;
  job.fingerprint = game_label(codes) + " strategy=optimal first=" + codes.name(first);
  job.counter_names = strategy_counter_names();
  job.task_count = classes->size();
  job.split_depth = 1;
  // The search grows much faster than the class: size squared orders the
  // largest classes first.
  job.estimate = [classes](std::size_t id) {
    const double s = static_cast<double>((*classes)[id].size());
    return s * s;
  };
  auto group = std::make_shared<const Group>(first_guess_group(codes, first));
  job.run_task = [classes, codes_ptr, used, group, trees](std::size_t id, engine::Tally& out) {
    const CodeSet& cs = *codes_ptr;
    Solver solver(cs);
    std::vector<std::uint64_t> solved;  // solved[k]: secrets solved with k guesses in all
    const auto& set = (*classes)[id];
    const std::uint64_t total = solver.solve(set, Solver::kInfinity, group.get(), used);
    play_optimal(solver, cs, set, 1, solved);
    // The class's minimum counts the guesses after the first one.
    check_played(solved, total, set.size());
    if (trees) {
      StrategyTree t = optimal_subtree(solver, cs, set);
      std::lock_guard lock(trees->mutex);
      trees->trees[id] = std::move(t);
    }
    if (id == 0) ++solved[1];  // the secret equal to the first guess
    add_solved(solved, out);
    out.nodes = solver.nodes();
  };
  return job;
}

/// The task list of OptimalSplit (fixed before the run: the same on every
/// run for the same code set, first guess and bounds).
struct SplitPlan {
  /// One task: a second guess for a class, or (whole) the class solved in one.
  struct Task {
    std::size_t cls;
    bool whole = false;
    Candidate second{};
    double estimate = 0;
  };
  std::shared_ptr<const CodeSet> codes;
  std::size_t first = 0;
  unsigned used = 0;
  Group group;
  std::vector<std::uint8_t> answers;
  std::vector<std::vector<std::uint16_t>> classes;
  std::vector<std::uint64_t> bounds;
  std::vector<Task> tasks;
};

namespace {
/// Counters of split task id: [cut, guesses, solved_in_2 … solved_in_kSplitDepth].
constexpr std::size_t kSplitStride = 2 + static_cast<std::size_t>(kSplitDepth - 1);
std::size_t split_cut(std::size_t id) { return id * kSplitStride; }
std::size_t split_guesses(std::size_t id) { return id * kSplitStride + 1; }
std::size_t split_solved_in(std::size_t id, int k) { return id * kSplitStride + 2 + static_cast<std::size_t>(k - 2); }
}  // namespace

OptimalSplit::OptimalSplit(Game game, std::vector<std::uint64_t> bounds)
    : OptimalSplit(shared_code_set(game), *code_set(game).find(optimal_first_guess(game)), std::move(bounds)) {}

OptimalSplit::OptimalSplit(std::shared_ptr<const CodeSet> codes, std::size_t first, std::vector<std::uint64_t> bounds) {
  if (first >= codes->size()) throw InvalidArgument("first guess", "must be a code of the game");
  auto plan = std::make_shared<SplitPlan>();
  plan->codes = codes;
  plan->first = first;
  plan->used = digits_used(*codes, first);
  plan->group = first_guess_group(*codes, first);
  first_classes(*codes, first, plan->answers, plan->classes);
  if (bounds.size() != plan->classes.size())
    throw InvalidArgument("bounds", "one per answer class of the first guess: " + std::to_string(plan->classes.size()) +
                                        ", got " + std::to_string(bounds.size()));
  plan->bounds = std::move(bounds);
  Solver solver(*codes);
  for (std::size_t i = 0; i < plan->classes.size(); ++i) {
    const auto& set = plan->classes[i];
    if (set.size() <= 2) {
      plan->tasks.push_back({i, true, {}, static_cast<double>(set.size())});
      continue;
    }
    // The class's root candidates in the order the class search tries them
    // (so the least task id among the optimal ones is the guess it picks);
    // a guess whose one-level bound exceeds the class's bound cannot be
    // optimal and gets no task.
    for (const Candidate& c : solver.root_candidates(set, &plan->group, plan->used)) {
      if (c.bound > plan->bounds[i]) continue;
      // Estimate: the sizes of the classes the guess leaves, squared (the
      // class job's unit), summed.
      std::array<double, kAnswers> size{};
      for (std::uint16_t s : set) ++size[codes->answer(c.guess, s)];
      double e = 0;
      for (std::size_t a = 0; a < size.size(); ++a)
        if (a != codes->solved()) e += size[a] * size[a];
      plan->tasks.push_back({i, false, c, e});
    }
  }
  plan_ = std::move(plan);
}

std::size_t OptimalSplit::class_count() const { return plan_->classes.size(); }
std::uint8_t OptimalSplit::class_answer(std::size_t i) const { return plan_->answers.at(i); }
std::size_t OptimalSplit::task_count() const { return plan_->tasks.size(); }
std::size_t OptimalSplit::task_class(std::size_t id) const { return plan_->tasks.at(id).cls; }

engine::Job OptimalSplit::job(std::shared_ptr<OptimalTrees> trees) const {
  const SplitPlan& p = *plan_;
  const CodeSet& codes = *p.codes;
  if (trees) {
    trees->first = static_cast<std::uint16_t>(p.first);
    trees->answers = p.answers;
    trees->trees.assign(p.tasks.size(), std::nullopt);
  }
  engine::Job job;
  job.fingerprint = game_label(codes) + " strategy=optimal first=" + codes.name(p.first) + " split=second-guess bounds=";
  for (std::size_t i = 0; i < p.bounds.size(); ++i) {
    if (i > 0) job.fingerprint += ',';
    job.fingerprint += std::to_string(p.bounds[i]);
  }
  for (std::size_t id = 0; id < p.tasks.size(); ++id) {
    const SplitPlan::Task& t = p.tasks[id];
    const std::string stem = answer_name(p.answers[t.cls]) + "_" + (t.whole ? std::string("all") : codes.name(t.second.guess)) + "_";
    job.counter_names.push_back(stem + "cut");
    job.counter_names.push_back(stem + "guesses");
    for (int k = 2; k <= kSplitDepth; ++k) job.counter_names.push_back(stem + "solved_in_" + std::to_string(k));
  }
  job.task_count = p.tasks.size();
  job.split_depth = 2;
  std::shared_ptr<const SplitPlan> plan = plan_;
  job.estimate = [plan](std::size_t id) { return plan->tasks[id].estimate; };
  job.run_task = [plan, trees](std::size_t id, engine::Tally& out) {
    const SplitPlan::Task& t = plan->tasks[id];
    const CodeSet& cs = *plan->codes;
    const auto& set = plan->classes[t.cls];
    // A fresh solver per task: its memo, hence the optimal strategy it
    // plays where several tie, depends on the task alone.
    Solver solver(cs);
    std::vector<std::uint64_t> solved(3, 0);  // solved[k]: secrets solved with k guesses in all
    std::uint64_t total = 0;
    std::optional<StrategyTree> tree;
    if (t.whole) {
      total = solver.solve(set, Solver::kInfinity, &plan->group, plan->used);
      play_optimal(solver, cs, set, 1, solved);
      if (trees) tree = optimal_subtree(solver, cs, set);
    } else {
      const std::optional<std::uint64_t> v =
          solver.guess_total(set, t.second, plan->bounds[t.cls] + 1, &plan->group, plan->used);
      out.nodes = solver.nodes();
      if (!v) {
        out.add(split_cut(id), 1);
        return;
      }
      total = *v;
      std::array<std::vector<std::uint16_t>, kAnswers> classes;
      for (std::uint16_t s : set) classes[cs.answer(t.second.guess, s)].push_back(s);
      if (trees) tree.emplace().guess = static_cast<std::uint16_t>(t.second.guess);
      for (std::size_t a = 0; a < classes.size(); ++a) {
        if (classes[a].empty()) continue;
        if (a == cs.solved()) {
          solved[2] += classes[a].size();
          continue;
        }
        play_optimal(solver, cs, classes[a], 2, solved);
        if (tree) {
          tree->answers.push_back(static_cast<std::uint8_t>(a));
          tree->next.push_back(optimal_subtree(solver, cs, classes[a]));
        }
      }
    }
    check_played(solved, total, set.size());
    if (solved.size() > static_cast<std::size_t>(kSplitDepth) + 1)
      throw InternalError("optimal strategy: a class's strategy needs more than " + std::to_string(kSplitDepth) +
                          " guesses, more than the split job records");
    out.add(split_guesses(id), total);
    for (std::size_t k = 2; k < solved.size(); ++k)
      if (solved[k] > 0) out.add(split_solved_in(id, static_cast<int>(k)), solved[k]);
    out.nodes = solver.nodes();
    if (tree) {
      std::lock_guard lock(trees->mutex);
      trees->trees[id] = std::move(*tree);
    }
  };
  return job;
}

OptimalSplit::Result OptimalSplit::result(const engine::Tally& totals) const {
  const SplitPlan& p = *plan_;
  Result r;
  r.totals.assign(p.classes.size(), 0);
  r.chosen.assign(p.classes.size(), p.tasks.size());
  std::vector<std::uint64_t> solved(static_cast<std::size_t>(kSplitDepth) + 1, 0);
  solved[1] = 1;  // the secret equal to the first guess
  const auto get = [&](std::size_t i) {
    const u128 v = totals.get(i);
    if (v > u128{~std::uint64_t{0}}) throw InternalError("optimal strategy: a split counter exceeds 64 bits");
    return static_cast<std::uint64_t>(v);
  };
  for (std::size_t id = 0; id < p.tasks.size(); ++id) {
    const SplitPlan::Task& t = p.tasks[id];
    const std::string name = answer_name(p.answers[t.cls]) + " " + (t.whole ? "(whole class)" : p.codes->name(t.second.guess));
    const std::uint64_t cut = get(split_cut(id)), guesses = get(split_guesses(id));
    std::uint64_t members = 0, after_first = 0;
    for (int k = 2; k <= kSplitDepth; ++k) {
      members += get(split_solved_in(id, k));
      after_first += get(split_solved_in(id, k)) * static_cast<std::uint64_t>(k - 1);
    }
    const bool exact = members > 0;
    if (cut > 1 || (cut == 1) == exact)
      throw InternalError("optimal strategy: task " + std::to_string(id) + " (" + name + ") left " +
                          (cut == 0 && !exact ? "no result: the totals are incomplete" : "an inconsistent result"));
    if (!exact) continue;
    if (members != p.classes[t.cls].size() || after_first != guesses || (!t.whole && guesses > p.bounds[t.cls]))
      throw InternalError("optimal strategy: task " + std::to_string(id) + " (" + name + "): counters do not add up");
    if (r.chosen[t.cls] == p.tasks.size() || guesses < r.totals[t.cls]) {
      r.chosen[t.cls] = id;
      r.totals[t.cls] = guesses;
    }
  }
  for (std::size_t i = 0; i < p.classes.size(); ++i) {
    const std::size_t id = r.chosen[i];
    if (id == p.tasks.size())
      throw InternalError("optimal strategy: every second guess of class " + answer_name(p.answers[i]) +
                          " needs more than its bound " + std::to_string(p.bounds[i]) +
                          ": the bound is below the optimum");
    for (int k = 2; k <= kSplitDepth; ++k) solved[static_cast<std::size_t>(k)] += get(split_solved_in(id, k));
  }
  engine::Tally tally(kStrategyCounters);
  add_solved(solved, tally);
  r.summary = summarize(tally);
  return r;
}

std::vector<std::uint64_t> OptimalSplit::bounds_from_tree(const CodeSet& codes, std::size_t first,
                                                          const StrategyTree& tree) {
  if (tree.guess != first)
    throw InvalidArgument("bound tree", "starts with " + codes.name(tree.guess) + "; the optimal search starts with " +
                                            codes.name(first));
  std::vector<std::uint8_t> answers;
  std::vector<std::vector<std::uint16_t>> classes;
  first_classes(codes, first, answers, classes);
  std::vector<std::uint64_t> bounds;
  for (std::size_t i = 0; i < classes.size(); ++i) {
    const auto it = std::find(tree.answers.begin(), tree.answers.end(), answers[i]);
    if (it == tree.answers.end())
      throw InvalidArgument("bound tree", "no subtree for the answer " + answer_name(answers[i]) + " to " +
                                              codes.name(first));
    std::vector<std::uint64_t> solved;
    evaluate_subtree(codes, tree.next[static_cast<std::size_t>(it - tree.answers.begin())], classes[i], 1,
                     codes.name(first) + " " + answer_name(answers[i]), solved);
    std::uint64_t after_first = 0;
    for (std::size_t k = 1; k < solved.size(); ++k) after_first += solved[k] * (k - 1);
    bounds.push_back(after_first);
  }
  return bounds;
}

void play_optimal(Solver& solver, const CodeSet& codes, const std::vector<std::uint16_t>& set, int made,
                  std::vector<std::uint64_t>& solved, int cap) {
  const std::size_t g = solver.best_guess(set, cap);
  if (static_cast<std::size_t>(made + 2) > solved.size()) solved.resize(static_cast<std::size_t>(made + 2));
  std::array<std::vector<std::uint16_t>, kAnswers> classes;
  for (std::uint16_t s : set) {
    const auto a = codes.answer(g, s);
    if (a == codes.solved()) ++solved[static_cast<std::size_t>(made + 1)];
    else classes[a].push_back(s);
  }
  for (const auto& c : classes)
    if (!c.empty()) play_optimal(solver, codes, c, made + 1, solved, cap < Solver::kNoCap ? cap - 1 : cap);
}


CappedSearch optimal_capped_total(const CodeSet& codes, std::span<const std::uint16_t> consistent) {
  if (consistent.empty()) throw InvalidArgument("consistent set", "must not be empty");
  Solver solver(codes);
  const std::vector<std::uint16_t> set = sorted(consistent);
  CappedSearch r;
  r.min_depth = solver.min_depth(set);
  r.plain = solver.solve(set, Solver::kInfinity);
  r.plain_depth = solver.stored_depth(set);
  r.total = solver.solve(set, Solver::kInfinity, nullptr, 0, r.min_depth);
  if (r.total >= Solver::kInfinity) throw InternalError("worst case: no strategy within the least depth");
  return r;
}

std::optional<std::uint64_t> capped_total(const CodeSet& codes, std::span<const std::uint16_t> consistent, int cap) {
  if (consistent.empty()) throw InvalidArgument("consistent set", "must not be empty");
  if (cap < 0 || cap >= Solver::kNoCap) throw InvalidArgument("cap", "must be 0-254");
  Solver solver(codes);
  const std::uint64_t v = solver.solve(sorted(consistent), Solver::kInfinity, nullptr, 0, cap);
  if (v >= Solver::kInfinity) return std::nullopt;
  return v;
}

std::vector<std::size_t> first_guess_orbits(const CodeSet& codes) {
  // A code is its orbit's representative when it is the least of the codes
  // obtained by permuting its positions and renaming its symbols in order
  // of first appearance to the smallest ones.
  const int p = codes.positions();
  const int lo = codes.game() == Game::mastermind ? 1 : 0;
  std::vector<std::size_t> out;
  for (std::size_t c = 0; c < codes.size(); ++c) {
    const Code d = digits_of(codes, c);
    const int own = number(d, p);
    std::array<int, 4> sigma{0, 1, 2, 3};
    bool least = true;
    do {
      Code img{};
      std::array<int, 10> rename;
      rename.fill(-1);
      int next = lo;
      for (std::size_t i = 0; i < static_cast<std::size_t>(p); ++i) {
        int& r = rename[static_cast<std::size_t>(d[static_cast<std::size_t>(sigma[i])])];
        if (r < 0) r = next++;
        img[i] = r;
      }
      if (number(img, p) < own) least = false;
    } while (least && std::next_permutation(sigma.begin(), sigma.begin() + p));
    if (least) out.push_back(c);
  }
  return out;
}

namespace {
constexpr std::size_t kWorstStride = 2 + static_cast<std::size_t>(kWorstCaps) + 1;
std::size_t worst_base(std::size_t i, int c) {
  return (i * static_cast<std::size_t>(kWorstCaps) + static_cast<std::size_t>(c - 1)) * kWorstStride;
}
}  // namespace

std::size_t worst_unsolvable(std::size_t i, int c) { return worst_base(i, c); }
std::size_t worst_guesses(std::size_t i, int c) { return worst_base(i, c) + 1; }
std::size_t worst_solved_in(std::size_t i, int c, int k) {
  return worst_base(i, c) + 2 + static_cast<std::size_t>(k - 1);
}

namespace {
/// One task of the worst-case job: an answer class of one first guess.
struct WorstTask {
  std::size_t first_index;  ///< in first_guess_orbits
  std::uint8_t answer;
  std::vector<std::uint16_t> set;
};
}  // namespace

StrategyTree WorstCaseTrees::assemble(const CodeSet& codes, std::size_t i, int c) {
  std::lock_guard lock(mutex);
  const std::vector<std::size_t> firsts = first_guess_orbits(codes);
  StrategyTree root;
  root.guess = static_cast<std::uint16_t>(firsts.at(i));
  for (std::uint8_t a = 0; a < kAnswers; ++a) {
    if (a == codes.solved()) continue;
    bool any = false;
    for (std::size_t s = 0; s < codes.size() && !any; ++s) any = codes.answer(root.guess, s) == a;
    if (!any) continue;
    // Tasks are numbered in (first guess, answer) order: find this one.
    std::size_t id = 0, seen = 0;
    bool found = false;
    for (std::size_t f = 0; f < firsts.size() && !found; ++f)
      for (std::uint8_t b = 0; b < kAnswers && !found; ++b) {
        if (b == codes.solved()) continue;
        bool nonempty = false;
        for (std::size_t s = 0; s < codes.size() && !nonempty; ++s) nonempty = codes.answer(firsts[f], s) == b;
        if (!nonempty) continue;
        if (f == i && b == a) id = seen, found = true;
        ++seen;
      }
    if (!found || id >= trees.size() || !trees[id][static_cast<std::size_t>(c - 1)])
      throw InternalError("worst case: the tree of class " + answer_name(a) + " was not built by this run");
    root.answers.push_back(a);
    root.next.push_back(*trees[id][static_cast<std::size_t>(c - 1)]);
  }
  return root;
}

engine::Job make_worst_case_job(Game game, std::shared_ptr<WorstCaseTrees> trees) {
  const CodeSet& codes = code_set(game);
  const std::vector<std::size_t> firsts = first_guess_orbits(codes);
  auto tasks = std::make_shared<std::vector<WorstTask>>();
  auto groups = std::make_shared<std::vector<Group>>();
  std::vector<unsigned> used;
  for (std::size_t i = 0; i < firsts.size(); ++i) {
    std::array<std::vector<std::uint16_t>, kAnswers> by_answer;
    for (std::size_t s = 0; s < codes.size(); ++s)
      by_answer[codes.answer(firsts[i], s)].push_back(static_cast<std::uint16_t>(s));
    for (std::size_t a = 0; a < by_answer.size(); ++a)
      if (a != codes.solved() && !by_answer[a].empty())
        tasks->push_back({i, static_cast<std::uint8_t>(a), by_answer[a]});
    groups->push_back(first_guess_group(codes, firsts[i]));
    used.push_back(digits_used(codes, firsts[i]));
  }
  if (trees) trees->trees.assign(tasks->size(), std::vector<std::optional<StrategyTree>>(kWorstCaps));
  engine::Job job;
  job.fingerprint = std::string(game == Game::mastermind ? "mastermind" : "bulls-and-cows") +
                    " strategy=optimal objective=worst-case caps=" + std::to_string(kWorstCaps);
  for (std::size_t i = 0; i < firsts.size(); ++i)
    for (int c = 1; c <= kWorstCaps; ++c) {
      const std::string stem = "first_" + codes.name(firsts[i]) + "_within_" + std::to_string(c + 1) + "_";
      job.counter_names.push_back(stem + "unsolvable_classes");
      job.counter_names.push_back(stem + "guesses_after_first");
      for (int k = 1; k <= kWorstCaps + 1; ++k) job.counter_names.push_back(stem + "solved_in_" + std::to_string(k));
    }
  job.task_count = tasks->size();
  job.split_depth = 1;
  job.estimate = [tasks](std::size_t id) {
    const double s = static_cast<double>((*tasks)[id].set.size());
    return s * s;
  };
  job.run_task = [tasks, groups, used, game, trees](std::size_t id, engine::Tally& out) {
    const CodeSet& cs = code_set(game);
    const WorstTask& t = (*tasks)[id];
    const Group* group = &(*groups)[t.first_index];
    const unsigned u = used[t.first_index];
    Solver solver(cs);
    const int least = solver.min_depth(t.set, group, u);
    const std::uint64_t plain = solver.solve(t.set, Solver::kInfinity, group, u);
    const int plain_depth = solver.stored_depth(t.set);
    std::optional<StrategyTree> plain_tree;
    // A cap at which some other class of the same first guess is not
    // solvable is never the answer's: its least total is not needed (and
    // can cost far more than the plain optimum). Decided from the first
    // guess and the class alone, so every run records the same counters.
    const auto sibling_unsolvable = [&](int c) {
      std::vector<const WorstTask*> siblings;
      for (const WorstTask& o : *tasks)
        if (o.first_index == t.first_index && o.answer != t.answer) siblings.push_back(&o);
      std::stable_sort(siblings.begin(), siblings.end(),
                       [](const WorstTask* x, const WorstTask* y) { return x->set.size() > y->set.size(); });
      for (const WorstTask* o : siblings)
        if (!solver.feasible(o->set, c, group, u)) return true;
      return false;
    };
    for (int c = 1; c <= kWorstCaps; ++c) {
      if (c < least) {
        out.add(worst_unsolvable(t.first_index, c), 1);
        continue;
      }
      if (c < plain_depth && sibling_unsolvable(c)) continue;
      const int cap = c >= plain_depth ? Solver::kNoCap : c;
      const std::uint64_t total = cap == Solver::kNoCap ? plain : solver.solve(t.set, Solver::kInfinity, group, u, cap);
      if (total >= Solver::kInfinity)
        throw InternalError("worst case: class " + answer_name(t.answer) + " has no strategy within " +
                            std::to_string(c) + " guesses, yet the depth search found one");
      std::vector<std::uint64_t> solved;
      play_optimal(solver, cs, t.set, 1, solved, cap);
      std::uint64_t after_first = 0, members = 0;
      for (std::size_t k = 1; k < solved.size(); ++k) {
        after_first += solved[k] * (k - 1);
        members += solved[k];
        if (solved[k] > 0 && k > static_cast<std::size_t>(c + 1))
          throw InternalError("worst case: the played strategy exceeds its cap");
      }
      if (after_first != total || members != t.set.size())
        throw InternalError("worst case: the played strategy does not reach the computed minimum");
      out.add(worst_guesses(t.first_index, c), total);
      for (std::size_t k = 1; k < solved.size(); ++k)
        if (solved[k] > 0) out.add(worst_solved_in(t.first_index, c, static_cast<int>(k)), solved[k]);
      if (trees) {
        StrategyTree tree;
        if (cap == Solver::kNoCap) {
          if (!plain_tree) plain_tree = optimal_subtree(solver, cs, t.set);
          tree = *plain_tree;
        } else {
          tree = optimal_subtree(solver, cs, t.set, cap);
        }
        std::lock_guard lock(trees->mutex);
        trees->trees[id][static_cast<std::size_t>(c - 1)] = std::move(tree);
      }
    }
  };
  return job;
}

}  // namespace pcount::games::codes
