// The optimal code-breaking strategy as engine jobs: the first guess's
// answer classes solved exactly (make_optimal_job), the split by second
// guess (OptimalSplit), and the solver's front ends (codes_optimal.hpp).
// The solver itself is codes_solver.cpp.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include "pcount/errors.hpp"
#include "pcount/engine/task.hpp"
#include "pcount/games/codes.hpp"
#include "games/codes_optimal.hpp"
#include "games/codes_solver.hpp"

namespace pcount::games::codes {

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
      throw InternalError("optimal strategy: the tree of class " + answer_name(answers[i]) +
                          " was not built by this run");
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
  for (std::size_t s = 0; s < codes.size(); ++s)
    by_answer[codes.answer(first, s)].push_back(static_cast<std::uint16_t>(s));
  for (std::size_t a = 0; a < by_answer.size(); ++a)
    if (a != codes.solved() && !by_answer[a].empty()) {
      classes.push_back(by_answer[a]);
      answers.push_back(static_cast<std::uint8_t>(a));
    }
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

engine::Fingerprint game_fingerprint(const CodeSet& codes) {
  engine::Fingerprint fp(codes.game() == Game::mastermind ? "mastermind" : "bulls-and-cows");
  const bool full = codes.positions() == 4 && codes.symbols() == (codes.game() == Game::mastermind ? 6 : 10);
  if (!full) fp.add("positions", codes.positions()).add("symbols", codes.symbols());
  return fp;
}

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
  job.fingerprint = game_fingerprint(codes).add("strategy", "optimal").add("first", codes.name(first));
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
    std::uint64_t part_nodes = 0;
    const std::uint64_t total = solve_task(solver, set, group.get(), used, part_nodes);
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
    out.nodes = u128{solver.nodes()} + part_nodes;
  };
  job.splits = true;
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
  std::string bounds;
  for (std::size_t i = 0; i < p.bounds.size(); ++i) {
    if (i > 0) bounds += ',';
    bounds += std::to_string(p.bounds[i]);
  }
  job.fingerprint = game_fingerprint(codes)
                        .add("strategy", "optimal")
                        .add("first", codes.name(p.first))
                        .add("split", "second-guess")
                        .add("bounds", bounds);
  for (std::size_t id = 0; id < p.tasks.size(); ++id) {
    const SplitPlan::Task& t = p.tasks[id];
    const std::string stem =
        answer_name(p.answers[t.cls]) + "_" + (t.whole ? std::string("all") : codes.name(t.second.guess)) + "_";
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
    std::uint64_t part_nodes = 0;
    if (t.whole) {
      total = solve_task(solver, set, &plan->group, plan->used, part_nodes);
      play_optimal(solver, cs, set, 1, solved);
      if (trees) tree = optimal_subtree(solver, cs, set);
    } else {
      const std::optional<std::uint64_t> v =
          guess_total_task(solver, set, t.second, plan->bounds[t.cls] + 1, &plan->group, plan->used, part_nodes);
      out.nodes = u128{solver.nodes()} + part_nodes;
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
    out.nodes = u128{solver.nodes()} + part_nodes;
    if (tree) {
      std::lock_guard lock(trees->mutex);
      trees->trees[id] = std::move(*tree);
    }
  };
  job.splits = true;
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
    const std::string name =
        answer_name(p.answers[t.cls]) + " " + (t.whole ? "(whole class)" : p.codes->name(t.second.guess));
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
    if (id == p.tasks.size())  // a user's bound, never a bound tree's (a tree's totals are reached)
      throw InvalidArgument("--class-bounds", "every second guess of class " + answer_name(p.answers[i]) +
                                                  " needs more than its bound " + std::to_string(p.bounds[i]) +
                                                  ": the bound is below the optimum; raise it");
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
      throw InvalidArgument("bound tree",
                            "no subtree for the answer " + answer_name(answers[i]) + " to " + codes.name(first));
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
    if (a == codes.solved())
      ++solved[static_cast<std::size_t>(made + 1)];
    else
      classes[a].push_back(s);
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

}  // namespace pcount::games::codes
