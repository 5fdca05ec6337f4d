// 9×9 sudoku grids by band column signatures and the 44 classes
// (Felgenhauer & Jarvis 2005; docs/sudoku-grids.md, docs/sources.md).
#include <algorithm>
#include <array>
#include <memory>
#include <numeric>
#include <string>

#include "pcount/engine/fingerprint.hpp"
#include "pcount/engine/split.hpp"
#include "pcount/errors.hpp"
#include "pcount/sudoku/grids/bands.hpp"

namespace pcount::sudoku {

namespace {

constexpr std::size_t kShapes = 280;                      // partitions of 9 digits into 3 triples
constexpr std::size_t kCompatible = 56;                   // box configurations column-disjoint from a given one
constexpr std::uint64_t kBandTotal = 948'109'639'680ULL;  // Σ_σ B(σ) = 9!·56·6⁶
constexpr std::size_t kExpectedClasses = 44;

using BoxShape = std::array<std::uint16_t, 3>;
using Perm = std::array<int, 9>;

std::uint16_t map_mask(std::uint16_t mask, const Perm& p) {
  std::uint16_t out = 0;
  for (int d = 0; d < 9; ++d)
    if (mask & (1u << d)) out = static_cast<std::uint16_t>(out | (1u << p[static_cast<std::size_t>(d)]));
  return out;
}

BoxShape sorted(BoxShape s) {
  std::sort(s.begin(), s.end());
  return s;
}

/// The 280 shapes and a fast index from a shape (any block order).
struct ShapeIndex {
  std::vector<BoxShape> shapes;
  std::array<std::int16_t, 512> rank3{};  // 3-subset mask → 0..83, else -1
  std::vector<std::uint16_t> by_ranks;    // rank3(smaller mask)·84 + rank3(middle mask) → shape
  std::vector<unsigned> triples;          // the 84 3-subsets of the digits, increasing

  ShapeIndex() {
    rank3.fill(-1);
    std::int16_t r = 0;
    for (unsigned m = 0; m < 512; ++m)
      if (__builtin_popcount(m) == 3) {
        rank3[m] = r++;
        triples.push_back(m);
      }
    by_ranks.assign(84 * 84, 0xFFFF);
    for (unsigned a = 0; a < 512; ++a) {
      if (__builtin_popcount(a) != 3 || !(a & 1u)) continue;  // block of digit 0
      const unsigned rest = 511u & ~a;
      for (unsigned b = 0; b < 512; ++b) {
        if (__builtin_popcount(b) != 3 || (b & ~rest) || !(b & (rest & (0u - rest)))) continue;
        const auto c = static_cast<std::uint16_t>(rest & ~b);
        const BoxShape s = sorted({static_cast<std::uint16_t>(a), static_cast<std::uint16_t>(b), c});
        by_ranks[static_cast<std::size_t>(rank3[s[0]] * 84 + rank3[s[1]])] = static_cast<std::uint16_t>(shapes.size());
        shapes.push_back(s);
      }
    }
  }

