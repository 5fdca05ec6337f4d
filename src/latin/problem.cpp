// count --latin N [--rows K] [--method search|classes] [--cache-dir DIR]
#include <filesystem>
#include <memory>
#include <string>

#include "cli/problems.hpp"
#include "pcount/engine/bigint.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/latin/classes.hpp"
#include "pcount/latin/search.hpp"

namespace pcount::cli {

void add_latin_options(po::options_description& d) {
  d.add_options()
      ("rows", po::value<std::string>()->value_name("K"),
       "count reduced K×N Latin rectangles R(K,N), 1 ≤ K ≤ N; default: K = N (squares)")
      ("cache-dir", po::value<std::string>()->value_name("DIR"),
       "where --method classes caches graph class lists; default: $XDG_CACHE_HOME/pcount "
       "or ~/.cache/pcount");
  // --method for --latin: search (tree search, 1 ≤ N ≤ 16; default below 8) or
  // classes (bipartite-graph classes with nauty, 2 ≤ N ≤ 10; default from 8).
}

namespace {

Report make_report(int n, int k, const std::string& method, u128 reduced) {
  Report report;
  report.problem = "latin";
  report.params["n"] = n;
  report.params["rows"] = k;
  report.method = method;
  report.title = k == n ? "reduced Latin squares of order " + std::to_string(n)
                        : "reduced " + std::to_string(k) + "×" + std::to_string(n) + " Latin rectangles";
  report.counts.emplace_back("reduced", to_string(reduced));
  report.counts.emplace_back("all", to_string(latin::all_rectangles(n, k, reduced)));
  return report;
}

int run_classes(const Invocation& inv, int n, int k) {
  if (n < 2 || n > latin::kMaxClassOrder)
    throw InvalidArgument("--method", "classes handles 2 ≤ N ≤ " + std::to_string(latin::kMaxClassOrder) +
                                          ", got N = " + std::to_string(n) + "; use --method search");
  if (inv.common.split_depth)
    throw InvalidArgument("--split-depth", "applies to --method search only; classes splits by graph class");
  latin::CacheOptions cache;
  if (auto dir = inv.value("cache-dir")) {
    if (dir->empty()) throw InvalidArgument("--cache-dir", "expected a directory, got an empty string");
    cache.dir = std::filesystem::path(*dir);
  } else {
    cache.dir = latin::default_cache_dir();
  }
  const latin::ClassJob cj = latin::make_class_job(n, k, cache, inv.common.threads);
  const engine::RunResult result = run_job(inv, cj.job);
  const u128 reduced = latin::reduced_from_all(n, k, result.totals.counts[0]);
  if (k >= n - 1) latin::check_mod_n(n, reduced);
  Report report = make_report(n, k, "classes", reduced);
  report.extra["classes"] = cj.classes;
  report.extra["class_degree"] = cj.class_degree;
  report.extra["table_seconds"] = cj.table_seconds;
  if (cj.table_classes)
    report.extra["lookup_table"] = std::to_string(cj.table_classes) + " classes of degree " +
                                   std::to_string(cj.table_degree) + ", " +
                                   std::to_string(cj.table_ambiguous) + " by canonical form";
  print_report(inv, cj.job, result, report);
  return 0;
}

int run_search(const Invocation& inv, int n, int k) {
  auto tree = std::make_shared<const latin::LatinTree>(n, k);
  // The automatic depth does not depend on --threads (auto_split_min_tasks),
  // so a checkpoint or shard set can be resumed or merged with other threads.
  const int depth =
      inv.common.split_depth.value_or(engine::auto_split_depth(*tree, auto_split_min_tasks(inv)));
  const engine::Job job = engine::make_tree_job(
      tree, depth,
      "pcount/" + std::string(version()) + " latin n=" + std::to_string(n) + " rows=" + std::to_string(k) +
          " method=search",
      {"reduced"});
  const engine::RunResult result = run_job(inv, job);
  const u128 reduced = result.totals.counts[0];
  if (tree->square()) latin::check_mod_n(n, reduced);
  print_report(inv, job, result, make_report(n, k, "search", reduced));
  return 0;
}

}  // namespace

int run_latin(const Invocation& inv) {
  const int n = static_cast<int>(parse_int("--latin", *inv.value("latin"), 1, latin::kMaxSearchOrder));
  int k = n;
  if (auto rows = inv.value("rows")) k = static_cast<int>(parse_int("--rows", *rows, 1, n));
  const bool classes_apply = n >= 8 && n <= latin::kMaxClassOrder;
  const std::string method = choose_method(inv, {"search", "classes"}, classes_apply ? "classes" : "search");
  if (method == "classes") return run_classes(inv, n, k);
  // --cache-dir is accepted and unused with search (scripts may always pass it).
  return run_search(inv, n, k);
}

}  // namespace pcount::cli
