#include "pcount/latin/classes.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <system_error>
#include <thread>

#include "pcount/errors.hpp"
#include "pcount/engine/task.hpp"
#include "pcount/engine/files.hpp"
#include "pcount/engine/fingerprint.hpp"
#include "pcount/engine/hash.hpp"
#include "pcount/engine/parallel.hpp"
#include "pcount/engine/wide.hpp"
#include "pcount/latin/extend.hpp"
#include "pcount/latin/genbg.hpp"

namespace pcount::latin {

namespace {

constexpr const char* kCacheMagic = "pcount latin classes v2";

/// FNV-1a 64 of the class lines (key and |Aut| text, each with its '\n').
struct LineHash {
  engine::Fnv1a64 fnv;
  void add(const std::string& line) { fnv.add(line).add("\n"); }
  [[nodiscard]] std::uint64_t value() const { return fnv.value(); }
};

std::string hex128(u128 v) {
  static const char* digits = "0123456789abcdef";
  std::string s(32, '0');
  for (int i = 31; i >= 0; --i, v >>= 4) s[static_cast<std::size_t>(i)] = digits[static_cast<unsigned>(v & 15u)];
  return s;
}

std::optional<u128> parse_hex128(const std::string& s) {
  if (s.size() != 32) return std::nullopt;
  u128 v = 0;
  for (char ch : s) {
    int d;
    if (ch >= '0' && ch <= '9') d = ch - '0';
    else if (ch >= 'a' && ch <= 'f') d = ch - 'a' + 10;
    else return std::nullopt;
    v = (v << 4) | static_cast<u128>(d);
  }
  return v;
}

BipGraph graph_from_key(int n, u128 key) {
  BipGraph g;
  g.n = n;
  const u128 full = (u128{1} << n) - 1;
  for (int c = 0; c < n; ++c) g.adj[static_cast<std::size_t>(c)] = static_cast<std::uint32_t>((key >> (c * n)) & full);
  return g;
}

std::string cache_header(int n, int d) {
  return std::string(kCacheMagic) + " n=" + std::to_string(n) + " d=" + std::to_string(d) +
         (2 * d <= n ? " source=genbg -q -d" + std::to_string(d) + ":" + std::to_string(d) + " -D" +
                           std::to_string(d) + ":" + std::to_string(d) + " " + std::to_string(n) + " " +
                           std::to_string(n)
                     : " source=complements of d=" + std::to_string(n - d));
}

/// Longest line read from a cache file (a class line is under 80 bytes):
/// a longer one makes the file invalid, so a damaged cache, or a device
/// such as /dev/zero in its place, is read no further than this.
constexpr std::size_t kMaxCacheLine = 4096;

/// Reads a cache file line by line, each line at most kMaxCacheLine bytes.
class CacheLines {
public:
  explicit CacheLines(const std::filesystem::path& file) : in_(file) {}
  /// False when the file could not be opened.
  explicit operator bool() const { return static_cast<bool>(in_); }
  /// The next line (without its '\n') into `line`; false at the end of the
  /// file or at a line longer than kMaxCacheLine (then too_long()).
  bool next(std::string& line) {
    line.clear();
    std::streambuf* buf = in_.rdbuf();
    for (int ch = buf->sbumpc(); ch != '\n'; ch = buf->sbumpc()) {
      if (ch == std::char_traits<char>::eof()) return !line.empty();
      if (line.size() == kMaxCacheLine) {
        too_long_ = true;
        return false;
      }
      line.push_back(static_cast<char>(ch));
    }
    return true;
  }
  [[nodiscard]] bool too_long() const { return too_long_; }

private:
  std::ifstream in_;
  bool too_long_ = false;
};

/// Reads a cache file; nullopt when missing or not valid in every line.
/// The header of slice `res` of `slices` of a list's part files.
std::string part_header(int n, int d, int res, int slices) {
  return cache_header(n, d) + " slice=" + std::to_string(res) + "/" + std::to_string(slices);
}

/// Reads a list file (or part file) headed `header`; nullopt when missing
/// or not valid in every line.
std::optional<std::vector<GraphClass>> read_cache(const std::filesystem::path& file, int n, int d,
                                                  const std::string& header) {
  CacheLines in(file);
  if (!in) return std::nullopt;
  std::string line;
  if (!in.next(line) || line != header) return std::nullopt;
  std::vector<GraphClass> classes;
  LineHash hash;
  while (in.next(line)) {
    if (line.rfind("end ", 0) == 0) {
      if (line != "end " + std::to_string(classes.size()) + " " + hex128(hash.value()).substr(16)) return std::nullopt;
      if (in.next(line) || in.too_long()) return std::nullopt;  // nothing may follow
      return classes;
    }
    std::istringstream fields(line);
    std::string key_text;
    std::uint64_t aut = 0;
    std::string rest;
    if (!(fields >> key_text >> aut) || (fields >> rest) || aut == 0) return std::nullopt;
    const auto key = parse_hex128(key_text);
    if (!key) return std::nullopt;
    const GraphClass gc(*key, aut);
    if (gc.graph(n).regular_degree() != d || labelled_factor(n) % aut != 0) return std::nullopt;
    if (!classes.empty() && !(classes.back().key() < *key)) return std::nullopt;  // sorted, no repeats
    hash.add(line);
    classes.push_back(gc);
  }
  return std::nullopt;  // no end line: truncated
}

/// Writes a cache file atomically, creating its directory first: the cache
/// directory is made only when there is something to keep in it, so a run
/// refused before (bad input, no genbg) leaves nothing behind.
/// `write` fills an engine::AtomicWriter, line by line: lists of 10⁸
/// classes are never held as one string.
template <class Write>
void write_cache_file(const std::filesystem::path& file, const std::string& what, const std::string& option,
                      Write write) {
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  if (ec)
    throw InvalidArgument(option, "cannot create the cache directory " + file.parent_path().string() + ": " +
                                      ec.message());
  try {
    engine::AtomicWriter out(file.string());
    write(out);
    out.commit();
  } catch (const std::runtime_error& e) {
    throw InvalidArgument(option, "cannot write the " + what + " cache file " + e.what());
  }
}

void write_cache(const std::filesystem::path& file, const std::string& header, const std::vector<GraphClass>& classes,
                 const std::string& option) {
  write_cache_file(file, "class", option, [&](engine::AtomicWriter& out) {
    out.write(header + '\n');
    LineHash hash;
    for (const GraphClass& c : classes) {
      const std::string line = hex128(c.key()) + ' ' + std::to_string(c.automorphisms);
      hash.add(line);
      out.write(line + '\n');
    }
    out.write("end " + std::to_string(classes.size()) + ' ' + hex128(hash.value()).substr(16) + '\n');
  });
}

/// The canonical classes of genbg's slice `res` of `mod` of the d-regular
/// n+n list, as genbg writes them (run_each_line), canonicalised on the
/// calling thread.
std::vector<GraphClass> genbg_slice_classes(int n, int d, int res, int mod) {
  std::vector<GraphClass> out;
  genbg_each(n, d, res, mod, [&](std::string_view line) {
    const BipGraph g = from_graph6(line, n);
    if (g.regular_degree() != d)
      throw std::runtime_error("genbg returned a graph that is not " + std::to_string(d) + "-regular");
    const Canonical can = canonical(g);
    out.emplace_back(can.key, can.automorphisms);
  });
  return out;
}

std::vector<GraphClass> generate_classes(int n, int d, const CacheOptions& cache, int threads) {
  std::vector<GraphClass> classes;
  if (d == 0 || d == n) {
    BipGraph g;
    g.n = n;
    if (d == n) g = g.complement();
    u128 f = 1;
    for (int i = 2; i <= n; ++i) f *= static_cast<u128>(i);
    const u128 key = d == 0 ? u128{0} : (n * n == 128 ? ~u128{0} : (u128{1} << (n * n)) - 1);
    classes.emplace_back(key, static_cast<std::uint64_t>(f * f));
    return classes;
  }
  if (2 * d > n) {
    for (const GraphClass& c : regular_classes(n, n - d, cache, threads)) {
      const Canonical can = canonical(c.graph(n).complement());
      classes.emplace_back(can.key, can.automorphisms);
    }
    return classes;
  }
  // Large lists: genbg's own res/mod split into one disjoint slice per
  // worker, run concurrently (the result is sorted by key, so the split
  // does not change it). Each slice repeats genbg's upper levels — about
  // 90 CPU-s per slice of the 4-regular 11+11 list, and 64 slices of the
  // 7,454 3-regular ones took 30 CPU-s against 1.8 s whole
  // (results/latin.md) — so small lists run whole and no more slices are
  // made than there are workers.
  const int workers = threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int mod = n >= 10 && d >= 4 ? std::min(workers, 64) : 1;
  // Each slice's lines are canonicalised on its worker as genbg writes
  // them, so no list is ever held as text (at order 11, 1.6·10⁸ lines).
  std::vector<std::vector<GraphClass>> slices(static_cast<std::size_t>(mod));
  engine::for_each_index(static_cast<std::size_t>(mod), threads,
                         [&](std::size_t res) { slices[res] = genbg_slice_classes(n, d, static_cast<int>(res), mod); });
  std::size_t total = 0;
  for (const auto& slice : slices) total += slice.size();
  classes.reserve(total);
  for (auto& slice : slices) {
    classes.insert(classes.end(), slice.begin(), slice.end());
    slice = {};  // freed as it is copied: the peak is the list and one slice
  }
  return classes;
}

void sort_by_key(std::vector<GraphClass>& classes) {
  std::sort(classes.begin(), classes.end(), [](const GraphClass& a, const GraphClass& b) { return a.key() < b.key(); });
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// (n!)²/|Aut|, checked.
u128 labelled_copies(int n, std::uint64_t aut) {
  const u128 f = labelled_factor(n);
  if (aut == 0 || f % aut != 0) throw InternalError("|Aut| does not divide (n!)^2");
  return f / aut;
}

/// N(G) for every class of a d-regular list: DFS when `lower` is null, else
/// by peeling into `lower`. An engine job on `threads` workers.
std::vector<u128> table_values(int n, const std::vector<GraphClass>& classes, const FactorTable* lower, int threads) {
  std::vector<u128> values(classes.size());
  engine::for_each_index(classes.size(), threads, [&](std::size_t i) {
    const BipGraph g = classes[i].graph(n);
    values[i] = lower ? peel_count(g, *lower) : count_factorisations(g);
  });
  return values;
}

// ---- The lookup table's disk cache --------------------------------------
//
// "latin-table-n<n>-d<d>.txt" beside the class lists: a header naming the
// program version, n, d, and the class list (count and FNV-1a 64 of its
// keys), so a table of another version or list is never used; one decimal
// N(G) per class in the list's order; "end <count> <FNV-1a 64 of the value
// lines>". Anything else — a missing, cut, edited or foreign file — is
// rebuilt and rewritten atomically.

constexpr const char* kTableMagic = "pcount latin table v1";

std::string cache_header(const char* magic, int n, int d, const std::vector<GraphClass>& classes) {
  LineHash keys;
  for (const GraphClass& c : classes) keys.add(hex128(c.key()));
  return std::string(magic) + " version=" + PCOUNT_VERSION + " n=" + std::to_string(n) + " d=" + std::to_string(d) +
         " classes=" + std::to_string(classes.size()) + " list=" + hex128(keys.value()).substr(16);
}

std::string table_header(int n, int d, const std::vector<GraphClass>& classes) {
  return cache_header(kTableMagic, n, d, classes);
}

/// The `count` value lines of a cache file whose first line must be
/// `header` and whose last is "end <count> <FNV-1a 64 of the value lines>",
/// each value parsed by `parse` (nullopt: not valid); nullopt when the file
/// is missing, cut, or not valid in any line.
template <class T, class Parse>
std::optional<std::vector<T>> read_checked_lines(const std::filesystem::path& file, const std::string& header,
                                                 std::size_t count, Parse parse) {
  CacheLines in(file);
  if (!in) return std::nullopt;
  std::string line;
  if (!in.next(line) || line != header) return std::nullopt;
  std::vector<T> values;
  values.reserve(count);
  LineHash hash;
  while (in.next(line)) {
    if (line.rfind("end ", 0) == 0) {
      if (values.size() != count) return std::nullopt;
      if (line != "end " + std::to_string(count) + " " + hex128(hash.value()).substr(16)) return std::nullopt;
      if (in.next(line) || in.too_long()) return std::nullopt;  // nothing may follow
      return values;
    }
    if (values.size() == count) return std::nullopt;
    const std::optional<T> v = parse(line);
    if (!v) return std::nullopt;
    values.push_back(*v);
    hash.add(line);
  }
  return std::nullopt;  // no end line: cut
}

/// Writes `header`, one line per value (`format`), and the end line with
/// the checksum, atomically; InvalidArgument(option) naming `what` when the
/// file cannot be written.
template <class T, class Format>
void write_checked_lines(const std::filesystem::path& file, const std::string& header, const std::vector<T>& values,
                         Format format, const std::string& what, const std::string& option) {
  write_cache_file(file, what, option, [&](engine::AtomicWriter& out) {
    out.write(header + '\n');
    LineHash hash;
    for (const T& v : values) {
      const std::string line = format(v);
      hash.add(line);
      out.write(line + '\n');
    }
    out.write("end " + std::to_string(values.size()) + " " + hex128(hash.value()).substr(16) + "\n");
  });
}

/// The cached values of a table of `count` classes whose header must be
/// `header`; nullopt when the file is missing or not valid in every line.
std::optional<std::vector<u128>> read_table(const std::filesystem::path& file, const std::string& header,
                                            std::size_t count) {
  return read_checked_lines<u128>(file, header, count, [](const std::string& line) -> std::optional<u128> {
    try {
      const u128 v = parse_u128(line);
      // Every regular bipartite graph has a 1-factorisation (König), so N ≥ 1;
      // the text must be the canonical decimal (no leading zeros).
      if (v == 0 || to_string(v) != line) return std::nullopt;
      return v;
    } catch (const std::exception&) {
      return std::nullopt;
    }
  });
}

void write_table(const std::filesystem::path& file, const std::string& header, const std::vector<u128>& values,
                 const std::string& option) {
  write_checked_lines(file, header, values, [](u128 v) { return to_string(v); }, "lookup table", option);
}

// ---- The complement pairing's disk cache --------------------------------
//
// For even n the square sum runs over pairs {G, complement of G} of
// (n/2)-regular classes; finding each class's complement takes one nauty
// labelling per class (601,055 for n = 10, about 6 CPU-s). The pairing is
// cached as "latin-complements-n<n>-d<d>.txt": the class list's header (as
// for the table, magic "pcount latin complements v1"), then per class the
// list index of its complement's class, then "end <count> <FNV-1a 64 of the
// index lines>". A file that is not valid in every line, or whose pairing
// is not an involution, is rebuilt and rewritten atomically.

constexpr const char* kComplementMagic = "pcount latin complements v1";

std::filesystem::path complement_file(const std::filesystem::path& dir, int n, int d) {
  return dir / ("latin-complements-n" + std::to_string(n) + "-d" + std::to_string(d) + ".txt");
}

std::optional<std::vector<std::size_t>> read_complements(const std::filesystem::path& file, const std::string& header,
                                                         std::size_t count) {
  auto comp = read_checked_lines<std::size_t>(
      file, header, count, [count](const std::string& line) -> std::optional<std::size_t> {
        if (line.empty() || line.size() > 19 || line.find_first_not_of("0123456789") != std::string::npos ||
            (line.size() > 1 && line[0] == '0'))
          return std::nullopt;
        const std::size_t v = std::stoull(line);
        if (v >= count) return std::nullopt;
        return v;
      });
  if (comp)
    for (std::size_t i = 0; i < count; ++i)
      if ((*comp)[(*comp)[i]] != i) return std::nullopt;  // complementing twice gives the class back
  return comp;
}

void write_complements(const std::filesystem::path& file, const std::string& header,
                       const std::vector<std::size_t>& comp, const std::string& option) {
  write_checked_lines(file, header, comp, [](std::size_t v) { return std::to_string(v); }, "complement", option);
}

/// For each class of `all` (sorted by key), the index of its complement's
/// class: from the cache when valid (`from_cache` set), else by nauty on
/// `threads` workers (and cached).
std::vector<std::size_t> complement_indices(int n, int d, const std::vector<GraphClass>& all,
                                            const CacheOptions& cache, int threads, bool& from_cache) {
  const std::string header = cache_header(kComplementMagic, n, d, all);
  if (cache.dir)
    if (auto comp = read_complements(complement_file(*cache.dir, n, d), header, all.size())) {
      from_cache = true;
      return std::move(*comp);
    }
  from_cache = false;
  std::vector<std::size_t> comp(all.size());
  engine::for_each_index(
      all.size(), threads,
      [&](std::size_t i) {
        const u128 key = canonical(all[i].graph(n).complement()).key;
        const auto it =
            std::lower_bound(all.begin(), all.end(), key, [](const GraphClass& c, u128 k) { return c.key() < k; });
        if (it == all.end() || it->key() != key) throw InternalError("the complement of a class is not in the list");
        comp[i] = static_cast<std::size_t>(it - all.begin());
      },
      64);
  if (cache.dir) write_complements(complement_file(*cache.dir, n, d), header, comp, cache.option);
  return comp;
}

/// "latin-classes-n<n>-d<d>.part-" — the start of every part file's name.
std::string part_prefix(int n, int d) {
  return "latin-classes-n" + std::to_string(n) + "-d" + std::to_string(d) + ".part-";
}

/// The list merged from a complete set of part files in `dir` (every slice
/// 0 … M−1 of one M, each valid; the first such M found), sorted; nullopt
/// when no set is complete. Throws InternalError when two parts share a
/// class (genbg's slices are disjoint, so the parts are not one list's).
std::optional<std::vector<GraphClass>> merge_parts(const std::filesystem::path& dir, int n, int d) {
  const std::string prefix = part_prefix(n, d);
  std::map<long long, std::size_t> found;  // M → part files seen
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const auto of = name.find("-of-");
    if (name.rfind(prefix, 0) != 0 || of == std::string::npos || !name.ends_with(".txt")) continue;
    const std::string m = name.substr(of + 4, name.size() - of - 8);
    if (m.empty() || m.size() > 7 || m.find_first_not_of("0123456789") != std::string::npos) continue;
    ++found[std::stoll(m)];
  }
  for (const auto& [slices, count] : found) {
    if (count < static_cast<std::size_t>(slices)) continue;
    std::vector<GraphClass> all;
    bool complete = true;
    for (int res = 0; res < slices && complete; ++res) {
      auto part = read_cache(class_part_file(dir, n, d, res, static_cast<int>(slices)), n, d,
                             part_header(n, d, res, static_cast<int>(slices)));
      complete = part.has_value();
      if (complete) all.insert(all.end(), part->begin(), part->end());
    }
    if (!complete) continue;
    sort_by_key(all);
    for (std::size_t i = 1; i < all.size(); ++i)
      if (all[i - 1].key() == all[i].key()) throw InternalError("two part files of a class list share a class");
    return all;
  }
  return std::nullopt;
}

}  // namespace

std::filesystem::path class_list_file(const std::filesystem::path& dir, int n, int d) {
  return dir / ("latin-classes-n" + std::to_string(n) + "-d" + std::to_string(d) + ".txt");
}

std::filesystem::path class_part_file(const std::filesystem::path& dir, int n, int d, int res, int slices) {
  return dir / (part_prefix(n, d) + std::to_string(res) + "-of-" + std::to_string(slices) + ".txt");
}

engine::Job make_class_list_job(int n, int d, int slices, const CacheOptions& cache) {
  if (n < 2 || n > kMaxClassOrder || d < 1 || 2 * d > n)
    throw InvalidArgument("order", "a class list job builds d-regular n+n lists for 2 ≤ n ≤ " +
                                       std::to_string(kMaxClassOrder) + ", 1 ≤ d ≤ n/2");
  if (slices < 1 || slices > kMaxListSlices)
    throw InvalidArgument("slices", "expected 1 to " + std::to_string(kMaxListSlices) + " slices");
  if (!cache.dir) throw InvalidArgument(cache.option, "a class list job writes its parts to a cache directory");
  ensure_writable_dir(*cache.dir, cache.option);
  engine::Job job;
  job.fingerprint = engine::Fingerprint("latin-classes")
                        .add("n", n)
                        .add("degree", d)
                        .add("slices", slices)
                        .add("source", "genbg")
                        .str();
  job.counter_names = {"classes"};
  job.task_count = static_cast<std::size_t>(slices);
  job.split_depth = -1;
  job.run_task = [n, d, slices, cache](std::size_t id, engine::Tally& tally) {
    const int res = static_cast<int>(id);
    const auto file = class_part_file(*cache.dir, n, d, res, slices);
    const std::string header = part_header(n, d, res, slices);
    auto part = read_cache(file, n, d, header);  // a valid part already there is kept
    if (!part) {
      part = genbg_slice_classes(n, d, res, slices);
      sort_by_key(*part);
      write_cache(file, header, *part, cache.option);
    }
    tally.add(0, part->size());
  };
  return job;
}

std::optional<std::size_t> merge_class_parts(int n, int d, const CacheOptions& cache) {
  if (!cache.dir) return std::nullopt;
  const auto file = class_list_file(*cache.dir, n, d);
  if (auto cached = read_cache(file, n, d, cache_header(n, d))) return cached->size();
  auto merged = merge_parts(*cache.dir, n, d);
  if (!merged) return std::nullopt;
  write_cache(file, cache_header(n, d), *merged, cache.option);
  return merged->size();
}

std::filesystem::path table_cache_file(const std::filesystem::path& dir, int n, int d) {
  return dir / ("latin-table-n" + std::to_string(n) + "-d" + std::to_string(d) + ".txt");
}

std::optional<std::filesystem::path> default_cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "pcount";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".cache" / "pcount";
  return std::nullopt;
}

