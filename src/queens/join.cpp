// N-Queens by meet in the middle: half placements keyed by their column set
// and boundary diagonals, joined by disjoint keys (include/pcount/queens/join.hpp).
#include "pcount/queens/join.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <random>

#include "pcount/engine/errors.hpp"
#include "pcount/queens/search.hpp"

namespace pcount::queens {

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

u32 bit(int c) { return c < 0 ? 0u : (1u << c); }

u32 mirror_columns(u32 x, int n) {
  u32 r = 0;
  for (int c = 0; c < n; ++c)
    if ((x >> c) & 1u) r |= 1u << (n - 1 - c);
  return r;
}

/// The board, the cut and the task's constraints on each half.
struct Geometry {
  int n = 0;
  int rows = 0;        ///< a = ⌊n/2⌋ rows per half
  int outer = 0;       ///< outer columns (outer/2 each side)
  bool odd = false;
  u32 full = 0;
  u32 outer_mask = 0;  ///< the outer columns
  int group_shift = 0; ///< the inner columns are bits group_shift..group_shift+inner-1
  u32 group_mask = 0;  ///< (1 << inner) - 1

  Geometry(int n_, int outer_) : n(n_), rows(n_ / 2), outer(outer_), odd(n_ % 2 == 1) {
    full = n == 32 ? ~0u : (1u << n) - 1u;
    const int side = outer / 2;
    const u32 low = (1u << side) - 1u;
    outer_mask = low | (low << (n - side));
    group_shift = side;
    group_mask = (1u << (n - outer)) - 1u;
  }
  /// Column set of the bottom half that fits a top half with columns `top` (and middle queen m).
  [[nodiscard]] u32 complement(u32 top, int m) const { return full & ~top & ~bit(m); }
  [[nodiscard]] u32 group_of(u32 top_columns) const { return (top_columns >> group_shift) & group_mask; }
};

/// The images of (middle, top columns) under the mirror and the top–bottom
/// turn, identity first.
std::array<std::pair<int, u32>, 4> images(const Geometry& g, int m, u32 top) {
  const int mm = m < 0 ? -1 : g.n - 1 - m;
  const u32 flip = g.complement(top, m);
  return {{{m, top}, {m, flip}, {mm, mirror_columns(top, g.n)}, {mm, mirror_columns(flip, g.n)}}};
}

/// One half's enumeration: rows 0..a-1 of the board (for the bottom half,
/// the board turned upside down), queens only on allowed squares, every
/// `must` column used.
struct Half {
  const Geometry* g = nullptr;
  bool top = true;
  int m = -1;
  std::array<u32, 32> allowed{};  ///< per row: allowed columns minus the middle queen's diagonals
  u32 must = 0;
  std::vector<u64>* keys = nullptr;      ///< output: one key per placement, in enumeration order
  std::vector<std::uint32_t>* groups = nullptr;  ///< output: the placement's group (inner columns of the top half)
  u64 placements = 0;
  engine::StopPoll<> poll{};  ///< a large task's enumeration takes seconds: let a stop through

  Half(const Geometry& geo, bool is_top, int middle, u32 allowed_columns, u32 must_columns)
      : g(&geo), top(is_top), m(middle), must(must_columns) {
    for (int r = 0; r < geo.rows; ++r) {
      u32 a = allowed_columns & ~bit(middle);
      if (middle >= 0) {  // the middle queen (row a, column m) attacks (r, m ± (a - r))
        const int d = geo.rows - r;
        if (middle + d < geo.n) a &= ~bit(middle + d);
        if (middle - d >= 0) a &= ~bit(middle - d);
      }
      allowed[static_cast<std::size_t>(r)] = a;
    }
  }

  /// `cols` the columns used by the whole half, `dl`/`dr` the boundary-row
  /// masks of its last row before the shift (its queen included).
  void emit(u32 cols, u32 dl, u32 dr) {
    ++placements;
    const Geometry& geo = *g;
    if (top) {
      u32 l = (dl << 1) & geo.full, r = dr >> 1;  // the attacks on row a
      if (geo.odd) {                               // and on row a + 1, past the middle row
        l = (l << 1) & geo.full;
        r >>= 1;
      }
      keys->push_back(u64{l} | (u64{r} << geo.n));
      groups->push_back(geo.group_of(cols));
    } else {
      keys->push_back(u64{dr} | (u64{dl} << geo.n));
      groups->push_back(geo.group_of(geo.complement(cols, m)));
    }
  }

