#include "pcount/games/codes.hpp"

#include <algorithm>
#include <memory>
#include <string>

#include "pcount/errors.hpp"
#include "pcount/engine/split.hpp"
#include "pcount/engine/task.hpp"
#include "games/codes_optimal.hpp"

namespace pcount::games::codes {

namespace {

using Digits = std::vector<int>;

std::uint8_t score(Game game, const Digits& g, const Digits& s) {
  const std::size_t p = g.size();
  int exact = 0;
  for (std::size_t i = 0; i < p; ++i) exact += g[i] == s[i];
  int common = 0;
  if (game == Game::bulls_and_cows) {  // distinct digits: each matches at most once
    for (std::size_t i = 0; i < p; ++i)
      for (std::size_t j = 0; j < p; ++j) common += g[i] == s[j];
  } else {  // repeated colours: matches counted with multiplicity
    std::array<int, 10> cg{}, cs{};
    for (std::size_t i = 0; i < p; ++i) {
      ++cg[static_cast<std::size_t>(g[i])];
      ++cs[static_cast<std::size_t>(s[i])];
    }
    for (std::size_t c = 0; c < 10; ++c) common += std::min(cg[c], cs[c]);
  }
  return static_cast<std::uint8_t>(5 * exact + (common - exact));
}

/// Every code of `positions` symbols, in lexicographic order.
void enumerate(Game game, int positions, int symbols, Digits& prefix, std::vector<Digits>& out) {
  if (static_cast<int>(prefix.size()) == positions) {
    out.push_back(prefix);
    return;
  }
  const int lo = game == Game::mastermind ? 1 : 0;
  for (int x = lo; x < lo + symbols; ++x) {
    if (game == Game::bulls_and_cows && std::find(prefix.begin(), prefix.end(), x) != prefix.end()) continue;
    prefix.push_back(x);
    enumerate(game, positions, symbols, prefix, out);
    prefix.pop_back();
  }
}

}  // namespace

CodeSet::CodeSet(Game game) : CodeSet(game, 4, game == Game::bulls_and_cows ? 10 : 6) {}

CodeSet::CodeSet(Game game, int positions, int symbols) : game_(game), positions_(positions), symbols_(symbols) {
  if (positions < 1 || positions > 4)
    throw InvalidArgument("positions", "code games have 1 to 4 positions, got " + std::to_string(positions));
  if (game == Game::bulls_and_cows ? (symbols < positions || symbols > 10) : (symbols < 1 || symbols > 8))
    throw InvalidArgument("symbols", std::string(game == Game::bulls_and_cows ? "bulls and cows needs positions to 10"
                                                                                : "Mastermind needs 1 to 8") +
                                         " symbols, got " + std::to_string(symbols));
  std::vector<Digits> digits;
  Digits prefix;
  enumerate(game, positions, symbols, prefix, digits);
  const std::size_t n = digits.size();
  names_.reserve(n);
  for (const Digits& d : digits) {
    std::string s;
    for (int x : d) s += static_cast<char>('0' + x);
    names_.push_back(s);
  }
  table_.resize(n * n);
  if (game == Game::bulls_and_cows) {
    // Distinct digits: common digits = popcount of the digit sets' intersection.
    std::vector<unsigned> set(n);
    for (std::size_t i = 0; i < n; ++i)
      for (int x : digits[i]) set[i] |= 1u << x;
    const auto p = static_cast<std::size_t>(positions);
    for (std::size_t g = 0; g < n; ++g) {
      const Digits& dg = digits[g];
      std::uint8_t* row = &table_[g * n];
      for (std::size_t s = 0; s < n; ++s) {
        const Digits& ds = digits[s];
        int exact = 0;
        for (std::size_t i = 0; i < p; ++i) exact += dg[i] == ds[i];
        const int common = __builtin_popcount(set[g] & set[s]);
        row[s] = static_cast<std::uint8_t>(5 * exact + (common - exact));
      }
    }
  } else {
    for (std::size_t g = 0; g < n; ++g)
      for (std::size_t s = 0; s < n; ++s) table_[g * n + s] = score(game, digits[g], digits[s]);
  }
}

std::optional<std::size_t> CodeSet::find(std::string_view text) const {
  const auto it = std::lower_bound(names_.begin(), names_.end(), text);
  if (it == names_.end() || *it != text) return std::nullopt;
  return static_cast<std::size_t>(it - names_.begin());
}

const CodeSet& code_set(Game game) {
  if (game == Game::bulls_and_cows) {
    static const CodeSet bulls(Game::bulls_and_cows);
    return bulls;
  }
  static const CodeSet master(Game::mastermind);
  return master;
}

std::size_t next_guess(const CodeSet& codes, Strategy strategy, std::span<const std::uint16_t> consistent,
                       int guesses_made) {
  if (consistent.empty()) throw InternalError("code game: no code is consistent with the answers");
  if (strategy == Strategy::first_consistent || consistent.size() == 1) return consistent.front();
  if (strategy == Strategy::optimal) {
    if (guesses_made == 0) return *codes.find(optimal_first_guess(codes.game()));
    return optimal_guess(codes, consistent);
  }
  if (guesses_made == 0) return *codes.find(codes.game() == Game::mastermind ? "1122" : "0123");
  // Knuth's minimax: smallest largest class, then consistent, then lowest code.
  const std::size_t n = codes.size();
  std::size_t best = 0;
  std::size_t best_max = consistent.size() + 1;
  bool best_consistent = false;
  for (std::size_t g = 0; g < n; ++g) {
    std::array<std::uint16_t, kAnswers> count{};
    std::size_t largest = 0;
    bool worse = false;
    for (std::uint16_t s : consistent) {
      const std::size_t c = ++count[codes.answer(g, s)];
      if (c > largest) {
        largest = c;
        if (largest > best_max) {
          worse = true;
          break;
        }
      }
    }
    if (worse) continue;
    const bool is_consistent = count[kSolved] > 0;
    if (largest < best_max || (is_consistent && !best_consistent)) {
      best = g;
      best_max = largest;
      best_consistent = is_consistent;
    }
  }
  return best;
}

int play(const CodeSet& codes, Strategy strategy, std::size_t secret) {
  std::vector<std::uint16_t> consistent(codes.size());
  for (std::size_t i = 0; i < consistent.size(); ++i) consistent[i] = static_cast<std::uint16_t>(i);
  for (int made = 0; made < kMaxGuesses; ++made) {
    const std::size_t guess = next_guess(codes, strategy, consistent, made);
    const std::uint8_t a = codes.answer(guess, secret);
    if (a == kSolved) return made + 1;
    std::erase_if(consistent, [&](std::uint16_t c) { return codes.answer(guess, c) != a; });
  }
  throw InternalError("code game: strategy needs more than " + std::to_string(kMaxGuesses) + " guesses");
}

namespace {

/// Secrets solved per number of guesses (index = guesses), plus nodes.
struct Hist {
  std::array<std::uint64_t, kMaxGuesses + 1> solved{};
  std::uint64_t nodes = 0;
};

/// Partitions `set` by the answer to `guess`, stably, into `out` (same size);
/// `start` gets the offsets of the kAnswers classes (kAnswers + 1 entries).
void partition(const CodeSet& codes, std::size_t guess, std::span<const std::uint16_t> set, std::uint16_t* out,
               std::array<std::size_t, kAnswers + 1>& start) {
  std::array<std::size_t, kAnswers + 1> count{};
  for (std::uint16_t s : set) ++count[codes.answer(guess, s) + 1u];
  for (std::size_t a = 0; a < static_cast<std::size_t>(kAnswers); ++a) count[a + 1] += count[a];
  start = count;
  for (std::uint16_t s : set) out[count[codes.answer(guess, s)]++] = s;
}

/// Plays the strategy for every secret of the consistent set `set` at once
/// (the secrets reaching a node are exactly its consistent set). `work` holds
/// one buffer of codes.size() entries per depth, allocated once per task.
void walk(const CodeSet& codes, Strategy strategy, std::span<const std::uint16_t> set, int made,
          std::vector<std::vector<std::uint16_t>>& work, Hist& h) {
  if (made >= kMaxGuesses)
    throw InternalError("code game: strategy needs more than " + std::to_string(kMaxGuesses) + " guesses");
  ++h.nodes;
  engine::throw_if_stopped();  // a node partitions its set and picks a guess: the check is negligible
  const std::size_t guess = next_guess(codes, strategy, set, made);
  std::uint16_t* buf = work[static_cast<std::size_t>(made)].data();
  std::array<std::size_t, kAnswers + 1> start{};
  partition(codes, guess, set, buf, start);
  for (std::size_t a = 0; a < static_cast<std::size_t>(kAnswers); ++a) {
    const std::size_t len = start[a + 1] - start[a];
    if (len == 0) continue;
    if (a == kSolved) {
      h.solved[static_cast<std::size_t>(made + 1)] += len;
      continue;
    }
    walk(codes, strategy, std::span<const std::uint16_t>(buf + start[a], len), made + 1, work, h);
  }
}

void add_hist(const Hist& h, engine::Tally& out) {
  add_solved(h.solved, out);
  out.nodes = checked_add(out.nodes, h.nodes);
}

/// The answer classes of a node: class a is buf[start[a] .. start[a+1]).
using Starts = std::array<std::size_t, kAnswers + 1>;

/// Levels below a task's (or part's) start at which the split walk asks
/// whether to give a part away; deeper it runs `walk`.
constexpr int kWalkSplitLevels = 3;

/// `walk` for a task that may give parts away (engine::Subtasks): the same
/// histogram and nodes. Its frames are the nodes of its first
/// kWalkSplitLevels levels; as it starts an answer class of such a node it
/// asks `wanted()` and then gives away the classes not started yet of the
/// shallowest node that has some (copied, so the part owns them). A node
/// keeps the class it started, so a part never gives all of itself away.
class SplitWalk {
public:
  SplitWalk(const CodeSet& codes, Strategy strategy, int top, engine::Subtasks& parts)
      : codes_(codes),
        strategy_(strategy),
        top_(top),
        parts_(parts),
        work_(static_cast<std::size_t>(kMaxGuesses), std::vector<std::uint16_t>(codes.size())) {}

