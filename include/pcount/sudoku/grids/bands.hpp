#pragma once
/// @file
/// Sudoku grid counts by band classes (`--method bands`).
///
/// A band is a horizontal strip of boxes. Its column signature σ gives, for
/// every column, the set of digits the band puts there; B(σ) is the number of
/// bands with signature σ. Given the signatures, the bands of a grid are
/// independent, so grid totals are sums of products of B values over
/// compatible signatures (every column's sets partition the digits).
///
/// - 3x3 (9×9): Felgenhauer & Jarvis 2005, in the column-signature form of
///   docs/sudoku-grids.md: N = Σ_{σ1} B(σ1)·T(σ1), T(σ1) = Σ over the
///   56³ column-compatible σ2 of B(σ2)·B(σ3). B and T depend only on the
///   three box "shapes" (partitions of the digits into 3 column sets, 280 of
///   them) up to digit relabelling and box order; with box 1's shape fixed
///   the 280² (box 2, box 3) shape pairs fall into 44 classes, the engine's
///   tasks. Internal checks (InternalError on failure): Σ_σ B(σ) =
///   9!·56·6⁶ = 948,109,639,680 and exactly 44 classes.
/// - 2xC and Cx2 (N = 2C, C = 2..5): transposed to C×2 boxes, two bands of
///   C rows, N = Σ_σ B(σ)² (docs/sudoku-grids.md; known totals Russell
///   2005 for 2x4, Pettersen 2005 for 2x5). B is memoised per isomorphism
///   class of the C-regular column–digit bipartite graph (canonical form by
///   nauty); the classes are the engine's tasks.
///
/// - `factorisations` (2xC and Cx2, C = 2..5): the same Σ B², classes as
///   stack-configuration orbits, B by pivot_factorisations (rooted edge
///   pivot, degree-4 two-factor identity, a memo shared by all tasks; after
///   linche89/sudoku-enumeration, 2026).
///
/// B(σ) = ordered 1-factorisations of the column–digit bipartite graph (the
/// rows of the band are its perfect matchings), counted by
/// ordered_one_factorisations.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "pcount/bigint.hpp"
#include "pcount/engine/task.hpp"
#include "pcount/u128.hpp"

namespace pcount::sudoku {

/// Number of ordered 1-factorisations (ordered lists of k disjoint perfect
/// matchings covering every edge) of a k-regular bipartite graph with
/// n = adjacency.size() left vertices (columns) and n right vertices
/// (digits): adjacency[c] has bit d set when column c meets digit d.
/// Needs 1 ≤ n ≤ 32; every column must have exactly k bits and every digit
/// degree k (throws std::invalid_argument otherwise). Method: the perfect
/// matchings are placed one at a time with column 0's digits used in
/// increasing order (×k!), and the last two in closed form, 2^(cycles-1)
/// (as for Latin rectangles, docs/latin.md).
[[nodiscard]] u128 ordered_one_factorisations(std::span<const std::uint32_t> adjacency, int k);

/// Parts that ordered_one_factorisations_part splits a count into, for a
/// k-regular graph with n columns: k(k-1)/2 when k ≥ 4 and n ≥ 2 (the digit
/// pairs column 1 may give the first 2-factor), else 1.
[[nodiscard]] int one_factorisation_parts(int n, int k);

/// The part `part` (0 ≤ part < one_factorisation_parts(n, k)) of
/// ordered_one_factorisations(adjacency, k): the factorisations whose first
/// 2-factor (the matchings holding column 0's two smallest digits) gives
/// column 1 its `part`-th digit pair (pairs in increasing order of their
/// bits, those that do not occur count 0). The parts add up to the whole
/// count, so a large count can be split into tasks. Throws
/// std::invalid_argument like ordered_one_factorisations, and for a part
/// out of range.
[[nodiscard]] u128 ordered_one_factorisations_part(std::span<const std::uint32_t> adjacency, int k, int part);

/// ordered_one_factorisations(adjacency, k) (`part` < 0) or
/// ordered_one_factorisations_part(adjacency, k, part), the same count, for
/// the top call of an engine task: when the task may split
/// (engine/split.hpp) it gives parts of its first level's search (the first
/// 2-factor or matching, column by column) to idle workers and adds up
/// their sums before the k! factor. The plain functions above never split,
/// so a count nested in another kernel's search stays on its thread.
[[nodiscard]] u128 ordered_one_factorisations_splitting(std::span<const std::uint32_t> adjacency, int k, int part = -1);

/// A memo of ordered 1-factorisation counts of residual graphs (degree ≥ 4,
/// at most 11 columns) keyed by their canonical form (nauty, columns and
/// digits cut into cells by an isomorphism invariant; pivot_factorisations
/// makes the keys), shared by every thread and every class of a job.
/// Sharded by key hash, each shard under its own mutex. Bounded: past
/// `max_entries` graphs nothing more is stored (misses are then counted
/// afresh), so a job's memory stays below about max_entries ·
/// kBytesPerEntry plus the bucket arrays.
class FactorisationMemo {
public:
  /// Estimated bytes per stored graph (key and value 32 bytes, hash node,
  /// allocator overhead).
  static constexpr std::size_t kBytesPerEntry = 64;
  /// The default bound, 2^27 graphs (about 8.6 GB at kBytesPerEntry plus
  /// 1 GB of buckets): a job fits in 24 GiB.
  static constexpr std::size_t kDefaultMaxEntries = std::size_t{1} << 27;

