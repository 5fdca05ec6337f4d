#include "pcount/latin/search.hpp"

#include <algorithm>
#include <bit>
#include <string>
#include <type_traits>
#include <utility>

#include "pcount/errors.hpp"
#include "pcount/engine/split.hpp"
#include "pcount/engine/task.hpp"

namespace pcount::latin {

namespace {

u128 factorial_u128(int n) {
  u128 f = 1;
  for (int i = 2; i <= n; ++i) f = checked_mul(f, static_cast<u128>(i));
  return f;
}

void partitions(int n, int max_part, std::vector<int>& current, std::vector<std::vector<int>>& out) {
  if (n == 0) {
    out.push_back(current);
    return;
  }
  for (int p = std::min(n, max_part); p >= 2; --p) {
    current.push_back(p);
    partitions(n - p, p, current, out);
    current.pop_back();
  }
}

constexpr int kCells = kMaxSearchOrder * kMaxSearchOrder;

/// What a kernel that gives parts away (engine::Subtasks) keeps of every
/// cell on its path up to `end`, by cell index r·n + c: the untried
/// symbols, the symbol placed and the row's symbols before it.
struct Frames {
  engine::Subtasks* parts = nullptr;
  int start = 0;                     ///< the first cell this kernel fills
  int end = 0;                       ///< from this cell (a row start) on, the plain kernel runs
  std::uint64_t weight = 1;          ///< the subtree's multiplicity
  std::uint32_t* rest[kCells] = {};  ///< untried symbols (last column: none)
  std::uint32_t chosen[kCells] = {};
  std::uint32_t used[kCells] = {};
};
/// No frames: the plain kernel.
struct NoFrames {};

/// The sequential kernel: row-major fill from a node's state. With `Split`,
/// it gives the untried symbols of its shallowest open cell away whenever
/// the run wants a part, checked at each row start; only the first one or
/// two rows keep frames (Frames::end), below them the plain kernel runs at
/// full speed (a part is at least one completion of those rows).
template <bool Split>
struct Kernel {
  int n;
  int stop_row;
  bool closed_form;  // squares: count the last two rows in closed form at stop_row
  std::uint32_t full;
  std::uint32_t col[kMaxSearchOrder];
  std::uint64_t leaves = 0;
  std::uint64_t nodes = 0;
  /// Stop check (engine::throw_if_stopped) once every 2¹⁶ row starts: each
  /// row start follows at least one cell node, and 2¹⁶ of them are at most
  /// some 10⁶–10⁷ nodes (many fewer cells per row near the bottom).
  engine::StopPoll<> poll{};
  [[no_unique_address]] std::conditional_t<Split, Frames, NoFrames> frames{};

  void row_start(int r) {
    if (r >= stop_row) {
      leaf(r);
      return;
    }
    poll.tick();
    if constexpr (Split) {
      row_start_unpolled(r);
    } else {  // the plain kernel's body written out: GCC then inlines it as before splitting
      const std::uint32_t bit = 1u << r;
      col[0] |= bit;
      cell(r, 1, bit);
      col[0] ^= bit;
    }
  }

  /// row_start(r) for r < stop_row, without the stop check.
  void row_start_unpolled(int r) {
    if constexpr (Split) {
      if (frames.parts->wanted()) offer(r * n);
      if (r * n >= frames.end) return plain_row(r);
    }
    const std::uint32_t bit = 1u << r;
    col[0] |= bit;
    cell(r, 1, bit);
    col[0] ^= bit;
  }

  void leaf(int r) {
    if (closed_form && r == n - 2) {
      std::uint32_t missing[kMaxSearchOrder];
      for (int c = 0; c < n; ++c) missing[c] = full & ~col[c];
      leaves += last_two_rows(missing, n);
    } else {
      ++leaves;  // rectangles complete, or a square's forced last row
    }
  }

