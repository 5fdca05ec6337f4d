// The branch-and-bound solver of codes_solver.hpp: the least total number
// of guesses over a set of secrets, by best-first search over one guess per
// symmetry orbit with memoised exact values and lower bounds.
#include "games/codes_solver.hpp"

#include <algorithm>
#include <deque>
#include <memory>
#include <string>

#include "pcount/errors.hpp"

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
      if (d_new != img_new)
        ok = false;
      else if (x.pi[static_cast<std::size_t>(d)] >= 0)
        ok = x.pi[static_cast<std::size_t>(d)] == img;
      else
        x.pi[static_cast<std::size_t>(d)] = img;
    }
    if (!ok) continue;
    std::array<int, 10> hit{};  // pi must stay injective
    for (int v : x.pi)
      if (v >= 0 && hit[static_cast<std::size_t>(v)]++) ok = false;
    if (ok) out.push_back(x);
  }
  return out;
}

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

}  // namespace

int number(const Code& d, int p) {
  int k = 0;
  for (std::size_t i = 0; i < static_cast<std::size_t>(p); ++i) k = 10 * k + d[i];
  return k;
}

Solver::Solver(const CodeSet& codes, std::uint64_t node_limit)
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
    within_[d] =
        std::min<std::uint64_t>(codes.size(), 1 + static_cast<std::uint64_t>(branching(codes)) * within_[d - 1]);
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

int Solver::stored_depth(const std::vector<std::uint16_t>& set) const {
  if (set.size() <= 2) return static_cast<int>(set.size());
  const auto it = memo_.find(set);
  return it != memo_.end() && it->second.exact ? it->second.depth : kNoCap;
}

