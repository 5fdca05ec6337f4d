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

/// What a stratum's bootstrap draws from.
enum class Kind { whole, own, pooled, unknown, unsampled };
struct StratumPlan {
  Kind kind;
  double rate, aux_total, fpc;  // fpc: √(1 − n/N), the finite-population correction
};

/// Checks the arguments of stratified_total; returns the sampled value.
double check_strata(const std::vector<StratumSample>& strata, const TotalOptions& o, double& sampled_aux) {
  if (!(o.level > 0 && o.level < 1)) throw std::invalid_argument("stratified_total: level must lie in (0, 1)");
  if (!(o.noise >= 0)) throw std::invalid_argument("stratified_total: noise must be at least 0");
  if (o.replicates == 1) throw std::invalid_argument("stratified_total: replicates must be 0 or at least 2");
  double sampled_v = 0.0;
  sampled_aux = 0.0;
  for (const StratumSample& st : strata) {
    if (st.aux.size() != st.value.size() || st.aux.size() > st.size)
      throw std::invalid_argument("stratified_total: a stratum's aux and value differ in length or exceed its size");
    sampled_v += total_of(st.value);
    sampled_aux += total_of(st.aux);
  }
  if (!(sampled_aux > 0)) throw std::invalid_argument("stratified_total: no task sampled");
  return sampled_v;
}

/// Each stratum's ratio R = Σvalue / Σaux of its sample, and the pool of
/// relative residuals e = (value − R·aux) / (R·mean aux) from the strata
/// with at least two samples, each stratum's scaled by √(n/(n−1)) so that
/// fitting R to the same points does not shrink them.
std::vector<double> residual_pool(const std::vector<StratumSample>& strata) {
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
  return pool;
}

/// The rate of an unsampled stratum h: that of the nearest sampled one, the
/// largest below it first: strata are in order of size, and the rate per
/// unit of size drifts with size (Q(19) join: the run's seconds per unit
/// of estimate fell from 1.5e-10 in the middle strata to 0.8e-10 in the
/// larger ones, so the overall rate overestimated the unsampled largest
/// strata; results/estimate.md).
double nearest_rate(const std::vector<StratumSample>& strata, std::size_t h) {
  for (std::size_t d = 1; d <= strata.size(); ++d) {
    for (const std::size_t g : {h - d, h + d})  // h − d wraps past 0 to a huge index: skipped
      if (g < strata.size() && !strata[g].value.empty() && total_of(strata[g].aux) > 0)
        return total_of(strata[g].value) / total_of(strata[g].aux);
  }
  return 0.0;  // not reached: some stratum is sampled
}

/// The point estimate into `out` (value, rate, extrapolated), and what each
/// stratum's bootstrap draws from.
std::vector<StratumPlan> plan_strata(const std::vector<StratumSample>& strata, bool have_pool, double global_rate,
                                     TotalEstimate& out) {
  std::vector<StratumPlan> plans;
  for (std::size_t h = 0; h < strata.size(); ++h) {
    const StratumSample& st = strata[h];
    const std::size_t n = st.value.size();
    StratumPlan p{Kind::whole, global_rate, st.aux_total, 0.0};
    if (n == st.size) {
      const double a_sum = total_of(st.aux);
      p.rate = a_sum > 0 ? total_of(st.value) / a_sum : global_rate;
      out.value += total_of(st.value);
    } else {
      if (n == 0) {
        p.kind = Kind::unsampled;
        p.rate = nearest_rate(strata, h);
        out.extrapolated += st.size;
      } else {
        p.rate = total_of(st.value) / total_of(st.aux);
        p.kind = n >= own_sample_min ? Kind::own : have_pool ? Kind::pooled : Kind::unknown;
        p.fpc = std::sqrt(1.0 - static_cast<double>(n) / static_cast<double>(st.size));
      }
      out.value += p.rate * st.aux_total;
    }
    out.rate.push_back(p.rate);
    plans.push_back(p);
  }
  return plans;
}

/// A spread estimated from few tasks of a heavy-tailed quantity is usually
/// too small (the sample misses the tail): the deviations are scaled by
/// √(k / χ²_k(α)), α = (1 − level)/2, the upper confidence bound of a
/// standard deviation estimated with k = Σ(n − 1) degrees of freedom (χ²
/// quantile by E. B. Wilson and M. M. Hilferty, PNAS 17 (1931) 684–688).
double spread_inflation(const std::vector<StratumSample>& strata, double level) {
  double k = 0.0;
  for (const StratumSample& st : strata)
    if (st.value.size() >= 2) k += static_cast<double>(st.value.size() - 1);
  if (k < 1) return 1.0;
  const double zp = normal_quantile((1 - level) / 2), c = 2 / (9 * k);
  const double chi2 = k * std::pow(std::max(1e-3, 1 - c + zp * std::sqrt(c)), 3);
  return std::sqrt(k / chi2);
}