void ensure_writable_dir(const std::filesystem::path& dir, const std::string& option) {
  // A probe: the folders that do not exist yet are made, checked and
  // removed again (deepest first), so a run refused later leaves nothing;
  // the cache writers make them again when they first write a file.
  std::error_code ec;
  std::vector<std::filesystem::path> made;
  for (auto p = std::filesystem::absolute(dir, ec); !ec && !p.empty() && !std::filesystem::exists(p, ec);
       p = p.parent_path()) {
    made.push_back(p);
    if (p == p.parent_path()) break;
  }
  std::string problem;
  std::filesystem::create_directories(dir, ec);
  if (ec) problem = "cannot create the cache directory " + dir.string() + ": " + ec.message();
  else if (!std::filesystem::is_directory(dir, ec)) problem = dir.string() + " is not a directory";
  else if (::access(dir.c_str(), W_OK | X_OK) != 0) problem = "the cache directory " + dir.string() + " is not writable";
  for (const auto& m : made) std::filesystem::remove(m, ec);  // only empty folders go
  if (!problem.empty()) throw InvalidArgument(option, problem);
}

std::vector<GraphClass> regular_classes(int n, int d, const CacheOptions& cache, int threads) {
  if (n < 2 || n > kMaxClassOrder)
    throw InvalidArgument("order", "the classes method needs 2 ≤ N ≤ " + std::to_string(kMaxClassOrder) +
                                         ", got " + std::to_string(n));
  if (d < 0 || d > n) throw InvalidArgument("rows", "degree out of range");
  if (cache.dir) {
    ensure_writable_dir(*cache.dir, cache.option);
    const auto file = class_list_file(*cache.dir, n, d);
    if (auto cached = read_cache(file, n, d, cache_header(n, d))) return std::move(*cached);
    // A list built as slices (make_class_list_job) is merged from its parts.
    auto merged = merge_parts(*cache.dir, n, d);
    auto classes = merged ? std::move(*merged) : generate_classes(n, d, cache, threads);
    if (!merged) sort_by_key(classes);
    write_cache(file, cache_header(n, d), classes, cache.option);
    return classes;
  }
  auto classes = generate_classes(n, d, cache, threads);
  sort_by_key(classes);
  return classes;
}

