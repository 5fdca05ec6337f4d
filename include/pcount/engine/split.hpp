#pragma once
/// @file
/// Splitting a task while it runs (lazy task creation).
///
/// The runner hands out whole tasks (engine/runner.hpp). A task that turns
/// out long would keep one thread busy while the others idle; so a kernel
/// may give parts of its running task away. It keeps one Subtasks per task
/// (or per given-away part) and asks `wanted()` at its nodes: true only
/// while some worker of the run is idle and no part given away is still
/// waiting to start (two relaxed atomic loads; no allocation). Then it
/// `give`s the work of an unexplored subtree (the shallowest one, so that
/// parts are large) and skips that subtree itself. oneTBB runs the part on
/// an idle worker (a task_group: the idle worker steals it from this
/// thread's deque) or, when none took it, on this thread in `join`.
///
/// What the user sees does not change: a part adds its counts to its own
/// Tally and writes its output to its own text; `join` adds the counts to
/// the task's tally and splices the texts where the part's subtree lies in
/// the walk's order (`place`), so the task is still recorded once, with the
/// same counts and the same text, whatever the thread count. The run's
/// cancel flag is in scope in every part (stop_requested(), task.hpp); a
/// part's TaskAbandoned or error reaches the task in `join`.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pcount/engine/task.hpp"

namespace pcount::engine {

/// How a running task is split (RunOptions::split). A job splits only when
/// its kernel uses Subtasks (Job::splits); the others run as `none`.
enum class SplitPolicy {
  none,    ///< "static": a task runs to its end on the thread that took it
  idle,    ///< "steal": parts are given away while a worker idles (the default)
  always,  ///< "split-always": one part is always on offer, even at 1 thread (tests)
};

namespace detail {
/// The run-wide state Subtasks reads (owned by the runner).
struct SplitState {
  SplitPolicy policy = SplitPolicy::idle;
  std::atomic<int> idle{0};              ///< workers with no task to run
  std::atomic<int> offered{0};           ///< parts given away, not yet started
  std::atomic<std::uint64_t> steals{0};  ///< parts run by another thread than their giver
  std::uint64_t run_id = 0;              ///< tells this run's idle threads from an earlier run's
  const std::atomic<bool>* cancel = nullptr;

  /// Whether a part given away now would likely be taken.
  [[nodiscard]] bool wanted() const noexcept {
    const int waiting = offered.load(std::memory_order_relaxed);
    if (policy == SplitPolicy::always) return waiting == 0;
    return idle.load(std::memory_order_relaxed) > waiting;
  }
};

/// The split state of the task the current thread runs; null outside a
/// task or when the run does not split.
[[nodiscard]] SplitState* current_split() noexcept;
}  // namespace detail

/// The parts one task (or one part) gives away; see the file comment.
/// Not thread-safe: one Subtasks belongs to the thread running its walk.
class Subtasks {
public:
  /// The work of a part: adds its counts to the Tally (zeroed, with the
  /// job's counters) and, when the text is not null, appends its output.
  using Part = std::function<void(Tally& out, std::string* text)>;

  /// Binds to the task the current thread runs. `text`: that task's (or
  /// part's) ordered output, or null when it writes none.
  explicit Subtasks(std::string* text = nullptr) noexcept;
  /// Waits for parts not joined (an exception is unwinding the walk): they
  /// are cancelled or finish, and their results are dropped.
  ~Subtasks();
  Subtasks(const Subtasks&) = delete;
  Subtasks& operator=(const Subtasks&) = delete;

  /// Whether this run may split at all (else wanted() is always false and
  /// a kernel may take its plain path).
  [[nodiscard]] bool enabled() const noexcept { return state_ != nullptr; }
  /// Whether to give a part away now (see the file comment).
  [[nodiscard]] bool wanted() const noexcept { return state_ != nullptr && state_->wanted(); }
  /// Gives `part` away; returns its number for place(). Only when enabled().
  std::size_t give(Part part);
  /// Marks that the output of part `number` goes at the current end of the
  /// text (where its subtree lies in the walk's order). Call once per part,
  /// in the walk's order; a part never placed goes at the end.
  void place(std::size_t number);
  /// Waits for every part, adds their counts to `out` and splices their
  /// texts at their places. Rethrows the first exception of a part.
  void join(Tally& out);

private:
  struct Given;
  struct Group;
  /// After the group's wait: takes the parts that never started off offer
  /// and drops the group.
  void withdraw() noexcept;
  detail::SplitState* state_;
  std::string* text_;
  std::vector<std::unique_ptr<Given>> given_;
  std::vector<std::pair<std::size_t, std::size_t>> places_;  ///< (text offset, part), in text order
  std::unique_ptr<Group> group_;                             ///< made at the first give
};

/// A part whose walk yields one count: calls `walk(more)` with a Subtasks
/// of its own (for the parts the walk gives away in turn), adds what it
/// returns (a u128) to counter `counter` of the part's Tally, then joins
/// those parts into it.
template <class Walk>
[[nodiscard]] Subtasks::Part counting_part(std::size_t counter, Walk walk) {
  return [counter, walk = std::move(walk)](Tally& out, std::string*) {
    Subtasks more;
    out.add(counter, walk(more));
    more.join(out);
  };
}

}  // namespace pcount::engine