  explicit FactorisationMemo(std::size_t max_entries = kDefaultMaxEntries);
  ~FactorisationMemo();
  FactorisationMemo(const FactorisationMemo&) = delete;
  FactorisationMemo& operator=(const FactorisationMemo&) = delete;

  /// What the memo did so far.
  struct Stats {
    std::uint64_t lookups = 0;  ///< find() calls
    std::uint64_t hits = 0;     ///< find() calls that found the graph
    std::size_t entries = 0;    ///< graphs stored
    std::size_t bytes = 0;      ///< estimated memory: entries · kBytesPerEntry + buckets
    std::size_t max_entries = 0;
  };
  [[nodiscard]] Stats stats() const;
  /// Looks `key` up; on a hit sets `value` and returns true. Thread-safe.
  bool find(u128 key, u128& value);
  /// Stores `value` under `key` unless the memo is full. Thread-safe.
  void insert(u128 key, u128 value);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Ordered 1-factorisations of a k-regular bipartite graph (as
/// ordered_one_factorisations: n = adjacency.size() columns and n digits,
/// adjacency[c] = digit mask of column c), by the rooted edge pivot
/// F(G) = k · Σ_{M ∋ e} F(G − M) over the perfect matchings M through the
/// edge e with the fewest of them, the degree-4 identity
/// F₄(G) = 6 · Σ_H 2^(c(H) + c(G − H)) over the 2-factors H holding column
/// 0's two smallest digits (c = cycles), and F₂ = 2^c (docs/sudoku-grids.md,
/// "The factorisations method"; after linche89/sudoku-enumeration, 2026).
/// Residual graphs of degree ≥ 4 go through `memo` when one is given and
/// n ≤ 11. Needs 1 ≤ n ≤ 32, every column and digit of degree k; throws
/// std::invalid_argument otherwise, engine::TaskAbandoned when the run is
/// being stopped. Called inside an engine task that may split
/// (engine/split.hpp), it gives parts of its outer search (the pivot's
/// matchings, or degree four's first 2-factor columns) to idle workers,
/// which count through the same memo, and adds up their sums before the
/// final factor (the same count).
[[nodiscard]] u128 pivot_factorisations(std::span<const std::uint32_t> adjacency, int k,
                                        FactorisationMemo* memo = nullptr);

/// A grid count split into band classes: the engine job over the classes
/// and the final scaling of its counter to the grid total.
class BandCount {
public:
  virtual ~BandCount() = default;
  /// Number of classes = the job's task count.
  [[nodiscard]] virtual std::size_t class_count() const = 0;
  /// The job: task i adds class i's weighted contribution to counter 0.
  /// `fingerprint` identifies problem and method; the class count is appended.
  [[nodiscard]] virtual engine::Job job(std::string fingerprint) const = 0;
  /// The grid total from the job's summed tally (all tasks must have run).
  [[nodiscard]] virtual BigInt total(const engine::Tally& totals) const = 0;
  /// One measurement of the run for the report.
  struct RunStat {
    std::string name;
    double value = 0;
    bool integer = false;  ///< a count: report it as an integer
  };
  /// Measurements of the run for the report, e.g. a memo's lookups and hit
  /// rate; none by default.
  [[nodiscard]] virtual std::vector<RunStat> run_stats() const { return {}; }
};

/// 9×9 (3x3 boxes) by the 44 band classes. The tables are computed at
/// construction from first principles (shapes, B by ordered
/// 1-factorisations, classes by union-find over symmetry generators) on the
/// calling thread (a few ms; `threads` is accepted for symmetry with
/// make_bands_two_column and unused). Throws InternalError when Σ_σ B(σ) ≠
/// 948,109,639,680 or the class count is not 44. A task gives parts of its
/// completion count T (a sum of 56 terms) to idle workers and weights T
/// after joining them (Job::splits).
[[nodiscard]] std::shared_ptr<const BandCount> make_bands_3x3(int threads = 0);

/// 2xC and Cx2 grids (side 2C), 2 ≤ C ≤ 5, by Σ_σ B(σ)² with B memoised per
/// canonical graph class (C = 4: 26 classes, C = 5: 355). Class discovery
/// (one nauty canonical labelling per enumerated signature) uses up to
/// `threads` threads (0 = all). Throws std::invalid_argument for other C.
/// With `split`, each class is split into one_factorisation_parts(2C, C)
/// tasks (C ≥ 4: C(C-1)/2, so the largest task of 2x5 is about a tenth of
/// its class): task i·parts + p adds part p of B(class i) to counter i
/// (one counter per class), and total() squares the sums; the fingerprint
/// says "split=<parts>". Without it, one task per class and one counter.
/// Either way a task gives parts of its count away while it runs
/// (ordered_one_factorisations_splitting).
[[nodiscard]] std::shared_ptr<const BandCount> make_bands_two_column(int c, int threads = 0, bool split = false);

/// 2xC and Cx2 grids (side 2C), 2 ≤ C ≤ 5, by N = Σ_class weight · B² over
/// the classes of stack_configuration_classes for C ≤ 4 and of
/// two_column_signature_classes (faster there) for C = 5
/// (`--method factorisations`), B by
/// pivot_factorisations with one FactorisationMemo of at most
/// `memo_entries` graphs shared by all tasks (run_stats() gives its
/// lookups, hits, hit rate, entries and estimated bytes). One task per
/// class, which gives parts of B's search away while it runs
/// (pivot_factorisations). Throws std::invalid_argument for other C;
/// InternalError when a class count, the class weights (Σ = binom(2C,C)^C)
/// or a B (a positive multiple of C!) is wrong.
[[nodiscard]] std::shared_ptr<const BandCount> make_bands_factorisations(
    int c, int threads = 0, std::size_t memo_entries = FactorisationMemo::kDefaultMaxEntries);

/// B(σ) of a two-column band by the sub-band split (docs/sudoku-grids.md,
/// "The sub-band method"; after Pettersen's 4 + 2 split of 6x2 bands,
/// 2006): the ordered 1-factorisations of a k-regular bipartite graph with
/// n = 2k columns (adjacency[c] = digit mask of column c), counted as
/// binom(k,2) · Σ_K 2^cycles(K) · F(G − K) over the 2-factors K (the bottom
/// two rows) holding column 0's two smallest digits, with F of the top part
/// counted by the same split (down to a closed-form 2-regular part) and,
/// from degree 4, memoised per nauty canonical form. Needs
/// 1 ≤ k ≤ 6, n = 2k, every column and digit of degree k; throws
/// std::invalid_argument otherwise. Equals ordered_one_factorisations.
[[nodiscard]] u128 sub_band_factorisations(std::span<const std::uint32_t> adjacency, int k);

/// For measuring (bench/): the part of sub_band_factorisations whose bottom
/// 2-factor gives column 1 its `part`-th digit pair (0 ≤ part < binom(k,2),
/// pairs in increasing bit order; parts add up to the whole), with the
/// bottom 2-factors enumerated stored in `*leaves` when given. With
/// `max_leaves` > 0 it stops after that many (and returns 0: a timing run,
/// not a count). Top parts of degree ≥ 4 are cached in one process-wide
/// cache when `memo`, else counted afresh each time. Needs k ≥ 3; throws
/// std::invalid_argument otherwise or like sub_band_factorisations.
[[nodiscard]] u128 sub_band_factorisations_part(std::span<const std::uint32_t> adjacency, int k, int part,
                                                std::uint64_t* leaves = nullptr, std::uint64_t max_leaves = 0,
                                                bool memo = true);

/// For measuring (bench/): the share of the top parts found in the memo
/// cache over the first `max_leaves` bottom 2-factors of
/// sub_band_factorisations_part(adjacency, 6, part), in enumeration order,
/// starting from an empty cache of `cache_entries` entries (a 2x6 run's
/// holds 2^23, shared by all its tasks). Between 0 and 1. Needs k = 6,
/// 0 ≤ part < 15 and max_leaves > 0; throws std::invalid_argument
/// otherwise or like sub_band_factorisations.
[[nodiscard]] double sub_band_cache_hit_rate(std::span<const std::uint32_t> adjacency, int k, int part,
                                             std::uint64_t max_leaves,
                                             std::size_t cache_entries = std::size_t{1} << 23);

/// Knuth's random-probe estimate (1975) of the bottom 2-factors that
/// sub_band_factorisations enumerates for this graph (mean of `probes`
/// random paths, deterministic for a seed). Throws like
/// sub_band_factorisations.
[[nodiscard]] double sub_band_leaf_estimate(std::span<const std::uint32_t> adjacency, int k, int probes,
                                            std::uint64_t seed);

/// One class of Cx2-box band signatures: a column–digit graph up to
/// isomorphism.
struct BandSignatureClass {
  /// A representative: 2C column digit-masks, box b = columns 2b, 2b+1
  /// (column 2b holds digit 0; B does not depend on the orientation).
  std::vector<std::uint32_t> columns;
  /// Number of ordered signatures (S_0, …, S_{C-1}), S_b the C-set of box
  /// b's first column, whose column–digit graph is in this class.
  u128 weight = 0;
};

/// The signature classes of bands of C×2 boxes (2C columns, 2C digits).
struct SignatureClasses {
  /// Classes ordered by canonical form (stable ids for a given nauty build).
  std::vector<BandSignatureClass> classes;
  /// Orbits of signatures under digit relabelling, box order and column
  /// swaps within a box, before merging isomorphic column–digit graphs.
  std::size_t box_orbits = 0;
};

/// Finds the classes by orderly generation (multisets of column pairs, box
/// by box, deduplicated by nauty canonical form), using up to `threads`
/// threads (0 = all). The weights are orbit sizes (group order over
/// automorphism group order); throws InternalError unless they sum to
/// binom(2C,C)^C, and std::invalid_argument unless 2 ≤ C ≤ 6.
[[nodiscard]] SignatureClasses two_column_signature_classes(int c, int threads = 0);

/// The classes of C×2-box band signatures as orbits of *stack
/// configurations*: the C × 2C 0/1 matrix whose row b is the digit set S_b
/// of box b's first column (row weight C), reduced to the histogram of its
/// 2C digit columns (2^C patterns) and taken up to row permutations and row
/// complements (swapping a box's two columns); B is constant on an orbit.
/// The orbits are found by breadth-first closure over every histogram, in
/// increasing order of their least histogram (stable ids, no nauty): 2, 4,
/// 26, 355 for C = 2..5, as linche89/sudoku-enumeration (2026) finds, and
/// as many as the column–digit graph classes of two_column_signature_classes.
/// Each class's columns are its least histogram's signature (column 2b =
/// S_b, 2b+1 its complement, digits numbered in pattern order), its weight
/// the orbit size times the (2C)!/Π hist[p]! digit labellings, so the
/// weights sum to binom(2C,C)^C. Throws std::invalid_argument unless
/// 2 ≤ C ≤ 5.
[[nodiscard]] std::vector<BandSignatureClass> stack_configuration_classes(int c);

/// 2xC and Cx2 grids (side 2C), 2 ≤ C ≤ 6, by N = Σ_class weight · B² with
/// the classes of two_column_signature_classes and B by
/// sub_band_factorisations (`--method subbands`). One task per class, its
/// estimate a Knuth probe count of the class's bottom 2-factors; the weighted
/// squares are summed exactly in three counters (base-2^64 limbs, Boost
/// cpp_int per task), since the 2x6 total needs 166 bits. The top-part
/// cache is shared by the job's tasks. A task gives parts of B's bottom
/// 2-factors away while it runs (engine/split.hpp) and squares B after
/// joining them. Throws std::invalid_argument for
/// other C.
[[nodiscard]] std::shared_ptr<const BandCount> make_bands_sub_band(int c, int threads = 0);

/// Details of the 3x3 band tables, exposed for tests.
struct Bands3x3Tables {
  /// The 280 box shapes: per shape, its 3 column sets as 9-bit digit masks,
  /// in increasing mask order.
  std::vector<std::array<std::uint16_t, 3>> shapes;
  /// B(P*, P2, P3) for every shape pair, index P2·280 + P3, where P* is the
  /// shape {0,3,6},{1,4,7},{2,5,8} of box 1 (with fixed column orders).
  std::vector<std::uint32_t> b_fixed_box1;
  /// Index of P* in `shapes`.
  std::size_t box1_shape = 0;
  /// Class of each shape pair (index P2·280 + P3), 0..classes-1.
  std::vector<std::uint32_t> class_of;
  /// Number of classes (44).
  std::size_t classes = 0;
};

/// Builds the 3x3 tables (B filled from one representative per class).
/// Throws InternalError like make_bands_3x3.
[[nodiscard]] Bands3x3Tables bands_3x3_tables(int threads = 0);

/// B of a 3x3 band signature given as 9 column digit-masks (3 bits each,
/// boxes of 3 consecutive columns partitioning the 9 digits); computed
/// directly by ordered_one_factorisations (no tables).
[[nodiscard]] u128 band_count_3x3(const std::array<std::uint32_t, 9>& columns);

}  // namespace pcount::sudoku
