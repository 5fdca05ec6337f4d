#pragma once
/// @file
/// Reduced Latin squares and rectangles by bipartite-graph classes
/// (McKay & Rogoyski 1995, McKay & Wanless 2005; docs/latin.md "Method 2").
///
/// With N(H) = ordered 1-factorisations of H and Aut(G) the automorphisms
/// preserving columns and symbols:
///   K(k,n) (all k×n Latin rectangles) = Σ_{classes G, k-regular} (n!)²/|Aut G| · N(G)
///   L(n) = Σ_{classes G, h-regular, h = ⌊n/2⌋} (n!)²/|Aut G| · N(G) · N(Ḡ)
/// and R(k,n) = K(k,n)·(n-k)!/(n!·(n-1)!), R(n) = L(n)/(n!·(n-1)!).
/// N is computed by DFS (count_factorisations) for degrees up to
/// b = ⌊(n-1)/2⌋ and by peeling one matching above that:
/// N(G) = d·Σ_{M ∋ (col 0, first symbol)} N(G − M), N(G − M) looked up in the
/// table of (d-1)-regular classes by a key that identifies the class.
///
/// Class lists come from nauty's genbg (see genbg.hpp) and are cached on
/// disk, one file per (n, d), written atomically and rebuilt when missing or
/// corrupt. Every class (or a fixed-size slice of classes) is one engine
/// task, so the thread, task-id, checkpoint and shard rules of the engine
/// apply unchanged.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pcount/engine/task.hpp"
#include "pcount/bigint.hpp"
#include "pcount/u128.hpp"
#include "pcount/latin/bipartite.hpp"

namespace pcount::latin {

/// One isomorphism class of regular n+n bipartite graphs, in 24 bytes
/// (order-11 lists hold up to 1.7·10⁸ classes). Its canonical key
/// (Canonical::key: the canonical adjacency, bit c·n + s) is also its
/// representative, so no graph is stored.
struct GraphClass {
  std::uint64_t key_low = 0;        ///< bits 0-63 of the canonical key
  std::uint64_t key_high = 0;       ///< bits 64-127 of the canonical key
  std::uint64_t automorphisms = 0;  ///< |Aut| preserving both sides

