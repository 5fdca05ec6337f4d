// Depth-first search and engine decomposition over either kernel.
#include "pcount/sudoku/solver.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include "pcount/engine/fingerprint.hpp"
#include "pcount/engine/task.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/sudoku/solver_kernels.hpp"
#include "simd9.hpp"

namespace pcount::sudoku {

namespace {

/// Most open cells handed to the endgame counter in a count of at least
/// kBandCacheLimit solutions. 32 measured best: the 6,696,000 count needs
/// half the instructions of no endgame (48 or more makes the uniqueness
/// checks of hard puzzles 1.5-2.4× slower: plain backtracking prunes less
/// than propagation). Overridable at compile time for experiments.
#ifndef PCOUNT_ENDGAME_CELLS
#define PCOUNT_ENDGAME_CELLS 32
#endif
constexpr int kEndgameCells = PCOUNT_ENDGAME_CELLS;

/// The same bound for counts stopped at fewer solutions (uniqueness
/// checks). The endgame's branches are data-dependent, so it costs more
/// time per instruction than propagation: in CPU time (AVX2 path, limit 2,
/// results/sudoku-puzzles.md 2026-11-27) 16 ran 2-4 % faster than 32 on
/// every reference set but the 17-clue one (level); 8-24 were alike.
#ifndef PCOUNT_CHECK_ENDGAME_CELLS
#define PCOUNT_CHECK_ENDGAME_CELLS 16
#endif
constexpr int kCheckEndgameCells = PCOUNT_CHECK_ENDGAME_CELLS;

/// Most open cells handed to the endgame counter while the first solution
/// is still to be found and written (the counter then keeps the values of
/// its first completion; 0 = never, the default). Measured on simd9, limit
/// 2 (results/sudoku-puzzles.md, 2026-11-25): 32 takes 21 % of the
/// instructions off the serg set (callgrind, AVX2 path; 14 % of its CPU
/// time), the hard sets within 1 %, but on the AVX-512 path, where a
/// propagation costs half as much, it gains nothing on serg and costs
/// 10 % of the CPU time on the 17-clue set (the plain backtracker's
/// branches); a limit per path would break the rule that every path visits
/// the same nodes. 28, 34, 36 and 40 measured too (see the results).
/// Overridable at compile time for experiments.
#ifndef PCOUNT_FIRST_ENDGAME_CELLS
#define PCOUNT_FIRST_ENDGAME_CELLS 0
#endif
constexpr int kFirstEndgameCells = PCOUNT_FIRST_ENDGAME_CELLS;
/// Open cells an endgame holds.
constexpr int kEndgameMax = std::max({kEndgameCells, kCheckEndgameCells, kFirstEndgameCells});
static_assert(kEndgameMax <= 64);

/// Counts stopped at fewer solutions than this (uniqueness checks) do not
/// use the band cache: they rarely reach a one-band endgame twice.
constexpr std::uint64_t kBandCacheLimit = 1024;

/// Completions of a band whose open cells are the only ones left, keyed by
/// the candidate masks of the band's cells (position within the band; 0 =
/// filled). Every band of a grid has the same peer structure, and with
/// every other cell placed (and its digit removed from its peers) the
/// completions are the colourings of these cells from their masks with no
/// two peers equal — a function of the key alone. This is what lets the
/// count of a puzzle with many solutions reuse the count of its last band
/// across every filling of the bands above that leaves the same digits open
/// in its columns (the idea of the band method of enumerating grids,
/// Felgenhauer & Jarvis 2006, found by the search instead of built in).
/// One direct-mapped table per thread, an entry replaced on collision; only
/// exact counts (not cut by a limit) are stored. A search reads only the
/// entries it stored itself (its generation), so its counts and node counts
/// do not depend on which searches ran on the thread before it.
struct BandCache {
  static constexpr int kCells = 32;  ///< band cells (R·N) a key holds; larger bands are not cached
  static constexpr std::size_t kSlots = std::size_t{1} << 13;
  struct Entry {
    std::array<std::uint16_t, kCells> key{};
    std::uint64_t count = 0;
    std::uint64_t generation = 0;  ///< the search that stored it (0: empty)
  };
  std::vector<Entry> slots = std::vector<Entry>(kSlots);
  std::uint64_t hits = 0, misses = 0;
  std::uint64_t generation = 0;  ///< of the last search that started using the table