BipGraph GraphClass::graph(int n) const { return graph_from_key(n, key()); }

namespace {

/// The keys that occur once in `sorted` (key, class) pairs, with their
/// classes, into `keys` and `index`; the keys that occur more than once
/// into `shared` (when given). Returns how many pairs had a shared key.
std::size_t split_unique(const std::vector<std::pair<std::uint64_t, std::uint32_t>>& sorted,
                         std::vector<std::uint64_t>& keys, std::vector<std::uint32_t>& index,
                         std::vector<std::uint64_t>* shared) {
  std::size_t repeated = 0;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j < sorted.size() && sorted[j].first == sorted[i].first) ++j;
    if (j - i == 1) {
      keys.push_back(sorted[i].first);
      index.push_back(sorted[i].second);
    } else {
      repeated += j - i;
      if (shared) shared->push_back(sorted[i].first);
    }
    i = j;
  }
  keys.shrink_to_fit();
  index.shrink_to_fit();
  return repeated;
}

/// The position of `key` in sorted `keys`, or nullopt.
std::optional<std::size_t> find_sorted(const std::vector<std::uint64_t>& keys, std::uint64_t key) {
  const auto it = std::lower_bound(keys.begin(), keys.end(), key);
  if (it == keys.end() || *it != key) return std::nullopt;
  return static_cast<std::size_t>(it - keys.begin());
}

}  // namespace

