// Splitting a task while it runs (engine/split.hpp): a BranchingTree walk
// gives parts of its task away; counts, nodes and ordered output stay those
// of the sequential walk, and an idle thread really takes parts.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "pcount/engine/listing.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/engine/split.hpp"
#include "pcount/engine/tree.hpp"

namespace pcount::engine {
namespace {

/// A tree whose root has 10 children: child 0 (heavy) branches 9, 9, then
/// 2 for `tail` levels (81·2^tail leaves); children 1–9 branch 2 for `tail`
/// levels (2^tail leaves each). So child 0 holds 90 % of the 90·2^tail
/// leaves. A node keeps its path (one hex digit per choice) for `write`.
/// `hook`, when set, is called at every node the walk enters.
struct SkewedTree {
  struct Node {
    std::uint64_t path = 0;
    int depth = 0;
    bool heavy = false;
  };
  int tail = 10;
  const std::function<void(const Node& node, bool leaf)>* hook = nullptr;

  [[nodiscard]] int height(const Node& n) const { return n.depth == 0 ? 1 : (n.heavy ? 3 : 1) + tail; }
  [[nodiscard]] int width(const Node& n) const {
    if (n.depth == 0) return 10;
    return n.heavy && n.depth <= 2 ? 9 : 2;
  }
  [[nodiscard]] Node root() const { return {}; }
  [[nodiscard]] bool is_leaf(const Node& n) const {
    const bool leaf = n.depth > 0 && n.depth == height(n);
    if (hook) (*hook)(n, leaf);
    return leaf;
  }
  [[nodiscard]] std::uint64_t candidates(const Node& n) const { return (std::uint64_t{1} << width(n)) - 1; }
  [[nodiscard]] Node child(const Node& n, int i) const {
    return {n.path * 16 + static_cast<std::uint64_t>(i), n.depth + 1, n.depth == 0 ? i == 0 : n.heavy};
  }
  void write(const Node& n, bool json, std::string& text) const {
    text += (json ? "{\"path\":" : "") + std::to_string(n.path) + (json ? "}\n" : "\n");
  }
};
static_assert(BranchingTree<SkewedTree>);

constexpr std::uint64_t kLeaves = 90 * 1024;  // tail 10

RunResult run_with(const Job& job, int threads, SplitPolicy split, const std::atomic<bool>* cancel = nullptr) {
  RunOptions o;
  o.threads = threads;
  o.split = split;
  o.cancel = cancel;
  return run(job, o);
}

TEST(Split, SkewedTreeCountsRightForEveryThreadCountAndPolicy) {
  auto tree = std::make_shared<const SkewedTree>();
  const Job job = make_tree_job(tree, 1, "skewed", {"leaves"});
  ASSERT_TRUE(job.splits);
  ASSERT_EQ(job.task_count, 10u);
  const RunResult reference = run_with(job, 1, SplitPolicy::none);
  EXPECT_EQ(reference.totals.counts[0], kLeaves);
  EXPECT_EQ(reference.steals, 0u);
  EXPECT_EQ(reference.schedule, "id-order, static");
  EXPECT_NEAR(reference.largest_task_share, 0.9, 0.01);  // nodes, not leaves: close to the leaves' 90 %
  for (SplitPolicy split : {SplitPolicy::none, SplitPolicy::idle, SplitPolicy::always})
    for (int threads : {1, 2, 4}) {
      const RunResult r = run_with(job, threads, split);
      EXPECT_EQ(r.totals, reference.totals) << "threads " << threads << " policy " << static_cast<int>(split);
      EXPECT_EQ(r.tasks_run, job.task_count);
      if (threads == 1 || split == SplitPolicy::none) {
        EXPECT_EQ(r.steals, 0u);
      }
    }
  EXPECT_EQ(run_with(job, 2, SplitPolicy::idle).schedule, "id-order, steal");
  EXPECT_EQ(run_with(job, 2, SplitPolicy::always).schedule, "id-order, split-always");
}

/// Watches which threads visit the heavy task's leaves. The thread that
/// enters the heavy task's root (the `owner`, which runs that task), at its
/// first heavy leaf, waits there until a part
/// would be wanted (with SplitPolicy::idle: another worker idles), and at
/// its next leaves until another thread has visited a heavy leaf: so the
/// run ends only once another thread took a part of the running task. The
/// waits give up after a minute, and then for good (the test then fails),
/// so that a broken splitter cannot hang the test.
struct Watch {
  std::mutex mutex;
  std::thread::id owner{};
  bool other_seen = false;
  int owner_leaves = 0;
  std::atomic<bool> gave_up{false};

  /// Waits until `done` holds, at most a minute, and not at all once a wait
  /// gave up.
  template <class F>
  void wait_for(F&& done) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (!gave_up.load() && !done())
      if (std::chrono::steady_clock::now() < until)
        std::this_thread::yield();
      else
        gave_up.store(true);
  }