/// One bootstrap replicate of the total (see stratified_total).
class Replicator {
public:
  Replicator(const std::vector<StratumSample>& strata, const std::vector<StratumPlan>& plans,
             const std::vector<double>& pool, double inflate, double unsampled_sigma, std::uint64_t seed)
      : strata_(strata), plans_(plans), pool_(pool), inflate_(inflate), unsampled_sigma_(unsampled_sigma), rng_(seed) {
    // A stratum's total is at least what its sampled tasks measured.
    for (const StratumSample& st : strata) sampled_of_.push_back(total_of(st.value));
  }

  /// A replicate of the total, times a lognormal speed factor of σ = noise.
  double draw(double noise) {
    double total = 0.0;
    for (std::size_t h = 0; h < strata_.size(); ++h) total += stratum(h);
    if (noise > 0) total *= std::exp(noise * normal_(rng_));
    return total;
  }

private:
  double stratum(std::size_t h) {
    const StratumSample& st = strata_[h];
    const StratumPlan& p = plans_[h];
    const std::size_t n = st.value.size();
    switch (p.kind) {
      case Kind::whole:
        return total_of(st.value);
      case Kind::unsampled:
        return p.rate * p.aux_total *
               std::exp(unsampled_sigma_ * normal_(rng_) - unsampled_sigma_ * unsampled_sigma_ / 2);
      case Kind::own: {
        std::uniform_int_distribution<std::size_t> pick(0, n - 1);
        double v = 0.0, a = 0.0;
        for (std::size_t k = 0; k < n; ++k) {
          const std::size_t j = pick(rng_);
          v += st.value[j];
          a += st.aux[j];
        }
        const double scale = n > 1 ? std::sqrt(static_cast<double>(n) / static_cast<double>(n - 1)) : 1.0;
        const double rate = p.rate + inflate_ * scale * p.fpc * (v / a - p.rate);
        return std::max(sampled_of_[h], rate * p.aux_total);
      }
      case Kind::unknown: {  // one sample a stratum everywhere: relative spread 1 assumed
        const double sigma = p.fpc / std::sqrt(static_cast<double>(n));
        return std::max(sampled_of_[h], p.rate * p.aux_total * std::exp(sigma * normal_(rng_) - sigma * sigma / 2));
      }
      case Kind::pooled: {
        std::uniform_int_distribution<std::size_t> pick(0, pool_.size() - 1);
        double e = 0.0;
        for (std::size_t k = 0; k < n; ++k) e += pool_[pick(rng_)];
        const double rate = p.rate * (1.0 + inflate_ * p.fpc * e / static_cast<double>(n));
        return std::max(sampled_of_[h], rate * p.aux_total);
      }
    }
    return 0.0;  // not reached
  }

  const std::vector<StratumSample>& strata_;
  const std::vector<StratumPlan>& plans_;
  const std::vector<double>& pool_;
  double inflate_;
  double unsampled_sigma_;
  std::vector<double> sampled_of_;
  std::mt19937_64 rng_;
  std::normal_distribution<double> normal_{0.0, 1.0};
};

/// The standard error and the interval at `level` (percentiles) of the
/// replicates into `out`; the interval always holds out.value.
void summarise_replicates(std::vector<double> replicates, double level, TotalEstimate& out) {
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
  out.low = std::min(out.value, quantile((1 - level) / 2));
  out.high = std::max(out.value, quantile((1 + level) / 2));
}

}  // namespace

