#include <memory>

#include "cli/problems.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/queens/search.hpp"

namespace pcount::cli {

void add_queens_options(po::options_description&) {}

int run_queens(const Invocation& inv) {
  const int n = static_cast<int>(parse_int("--queens", *inv.value("queens"), 1, 32));
  const std::string method = choose_method(inv, {"search"}, "search");
  auto tree = std::make_shared<const queens::QueensTree>(n);
  const int depth = inv.common.split_depth.value_or(
      engine::auto_split_depth(*tree, 16 * static_cast<std::size_t>(inv.common.threads)));
  const engine::Job job = engine::make_tree_job(
      tree, depth, "pcount/" + std::string(version()) + " queens n=" + std::to_string(n) + " method=search",
      {"all"});
  const engine::RunResult result = run_job(inv, job);
  Report report;
  report.problem = "queens";
  report.title = std::to_string(n) + "-Queens solutions";
  report.params["n"] = n;
  report.method = method;
  report.counts.emplace_back("all", to_string(result.totals.counts[0]));
  print_report(inv, job, result, report);
  return 0;
}

}  // namespace pcount::cli
