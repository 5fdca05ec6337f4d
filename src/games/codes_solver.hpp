#pragma once
// Internal: the branch-and-bound solver behind the optimal and worst-case
// code-breaking strategies (src/games/codes_solver.cpp), and the helpers the
// strategy jobs share (codes_optimal.cpp, codes_worst_case.cpp): the exact
// minimum total (= expected) length of a strategy tree over a set of secrets
// (docs/games.md, "How the optimum is proved"; Koyama & Lai 1993 and Tanaka
// 1996 give the optima it must reproduce, see docs/sources.md).
#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "pcount/engine/task.hpp"
#include "pcount/games/codes.hpp"
#include "games/codes_optimal.hpp"

namespace pcount::games::codes {

using Code = std::array<int, 4>;

/// A symmetry of the history: positions permuted by sigma together with
/// digits relabelled by pi (pi[d] = -1 for digits no guess used yet; those
/// are interchangeable anyway).
struct Sym {
  std::array<int, 4> sigma;
  std::array<int, 10> pi;
};
using Group = std::vector<Sym>;

/// Digits interchangeable in a set of codes: cls[d] = the smallest digit e
/// such that swapping d and e everywhere maps the set onto itself (d itself
/// when there is none). Swapping is transitive, so these are classes.
using DigitClasses = std::array<int, 10>;

/// A guess the solver may try for a set, with its one-level lower bound and
/// whether it is itself one of the set's secrets.
struct Candidate {
  std::size_t guess;
  std::uint64_t bound;
  bool consistent;
};

/// Hash of a sorted set of codes (the memo's key).
struct VecHash {
  std::size_t operator()(const std::vector<std::uint16_t>& v) const noexcept {
    std::uint64_t h = 0x9E3779B97F4A7C15ull ^ v.size();
    for (std::uint16_t x : v) h = (h ^ x) * 0x100000001B3ull + (h >> 29);
    return static_cast<std::size_t>(h);
  }
};

/// The exact minimum total number of guesses f(S) over a set S of secrets
/// (and, with a cap, the least total within a depth), by branch and bound
/// with a memo of exact values and lower bounds; one per thread (it is not
/// thread-safe). Stops, throwing TaskAbandoned, when the run is stopped.
class Solver {
public:
  explicit Solver(const CodeSet& codes, std::uint64_t node_limit = ~std::uint64_t{0});

  [[nodiscard]] const CodeSet& codes() const { return codes_; }
  /// Makes the search stop as at the node limit (aborted()) once `*flag`
  /// is set: a part given away whose result is no longer needed.
  void stop_when(const std::atomic<bool>* flag) { cancel_ = flag; }
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
  [[nodiscard]] int stored_depth(const std::vector<std::uint16_t>& set) const;

  /// Whether every secret of `set` (sorted) can be solved within `cap`
  /// guesses: an AND-OR search over one guess per orbit (as solve), the
  /// guesses whose largest answer class is smallest first, memoised by set
  /// (the least cap known to work, the greatest known not to).
  bool feasible(const std::vector<std::uint16_t>& set, int cap, const Group* group = nullptr, unsigned used = 0);

  /// The least number of guesses within which every secret of `set` can be
  /// solved (iterative deepening on feasible).
  int min_depth(const std::vector<std::uint16_t>& set, const Group* group = nullptr, unsigned used = 0);

  /// Number of guesses solve() tries for `set` before bounds: one per orbit.
  std::size_t count_candidates(const std::vector<std::uint16_t>& set, const Group* group, unsigned used);

  /// The guesses solve() tries at the root of `set` (sorted, ≥ 3 secrets),
  /// in the order it tries them (least one-level bound first, consistent
  /// guesses first on ties, then code order), with their one-level bounds.
  std::vector<Candidate> root_candidates(const std::vector<std::uint16_t>& set, const Group* group, unsigned used);

  /// The least total of the strategies for `set` (sorted) that start with
  /// guess `c` (a candidate of root_candidates), when it is < beta;
  /// nullopt when it is proved ≥ beta. The classes it leaves are then
  /// solved exactly in the memo (play_optimal and optimal_subtree read
  /// them). `group`, `used`: as solve.
  std::optional<std::uint64_t> guess_total(const std::vector<std::uint16_t>& set, const Candidate& c,
                                           std::uint64_t beta, const Group* group, unsigned used);

  /// An optimal guess for `set` (sorted; solving it first if needed).
  /// With `cap`: a guess starting a strategy of least total among those
  /// solving every secret within `cap` guesses (which must exist).
  std::size_t best_guess(const std::vector<std::uint16_t>& set, int cap = kNoCap);

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
                      unsigned used = 0, int cap = kNoCap);

