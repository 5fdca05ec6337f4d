// 2xC and Cx2 sudoku grids (side 2C) by N = Σ_σ B(σ)² over the column
// signatures of C×2-box bands, B memoised per graph class
// (docs/sudoku-grids.md; known totals Russell 2005 for 2x4, Pettersen 2005 for 2x5).
//
// Transposed to boxes of C rows × 2 columns, a grid is two bands of C rows,
// each with C boxes. A band's signature gives, per box b, the C-set S_b of
// digits in its first column (its second column holds the complement). The
// second band must have the per-column complements, and B(complement) = B(σ)
// (swap the two columns of every box), so N = Σ_σ B(σ)². B is invariant
// under digit relabelling, box order and swapping a box's two columns
// (S_b ↔ complement). Hence, with S_0 = {0..C-1} fixed (×binom(2C,C)),
// S_1 = r_k with |r_k ∩ S_0| = k (×binom(C,k)², k and C-k give the same
// pair), and S_2..S_{C-1} a multiset of unordered {S, complement} pairs
// (×2^(C-2) × multinomial):
//   N = binom(2C,C) · Σ_k binom(C,k)² · 2^(C-2) · Σ_M mult(M) · B(S_0, r_k, M)².
// Each enumerated signature is reduced to the canonical form (nauty) of its
// column–digit graph; the distinct forms are the classes, one engine task each.
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "bipartite.hpp"
#include "pcount/engine/fingerprint.hpp"
#include "pcount/engine/hash.hpp"
#include "pcount/errors.hpp"
#include "pcount/engine/parallel.hpp"
#include "pcount/graph/canonical.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/sudoku/grids/bands.hpp"

namespace pcount::sudoku {

namespace {

constexpr int kMaxC = 5;
using Columns = std::array<std::uint32_t, 2 * kMaxC>;

u128 binomial(int n, int k) {
  u128 r = 1;
  for (int i = 1; i <= k; ++i) r = r * static_cast<u128>(n - k + i) / static_cast<u128>(i);
  return r;
}

/// One graph class: its summed weight and one representative graph.
struct ClassEntry {
  u128 weight = 0;
  Columns columns{};
};
using ClassMap = std::map<u128, ClassEntry>;

class TwoColumnBands final : public BandCount {
public:
  TwoColumnBands(int c, int threads, bool split) : c_(c), split_(split) {
    if (c < 2 || c > kMaxC) throw std::invalid_argument("two-column bands need 2 ≤ C ≤ 5");
    const int digits = 2 * c;
    const std::uint32_t all = (1u << digits) - 1u;
    const std::uint32_t s0 = (1u << c) - 1u;
    // unordered {S, complement} pairs, each named by its member holding digit 0
    std::vector<std::uint32_t> pairs;
    for (std::uint32_t s = 0; s <= all; ++s)
      if (__builtin_popcount(s) == c && (s & 1u)) pairs.push_back(s);
    // S_1 representatives r_k, k = 0..C/2, with weights binom(C,k)² (doubled when k ≠ C-k)
    struct First {
      std::uint32_t set;
      u128 weight;
    };
    std::vector<First> firsts;
    for (int k = 0; 2 * k <= c; ++k) {
      const std::uint32_t r = ((1u << k) - 1u) | ((((1u << (c - k)) - 1u)) << c);
      const u128 b = binomial(c, k);
      firsts.push_back({r, b * b * (2 * k == c ? 1u : 2u)});
    }
    const int rest = c - 2;  // boxes 2..C-1
    const u128 rest_factor = static_cast<u128>(1) << rest;
    // Tasks of the discovery phase: (first, smallest pair of the multiset).
    const std::size_t per_first = rest == 0 ? 1 : pairs.size();
    const std::size_t tasks = firsts.size() * per_first;
    std::vector<ClassMap> found(tasks);
    u128 factorial_rest = 1;
    for (int i = 2; i <= rest; ++i) factorial_rest *= static_cast<u128>(i);

    auto discover = [&](std::size_t t) {
      const First& first = firsts[t / per_first];
      const std::size_t p0 = t % per_first;
      detail::BipartiteCanoniser canon(2 * c);
      ClassMap& local = found[t];
      Columns cols{};
      cols[0] = s0;
      cols[1] = all & ~s0;
      cols[2] = first.set;
      cols[3] = all & ~first.set;
      std::array<std::size_t, kMaxC> chosen{};
      auto record = [&] {
        // multinomial rest! / Π multiplicity!
        u128 mult = factorial_rest;
        int run = 1;
        for (int i = 1; i <= rest; ++i) {
          if (i < rest && chosen[static_cast<std::size_t>(i)] == chosen[static_cast<std::size_t>(i - 1)]) {
            ++run;
          } else {
            for (int f = 2; f <= run; ++f) mult /= static_cast<u128>(f);
            run = 1;
          }
        }
        ClassEntry& e = local[canon.key(cols.data())];
        if (e.weight == 0) e.columns = cols;
        e.weight = checked_add(e.weight, checked_mul(checked_mul(first.weight, rest_factor), mult));
      };
      // nested non-decreasing choice of pairs for boxes 2..C-1
      auto place = [&](auto&& self, int box, std::size_t from) -> void {
        if (box == c) {
          record();
          return;
        }
        const std::size_t last = box == 2 ? from + 1 : pairs.size();
        for (std::size_t p = from; p < last; ++p) {
          chosen[static_cast<std::size_t>(box - 2)] = p;
          cols[static_cast<std::size_t>(2 * box)] = pairs[p];
          cols[static_cast<std::size_t>(2 * box + 1)] = all & ~pairs[p];
          self(self, box + 1, p);
        }
      };
      place(place, 2, p0);
    };
    engine::for_each_index(tasks, threads, discover);

    ClassMap merged;
    for (const ClassMap& part : found)
      for (const auto& [key, entry] : part) {
        ClassEntry& e = merged[key];
        if (e.weight == 0) e.columns = entry.columns;
        e.weight = checked_add(e.weight, entry.weight);
      }
    // The class order follows nauty's canonical forms; a hash of the list
    // goes into the fingerprint so that checkpoints and shards made with
    // another nauty build never mix class ids.
    engine::Fnv1a64 hash;
    const auto mix = [&hash](u128 v) { hash.add_le128(v); };
    for (const auto& [key, entry] : merged) {
      mix(key);
      mix(entry.weight);
      classes_.push_back(entry);
    }
    list_hash_ = hash.value();
    check_classes();
  }