TotalEstimate stratified_total(const std::vector<StratumSample>& strata, const TotalOptions& o) {
  double sampled_a = 0.0;
  const double sampled_v = check_strata(strata, o, sampled_a);
  TotalEstimate out;
  out.sampled = sampled_v;
  const std::vector<double> pool = residual_pool(strata);
  double pooled2 = 0.0;
  for (const double e : pool) pooled2 += e * e;
  out.spread = pool.empty() ? 1.0 : std::sqrt(pooled2 / static_cast<double>(pool.size()));
  const std::vector<StratumPlan> plans = plan_strata(strata, !pool.empty(), sampled_v / sampled_a, out);

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
  if (o.replicates == 0) {
    out.low = out.high = out.value;
    return out;
  }
  Replicator replicator(strata, plans, pool, spread_inflation(strata, o.level), std::max(0.5, out.spread), o.seed);
  std::vector<double> replicates(o.replicates);
  for (double& rep : replicates) rep = replicator.draw(o.noise);
  summarise_replicates(std::move(replicates), o.level, out);
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

/// A sampled task: its index into the included ids, its stratum, its
/// wall seconds, CPU seconds and nodes, and its counts (none when probed).
struct Measured {
  std::size_t i, h;
  double t, c, nodes;
  Tally counts = {};
};

/// The separate ratio estimator of one measured quantity (a Stratum
/// member: wall seconds, CPU seconds or nodes) and the largest task's value.
struct Total {
  TotalEstimate e;
  double largest = 0.0, largest_low = 0.0, largest_high = 0.0;
};

/// One estimate_run: the tasks' sizes and strata, then the sample in
/// rounds on the engine, then the totals (estimate.hpp).
class Sampler {
public:
  Sampler(const Job& job, const RunEstimateOptions& o)
      : job_(job), o_(o), start_(Clock::now()), budget_(std::max(0.05, o.budget_seconds)), rng_(o.seed) {
    effective_ = std::clamp(o.threads, 1, hardware_threads());
    r_.workers = effective_ * static_cast<int>(std::max<std::size_t>(1, o.processes));
    for (std::size_t id = 0; id < job.task_count; ++id)
      if (!o.include || o.include(id)) ids_.push_back(id);
    r_.tasks = ids_.size();
    r_.totals = Tally(job.counter_names.size());
  }

  [[nodiscard]] double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  [[nodiscard]] bool no_tasks() const { return ids_.empty(); }
  [[nodiscard]] RunEstimate& result() { return r_; }
  [[nodiscard]] Clock::time_point deadline() const { return start_ + seconds(1.5 * budget_); }
  [[nodiscard]] double budget() const { return budget_; }

  /// Knuth's estimate of the job's nodes (jobs with a probe), within 15 % of the budget.
  void probe_tree() {
    if (job_.probe && job_.task_count > 0)
      r_.knuth = estimate_job_nodes(job_, 4000, o_.seed, std::chrono::duration<double>(0.15 * budget_));
  }

  /// Auxiliary sizes: the tasks' own estimates, else a few probes each (up
  /// to 8 a task, in passes over all tasks, within 30 % of the budget;
  /// usable once every task has at least one), else 1 each.
  void size_tasks() {
    const std::size_t n = ids_.size();
    aux_.assign(n, 1.0);
    if (job_.estimate) {
      for (std::size_t i = 0; i < n; ++i) aux_[i] = job_.estimate(ids_[i]);
      r_.task_estimates = true;
    } else if (job_.probe) {
      std::vector<double> total(n, 0.0);
      std::vector<int> probes(n, 0);
      bool out_of_time = false;
      for (int pass = 0; pass < 8 && !out_of_time; ++pass)
        for (std::size_t i = 0; i < n && !out_of_time; ++i) {
          total[i] += job_.probe(ids_[i], rng_);
          ++probes[i];
          out_of_time = i % 64 == 63 && elapsed() > 0.3 * budget_;
        }
      if (probes[n - 1] > 0) {
        for (std::size_t i = 0; i < n; ++i) aux_[i] = total[i] / probes[i];
        r_.task_estimates = true;
      }
    }
    double smallest = std::numeric_limits<double>::infinity();
    for (double v : aux_)
      if (std::isfinite(v) && v > 0) smallest = std::min(smallest, v);
    if (!std::isfinite(smallest)) smallest = 1.0;
    for (double& v : aux_)
      if (!(std::isfinite(v) && v > 0)) v = smallest / 2;  // an empty-looking task still costs something
  }

  /// Strata of about equal auxiliary total, by increasing size, each's
  /// members shuffled.
  void make_strata() {
    const std::size_t n = ids_.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [this](std::size_t x, std::size_t y) { return aux_[x] < aux_[y]; });
    const double aux_total = sum(aux_);
    const std::size_t h_max = std::clamp<std::size_t>(o_.strata, 1, n);
    strata_.resize(h_max);
    double before = 0.0;
    for (std::size_t i : order) {
      const auto h = std::min(
          h_max - 1, static_cast<std::size_t>(static_cast<double>(h_max) * (before + aux_[i] / 2) / aux_total));
      strata_[h].members.push_back(i);
      strata_[h].aux += aux_[i];
      before += aux_[i];
    }
    std::erase_if(strata_, [](const Stratum& s) { return s.members.empty(); });
    for (Stratum& s : strata_) std::shuffle(s.members.begin(), s.members.end(), rng_);
    r_.strata = strata_.size();
    sample_index_.assign(n, -1);
  }

  /// Tasks too long to run in full: each sampled task's CPU seconds are the
  /// mean of a few timed leaf probes. Rounds of 2 tasks per worker, taken
  /// from the strata in turn (at most half of each), until 80 % of the
  /// budget is spent; the first round always runs.
  void sample_by_leaf_probes(const std::atomic<bool>& stop);

  /// The first round only calibrates: 2 tasks per worker from the smallest
  /// tasks, to learn the seconds per unit of auxiliary size. They run 2–4
  /// times slower than the same-sized tasks of later rounds (a cold
  /// process: Q(19) join, first 4 tasks 0.10–0.19 CPU-s against 0.03–0.07 s
  /// later, results/estimate.md), so they go back to their strata, to be
  /// drawn again warm; they are the sample only when no later round
  /// finished a task. False when no task finished (stopped, or out of time).
  bool calibrate(std::atomic<bool>& stop);

  /// Later rounds: a task from each open stratum in turn, smallest first,
  /// until the predicted seconds fill what is left of the budget on every
  /// worker; a stratum whose next task would take most of what is left is
  /// closed (extrapolated, or estimated from what it has).
  void sample(std::atomic<bool>& stop, Watchdog& watchdog);

  /// The estimates from the sample: task, CPU and wall time, nodes. Throws
  /// NoTaskFinished when no task was sampled.
  RunEstimate summarize();

private:
  /// Runs the tasks `list` (indices into ids_) as one engine run handed out
  /// in list order (RunOptions::claim), so that all workers stay busy as in
  /// the real run: a task timed alone can run much faster than the same
  /// task beside others (a scheduler that shares the CPU per process, shared
  /// caches, turbo clocks). Tasks not started or abandoned are left out.
  std::vector<Measured> run_round(const std::vector<std::size_t>& list, const std::vector<std::size_t>& list_stratum,
                                  std::atomic<bool>& stop);
  /// Adds a measured task to its stratum's sample.
  void record(const Measured& m);
  /// The next later round's tasks and their strata, for `left` seconds.
  void plan_round(double left, std::vector<std::size_t>& list, std::vector<std::size_t>& list_stratum);
  Total ratio_total(std::vector<double> Stratum::*field, double noise, std::size_t replicates = 2000) const;

  const Job& job_;
  const RunEstimateOptions& o_;
  const Clock::time_point start_;
  const double budget_;
  int effective_ = 1;
  RunEstimate r_;
  std::vector<std::size_t> ids_;
  std::mt19937_64 rng_;
  std::vector<double> aux_;
  std::vector<Stratum> strata_;
  std::vector<long> sample_index_;  // position of task i in its stratum's sample, or -1
  double sampled_t_ = 0.0, sampled_a_ = 0.0;
  std::vector<Measured> warmup_;
  double warmup_t_ = 0.0, warmup_a_ = 0.0;
};