FactorTable::FactorTable(std::shared_ptr<const std::vector<GraphClass>> classes, int n, std::vector<u128> values)
    : classes_(std::move(classes)) {
  const std::vector<GraphClass>& cls = *classes_;
  if (cls.size() != values.size()) throw InternalError("FactorTable: sizes differ");
  if (cls.size() >= (std::size_t{1} << 32)) throw InternalError("FactorTable: 2^32 classes or more");
  for (std::size_t i = 1; i < cls.size(); ++i)
    if (!(cls[i - 1].key() < cls[i].key())) throw InternalError("two classes with the same canonical key, or unsorted");
  if (std::all_of(values.begin(), values.end(), [](u128 v) { return high64(v) == 0; })) {
    narrow_.assign(values.begin(), values.end());
    values = {};
  } else {
    wide_ = std::move(values);
  }
  std::vector<std::pair<std::uint64_t, std::uint32_t>> inv(cls.size());
  for (std::size_t i = 0; i < cls.size(); ++i) inv[i] = {invariant_key(cls[i].graph(n)), static_cast<std::uint32_t>(i)};
  std::sort(inv.begin(), inv.end());
  ambiguous_ = split_unique(inv, inv_keys_, inv_index_, &shared_);
  std::vector<std::pair<std::uint64_t, std::uint32_t>> deep;  // the shared invariants' classes, by deep key
  for (const auto& [key, i] : inv)
    if (std::binary_search(shared_.begin(), shared_.end(), key))
      deep.emplace_back(deep_invariant_key(cls[i].graph(n)), i);
  inv = {};
  std::sort(deep.begin(), deep.end());
  canonical_only_ = split_unique(deep, deep_keys_, deep_index_, nullptr);
}