  /// walk() from the node whose consistent set is `set`.
  void node(std::span<const std::uint16_t> set, int made, Hist& h) {
    if (made - top_ >= kWalkSplitLevels) return walk(codes_, strategy_, set, made, work_, h);
    if (made >= kMaxGuesses)
      throw InternalError("code game: strategy needs more than " + std::to_string(kMaxGuesses) + " guesses");
    ++h.nodes;
    engine::throw_if_stopped();
    const std::size_t guess = next_guess(codes_, strategy_, set, made);
    std::uint16_t* buf = work_[static_cast<std::size_t>(made)].data();
    Starts start{};
    partition(codes_, guess, set, buf, start);
    classes(buf, start, 0, static_cast<std::size_t>(kAnswers), made, h);
  }

  /// The classes from..to-1 of a node after `made` guesses (the solved
  /// class counted as solved with made + 1 guesses).
  void classes(const std::uint16_t* buf, const Starts& start, std::size_t from, std::size_t to, int made, Hist& h) {
    Frame& f = frames_[static_cast<std::size_t>(made - top_)];
    f = Frame{buf, &start, from, to, made};
    while (f.next < f.end) {
      const std::size_t a = f.next++;
      const std::size_t len = start[a + 1] - start[a];
      if (len == 0) continue;
      if (a == kSolved) {
        h.solved[static_cast<std::size_t>(made + 1)] += len;
        continue;
      }
      if (parts_.wanted()) give_shallowest(made);
      node(std::span<const std::uint16_t>(buf + start[a], len), made + 1, h);
    }
  }

private:
  /// A node of the first levels: its classes next..end-1 are not started.
  struct Frame {
    const std::uint16_t* buf = nullptr;
    const Starts* start = nullptr;
    std::size_t next = 0, end = 0;
    int made = 0;
  };