void Sampler::record(const Measured& m) {
  Stratum& st = strata_[m.h];
  sample_index_[m.i] = static_cast<long>(st.t.size());
  st.a.push_back(aux_[m.i]);
  st.t.push_back(m.t);
  st.c.push_back(m.c);
  st.nodes.push_back(m.nodes);
  sampled_t_ += m.t;
  sampled_a_ += aux_[m.i];
  r_.sampled_cpu_seconds += m.c;
  r_.sampled_nodes += m.nodes;
  r_.totals.merge(m.counts);
  ++r_.sampled;
}

void Sampler::sample_by_leaf_probes(const std::atomic<bool>& stop) {
  constexpr std::size_t kProbesPerTask = 4;
  const auto workers = static_cast<std::size_t>(effective_);
  r_.leaf_probes = true;
  r_.leaf_probes_per_task = kProbesPerTask;
  std::size_t turn = 0;
  do {
    std::vector<std::size_t> list, list_stratum;
    for (std::size_t idle = 0; list.size() < 2 * workers && idle < strata_.size(); ++turn) {
      Stratum& st = strata_[turn % strata_.size()];
      if (st.next >= std::max<std::size_t>(1, st.members.size() / 2)) {
        ++idle;
        continue;
      }
      idle = 0;
      list.push_back(st.members[st.next++]);
      list_stratum.push_back(turn % strata_.size());
    }
    if (list.empty()) break;
    std::vector<double> cpu(list.size(), 0.0);
    for_each_index(list.size(), effective_, [&](std::size_t k) {
      const std::size_t id = ids_[list[k]];
      std::mt19937_64 probe_rng(o_.seed + 0x9E3779B97F4A7C15ULL * (id + 1));
      double total = 0.0;
      for (std::size_t p = 0; p < kProbesPerTask; ++p) total += timed_leaf_probe(job_, id, probe_rng);
      cpu[k] = total / static_cast<double>(kProbesPerTask);
    });
    for (std::size_t k = 0; k < list.size(); ++k) record(Measured{list[k], list_stratum[k], cpu[k], cpu[k], 0.0});
  } while (!stop.load() && elapsed() < 0.8 * budget_);
}

