#include "pcount/engine/split.hpp"

#include <algorithm>
#include <exception>
#include <thread>

#include <tbb/task_group.h>

#include "engine/task_context.hpp"

namespace pcount::engine {

/// One part given away: its results, kept until join.
struct Subtasks::Given {
  Tally tally;
  std::string text;
  bool started = false;  ///< set by the thread that runs it
};

/// The oneTBB task group the parts run in.
struct Subtasks::Group {
  tbb::task_group tasks;
};

Subtasks::Subtasks(std::string* text) noexcept : state_(detail::current_split()), text_(text) {}

Subtasks::~Subtasks() {
  if (!group_) return;
  group_->tasks.cancel();  // parts not started yet are skipped
  try {
    group_->tasks.wait();
  } catch (...) {  // the walk's own exception is the one that counts
  }
  withdraw();
}

void Subtasks::withdraw() noexcept {
  // A part never started (the group was cancelled: an exception, a stop)
  // is no longer on offer; else the run would think one still waits.
  for (const auto& given : given_)
    if (!given->started) state_->offered.fetch_sub(1, std::memory_order_relaxed);
  group_.reset();
}

std::size_t Subtasks::give(Part part) {
  detail::SplitState* state = state_;
  if (!group_) group_ = std::make_unique<Group>();
  auto given = std::make_unique<Given>();
  given->tally = Tally(0);
  Given* out = given.get();
  given_.push_back(std::move(given));
  const bool with_text = text_ != nullptr;
  const std::thread::id giver = std::this_thread::get_id();
  state->offered.fetch_add(1, std::memory_order_relaxed);
  group_->tasks.run([state, out, with_text, giver, part = std::move(part)] {
    state->offered.fetch_sub(1, std::memory_order_relaxed);
    out->started = true;
    if (std::this_thread::get_id() != giver) state->steals.fetch_add(1, std::memory_order_relaxed);
    const detail::BusyScope busy(*state);
    const detail::TaskScope scope(state->cancel, state);
    part(out->tally, with_text ? &out->text : nullptr);
  });
  return given_.size() - 1;
}

void Subtasks::place(std::size_t number) {
  if (text_) places_.emplace_back(text_->size(), number);
}

void Subtasks::join(Tally& out) {
  if (!group_) return;
  try {
    const detail::IdleScope waiting(*state_);  // the walk wants parts of other tasks meanwhile
    group_->tasks.wait();
  } catch (...) {
    withdraw();
    throw;
  }
  group_.reset();
  for (const auto& given : given_) out.merge(given->tally);
  if (text_) {
    std::vector<char> placed(given_.size(), 0);
    for (const auto& at : places_) placed[at.second] = 1;
    for (std::size_t g = 0; g < given_.size(); ++g)
      if (!placed[g]) places_.emplace_back(text_->size(), g);
    std::string joined;
    std::size_t from = 0;
    for (const auto& [offset, g] : places_) {
      joined.append(*text_, from, offset - from);
      joined += given_[g]->text;
      from = offset;
    }
    joined.append(*text_, from);
    *text_ = std::move(joined);
  }
  given_.clear();
  places_.clear();
}

}  // namespace pcount::engine