  /// Gives away the classes not started of the shallowest open frame (up
  /// to the one at `made`) that has some.
  void give_shallowest(int made) {
    for (int level = 0; level <= made - top_; ++level) {
      Frame& f = frames_[static_cast<std::size_t>(level)];
      if (f.next >= f.end) continue;
      const Starts& start = *f.start;
      Starts own{};
      for (std::size_t a = f.next; a <= f.end; ++a) own[a] = start[a] - start[f.next];
      std::vector<std::uint16_t> set(f.buf + start[f.next], f.buf + start[f.end]);
      parts_.give([&codes = codes_, strategy = strategy_, set = std::move(set), own, from = f.next, to = f.end,
                   at = f.made](engine::Tally& out, std::string*) {
        engine::Subtasks more;
        Hist h;
        SplitWalk(codes, strategy, at, more).classes(set.data(), own, from, to, at, h);
        add_hist(h, out);
        more.join(out);
      });
      f.end = f.next;
      return;
    }
  }

  const CodeSet& codes_;
  Strategy strategy_;
  int top_;
  engine::Subtasks& parts_;
  std::vector<std::vector<std::uint16_t>> work_;
  std::array<Frame, kWalkSplitLevels> frames_{};
};

struct Frontier {
  std::vector<std::vector<std::uint16_t>> sets;  ///< consistent set of each task
  std::vector<int> made;                          ///< guesses made before the task
  Hist above;                                     ///< secrets solved and nodes above the split
};

Frontier expand(const CodeSet& codes, Strategy strategy, int depth) {
  Frontier f;
  std::vector<std::uint16_t> all(codes.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint16_t>(i);
  std::vector<std::vector<std::uint16_t>> level{all};
  std::vector<int> made{0};
  for (int d = 0; d < depth; ++d) {
    std::vector<std::vector<std::uint16_t>> next;
    std::vector<int> next_made;
    for (std::size_t i = 0; i < level.size(); ++i) {
      ++f.above.nodes;
      const std::size_t guess = next_guess(codes, strategy, level[i], made[i]);
      std::vector<std::uint16_t> buf(level[i].size());
      std::array<std::size_t, kAnswers + 1> start{};
      partition(codes, guess, level[i], buf.data(), start);
      for (std::size_t a = 0; a < static_cast<std::size_t>(kAnswers); ++a) {
        const std::size_t len = start[a + 1] - start[a];
        if (len == 0) continue;
        if (a == kSolved) {
          f.above.solved[static_cast<std::size_t>(made[i] + 1)] += len;
          continue;
        }
        next.emplace_back(buf.begin() + static_cast<std::ptrdiff_t>(start[a]),
                          buf.begin() + static_cast<std::ptrdiff_t>(start[a + 1]));
        next_made.push_back(made[i] + 1);
      }
    }
    level = std::move(next);
    made = std::move(next_made);
  }
  f.sets = std::move(level);
  f.made = std::move(made);
  return f;
}

}  // namespace

engine::Job make_strategy_job(Game game, Strategy strategy, int split_depth) {
  if (strategy == Strategy::optimal) {
    if (split_depth != 1)
      throw InvalidArgument("split_depth", "the optimal strategy is split by the first answer only: use 1, got " +
                                                 std::to_string(split_depth));
    return make_optimal_job(game);
  }
  if (split_depth < 0 || split_depth > 3)
    throw InvalidArgument("split_depth", "code games split by the first answers: expected 0 to 3, got " +
                                               std::to_string(split_depth));
  const CodeSet& codes = code_set(game);
  auto f = std::make_shared<const Frontier>(expand(codes, strategy, split_depth));
  engine::Job job;
  job.fingerprint = game_fingerprint(codes)
                        .add("strategy", strategy == Strategy::knuth ? "knuth" : "first-consistent")
                        .add("split", split_depth);
  job.counter_names = strategy_counter_names();
  // Task 0 exists even when every secret is solved above the split.
  job.task_count = std::max<std::size_t>(f->sets.size(), 1);
  job.split_depth = split_depth;
  job.estimate = [f](std::size_t id) {
    return id < f->sets.size() ? static_cast<double>(f->sets[id].size()) : 0.0;
  };
  job.run_task = [f, game, strategy](std::size_t id, engine::Tally& out) {
    const CodeSet& cs = code_set(game);
    Hist h = id == 0 ? f->above : Hist{};
    engine::Subtasks parts;
    if (id < f->sets.size() && parts.enabled()) {
      SplitWalk(cs, strategy, f->made[id], parts).node(f->sets[id], f->made[id], h);
    } else if (id < f->sets.size()) {
      std::vector<std::vector<std::uint16_t>> work(static_cast<std::size_t>(kMaxGuesses),
                                                   std::vector<std::uint16_t>(cs.size()));
      walk(cs, strategy, f->sets[id], f->made[id], work, h);
    }
    add_hist(h, out);
    parts.join(out);
  };
  job.splits = true;
  return job;
}

std::vector<std::string> strategy_counter_names() {
  std::vector<std::string> names{"secrets", "guesses"};
  for (int k = 1; k <= kMaxGuesses; ++k) names.push_back("solved_in_" + std::to_string(k));
  return names;
}

void add_solved(std::span<const std::uint64_t> solved, engine::Tally& out) {
  if (solved.size() > static_cast<std::size_t>(kMaxGuesses) + 1)
    throw InternalError("code game: strategy needs more than " + std::to_string(kMaxGuesses) + " guesses");
  u128 secrets = 0, guesses = 0;
  for (std::size_t k = 1; k < solved.size(); ++k) {
    secrets += solved[k];
    guesses += static_cast<u128>(solved[k]) * k;
    out.add(solved_in(static_cast<int>(k)), solved[k]);
  }
  out.add(kSecrets, secrets);
  out.add(kGuesses, guesses);
}

Summary summarize(const engine::Tally& totals) {
  constexpr u128 kMax64 = ~std::uint64_t{0};
  const auto fits = [&](std::size_t i) {
    if (totals.get(i) > kMax64)
      throw InternalError("code game: counter " + std::to_string(i) + " exceeds 64 bits");
    return static_cast<std::uint64_t>(totals.get(i));
  };
  if (totals.used() > kStrategyCounters)
    throw InternalError("code game: the totals have counters past solved_in_" + std::to_string(kMaxGuesses));
  Summary s;
  s.secrets = fits(kSecrets);
  s.guesses = fits(kGuesses);
  u128 secrets = 0, guesses = 0;
  for (int k = 1; k <= kMaxGuesses; ++k) {
    const std::uint64_t v = fits(solved_in(k));
    s.histogram.push_back(v);
    secrets += v;
    guesses += static_cast<u128>(v) * static_cast<unsigned>(k);
    if (v) s.max_guesses = k;
  }
  s.histogram.resize(static_cast<std::size_t>(s.max_guesses));
  if (secrets != s.secrets || guesses != s.guesses)
    throw InternalError("code game: the histogram does not add up to the secrets and guesses counters");
  return s;
}

}  // namespace pcount::games::codes
