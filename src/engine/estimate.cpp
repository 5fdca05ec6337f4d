#include "pcount/engine/estimate.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "pcount/engine/runner.hpp"

namespace pcount::engine {

SizeEstimate estimate_job_nodes(const Job& job, std::size_t probes, std::uint64_t seed,
                                std::chrono::duration<double> budget) {
  if (!job.probe) throw std::logic_error("estimate_job_nodes: the job has no probe");
  if (job.task_count == 0) throw std::logic_error("estimate_job_nodes: the job has no tasks");
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(0, job.task_count - 1);
  const auto start = std::chrono::steady_clock::now();
  // Welford's running mean and variance of the per-probe job totals.
  double mean = 0.0, m2 = 0.0;
  std::size_t k = 0;
  const double tasks = static_cast<double>(job.task_count);
  while (k < probes) {
    const double x = tasks * job.probe(pick(rng), rng);
    ++k;
    const double delta = x - mean;
    mean += delta / static_cast<double>(k);
    m2 += delta * (x - mean);
    if (k >= 16 && k % 16 == 0 && std::chrono::steady_clock::now() - start > budget) break;
  }
  SizeEstimate e;
  e.nodes = mean;
  e.probes = k;
  const double variance = k > 1 ? m2 / static_cast<double>(k - 1) : 0.0;
  e.relative_error = mean > 0.0 ? std::sqrt(variance / static_cast<double>(k)) / mean : 0.0;
  return e;
}

}  // namespace pcount::engine

// ---- estimate_run: a stratified sample of tasks run in full -------------

namespace pcount::engine {

namespace {

using Clock = std::chrono::steady_clock;

/// Sets `stop` once `deadline` has passed or `outer` reads true; ends with
/// the object. (The engine's own helper thread: it runs no task.)
class Watchdog {
 public:
  Watchdog(Clock::time_point deadline, const std::atomic<bool>* outer, std::atomic<bool>& stop)
      : deadline_(deadline.time_since_epoch().count()), thread_([this, outer, &stop] {
          std::unique_lock lock(mutex_);
          while (!done_) {
            const Clock::time_point until{Clock::duration(deadline_.load())};
            if (Clock::now() >= until || (outer && outer->load())) stop.store(true);
            cv_.wait_for(lock, std::chrono::milliseconds(20));
          }
        }) {}
  ~Watchdog() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  void set_deadline(Clock::time_point deadline) { deadline_.store(deadline.time_since_epoch().count()); }

 private:
  std::atomic<Clock::rep> deadline_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

/// CPU seconds this thread has used (POSIX CLOCK_THREAD_CPUTIME_ID).
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

Clock::duration seconds(double s) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

struct Stratum {
  std::vector<std::size_t> members;  // indices into the included ids, shuffled
  std::size_t next = 0;              // members[0..next) were taken
  bool closed = false;               // its next task would overrun the budget
  double aux = 0.0;                  // sum of the members' auxiliary sizes
  // The sample: auxiliary size, wall seconds, CPU seconds, nodes.
  std::vector<double> a, t, c, nodes;
};

double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

}  // namespace

RunEstimate estimate_run(const Job& job, const RunEstimateOptions& o) {
  if (!job.run_task && !job.run_task_output) throw std::logic_error("estimate_run: the job has no kernel");
  const auto start = Clock::now();
  const auto elapsed = [&start] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  const double budget = std::max(0.05, o.budget_seconds);
  RunEstimate r;
  const int effective = std::clamp(o.threads, 1, hardware_threads());
  r.workers = effective * static_cast<int>(std::max<std::size_t>(1, o.processes));

  std::vector<std::size_t> ids;
  for (std::size_t id = 0; id < job.task_count; ++id)
    if (!o.include || o.include(id)) ids.push_back(id);
  r.tasks = ids.size();
  std::mt19937_64 rng(o.seed);
  if (job.probe && job.task_count > 0)
    r.knuth = estimate_job_nodes(job, 4000, o.seed, std::chrono::duration<double>(0.15 * budget));
  if (ids.empty()) {
    r.sample_seconds = elapsed();
    return r;
  }
  const std::size_t n = ids.size();

  // Auxiliary sizes: the tasks' own estimates, else a few probes each.
  std::vector<double> aux(n, 1.0);
  if (job.estimate) {
    for (std::size_t i = 0; i < n; ++i) aux[i] = job.estimate(ids[i]);
    r.task_estimates = true;
  } else if (job.probe) {
    // Up to 8 probes a task, in passes over all tasks, within 30 % of the
    // budget; usable once every task has at least one.
    std::vector<double> total(n, 0.0);
    std::vector<int> probes(n, 0);
    bool out_of_time = false;
    for (int pass = 0; pass < 8 && !out_of_time; ++pass)
      for (std::size_t i = 0; i < n && !out_of_time; ++i) {
        total[i] += job.probe(ids[i], rng);
        ++probes[i];
        out_of_time = i % 64 == 63 && elapsed() > 0.3 * budget;
      }
    if (probes[n - 1] > 0) {
      for (std::size_t i = 0; i < n; ++i) aux[i] = total[i] / probes[i];
      r.task_estimates = true;
    }
  }
  double smallest = std::numeric_limits<double>::infinity();
  for (double v : aux)
    if (std::isfinite(v) && v > 0) smallest = std::min(smallest, v);
  if (!std::isfinite(smallest)) smallest = 1.0;
  for (double& v : aux)
    if (!(std::isfinite(v) && v > 0)) v = smallest / 2;  // an empty-looking task still costs something

  // Strata of about equal auxiliary total, by increasing size.
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&aux](std::size_t x, std::size_t y) { return aux[x] < aux[y]; });
  const double aux_total = sum(aux);
  const std::size_t h_max = std::clamp<std::size_t>(o.strata, 1, n);
  std::vector<Stratum> strata(h_max);
  double before = 0.0;
  for (std::size_t i : order) {
    const auto h = std::min(h_max - 1, static_cast<std::size_t>(static_cast<double>(h_max) *
                                                                 (before + aux[i] / 2) / aux_total));
    strata[h].members.push_back(i);
    strata[h].aux += aux[i];
    before += aux[i];
  }
  std::erase_if(strata, [](const Stratum& s) { return s.members.empty(); });
  for (Stratum& s : strata) std::shuffle(s.members.begin(), s.members.end(), rng);
  r.strata = strata.size();