  /// The least total over all guesses of n + Σ size bound of the classes:
  /// a lower bound on f(S) one level deep (a memoised value when better).
  std::uint64_t one_level_bound(const std::vector<std::uint16_t>& set);

  /// An exact value of the memo, as another solver hands it on.
  struct Known {
    std::vector<std::uint16_t> set;  ///< the memo key (under a cap: capped(set, cap))
    std::uint64_t value;
    std::size_t guess;
    int depth;
  };
  /// The exact entries of the strategy best_guess(set, cap) plays (the
  /// set solved exactly under `cap`): the set's own and those of every set
  /// of ≥ 3 secrets the strategy reaches. Throws InternalError when one is
  /// missing.
  [[nodiscard]] std::vector<Known> strategy_of(const std::vector<std::uint16_t>& set, int cap = kNoCap) const;
  /// Stores exact entries found by another solver (strategy_of), so that
  /// best_guess, play_optimal and optimal_subtree read them here.
  void learn(const std::vector<Known>& known);

  /// What guess `guess` leaves of `set`: the secrets by answer (the solved
  /// answer's dropped), the symmetries of the history that fix the guess
  /// and the digits used after it; feasible and evaluate search each class
  /// from there.
  struct AfterGuess {
    std::array<std::vector<std::uint16_t>, kAnswers> classes;
    Group group;  ///< empty when the history had no symmetries to keep
    unsigned used;
    /// The group to pass on: null when only the identity is left.
    [[nodiscard]] const Group* symmetries() const { return group.size() > 1 ? &group : nullptr; }
  };
  [[nodiscard]] AfterGuess after_guess(const std::vector<std::uint16_t>& set, std::size_t guess, const Group* group,
                                       unsigned used) const;

  /// The order in which evaluate solves the classes a guess leaves:
  /// largest first, empty ones last (ties as std::sort leaves them: the
  /// same on every run).
  [[nodiscard]] static std::array<std::size_t, kAnswers> class_order(const AfterGuess& after);

  /// The first pass of evaluate: `c`'s one-level bound with every class of
  /// ≥ 3 secrets bounded one level deep (bound[a]: class a's part of it).
  /// Returns false when that already reaches `best`.
  bool class_bounds(const AfterGuess& after, const std::array<std::size_t, kAnswers>& order, const Candidate& c,
                    std::uint64_t best, std::array<std::uint64_t, kAnswers>& bound, std::uint64_t& total);

  /// solve's search, each candidate c scored by `evaluate(c, best, out)`:
  /// true, with c's total in `out`, when that total is < best (solve:
  /// Solver::evaluate; SplitSearch: its own, giving classes away). The
  /// first candidate of least total is the set's guess.
  template <class Evaluate>
  std::uint64_t search(const std::vector<std::uint16_t>& set, std::uint64_t beta, const Group* group, unsigned used,
                       int cap, Evaluate&& evaluate) {
    std::uint64_t known_lb = 0;
    std::vector<std::uint16_t> capped_key;
    if (const std::optional<std::uint64_t> settled = settle(set, beta, group, used, cap, known_lb, capped_key))
      return *settled;
    const std::vector<std::uint16_t>& key = cap < kNoCap ? capped_key : set;
    const std::vector<Candidate> cands = candidates(set, group, used, cap);
    if (aborted_) return beta;
    const std::uint64_t min_bound = least_bound(known_lb, cands, beta, cap);
    if (min_bound >= beta) return store(key, min_bound, false);
    std::uint64_t best = beta;  // best exact value found below beta
    std::optional<std::size_t> best_guess;
    for (const Candidate& c : cands) {
      if (c.bound >= best) break;
      std::uint64_t v = 0;
      if (!evaluate(c, best, v)) {
        if (aborted_) return beta;
        continue;
      }
      best = v;
      best_guess = c.guess;
    }
    if (aborted_) return beta;
    return conclude(set, key, cap, best_guess ? best : std::max(beta, min_bound), best_guess);  // none: all ≥ beta
  }

private:
  // The steps of search:
  /// The start of solve: the value when the set's size, the memo or (under
  /// a cap) the plain optimum settle it; else nullopt, with the lower bound
  /// known in `known_lb` and, under a cap, the memo key in `capped_key`.
  std::optional<std::uint64_t> settle(const std::vector<std::uint16_t>& set, std::uint64_t beta, const Group* group,
                                      unsigned used, int cap, std::uint64_t& known_lb,
                                      std::vector<std::uint16_t>& capped_key);
  /// The guesses solve tries, best-first (sort_candidates): one per orbit,
  /// informative and, under a cap, leaving no class too big for cap - 1.
  /// Empty, with aborted() set, when the node limit is reached.
  std::vector<Candidate> candidates(const std::vector<std::uint16_t>& set, const Group* group, unsigned used, int cap);
  /// The least total any candidate could reach: a bound solve stores when
  /// it is ≥ beta.
  [[nodiscard]] static std::uint64_t least_bound(std::uint64_t known_lb, const std::vector<Candidate>& cands,
                                                 std::uint64_t beta, int cap);
  /// The end of solve: stores under `key` (the set, or its capped key) the
  /// exact value reached by first guess `guess` (whose classes are solved
  /// exactly in the memo), or without a guess a lower bound; returns it.
  std::uint64_t conclude(const std::vector<std::uint16_t>& set, const std::vector<std::uint16_t>& key, int cap,
                         std::uint64_t value, std::optional<std::size_t> guess);

