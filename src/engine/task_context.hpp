#pragma once
/// @file
/// What the current thread knows about the task it runs (engine-internal):
/// the run's cancel flag (stop_requested, task.hpp) and split state
/// (Subtasks, engine/split.hpp), and whether it idles.

#include <atomic>

#include "pcount/engine/split.hpp"

namespace pcount::engine::detail {

/// Makes `cancel` and `split` the current thread's task context while it
/// lives, and restores the previous one after (a task may itself call
/// engine::run; an inner run without a cancel flag keeps the outer one's).
class TaskScope {
public:
  TaskScope(const std::atomic<bool>* cancel, SplitState* split) noexcept;
  ~TaskScope();
  TaskScope(const TaskScope&) = delete;
  TaskScope& operator=(const TaskScope&) = delete;

private:
  const std::atomic<bool>* saved_cancel_;
  SplitState* saved_split_;
};

/// Counts the current thread as idle in `state` (it found no task to take).
void mark_idle(SplitState& state) noexcept;

/// While it lives, the current thread counts as idle in `state` (it waits
/// for parts of its task, Subtasks::join), unless it already did.
class IdleScope {
public:
  explicit IdleScope(SplitState& state) noexcept;
  ~IdleScope();
  IdleScope(const IdleScope&) = delete;
  IdleScope& operator=(const IdleScope&) = delete;

private:
  SplitState& state_;
  bool marked_;
};

/// While it lives, the current thread is busy: when it was idle in
/// `state`, the idle count drops, and rises again at the end.
class BusyScope {
public:
  explicit BusyScope(SplitState& state) noexcept;
  ~BusyScope();
  BusyScope(const BusyScope&) = delete;
  BusyScope& operator=(const BusyScope&) = delete;

private:
  SplitState& state_;
  bool was_idle_;
};

}  // namespace pcount::engine::detail