  void cell(int r, int c, std::uint32_t used) {
    std::uint32_t avail = full & ~used & ~col[c];
    if (c == n - 1) {
      if (!avail) return;
      ++nodes;
      col[c] |= avail;
      if constexpr (Split) {
        frames.rest[r * n + c] = nullptr;
        frames.chosen[r * n + c] = avail;
      }
      row_start(r + 1);
      col[c] ^= avail;
      return;
    }
    if constexpr (Split) {
      branch(r, c, used, avail);
    } else {
      while (avail) {
        const std::uint32_t b = avail & (0u - avail);
        avail ^= b;
        ++nodes;
        col[c] |= b;
        cell(r, c + 1, used | b);
        col[c] ^= b;
      }
    }
  }

  /// Tries the symbols `avail` in cell (r, c), c < n - 1.
  void branch(int r, int c, std::uint32_t used, std::uint32_t avail) {
    if constexpr (Split) {
      frames.rest[r * n + c] = &avail;
      frames.used[r * n + c] = used;
    }
    while (avail) {
      const std::uint32_t b = avail & (0u - avail);
      avail ^= b;
      ++nodes;
      col[c] |= b;
      if constexpr (Split) frames.chosen[r * n + c] = b;
      cell(r, c + 1, used | b);
      col[c] ^= b;
    }
  }

  /// Fills rows r, r + 1, ... with the plain kernel.
  void plain_row(int r) {
    Kernel<false> plain{n, stop_row, closed_form, full, {}, 0, 0, poll};
    std::copy(col, col + n, plain.col);
    plain.row_start_unpolled(r);
    leaves += plain.leaves;
    nodes += plain.nodes;
    poll = plain.poll;
  }

