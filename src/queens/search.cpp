#include "pcount/queens/search.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <utility>

#include "pcount/errors.hpp"
#include "pcount/engine/split.hpp"
#include "pcount/engine/task.hpp"
#include "pcount/engine/tree.hpp"

namespace pcount::queens {

namespace {
/// Subtrees with at most this many rows left are searched without stop
/// checks: at most about 3.5 × 10⁴ nodes each (the whole 10-queens tree),
/// a few microseconds; the rows above check once per node, a vanishing
/// share of the nodes.
constexpr int kUncheckedRows = 10;

struct Counter {
  std::uint32_t full;
  std::uint64_t solutions = 0;
  std::uint64_t nodes = 0;

  /// Like dfs, for a node with `rows_left` rows still to fill; checks for a
  /// stop (engine::throw_if_stopped) at every node more than
  /// kUncheckedRows rows above the bottom.
  void dfs_checked(std::uint32_t cols, std::uint32_t d1, std::uint32_t d2, int rows_left) {
    if (rows_left <= kUncheckedRows) return dfs(cols, d1, d2);
    engine::throw_if_stopped();
    ++nodes;
    std::uint32_t free = full & ~(cols | d1 | d2);
    while (free) {
      const std::uint32_t bit = free & (0u - free);
      free ^= bit;
      dfs_checked(cols | bit, ((d1 | bit) << 1) & full, (d2 | bit) >> 1, rows_left - 1);
    }
  }

  /// Aligned to 64 bytes so that the loop's place in the CPU's fetch
  /// windows does not move with unrelated code (results/stealing.md).
  [[gnu::aligned(64)]] void dfs(std::uint32_t cols, std::uint32_t d1, std::uint32_t d2) {
    ++nodes;
    if (cols == full) {
      ++solutions;
      return;
    }
    std::uint32_t free = full & ~(cols | d1 | d2);
    while (free) {
      const std::uint32_t bit = free & (0u - free);
      free ^= bit;
      dfs(cols | bit, ((d1 | bit) << 1) & full, (d2 | bit) >> 1);
    }
  }
};

/// Counter::dfs_checked that gives parts of its subtree away while the run
/// wants them (engine::Subtasks). Its frames are the nodes with more than
/// kUncheckedRows rows left (Counter::dfs_checked's checked levels, at most
/// 22); when a part is wanted it gives away the untried columns of the
/// shallowest frame that has any, so a part is at least a subtree with
/// kUncheckedRows rows left. Below the frames Counter runs unchanged.
struct SplitCounter {
  std::uint32_t full;
  engine::Subtasks& parts;
  std::uint64_t solutions = 0;
  std::uint64_t nodes = 0;
  struct Frame {
    std::uint32_t cols = 0, d1 = 0, d2 = 0;
    int rows_left = 0;
    std::uint32_t* rest = nullptr;  ///< the columns not tried yet
  };
  std::array<Frame, kMaxN> frames{};

  void dfs(std::uint32_t cols, std::uint32_t d1, std::uint32_t d2, int rows_left, int depth) {
    if (rows_left <= kUncheckedRows) {
      // Through dfs_checked, which goes straight to dfs here: Counter::dfs
      // keeps one caller, so the plain kernel is compiled as at one thread
      // before splitting existed (a second caller cost Q(16) 2.5 % of wall
      // time on the Sapphire Rapids VM, results/stealing.md).
      Counter c{full};
      c.dfs_checked(cols, d1, d2, rows_left);
      solutions += c.solutions;
      nodes += c.nodes;
      return;
    }
    engine::throw_if_stopped();
    ++nodes;
    branch(full & ~(cols | d1 | d2), cols, d1, d2, rows_left, depth);
  }

  /// Walks the columns `free` of the node (cols, d1, d2) (not counted).
  void branch(std::uint32_t free, std::uint32_t cols, std::uint32_t d1, std::uint32_t d2, int rows_left, int depth) {
    frames[static_cast<std::size_t>(depth)] = Frame{cols, d1, d2, rows_left, &free};
    while (free) {
      const std::uint32_t bit = free & (0u - free);
      free ^= bit;
      if (parts.wanted()) offer(depth);
      dfs(cols | bit, ((d1 | bit) << 1) & full, (d2 | bit) >> 1, rows_left - 1, depth + 1);
    }
    frames[static_cast<std::size_t>(depth)].rest = nullptr;  // `free` ends here
  }

  /// Gives away the untried columns of the shallowest frame up to `depth`.
  void offer(int depth) {
    for (int d = 0; d <= depth; ++d) {
      const Frame f = frames[static_cast<std::size_t>(d)];
      if (*f.rest == 0) continue;  // frames up to `depth` are open
      const std::uint32_t rest = std::exchange(*f.rest, 0u);
      parts.give([full = full, f, rest](engine::Tally& out, std::string*) { count(full, f, rest, out); });
      return;
    }
  }