std::vector<Measured> Sampler::run_round(const std::vector<std::size_t>& list,
                                         const std::vector<std::size_t>& list_stratum, std::atomic<bool>& stop) {
  Job round;
  round.fingerprint = job_.fingerprint;
  round.counter_names = job_.counter_names;
  round.task_count = list.size();
  std::vector<double> cpu_of(list.size(), 0.0);
  round.run_task = [this, &list, &cpu_of](std::size_t k, Tally& t) {
    const double cpu_start = thread_cpu_seconds();
    if (job_.run_task) {
      job_.run_task(ids_[list[k]], t);
    } else {
      std::string text;
      job_.run_task_output(ids_[list[k]], t, text);
    }
    cpu_of[k] = thread_cpu_seconds() - cpu_start;
  };
  std::atomic<std::size_t> position{0};
  RunOptions ro;
  ro.threads = effective_;
  ro.record_tasks = true;
  ro.cancel = &stop;
  ro.claim = [&position] { return position.fetch_add(1); };
  const RunResult result = run(round, ro);
  std::vector<Measured> measured;
  for (const TaskRecord& rec : result.tasks)
    measured.push_back(Measured{list[rec.id], list_stratum[rec.id], rec.seconds, cpu_of[rec.id],
                                static_cast<double>(rec.counts.nodes), rec.counts});
  return measured;
}

bool Sampler::calibrate(std::atomic<bool>& stop) {
  if (stop.load() || budget_ - elapsed() <= 0) return false;
  const auto workers = static_cast<std::size_t>(effective_);
  std::vector<std::size_t> list, list_stratum;  // indices into ids; their strata
  for (std::size_t h = 0; h < strata_.size() && list.size() < 2 * workers; ++h)
    for (Stratum& st = strata_[h]; st.next < st.members.size() && list.size() < 2 * workers; ++st.next) {
      list.push_back(st.members[st.next]);
      list_stratum.push_back(h);
    }
  if (list.empty()) return false;
  for (const Measured& m : run_round(list, list_stratum, stop)) {
    warmup_.push_back(m);
    warmup_t_ += m.t;
    warmup_a_ += aux_[m.i];
  }
  if (warmup_.empty()) return false;        // stopped before any task finished
  for (Stratum& st : strata_) st.next = 0;  // the calibration tasks are drawn again
  return true;
}