  /// The free squares of row r given the masks; limited to the `must`
  /// columns still unused when the rows left are exactly enough for them.
  [[nodiscard]] u32 free_squares(int r, u32 cols, u32 dl, u32 dr) const {
    const u32 need = must & ~cols;
    const int left = g->rows - r, needed = std::popcount(need);
    if (needed > left) return 0;
    const u32 free = allowed[static_cast<std::size_t>(r)] & ~(cols | dl | dr);
    return needed == left ? free & need : free;
  }

  /// Places the queens of rows r..a-1, given the columns used and the
  /// diagonal masks of row r. The last two rows are unrolled: the walk is
  /// most of the cost for odd N, and most of its nodes are there.
  void walk(int r, u32 cols, u32 dl, u32 dr) {
    poll.tick();
    u32 free = free_squares(r, cols, dl, dr);
    if (r == g->rows - 1) {
      while (free) {
        const u32 q = free & (0u - free);
        free ^= q;
        emit(cols | q, dl | q, dr | q);
      }
      return;
    }
    if (r == g->rows - 2) {
      while (free) {
        const u32 q = free & (0u - free);
        free ^= q;
        const u32 c = cols | q, l = ((dl | q) << 1) & g->full, d = (dr | q) >> 1;
        u32 last = free_squares(r + 1, c, l, d);
        while (last) {
          const u32 z = last & (0u - last);
          last ^= z;
          emit(c | z, l | z, d | z);
        }
      }
      return;
    }
    while (free) {
      const u32 q = free & (0u - free);
      free ^= q;
      walk(r + 1, cols | q, ((dl | q) << 1) & g->full, (dr | q) >> 1);
    }
  }

  void run() {
    if (g->rows == 0) {  // n = 1: the halves are empty
      ++placements;
      keys->push_back(0);
      groups->push_back(0);
      return;
    }
    walk(0, 0, 0, 0);
  }

  /// One random root-to-leaf path: the product of the branching factors
  /// (an unbiased estimate of the placements, Knuth 1975).
  double probe(std::mt19937_64& rng) const {
    if (g->rows == 0) return 1.0;
    double product = 1.0;
    u32 cols = 0, dl = 0, dr = 0;
    for (int r = 0; r < g->rows; ++r) {
      const u32 need = must & ~cols;
      const int left = g->rows - r;
      if (std::popcount(need) > left) return 0.0;
      u32 free = allowed[static_cast<std::size_t>(r)] & ~(cols | dl | dr);
      if (std::popcount(need) == left) free &= need;
      const int k = std::popcount(free);
      if (k == 0) return 0.0;
      product *= k;
      int pick = static_cast<int>(std::uniform_int_distribution<int>(0, k - 1)(rng));
      u32 q = free;
      while (pick-- > 0) q &= q - 1;
      q &= 0u - q;
      cols |= q;
      dl = ((dl | q) << 1) & g->full;
      dr = (dr | q) >> 1;
    }
    return product;
  }
};

Half top_half(const Geometry& g, const JoinTask& t) {
  return Half(g, true, t.middle, g.full & ~(g.outer_mask & ~t.outer), t.outer);
}
Half bottom_half(const Geometry& g, const JoinTask& t) {
  const u32 bottom_outer = g.outer_mask & ~t.outer & ~bit(t.middle);
  return Half(g, false, t.middle, g.full & ~(g.outer_mask & ~bottom_outer), bottom_outer);
}

/// The key bits in order of how often a top and a bottom key both hold
/// them (most first): the boundary squares near the centre. A 16-bit index
/// of a key puts the i-th of them at bit 15 - i.
struct KeyIndex {
  std::array<std::array<std::uint16_t, 256>, 8> table{};

