// The `--queens N` problem: all, distinct and rotation-symmetric N-Queens solutions.
#include <optional>
#include <sstream>
#include <string>

#include "pcount/queens/problem.hpp"
#include "pcount/engine/files.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/queens/constellations.hpp"
#include "pcount/queens/search.hpp"
#include "pcount/queens/show.hpp"

namespace pcount::queens {

using namespace driver;

namespace {

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

Report report_counts(const Invocation& inv, int n, const std::string& method, const QueensCounts& c,
                     nlohmann::ordered_json extra, const ShowOptions& show) {
  std::vector<std::vector<int>> boards;
  if (show.count() > 0) boards = first_distinct_solutions(n, show.count());
  if (show.svg) engine::write_atomically(*show.svg, boards_svg(boards));
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
  if (show.show && !inv.common.json) {
    std::ostringstream text;
    for (std::size_t i = 0; i < boards.size(); ++i) {
      text << "\nsolution " << i + 1 << " (columns";
      for (int col : boards[i]) text << ' ' << col + 1;
      text << ")\n" << board_text(boards[i], show.ascii);
    }
    report.text_after = text.str();
  }
  return report;
}

Plan plan_queens(const Invocation& inv) {
  const int n = static_cast<int>(parse_int("--queens", *inv.value("queens"), 1, kMaxN));
  const ShowOptions show = read_show_options(inv);
  // --list writes the solutions of the search, in its order; constellations
  // count classes of solutions and cannot (the default becomes search).
  const bool list = inv.common.list;
  if (list && inv.common.method == "constellations")
    throw InvalidArgument("--list", "needs --method search (constellations count classes of solutions, "
                                    "they do not list them)");
  const std::string method =
      choose_method(inv, {"search", "constellations"}, n >= 10 && !list ? "constellations" : "search");
  const std::string fingerprint = fingerprint_prefix() + "queens n=" + std::to_string(n) + " method=" + method;
  Plan plan;
  if (method == "constellations") {
    if (inv.common.split_depth)
      throw InvalidArgument("--split-depth", "does not apply to --method constellations (use --group)");
    std::size_t group = 1;
    if (const auto g = inv.value("group")) group = static_cast<std::size_t>(parse_int("--group", *g, 1, 1'000'000));
    plan.job = make_constellation_job(n, group, fingerprint);
    plan.report = [&inv, n, method, group, show](const engine::RunResult& result) {
      nlohmann::ordered_json extra = nlohmann::ordered_json::object();
      extra["canonical"] = canonical_constellations(n).size();
      extra["group"] = group;
      return report_counts(inv, n, method, constellation_counts(n, result.totals), std::move(extra), show);
    };
    return plan;
  }
  if (inv.has("group")) throw InvalidArgument("--group", "applies only to --method constellations");
  const int depth = inv.common.split_depth.value_or(auto_search_depth(n, auto_split_min_tasks(inv)));
  if (list) {
    plan.job = make_list_job(n, depth, fingerprint, list_json(inv), inv.common.list_limit);
    plan.job.fingerprint += list_fingerprint(inv);
  } else {
    plan.job = make_search_job(n, depth, fingerprint);
  }
  plan.report = [&inv, n, method, show](const engine::RunResult& result) {
    return report_counts(inv, n, method, search_counts(n, result.totals), nlohmann::ordered_json::object(), show);
  };
  return plan;
}

}  // namespace

constexpr ParameterOption kParameters[] = {{"n", "--queens"}, {"group", "--group"}};

std::span<const Problem> problems() {
  static const Problem table[] = {
      {"queens", "N", "N-Queens solutions: all, distinct under symmetry, symmetric ones, 1 ≤ N ≤ 32", "queens",
       add_queens_options, "search|constellations", plan_queens, nullptr, kParameters, true},
  };
  return table;
}

}  // namespace pcount::queens