  /// Gives away the untried symbols of the shallowest cell before `here`
  /// (a row start) that has any, with the columns as they were there.
  void offer(int here);
  /// Counts into `out` as a part: the symbols `avail` of cell (r, c).
  static void count_part(const Kernel& seed, int r, int c, std::uint32_t used, std::uint32_t avail, engine::Tally& out);
};

template <>
void Kernel<true>::count_part(const Kernel& seed, int r, int c, std::uint32_t used, std::uint32_t avail,
                              engine::Tally& out) {
  engine::Subtasks parts;
  Kernel k{seed.n, seed.stop_row, seed.closed_form, seed.full, {}, 0, 0};
  std::copy(seed.col, seed.col + seed.n, k.col);
  k.frames.parts = &parts;
  k.frames.start = r * seed.n + c;
  k.frames.end = (c <= seed.n / 2 ? r + 1 : r + 2) * seed.n;  // at least half a row of frames
  k.frames.weight = seed.frames.weight;
  k.branch(r, c, used, avail);
  out.add(0, checked_mul(static_cast<u128>(k.leaves), static_cast<u128>(k.frames.weight)));
  out.nodes = checked_add(out.nodes, k.nodes);
  parts.join(out);
}
template <>
void Kernel<true>::offer(int here) {
  for (int at = frames.start; at < here; ++at) {
    if (at % n == 0 || frames.rest[at] == nullptr || *frames.rest[at] == 0) continue;
    Kernel seed{n, stop_row, closed_form, full, {}, 0, 0};
    std::copy(col, col + n, seed.col);
    for (int e = at; e < here; ++e)  // undo the cells placed from `at` on
      if (e % n != 0) seed.col[e % n] &= ~frames.chosen[e];
    for (int row = at / n + 1; row < here / n; ++row) seed.col[0] &= ~(1u << row);  // and their row starts
    seed.frames.weight = frames.weight;
    const std::uint32_t avail = std::exchange(*frames.rest[at], 0u);
    const std::uint32_t used = frames.used[at];
    frames.parts->give([seed, at, used, avail](engine::Tally& out, std::string*) {
      count_part(seed, at / seed.n, at % seed.n, used, avail, out);
    });
    return;
  }
}

}  // namespace

std::vector<CycleType> cycle_types(int n) {
  if (n < 2 || n > kMaxSearchOrder)
    throw InvalidArgument("order", "cycle types need 2 ≤ N ≤ " + std::to_string(kMaxSearchOrder) + ", got " +
                                         std::to_string(n));
  std::vector<std::vector<int>> parts;
  std::vector<int> current;
  partitions(n, n, current, parts);
  const u128 nf = factorial_u128(n);
  std::vector<CycleType> types;
  for (auto& p : parts) {
    // z_λ = Π parts · Π_j m_j!
    u128 z = 1;
    for (int x : p) z = checked_mul(z, static_cast<u128>(x));
    for (std::size_t i = 0; i < p.size();) {
      std::size_t j = i;
      while (j < p.size() && p[j] == p[i]) ++j;
      z = checked_mul(z, factorial_u128(static_cast<int>(j - i)));
      i = j;
    }
    const u128 denom = checked_mul(z, static_cast<u128>(n - 1));
    if (nf % denom != 0) throw InternalError("cycle-type weight n!/(z·(n-1)) is not a whole number");
    types.push_back(CycleType{std::move(p), nf / denom});
  }
  return types;
}

std::uint64_t last_two_rows(const std::uint32_t* missing, int n) {
  // sym_cols[s]: the two columns missing symbol s.
  std::uint32_t sym_cols[32] = {};
  for (int c = 0; c < n; ++c) {
    std::uint32_t m = missing[c];
    while (m) {
      const int s = std::countr_zero(m);
      m &= m - 1;
      sym_cols[s] |= 1u << c;
    }
  }
  std::uint32_t unvisited = n >= 32 ? ~0u : (1u << n) - 1u;
  int cycles = 0;
  while (unvisited) {
    const int start = std::countr_zero(unvisited);
    ++cycles;
    unvisited &= ~(1u << start);
    int prev_sym = std::countr_zero(missing[start]);
    int cur = std::countr_zero(sym_cols[prev_sym] & ~(1u << start));
    while (cur != start) {
      unvisited &= ~(1u << cur);
      const int next_sym = std::countr_zero(missing[cur] & ~(1u << prev_sym));
      cur = std::countr_zero(sym_cols[next_sym] & ~(1u << cur));
      prev_sym = next_sym;
    }
  }
  return std::uint64_t{1} << (cycles - 1);
}

LatinTree::LatinTree(int n, int k) : n_(n), k_(k) {
  if (n < 1 || n > kMaxSearchOrder)
    throw InvalidArgument("order", "expected N from 1 to " + std::to_string(kMaxSearchOrder) + ", got " +
                                         std::to_string(n));
  if (k < 1 || k > n)
    throw InvalidArgument("rows", "expected K from 1 to N = " + std::to_string(n) + ", got " + std::to_string(k));
  square_ = k >= n - 1;
  stop_row_ = square_ ? std::max(n - 2, 2) : k;
  full_ = (1u << n) - 1u;
  if (square_ && n >= 2) types_ = cycle_types(n);
}

LatinTree::Node LatinTree::start_row(Node node) const {
  node.col = 1;
  if (node.row < stop_row_) {
    node.col_used[0] = static_cast<std::uint16_t>(node.col_used[0] | (1u << node.row));
    node.row_used = static_cast<std::uint16_t>(1u << node.row);
  }
  return node;
}

bool LatinTree::terminal(const Node& node) const { return !node.types_root && node.row >= stop_row_; }

LatinTree::Node LatinTree::root() const {
  Node node;
  for (int c = 0; c < n_; ++c) node.col_used[c] = static_cast<std::uint16_t>(1u << c);
  node.row = 1;
  if (n_ == 1) {
    node.row = 1;  // the 1×1 square: complete
    node.col = 1;
    return node;
  }
  if (square_) {
    node.types_root = true;
    return node;
  }
  return start_row(node);
}

std::vector<LatinTree::Node> LatinTree::children(const Node& node) const {
  std::vector<Node> kids;
  if (node.types_root) {
    for (const CycleType& t : types_) {
      Node child = node;
      child.types_root = false;
      child.weight = static_cast<std::uint64_t>(t.weight);
      // σ_λ: consecutive cycles (0 1 … λ1-1)(λ1 …)…; row 1 column c holds σ(c).
      int base = 0;
      for (int len : t.parts) {
        for (int i = 0; i < len; ++i) {
          const int c = base + i;
          const int s = base + (i + 1) % len;
          child.col_used[c] = static_cast<std::uint16_t>(child.col_used[c] | (1u << s));
        }
        base += len;
      }
      child.row = 2;
      kids.push_back(start_row(child));
    }
    return kids;
  }
  if (terminal(node) || n_ == 1) return kids;
  std::uint32_t avail = full_ & ~static_cast<std::uint32_t>(node.row_used) & ~static_cast<std::uint32_t>(node.col_used[node.col]);
  while (avail) {
    const std::uint32_t b = avail & (0u - avail);
    avail ^= b;
    Node child = node;
    child.col_used[node.col] = static_cast<std::uint16_t>(child.col_used[node.col] | b);
    child.row_used = static_cast<std::uint16_t>(child.row_used | b);
    if (node.col + 1 == n_) {
      child.row = static_cast<std::uint8_t>(node.row + 1);
      kids.push_back(start_row(child));
    } else {
      child.col = static_cast<std::uint8_t>(node.col + 1);
      kids.push_back(child);
    }
  }
  return kids;
}

void LatinTree::count_subtree(const Node& node, engine::Tally& tally) const {
  if (node.types_root) {
    for (const Node& child : children(node)) count_subtree(child, tally);
    return;
  }
  if (n_ == 1) {
    tally.add(0, 1);
    return;
  }
  engine::Subtasks parts;
  if (parts.enabled() && !terminal(node)) {  // parts may be given away
    Kernel<true> seed{n_, stop_row_, square_, full_, {}, 0, 0};
    for (int c = 0; c < n_; ++c) seed.col[c] = node.col_used[c];
    seed.frames.weight = node.weight;
    const std::uint32_t used = node.row_used;
    const std::uint32_t avail = full_ & ~used & ~static_cast<std::uint32_t>(node.col_used[node.col]);
    if (node.col + 1 < n_) return Kernel<true>::count_part(seed, node.row, node.col, used, avail, tally);
  }
  Kernel<false> k{n_, stop_row_, square_, full_, {}, 0, 0};
  for (int c = 0; c < n_; ++c) k.col[c] = node.col_used[c];
  if (terminal(node))
    k.leaf(node.row);
  else
    k.cell(node.row, node.col, node.row_used);
  tally.add(0, checked_mul(static_cast<u128>(k.leaves), static_cast<u128>(node.weight)));
  tally.nodes = checked_add(tally.nodes, k.nodes);
}

BigInt all_squares(int n, u128 reduced) { return factorial(n) * factorial(n - 1) * to_big(reduced); }

BigInt all_rectangles(int n, int k, u128 reduced) {
  if (k >= n - 1) return all_squares(n, reduced);
  return factorial(n) * factorial(n - 1) / factorial(n - k) * to_big(reduced);
}

bool is_prime(int n) {
  if (n < 2) return false;
  for (int d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

void check_mod_n(int n, u128 reduced) {
  if (n < 3) return;
  const u128 expected = is_prime(n) ? 1 : 0;
  const u128 residue = reduced % static_cast<u128>(n);
  if (residue != expected)
    throw InternalError("self-check failed: R(" + std::to_string(n) + ") = " + to_string(reduced) + " is " +
                        to_string(residue) + " mod " + std::to_string(n) + ", expected " + to_string(expected) +
                        " (Stones & Wanless)");
}

}  // namespace pcount::latin