  void visit(const SkewedTree::Node& node, bool leaf) {
    if (!node.heavy) return;
    std::unique_lock lock(mutex);
    const std::thread::id self = std::this_thread::get_id();
    if (node.depth == 1) owner = self;
    if (!leaf) return;
    if (self != owner) {
      other_seen = true;
      return;
    }
    const int visits = ++owner_leaves;
    lock.unlock();
    if (visits == 1) {
      const Subtasks probe;
      wait_for([&] { return probe.wanted(); });
      return;
    }
    wait_for([&] {
      const std::lock_guard seen(mutex);
      return other_seen;
    });
  }
};

TEST(Split, AnIdleThreadTakesPartsOfTheHeavyTask) {
  for (SplitPolicy split : {SplitPolicy::idle, SplitPolicy::always}) {
    Watch watch;
    const std::function<void(const SkewedTree::Node&, bool)> hook = [&watch](const SkewedTree::Node& node, bool leaf) {
      watch.visit(node, leaf);
    };
    auto tree = std::make_shared<const SkewedTree>(SkewedTree{10, &hook});
    const RunResult r = run_with(make_tree_job(tree, 1, "skewed", {"leaves"}), 2, split);
    EXPECT_EQ(r.totals.counts[0], kLeaves);
    EXPECT_TRUE(watch.other_seen) << "policy " << static_cast<int>(split);
    EXPECT_FALSE(watch.gave_up.load());
    EXPECT_GT(r.steals, 0u);
  }
}

/// The listing of the skewed tree at `threads` threads.
std::string listing(int threads, SplitPolicy split, int depth, Tally* totals = nullptr) {
  auto tree = std::make_shared<const SkewedTree>();
  const Job job = make_list_tree_job(tree, depth, 1, "skewed", "leaves", false, 0);
  EXPECT_TRUE(job.splits);
  std::string out;
  RunOptions o;
  o.threads = threads;
  o.split = split;
  o.on_output = [&out](std::size_t, std::string_view text) { out += text; };
  const RunResult r = run(job, o);
  if (totals) *totals = r.totals;
  return out;
}

TEST(Split, ListingIsTheSameBytesForEveryThreadCountAndPolicy) {
  Tally reference_totals;
  const std::string reference = listing(1, SplitPolicy::none, 0, &reference_totals);
  EXPECT_EQ(reference_totals.counts[0], kLeaves);
  std::size_t lines = 0;
  for (char c : reference) lines += c == '\n' ? 1 : 0;
  EXPECT_EQ(lines, kLeaves);
  for (int depth : {0, 1}) {
    Tally static_totals;  // the nodes above the split depth are no task's
    EXPECT_TRUE(listing(1, SplitPolicy::none, depth, &static_totals) == reference);
    for (SplitPolicy split : {SplitPolicy::idle, SplitPolicy::always})
      for (int threads : {1, 2, 4}) {
        Tally totals;
        EXPECT_TRUE(listing(threads, split, depth, &totals) == reference)
            << "depth " << depth << " threads " << threads << " policy " << static_cast<int>(split);
        EXPECT_EQ(totals, static_totals);
        EXPECT_EQ(totals.counts, reference_totals.counts);
      }
  }
}

TEST(Split, ALimitedListingDoesNotSplit) {
  auto tree = std::make_shared<const SkewedTree>();
  EXPECT_FALSE(make_list_tree_job(tree, 0, 1, "skewed", "leaves", false, 5).splits);
}

// The cancel flag reaches the parts: a part run by another thread sees
// stop_requested() and gives up (throw_if_stopped, as a kernel does); the
// heavy task is then abandoned, the nine light ones counted.
TEST(Split, CancelReachesThePartsOnOtherThreads) {
  for (SplitPolicy split : {SplitPolicy::idle, SplitPolicy::always}) {
    std::atomic<bool> cancel{false};
    std::atomic<bool> part_saw_stop{false};
    Watch watch;
    const std::function<void(const SkewedTree::Node&, bool)> hook = [&](const SkewedTree::Node& node, bool leaf) {
      watch.visit(node, leaf);
      if (!leaf || !node.heavy || std::this_thread::get_id() == watch.owner) return;
      cancel.store(true);
      if (stop_requested()) part_saw_stop.store(true);
      throw_if_stopped();
    };
    auto tree = std::make_shared<const SkewedTree>(SkewedTree{10, &hook});
    const RunResult r = run_with(make_tree_job(tree, 1, "skewed", {"leaves"}), 2, split, &cancel);
    EXPECT_TRUE(part_saw_stop.load()) << "policy " << static_cast<int>(split);
    EXPECT_TRUE(r.interrupted);
    EXPECT_EQ(r.tasks_abandoned, 1u);
    EXPECT_EQ(r.tasks_run, 9u);
    EXPECT_EQ(r.totals.counts[0], 9u * 1024u);
  }
}

}  // namespace
}  // namespace pcount::engine