  explicit KeyIndex(int n) {
    // Both families are attacked most often near the centre column
    // (n − 1)/2 (measured bit by bit at N = 16 and 18): the ↙ family from
    // ⌈(n−1)/2⌉ outwards, the ↘ family from ⌊(n−1)/2⌋ outwards, in turn.
    std::vector<int> order;  // key bits, most contested first
    const int up = n / 2, down = (n - 1) / 2;
    for (int d = 0; d < 2 * n && order.size() < 16; ++d) {
      const int step = (d + 1) / 2, sign = d % 2 == 0 ? 1 : -1;  // offsets 0, -1, +1, -2, +2, ...
      const int c1 = up - sign * step, c2 = down + sign * step;
      if (c1 >= 0 && c1 < n) order.push_back(c1);                           // top ↙ family: key bits 0..n-1
      if (c2 >= 0 && c2 < n && order.size() < 16) order.push_back(n + c2);  // top ↘ family: key bits n..2n-1
    }
    for (std::size_t k = 0; k < order.size() && k < 16; ++k) {
      const int b = order[k];
      for (int v = 0; v < 256; ++v)
        if ((v >> (b % 8)) & 1) table[static_cast<std::size_t>(b / 8)][static_cast<std::size_t>(v)] |=
              static_cast<std::uint16_t>(1u << (15 - k));
    }
  }
  [[nodiscard]] u32 operator()(u64 key) const {
    u32 r = 0;
    for (std::size_t i = 0; i < 8; ++i) r |= table[i][(key >> (8 * i)) & 255u];
    return r;
  }
};

/// Per-worker buffers, kept between tasks (their capacity is the worker's
/// share of the job's memory).
struct Scratch {
  std::vector<u64> top_keys, bottom_keys;     ///< placements in enumeration order
  std::vector<u32> top_groups, bottom_groups; ///< their groups
  std::vector<u64> top_by_group, bottom_by_group;  ///< the same keys sorted by group
  std::vector<u32> top_group_offsets, bottom_group_offsets;
  std::vector<u64> top_sorted, bottom_sorted;  ///< one group's keys sorted into buckets
  std::vector<u32> top_offsets, bottom_offsets, index, position;
};

/// Counting sort of `keys` by `groups` (values < buckets) into `out`;
/// offsets[g]..offsets[g+1] is group g.
void sort_by_group(const std::vector<u64>& keys, const std::vector<u32>& groups, std::size_t buckets,
                   std::vector<u64>& out, std::vector<u32>& offsets, std::vector<u32>& position) {
  offsets.assign(buckets + 1, 0);
  for (const u32 g : groups) ++offsets[g + 1];
  for (std::size_t g = 0; g < buckets; ++g) offsets[g + 1] += offsets[g];
  position.assign(offsets.begin(), offsets.end() - 1);
  out.resize(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) out[position[groups[i]]++] = keys[i];
}

/// Sorts `keys` into 2^bits buckets by the first `bits` bits of their
/// index; each bucket is filled up to a multiple of `pad` with `sentinel`
/// (a key that meets every nonzero key of the other side).
constexpr std::size_t kLanes = 8;
void bucket(const u64* keys, std::size_t count, int bits, const KeyIndex& index, Scratch& s, std::vector<u64>& out,
            std::vector<u32>& offsets, std::size_t pad, u64 sentinel) {
  const std::size_t buckets = std::size_t{1} << bits;
  offsets.assign(buckets + 1, 0);
  s.index.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    const u32 b = bits == 0 ? 0 : index(keys[i]) >> (16 - bits);
    s.index[i] = b;
    ++offsets[b + 1];
  }
  if (pad > 1)
    for (std::size_t b = 1; b <= buckets; ++b) offsets[b] = static_cast<u32>((offsets[b] + pad - 1) / pad * pad);
  for (std::size_t b = 0; b < buckets; ++b) offsets[b + 1] += offsets[b];
  s.position.assign(offsets.begin(), offsets.end() - 1);
  out.assign(offsets[buckets], sentinel);
  for (std::size_t i = 0; i < count; ++i) out[s.position[s.index[i]]++] = keys[i];
}

using Lanes = u64 __attribute__((vector_size(kLanes * sizeof(u64))));

/// Adds to `acc` (lane by lane, as −1 per pair) the pairs (x in top[t0, t1),
/// y in bottom[b0, b1)) with x & y == 0; b1 − b0 is a multiple of kLanes
/// (padded with keys that meet every top key).
inline void count_block(const u64* top, u32 t0, u32 t1, const u64* bottom, u32 b0, u32 b1, Lanes& acc) {
  Lanes acc2{};
  u32 y = b0;
  for (; y + 2 * kLanes <= b1; y += 2 * kLanes) {  // two vectors per top key: one broadcast for both
    Lanes v, v2;
    __builtin_memcpy(&v, bottom + y, sizeof v);
    __builtin_memcpy(&v2, bottom + y + kLanes, sizeof v2);
    for (u32 x = t0; x < t1; ++x) {
      acc += (top[x] & v) == 0;  // a lane is −1 where the pair fits
      acc2 += (top[x] & v2) == 0;
    }
  }
  for (; y < b1; y += kLanes) {
    Lanes v;
    __builtin_memcpy(&v, bottom + y, sizeof v);
    for (u32 x = t0; x < t1; ++x) acc += (top[x] & v) == 0;
  }
  acc += acc2;
}