bool Solver::feasible(const std::vector<std::uint16_t>& set, int cap, const Group* group, unsigned used) {
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
    AfterGuess after = after_guess(set, t.guess, group, used);
    auto& classes = after.classes;
    std::sort(classes.begin(), classes.end(), [](const auto& x, const auto& y) { return x.size() > y.size(); });
    bool all = true;
    for (const auto& c : classes) {
      if (c.size() <= 1) break;
      if (!feasible(c, cap - 1, after.symmetries(), after.used)) {
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

int Solver::min_depth(const std::vector<std::uint16_t>& set, const Group* group, unsigned used) {
  for (int cap = 1; cap < kNoCap; ++cap)
    if (feasible(set, cap, group, used)) return cap;
  throw InternalError("optimal strategy: no strategy within 254 guesses");
}

std::size_t Solver::count_candidates(const std::vector<std::uint16_t>& set, const Group* group, unsigned used) {
  const DigitClasses cls = digit_classes(set);
  std::size_t k = 0;
  for (std::size_t g = 0; g < codes_.size(); ++g)
    if (orbit_representative(g, cls, group, used)) ++k;
  return k;
}

std::vector<Candidate> Solver::root_candidates(const std::vector<std::uint16_t>& set, const Group* group,
                                               unsigned used) {
  return candidates(set, group, used, kNoCap);
}

std::optional<std::uint64_t> Solver::guess_total(const std::vector<std::uint16_t>& set, const Candidate& c,
                                                 std::uint64_t beta, const Group* group, unsigned used) {
  if (c.bound >= beta) return std::nullopt;
  std::uint64_t v = 0;
  if (!evaluate(set, c, beta, v, group, used, kNoCap)) return std::nullopt;
  return v;
}

std::size_t Solver::best_guess(const std::vector<std::uint16_t>& set, int cap) {
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

std::optional<std::uint64_t> Solver::settle(const std::vector<std::uint16_t>& set, std::uint64_t beta,
                                            const Group* group, unsigned used, int cap, std::uint64_t& known_lb,
                                            std::vector<std::uint16_t>& capped_key) {
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
    capped_key = capped(set, cap);
  }
  poll_.tick();
  if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) {
    aborted_ = true;
    return beta;
  }
  auto memo = memo_.find(cap < kNoCap ? capped_key : set);
  if (memo != memo_.end() && (memo->second.exact || memo->second.value >= beta)) return memo->second.value;
  known_lb = std::max({lb_[n], plain_lb, memo != memo_.end() ? memo->second.value : std::uint64_t{0}});
  if (known_lb >= beta) return known_lb;
  return std::nullopt;
}

std::vector<Candidate> Solver::candidates(const std::vector<std::uint16_t>& set, const Group* group, unsigned used,
                                          int cap) {
  const DigitClasses cls = digit_classes(set);
  std::vector<Candidate> cands;
  cands.reserve(256);
  for (std::size_t g = 0; g < codes_.size(); ++g) {
    if (!orbit_representative(g, cls, group, used)) continue;
    if (++nodes_ > limit_) {
      aborted_ = true;
      return {};
    }
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
  return cands;
}

std::uint64_t Solver::least_bound(std::uint64_t known_lb, const std::vector<Candidate>& cands, std::uint64_t beta,
                                  int cap) {
  return std::max(known_lb, cands.empty() ? (cap < kNoCap ? kInfinity : beta) : cands.front().bound);
}

std::uint64_t Solver::conclude(const std::vector<std::uint16_t>& set, const std::vector<std::uint16_t>& key, int cap,
                               std::uint64_t value, std::optional<std::size_t> guess) {
  if (!guess) return store(key, value, false);
  return store(key, value, true, *guess, cap < kNoCap ? cap : depth_of(set, *guess));
}

std::uint64_t Solver::solve(const std::vector<std::uint16_t>& set, std::uint64_t beta, const Group* group,
                            unsigned used, int cap) {
  return search(set, beta, group, used, cap, [&](const Candidate& c, std::uint64_t best, std::uint64_t& out) {
    return evaluate(set, c, best, out, group, used, cap);
  });
}

std::uint64_t Solver::one_level_bound(const std::vector<std::uint16_t>& set) {
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

std::vector<Solver::Known> Solver::strategy_of(const std::vector<std::uint16_t>& set, int cap) const {
  // As best_guess: under a cap, the plain strategy where its depth fits.
  std::vector<Known> out;
  std::vector<std::pair<const std::vector<std::uint16_t>*, int>> todo{{&set, cap}};
  std::deque<std::vector<std::uint16_t>> reached;  // the classes (a deque keeps them in place)
  while (!todo.empty()) {
    auto [s, c] = todo.back();
    todo.pop_back();
    if (c < kNoCap && stored_depth(*s) <= c) c = kNoCap;
    const std::vector<std::uint16_t> key = c < kNoCap ? capped(*s, c) : *s;
    const auto it = memo_.find(key);
    if (it == memo_.end() || !it->second.exact) throw InternalError("optimal strategy: no exact value for a set");
    out.push_back({key, it->second.value, it->second.guess, it->second.depth});
    std::array<std::vector<std::uint16_t>, kAnswers> classes;
    const std::uint8_t* row = codes_.row(it->second.guess);
    for (std::uint16_t x : *s)
      if (row[x] != solved_) classes[row[x]].push_back(x);
    for (auto& k : classes)
      if (k.size() >= 3) {
        reached.push_back(std::move(k));
        todo.emplace_back(&reached.back(), c < kNoCap ? c - 1 : kNoCap);
      }
  }
  return out;
}

void Solver::learn(const std::vector<Known>& known) {
  for (const Known& k : known) store(k.set, k.value, true, k.guess, k.depth);
}

std::optional<Candidate> Solver::score(const std::vector<std::uint16_t>& set, std::size_t g,
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

void Solver::sort_candidates(std::vector<Candidate>& cands) {
  std::stable_sort(cands.begin(), cands.end(), [](const Candidate& x, const Candidate& y) {
    return x.bound != y.bound ? x.bound < y.bound : x.consistent > y.consistent;
  });
}

std::vector<std::uint16_t> Solver::capped(const std::vector<std::uint16_t>& set, int cap) {
  std::vector<std::uint16_t> key;
  key.reserve(set.size() + 1);
  key = set;
  key.push_back(static_cast<std::uint16_t>(0xF000u | static_cast<unsigned>(cap)));
  return key;
}

int Solver::depth_of(const std::vector<std::uint16_t>& set, std::size_t guess) const {
  std::array<std::vector<std::uint16_t>, kAnswers> classes;
  const std::uint8_t* row = codes_.row(guess);
  for (std::uint16_t s : set)
    if (row[s] != solved_) classes[row[s]].push_back(s);
  int deepest = 0;
  for (const auto& c : classes)
    if (!c.empty()) deepest = std::max(deepest, stored_depth(c));
  return std::min(kNoCap, deepest + 1);
}

std::uint64_t Solver::store(const std::vector<std::uint16_t>& set, std::uint64_t value, bool exact, std::size_t guess,
                            int depth) {
  if (aborted_) return value;
  if (memo_.size() >= kMemoLimit && !exact) return value;
  auto [it, fresh] = memo_.try_emplace(set, Entry{value, exact, guess, depth});
  if (!fresh && !it->second.exact) it->second = Entry{std::max(value, it->second.value), exact, guess, depth};
  return value;
}

DigitClasses Solver::digit_classes(const std::vector<std::uint16_t>& set) {
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

bool Solver::swap_preserves(const std::vector<std::uint16_t>& set, int a, int b) const {
  for (std::uint16_t s : set) {
    Code d = digits_[s];
    bool moved = false;
    for (std::size_t i = 0; i < static_cast<std::size_t>(p_); ++i) {
      if (d[i] == a)
        d[i] = b, moved = true;
      else if (d[i] == b)
        d[i] = a, moved = true;
    }
    if (!moved) continue;
    const int t = index_[static_cast<std::size_t>(number(d, p_))];
    if (t < 0 || !(member_[static_cast<std::size_t>(t) >> 6] >> (t & 63) & 1u)) return false;
  }
  return true;
}

bool Solver::orbit_representative(std::size_t g, const DigitClasses& cls, const Group* group, unsigned used) const {
  const Code& d = digits_[g];
  const int own = number(d, p_);
  if (class_key(d, p_, cls) != own) return false;
  return !(group && group->size() > 1 && !orbit_least(d, own, *group, used, cls));
}

bool Solver::orbit_least(const Code& d, int own, const Group& group, unsigned used, const DigitClasses& cls) const {
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

Solver::AfterGuess Solver::after_guess(const std::vector<std::uint16_t>& set, std::size_t guess, const Group* group,
                                       unsigned used) const {
  AfterGuess after;
  if (group && group->size() > 1) after.group = fixing(*group, digits_[guess], p_, used);
  after.used = used;
  for (std::size_t i = 0; i < static_cast<std::size_t>(p_); ++i) after.used |= 1u << digits_[guess][i];
  const std::uint8_t* row = codes_.row(guess);
  for (std::uint16_t s : set)
    if (row[s] != solved_) after.classes[row[s]].push_back(s);
  return after;
}

std::array<std::size_t, kAnswers> Solver::class_order(const AfterGuess& after) {
  const auto& classes = after.classes;
  std::array<std::size_t, kAnswers> order{};
  for (std::size_t a = 0; a < order.size(); ++a) order[a] = a;
  std::sort(order.begin(), order.end(),
            [&](std::size_t x, std::size_t y) { return classes[x].size() > classes[y].size(); });
  return order;
}

bool Solver::class_bounds(const AfterGuess& after, const std::array<std::size_t, kAnswers>& order, const Candidate& c,
                          std::uint64_t best, std::array<std::uint64_t, kAnswers>& bound, std::uint64_t& total) {
  total = c.bound;  // n + Σ lb(class size)
  for (std::size_t a : order) {
    const std::size_t k = after.classes[a].size();
    if (k == 0) break;
    bound[a] = lb_[k];
    if (k < 3) continue;
    const std::uint64_t v = one_level_bound(after.classes[a]);
    total += v - bound[a];
    bound[a] = v;
    if (total >= best) return false;
  }
  return true;
}

bool Solver::evaluate(const std::vector<std::uint16_t>& set, const Candidate& c, std::uint64_t best, std::uint64_t& out,
                      const Group* group, unsigned used, int cap) {
  const AfterGuess after = after_guess(set, c.guess, group, used);
  const auto& classes = after.classes;
  const std::array<std::size_t, kAnswers> order = class_order(after);
  std::array<std::uint64_t, kAnswers> bound{};
  std::uint64_t total = 0;
  if (!class_bounds(after, order, c, best, bound, total)) return false;
  for (std::size_t a : order) {
    const std::size_t k = classes[a].size();
    if (k == 0) break;
    const std::uint64_t rest = total - bound[a];
    const std::uint64_t v =
        solve(classes[a], best - rest, after.symmetries(), after.used, cap < kNoCap ? cap - 1 : kNoCap);
    total = rest + v;
    if (total >= best || aborted_) return false;
  }
  out = total;
  return true;
}

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

std::vector<std::uint16_t> sorted(std::span<const std::uint16_t> codes) {
  std::vector<std::uint16_t> set(codes.begin(), codes.end());
  std::sort(set.begin(), set.end());
  return set;
}

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

}  // namespace pcount::games::codes
