// The optimal strategy's branch and bound splitting its task while it runs
// (SplitSearch, codes_solver.hpp): the classes a candidate guess leaves are
// summed, so they can be solved on other threads, each exact below the
// bound the candidate's running total leaves it.
#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "pcount/engine/split.hpp"
#include "games/codes_solver.hpp"

namespace pcount::games::codes {

/// A class given away and what its part found.
struct SplitSearch::Slot {
  std::vector<std::uint16_t> set;
  std::size_t answer = 0;  ///< the class's answer to the candidate
  std::uint64_t beta = 0;  ///< exact below this
  int cap = Solver::kNoCap;
  std::optional<std::uint64_t> value;
  std::vector<Solver::Known> known;  ///< the strategy found, when exact
};

/// A candidate being evaluated: its classes in solving order, from `next`
/// not started yet.
struct SplitSearch::Frame {
  const Solver::AfterGuess& after;
  const std::array<std::size_t, kAnswers>& order;
  std::size_t next = 0;
  std::size_t end = 0;  ///< its non-empty classes
  std::uint64_t best = 0;
  int cap = Solver::kNoCap;    ///< the classes' cap
  const std::uint64_t& total;  ///< n + the classes' values or bounds so far
  const std::array<std::uint64_t, kAnswers>& bound;
  engine::Subtasks& parts;
  std::vector<std::shared_ptr<Slot>>& slots;
  std::shared_ptr<const std::atomic<bool>> dropped;  ///< set when the parts' results are no longer needed
};

namespace {
/// Sets a flag when it goes out of scope: declared after a Subtasks, it
/// stops the parts still running before the Subtasks waits for them.
class SetOnExit {
public:
  explicit SetOnExit(std::atomic<bool>& flag) : flag_(flag) {}
  ~SetOnExit() { flag_.store(true, std::memory_order_relaxed); }
  SetOnExit(const SetOnExit&) = delete;
  SetOnExit& operator=(const SetOnExit&) = delete;

private:
  std::atomic<bool>& flag_;
};

/// Keeps a frame on the stack of open frames while it is evaluated.
template <class Frame>
class Open {
public:
  Open(std::vector<Frame*>& frames, Frame& f) : frames_(frames) { frames_.push_back(&f); }
  ~Open() { frames_.pop_back(); }
  Open(const Open&) = delete;
  Open& operator=(const Open&) = delete;

private:
  std::vector<Frame*>& frames_;
};
}  // namespace

std::uint64_t SplitSearch::solve(const std::vector<std::uint16_t>& set, std::uint64_t beta, const Group* group,
                                 unsigned used, int cap) {
  return solve_at(set, beta, group, used, cap, 0);
}

std::uint64_t SplitSearch::solve_at(const std::vector<std::uint16_t>& set, std::uint64_t beta, const Group* group,
                                    unsigned used, int cap, int level) {
  if (level >= kSplitLevels || set.size() < kMinSplitSet) return solver_.solve(set, beta, group, used, cap);
  return solver_.search(set, beta, group, used, cap, [&](const Candidate& c, std::uint64_t best, std::uint64_t& out) {
    return evaluate(set, c, best, out, group, used, cap, level);
  });
}

std::optional<std::uint64_t> SplitSearch::guess_total(const std::vector<std::uint16_t>& set, const Candidate& c,
                                                      std::uint64_t beta, const Group* group, unsigned used) {
  std::uint64_t v = 0;
  if (c.bound >= beta || !evaluate(set, c, beta, v, group, used, Solver::kNoCap, 0)) return std::nullopt;
  return v;
}

bool SplitSearch::evaluate(const std::vector<std::uint16_t>& set, const Candidate& c, std::uint64_t best,
                           std::uint64_t& out, const Group* group, unsigned used, int cap, int level) {
  const Solver::AfterGuess after = solver_.after_guess(set, c.guess, group, used);
  const std::array<std::size_t, kAnswers> order = Solver::class_order(after);
  std::array<std::uint64_t, kAnswers> bound{};
  std::uint64_t total = 0;
  if (!solver_.class_bounds(after, order, c, best, bound, total)) return false;
  engine::Subtasks parts;
  // A candidate cut (or stopped) before its parts end stops them: their
  // classes no longer count, and the Subtasks waits for those running.
  const auto dropped = std::make_shared<std::atomic<bool>>(false);
  const SetOnExit drop(*dropped);
  std::vector<std::shared_ptr<Slot>> slots;
  std::size_t classes = 0;
  while (classes < order.size() && !after.classes[order[classes]].empty()) ++classes;
  const int below = cap < Solver::kNoCap ? cap - 1 : Solver::kNoCap;
  Frame f{after, order, 0, classes, best, below, total, bound, parts, slots, dropped};
  {
    const Open<Frame> open(frames_, f);
    while (f.next < f.end) {
      const std::size_t a = order[f.next++];
      engine::throw_if_stopped();  // a class of a large set: seconds of work at the top
      if (parts.wanted()) give_shallowest();
      const std::uint64_t rest = total - bound[a];
      total = rest + solve_at(after.classes[a], best - rest, after.symmetries(), after.used, below, level + 1);
      if (total >= best) return false;  // the parts not started are dropped
    }
  }
  parts.join(parts_done_);
  for (const auto& slot : slots) {
    if (!slot->value) return false;  // ≥ its bound: the candidate's total is ≥ best
    total += *slot->value - bound[slot->answer];
  }
  if (total >= best) return false;
  for (const auto& slot : slots) solver_.learn(slot->known);
  out = total;
  return true;
}

void SplitSearch::give_shallowest() {
  for (Frame* f : frames_) {
    if (f->next >= f->end || f->after.classes[f->order[f->next]].size() < kMinSplitSet) continue;
    auto slot = std::make_shared<Slot>();
    slot->answer = f->order[f->next++];
    slot->set = f->after.classes[slot->answer];
    slot->beta = f->best - (f->total - f->bound[slot->answer]);
    slot->cap = f->cap;
    f->slots.push_back(slot);
    f->parts.give([slot, group = f->after.group, used = f->after.used, &codes = solver_.codes(), dropped = f->dropped](
                      engine::Tally& out, std::string*) {
      Solver solver(codes);
      solver.stop_when(dropped.get());
      SplitSearch search(solver);
      const std::uint64_t v = search.solve(slot->set, slot->beta, group.size() > 1 ? &group : nullptr, used, slot->cap);
      if (v < slot->beta && !solver.aborted()) {
        slot->value = v;
        slot->known = solver.strategy_of(slot->set, slot->cap);
      }
      out.nodes = u128{solver.nodes()} + search.part_nodes();
    });
    return;
  }
}

std::uint64_t solve_task(Solver& solver, const std::vector<std::uint16_t>& set, const Group* group, unsigned used,
                         std::uint64_t& part_nodes, int cap) {
  if (!engine::Subtasks().enabled()) return solver.solve(set, Solver::kInfinity, group, used, cap);
  SplitSearch search(solver);
  const std::uint64_t v = search.solve(set, Solver::kInfinity, group, used, cap);
  part_nodes += search.part_nodes();
  return v;
}

std::optional<std::uint64_t> guess_total_task(Solver& solver, const std::vector<std::uint16_t>& set, const Candidate& c,
                                              std::uint64_t beta, const Group* group, unsigned used,
                                              std::uint64_t& part_nodes) {
  if (!engine::Subtasks().enabled()) return solver.guess_total(set, c, beta, group, used);
  SplitSearch search(solver);
  const std::optional<std::uint64_t> v = search.guess_total(set, c, beta, group, used);
  part_nodes += search.part_nodes();
  return v;
}

}  // namespace pcount::games::codes