/// Number of pairs (x in top, y in bottom) with x & y == 0. Top keys must
/// be nonzero unless `scalar` (the padding keys rely on it).
u64 count_disjoint(const u64* top, std::size_t nt, const u64* bottom, std::size_t nb, const KeyIndex& index,
                   Scratch& s, u64 sentinel, bool scalar, u64& tests) {
  // Bucket by `bits` index bits: 3^bits bucket pairs survive of 4^bits;
  // about 1024 key pairs per surviving bucket pair keeps the bookkeeping
  // small next to the ANDs (measured on N = 16 and 17: 512 to 4096 are
  // within noise of each other, 65536 is 20 % slower).
  const double pairs = static_cast<double>(nt) * static_cast<double>(nb);
  int bits = 0;
  while (bits < 12 && std::pow(3.0, bits + 1) * 1024.0 < pairs) ++bits;
  bucket(top, nt, bits, index, s, s.top_sorted, s.top_offsets, 1, 0);
  bucket(bottom, nb, bits, index, s, s.bottom_sorted, s.bottom_offsets, scalar ? 1 : kLanes, sentinel);
  const u32 all = (1u << bits) - 1u;
  const u64* t = s.top_sorted.data();
  const u64* b = s.bottom_sorted.data();
  u64 total = 0;
  for (u32 i = 0; i <= all; ++i) {
    const u32 t0 = s.top_offsets[i], t1 = s.top_offsets[i + 1];
    if (t0 == t1) continue;
    const u32 free = all & ~i;
    Lanes acc{};  // summed over the top bucket's compatible bottom buckets
    for (u32 j = free;; j = (j - 1) & free) {  // the buckets whose index bits avoid i's
      const u32 b0 = s.bottom_offsets[j], b1 = s.bottom_offsets[j + 1];
      tests += u64{t1 - t0} * (b1 - b0);
      if (!scalar) {
        count_block(t, t0, t1, b, b0, b1, acc);
      } else {
        for (u32 x = t0; x < t1; ++x)
          for (u32 y = b0; y < b1; ++y) total += (t[x] & b[y]) == 0;
      }
      if (j == 0) break;
    }
    for (std::size_t lane = 0; lane < kLanes; ++lane) total -= acc[lane];  // each fitting pair added −1
  }
  return total;
}

void check_n_join(int n) {
  if (n < 1 || n > kMaxN) throw InvalidArgument("n", "must be a whole number from 1 to 32");
}

}  // namespace

std::pair<int, int> join_outer_range(int n) {
  // At most 20 inner columns (a task keeps one bucket per inner column
  // set); at most 18 outer columns for even n and 14 for odd n (about 2^18/4
  // tasks, or n·2^14/4: their list and estimates take a second to build).
  const int least = std::max(0, n - 20 + (n % 2));
  const int most = std::min(n < 3 ? 0 : n - 2, n % 2 == 0 ? 18 : 14);
  return {least, std::max(least, most)};
}

int default_join_outer(int n) {
  // Measured (results/queens.md): even n are fastest with 8 inner columns
  // (N = 16: 8 outer columns 0.61 s, 6: 0.67 s, 4: 1.1 s); odd n, whose
  // tasks are also split by the middle queen, with about 11 (N = 17: 4
  // outer columns 1.8 s, 6: 2.4 s, 8: 2.8 s; N = 19: 8 outer 61 s, 10:
  // 65 s). Beyond N = 20 (even) and 19 (odd) fewer inner columns keep a
  // task near 100 MB, so that 16 workers stay under 8 GiB through N = 21
  // (placements grow about 20× per 2 rows, tasks 4× per 2 outer columns).
  const int inner = n % 2 == 0 ? (n <= 20 ? 8 : 6) : (n < 20 ? 11 : 7);
  const auto [least, most] = join_outer_range(n);
  return std::clamp(n - inner, least, most);
}

void check_join(int n, int outer) {
  check_n_join(n);
  const auto [least, most] = join_outer_range(n);
  if (outer < least || outer % 2 != 0 || outer > most)
    throw InvalidArgument("outer", "must be an even number from " + std::to_string(least) + " to " + std::to_string(most));
}