  [[nodiscard]] std::uint16_t index(BoxShape s) const {
    s = sorted(s);
    return by_ranks[static_cast<std::size_t>(rank3[s[0]] * 84 + rank3[s[1]])];
  }
  [[nodiscard]] std::uint16_t image(std::size_t shape, const Perm& p) const {
    const BoxShape& s = shapes[shape];
    return index({map_mask(s[0], p), map_mask(s[1], p), map_mask(s[2], p)});
  }
};

/// Box 1's fixed shape P*: columns {0,3,6}, {1,4,7}, {2,5,8}.
constexpr BoxShape kBox1 = {0b001001001, 0b010010010, 0b100100100};

/// A digit permutation mapping shape s onto P* (block i of s → column i of P*).
Perm to_box1(const BoxShape& s) {
  Perm p{};
  for (std::size_t blk = 0; blk < 3; ++blk) {
    int slot = 0;
    for (int d = 0; d < 9; ++d)
      if (s[blk] & (1u << d)) p[static_cast<std::size_t>(d)] = static_cast<int>(blk) + 3 * slot++;
  }
  return p;
}

struct UnionFind {
  std::vector<std::uint32_t> parent;
  explicit UnionFind(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
  std::uint32_t find(std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void unite(std::uint32_t a, std::uint32_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
};

std::array<std::uint32_t, 9> band_columns(const BoxShape& a, const BoxShape& b, const BoxShape& c) {
  return {a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]};
}

/// Everything the count needs; built once.
struct Tables {
  ShapeIndex index;
  std::size_t box1 = 0;
  std::vector<std::uint16_t> norm;  // norm[P·280 + Q] = shape of g_P(Q), g_P maps P onto P*
  std::vector<std::uint32_t> b;     // B(P*, x, y) at x·280 + y
  std::vector<std::uint32_t> class_of;
  std::vector<std::uint32_t> rep;     // per class: its smallest pair index
  std::vector<std::uint64_t> weight;  // per class: Σ of B over its pairs

  explicit Tables() {
    box1 = index.index(kBox1);
    norm.resize(kShapes * kShapes);
    for (std::size_t p = 0; p < kShapes; ++p) {
      const Perm g = to_box1(index.shapes[p]);
      for (std::size_t q = 0; q < kShapes; ++q) norm[p * kShapes + q] = index.image(q, g);
    }
    // Classes: union-find over the (box 2, box 3) shape pairs with box 1 = P*.
    const std::array<Perm, 4> stabiliser = {{
        {3, 1, 2, 0, 4, 5, 6, 7, 8},  // swap 0,3 inside a column set
        {3, 1, 2, 6, 4, 5, 0, 7, 8},  // 0→3→6→0
        {1, 0, 2, 4, 3, 5, 7, 6, 8},  // swap column sets 0 and 1
        {1, 2, 0, 4, 5, 3, 7, 8, 6},  // cycle the column sets
    }};
    std::array<std::vector<std::uint16_t>, 4> act;
    for (std::size_t g = 0; g < stabiliser.size(); ++g) {
      act[g].resize(kShapes);
      for (std::size_t q = 0; q < kShapes; ++q) act[g][q] = index.image(q, stabiliser[g]);
    }
    UnionFind uf(kShapes * kShapes);
    for (std::size_t x = 0; x < kShapes; ++x)
      for (std::size_t y = 0; y < kShapes; ++y) {
        const auto here = static_cast<std::uint32_t>(x * kShapes + y);
        for (const auto& a : act) uf.unite(here, static_cast<std::uint32_t>(a[x] * kShapes + a[y]));
        uf.unite(here, static_cast<std::uint32_t>(y * kShapes + x));  // swap boxes 2 and 3
        // rotate boxes: (P*, x, y) → (x, y, P*), relabelled so box 1 is P* again
        uf.unite(here, static_cast<std::uint32_t>(norm[x * kShapes + y] * kShapes + norm[x * kShapes + box1]));
      }
    class_of.assign(kShapes * kShapes, 0);
    std::vector<std::uint32_t> id_of_root(kShapes * kShapes, ~0u);
    for (std::uint32_t i = 0; i < kShapes * kShapes; ++i) {
      const std::uint32_t root = uf.find(i);
      if (id_of_root[root] == ~0u) {
        id_of_root[root] = static_cast<std::uint32_t>(rep.size());
        rep.push_back(i);
      }
      class_of[i] = id_of_root[root];
    }
    if (rep.size() != kExpectedClasses)
      throw InternalError("3x3 bands: found " + std::to_string(rep.size()) + " band classes, expected 44");
    // B per class from its representative; B is invariant under the class's symmetries.
    std::vector<std::uint32_t> b_class(rep.size());
    for (std::size_t c = 0; c < rep.size(); ++c) {
      const std::size_t x = rep[c] / kShapes;
      const std::size_t y = rep[c] % kShapes;
      const u128 v = band_count_3x3(band_columns(index.shapes[box1], index.shapes[x], index.shapes[y]));
      if (v == 0 || v > 0xFFFFFFFFu) throw InternalError("3x3 bands: B out of range");
      b_class[c] = static_cast<std::uint32_t>(v);
    }
    b.resize(kShapes * kShapes);
    weight.assign(rep.size(), 0);
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < kShapes * kShapes; ++i) {
      b[i] = b_class[class_of[i]];
      weight[class_of[i]] += b[i];
      sum += b[i];
    }
    // Σ over ordered signatures = 6³ column orders × 280 box-1 shapes × Σ_{x,y} B(P*, x, y)
    if (sum * 216 * kShapes != kBandTotal)
      throw InternalError("3x3 bands: Σ_σ B(σ) = " + std::to_string(sum * 216 * kShapes) + ", expected " +
                          std::to_string(kBandTotal));
  }

  /// The 56 ordered box configurations column-disjoint from `top` (its
  /// blocks in order = column order), as (shape of band 2's box, shape of
  /// band 3's box, whose columns are the per-column complements).
  void compatible(const BoxShape& top, std::array<std::uint16_t, kCompatible>& mid,
                  std::array<std::uint16_t, kCompatible>& low) const {
    std::size_t count = 0;
    for (const unsigned a : index.triples) {
      if (a & top[0]) continue;
      for (const unsigned bb : index.triples) {
        if ((bb & top[1]) || (bb & a)) continue;
        const unsigned c = 511u & ~(a | bb);
        if (c & top[2]) continue;
        if (count == kCompatible) throw InternalError("3x3 bands: more than 56 compatible boxes");
        const auto m0 = static_cast<std::uint16_t>(a), m1 = static_cast<std::uint16_t>(bb),
                   m2 = static_cast<std::uint16_t>(c);
        mid[count] = index.index({m0, m1, m2});
        low[count] = index.index({static_cast<std::uint16_t>(511u & ~(top[0] | m0)),
                                  static_cast<std::uint16_t>(511u & ~(top[1] | m1)),
                                  static_cast<std::uint16_t>(511u & ~(top[2] | m2))});
        ++count;
      }
    }
    if (count != kCompatible) throw InternalError("3x3 bands: fewer than 56 compatible boxes");
  }

  /// The compatible boxes of a band class's three top boxes (P*, x, y).
  struct Completion {
    std::array<std::array<std::uint16_t, kCompatible>, 3> mid{}, low{};
  };
  [[nodiscard]] Completion completion(std::size_t pair) const {
    Completion c;
    compatible(index.shapes[box1], c.mid[0], c.low[0]);
    compatible(index.shapes[pair / kShapes], c.mid[1], c.low[1]);
    compatible(index.shapes[pair % kShapes], c.mid[2], c.low[2]);
    return c;
  }

  /// T(σ1) for σ1 = (P*, x, y): the number of ways to complete a fixed top
  /// band with this signature, Σ over the 56³ compatible σ2 of B(σ2)·B(σ3).
  [[nodiscard]] std::uint64_t completions(std::size_t pair) const {
    return completions(completion(pair), 0, kCompatible);
  }

  /// The terms of T whose box 1 of band 2 is compatible box i, from ≤ i < to.
  [[nodiscard]] std::uint64_t completions(const Completion& c, std::size_t from, std::size_t to) const {
    std::uint64_t total = 0;
    for (std::size_t i = from; i < to; ++i) total += completions_at(c, i);
    return total;
  }

  /// The terms of T whose box 1 of band 2 is compatible box i.
  [[nodiscard]] std::uint64_t completions_at(const Completion& c, std::size_t i) const {
    std::array<std::uint16_t, kCompatible> u, v;             // filled below
    const std::uint16_t* n2 = &norm[c.mid[0][i] * kShapes];  // relabels band 2's box 1 onto P*
    const std::uint16_t* n3 = &norm[c.low[0][i] * kShapes];
    for (std::size_t k = 0; k < kCompatible; ++k) {
      u[k] = n2[c.mid[2][k]];
      v[k] = n3[c.low[2][k]];
    }
    std::uint64_t total = 0;
    for (std::size_t j = 0; j < kCompatible; ++j) {
      const std::uint32_t* row2 = &b[n2[c.mid[1][j]] * kShapes];
      const std::uint32_t* row3 = &b[n3[c.low[1][j]] * kShapes];
      std::uint64_t s = 0;
      for (std::size_t k = 0; k < kCompatible; ++k) s += static_cast<std::uint64_t>(row2[u[k]]) * row3[v[k]];
      total += s;
    }
    return total;
  }
};

/// Adds to counter 0 of `out` the terms of T for the compatible boxes
/// from ≤ i < to, giving the later half of those not yet counted away as a
/// part whenever the run wants one (engine::Subtasks): T is a sum over i,
/// so its parts add up, and the class's weight multiplies it after the join.
void completions_splitting(const std::shared_ptr<const Tables>& tables,
                           const std::shared_ptr<const Tables::Completion>& c, std::size_t from, std::size_t to,
                           engine::Tally& out) {
  engine::Subtasks parts;
  std::uint64_t total = 0;
  for (std::size_t i = from; i < to; ++i) {
    if (i + 1 < to && parts.wanted()) {  // give the later half of the boxes left away
      const std::size_t half = i + 1 + (to - i - 1) / 2;
      parts.give([tables, c, half, to](engine::Tally& part, std::string*) {
        completions_splitting(tables, c, half, to, part);
      });
      to = half;
    }
    total += tables->completions_at(*c, i);
  }
  out.add(0, total);
  parts.join(out);
}

class Bands3x3 final : public BandCount {
public:
  Bands3x3() : tables_(std::make_shared<const Tables>()) {}