std::size_t FactorTable::bytes() const {
  return narrow_.size() * sizeof(std::uint64_t) + wide_.size() * sizeof(u128) +
         (inv_keys_.size() + deep_keys_.size() + shared_.size()) * sizeof(std::uint64_t) +
         (inv_index_.size() + deep_index_.size()) * sizeof(std::uint32_t);
}

u128 FactorTable::at(u128 key) const {
  const std::vector<GraphClass>& cls = *classes_;
  auto it = std::lower_bound(cls.begin(), cls.end(), key, [](const GraphClass& c, u128 k) { return c.key() < k; });
  if (it == cls.end() || it->key() != key) throw InternalError("graph class missing from the lookup table");
  return value(static_cast<std::size_t>(it - cls.begin()));
}

u128 FactorTable::lookup(const BipGraph& g) const {
  const std::uint64_t inv = invariant_key(g);
  if (const auto i = find_sorted(inv_keys_, inv)) return value(inv_index_[*i]);
  // A shared invariant: the deep key, which tells most of those classes
  // apart, then the canonical form (or no class: `at` reports it missing).
  if (std::binary_search(shared_.begin(), shared_.end(), inv))
    if (const auto d = find_sorted(deep_keys_, deep_invariant_key(g))) return value(deep_index_[*d]);
  return at(canonical(g).key);
}