void Sampler::plan_round(double left, std::vector<std::size_t>& list, std::vector<std::size_t>& list_stratum) {
  double planned = 0.0;
  const double capacity = 0.8 * left * static_cast<double>(effective_);
  for (bool any = true; any && planned < capacity;) {
    any = false;
    for (std::size_t h = 0; h < strata_.size() && planned < capacity; ++h) {
      Stratum& st = strata_[h];
      if (st.closed || st.next == st.members.size()) continue;
      const std::size_t i = st.members[st.next];
      const double rate = !st.a.empty()    ? sum(st.t) / sum(st.a)
                          : sampled_a_ > 0 ? sampled_t_ / sampled_a_
                                           : warmup_t_ / warmup_a_;
      const double predicted = rate * aux_[i];
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

void Sampler::sample(std::atomic<bool>& stop, Watchdog& watchdog) {
  while (!stop.load()) {
    const double left = budget_ - elapsed();
    if (left <= 0) break;
    watchdog.set_deadline(deadline());
    std::vector<std::size_t> list, list_stratum;
    plan_round(left, list, list_stratum);
    if (list.empty()) break;
    const std::vector<Measured> measured = run_round(list, list_stratum, stop);
    for (const Measured& m : measured) record(m);
    if (measured.empty()) break;  // stopped before any task finished
  }
}

Total Sampler::ratio_total(std::vector<double> Stratum::*field, double noise, std::size_t replicates) const {
  const double z = normal_quantile(0.5 + o_.level / 2);
  std::vector<StratumSample> samples;
  for (const Stratum& st : strata_) samples.push_back({st.members.size(), st.aux, st.a, st.*field});
  TotalOptions to;
  to.level = o_.level;
  to.noise = noise;
  to.seed = o_.seed;
  to.replicates = replicates;
  Total out;
  out.e = stratified_total(samples, to);
  for (std::size_t h = 0; h < strata_.size(); ++h) {
    const Stratum& st = strata_[h];
    const std::vector<double>& v = st.*field;
    const double rate = out.e.rate[h];
    const double spread = v.empty() ? std::max(0.5, out.e.spread) : out.e.spread;
    for (const std::size_t i : st.members) {
      const double m = sample_index_[i] >= 0 ? v[static_cast<std::size_t>(sample_index_[i])] : -1.0;
      if (m >= 0) {
        out.largest = std::max(out.largest, m);
        out.largest_low = std::max(out.largest_low, m * (1 - noise));
        out.largest_high = std::max(out.largest_high, m);
      } else {
        out.largest = std::max(out.largest, rate * aux_[i]);
        out.largest_low = std::max(out.largest_low, rate * aux_[i] * std::max(0.0, 1 - z * spread));
        out.largest_high = std::max(out.largest_high, rate * aux_[i] * (1 + z * spread));
      }
    }
  }
  return out;
}

RunEstimate Sampler::summarize() {
  if (r_.sampled == 0)
    for (const Measured& m : warmup_) record(m);
  r_.sampled_task_seconds = sampled_t_;
  r_.complete = r_.sampled == r_.tasks && !r_.leaf_probes;
  if (r_.sampled == 0)
    throw NoTaskFinished("the size estimate ran no task to its end within " + std::to_string(elapsed()) +
                             " seconds; every task is at least that long",
                         r_.knuth, elapsed());
  const Total wall = ratio_total(&Stratum::t, o_.noise);
  // CPU time is measured per thread: other processes change it less.
  const Total cpu = ratio_total(&Stratum::c, o_.cpu_noise);
  r_.extrapolated = wall.e.extrapolated;
  r_.task_seconds = wall.e.value;
  r_.task_seconds_low = wall.e.low;
  r_.task_seconds_high = wall.e.high;
  r_.cpu_seconds = cpu.e.value;
  r_.relative_error = cpu.e.value > 0 ? cpu.e.standard_error / cpu.e.value : 0.0;
  r_.cpu_seconds_low = cpu.e.low;
  r_.cpu_seconds_high = cpu.e.high;
  r_.wall_relative_error = wall.e.value > 0 ? wall.e.standard_error / wall.e.value : 0.0;
  r_.largest_task_seconds = wall.largest;
  // A job whose tasks split while they run (Subtasks) shares its largest
  // task among idle workers, so that task bounds the wall time from above
  // (it may still run alone) but not from below.
  r_.splits = job_.splits;
  r_.wall_seconds_low = r_.splits && r_.workers > 1 ? r_.task_seconds_low / r_.workers
                                                    : std::max(r_.task_seconds_low / r_.workers, wall.largest_low);
  r_.wall_seconds_high = r_.task_seconds_high / r_.workers + wall.largest_high;
  bool counted_nodes = false;
  for (const Stratum& st : strata_) counted_nodes = counted_nodes || sum(st.nodes) > 0;
  r_.nodes = counted_nodes ? ratio_total(&Stratum::nodes, 0.0, 0).e.value : 0.0;
  r_.sample_seconds = elapsed();
  return r_;
}

}  // namespace

RunEstimate estimate_run(const Job& job, const RunEstimateOptions& o) {
  if (!job.run_task && !job.run_task_output) throw std::logic_error("estimate_run: the job has no kernel");
  Sampler s(job, o);
  s.probe_tree();
  if (s.no_tasks()) {
    s.result().sample_seconds = s.elapsed();
    s.result().complete = true;  // nothing to run: the counts are all zero
    return s.result();
  }
  s.size_tasks();
  s.make_strata();
  std::atomic<bool> stop{false};
  Watchdog watchdog(s.deadline(), o.cancel, stop);
  if (job.leaf_probe)
    s.sample_by_leaf_probes(stop);
  else if (s.calibrate(stop))
    s.sample(stop, watchdog);
  return s.summarize();
}

}  // namespace pcount::engine