  GraphClass() = default;
  GraphClass(u128 key, std::uint64_t aut) : key_low(low64(key)), key_high(high64(key)), automorphisms(aut) {}
  /// The canonical key.
  [[nodiscard]] u128 key() const { return join64(key_low, key_high); }
  /// The representative: the canonical form of the class, as n+n (n as in
  /// the list the class came from).
  [[nodiscard]] BipGraph graph(int n) const;
};

/// Where class lists are cached.
struct CacheOptions {
  /// Cache directory; nullopt = no disk cache (always run genbg).
  std::optional<std::filesystem::path> dir;
  /// The parameter to name in errors about `dir`.
  std::string option = "cache_dir";
};

/// The cache file of the d-regular n+n class list in `dir`
/// ("latin-classes-n<n>-d<d>.txt"; its format: regular_classes).
[[nodiscard]] std::filesystem::path class_list_file(const std::filesystem::path& dir, int n, int d);

/// Most slices a class list job may have (genbg's res/mod; results/latin.md
/// measured slices of 1/1000 and 1/100,000 of the 5-regular 11+11 list).
inline constexpr int kMaxListSlices = 1000000;

/// The part file of slice `res` of `slices` of the d-regular n+n list in
/// `dir` ("latin-classes-n<n>-d<d>.part-<res>-of-<slices>.txt"): the list's
/// format (regular_classes), its header ending " slice=<res>/<slices>".
[[nodiscard]] std::filesystem::path class_part_file(const std::filesystem::path& dir, int n, int d, int res,
                                                    int slices);

/// An engine job that builds the d-regular n+n class list in the cache
/// directory as `slices` tasks, for a cluster to run as shards or MPI ranks
/// (docs/latin.md, "R(11) on a cluster"): task i runs genbg's slice
/// i/slices, canonicalises and sorts its classes and writes them as a part
/// file (class_part_file: atomically, checksummed); a valid part already
/// there is read instead, so a rerun redoes only what is missing. Counter 0
/// "classes" counts the classes of the tasks run. Once every part of one
/// `slices` is in the directory, regular_classes merges them into the list
/// file instead of running genbg. 2 ≤ n ≤ kMaxClassOrder, 1 ≤ d ≤ n/2
/// (InvalidArgument("order")), 1 ≤ slices ≤ kMaxListSlices
/// (InvalidArgument("slices")); `cache.dir` must be set and writable
/// (InvalidArgument(cache.option)).
[[nodiscard]] engine::Job make_class_list_job(int n, int d, int slices, const CacheOptions& cache);

/// The size of the d-regular n+n list file in the cache directory: read
/// when valid, else merged from a complete set of part files and written
/// (atomically); nullopt when neither is there. Never runs genbg. Throws
/// InternalError when two parts share a class, InvalidArgument(cache.option)
/// when the list cannot be written.
[[nodiscard]] std::optional<std::size_t> merge_class_parts(int n, int d, const CacheOptions& cache);

/// The cache file of the d-regular n+n lookup table in `dir`
/// ("latin-table-n<n>-d<d>.txt"; its format: ClassJob::table_from_cache).
[[nodiscard]] std::filesystem::path table_cache_file(const std::filesystem::path& dir, int n, int d);

/// The default cache directory: $XDG_CACHE_HOME/pcount, else
/// $HOME/.cache/pcount; nullopt when neither variable is set.
[[nodiscard]] std::optional<std::filesystem::path> default_cache_dir();

/// Checks that `dir` is, or can be made, a writable directory: folders that
/// do not exist yet are made for the check and removed again, so nothing is
/// left behind (the cache writers make them when they first write a file).
/// Throws InvalidArgument(option) with the reason otherwise.
void ensure_writable_dir(const std::filesystem::path& dir, const std::string& option);

/// Every class of d-regular n+n bipartite graphs (2 ≤ n ≤ kMaxClassOrder,
/// 0 ≤ d ≤ n), sorted by canonical key (so the list does not depend on
/// genbg's output order or on how it was split). Loaded from the cache file
/// "latin-classes-n<n>-d<d>.txt" when it is valid (a header naming n, d and
/// the source; one line "<canonical key, 32 hex digits> <|Aut|>" per class,
/// keys strictly increasing, each graph d-regular; "end <count> <FNV-1a 64
/// of the class lines>"), otherwise generated —
/// merged from a complete set of part files (make_class_list_job) when
/// `dir` holds one, else
/// d ≤ n/2 with genbg (for n ≥ 10 and d ≥ 4 as one res/mod slice per worker, run concurrently on
/// `threads` engine workers, 0 = all hardware threads; engine/parallel.hpp), higher degrees as complements of the
/// (n-d)-regular list — canonised with nauty and written atomically (temp
/// file + rename). Throws what genbg_regular throws, and
/// InvalidArgument(cache.option) when the cache directory cannot be written.
[[nodiscard]] std::vector<GraphClass> regular_classes(int n, int d, const CacheOptions& cache, int threads = 0);

/// N(G) for every class of one degree, keyed for lookup.
///
/// Three indexes: by invariant_key (cheap) for the classes whose invariant
/// is unique in the table — a proof, checked when the table is built, that
/// the invariant separates them; by deep_invariant_key for the others whose
/// deep key is unique among them; and by canonical key for all classes,
/// searched in the class list itself, which the table shares rather than
/// copies. Per class it holds N (8 bytes when every N < 2^64, else 16) and
/// 12 bytes of invariant index: about 20 bytes beside the list's 24.
class FactorTable {
public:
  FactorTable() = default;
  /// One entry per class of `classes` (order n, sorted by canonical key
  /// without repeats), N(G) in `values` in the same order (taken, and freed
  /// once narrowed, before the indexes are built). Throws InternalError
  /// when the sizes differ, the list is not strictly sorted, or it holds
  /// 2^32 classes or more.
  FactorTable(std::shared_ptr<const std::vector<GraphClass>> classes, int n, std::vector<u128> values);
  /// N of the class with this canonical key; throws InternalError if absent.
  [[nodiscard]] u128 at(u128 key) const;
  /// N of the class of g (any labelling): by invariant when it is unique,
  /// else by canonical form. Throws InternalError if the class is absent.
  [[nodiscard]] u128 lookup(const BipGraph& g) const;
  [[nodiscard]] std::size_t size() const { return classes_ ? classes_->size() : 0; }
  /// Classes whose invariant is shared with another class (looked up by
  /// canonical form).
  [[nodiscard]] std::size_t ambiguous() const { return ambiguous_; }
  /// Of those, the classes whose deep_invariant_key is shared too within
  /// that set (looked up by canonical form; the others by the deep key).
  [[nodiscard]] std::size_t canonical_only() const { return canonical_only_; }
  /// Bytes the table holds beside its class list.
  [[nodiscard]] std::size_t bytes() const;

private:
  [[nodiscard]] u128 value(std::size_t i) const { return wide_.empty() ? u128{narrow_[i]} : wide_[i]; }

