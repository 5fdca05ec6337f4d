// `count --queens N`: all, distinct and rotation-symmetric N-Queens solutions.
#include <optional>
#include <string>

#include "cli/problems.hpp"
#include "pcount/engine/files.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/queens/constellations.hpp"
#include "pcount/queens/search.hpp"
#include "pcount/queens/show.hpp"

namespace pcount::cli {

void add_queens_options(po::options_description& d) {
  d.add_options()
      ("group", po::value<std::string>()->value_name("G"),
       "constellations method: canonical constellations per engine task, G ≥ 1; default: 1")
      ("show", po::value<std::string>()->value_name("K"),
       "also print the first K distinct solutions (canonical form, lexicographic order), 0 ≤ K ≤ 10000")
      ("ascii", "draw the --show boards with Q and . instead of Unicode")
      ("svg", po::value<std::string>()->value_name("FILE"),
       "also write the --show boards (default K = 12) as one SVG image to FILE, atomically");
}

namespace {

/// The --show/--ascii/--svg options.
struct ShowOptions {
  std::optional<std::size_t> show;  ///< boards on the terminal
  bool ascii = false;
  std::optional<std::string> svg;  ///< the --svg path (checked writable before the run, like every output)

  [[nodiscard]] std::size_t count() const { return show ? *show : (svg ? 12 : 0); }
};

ShowOptions read_show_options(const Invocation& inv) {
  ShowOptions o;
  if (const auto k = inv.value("show")) o.show = static_cast<std::size_t>(parse_int("--show", *k, 0, 10000));
  o.ascii = inv.has("ascii");
  if (o.ascii && !o.show) throw InvalidArgument("--ascii", "applies only with --show K");
  o.svg = inv.value("svg");
  return o;
}

void report_counts(const Invocation& inv, const engine::Job& job, const engine::RunResult& result, int n,
                   const std::string& method, const queens::QueensCounts& c, nlohmann::ordered_json extra,
                   ShowOptions& show) {
  std::vector<std::vector<int>> boards;
  if (show.count() > 0) boards = queens::first_distinct_solutions(n, show.count());
  if (show.svg) engine::write_atomically(*show.svg, queens::boards_svg(boards));
  if (show.show) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& b : boards) list.push_back(b);
    if (inv.common.json) extra["solutions"] = list;
  }
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
  if (show.show && !inv.common.json) {
    for (std::size_t i = 0; i < boards.size(); ++i) {
      inv.out << "\nsolution " << i + 1 << " (columns";
      for (int col : boards[i]) inv.out << ' ' << col + 1;
      inv.out << ")\n" << queens::board_text(boards[i], show.ascii);
    }
  }
}

}  // namespace

int run_queens(const Invocation& inv) {
  const int n = static_cast<int>(parse_int("--queens", *inv.value("queens"), 1, queens::kMaxN));
  ShowOptions show = read_show_options(inv);
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
    report_counts(inv, job, result, n, method, queens::constellation_counts(n, result.totals), std::move(extra), show);
    return 0;
  }
  if (inv.has("group")) throw InvalidArgument("--group", "applies only to --method constellations");
  const int depth = inv.common.split_depth.value_or(
      queens::auto_search_depth(n, auto_split_min_tasks(inv)));
  const engine::Job job = queens::make_search_job(n, depth, fingerprint);
  const engine::RunResult result = run_job(inv, job);
  report_counts(inv, job, result, n, method, queens::search_counts(n, result.totals), nlohmann::ordered_json::object(),
                show);
  return 0;
}

}  // namespace pcount::cli