std::vector<JoinTask> join_tasks(int n, int outer) {
  check_join(n, outer);
  const Geometry g(n, outer);
  std::vector<JoinTask> tasks;
  const int first_m = g.odd ? 0 : -1, last_m = g.odd ? n - 1 : -1;
  for (int m = first_m; m <= last_m; ++m) {
    const u32 outer_free = g.outer_mask & ~bit(m);
    for (u32 p = 0;; p = (p - outer_free) & outer_free) {  // every subset of the free outer columns
      const u32 q = outer_free & ~p;                       // the bottom half's outer columns
      if (std::popcount(p) <= g.rows && std::popcount(q) <= g.rows) {
        bool canonical = true;
        const int mm = m < 0 ? -1 : n - 1 - m;
        const std::pair<int, u32> mine{m, p};
        for (const auto& other : {std::pair<int, u32>{m, q}, std::pair<int, u32>{mm, mirror_columns(p, n)},
                                  std::pair<int, u32>{mm, mirror_columns(q, n)}})
          if (other < mine) canonical = false;
        if (canonical) tasks.push_back(JoinTask{m, p});
      }
      if (p == outer_free) break;
    }
  }
  return tasks;
}

JoinTaskCount count_join_task(int n, int outer, const JoinTask& t) {
  check_join(n, outer);
  const Geometry g(n, outer);
  thread_local Scratch s;
  thread_local std::unique_ptr<KeyIndex> index;
  thread_local int index_n = 0;
  if (!index || index_n != n) {
    index = std::make_unique<KeyIndex>(n);
    index_n = n;
  }
  const std::size_t groups = std::size_t{g.group_mask} + 1;
  s.top_keys.clear();
  s.top_groups.clear();
  s.bottom_keys.clear();
  s.bottom_groups.clear();
  Half top = top_half(g, t), bottom = bottom_half(g, t);
  top.keys = &s.top_keys;
  top.groups = &s.top_groups;
  bottom.keys = &s.bottom_keys;
  bottom.groups = &s.bottom_groups;
  top.run();
  bottom.run();
  sort_by_group(s.top_keys, s.top_groups, groups, s.top_by_group, s.top_group_offsets, s.position);
  sort_by_group(s.bottom_keys, s.bottom_groups, groups, s.bottom_by_group, s.bottom_group_offsets, s.position);
  JoinTaskCount out;
  out.placements = u128{top.placements} + bottom.placements;
  // A key that meets every nonzero top key; top keys are nonzero once a
  // half has a row (the last top queen attacks a boundary square).
  const u64 sentinel = g.n == 32 ? ~u64{0} : (u64{1} << (2 * g.n)) - 1;
  const bool scalar = g.n < 4;
  u64 tests = 0;
  for (std::size_t gi = 0; gi < groups; ++gi) {
    const u32 t0 = s.top_group_offsets[gi], t1 = s.top_group_offsets[gi + 1];
    const u32 b0 = s.bottom_group_offsets[gi], b1 = s.bottom_group_offsets[gi + 1];
    if (t0 == t1 || b0 == b1) continue;
    const u32 columns = t.outer | (static_cast<u32>(gi) << g.group_shift);
    // Join only the least column set of its class among those this task
    // enumerates; weight it by the class size.
    const auto im = images(g, t.middle, columns);
    bool least = true;
    int size = 0;
    for (std::size_t i = 0; i < im.size(); ++i) {
      if (std::find(im.begin(), im.begin() + static_cast<std::ptrdiff_t>(i), im[i]) ==
          im.begin() + static_cast<std::ptrdiff_t>(i))
        ++size;
      if (im[i].first == t.middle && (im[i].second & g.outer_mask) == t.outer && im[i].second < columns)
        least = false;
    }
    if (!least) continue;
    engine::throw_if_stopped();
    const u64 pairs = count_disjoint(s.top_by_group.data() + t0, t1 - t0, s.bottom_by_group.data() + b0, b1 - b0,
                                     *index, s, sentinel, scalar, tests);
    out.solutions = checked_add(out.solutions, checked_mul(static_cast<u128>(size), u128{pairs}));
  }
  out.pair_tests = tests;
  return out;
}

double estimate_join_placements(int n, int outer, const JoinTask& t, int probes) {
  check_join(n, outer);
  const Geometry g(n, outer);
  const Half top = top_half(g, t), bottom = bottom_half(g, t);
  std::mt19937_64 rng(0x9e3779b97f4a7c15ull ^ (static_cast<u64>(t.middle + 1) << 40) ^ t.outer);
  double sum = 0;
  for (int i = 0; i < probes; ++i) sum += top.probe(rng) + bottom.probe(rng);
  return probes > 0 ? sum / probes : 0.0;
}