  static std::size_t slot_of(const std::array<std::uint16_t, kCells>& key) {
    std::uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (std::size_t i = 0; i < kCells; i += 4) {
      std::uint64_t w;
      std::memcpy(&w, key.data() + i, sizeof w);
      h = (h ^ w) * 0xff51afd7ed558ccdULL;
      h ^= h >> 29;
    }
    return static_cast<std::size_t>(h >> 51) & (kSlots - 1);
  }
  static BandCache& local() {
    thread_local BandCache cache;
    return cache;
  }
};

/// Endgame counter: the completions of a propagated state with few open
/// cells. Every placement has already removed its value from its peers, so
/// the completions are exactly the assignments of a candidate to every open
/// cell with no two peers (same row, column or box) equal — a small graph
/// colouring, counted by plain backtracking (fewest candidates first) without
/// the kernel's propagation.
struct Endgame {
  int t = 0;                                  ///< open cells
  std::array<std::uint64_t, kEndgameMax> adj{};  ///< peers among the open cells (bit j = cell j)
  std::uint64_t nodes = 0;
  /// Band cache (null: not used): open cells of each band (bit j = cell j)
  /// and each open cell's position within its band.
  BandCache* cache = nullptr;
  std::uint64_t generation = 0;  ///< entries this search may read
  std::array<std::uint64_t, kMaxSide> band_cells{};
  std::array<std::uint8_t, kEndgameMax> band_of{}, pos_in_band{};
  /// Where to keep the values (1-based) of the open cells in the first
  /// completion found, or null; set to null once they are kept.
  std::uint8_t* first = nullptr;

  /// Row, column and box units (numbered 0…3N-1) of each cell of a 9×9
  /// grid, and its band: a table instead of divisions by the run-time side
  /// (setup runs once per endgame; 18 % fewer instructions in it).
  struct Cell9 {
    std::uint8_t unit[3], band;
  };
  static constexpr std::array<Cell9, 81> kCells9 = [] {
    std::array<Cell9, 81> a{};
    for (int i = 0; i < 81; ++i) {
      const int r = i / 9, c = i % 9;
      a[static_cast<std::size_t>(i)] = Cell9{{static_cast<std::uint8_t>(r), static_cast<std::uint8_t>(9 + c),
                                              static_cast<std::uint8_t>(18 + 3 * (r / 3) + c / 3)},
                                             static_cast<std::uint8_t>(r / 3)};
    }
    return a;
  }();