  /// Scores guess g on `set`: count[a] = secrets giving answer a; the
  /// candidate with its one-level bound n + Σ size bound of the classes;
  /// nullopt when every secret gives the same unsolved answer.
  std::optional<Candidate> score(const std::vector<std::uint16_t>& set, std::size_t g,
                                 std::array<std::uint16_t, kAnswers>& count) const;

  /// Best-first order: least bound first, consistent guesses first on ties,
  /// then code order (stable).
  static void sort_candidates(std::vector<Candidate>& cands);

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
  static std::vector<std::uint16_t> capped(const std::vector<std::uint16_t>& set, int cap);

  /// Depth of the strategy stored for `set` (uncapped) starting with `guess`.
  int depth_of(const std::vector<std::uint16_t>& set, std::size_t guess) const;

  std::uint64_t store(const std::vector<std::uint16_t>& set, std::uint64_t value, bool exact, std::size_t guess = 0,
                      int depth = kNoCap);
  /// Lower-bound (inexact) entries stop being added past this many entries;
  /// exact ones always are.
  static constexpr std::size_t kMemoLimit = 3'000'000;

  /// Classes of digits interchangeable in `set` (see DigitClasses).
  DigitClasses digit_classes(const std::vector<std::uint16_t>& set);

  bool swap_preserves(const std::vector<std::uint16_t>& set, int a, int b) const;

  /// True when guess g is the one guess tried for its orbit: the least of
  /// its class under the digit classes of the set (`cls`) and, when a
  /// group of history symmetries is known, the least of its orbit.
  bool orbit_representative(std::size_t g, const DigitClasses& cls, const Group* group, unsigned used) const;

  /// True when no element of the history group maps `d` to a code whose
  /// digit-class key is smaller than `own` (d's number, d class-least).
  bool orbit_least(const Code& d, int own, const Group& group, unsigned used, const DigitClasses& cls) const;

  /// Total for guess c (n for this guess plus the classes' optimal totals)
  /// if it is < best; false when cut. First every class's one-level bound
  /// (cheap), then the classes exactly, largest first.
  bool evaluate(const std::vector<std::uint16_t>& set, const Candidate& c, std::uint64_t best, std::uint64_t& out,
                const Group* group, unsigned used, int cap);

  const CodeSet& codes_;
  int p_;
  std::uint8_t solved_;
  std::uint64_t limit_;
  std::uint64_t nodes_ = 0;
  bool aborted_ = false;
  const std::atomic<bool>* cancel_ = nullptr;  ///< see stop_when
  unsigned alphabet_ = 0;
  /// Stop check (engine::throw_if_stopped) every 256 searched sets: each
  /// does a memo lookup and scores candidate guesses, so the tick is
  /// negligible and 256 of them stay far under a second.
  engine::StopPoll<256> poll_{};
  std::vector<std::uint64_t> lb_;
  std::vector<Code> digits_;
  std::vector<int> index_;             ///< code number → code index (-1: not a code)
  std::vector<std::uint64_t> member_;  ///< scratch membership bits (all zero between calls)
  std::unordered_map<std::vector<std::uint16_t>, Entry, VecHash> memo_;
  std::vector<std::uint64_t> within_;  ///< within_[cap]: see within()
  std::unordered_map<std::vector<std::uint16_t>, Reach, VecHash> reach_;
};