namespace {

/// Per task: estimated placements and join work (placements² over groups).
struct TaskEstimate {
  double placements = 0;
  double work = 0;
};

/// The tasks of (n, outer) and their estimates, built once per process
/// (the plan asks for the memory estimate, then builds the job).
struct TaskList {
  std::vector<JoinTask> tasks;
  std::vector<TaskEstimate> estimates;
};

std::vector<TaskEstimate> estimate_tasks(int n, int outer, const std::vector<JoinTask>& tasks) {
  const Geometry g(n, outer);
  std::vector<TaskEstimate> e;
  e.reserve(tasks.size());
  // 64 probes per task, fewer for long lists (at least 8): the estimates
  // only order the tasks and size the memory check.
  const int probes = static_cast<int>(std::clamp<std::size_t>(4'000'000 / std::max<std::size_t>(1, tasks.size()), 8, 64));
  for (const JoinTask& t : tasks) {
    const double p = estimate_join_placements(n, outer, t, probes);
    // column sets of the task: inner columns choose the rest of the a top columns
    const int inner_free = n - outer - ((t.middle >= 0 && !((g.outer_mask >> t.middle) & 1u)) ? 1 : 0);
    const int k = g.rows - std::popcount(t.outer);
    double sets = 1;
    for (int i = 0; i < k; ++i) sets = sets * (inner_free - i) / (i + 1);
    e.push_back({p, p + p * p / 4.0 / std::max(1.0, sets)});
  }
  return e;
}

std::shared_ptr<const TaskList> task_list(int n, int outer) {
  static std::mutex mutex;
  static std::map<std::pair<int, int>, std::shared_ptr<const TaskList>> cache;
  const std::lock_guard lock(mutex);
  auto& entry = cache[{n, outer}];
  if (!entry) {
    auto list = std::make_shared<TaskList>();
    list->tasks = join_tasks(n, outer);
    list->estimates = estimate_tasks(n, outer, list->tasks);
    entry = std::move(list);
  }
  return entry;
}

}  // namespace

engine::Job make_join_job(int n, int outer, const std::string& fingerprint) {
  check_join(n, outer);
  const std::shared_ptr<const TaskList> list = task_list(n, outer);
  const std::shared_ptr<const std::vector<JoinTask>> tasks(list, &list->tasks);
  const std::shared_ptr<const std::vector<TaskEstimate>> estimates(list, &list->estimates);
  const std::size_t count = tasks->size();
  engine::Job job;
  job.fingerprint = fingerprint + " outer=" + std::to_string(outer);
  job.counter_names = {"all", "rot180", "rot90"};
  job.task_count = count + 2;
  job.split_depth = -1;
  job.run_task = [n, outer, tasks, count](std::size_t id, engine::Tally& out) {
    if (id >= count) {
      const bool half = id == count;
      add_rotation_symmetric(n, half, half ? kJRot180 : kJRot90, out);
      return;
    }
    const JoinTaskCount c = count_join_task(n, outer, (*tasks)[id]);
    out.add(kJAll, c.solutions);
    out.nodes = checked_add(out.nodes, c.placements);
  };
  job.estimate = [estimates, count](std::size_t id) { return id < count ? (*estimates)[id].work : 0.0; };
  // Size estimate in search-node equivalents for the feasibility check
  // (which assumes 1e9 nodes per second): a placement costs about one node,
  // and the join tests about a tenth of the key pairs (bucketing), ten per
  // node's time, so pairs / 100.
  job.probe = [estimates, count](std::size_t id, std::mt19937_64&) {
    if (id >= count) return 0.0;
    const TaskEstimate& e = (*estimates)[id];
    return e.placements + (e.work - e.placements) / 100.0;
  };
  return job;
}

double join_memory_estimate(int n, int outer, int workers) {
  check_join(n, outer);
  const auto& e = task_list(n, outer)->estimates;
  double largest = 0;
  for (const auto& x : e) largest = std::max(largest, x.placements);
  // Per placement: its key and group as enumerated (12 bytes, up to 2× for
  // vector growth) and the key sorted by group (8 bytes); plus about 1 MiB
  // of tables and one group's buckets per worker.
  // The program itself (code, libraries, thread stacks) takes about 16 MiB.
  return static_cast<double>(std::max(1, workers)) * (largest * (12.0 * 2.0 + 8.0) + (1 << 20)) + (16 << 20);
}

QueensCounts join_counts(int n, const engine::Tally& totals) {
  return burnside(n, totals.get(kJAll), totals.get(kJRot180), totals.get(kJRot90));
}

}  // namespace pcount::queens
