// `count --queens N`: all, distinct and rotation-symmetric N-Queens solutions.
#include <memory>
#include <string>

#include "cli/problems.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/queens/constellations.hpp"
#include "pcount/queens/search.hpp"

namespace pcount::cli {

void add_queens_options(po::options_description& d) {
  d.add_options()
      ("group", po::value<std::string>()->value_name("G"),
       "constellations method: canonical constellations per engine task, G ≥ 1; default: 1");
}

namespace {

void report_counts(const Invocation& inv, const engine::Job& job, const engine::RunResult& result, int n,
                   const std::string& method, const queens::QueensCounts& c, nlohmann::ordered_json extra) {
  Report report;
  report.problem = "queens";
  report.title = std::to_string(n) + "-Queens solutions";
  report.params["n"] = n;
  report.method = method;
  report.counts.emplace_back("all", to_string(c.all));
  report.counts.emplace_back("distinct", to_string(c.distinct));
  report.counts.emplace_back("rot180", to_string(c.rot180));
  report.counts.emplace_back("rot90", to_string(c.rot90));
  report.extra = std::move(extra);
  print_report(inv, job, result, report);
}

}  // namespace

int run_queens(const Invocation& inv) {
  const int n = static_cast<int>(parse_int("--queens", *inv.value("queens"), 1, queens::kMaxN));
  const std::string method = choose_method(inv, {"search", "constellations"}, n >= 10 ? "constellations" : "search");
  const std::string fingerprint =
      "pcount/" + std::string(version()) + " queens n=" + std::to_string(n) + " method=" + method;
  if (method == "constellations") {
    if (inv.common.split_depth)
      throw InvalidArgument("--split-depth", "does not apply to --method constellations (use --group)");
    std::size_t group = 1;
    if (const auto g = inv.value("group")) group = static_cast<std::size_t>(parse_int("--group", *g, 1, 1'000'000));
    const engine::Job job = queens::make_constellation_job(n, group, fingerprint);
    const engine::RunResult result = run_job(inv, job);
    nlohmann::ordered_json extra = nlohmann::ordered_json::object();
    extra["canonical"] = queens::canonical_constellations(n).size();
    extra["group"] = group;
    report_counts(inv, job, result, n, method, queens::constellation_counts(n, result.totals), std::move(extra));
    return 0;
  }
  if (inv.has("group")) throw InvalidArgument("--group", "applies only to --method constellations");
  const int depth = inv.common.split_depth.value_or(
      queens::auto_search_depth(n, 16 * static_cast<std::size_t>(inv.common.threads)));
  const engine::Job job = queens::make_search_job(n, depth, fingerprint);
  const engine::RunResult result = run_job(inv, job);
  report_counts(inv, job, result, n, method, queens::search_counts(n, result.totals), nlohmann::ordered_json::object());
  return 0;
}

}  // namespace pcount::cli