  [[nodiscard]] std::size_t class_count() const override { return classes_.size(); }

  /// Run-time self-checks: the class weights (× binom(2C,C) for S_0) sum to
  /// all binom(2C,C)^C signatures, and there are 2, 4, 26, 355 classes for
  /// C = 2..5 (the histogram orbits of the C × 2C stack configurations under
  /// row permutations and complements give the same numbers).
  void check_classes() const {
    const u128 b = binomial(2 * c_, c_);
    u128 sum = 0;
    for (const ClassEntry& e : classes_) sum = checked_add(sum, e.weight);
    u128 all = 1;
    for (int i = 1; i < c_; ++i) all = checked_mul(all, b);
    if (sum != all) throw InternalError("2x" + std::to_string(c_) + " band class weights do not sum to binom(2C,C)^C");
    constexpr std::size_t kClasses[] = {2, 4, 26, 355};
    if (classes_.size() != kClasses[c_ - 2])
      throw InternalError("2x" + std::to_string(c_) + " has " + std::to_string(classes_.size()) +
                          " band classes, expected " + std::to_string(kClasses[c_ - 2]));
  }

  [[nodiscard]] engine::Job job(std::string fingerprint) const override {
    engine::Job job;
    job.fingerprint = engine::Fingerprint::extending(std::move(fingerprint))
                          .add("classes", class_count())
                          .add_hex("list", list_hash_);
    auto classes = std::make_shared<const std::vector<ClassEntry>>(classes_);
    const int c = c_;
    job.splits = true;  // B's search gives parts away; B is summed over them before it is squared
    if (split_) {
      // Task (class i, part p) adds part p of B(class i) to counter i; the
      // squares are taken in total(), once every part has run.
      const auto parts = static_cast<std::size_t>(one_factorisation_parts(2 * c, c));
      job.fingerprint = engine::Fingerprint::extending(std::move(job.fingerprint)).add("split", parts);
      for (std::size_t i = 0; i < class_count(); ++i) job.counter_names.push_back("B of class " + std::to_string(i));
      job.task_count = class_count() * parts;
      job.split_depth = 1;
      job.run_task = [classes, c, parts](std::size_t id, engine::Tally& out) {
        const ClassEntry& e = (*classes)[id / parts];
        out.add(id / parts, ordered_one_factorisations_splitting(
                                std::span<const std::uint32_t>(e.columns.data(), 2 * static_cast<std::size_t>(c)), c,
                                static_cast<int>(id % parts)));
      };
      return job;
    }
    job.counter_names = {"weighted B squared"};
    job.task_count = class_count();
    job.run_task = [classes, c](std::size_t id, engine::Tally& out) {
      const ClassEntry& e = (*classes)[id];
      const u128 b = ordered_one_factorisations_splitting(
          std::span<const std::uint32_t>(e.columns.data(), 2 * static_cast<std::size_t>(c)), c);
      out.add(0, checked_mul(e.weight, checked_mul(b, b)));
    };
    return job;
  }

  [[nodiscard]] BigInt total(const engine::Tally& totals) const override {
    if (split_) {
      BigInt sum = 0;
      for (std::size_t i = 0; i < classes_.size(); ++i) {
        const BigInt b = to_big(totals.get(i));
        sum += to_big(classes_[i].weight) * b * b;
      }
      return sum * to_big(binomial(2 * c_, c_));
    }
    return to_big(totals.get(0)) * to_big(binomial(2 * c_, c_));
  }

private:
  int c_;
  bool split_ = false;
  std::vector<ClassEntry> classes_;
  std::uint64_t list_hash_ = 0;
};

}  // namespace

std::shared_ptr<const BandCount> make_bands_two_column(int c, int threads, bool split) {
  return std::make_shared<const TwoColumnBands>(c, threads, split);
}

}  // namespace pcount::sudoku