u128 peel_count(const BipGraph& g, const FactorTable& lower) {
  u128 sum = 0;
  engine::StopPoll<1024> poll{};  // a lookup is a binary search at least: the tick is negligible
  for_each_peel_at(g, fewest_matchings_edge(g), [&](const BipGraph& h) {
    poll.tick();
    sum = checked_add(sum, lower.lookup(h));
  });
  return checked_mul(sum, static_cast<u128>(std::popcount(g.adj[0])));
}

std::size_t class_job_limbs(int n) { return n >= kMaxClassOrder ? 3 : 1; }

BigInt labelled_total(const ClassJob& job, const engine::Tally& totals) {
  return engine::wide_total(totals, 0, job.limbs);
}

u128 reduced_from_all(int n, int k, const BigInt& all) {
  const BigInt denom = factorial(n) * factorial(n - 1) / factorial(k < n - 1 ? n - k : 1);
  if (all % denom != 0) throw InternalError("class sum is not a multiple of n!·(n-1)!/(n-k)!");
  const BigInt reduced = all / denom;
  if (reduced >> 128 != 0) throw CountOverflow("R(k,n) exceeds 128 bits");
  const BigInt mask = std::numeric_limits<std::uint64_t>::max();
  return join64(static_cast<std::uint64_t>(reduced & mask), static_cast<std::uint64_t>(reduced >> 64));
}

