// count --kirkman [--find]: Kirkman's 15 schoolgirls.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include "cli/problems.hpp"
#include "pcount/games/kirkman.hpp"

namespace pcount::cli {

namespace kirkman = games::kirkman;

void add_kirkman_options(po::options_description& d) {
  d.add_options()("find", "print one solution instead of counting")(
      "classes", "count the solutions up to isomorphism (nauty canonical forms) instead");
}

namespace {

int find_one(const Invocation& inv) {
  const auto start = std::chrono::steady_clock::now();
  const auto schedule = kirkman::find_solution();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!schedule || !kirkman::is_solution(*schedule))
    throw InternalError("kirkman: the search did not produce a valid schedule");
  if (inv.common.json) {
    nlohmann::ordered_json j;
    j["program"] = "pcount";
    j["version"] = std::string(version());
    j["problem"] = "kirkman";
    j["title"] = "one solution of Kirkman's 15 schoolgirls";
    j["days"] = nlohmann::ordered_json::array();
    for (const auto& day : *schedule) j["days"].push_back(kirkman::format(day));
    j["wall_seconds"] = seconds;
    inv.out << j.dump() << '\n';
    return 0;
  }
  inv.out << "problem       one solution of Kirkman's 15 schoolgirls (checked: every pair once)\n";
  for (std::size_t d = 0; d < schedule->size(); ++d)
    inv.out << "day " << d + 1 << "         " << kirkman::format((*schedule)[d]) << '\n';
  char wall[32];
  std::snprintf(wall, sizeof wall, "%.3f s", seconds);
  inv.out << "wall          " << wall << '\n';
  return 0;
}

int classes(const Invocation& inv) {
  const auto start = std::chrono::steady_clock::now();
  std::size_t systems = 0;
  const std::size_t kts = kirkman::isomorphism_classes(systems);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (inv.common.json) {
    nlohmann::ordered_json j;
    j["program"] = "pcount";
    j["version"] = std::string(version());
    j["problem"] = "kirkman";
    j["title"] = "Kirkman's 15 schoolgirls up to isomorphism";
    j["method"] = "nauty";
    j["counts"] = {{"classes", std::to_string(kts)}, {"triple_systems", std::to_string(systems)}};
    j["wall_seconds"] = seconds;
    inv.out << j.dump() << '\n';
    return 0;
  }
  char wall[32];
  std::snprintf(wall, sizeof wall, "%.3f s", seconds);
  inv.out << "problem       Kirkman's 15 schoolgirls up to isomorphism\n"
          << "classes       " << kts << '\n'
          << "triple_systems " << systems << '\n'
          << "method        nauty canonical forms of the orbit representatives' completions\n"
          << "wall          " << wall << '\n';
  return 0;
}

}  // namespace

int run_kirkman(const Invocation& inv) {
  if (inv.has("find") || inv.has("classes")) {
    const std::string mode = inv.has("find") ? "--find" : "--classes";
    if (inv.has("find") && inv.has("classes")) throw InvalidArgument("--find, --classes", "give one of them");
    if (inv.common.split_depth) throw InvalidArgument("--split-depth", "does not apply to --kirkman " + mode);
    if (!inv.common.method.empty()) throw InvalidArgument("--method", "does not apply to --kirkman " + mode);
    return inv.has("find") ? find_one(inv) : classes(inv);
  }
  const std::string method = choose_method(inv, {"orbits"}, "orbits");
  int depth = 0;
  if (inv.common.split_depth) {
    depth = *inv.common.split_depth;
  } else {  // the shallowest split giving enough tasks, the same for any --threads ≤ 64
    const std::size_t want = auto_split_min_tasks(inv);
    while (depth < 10 && kirkman::make_count_job(depth).task_count < want) ++depth;
  }
  engine::Job job = kirkman::make_count_job(depth);
  job.fingerprint = "pcount/" + std::string(version()) + " " + job.fingerprint;
  const engine::RunResult result = run_job(inv, job);
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
  print_report(inv, job, result, report);
  return 0;
}

}  // namespace pcount::cli
