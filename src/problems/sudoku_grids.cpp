// The `--sudoku RxC` problem: all sudoku grids with boxes of R rows × C columns.
// Methods: "bands" (band / column-signature classes: 3x3, 2xC and Cx2 for
// C = 2..5), "factorisations" (the same classes for 2xC and Cx2, C = 2..5,
// B by a rooted edge pivot and a shared memo), "subbands" (2xC and Cx2 for C = 2..6: the same Σ B² with
// signature classes by orderly generation and B by a sub-band split) and
// "search" (tree search over reduced grids: 2x2, 2x3, 3x2).
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "pcount/problems/sudoku.hpp"
#include "pcount/bigint.hpp"
#include "pcount/engine/tree.hpp"
#include "pcount/sudoku/grids/bands.hpp"
#include "pcount/sudoku/grids/grids.hpp"
#include "pcount/sudoku/list.hpp"

namespace pcount::sudoku {

using namespace driver;

namespace {

using Clock = std::chrono::steady_clock;

const char* const kSupported =
    "supported: --method bands for 3x3, 2x2..2x5 and 3x2..5x2; --method factorisations for 2x2..2x5 and 3x2..5x2; "
    "--method subbands for 2x2..2x6 and 3x2..6x2; "
    "--method search for 2x2, 2x3, 3x2";

bool search_applies(BoxShape s) {
  return (s.rows == 2 && s.cols == 2) || (s.rows == 2 && s.cols == 3) || (s.rows == 3 && s.cols == 2);
}

bool bands_applies(BoxShape s) {
  if (s.rows == 3 && s.cols == 3) return true;
  return (s.rows == 2 && s.cols >= 2 && s.cols <= 5) || (s.cols == 2 && s.rows >= 2 && s.rows <= 5);
}

bool factorisations_applies(BoxShape s) { return bands_applies(s) && !(s.rows == 3 && s.cols == 3); }

bool subbands_applies(BoxShape s) {
  return (s.rows == 2 && s.cols >= 2 && s.cols <= 6) || (s.cols == 2 && s.rows >= 2 && s.rows <= 6);
}

/// For an R×R shape no method counts: when R is the side of a grid whose
/// boxes a method counts (9x9: 3x3 boxes), the hint that RxC names the
/// boxes, not the grid; else empty.
std::string grid_side_hint(BoxShape s) {
  if (s.rows != s.cols) return {};
  for (int r = 2; r * r <= s.rows; ++r)
    if (s.rows % r == 0) {
      const BoxShape boxes{r, s.rows / r};
      if (bands_applies(boxes) || subbands_applies(boxes) || search_applies(boxes))
        return "; RxC is the shape of a box, not of the grid: a " + s.name() + " grid has " + boxes.name() +
               " boxes (--sudoku " + boxes.name() + ")";
    }
  return {};
}

Report base_report(BoxShape shape, const std::string& method) {
  Report report;
  report.problem = "sudoku";
  const std::string n = std::to_string(shape.side());
  report.title = "sudoku grids with " + shape.name() + " boxes (" + n + "x" + n + ")";
  report.params["box"] = shape.name();
  report.params["rows"] = shape.rows;
  report.params["cols"] = shape.cols;
  report.params["side"] = shape.side();
  report.method = method;
  return report;
}

/// Adds total, reduced and multiplier to the report; checks divisibility.
void add_counts(Report& report, BoxShape shape, const BigInt& total) {
  const BigInt mult = reduced_multiplier(shape);
  if (total % mult != 0)
    throw InternalError("grid total " + to_string(total) + " is not a multiple of N!·C!·(R-1)! = " + to_string(mult));
  report.counts.emplace_back("grids", to_string(total));
  report.counts.emplace_back("reduced", to_string(BigInt(total / mult)));
  report.counts.emplace_back("multiplier", to_string(mult));
}

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

Plan plan_search(const Invocation& inv, BoxShape shape, Fingerprint fingerprint) {
  auto tree = std::make_shared<const GridSearchTree>(shape);
  const int depth = inv.common.split_depth.value_or(engine::auto_split_depth(*tree, auto_split_min_tasks(inv)));
  Plan plan;
  plan.job = engine::make_tree_job(tree, depth, fingerprint, {"reduced"});
  plan.report = [shape](const engine::RunResult& result) {
    Report report = base_report(shape, "search");
    add_counts(report, shape, to_big(result.totals.counts[0]) * reduced_multiplier(shape));
    return report;
  };
  return plan;
}

/// --list: every grid (not only reduced ones) by a plain fill of the empty
/// grid (sudoku/list.hpp); the report is that of a count (grids, reduced,
/// multiplier) from the number of grids written.
Plan plan_list(const Invocation& inv, BoxShape shape, Fingerprint fingerprint) {
  ListJobOptions options;
  options.split_depth = inv.common.split_depth.value_or(-1);
  options.min_tasks = auto_split_min_tasks(inv);
  options.json = list_json(inv);
  options.limit = inv.common.list_limit;
  options.fingerprint = fingerprint.flag("list-grids");
  Plan plan;
  plan.job = make_grid_list_job(shape, std::vector<std::uint8_t>(static_cast<std::size_t>(shape.cells()), 0), options);
  plan.job.fingerprint += list_fingerprint(inv);
  plan.report = [shape](const engine::RunResult& result) {
    Report report = base_report(shape, "search (listing every grid)");
    add_counts(report, shape, to_big(result.totals.counts[0]));
    return report;
  };
  return plan;
}

/// The job and report of a band-class method (`bands`, `subbands`): one
/// task per class, the grid total from the summed tallies (complete totals
/// only), the class count and the setup and counting times.
Plan band_class_plan(BoxShape shape, const std::string& method, const Fingerprint& fingerprint,
                     std::shared_ptr<const BandCount> bands, double setup) {
  Plan plan;
  plan.job = bands->job(fingerprint);
  plan.report = [shape, method, bands, setup](const engine::RunResult& result) {
    Report report = base_report(shape, method);
    add_counts(report, shape, bands->total(result.totals));
    report.extra["classes"] = bands->class_count();
    report.extra["setup_seconds"] = setup;
    report.extra["count_seconds"] = result.wall_seconds;
    for (const BandCount::RunStat& stat : bands->run_stats()) {
      if (stat.integer)
        report.extra[stat.name] = static_cast<std::uint64_t>(stat.value);
      else
        report.extra[stat.name] = stat.value;
    }
    return report;
  };
  return plan;
}

/// The split depth of `bands` for 2xC when --split-depth is not given: 0
/// (one task per class) up to 16 workers, 1 (each class cut into C(C−1)/2
/// tasks) beyond. The largest 2x5 class is about 1/107 of the work and its
/// largest part about 1/747 (results/sudoku-grids.md), so the largest task
/// stays at most 1/(4 × workers) of the work up to 26 and 186 workers; runs
/// of up to 16 workers keep one task per class (and the fingerprint, so
/// their checkpoints resume on any such worker count).
int default_band_split(const Invocation& inv) { return driver::run_workers(inv) > 16 ? 1 : 0; }

Plan plan_bands(const Invocation& inv, BoxShape shape, const Fingerprint& fingerprint) {
  const bool square_boxes = shape.rows == 3 && shape.cols == 3;
  if (inv.common.split_depth && (square_boxes || *inv.common.split_depth > 1))
    throw InvalidArgument("--split-depth", square_boxes ? "does not apply to --method bands of 3x3 (its tasks are "
                                                          "the 44 band classes)"
                                                        : "--method bands of 2xC splits its band classes at depth 1 "
                                                          "only (0 = one task per class, the default)");
  const auto t0 = Clock::now();
  std::shared_ptr<const BandCount> bands;
  if (square_boxes)
    bands = make_bands_3x3(inv.common.threads);
  else
    bands = make_bands_two_column(shape.rows == 2 ? shape.cols : shape.rows, inv.common.threads,
                                  inv.common.split_depth.value_or(default_band_split(inv)) == 1);
  return band_class_plan(shape, "bands", fingerprint, std::move(bands), seconds_since(t0));
}

Plan plan_subbands(const Invocation& inv, BoxShape shape, const Fingerprint& fingerprint) {
  if (inv.common.split_depth)
    throw InvalidArgument("--split-depth", "does not apply to --method subbands (its tasks are the band classes)");
  const auto t0 = Clock::now();
  const auto bands = make_bands_sub_band(shape.rows == 2 ? shape.cols : shape.rows, inv.common.threads);
  return band_class_plan(shape, "subbands", fingerprint, bands, seconds_since(t0));
}

Plan plan_factorisations(const Invocation& inv, BoxShape shape, const Fingerprint& fingerprint) {
  if (inv.common.split_depth)
    throw InvalidArgument("--split-depth",
                          "does not apply to --method factorisations (its tasks are the band classes)");
  const auto t0 = Clock::now();
  const auto bands = make_bands_factorisations(shape.rows == 2 ? shape.cols : shape.rows, inv.common.threads);
  return band_class_plan(shape, "factorisations", fingerprint, bands, seconds_since(t0));
}

/// The default method: `factorisations` for 2xC and Cx2 (C ≤ 5; fewer
/// instructions than `bands` on every such shape, 40× less CPU for 2x5,
/// results/sudoku-grids-peer.md) unless --split-depth is given or the run
/// has more than 16 workers, where `bands` splits its classes (one
/// factorisations task per class: the largest 2x5 class is about 3 % of
/// the work, at most 1/(4 × workers) up to 8 workers); `bands` for 3x3,
/// `subbands` for 2x6 and 6x2.
std::string default_grid_method(const Invocation& inv, bool bands_ok, bool factorisations_ok) {
  if (factorisations_ok && !inv.common.split_depth && driver::run_workers(inv) <= 16) return "factorisations";
  return bands_ok ? "bands" : "subbands";
}

Plan plan_sudoku(const Invocation& inv) {
  const BoxShape shape = [&] {
    const auto [r, c] = parse_box("--sudoku", *inv.value("sudoku"));
    return BoxShape{r, c};
  }();
  Params params(inv);
  params.record("box", shape.name());
  if (inv.common.list) {
    if (inv.common.method == "bands" || inv.common.method == "subbands" || inv.common.method == "factorisations")
      throw InvalidArgument("--list",
                            "needs --method search (bands, factorisations and subbands count classes of "
                            "grids, they do not list them)");
    // a bad --method still exits 2
    (void)params.method({"bands", "factorisations", "search", "subbands"}, "search");
    return plan_list(inv, shape, params.fingerprint("sudoku"));
  }
  const bool search_ok = search_applies(shape);
  const bool bands_ok = bands_applies(shape);
  const bool subbands_ok = subbands_applies(shape);
  if (!search_ok && !bands_ok && !subbands_ok)
    throw InvalidArgument(
        "--sudoku", "no method counts " + shape.name() + " boxes yet" + grid_side_hint(shape) + "; " + kSupported);
  const bool factorisations_ok = factorisations_applies(shape);
  const std::string method = params.method({"bands", "factorisations", "search", "subbands"},
                                           default_grid_method(inv, bands_ok, factorisations_ok));
  const Fingerprint fingerprint = params.fingerprint("sudoku");
  if (method == "factorisations") {
    if (!factorisations_ok)
      throw InvalidArgument("--method", "factorisations does not apply to " + shape.name() + "; " + kSupported);
    return plan_factorisations(inv, shape, fingerprint);
  }
  if (method == "subbands") {
    if (!subbands_ok)
      throw InvalidArgument("--method", "subbands does not apply to " + shape.name() + "; " + kSupported);
    return plan_subbands(inv, shape, fingerprint);
  }
  if (method == "search") {
    if (!search_ok)
      throw InvalidArgument("--method", "search cannot finish " + shape.name() + " in reasonable time; " + kSupported);
    return plan_search(inv, shape, fingerprint);
  }
  if (!bands_ok) throw InvalidArgument("--method", "bands does not apply to " + shape.name() + "; " + kSupported);
  return plan_bands(inv, shape, fingerprint);
}

}  // namespace

constexpr ParameterOption kParameters[] = {{"box_shape", "--sudoku"}};

std::span<const Problem> grid_problems() {
  static const Problem table[] = {
      {.option = "sudoku",
       .value_name = "RxC",
       .help = "sudoku grids with boxes of R rows × C columns, e.g. 2x3, 3x3",
       .group = "sudoku",
       .methods = "bands|factorisations|search|subbands",
       .plan = plan_sudoku,
       .parameters = kParameters,
       .lists = true},
  };
  return table;
}

}  // namespace pcount::sudoku
