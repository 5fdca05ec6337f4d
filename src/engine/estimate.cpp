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
#include <tuple>
#include <vector>

#include "pcount/engine/parallel.hpp"
#include "pcount/engine/runner.hpp"

namespace pcount::engine {

namespace {

/// Mean of task_count × draw(id, rng) over random task ids (uniform), and
/// its relative standard error, by Welford's running mean and variance;
/// stops after `probes` draws, or at a multiple of 16 once `budget` has
/// passed. Returns {mean, relative error, draws}.
template <class Draw>
std::tuple<double, double, std::size_t> uniform_probe_mean(std::size_t task_count, std::size_t probes,
                                                           std::uint64_t seed, std::chrono::duration<double> budget,
                                                           Draw&& draw) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(0, task_count - 1);
  const auto start = std::chrono::steady_clock::now();
  double mean = 0.0, m2 = 0.0;
  std::size_t k = 0;
  const double tasks = static_cast<double>(task_count);
  while (k < probes) {
    const double x = tasks * draw(pick(rng), rng);
    ++k;
    const double delta = x - mean;
    mean += delta / static_cast<double>(k);
    m2 += delta * (x - mean);
    if (k >= 16 && k % 16 == 0 && std::chrono::steady_clock::now() - start > budget) break;
  }
  const double variance = k > 1 ? m2 / static_cast<double>(k - 1) : 0.0;
  return {mean, mean > 0.0 ? std::sqrt(variance / static_cast<double>(k)) / mean : 0.0, k};
}

/// One leaf probe of task `id`, timed on this thread: an unbiased estimate
/// of the task's CPU seconds (Job::leaf_probe).
double timed_leaf_probe(const Job& job, std::size_t id, std::mt19937_64& rng) {
  const double cpu_start = thread_cpu_seconds();
  const double weight = job.leaf_probe(id, rng);
  return weight * (thread_cpu_seconds() - cpu_start);
}

}  // namespace

SizeEstimate estimate_job_nodes(const Job& job, std::size_t probes, std::uint64_t seed,
                                std::chrono::duration<double> budget) {
  if (!job.probe) throw std::logic_error("estimate_job_nodes: the job has no probe");
  if (job.task_count == 0) throw std::logic_error("estimate_job_nodes: the job has no tasks");
  SizeEstimate e;
  std::tie(e.nodes, e.relative_error, e.probes) = uniform_probe_mean(job.task_count, probes, seed, budget, job.probe);
  return e;
}

CpuEstimate estimate_job_cpu(const Job& job, std::size_t probes, std::uint64_t seed,
                             std::chrono::duration<double> budget) {
  if (!job.leaf_probe) throw std::logic_error("estimate_job_cpu: the job has no leaf probe");
  if (job.task_count == 0) throw std::logic_error("estimate_job_cpu: the job has no tasks");
  CpuEstimate e;
  std::tie(e.seconds, e.relative_error, e.probes) =
      uniform_probe_mean(job.task_count, probes, seed, budget, [&job](std::size_t id, std::mt19937_64& rng) {
        return timed_leaf_probe(job, id, rng);
      });
  return e;
}

}  // namespace pcount::engine

// ---- stratified_total: a total and its interval from a stratified sample --

