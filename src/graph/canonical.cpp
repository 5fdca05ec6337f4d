// Canonical forms of vertex-coloured graphs through nauty's densenauty: the
// one file of pcount that includes nauty (docs/architecture.md). A graph is
// kept as nauty's dense adjacency rows (m 64-bit setwords per vertex), its
// colour classes as the partition lab/ptn that densenauty refines; the
// canonical form is the relabelled graph, and |Aut| comes from the stats.
#include "pcount/graph/canonical.hpp"

#include <cmath>
#include <mutex>
#include <stdexcept>
#include <string>

#include "pcount/errors.hpp"

#include <nauty.h>  // last: it defines short macros (TRUE, MAX, ...)

namespace pcount::graph {

static_assert(sizeof(setword) == sizeof(std::uint64_t) && WORDSIZE == 64,
              "pcount stores nauty's setwords as 64-bit words");

void ColouredGraph::reset(std::span<const int> cell_sizes) {
  long total = 0;
  for (int s : cell_sizes) {
    if (s < 1) throw std::invalid_argument("ColouredGraph: every colour cell needs at least one vertex");
    total += s;
  }
  if (total < 1 || total > kMaxVertices)
    throw std::invalid_argument("ColouredGraph: 1 to " + std::to_string(kMaxVertices) + " vertices, got " +
                                std::to_string(total));
  n_ = static_cast<int>(total);
  m_ = SETWORDSNEEDED(n_);
  rows_.assign(static_cast<std::size_t>(n_) * static_cast<std::size_t>(m_), 0);
  cell_sizes_.assign(cell_sizes.begin(), cell_sizes.end());
}

void ColouredGraph::add_edge(int a, int b) {
  if (a < 0 || b < 0 || a >= n_ || b >= n_ || a == b)
    throw std::out_of_range("ColouredGraph::add_edge: vertices " + std::to_string(a) + ", " + std::to_string(b) +
                            " of " + std::to_string(n_));
  auto* g = reinterpret_cast<::graph*>(rows_.data());
  ADDONEEDGE(g, a, b, m_);
}

/// Checks once per process that the nauty library linked was built with the
/// word size and version of the header compiled here (nauty_check prints
/// the mismatch and ends the process otherwise: its forms would be wrong).
namespace {
void check_nauty_build(int m, int n) {
  static std::once_flag once;
  std::call_once(once, [m, n] { nauty_check(WORDSIZE, m, n, NAUTYVERSIONID); });
}
}  // namespace

/// nauty's work space for one call, kept per thread.
struct Canoniser {
  std::vector<int> lab, ptn, orbits;

  /// The canonical form of `g` into `out`: the unit partition refined from
  /// g's colour cells (ptn 0 closes a cell), getcanon on, no automorphism
  /// generators kept. Throws InternalError when nauty reports an error.
  void run(const ColouredGraph& g, CanonicalForm& out) {
    const int n = g.n_;
    const int m = g.m_;
    check_nauty_build(m, n);
    lab.resize(static_cast<std::size_t>(n));
    ptn.resize(static_cast<std::size_t>(n));
    orbits.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      lab[static_cast<std::size_t>(i)] = i;
      ptn[static_cast<std::size_t>(i)] = 1;
    }
    int end = 0;
    for (int s : g.cell_sizes_) {
      end += s;
      ptn[static_cast<std::size_t>(end - 1)] = 0;
    }
    out.vertices = n;
    out.words_per_row = m;
    out.rows.resize(g.rows_.size());
    DEFAULTOPTIONS_GRAPH(options);
    options.getcanon = TRUE;
    options.defaultptn = FALSE;
    statsblk stats;
    // densenauty does not change the input graph; its signature is not const.
    auto* in = const_cast<::graph*>(reinterpret_cast<const ::graph*>(g.rows_.data()));
    densenauty(in, lab.data(), ptn.data(), orbits.data(), &options, &stats, m, n,
               reinterpret_cast<::graph*>(out.rows.data()));
    if (stats.errstatus != 0) throw InternalError("nauty failed with status " + std::to_string(stats.errstatus));
    out.group_mantissa = stats.grpsize1;
    out.group_exponent = stats.grpsize2;
  }
};

void canonical_form(const ColouredGraph& g, CanonicalForm& out) {
  if (g.vertices() == 0) throw std::invalid_argument("canonical_form: empty graph (call reset first)");
  thread_local Canoniser work;
  work.run(g, out);
}

CanonicalForm canonical_form(const ColouredGraph& g) {
  CanonicalForm out;
  canonical_form(g, out);
  return out;
}

bool CanonicalForm::has_edge(int a, int b) const {
  const auto* g = reinterpret_cast<const ::graph*>(rows.data());
  return ISELEMENT(GRAPHROW(g, a, words_per_row), b);
}

std::uint64_t CanonicalForm::automorphisms() const {
  if (group_exponent != 0 || group_mantissa < 1.0 || group_mantissa > 1e15 ||
      std::floor(group_mantissa) != group_mantissa)
    throw InternalError("nauty group size not exactly representable");
  return static_cast<std::uint64_t>(group_mantissa);
}

}  // namespace pcount::graph
