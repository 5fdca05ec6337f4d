// The `--kirkman [--find | --classes]` problem: Kirkman's 15 schoolgirls.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pcount/problems/designs.hpp"
#include "pcount/designs/kirkman.hpp"

namespace pcount::designs {

using namespace driver;

namespace {

void add_kirkman_options(po::options_description& d) {
  d.add_options()("find", "print one solution instead of counting")(
      "classes", "count the solutions up to isomorphism (nauty canonical forms) instead");
}

/// A job of one task that runs `search` (a search that finds rather than
/// counts); the report reads what it left in the captured state.
engine::Job one_task_job(std::string fingerprint, std::vector<std::string> counters,
                         std::function<void(engine::Tally&)> search) {
  engine::Job job;
  job.fingerprint = Fingerprint(fingerprint);
  job.counter_names = std::move(counters);
  job.task_count = 1;
  job.run_task = [search = std::move(search)](std::size_t, engine::Tally& out) { search(out); };
  return job;
}

Plan plan_find(const Invocation& inv) {
  auto found = std::make_shared<std::optional<kirkman::Schedule>>();
  Plan plan;
  plan.batch = false;
  plan.job = one_task_job("kirkman find", {"found"}, [found](engine::Tally& out) {
    *found = kirkman::find_solution();
    if (*found) out.add(0, 1);
  });
  plan.report = [&inv, found](const engine::RunResult&) {
    if (!*found || !kirkman::is_solution(**found))
      throw InternalError("kirkman: the search did not produce a valid schedule");
    Report report;
    report.problem = "kirkman";
    report.title = "one solution of Kirkman's 15 schoolgirls (checked: every pair once)";
    report.method = "search";
    nlohmann::ordered_json days = nlohmann::ordered_json::array();
    std::string text;
    for (std::size_t d = 0; d < (*found)->size(); ++d) {
      days.push_back(kirkman::format((**found)[d]));
      text += "day " + std::to_string(d + 1) + "         " + kirkman::format((**found)[d]) + "\n";
    }
    if (inv.common.json)
      report.extra["days"] = days;
    else
      report.text_after = text;
    return report;
  };
  return plan;
}

Plan plan_classes() {
  auto systems = std::make_shared<std::size_t>(0);
  auto classes = std::make_shared<std::size_t>(0);
  Plan plan;
  plan.batch = false;
  plan.job = one_task_job("kirkman classes", {"classes", "triple_systems"}, [systems, classes](engine::Tally& out) {
    *classes = kirkman::isomorphism_classes(*systems);
    out.add(0, *classes);
    out.add(1, *systems);
  });
  plan.report = [](const engine::RunResult& result) {
    Report report;
    report.problem = "kirkman";
    report.title = "Kirkman's 15 schoolgirls up to isomorphism";
    report.method = "nauty canonical forms of the orbit representatives' completions";
    report.counts = {{"classes", to_string(result.totals.counts[0])},
                     {"triple_systems", to_string(result.totals.counts[1])}};
    return report;
  };
  return plan;
}

Plan plan_kirkman(const Invocation& inv) {
  Params params(inv);
  // One-task jobs of the mode's own fingerprint ("kirkman find").
  params.flag("--find", "find", "", Params::checked);
  params.flag("--classes", "classes", "", Params::checked);
  if (inv.has("find") || inv.has("classes")) {
    const std::string mode = inv.has("find") ? "--find" : "--classes";
    if (inv.has("find") && inv.has("classes")) throw InvalidArgument("--find, --classes", "give one of them");
    if (inv.common.split_depth) throw InvalidArgument("--split-depth", "does not apply to --kirkman " + mode);
    if (!inv.common.method.empty()) throw InvalidArgument("--method", "does not apply to --kirkman " + mode);
    if (inv.common.list) throw InvalidArgument("--list", "does not apply to --kirkman " + mode);
    return inv.has("find") ? plan_find(inv) : plan_classes();
  }
  if (inv.common.list) {  // every solution, by the plain search from day 1
    if (!inv.common.method.empty() && inv.common.method != "search")
      throw InvalidArgument("--method", "--list uses the plain search (--method search); orbits only count");
    const int depth = inv.common.split_depth.value_or(4);
    Plan plan;
    plan.job = kirkman::make_list_job(depth, list_json(inv), inv.common.list_limit);
    plan.job.fingerprint += list_fingerprint(inv);
    plan.report = [](const engine::RunResult& result) {
      Report report;
      report.problem = "kirkman";
      report.title = "Kirkman's 15 schoolgirls, day 1 = ABC DEF GHI JKL MNO, days unordered (listed)";
      report.method = "search";
      report.counts.emplace_back("solutions", to_string(result.totals.get(0)));
      return report;
    };
    return plan;
  }
  // The count job writes its fingerprint itself (designs/kirkman.cpp).
  const std::string method = params.method({"orbits"}, "orbits", Params::checked);
  Plan plan;
  const int threads = inv.common.threads;
  if (inv.common.split_depth) {
    plan.job = kirkman::make_count_job(*inv.common.split_depth, threads);
  } else {  // the shallowest split giving enough tasks, the same for any --threads ≤ 64
    const std::size_t want = auto_split_min_tasks(inv);
    for (int depth = 0;; ++depth) {
      plan.job = kirkman::make_count_job(depth, threads);
      if (depth == 10 || plan.job.task_count >= want) break;
    }
  }
  plan.report = [method](const engine::RunResult& result) {
    Report report;
    report.problem = "kirkman";
    report.title = "Kirkman's 15 schoolgirls, day 1 = ABC DEF GHI JKL MNO, days unordered";
    report.method = method;
    report.counts.emplace_back("solutions", to_string(kirkman::solutions(result.totals)));
    const auto orbits = kirkman::second_day_orbits();
    std::uint64_t second_days = 0;  // the days the orbits cover, as computed
    for (const auto& o : orbits) second_days += o.size;
    report.extra["second_days"] = second_days;
    report.extra["orbits"] = orbits.size();
    return report;
  };
  return plan;
}

}  // namespace

std::span<const Problem> problems() {
  static const Problem table[] = {
      {.option = "kirkman",
       .help = "Kirkman's 15 schoolgirls: count the solutions (or --find one)",
       .group = "kirkman",
       .add_options = add_kirkman_options,
       .methods = "orbits|search (--list)",
       .plan = plan_kirkman,
       .lists = true},
  };
  return table;
}

}  // namespace pcount::designs