  std::shared_ptr<const std::vector<GraphClass>> classes_;  // sorted by canonical key
  std::vector<std::uint64_t> narrow_;                       // N per class when every N < 2^64
  std::vector<u128> wide_;                                  // else N per class
  std::vector<std::uint64_t> inv_keys_;                     // sorted invariants unique among all classes
  std::vector<std::uint32_t> inv_index_;                    // their classes
  std::vector<std::uint64_t> shared_;                       // sorted invariants of two or more classes
  std::vector<std::uint64_t> deep_keys_;                    // sorted deep keys unique among those classes
  std::vector<std::uint32_t> deep_index_;                   // their classes
  std::size_t ambiguous_ = 0;
  std::size_t canonical_only_ = 0;
};

/// N(G) for a d-regular G by peeling one matching and looking up the
/// (d-1)-regular remainders in `lower` (FactorTable::lookup).
[[nodiscard]] u128 peel_count(const BipGraph& g, const FactorTable& lower);

/// A class-method job for reduced k×n rectangles (k ≥ n-1: squares).
struct ClassJob {
  /// The labelled total (L(n) or K(k,n)) in counters 0 … limbs − 1, as
  /// engine/wide.hpp limbs (labelled_total reads it back).
  engine::Job job;
  std::size_t limbs = 1;         ///< counters of the labelled total (class_job_limbs)
  std::size_t classes = 0;       ///< classes the tasks run over
  int class_degree = 0;          ///< their degree
  int extension_rows = 0;        ///< rectangles: rows added per class by row_extensions (extend.hpp)
  double table_seconds = 0.0;    ///< time spent listing classes and building (or loading) tables
  /// Whether the lookup table was read from the cache directory
  /// ("latin-table-n<n>-d<d>.txt": version, n, d and the class list's hash
  /// in its header, one N per class, a checksum line; an invalid file is
  /// rebuilt and rewritten atomically) instead of being built.
  bool table_from_cache = false;
  /// Even-order squares: whether each (n/2)-regular class's complement class
  /// was read from the cache directory ("latin-complements-n<n>-d<n/2>.txt",
  /// headed like the table, one list index per class, a checksum line;
  /// invalid or not an involution: recomputed by nauty and rewritten)
  /// instead of being found by one canonical labelling per class.
  bool complements_from_cache = false;
  std::size_t table_classes = 0;    ///< classes in the lookup table (0: no lookups)
  int table_degree = 0;             ///< their degree
  std::size_t table_ambiguous = 0;  ///< of those, looked up by canonical form (invariant and deep key shared)
};

/// The degree of the classes a job for reduced k×n rectangles runs over
/// when none is asked for, chosen by measurement (results/latin.md):
/// squares ⌊n/2⌋; rectangles k when k ≤ min(⌊(n−1)/2⌋, 3) (DFS), else
/// max(k − kMaxExtensionRows, min(k, 3)) while that is ≤ 4 (rows above it by row
/// extension), else k (peeling).
[[nodiscard]] int default_class_degree(int n, int k);

/// Builds the job: lists the classes (cache or genbg) and builds the lookup
/// tables using `threads` worker threads. 2 ≤ n ≤ kMaxClassOrder, 1 ≤ k ≤ n
/// (InvalidArgument("order") / ("rows") otherwise). Rectangles run over
/// the D-regular classes, D = `class_degree` (k − kMaxExtensionRows ≤ D ≤
/// k; squares only ⌊n/2⌋; InvalidArgument("class-degree") otherwise) or
/// default_class_degree, with the k − D further rows counted per class by
/// row_extensions. For n = 11, rectangles need D ≤ 4 (R(K,11) for K ≤ 6;
/// K = 7 … 9 would hold the 5- and 6-regular tables at once:
/// InvalidArgument("rows")); squares run over the 5-regular classes. Tasks are
/// slices of consecutive classes (at most 4096 tasks; ids stable for given
/// n, k, D). The fingerprint names n, k, D, the extension and the class list.
[[nodiscard]] ClassJob make_class_job(int n, int k, const CacheOptions& cache, int threads,
                                      std::optional<int> class_degree = std::nullopt);

/// Counters a class job of order n keeps its labelled total in: 1 up to
/// n = 10 (L(10) ≈ 1.0·10³⁷ < 2^128), 3 for n = 11, where K(7,11) ≈ 4·10⁴¹
/// and L(11) ≈ 7.8·10⁴⁷ pass 2^128 (McKay & Wanless 2005); every order-11
/// job uses limbs, so R(K,11) for small K checks the same path.
[[nodiscard]] std::size_t class_job_limbs(int n);

/// The labelled total of a class job's run (L(n) or K(k,n)), from its
/// limbs.
[[nodiscard]] BigInt labelled_total(const ClassJob& job, const engine::Tally& totals);

/// R(k,n) from the labelled total of a class job (L(n) for k ≥ n-1,
/// K(k,n) otherwise): the total ÷ n!·(n−1)!/(n−k)! (squares: n!·(n−1)!).
/// Throws InternalError if the division is not exact, CountOverflow if
/// R(k,n) does not fit 128 bits.
[[nodiscard]] u128 reduced_from_all(int n, int k, const BigInt& all);

}  // namespace pcount::latin