  /// Builds the peer sets of open cells `cells` (row-major indices).
  void setup(const BoxShape& shape, const std::uint16_t* cells, int count) {
    t = count;
    const int n = shape.side();
    std::array<std::uint64_t, 3 * kMaxSide> unit{};
    std::array<std::array<int, 3>, kEndgameMax> of{};
    const bool nine = shape == BoxShape{3, 3};
    for (int k = 0; k < t; ++k) {
      if (nine) {
        const Cell9& c9 = kCells9[cells[k]];
        of[static_cast<std::size_t>(k)] = {c9.unit[0], c9.unit[1], c9.unit[2]};
      } else {
        const int r = cells[k] / n, c = cells[k] % n;
        of[static_cast<std::size_t>(k)] = {r, n + c, 2 * n + shape.box_of(r, c)};
      }
      for (int u : of[static_cast<std::size_t>(k)]) unit[static_cast<std::size_t>(u)] |= std::uint64_t{1} << k;
    }
    const int band_size = shape.rows * n;
    if (band_size > BandCache::kCells) cache = nullptr;
    for (int k = 0; k < t; ++k) {
      const int b = nine ? kCells9[cells[k]].band : cells[k] / band_size;
      band_of[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(b);
      pos_in_band[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(cells[k] - b * band_size);
      band_cells[static_cast<std::size_t>(b)] |= std::uint64_t{1} << k;
    }
    for (int k = 0; k < t; ++k) {
      const auto& u = of[static_cast<std::size_t>(k)];
      adj[static_cast<std::size_t>(k)] =
          (unit[static_cast<std::size_t>(u[0])] | unit[static_cast<std::size_t>(u[1])] | unit[static_cast<std::size_t>(u[2])]) &
          ~(std::uint64_t{1} << k);
    }
  }

  using Masks = std::array<std::uint16_t, kEndgameMax>;

  /// Completions (at most `limit`) of the open cells `rem` with candidates `m`.
  std::uint64_t count(const Masks& m, std::uint64_t rem, std::uint64_t limit) {
    if (!rem) {
      if (first) keep_first(m);
      return 1;
    }
    if (cache && !first && std::popcount(rem) >= 3 &&
        (rem & ~band_cells[band_of[static_cast<std::size_t>(std::countr_zero(rem))]]) == 0) {
      // Only one band is open: its count is a function of its masks.
      std::array<std::uint16_t, BandCache::kCells> key{};
      for (std::uint64_t r = rem; r; r &= r - 1) {
        const auto k = static_cast<std::size_t>(std::countr_zero(r));
        if (!m[k]) return 0;  // (a key tells filled cells by mask 0)
        key[pos_in_band[k]] = m[k];
      }
      BandCache::Entry& e = cache->slots[BandCache::slot_of(key)];
      if (e.generation == generation && e.key == key) {
        ++cache->hits;
        return std::min(e.count, limit);
      }
      ++cache->misses;
      BandCache* c = cache;
      cache = nullptr;  // below this node every state is in the same band
      const std::uint64_t n = count(m, rem, limit);
      cache = c;
      if (n < limit) {
        BandCache::Entry& slot = cache->slots[BandCache::slot_of(key)];
        slot.key = key;
        slot.count = n;
        slot.generation = generation;
      }
      return n;
    }
    int best = -1, fewest = 99;
    for (std::uint64_t r = rem; r; r &= r - 1) {
      const int k = std::countr_zero(r);
      const int c = std::popcount(static_cast<unsigned>(m[static_cast<std::size_t>(k)]));
      if (c < fewest) {
        fewest = c;
        best = k;
        if (c <= 1) break;
      }
    }
    if (fewest == 0) return 0;
    const std::uint64_t next = rem & ~(std::uint64_t{1} << best);
    if (!next) {
      if (first) {
        Masks last = m;
        last[static_cast<std::size_t>(best)] = static_cast<std::uint16_t>(m[static_cast<std::size_t>(best)] & -m[static_cast<std::size_t>(best)]);
        keep_first(last);
      }
      return std::min<std::uint64_t>(static_cast<std::uint64_t>(fewest), limit);
    }
    const std::uint64_t peers = adj[static_cast<std::size_t>(best)] & next;
    unsigned cand = m[static_cast<std::size_t>(best)];
    std::uint64_t total = 0;
    while (cand) {
      const unsigned v = cand & (0u - cand);
      cand ^= v;
      ++nodes;
      Masks copy = m;  // fixed size: a few vector moves, no call
      copy[static_cast<std::size_t>(best)] = static_cast<std::uint16_t>(v);  // (its value, for keep_first)
      bool ok = true;
      for (std::uint64_t q = peers; q; q &= q - 1) {
        std::uint16_t& x = copy[static_cast<std::size_t>(std::countr_zero(q))];
        x = static_cast<std::uint16_t>(x & ~v);
        if (!x) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      total += count(copy, next, limit - total);
      if (total >= limit) return total;
    }
    return total;
  }

  /// Keeps the values of a completion whose every open cell has one candidate.
  void keep_first(const Masks& m) {
    for (int k = 0; k < t; ++k)
      first[k] = static_cast<std::uint8_t>(std::countr_zero(static_cast<unsigned>(m[static_cast<std::size_t>(k)])) + 1);
    first = nullptr;
  }
};

/// `s` with value v+1 in `cell` (or a configuration branch), into `t`.
/// A kernel that propagates from one state into another (Simd9Kernel) does
/// so without a copy: the copy's stores, in pieces narrower than the
/// kernel's loads, cannot be forwarded to them (they wait for the stores
/// to leave the store buffer).
template <class K>
bool assign_child(const K& kernel, typename K::State& t, const typename K::State& s, int cell, int v) {
  if constexpr (requires { kernel.assign(t, s, cell, v); }) {
    return kernel.assign(t, s, cell, v);
  } else {
    t = s;
    return kernel.assign(t, cell, v);
  }
}

/// Depth-first counter over a kernel; stops at `limit` solutions.
template <class K>
struct Search {
  const K& kernel;
  std::uint64_t limit;
  std::uint8_t* first = nullptr;  ///< where to write the first solution, or null
  std::uint64_t count = 0;
  std::uint64_t nodes = 0;
  /// Stop check (engine::throw_if_stopped) every 256 calls: a call
  /// propagates a state (hundreds of instructions) or counts a whole
  /// endgame of up to kEndgameCells open cells, so 256 calls stay well
  /// under a second and the tick is negligible.
  engine::StopPoll<256> poll{};
  /// This search's entries in the thread's band cache (0: none yet).
  std::uint64_t cache_generation = 0;

  void dfs(typename K::State& s) {
    poll.tick();
    if (kernel.solved(s)) {
      if (count == 0 && first) kernel.write(s, first);
      ++count;
      return;
    }
    {
      // Few open cells: count the endgame directly (keeping the first
      // completion's values when the first solution is still to be written).
      const bool write_first = count == 0 && first;
      const int most = write_first ? kFirstEndgameCells : limit >= kBandCacheLimit ? kEndgameCells : kCheckEndgameCells;
      std::array<std::uint16_t, kEndgameMax> cells;
      Endgame::Masks masks{};
      const int t = most > 0 ? kernel.open_cells(s, cells.data(), masks.data(), most) : most + 1;
      if (t <= most) {
        Endgame e;
        std::array<std::uint8_t, kEndgameMax> values{};
        if (write_first) e.first = values.data();
        if (limit >= kBandCacheLimit) {
          e.cache = &BandCache::local();
          if (cache_generation == 0) cache_generation = ++e.cache->generation;
          e.generation = cache_generation;
        }
        e.setup(kernel.shape(), cells.data(), t);
        const std::uint64_t found = e.count(masks, t == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << t) - 1u, limit - count);
        if (write_first && found > 0) {
          kernel.write(s, first);  // the placed cells (open cells get their values next)
          for (int k = 0; k < t; ++k) first[cells[static_cast<std::size_t>(k)]] = values[static_cast<std::size_t>(k)];
        }
        count += found;
        nodes += e.nodes;
        return;
      }
    }
    const detail::Branch br = kernel.choose(s);
    std::uint32_t cand = br.candidates;
    while (cand) {
      const int v = std::countr_zero(cand);
      cand &= cand - 1;
      ++nodes;
      if (cand) {
        typename K::State t;
        if (assign_child(kernel, t, s, br.cell, v)) dfs(t);
      } else if (kernel.assign(s, br.cell, v)) {
        dfs(s);
      }
      if (count >= limit) return;
    }
  }
};

template <class K>
SolveResult solve_with(const Puzzle& puzzle, std::uint64_t limit) {
  const K kernel(puzzle);
  SolveResult r;
  typename K::State s;
  if (!kernel.start(s)) return r;
  r.first.assign(puzzle.cells.size(), 0);
  Search<K> search{kernel, limit == 0 ? std::numeric_limits<std::uint64_t>::max() : limit, r.first.data()};
  search.dfs(s);
  r.solutions = search.count;
  r.nodes = search.nodes;
  r.limit_reached = limit != 0 && search.count >= limit;
  if (r.solutions == 0) r.first.clear();
  return r;
}

/// The kernel that runs: automatic and simd9 resolved to a forced path;
/// throws InvalidArgument("kernel") for a forced path this CPU lacks.
template <class K>
Solve9Result solve9_with(const std::uint8_t* cells, std::uint64_t limit, std::uint8_t* first) {
  const K kernel(cells);
  Solve9Result r;
  typename K::State s;
  if (!kernel.start(s)) return r;
  Search<K> search{kernel, limit == 0 ? std::numeric_limits<std::uint64_t>::max() : limit, first};
  search.dfs(s);
  r.solutions = search.count;
  r.nodes = search.nodes;
  r.limit_reached = limit != 0 && search.count >= limit;
  return r;
}

/// The search tree of one puzzle (engine::TreeProblem): nodes are propagated
/// states; a node's children assign each candidate of its MRV cell, dead
/// assignments left out.
template <class K>
class PuzzleTree {
public:
  struct Node {
    typename K::State state;
    bool alive = false;
  };

  explicit PuzzleTree(const Puzzle& puzzle, std::uint64_t limit) : kernel_(puzzle), limit_(limit) {}

  [[nodiscard]] Node root() const {
    Node n;
    n.alive = kernel_.start(n.state);
    return n;
  }

  [[nodiscard]] std::vector<Node> children(const Node& node) const {
    std::vector<Node> kids;
    if (!node.alive || kernel_.solved(node.state)) return kids;
    const detail::Branch br = kernel_.choose(node.state);
    std::uint32_t cand = br.candidates;
    while (cand) {
      const int v = std::countr_zero(cand);
      cand &= cand - 1;
      Node k;
      k.alive = assign_child(kernel_, k.state, node.state, br.cell, v);
      if (k.alive) kids.push_back(k);
    }
    return kids;
  }

  void count_subtree(const Node& node, engine::Tally& tally) const {
    if (!node.alive) return;
    typename K::State s = node.state;
    Search<K> search{kernel_, limit_ == 0 ? std::numeric_limits<std::uint64_t>::max() : limit_, nullptr};
    search.dfs(s);
    tally.add(0, search.count);
    tally.nodes = checked_add(tally.nodes, search.nodes);
  }

private:
  K kernel_;
  std::uint64_t limit_;
};

template <class K>
engine::Job count_job_with(const Puzzle& puzzle, const CountJobOptions& options, const char* name) {
  auto tree = std::make_shared<const PuzzleTree<K>>(puzzle, options.limit);
  const int depth = options.split_depth >= 0 ? options.split_depth : engine::auto_split_depth(*tree, options.min_tasks);
  auto frontier = std::make_shared<const std::vector<typename PuzzleTree<K>::Node>>(engine::expand(*tree, depth));
  engine::Job job;
  job.fingerprint = engine::Fingerprint::extending(options.fingerprint_prefix)
                        .flag("puzzle")
                        .add("box", std::to_string(puzzle.shape.rows) + "x" + std::to_string(puzzle.shape.cols))
                        .add("cells", to_line(puzzle.cells))
                        .add("limit", options.limit)
                        .add("kernel", name)
                        .add("split", depth);
  job.counter_names = {"solutions"};
  job.task_count = frontier->size();
  job.split_depth = depth;
  // Finished tasks' solutions, to stop starting tasks once the limit is met.
  auto found = std::make_shared<std::atomic<std::uint64_t>>(0);
  const std::uint64_t limit = options.limit;
  job.run_task = [tree, frontier, found, limit](std::size_t id, engine::Tally& out) {
    if (limit != 0 && found->load(std::memory_order_relaxed) >= limit) return;
    tree->count_subtree((*frontier)[id], out);
    if (limit != 0) found->fetch_add(static_cast<std::uint64_t>(out.get(0)), std::memory_order_relaxed);
  };
  // A count with a limit stops early, so only an unlimited count has a
  // meaningful size estimate.
  if (limit == 0)
    job.probe = [tree, frontier](std::size_t id, std::mt19937_64& rng) {
      return engine::knuth_probe(*tree, (*frontier)[id], rng);
    };
  return job;
}

/// Entry points of one concrete kernel K, for the kernel table; `job` is
/// the name its count jobs carry in their fingerprint (every simd9 path
/// counts the same tree, so they share "simd9").
template <class K>
SolveResult solve_entry(const Puzzle& p, std::uint64_t limit) {
  return solve_with<K>(p, limit);
}
template <class K>
Solve9Result solve9_entry(const std::uint8_t* cells, std::uint64_t limit, std::uint8_t* first) {
  return solve9_with<K>(cells, limit, first);
}
template <class K, const char* Name>
engine::Job job_entry(const Puzzle& p, const CountJobOptions& o) {
  return count_job_with<K>(p, o, Name);
}

/// fast9's 81-value entry: a plain solve, its first solution copied out.
Solve9Result fast9_solve9(const std::uint8_t* cells, std::uint64_t limit, std::uint8_t* first) {
  const SolveResult full =
      solve_with<detail::Fast9Kernel>(Puzzle{BoxShape{3, 3}, std::vector<std::uint8_t>(cells, cells + 81)}, limit);
  if (!full.first.empty()) std::copy(full.first.begin(), full.first.end(), first);
  return Solve9Result{full.solutions, full.limit_reached, full.nodes};
}

constexpr char kFast9[] = "fast9", kGeneral[] = "general", kSweep[] = "sweep", kSimd9[] = "simd9";
constexpr SimdPath kSse41 = SimdPath::sse41, kAvx2 = SimdPath::avx2, kAvx512 = SimdPath::avx512;
using Avx512 = detail::Simd9Kernel<SimdPath::avx512>;
using Avx2 = detail::Simd9Kernel<SimdPath::avx2>;
using Sse41 = detail::Simd9Kernel<SimdPath::sse41>;

/// The kernel table, in enum order.
constexpr KernelInfo kKernels[] = {
    {Kernel::automatic, "auto", true, false, nullptr},
    {Kernel::fast9, "fast9", true, true, nullptr, solve_entry<detail::Fast9Kernel>, fast9_solve9,
     job_entry<detail::Fast9Kernel, kFast9>},
    {Kernel::general, "general", true, false, nullptr, solve_entry<detail::GeneralKernel>, nullptr,
     job_entry<detail::GeneralKernel, kGeneral>},
    {Kernel::sweep, "sweep", false, false, nullptr, solve_entry<detail::SweepKernel>, nullptr,
     job_entry<detail::SweepKernel, kSweep>},
    {Kernel::simd9, "simd9", true, true, nullptr},
    {Kernel::simd9_sse41, "simd9-sse4.1", false, true, &kSse41, solve_entry<Sse41>, solve9_entry<Sse41>,
     job_entry<Sse41, kSimd9>},
    {Kernel::simd9_avx2, "simd9-avx2", false, true, &kAvx2, solve_entry<Avx2>, solve9_entry<Avx2>,
     job_entry<Avx2, kSimd9>},
    {Kernel::simd9_avx512, "simd9-avx512", false, true, &kAvx512, solve_entry<Avx512>, solve9_entry<Avx512>,
     job_entry<Avx512, kSimd9>},
};

/// The concrete kernel that runs for `k` on `puzzle`'s shape.
Kernel resolve(const Puzzle& puzzle, Kernel k) {
  if (k == Kernel::automatic) {
    if (!(puzzle.shape == BoxShape{3, 3})) return Kernel::general;
    // simd9's SSE4.1 build is about as fast as the scalar fast9, slower on
    // some sets (results/sudoku-puzzles.md): on a CPU with SSE4.1 only (and
    // no PCOUNT_SIMD asking for a path) the automatic choice is fast9.
    k = simd_path() != SimdPath::sse41 || simd_path_forced() ? Kernel::simd9 : Kernel::fast9;
  }
  if (k == Kernel::simd9) {
    switch (simd_path()) {
      case SimdPath::avx512:
        return Kernel::simd9_avx512;
      case SimdPath::avx2:
        return Kernel::simd9_avx2;
      default:
        return Kernel::simd9_sse41;
    }
  }
  if (const SimdPath* p = kernel_info(k).path; p && !simd_path_supported(*p))
    throw InvalidArgument("kernel", std::string("this CPU cannot run the ") + simd_path_name(*p) + " path");
  return k;
}

}  // namespace

std::span<const KernelInfo> kernels() { return kKernels; }

const KernelInfo& kernel_info(Kernel k) {
  const auto i = static_cast<std::size_t>(k);
  if (i >= std::size(kKernels) || kKernels[i].kernel != k) throw InternalError("kernel missing from the table");
  return kKernels[i];
}

const char* kernel_name(Kernel k) { return kernel_info(k).name; }

std::optional<Kernel> kernel_by_name(std::string_view name) {
  for (const KernelInfo& k : kKernels)
    if (name == k.name) return k.kernel;
  return std::nullopt;
}

Kernel automatic_kernel(const BoxShape& shape) {
  const Kernel k = resolve(Puzzle{shape, {}}, Kernel::automatic);
  return kernel_info(k).path ? Kernel::simd9 : k;
}

SolveResult solve(const Puzzle& puzzle, std::uint64_t limit, Kernel kernel) {
  return kernel_info(resolve(puzzle, kernel)).solve(puzzle, limit);
}

Solve9Result solve9(const std::uint8_t* cells, std::uint64_t limit, Kernel kernel, std::uint8_t* first) {
  static const Puzzle nine{BoxShape{3, 3}, {}};
  const KernelInfo& k = kernel_info(resolve(nine, kernel));
  if (!k.solve9)
    throw InvalidArgument("kernel", std::string("solve9 runs 9×9 kernels only, not ") + kernel_name(kernel));
  return k.solve9(cells, limit, first);
}

engine::Job make_count_job(const Puzzle& puzzle, const CountJobOptions& options) {
  return kernel_info(resolve(puzzle, options.kernel)).count_job(puzzle, options);
}

}  // namespace pcount::sudoku
