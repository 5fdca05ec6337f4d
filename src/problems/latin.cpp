// The `--latin N [--rows K] [--method search|classes] [--cache-dir DIR]` problem.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "pcount/problems/latin.hpp"
#include "pcount/bigint.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/latin/classes.hpp"
#include "pcount/latin/extend.hpp"
#include "pcount/latin/price.hpp"
#include "pcount/latin/search.hpp"

namespace pcount::latin {

using namespace driver;

namespace {

void add_latin_options(po::options_description& d) {
  d.add_options()("rows", po::value<std::string>()->value_name("K"),
                  "count reduced K×N Latin rectangles R(K,N), 1 ≤ K ≤ N; default: K = N (squares)")(
      "cache-dir", po::value<std::string>()->value_name("DIR"),
      "where --method classes caches graph class lists; default: $XDG_CACHE_HOME/pcount "
      "or ~/.cache/pcount")("class-degree", po::value<std::string>()->value_name("D"),
                            "--method classes, rectangles: run over the D-regular graph classes, the other "
                            "K−D ≤ 2 rows by row extension; default: chosen by measurement")(
      "build-classes", po::value<std::string>()->value_name("D"),
      "instead of counting, build the D-regular N+N graph class list (1 ≤ D ≤ N/2) in the cache directory as "
      "genbg slices, one task each, for shards or MPI ranks; the parts merge into the list once all are there")(
      "slices", po::value<std::string>()->value_name("M"),
      "--build-classes: genbg slices, 1 ≤ M ≤ 1000000; default: 1000 for the 5-regular 11+11 list, else 16");
  // --method for --latin: search (tree search, 1 ≤ N ≤ 16; default below 8) or
  // classes (bipartite-graph classes with nauty, 2 ≤ N ≤ 11; default from 8,
  // and for N = 11 up to K = 6 rows).
}

Report make_report(int n, int k, const std::string& method, u128 reduced) {
  Report report;
  report.problem = "latin";
  report.params["n"] = n;
  report.params["rows"] = k;
  report.method = method;
  report.title = k == n ? "reduced Latin squares of order " + std::to_string(n)
                        : "reduced " + std::to_string(k) + "×" + std::to_string(n) + " Latin rectangles";
  report.counts.emplace_back("reduced", to_string(reduced));
  report.counts.emplace_back("all", to_string(all_rectangles(n, k, reduced)));
  return report;
}

/// Largest K the classes method counts for 11-column rectangles: K = 7 … 9
/// need the 5- and 6-regular 11+11 tables at once; squares (K ≥ 10) need
/// the 5-regular list and its table only.
constexpr int kMaxRowsAt11 = 6;

/// Refuses R(K,11) for kMaxRowsAt11 < K < 10 with InvalidArgument("--rows").
void refuse_beyond_rows_at_11(int n, int k) {
  if (n == kMaxClassOrder && k > kMaxRowsAt11 && k < n - 1)
    throw InvalidArgument("--rows", "the classes method counts R(K,11) for K ≤ " + std::to_string(kMaxRowsAt11) +
                                        " and squares (K = 10 or 11); K = 7 … 9 need the 5- and 6-regular 11+11 "
                                        "tables at once (about 1.6·10⁸ classes each), which it does not build");
}

/// The --memory-limit of a square by classes when none is given: what one
/// process may hold on a cluster node's 16 GiB share (docs/latin.md, "R(11)
/// on a cluster").
constexpr double kDefaultMemoryLimit = 16.0 * 1024 * 1024 * 1024;

/// A square by classes of order ≥ 9: its priced peak memory per process
/// (square_peak_bytes), refused with InvalidArgument("--memory-limit")
/// when the interval's upper end passes the limit. Anything else: nullopt,
/// and --memory-limit is refused, since nothing else is priced.
std::optional<Interval> check_memory(const Invocation& inv, int n, int k) {
  if (n < 9 || k < n - 1) {
    if (inv.common.memory_limit)
      throw InvalidArgument("--memory-limit",
                            "applies to squares by --method classes (N ≥ 9), whose peak "
                            "memory is priced; not to rectangles or the search");
    return std::nullopt;
  }
  const Interval peak = square_peak_bytes(n);
  const double limit = inv.common.memory_limit.value_or(kDefaultMemoryLimit);
  if (peak.high > limit)
    throw InvalidArgument("--memory-limit", "R(" + std::to_string(n) + ") by classes is priced at " +
                                                gibibytes(peak.low) + " to " + gibibytes(peak.high) +
                                                " per process, more than the limit of " + gibibytes(limit) +
                                                (inv.common.memory_limit ? "" : " (the default)") +
                                                "; give a higher --memory-limit on a machine that has it");
  return peak;
}

/// The cache directory of --cache-dir, else default_cache_dir (a note on
/// stderr when there is none).
CacheOptions cache_options(const Invocation& inv) {
  CacheOptions cache;
  if (auto dir = inv.value("cache-dir")) {
    if (dir->empty()) throw InvalidArgument("--cache-dir", "expected a directory, got an empty string");
    cache.dir = std::filesystem::path(*dir);
  } else {
    cache.dir = default_cache_dir();
    if (!cache.dir)
      inv.err << inv.program()
              << ": --latin: note: no cache of graph class lists (neither XDG_CACHE_HOME nor "
                 "HOME is set; give --cache-dir DIR to keep them)\n";
  }
  return cache;
}

Plan plan_classes(const Invocation& inv, Params& params, int n, int k) {
  if (n < 2 || n > kMaxClassOrder)
    throw InvalidArgument("--method", "classes handles 2 ≤ N ≤ " + std::to_string(kMaxClassOrder) +
                                          ", got N = " + std::to_string(n) + "; use --method search");
  refuse_beyond_rows_at_11(n, k);
  const std::optional<Interval> peak = check_memory(inv, n, k);
  if (inv.common.split_depth)
    throw InvalidArgument("--split-depth", "applies to --method search only; classes splits by graph class");
  // The class job writes its fingerprint itself (latin/classes.cpp), with
  // " degree=D" whether given or chosen; the driver checks a given one.
  std::optional<int> class_degree;
  const int lo = k >= n - 1 ? n / 2 : std::max(1, k - kMaxExtensionRows);
  const int hi = k >= n - 1 ? n / 2 : k;
  if (const auto d = params.optional_integer("--class-degree", "degree", lo, hi, Params::checked))
    class_degree = static_cast<int>(*d);
  const CacheOptions cache = cache_options(inv);
  if (n == kMaxClassOrder && k >= n - 1 && !inv.common.quiet &&
      !(cache.dir && std::filesystem::exists(class_list_file(*cache.dir, n, n / 2))))
    inv.err << inv.program() << ": --latin 11: note: the set-up lists the 5-regular 11+11 classes with genbg "
            << "and builds their table first, hundreds of CPU-hours (count --latin 11 --estimate 60 prices "
               "each stage; docs/latin.md runs them as cluster jobs)\n";
  auto cj = std::make_shared<ClassJob>(make_class_job(n, k, cache, inv.common.threads, class_degree));
  Plan plan;
  plan.job = cj->job;
  plan.report = [n, k, cj, peak](const engine::RunResult& result) {
    const u128 reduced = reduced_from_all(n, k, labelled_total(*cj, result.totals));
    if (k >= n - 1) check_mod_n(n, reduced);
    Report report = make_report(n, k, "classes", reduced);
    report.extra["classes"] = cj->classes;
    report.extra["class_degree"] = cj->class_degree;
    if (k < n - 1) report.extra["extension_rows"] = cj->extension_rows;
    report.extra["table_seconds"] = cj->table_seconds;
    if (cj->table_classes) report.extra["table_from_cache"] = cj->table_from_cache;
    if (k >= n - 1 && n % 2 == 0) report.extra["complements_from_cache"] = cj->complements_from_cache;
    if (peak) report.extra["peak_memory_priced"] = gibibytes(peak->low) + " to " + gibibytes(peak->high);
    if (cj->table_classes)
      report.extra["lookup_table"] = std::to_string(cj->table_classes) + " classes of degree " +
                                     std::to_string(cj->table_degree) + ", " + std::to_string(cj->table_ambiguous) +
                                     " by canonical form";
    return report;
  };
  return plan;
}

Plan plan_search(const Invocation& inv, const Params& params, int n, int k) {
  auto tree = std::make_shared<const LatinTree>(n, k);
  // The automatic depth does not depend on --threads (auto_split_min_tasks),
  // so a checkpoint or shard set can be resumed or merged with other threads.
  const int depth = inv.common.split_depth.value_or(engine::auto_split_depth(*tree, auto_split_min_tasks(inv)));
  Plan plan;
  plan.job = engine::make_tree_job(tree, depth, params.fingerprint("latin"), {"reduced"});
  plan.report = [n, k, tree](const engine::RunResult& result) {
    const u128 reduced = result.totals.counts[0];
    if (tree->square()) check_mod_n(n, reduced);
    return make_report(n, k, "search", reduced);
  };
  return plan;
}

/// --build-classes D: the D-regular N+N class list as a job of genbg
/// slices (make_class_list_job); its report merges the parts once all are
/// in the cache directory.
Plan plan_class_list(const Invocation& inv, Params& params, int n) {
  for (const char* o : {"rows", "class-degree", "list", "method", "split-depth", "memory-limit"})
    if (inv.has(o)) throw InvalidArgument(std::string("--") + o, "does not apply to --build-classes");
  if (n < 2 || n > kMaxClassOrder)
    throw InvalidArgument("--latin", "--build-classes lists classes for 2 ≤ N ≤ " + std::to_string(kMaxClassOrder));
  const int d = static_cast<int>(params.integer("--build-classes", "degree", 1, n / 2, std::nullopt, Params::checked));
  const int slices = static_cast<int>(
      params.integer("--slices", "slices", 1, kMaxListSlices, n == 11 && d == 5 ? 1000 : 16, Params::checked));
  CacheOptions cache = cache_options(inv);
  if (!cache.dir) throw InvalidArgument("--cache-dir", "--build-classes writes its parts there; give --cache-dir DIR");
  cache.option = "--cache-dir";
  Plan plan;
  plan.job = make_class_list_job(n, d, slices, cache);
  plan.report = [&inv, n, d, slices, cache](const engine::RunResult& result) {
    Report report;
    report.problem = "latin";
    report.params["n"] = n;
    report.params["degree"] = d;
    report.method = "genbg slices";
    report.title = std::to_string(d) + "-regular " + std::to_string(n) + "+" + std::to_string(n) + " graph classes, " +
                   std::to_string(slices) + " genbg slices";
    const u128 classes = result.totals.counts[0];
    report.counts.emplace_back("classes", to_string(classes));
    report.extra["slices"] = slices;
    // `count merge` drops --cache-dir (it changes no count): the parts are
    // merged by the first run that reads the list there.
    if (inv.replayed() != nullptr) {
      report.extra["list_file"] = "merged from the parts by the first run that reads it";
    } else if (const auto merged = merge_class_parts(n, d, cache)) {
      if (static_cast<u128>(*merged) != classes)
        throw InternalError("the merged class list holds " + std::to_string(*merged) + " classes, the slices " +
                            to_string(classes));
      report.extra["list_file"] = class_list_file(*cache.dir, n, d).string();
    } else {
      report.extra["list_file"] = "not merged: the parts are not all in " + cache.dir->string();
    }
    return report;
  };
  return plan;
}

Plan plan_latin(const Invocation& inv) {
  Params params(inv);
  const int n = static_cast<int>(params.integer("--latin", "n", 1, kMaxSearchOrder));
  if (inv.value("build-classes")) return plan_class_list(inv, params, n);
  if (inv.value("slices")) throw InvalidArgument("--slices", "applies to --build-classes only");
  const int k = static_cast<int>(params.integer("--rows", "rows", 1, n, n));
  if (inv.common.list) {
    // --list writes the squares of a plain search; classes count graph
    // classes and cannot list.
    if (inv.common.method == "classes")
      throw InvalidArgument("--list", "needs --method search (classes count graph classes, they do not list squares)");
    if (inv.common.memory_limit) throw InvalidArgument("--memory-limit", "applies to --method classes only");
    (void)params.method({"search", "classes"}, "search");
    Plan plan;
    plan.job =
        make_list_job(n, k, inv.common.split_depth.value_or(-1), auto_split_min_tasks(inv),
                      params.fingerprint("latin").flag("list-rectangles"), list_json(inv), inv.common.list_limit);
    plan.job.fingerprint += list_fingerprint(inv);
    plan.report = [n, k](const engine::RunResult& result) {
      const u128 reduced = result.totals.counts[0];
      if (k >= n - 1) check_mod_n(n, reduced);
      return make_report(n, k, "search (listing)", reduced);
    };
    return plan;
  }
  const bool classes_apply = n >= 8 && n <= kMaxClassOrder && (n < kMaxClassOrder || k <= kMaxRowsAt11 || k >= n - 1);
  const std::string method = params.method({"search", "classes"}, classes_apply ? "classes" : "search");
  if (method == "classes") return plan_classes(inv, params, n, k);
  if (inv.value("class-degree")) throw InvalidArgument("--class-degree", "applies to --method classes only");
  if (inv.common.memory_limit) throw InvalidArgument("--memory-limit", "applies to --method classes only");
  // --cache-dir is accepted and unused with search (scripts may always pass it).
  return plan_search(inv, params, n, k);
}

/// Squares of order 10 and 11 by classes, priced stage by stage
/// (latin/price.hpp); a price of 0 when every list and table is cached.
std::optional<SetupPrice> price_square_setup(int n, const std::optional<std::filesystem::path>& dir, int threads) {
  bool all_cached = dir.has_value();
  for (int d = 3; d <= n / 2 && all_cached; ++d)
    all_cached = std::filesystem::exists(class_list_file(*dir, n, d)) &&
                 (d == n / 2 && n % 2 == 0 ? true : std::filesystem::exists(table_cache_file(*dir, n, d)));
  if (all_cached) {
    SetupPrice cached;
    cached.what = "graph class lists and lookup tables";
    cached.basis = "all cached";
    cached.cache = dir->string();
    return cached;
  }
  const SquarePrice p = price_square_classes(n, CacheOptions{dir, "--cache-dir"});
  SetupPrice price;
  double setup_low = 0.0, setup_high = 0.0;
  for (const StagePrice& st : p.stages) {
    PriceStage out{.name = st.name,
                   .sizes = {{st.classes.low, st.classes.high, "classes"}},
                   .cpu_low = st.cpu_seconds.low,
                   .cpu_high = st.cpu_seconds.high,
                   .cached = st.cached,
                   .basis = st.basis};
    if (st.lookups.high > 0) out.sizes.push_back({st.lookups.low, st.lookups.high, "lookups"});
    if (st.name.rfind("the sum", 0) != 0) {
      setup_low += st.cpu_seconds.low;
      setup_high += st.cpu_seconds.high;
    }
    price.stages.push_back(std::move(out));
  }
  // The set-up's wall time on the run's threads, from the middle of its
  // CPU interval (its low end when the interval is open above).
  const double cpu = std::isinf(setup_high) ? setup_low : std::sqrt(std::max(setup_low, 1e-9) * setup_high);
  price.seconds = cpu / std::clamp(threads, 1, engine::hardware_threads());
  price.what = "graph class lists by nauty-genbg, lookup tables and complements";
  price.basis = "the stages below";
  if (dir) price.cache = dir->string();
  price.peak_bytes_low = p.peak_bytes.low;
  price.peak_bytes_high = p.peak_bytes.high;
  price.peak_what = "reading the " + std::to_string(n / 2) + "-regular class list from genbg, or building its table";
  return price;
}

/// --estimate's price of the classes set-up (Problem::price_setup): the
/// graph class lists that are not cached yet, at 0.52 ms of CPU per class
/// — R(10)'s cold set-up (lists of degrees 4 and 5, 722,845 classes, by
/// nauty-genbg, and the lookup table) took 191 s on 2 threads at 1.96 CPU-s
/// per second, results/latin.md and results/estimate.md — shared by the
/// run's threads. Only orders 10 and 11 have lists that take long (order 9
/// lists in under a second); degree d ≤ 3 lists are not counted, nor the
/// table alone (a fifth of that set-up). The 4-regular 11+11 count is
/// genbg's slice 0/256 (21,810 classes) times 256.
std::optional<SetupPrice> price_latin_setup(const Invocation& inv) {
  const auto n_text = inv.value("latin");
  if (!n_text || inv.common.list) return std::nullopt;
  const long long n = parse_int("--latin", *n_text, 1, kMaxSearchOrder);
  const long long k = inv.value("rows") ? parse_int("--rows", *inv.value("rows"), 1, n) : n;
  if (n < 10 || n > kMaxClassOrder || choose_method(inv, {"search", "classes"}, "classes") != "classes")
    return std::nullopt;
  if (inv.value("cache-dir") && inv.value("cache-dir")->empty()) return std::nullopt;  // refused by the plan
  const auto dir =
      inv.value("cache-dir") ? std::optional(std::filesystem::path(*inv.value("cache-dir"))) : default_cache_dir();
  if (k >= n - 1 && !inv.value("class-degree")) return price_square_setup(static_cast<int>(n), dir, inv.common.threads);
  refuse_beyond_rows_at_11(static_cast<int>(n), static_cast<int>(k));  // before pricing what cannot run
  // The degrees listed: the class degree and those of the tables below it.
  const auto degree = inv.value("class-degree");
  const long long top = degree ? parse_int("--class-degree", *degree, 1, n)
                               : default_class_degree(static_cast<int>(n), static_cast<int>(k));
  constexpr double kClasses[2][6] = {{0, 0, 0, 0, 121790, 601055},     // d-regular 10+10 classes, d = 4, 5
                                     {0, 0, 0, 0, 21810.0 * 256, 0}};  // 11+11, d = 4 (estimated)
  double cpu = 0.0;
  for (long long d = 4; d <= top; ++d) {
    const long long listed = std::min(d, n - d);
    const bool cached = dir && std::filesystem::exists(*dir / ("latin-classes-n" + std::to_string(n) + "-d" +
                                                               std::to_string(listed) + ".txt"));
    if (!cached && listed <= 5) cpu += 0.52e-3 * kClasses[n - 10][listed];
  }
  SetupPrice price;
  price.seconds = cpu / std::clamp(inv.common.threads, 1, engine::hardware_threads());
  price.what = "graph class lists by nauty-genbg and lookup tables";
  price.basis = "0.52 ms of CPU per class listed, from a recorded cold R(10) set-up";
  if (dir) price.cache = dir->string();
  return price;
}

}  // namespace

constexpr ParameterOption kParameters[] = {{"order", "--latin"}, {"rows", "--rows"}};

std::span<const Problem> problems() {
  static const Problem table[] = {
      {.option = "latin",
       .value_name = "N",
       .help = "reduced Latin squares R(N) and all Latin squares L(N), 1 ≤ N ≤ 16",
       .group = "latin",
       .add_options = add_latin_options,
       .methods = "search|classes",
       .plan = plan_latin,
       .parameters = kParameters,
       .lists = true,
       .memory_limit = true,
       .price_setup = price_latin_setup},
  };
  return table;
}

}  // namespace pcount::latin