namespace {

/// How make_class_job sums: rectangles over the classes of one degree D
/// (N(G) by DFS or by peeling into the table of degree D−1, then the
/// remaining k−D rows inside the complement by row_extensions); squares of
/// odd N as a product over a class and its complement, of even N by
/// complementary pairs (Mode::SquareEven).
enum class Mode { Rect, SquareOdd, SquareEven };

/// The classes a class job sums over and the table their terms peel into.
struct ClassPlan {
  int n = 0;
  Mode mode = Mode::Rect;
  int extension = 0;  // Rect: rows added inside the complement (0..kMaxExtensionRows)
  bool peel = false;  // Rect: N(G) by peeling into `lower` (else by DFS)
  std::shared_ptr<const std::vector<GraphClass>> classes;  // SquareOdd: shared with `lower`
  std::vector<std::uint8_t> times;  // SquareEven: 1 self-complementary, 2 a pair
  FactorTable lower;
};

/// Class i's term of the sum: its labelled copies times its count of
/// completions (1-factorisations, or peeled counts as the mode says). Exact
/// in any width: order-11 squares' terms pass 2^128.
BigInt class_term(const ClassPlan& plan, std::size_t i) {
  const GraphClass& c = (*plan.classes)[i];
  const BipGraph g = c.graph(plan.n);
  BigInt value;
  switch (plan.mode) {
    case Mode::Rect:
      value = to_big(plan.peel ? peel_count(g, plan.lower) : count_factorisations(g));
      if (plan.extension > 0) value *= to_big(row_extensions(g.complement(), plan.extension));
      break;
    case Mode::SquareOdd:
      value = to_big(plan.lower.at(c.key())) * to_big(peel_count(g.complement(), plan.lower));
      break;
    case Mode::SquareEven: {
      const u128 mine = peel_count(g, plan.lower);
      const u128 theirs = plan.times[i] == 1 ? mine : peel_count(g.complement(), plan.lower);
      value = to_big(mine) * to_big(theirs) * plan.times[i];
      break;
    }
  }
  return value * to_big(labelled_copies(plan.n, c.automorphisms));
}

/// The class job's fingerprint. The task ids index the class list: its
/// hash goes into the fingerprint, so a checkpoint or shard from a
/// different list (another nauty version, another order) is refused
/// instead of mixed in.
std::string class_job_fingerprint(const ClassPlan& plan, int k, int degree, std::size_t slice) {
  engine::Fnv1a64 list_fnv;  // over the keys and multiplicities
  for (std::size_t i = 0; i < plan.classes->size(); ++i)
    list_fnv.add_le128((*plan.classes)[i].key()).add_le64(plan.times.empty() ? 1u : plan.times[i]);
  return engine::Fingerprint("latin")
      .add("n", plan.n)
      .add("rows", k)
      .add("method", "classes")
      .add("degree", degree)
      .add("extension", plan.extension)
      .add("classes", plan.classes->size())
      .add("slice", slice)
      .add("list", hex128(list_fnv.value()).substr(16))
      .str();
}

}  // namespace

int default_class_degree(int n, int k) {
  if (k >= n - 1) return n / 2;
  const int dfs = std::min((n - 1) / 2, 3);
  if (k <= dfs) return k;
  // Rows above degree 3 by row extension while the classes stay at degree
  // ≤ 4 (lists of at most ~5.6·10⁶ classes for n = 11); past that, peeling
  // over the k-regular classes (their tables are needed either way, and a
  // two-row extension per class would cost more than the peel).
  const int extended = std::max(k - kMaxExtensionRows, std::min(k, 3));
  return extended <= 4 ? extended : k;
}

namespace {

/// regular_classes, held where a plan and a table can share it.
std::shared_ptr<const std::vector<GraphClass>> shared_classes(int n, int d, const CacheOptions& cache, int threads) {
  return std::make_shared<const std::vector<GraphClass>>(regular_classes(n, d, cache, threads));
}

/// Builds (or loads from the disk cache) the tables of N over all d-regular
/// classes: by DFS up to degree `dfs`, by peeling into the (d−1)-regular
/// table above (itself built the same way), as engine jobs.
struct TableBuilder {
  int n;
  int dfs;  // degrees ≤ dfs: N by DFS; above: by peeling
  const CacheOptions& cache;
  int threads;
  bool from_cache = false;