  // The sample, in rounds run on the engine. Each round is one run over a
  // list of tasks handed out in list order (RunOptions::claim) so that all
  // `effective` workers stay busy as in the real run: a task timed alone
  // can run much faster than the same task beside others (a scheduler that
  // shares the CPU per process, shared caches, turbo clocks).
  std::vector<long> sample_index(n, -1);  // position of task i in its stratum's sample, or -1
  std::atomic<bool> stop{false};
  Watchdog watchdog(start + seconds(3 * budget), o.cancel, stop);
  double sampled_t = 0.0, sampled_a = 0.0;
  const auto workers = static_cast<std::size_t>(effective);
  while (!stop.load()) {
    const double left = budget - elapsed();
    if (left <= 0) break;
    std::vector<std::size_t> list, list_stratum;  // indices into ids; their strata
    if (sampled_a == 0) {
      // First round: 2 tasks per worker from the smallest tasks, to learn
      // the seconds per unit of auxiliary size.
      for (std::size_t h = 0; h < strata.size() && list.size() < 2 * workers; ++h)
        for (Stratum& st = strata[h]; st.next < st.members.size() && list.size() < 2 * workers; ++st.next) {
          list.push_back(st.members[st.next]);
          list_stratum.push_back(h);
        }
    } else {
      // Later rounds: a task from each open stratum in turn, smallest first,
      // until the predicted seconds fill what is left of the budget on every
      // worker; a stratum whose next task would take most of what is left
      // is closed (extrapolated, or estimated from what it has).
      watchdog.set_deadline(start + seconds(1.5 * budget));
      double planned = 0.0;
      const double capacity = 0.8 * left * static_cast<double>(workers);
      for (bool any = true; any && planned < capacity;) {
        any = false;
        for (std::size_t h = 0; h < strata.size() && planned < capacity; ++h) {
          Stratum& st = strata[h];
          if (st.closed || st.next == st.members.size()) continue;
          const std::size_t i = st.members[st.next];
          const double rate = st.a.empty() ? sampled_t / sampled_a : sum(st.t) / sum(st.a);
          const double predicted = rate * aux[i];
          if (predicted > 0.7 * left) {
            st.closed = true;
            continue;
          }
          list.push_back(i);
          list_stratum.push_back(h);
          ++st.next;
          planned += predicted;
          any = true;
        }
      }
    }
    if (list.empty()) break;
    Job round;
    round.fingerprint = job.fingerprint;
    round.counter_names = job.counter_names;
    round.task_count = list.size();
    std::vector<double> cpu_of(list.size(), 0.0);
    round.run_task = [&job, &ids, &list, &cpu_of](std::size_t k, Tally& t) {
      const double cpu_start = thread_cpu_seconds();
      if (job.run_task) {
        job.run_task(ids[list[k]], t);
      } else {
        std::string text;
        job.run_task_output(ids[list[k]], t, text);
      }
      cpu_of[k] = thread_cpu_seconds() - cpu_start;
    };
    std::atomic<std::size_t> position{0};
    RunOptions ro;
    ro.threads = effective;
    ro.record_tasks = true;
    ro.cancel = &stop;
    ro.claim = [&position] { return position.fetch_add(1); };
    const RunResult result = run(round, ro);
    for (const TaskRecord& rec : result.tasks) {  // tasks not started or abandoned are simply not sampled
      const std::size_t i = list[rec.id];
      Stratum& st = strata[list_stratum[rec.id]];
      sample_index[i] = static_cast<long>(st.t.size());
      st.a.push_back(aux[i]);
      st.t.push_back(rec.seconds);
      st.c.push_back(cpu_of[rec.id]);
      st.nodes.push_back(static_cast<double>(rec.counts.nodes));
      sampled_t += rec.seconds;
      sampled_a += aux[i];
      ++r.sampled;
    }
    if (result.tasks.empty()) break;  // stopped before any task finished
  }
  r.sampled_task_seconds = sampled_t;
  if (r.sampled == 0)
    throw std::runtime_error("the size estimate ran no task to its end within " + std::to_string(3 * budget) +
                             " seconds; every task is at least that long");

