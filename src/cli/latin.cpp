// count --latin N [--rows K] [--method search|classes] [--cache-dir DIR]
#include <memory>
#include <string>

#include "cli/problems.hpp"
#include "pcount/engine/bigint.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/latin/search.hpp"

namespace pcount::cli {

void add_latin_options(po::options_description& d) {
  d.add_options()
      ("rows", po::value<std::string>()->value_name("K"),
       "count reduced K×N Latin rectangles R(K,N), 1 ≤ K ≤ N; default: K = N (squares)");
}

namespace {

int run_search(const Invocation& inv, int n, int k) {
  auto tree = std::make_shared<const latin::LatinTree>(n, k);
  const int depth = inv.common.split_depth.value_or(
      engine::auto_split_depth(*tree, 16 * static_cast<std::size_t>(inv.common.threads)));
  const engine::Job job = engine::make_tree_job(
      tree, depth,
      "pcount/" + std::string(version()) + " latin n=" + std::to_string(n) + " rows=" + std::to_string(k) +
          " method=search",
      {"reduced"});
  const engine::RunResult result = run_job(inv, job);
  const u128 reduced = result.totals.counts[0];
  if (tree->square()) latin::check_mod_n(n, reduced);
  Report report;
  report.problem = "latin";
  report.params["n"] = n;
  report.params["rows"] = k;
  report.method = "search";
  if (k == n) {
    report.title = "reduced Latin squares of order " + std::to_string(n);
    report.counts.emplace_back("reduced", to_string(reduced));
    report.counts.emplace_back("all", to_string(latin::all_squares(n, reduced)));
  } else {
    report.title = "reduced " + std::to_string(k) + "×" + std::to_string(n) + " Latin rectangles";
    report.counts.emplace_back("reduced", to_string(reduced));
    report.counts.emplace_back("all", to_string(latin::all_rectangles(n, k, reduced)));
  }
  print_report(inv, job, result, report);
  return 0;
}

}  // namespace

int run_latin(const Invocation& inv) {
  const int n = static_cast<int>(parse_int("--latin", *inv.value("latin"), 1, latin::kMaxSearchOrder));
  int k = n;
  if (auto rows = inv.value("rows")) k = static_cast<int>(parse_int("--rows", *rows, 1, n));
  const std::string method = choose_method(inv, {"search"}, "search");
  (void)method;
  return run_search(inv, n, k);
}

}  // namespace pcount::cli
