// The worst-case code-breaking strategies as an engine job: for each first
// guess orbit and each depth cap, the least total within the cap
// (make_worst_case_job, codes_optimal.hpp), on the solver of codes_solver.cpp.
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
  job.fingerprint =
      game_fingerprint(codes).add("strategy", "optimal").add("objective", "worst-case").add("caps", kWorstCaps);
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
    std::uint64_t part_nodes = 0;  // (the job reports no nodes)
    const std::uint64_t plain = solve_task(solver, t.set, group, u, part_nodes);
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
      const std::uint64_t total = cap == Solver::kNoCap ? plain : solve_task(solver, t.set, group, u, part_nodes, cap);
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
  job.splits = true;
  return job;
}

}  // namespace pcount::games::codes