  // The separate ratio estimator of one measured quantity (a Stratum
  // member: wall seconds, CPU seconds or nodes), its standard error with
  // `noise` added, and the largest task's value.
  struct Total {
    double value = 0.0, se = 0.0, largest = 0.0, largest_low = 0.0, largest_high = 0.0, sampled = 0.0;
    std::size_t extrapolated = 0;
  };
  const auto ratio_total = [&](std::vector<double> Stratum::*field, double noise) {
    Total out;
    double sampled_v = 0.0;
    for (const Stratum& st : strata) sampled_v += sum(st.*field);
    out.sampled = sampled_v;
    const double global_rate = sampled_v / sampled_a;
    // Pooled relative spread about each stratum's ratio line.
    double pooled = 0.0, dof = 0.0;
    for (const Stratum& st : strata) {
      const std::vector<double>& v = st.*field;
      if (v.size() < 2) continue;
      const double rate = sum(v) / sum(st.a);
      const double scale = rate * sum(st.a) / static_cast<double>(st.a.size());
      if (!(scale > 0)) continue;
      for (std::size_t k = 0; k < v.size(); ++k) pooled += std::pow((v[k] - rate * st.a[k]) / scale, 2);
      dof += static_cast<double>(v.size() - 1);
    }
    const double spread2 = dof > 0 ? pooled / dof : 1.0;  // squared coefficient of variation; 1 when unknown
    double variance = 0.0;
    for (const Stratum& st : strata) {
      const std::vector<double>& v = st.*field;
      const auto big_n = static_cast<double>(st.members.size());
      const auto small_n = static_cast<double>(v.size());
      double total = 0.0, var = 0.0, rate = global_rate, spread = std::sqrt(spread2);
      if (v.size() == st.members.size()) {
        total = sum(v);
      } else if (!v.empty()) {
        rate = sum(v) / sum(st.a);
        total = rate * st.aux;
        double s2 = 0.0;
        if (v.size() >= 2) {
          for (std::size_t k = 0; k < v.size(); ++k) s2 += std::pow(v[k] - rate * st.a[k], 2);
          s2 /= small_n - 1;
        } else {
          s2 = spread2 * std::pow(rate * st.aux / big_n, 2);
        }
        var = big_n * big_n * (1 - small_n / big_n) * s2 / small_n;
      } else {
        total = global_rate * st.aux;
        spread = std::max(0.5, spread);
        var = std::pow(spread * total, 2);
        out.extrapolated += st.members.size();
      }
      out.value += total;
      variance += var;
      for (const std::size_t i : st.members) {
        const double m = sample_index[i] >= 0 ? v[static_cast<std::size_t>(sample_index[i])] : -1.0;
        if (m >= 0) {
          out.largest = std::max(out.largest, m);
          out.largest_low = std::max(out.largest_low, m * (1 - noise));
          out.largest_high = std::max(out.largest_high, m);
        } else {
          out.largest = std::max(out.largest, rate * aux[i]);
          out.largest_low = std::max(out.largest_low, rate * aux[i] * std::max(0.0, 1 - o.z * spread));
          out.largest_high = std::max(out.largest_high, rate * aux[i] * (1 + o.z * spread));
        }
      }
    }
    out.se = std::sqrt(variance + std::pow(noise * out.value, 2));
    return out;
  };

  const Total wall = ratio_total(&Stratum::t, o.noise);
  // CPU time is measured per thread: other processes change it less.
  const Total cpu = ratio_total(&Stratum::c, o.cpu_noise);
  r.extrapolated = wall.extrapolated;
  r.task_seconds = wall.value;
  r.task_seconds_low = std::max({wall.value - o.z * wall.se, wall.sampled * (1 - o.noise), 0.0});
  r.task_seconds_high = wall.value + o.z * wall.se;
  r.cpu_seconds = cpu.value;
  r.relative_error = cpu.value > 0 ? cpu.se / cpu.value : 0.0;
  r.cpu_seconds_low = std::max({cpu.value - o.z * cpu.se, cpu.sampled * (1 - o.cpu_noise), 0.0});
  r.cpu_seconds_high = cpu.value + o.z * cpu.se;
  r.wall_relative_error = wall.value > 0 ? wall.se / wall.value : 0.0;
  r.largest_task_seconds = wall.largest;
  r.wall_seconds_low = std::max(r.task_seconds_low / r.workers, wall.largest_low);
  r.wall_seconds_high = r.task_seconds_high / r.workers + wall.largest_high;
  bool counted_nodes = false;
  for (const Stratum& st : strata) counted_nodes = counted_nodes || sum(st.nodes) > 0;
  r.nodes = counted_nodes ? ratio_total(&Stratum::nodes, 0.0).value : 0.0;
  r.sample_seconds = elapsed();
  return r;
}

}  // namespace pcount::engine