  [[nodiscard]] std::size_t class_count() const override { return tables_->rep.size(); }

  [[nodiscard]] engine::Job job(std::string fingerprint) const override {
    engine::Job job;
    job.fingerprint = engine::Fingerprint::extending(std::move(fingerprint)).add("classes", class_count());
    job.counter_names = {"weighted completions"};
    job.task_count = class_count();
    job.splits = true;  // T is summed over parts of its outer loop, then weighted
    auto tables = tables_;
    job.run_task = [tables](std::size_t id, engine::Tally& out) {
      const engine::Subtasks probe;
      std::uint64_t t = 0;
      if (probe.enabled()) {
        engine::Tally sum(1);
        completions_splitting(tables, std::make_shared<const Tables::Completion>(tables->completion(tables->rep[id])),
                              0, kCompatible, sum);
        t = static_cast<std::uint64_t>(sum.get(0));
      } else {
        t = tables->completions(tables->rep[id]);
      }
      out.add(0, checked_mul(tables->weight[id], t));
    };
    return job;
  }

  [[nodiscard]] BigInt total(const engine::Tally& totals) const override {
    return to_big(totals.get(0)) * 216 * static_cast<unsigned>(kShapes);
  }

private:
  std::shared_ptr<const Tables> tables_;
};

}  // namespace

u128 band_count_3x3(const std::array<std::uint32_t, 9>& columns) { return ordered_one_factorisations(columns, 3); }

std::shared_ptr<const BandCount> make_bands_3x3(int /*threads*/) { return std::make_shared<const Bands3x3>(); }

Bands3x3Tables bands_3x3_tables(int /*threads*/) {
  const Tables t;
  Bands3x3Tables out;
  out.shapes = t.index.shapes;
  out.b_fixed_box1 = t.b;
  out.box1_shape = t.box1;
  out.class_of = t.class_of;
  out.classes = t.rep.size();
  return out;
}

}  // namespace pcount::sudoku