namespace pcount::engine {

double normal_quantile(double p) {
  if (!(p > 0 && p < 1)) throw std::invalid_argument("normal_quantile: p must lie in (0, 1)");
  // Bisection on Φ(x) = erfc(−x/√2)/2, to 1e-12: a few dozen erfc calls.
  double lo = -40.0, hi = 40.0;
  while (hi - lo > 1e-12) {
    const double mid = (lo + hi) / 2;
    (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

namespace {
constexpr std::size_t own_sample_min = 5;        // fewer samples: the stratum draws from the pool
double total_of(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }
}  // namespace

TotalEstimate stratified_total(const std::vector<StratumSample>& strata, const TotalOptions& o) {
  if (!(o.level > 0 && o.level < 1)) throw std::invalid_argument("stratified_total: level must lie in (0, 1)");
  if (!(o.noise >= 0)) throw std::invalid_argument("stratified_total: noise must be at least 0");
  if (o.replicates == 1) throw std::invalid_argument("stratified_total: replicates must be 0 or at least 2");
  double sampled_v = 0.0, sampled_a = 0.0;
  for (const StratumSample& st : strata) {
    if (st.aux.size() != st.value.size() || st.aux.size() > st.size)
      throw std::invalid_argument("stratified_total: a stratum's aux and value differ in length or exceed its size");
    sampled_v += total_of(st.value);
    sampled_a += total_of(st.aux);
  }
  if (!(sampled_a > 0)) throw std::invalid_argument("stratified_total: no task sampled");
  TotalEstimate out;
  out.sampled = sampled_v;
  const double global_rate = sampled_v / sampled_a;

  // Each stratum's ratio R = Σvalue / Σaux of its sample, and the pool of
  // relative residuals e = (value − R·aux) / (R·mean aux) from the strata
  // with at least two samples, each stratum's scaled by √(n/(n−1)) so that
  // fitting R to the same points does not shrink them.
  std::vector<double> pool;
  for (const StratumSample& st : strata) {
    const std::size_t n = st.value.size();
    if (n < 2) continue;
    const double a_sum = total_of(st.aux), rate = total_of(st.value) / a_sum;
    const double scale = rate * a_sum / static_cast<double>(n);
    if (!(scale > 0)) continue;
    const double unshrink = std::sqrt(static_cast<double>(n) / static_cast<double>(n - 1));
    for (std::size_t k = 0; k < n; ++k) pool.push_back(unshrink * (st.value[k] - rate * st.aux[k]) / scale);
  }
  double pooled2 = 0.0;
  for (const double e : pool) pooled2 += e * e;
  out.spread = pool.empty() ? 1.0 : std::sqrt(pooled2 / static_cast<double>(pool.size()));

  // Point estimate, and what each stratum's bootstrap draws from.
  enum class Kind { whole, own, pooled, unknown, unsampled };
  struct Plan {
    Kind kind;
    double rate, aux_total, fpc;  // fpc: √(1 − n/N), the finite-population correction
  };
  // An unsampled stratum takes the rate of the nearest sampled one, the
  // largest below it first: strata are in order of size, and the rate per
  // unit of size drifts with size (Q(19) join: the run's seconds per unit
  // of estimate fell from 1.5e-10 in the middle strata to 0.8e-10 in the
  // larger ones, so the overall rate overestimated the unsampled largest
  // strata; results/estimate.md).
  const auto nearest_rate = [&strata](std::size_t h) {
    for (std::size_t d = 1; d <= strata.size(); ++d) {
      for (const std::size_t g : {h - d, h + d})  // h − d wraps past 0 to a huge index: skipped
        if (g < strata.size() && !strata[g].value.empty() && total_of(strata[g].aux) > 0)
          return total_of(strata[g].value) / total_of(strata[g].aux);
    }
    return 0.0;  // not reached: some stratum is sampled
  };
  std::vector<Plan> plans;
  for (std::size_t h = 0; h < strata.size(); ++h) {
    const StratumSample& st = strata[h];
    const std::size_t n = st.value.size();
    Plan p{Kind::whole, global_rate, st.aux_total, 0.0};
    if (n == st.size) {
      const double a_sum = total_of(st.aux);
      p.rate = a_sum > 0 ? total_of(st.value) / a_sum : global_rate;
      out.value += total_of(st.value);
    } else {
      if (n == 0) {
        p.kind = Kind::unsampled;
        p.rate = nearest_rate(h);
        out.extrapolated += st.size;
      } else {
        p.rate = total_of(st.value) / total_of(st.aux);
        p.kind = n >= own_sample_min ? Kind::own : pool.empty() ? Kind::unknown : Kind::pooled;
        p.fpc = std::sqrt(1.0 - static_cast<double>(n) / static_cast<double>(st.size));
      }
      out.value += p.rate * st.aux_total;
    }
    out.rate.push_back(p.rate);
    plans.push_back(p);
  }

  // The bootstrap (B. Efron, "Bootstrap methods: another look at the
  // jackknife", Ann. Statist. 7 (1979) 1–26): each replicate redraws every
  // stratum's sample with replacement — from its own tasks when it has
  // own_sample_min of them, else from the pool — and recomputes the total,
  // its deviation from the estimate scaled by √(n/(n−1)) and the
  // finite-population correction (as J. N. K. Rao and C. F. J. Wu,
  // "Resampling inference with complex survey data", JASA 83 (1988)
  // 231–241, rescale theirs); a stratum with no sample takes the overall
  // rate times a lognormal factor of σ = max(0.5, spread). The whole total
  // is then multiplied by a lognormal speed factor of σ = noise, the same
  // for every task: the machine's speed changes between the sample and the
  // run for all tasks alike. The interval is the replicates' percentiles.
  std::mt19937_64 rng(o.seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  // A spread estimated from few tasks of a heavy-tailed quantity is
  // usually too small (the sample misses the tail): the deviations are
  // scaled by √(k / χ²_k(α)), α = (1 − level)/2, the upper confidence bound
  // of a standard deviation estimated with k = Σ(n − 1) degrees of freedom
  // (χ² quantile by E. B. Wilson and M. M. Hilferty, PNAS 17 (1931) 684–688).
  double inflate = 1.0;
  {
    double k = 0.0;
    for (const StratumSample& st : strata)
      if (st.value.size() >= 2) k += static_cast<double>(st.value.size() - 1);
    if (k >= 1) {
      const double zp = normal_quantile((1 - o.level) / 2), c = 2 / (9 * k);
      const double chi2 = k * std::pow(std::max(1e-3, 1 - c + zp * std::sqrt(c)), 3);
      inflate = std::sqrt(k / chi2);
    }
  }
  const double unsampled_sigma = std::max(0.5, out.spread);
  if (o.replicates == 0) {
    out.low = out.high = out.value;
    return out;
  }
  // A stratum's total is at least what its sampled tasks measured.
  std::vector<double> sampled_of;
  for (const StratumSample& st : strata) sampled_of.push_back(total_of(st.value));
  std::vector<double> replicates(o.replicates);
  for (double& rep : replicates) {
    double total = 0.0;
    for (std::size_t h = 0; h < strata.size(); ++h) {
      const StratumSample& st = strata[h];
      const Plan& p = plans[h];
      const std::size_t n = st.value.size();
      switch (p.kind) {
        case Kind::whole:
          total += total_of(st.value);
          break;
        case Kind::unsampled:
          total += p.rate * p.aux_total * std::exp(unsampled_sigma * normal(rng) - unsampled_sigma * unsampled_sigma / 2);
          break;
        case Kind::own: {
          std::uniform_int_distribution<std::size_t> pick(0, n - 1);
          double v = 0.0, a = 0.0;
          for (std::size_t k = 0; k < n; ++k) {
            const std::size_t j = pick(rng);
            v += st.value[j];
            a += st.aux[j];
          }
          const double scale = n > 1 ? std::sqrt(static_cast<double>(n) / static_cast<double>(n - 1)) : 1.0;
          const double rate = p.rate + inflate * scale * p.fpc * (v / a - p.rate);
          total += std::max(sampled_of[h], rate * p.aux_total);
          break;
        }
        case Kind::unknown: {  // one sample a stratum everywhere: relative spread 1 assumed
          const double sigma = p.fpc / std::sqrt(static_cast<double>(n));
          total += std::max(sampled_of[h], p.rate * p.aux_total * std::exp(sigma * normal(rng) - sigma * sigma / 2));
          break;
        }
        case Kind::pooled: {
          std::uniform_int_distribution<std::size_t> pick(0, pool.size() - 1);
          double e = 0.0;
          for (std::size_t k = 0; k < n; ++k) e += pool[pick(rng)];
          const double rate = p.rate * (1.0 + inflate * p.fpc * e / static_cast<double>(n));
          total += std::max(sampled_of[h], rate * p.aux_total);
          break;
        }
      }
    }
    if (o.noise > 0) total *= std::exp(o.noise * normal(rng));
    rep = total;
  }
  double mean = 0.0;
  for (const double x : replicates) mean += x / static_cast<double>(replicates.size());
  double var = 0.0;
  for (const double x : replicates) var += (x - mean) * (x - mean);
  out.standard_error = std::sqrt(var / static_cast<double>(replicates.size() - 1));
  std::sort(replicates.begin(), replicates.end());
  const auto quantile = [&replicates](double q) {
    const double pos = q * static_cast<double>(replicates.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, replicates.size() - 1);
    return replicates[lo] + (pos - static_cast<double>(lo)) * (replicates[hi] - replicates[lo]);
  };
  out.low = std::min(out.value, quantile((1 - o.level) / 2));
  out.high = std::max(out.value, quantile((1 + o.level) / 2));
  return out;
}

}  // namespace pcount::engine

// ---- estimate_run: a stratified sample of tasks run in full -------------

namespace pcount::engine {

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

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
  Watchdog watchdog(start + seconds(1.5 * budget), o.cancel, stop);
  double sampled_t = 0.0, sampled_a = 0.0;
  // The first round only calibrates: its tasks run 2–4 times slower than
  // the same-sized tasks of later rounds (a cold process: Q(19) join, first
  // 4 tasks 0.10–0.19 CPU-s against 0.03–0.07 s later, results/estimate.md),
  // so they set the seconds per unit of size for planning and go back to
  // their strata, to be drawn again warm. They are the sample only when no
  // later round finished a task.
  struct Measured {
    std::size_t i, h;
    double t, c, nodes;
  };
  std::vector<Measured> warmup;
  bool calibrated = false;
  double warmup_t = 0.0, warmup_a = 0.0;
  const auto record = [&](const Measured& m) {
    Stratum& st = strata[m.h];
    sample_index[m.i] = static_cast<long>(st.t.size());
    st.a.push_back(aux[m.i]);
    st.t.push_back(m.t);
    st.c.push_back(m.c);
    st.nodes.push_back(m.nodes);
    sampled_t += m.t;
    sampled_a += aux[m.i];
    ++r.sampled;
  };
  const auto workers = static_cast<std::size_t>(effective);
  if (job.leaf_probe) {
    // Tasks too long to run in full: each sampled task's CPU seconds are
    // the mean of a few timed leaf probes. Rounds of 2 tasks per worker,
    // taken from the strata in turn (at most half of each), until 80 % of
    // the budget is spent; the first round always runs.
    constexpr std::size_t kProbesPerTask = 4;
    r.leaf_probes = true;
    r.leaf_probes_per_task = kProbesPerTask;
    std::size_t turn = 0;
    do {
      std::vector<std::size_t> list, list_stratum;
      for (std::size_t idle = 0; list.size() < 2 * workers && idle < strata.size(); ++turn) {
        Stratum& st = strata[turn % strata.size()];
        if (st.next >= std::max<std::size_t>(1, st.members.size() / 2)) {
          ++idle;
          continue;
        }
        idle = 0;
        list.push_back(st.members[st.next++]);
        list_stratum.push_back(turn % strata.size());
      }
      if (list.empty()) break;
      std::vector<double> cpu(list.size(), 0.0);
      for_each_index(list.size(), effective, [&](std::size_t k) {
        const std::size_t id = ids[list[k]];
        std::mt19937_64 probe_rng(o.seed + 0x9E3779B97F4A7C15ULL * (id + 1));
        double total = 0.0;
        for (std::size_t p = 0; p < kProbesPerTask; ++p) total += timed_leaf_probe(job, id, probe_rng);
        cpu[k] = total / static_cast<double>(kProbesPerTask);
      });
      for (std::size_t k = 0; k < list.size(); ++k) record(Measured{list[k], list_stratum[k], cpu[k], cpu[k], 0.0});
    } while (!stop.load() && elapsed() < 0.8 * budget);
  }
  while (!job.leaf_probe && !stop.load()) {
    const double left = budget - elapsed();
    if (left <= 0) break;
    std::vector<std::size_t> list, list_stratum;  // indices into ids; their strata
    if (!calibrated) {
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
          const double rate = !st.a.empty() ? sum(st.t) / sum(st.a)
                              : sampled_a > 0  ? sampled_t / sampled_a
                                               : warmup_t / warmup_a;
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
      const Measured m{list[rec.id], list_stratum[rec.id], rec.seconds, cpu_of[rec.id],
                       static_cast<double>(rec.counts.nodes)};
      if (calibrated) {
        record(m);
      } else {
        warmup.push_back(m);
        warmup_t += m.t;
        warmup_a += aux[m.i];
      }
    }
    if (result.tasks.empty()) break;  // stopped before any task finished
    if (!calibrated) {
      calibrated = true;
      for (Stratum& st : strata) st.next = 0;  // the calibration tasks are drawn again
    }
  }
  if (r.sampled == 0)
    for (const Measured& m : warmup) record(m);
  r.sampled_task_seconds = sampled_t;
  if (r.sampled == 0)
    throw NoTaskFinished("the size estimate ran no task to its end within " + std::to_string(elapsed()) +
                             " seconds; every task is at least that long", r.knuth, elapsed());

  // The separate ratio estimator of one measured quantity (a Stratum
  // member: wall seconds, CPU seconds or nodes) and the largest task's value.
  struct Total {
    TotalEstimate e;
    double largest = 0.0, largest_low = 0.0, largest_high = 0.0;
  };
  const double z = normal_quantile(0.5 + o.level / 2);
  const auto ratio_total = [&](std::vector<double> Stratum::*field, double noise, std::size_t replicates = 2000) {
    std::vector<StratumSample> samples;
    for (const Stratum& st : strata) samples.push_back({st.members.size(), st.aux, st.a, st.*field});
    TotalOptions to;
    to.level = o.level;
    to.noise = noise;
    to.seed = o.seed;
    to.replicates = replicates;
    Total out;
    out.e = stratified_total(samples, to);
    for (std::size_t h = 0; h < strata.size(); ++h) {
      const Stratum& st = strata[h];
      const std::vector<double>& v = st.*field;
      const double rate = out.e.rate[h];
      const double spread = v.empty() ? std::max(0.5, out.e.spread) : out.e.spread;
      for (const std::size_t i : st.members) {
        const double m = sample_index[i] >= 0 ? v[static_cast<std::size_t>(sample_index[i])] : -1.0;
        if (m >= 0) {
          out.largest = std::max(out.largest, m);
          out.largest_low = std::max(out.largest_low, m * (1 - noise));
          out.largest_high = std::max(out.largest_high, m);
        } else {
          out.largest = std::max(out.largest, rate * aux[i]);
          out.largest_low = std::max(out.largest_low, rate * aux[i] * std::max(0.0, 1 - z * spread));
          out.largest_high = std::max(out.largest_high, rate * aux[i] * (1 + z * spread));
        }
      }
    }
    return out;
  };

  const Total wall = ratio_total(&Stratum::t, o.noise);
  // CPU time is measured per thread: other processes change it less.
  const Total cpu = ratio_total(&Stratum::c, o.cpu_noise);
  r.extrapolated = wall.e.extrapolated;
  r.task_seconds = wall.e.value;
  r.task_seconds_low = wall.e.low;
  r.task_seconds_high = wall.e.high;
  r.cpu_seconds = cpu.e.value;
  r.relative_error = cpu.e.value > 0 ? cpu.e.standard_error / cpu.e.value : 0.0;
  r.cpu_seconds_low = cpu.e.low;
  r.cpu_seconds_high = cpu.e.high;
  r.wall_relative_error = wall.e.value > 0 ? wall.e.standard_error / wall.e.value : 0.0;
  r.largest_task_seconds = wall.largest;
  r.wall_seconds_low = std::max(r.task_seconds_low / r.workers, wall.largest_low);
  r.wall_seconds_high = r.task_seconds_high / r.workers + wall.largest_high;
  bool counted_nodes = false;
  for (const Stratum& st : strata) counted_nodes = counted_nodes || sum(st.nodes) > 0;
  r.nodes = counted_nodes ? ratio_total(&Stratum::nodes, 0.0, 0).e.value : 0.0;
  r.sample_seconds = elapsed();
  return r;
}

}  // namespace pcount::engine