  /// The d-regular table; `known` = the d-regular classes if loaded.
  FactorTable table(int d, std::shared_ptr<const std::vector<GraphClass>> known = nullptr) {
    const auto cls = known ? std::move(known) : shared_classes(n, d, cache, threads);
    const std::string header = table_header(n, d, *cls);
    if (cache.dir)
      if (auto values = read_table(table_cache_file(*cache.dir, n, d), header, cls->size())) {
        from_cache = true;
        return FactorTable(cls, n, std::move(*values));
      }
    std::vector<u128> values;
    if (d <= dfs) {
      values = table_values(n, *cls, nullptr, threads);
    } else {
      const FactorTable lower = table(d - 1);
      values = table_values(n, *cls, &lower, threads);
    }
    from_cache = false;
    if (cache.dir) write_table(table_cache_file(*cache.dir, n, d), header, values, cache.option);
    return FactorTable(cls, n, std::move(values));
  }
};

/// The degree of the classes a job runs over: `wanted` when given and
/// allowed (squares: ⌊n/2⌋; rectangles: k − kMaxExtensionRows … k), else
/// default_class_degree. Throws InvalidArgument("class-degree").
int checked_class_degree(int n, int k, std::optional<int> wanted) {
  if (!wanted) return default_class_degree(n, k);
  const int d = *wanted;
  if (k >= n - 1) {
    if (d != n / 2)
      throw InvalidArgument("class-degree", "squares run over the " + std::to_string(n / 2) +
                                                "-regular classes (⌊N/2⌋), got " + std::to_string(d));
    return d;
  }
  const int lo = std::max(1, k - kMaxExtensionRows);
  if (d < lo || d > k)
    throw InvalidArgument("class-degree", "expected a degree from " + std::to_string(lo) + " to K = " +
                                              std::to_string(k) + " (at most " + std::to_string(kMaxExtensionRows) +
                                              " rows are added by row extension), got " + std::to_string(d));
  return d;
}

/// Fills the plan's classes, table and mode for the chosen degree.
void fill_plan(ClassPlan& plan, int k, int degree, TableBuilder& tables, const CacheOptions& cache, int threads,
               bool& complements_from_cache) {
  const int n = plan.n;
  if (k < n - 1) {
    plan.mode = Mode::Rect;
    plan.extension = k - degree;
    plan.peel = degree > tables.dfs;
    if (plan.peel) plan.lower = tables.table(degree - 1);
    plan.classes = shared_classes(n, degree, cache, threads);
  } else if (n % 2 == 1) {
    plan.mode = Mode::SquareOdd;
    plan.classes = shared_classes(n, degree, cache, threads);
    plan.lower = tables.table(degree, plan.classes);
  } else {
    plan.mode = Mode::SquareEven;
    plan.lower = tables.table(degree - 1);
    const std::vector<GraphClass> all = regular_classes(n, degree, cache, threads);  // sorted by key
    const std::vector<std::size_t> comp = complement_indices(n, degree, all, cache, threads, complements_from_cache);
    auto pairs = std::make_shared<std::vector<GraphClass>>();
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (i > comp[i]) continue;  // counted with its complement's class
      pairs->push_back(all[i]);
      plan.times.push_back(i == comp[i] ? 1 : 2);
    }
    plan.classes = std::move(pairs);
  }
}

}  // namespace

ClassJob make_class_job(int n, int k, const CacheOptions& cache, int threads, std::optional<int> class_degree) {
  if (n < 2 || n > kMaxClassOrder)
    throw InvalidArgument("order", "the classes method needs 2 ≤ N ≤ " + std::to_string(kMaxClassOrder) +
                                         ", got " + std::to_string(n) + " (use --method search for N ≤ 16)");
  if (k < 1 || k > n)
    throw InvalidArgument("rows", "expected K from 1 to N = " + std::to_string(n) + ", got " + std::to_string(k));
  const int degree = checked_class_degree(n, k, class_degree);
  if (n == kMaxClassOrder && degree > 4 && k < n - 1)
    throw InvalidArgument("rows",
                          "the classes method counts R(K,11) for K ≤ 6 and squares; K = 7 … 9 need the "
                          "5- and 6-regular 11+11 tables at once, which it does not build");
  const auto t0 = std::chrono::steady_clock::now();
  TableBuilder tables{n, std::min((n - 1) / 2, 3), cache, threads};
  bool complements_from_cache = false;
  auto plan = std::make_shared<ClassPlan>();
  plan->n = n;
  fill_plan(*plan, k, degree, tables, cache, threads, complements_from_cache);

  const std::size_t count = plan->classes->size();
  const std::size_t slice = std::max<std::size_t>(1, (count + 4095) / 4096);
  ClassJob out;
  out.classes = count;
  out.class_degree = degree;
  out.extension_rows = plan->extension;
  out.job.fingerprint = class_job_fingerprint(*plan, k, degree, slice);
  out.limbs = class_job_limbs(n);
  out.job.counter_names = engine::wide_counter_names("all", out.limbs);
  out.job.task_count = (count + slice - 1) / slice;
  out.job.split_depth = -1;
  out.job.run_task = [plan, slice, limbs = out.limbs](std::size_t id, engine::Tally& tally) {
    const std::size_t first = id * slice;
    BigInt sum = 0;
    for (std::size_t i = first; i < std::min(plan->classes->size(), first + slice); ++i) {
      engine::throw_if_stopped();  // once per class; the counts below also check inside
      sum += class_term(*plan, i);
    }
    engine::add_wide(tally, 0, limbs, sum);
  };
  out.table_classes = plan->lower.size();
  out.table_degree = plan->mode == Mode::SquareOdd ? degree : degree - 1;
  out.table_ambiguous = plan->lower.canonical_only();
  out.table_seconds = seconds_since(t0);
  out.table_from_cache = tables.from_cache;
  out.complements_from_cache = complements_from_cache;
  return out;
}

}  // namespace pcount::latin