  /// Adds the completions below the columns `free` of frame `f` to counter
  /// kAll of `out` and the nodes visited to out.nodes, giving parts away.
  static void count(std::uint32_t full, const Frame& f, std::uint32_t free, engine::Tally& out) {
    engine::Subtasks parts;
    SplitCounter k{full, parts};
    k.branch(free, f.cols, f.d1, f.d2, f.rows_left, 0);
    out.add(kAll, k.solutions);
    out.nodes = checked_add(out.nodes, k.nodes);
    parts.join(out);
  }
};

void check_n(int n) {
  if (n < 1 || n > kMaxN)
    throw InvalidArgument("n", "expected N from 1 to " + std::to_string(kMaxN) + ", got " + std::to_string(n));
}

/// Search for the solutions fixed by a rotation: the lowest empty row gets a
/// queen, and with it every image of that queen under the rotation. Rows,
/// columns and both diagonal families are bit masks (2N-1 ≤ 63 diagonals).
struct SymmetricSearch {
  int n;
  Symmetry g;
  std::uint64_t all_rows;
  std::uint64_t solutions = 0;
  std::uint64_t nodes = 0;
  engine::StopPoll<> poll{};  // a node here loops over N columns: a tick is cheap

  void dfs(std::uint64_t rows, std::uint64_t cols, std::uint64_t sums, std::uint64_t diffs) {
    ++nodes;
    poll.tick();
    if (rows == all_rows) {
      ++solutions;
      return;
    }
    const int r = __builtin_ctzll(~rows);
    for (int c = 0; c < n; ++c) {
      if ((cols >> c) & 1u) continue;
      std::uint64_t nr = rows, nc = cols, ns = sums, nd = diffs;
      Square s{r, c};
      bool ok = true;
      do {  // place the orbit of (r, c) under the rotation, one square at a time
        const std::uint64_t rb = 1ull << s.row, cb = 1ull << s.col;
        const std::uint64_t sb = 1ull << (s.row + s.col), db = 1ull << (s.row - s.col + n - 1);
        if ((nr & rb) || (nc & cb) || (ns & sb) || (nd & db)) {
          ok = false;
          break;
        }
        nr |= rb;
        nc |= cb;
        ns |= sb;
        nd |= db;
        s = map_square(g, s, n);
      } while (!(s == Square{r, c}));
      if (ok) dfs(nr, nc, ns, nd);
    }
  }
};
}  // namespace

QueensTree::QueensTree(int n) : n_(n) {
  check_n(n);
  full_ = n == 32 ? ~0u : (1u << n) - 1u;
}

std::vector<QueensTree::Node> QueensTree::children(const Node& node) const {
  std::vector<Node> kids;
  if (node.row == n_) return kids;
  std::uint32_t free = full_ & ~(node.cols | node.diag1 | node.diag2);
  while (free) {
    const std::uint32_t bit = free & (0u - free);
    free ^= bit;
    kids.push_back(Node{node.row + 1, node.cols | bit, ((node.diag1 | bit) << 1) & full_, (node.diag2 | bit) >> 1});
  }
  return kids;
}

void QueensTree::count_subtree(const Node& node, engine::Tally& tally) const {
  engine::Subtasks parts;
  if (parts.enabled() && n_ - node.row > kUncheckedRows) {  // parts may be given away
    SplitCounter k{full_, parts};
    k.dfs(node.cols, node.diag1, node.diag2, n_ - node.row, 0);
    tally.add(kAll, k.solutions);
    tally.nodes = checked_add(tally.nodes, k.nodes);
    parts.join(tally);
    return;
  }
  Counter c{full_};
  c.dfs_checked(node.cols, node.diag1, node.diag2, n_ - node.row);
  tally.add(kAll, c.solutions);
  tally.nodes = checked_add(tally.nodes, c.nodes);
}

u128 count_rotation_symmetric(int n, Symmetry rotation, u128* nodes) {
  check_n(n);
  if (rotation != Symmetry::rot90 && rotation != Symmetry::rot180)
    throw std::invalid_argument("count_rotation_symmetric: rotation must be rot90 or rot180");
  SymmetricSearch s{n, rotation, (1ull << n) - 1};
  s.dfs(0, 0, 0, 0);
  if (nodes) *nodes = checked_add(*nodes, s.nodes);
  return s.solutions;
}

void add_rotation_symmetric(int n, bool half_turn, std::size_t counter, engine::Tally& out) {
  out.add(counter, count_rotation_symmetric(n, half_turn ? Symmetry::rot180 : Symmetry::rot90, &out.nodes));
}

engine::Job make_search_job(int n, int depth, const std::string& fingerprint) {
  auto tree = std::make_shared<const QueensTree>(n);
  engine::Job job = engine::make_tree_job(tree, depth, fingerprint, {"all", "rot180", "rot90"});
  const std::size_t tree_tasks = job.task_count;
  job.task_count = tree_tasks + 2;
  job.run_task = [inner = std::move(job.run_task), tree_tasks, n](std::size_t id, engine::Tally& out) {
    if (id < tree_tasks) return inner(id, out);
    const bool half = id == tree_tasks;
    add_rotation_symmetric(n, half, half ? kRot180 : kRot90, out);
  };
  // The two symmetric searches are left out of the size estimate (each
  // fills a half or a quarter of the board, a vanishing part of the work).
  job.probe = [inner = std::move(job.probe), tree_tasks](std::size_t id, std::mt19937_64& rng) {
    return id < tree_tasks ? inner(id, rng) : 0.0;
  };
  return job;
}

int auto_search_depth(int n, std::size_t min_tasks) { return engine::auto_split_depth(QueensTree(n), min_tasks); }

QueensCounts search_counts(int n, const engine::Tally& totals) {
  return burnside(n, totals.get(kAll), totals.get(kRot180), totals.get(kRot90));
}

}  // namespace pcount::queens
