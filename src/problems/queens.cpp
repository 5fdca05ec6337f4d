// The `--queens N` problem: all, distinct and rotation-symmetric N-Queens solutions.
#include <cmath>
#include <optional>
#include <sstream>
#include <string>

#include <sys/resource.h>
#include <unistd.h>

#include "pcount/problems/queens.hpp"
#include "pcount/engine/files.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/queens/constellations.hpp"
#include "pcount/queens/join.hpp"
#include "pcount/queens/search.hpp"
#include "pcount/queens/show.hpp"

namespace pcount::queens {

using namespace driver;

namespace {

void add_queens_options(po::options_description& d) {
  d.add_options()("group", po::value<std::string>()->value_name("G"),
                  "constellations method: canonical constellations per engine task, G ≥ 1; default: 1")(
      "outer-columns", po::value<std::string>()->value_name("K"),
      "join method: outer columns fixed per task (K/2 on each side), even, from max(0, N-20) to min(N-2, 18 for even "
      "N, 14 for odd N); "
      "default: N − 8 for even N ≤ 20, N − 6 above; N − 11 for odd N ≤ 19, N − 7 above (at least 0)")(
      "show", po::value<std::string>()->value_name("K"),
      "also print the first K distinct solutions (canonical form, lexicographic order), 0 ≤ K ≤ 10000")(
      "ascii", "draw the --show boards with Q and . instead of Unicode")(
      "svg", po::value<std::string>()->value_name("FILE"),
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

/// Peak resident set size of this process so far, in bytes (getrusage).
double peak_rss_bytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<double>(usage.ru_maxrss) * 1024.0;  // Linux: kilobytes
}

std::string mebibytes(double bytes) {
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(1);
  o << bytes / (1024.0 * 1024.0) << " MiB";
  return o.str();
}

/// The default method for board side n: the fastest, measured
/// (results/queens.md): the search below N = 10, constellations for 10 and
/// 11 (both take milliseconds), the join from N = 12 to 23; from N = 24 the
/// join's tasks need tens of GiB, so constellations (memory-free) again.
std::string default_method(int n) { return n >= 12 && n <= 23 ? "join" : n >= 10 ? "constellations" : "search"; }

Plan plan_queens(const Invocation& inv) {
  Params params(inv);
  const int n = static_cast<int>(params.integer("--queens", "n", 1, kMaxN));
  const ShowOptions show = read_show_options(inv);
  // --list writes the solutions of the search, in its order; constellations
  // count classes of solutions and cannot (the default becomes search).
  const bool list = inv.common.list;
  if (list && inv.common.method == "constellations")
    throw InvalidArgument("--list",
                          "needs --method search (constellations count classes of solutions, "
                          "they do not list them)");
  const std::string method = params.method({"search", "constellations", "join"}, list ? "search" : default_method(n));
  const std::string fingerprint = params.fingerprint("queens");
  Plan plan;
  if (method != "join") {
    if (inv.has("outer-columns")) throw InvalidArgument("--outer-columns", "applies only to --method join");
    if (inv.has("memory-limit")) throw InvalidArgument("--memory-limit", "applies only to --method join");
  }
  if (method == "join") {
    if (inv.common.split_depth)
      throw InvalidArgument("--split-depth", "does not apply to --method join (use --outer-columns)");
    if (inv.has("group")) throw InvalidArgument("--group", "applies only to --method constellations");
    // The join's job writes " outer=K" itself.
    const auto [least, most] = join_outer_range(n);
    const int outer = static_cast<int>(
        params.integer("--outer-columns", "outer", least, most, default_join_outer(n), Params::checked));
    if (inv.has("outer-columns") && outer % 2 != 0)
      throw InvalidArgument("--outer-columns",
                            "must be even, from " + std::to_string(least) + " to " + std::to_string(most));
    const double limit = inv.common.memory_limit ? *inv.common.memory_limit : 0.8 * machine_memory();
    const double need = join_memory_estimate(n, outer, inv.common.threads);
    if (limit > 0 && need > limit) {
      const int threads = inv.common.threads;
      throw InvalidArgument("--memory-limit",
                            "the join of N = " + std::to_string(n) + " with " + std::to_string(threads) +
                                (threads == 1 ? " thread" : " threads") + " needs about " + gibibytes(need) +
                                ", more than the limit of " + gibibytes(limit) + "; use " +
                                (threads > 1 ? "fewer --threads, " : "") + "more --outer-columns or a higher limit");
    }
    plan.job = make_join_job(n, outer, fingerprint);
    plan.report = [&inv, n, method, outer, need, show](const engine::RunResult& result) {
      nlohmann::ordered_json extra = nlohmann::ordered_json::object();
      extra["outer_columns"] = outer;
      // This process's memory: under merge it would be the merge's own, not
      // the shards' (their files do not record it), so it is left out.
      const double peak = peak_rss_bytes();
      if (inv.replayed() == nullptr && inv.common.json) {
        extra["memory_estimate_bytes"] = std::llround(need);
        extra["peak_rss_bytes"] = std::llround(peak);
      } else if (inv.replayed() == nullptr) {
        extra["memory"] = mebibytes(need) + " estimated, " + mebibytes(peak) + " peak RSS";
      }
      return report_counts(inv, n, method, join_counts(n, result.totals), std::move(extra), show);
    };
    return plan;
  }
  if (method == "constellations") {
    if (inv.common.split_depth)
      throw InvalidArgument("--split-depth", "does not apply to --method constellations (use --group)");
    // The constellations job writes " group=G" itself.
    const auto group = static_cast<std::size_t>(params.integer("--group", "group", 1, 1'000'000, 1, Params::checked));
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

constexpr ParameterOption kParameters[] = {{"n", "--queens"}, {"group", "--group"}, {"outer", "--outer-columns"}};

std::span<const Problem> problems() {
  static const Problem table[] = {
      {.option = "queens",
       .value_name = "N",
       .help = "N-Queens solutions: all, distinct under symmetry, symmetric ones, 1 ≤ N ≤ 32",
       .group = "queens",
       .add_options = add_queens_options,
       .methods = "search|constellations|join",
       .plan = plan_queens,
       .parameters = kParameters,
       .lists = true,
       .memory_limit = true},
  };
  return table;
}

}  // namespace pcount::queens