/// Solver::solve for a task that may give parts away while it runs
/// (engine::Subtasks; codes_split_search.cpp). The first levels below its
/// start are searched as solve searches them (Solver::search: the same
/// candidates in the same order, each evaluated against the best total
/// found so far, under the same cap);
/// as it starts a class of a candidate there it asks `wanted()` and then
/// gives away the next class not started of the shallowest candidate that
/// has one (at least kMinSplitSet secrets). The part solves that class with
/// a solver of its own, against the bound the candidate's running total
/// leaves it (so it is exact whenever the candidate's total is below its
/// bound: the sum is the same), and hands back the exact entries of its
/// strategy (Solver::strategy_of), which the candidate's solver learns when
/// the candidate's total is exact. So every value, every guess chosen and
/// so every strategy played is the one solve finds. Only the scored guesses
/// depend on what was given away: a class given away has a looser bound
/// than solve would give it after the classes before it, and a candidate
/// cut by its other classes stops its parts, losing what they did.
class SplitSearch {
public:
  /// Searches with `solver`'s memo; a part given away has a solver of its own.
  explicit SplitSearch(Solver& solver) : solver_(solver) {}
  SplitSearch(const SplitSearch&) = delete;
  SplitSearch& operator=(const SplitSearch&) = delete;

  /// As solver.solve(set, beta, group, used, cap): f(set) (under the cap)
  /// when it is < beta, stored in the solver's memo with its strategy;
  /// else a value ≥ beta.
  std::uint64_t solve(const std::vector<std::uint16_t>& set, std::uint64_t beta, const Group* group, unsigned used,
                      int cap = Solver::kNoCap);

  /// As solver.guess_total(set, c, beta, group, used), giving classes of
  /// `c` away.
  std::optional<std::uint64_t> guess_total(const std::vector<std::uint16_t>& set, const Candidate& c,
                                           std::uint64_t beta, const Group* group, unsigned used);

  /// Scored guesses of the parts given away (theirs included).
  [[nodiscard]] std::uint64_t part_nodes() const { return static_cast<std::uint64_t>(parts_done_.nodes); }

  /// Sets smaller than this are solved by Solver::solve, never given away.
  static constexpr std::size_t kMinSplitSet = 24;
  /// Levels of sets below the start searched this way (deeper: Solver::solve).
  static constexpr int kSplitLevels = 3;

private:
  struct Slot;
  struct Frame;
  std::uint64_t solve_at(const std::vector<std::uint16_t>& set, std::uint64_t beta, const Group* group, unsigned used,
                         int cap, int level);
  /// Solver::evaluate with classes given away (see the class comment).
  bool evaluate(const std::vector<std::uint16_t>& set, const Candidate& c, std::uint64_t best, std::uint64_t& out,
                const Group* group, unsigned used, int cap, int level);
  void give_shallowest();

  Solver& solver_;
  std::vector<Frame*> frames_;   ///< the candidates being evaluated, shallowest first
  engine::Tally parts_done_{0};  ///< the nodes of the parts joined
};

/// The exact f(set) (under `cap`) of a task's set, Solver::solve with no
/// bound: by a SplitSearch when the run splits tasks, else by `solver`
/// alone. Adds the scored guesses of the parts given away to `part_nodes`.
[[nodiscard]] std::uint64_t solve_task(Solver& solver, const std::vector<std::uint16_t>& set, const Group* group,
                                       unsigned used, std::uint64_t& part_nodes, int cap = Solver::kNoCap);

/// solver.guess_total(set, c, beta, group, used) of a task: by a
/// SplitSearch when the run splits tasks (as solve_task).
[[nodiscard]] std::optional<std::uint64_t> guess_total_task(Solver& solver, const std::vector<std::uint16_t>& set,
                                                            const Candidate& c, std::uint64_t beta, const Group* group,
                                                            unsigned used, std::uint64_t& part_nodes);

/// The first p digits of `d` as a decimal number (the code's number).
[[nodiscard]] int number(const Code& d, int p);
/// Digits outside the game's alphabet count as used (never "new").
[[nodiscard]] unsigned outside_alphabet(const CodeSet& codes);
/// The digits of code `c`.
[[nodiscard]] Code digits_of(const CodeSet& codes, std::size_t c);
/// The symmetries fixing the single guess `first` (pi defined on its digits).
[[nodiscard]] Group first_guess_group(const CodeSet& codes, std::size_t first);
/// The digits used once `first` is guessed (with those outside the alphabet).
[[nodiscard]] unsigned digits_used(const CodeSet& codes, std::size_t first);
/// The codes of `codes` in increasing order (the order the solver expects).
[[nodiscard]] std::vector<std::uint16_t> sorted(std::span<const std::uint16_t> codes);
/// The outcome of one solve: the exact total when the node limit was not
/// hit, else the best proven lower bound.
[[nodiscard]] OptimalSearch result_of(const Solver& solver, const std::vector<std::uint16_t>& set, std::uint64_t value);

}  // namespace pcount::games::codes
