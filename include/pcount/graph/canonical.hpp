#pragma once
/// @file
/// Canonical forms of vertex-coloured graphs, computed with nauty
/// (B. D. McKay and A. Piperno, "Practical graph isomorphism, II",
/// J. Symbolic Comput. 60 (2014) 94–112). The one place pcount calls nauty:
/// Latin-square graph classes, sudoku band classes and Kirkman systems all
/// go through it.
///
/// Two coloured graphs are isomorphic (by a bijection mapping each colour
/// cell onto the cell of the same position) exactly when their canonical
/// forms are equal.

#include <compare>
#include <cstdint>
#include <span>
#include <vector>

namespace pcount::graph {

/// Most vertices a ColouredGraph may have.
inline constexpr int kMaxVertices = 1024;

/// A simple undirected graph on vertices 0..n-1 whose vertices are split
/// into consecutive colour cells: cell 0 is vertices [0, s₀), cell 1 is
/// [s₀, s₀+s₁), and so on. Reusable: reset() keeps its buffers, so a
/// thread_local graph costs no allocation per use.
class ColouredGraph {
public:
  ColouredGraph() = default;
  /// A graph with one cell per entry of `cell_sizes` (each ≥ 1, n = their
  /// sum, 1 ≤ n ≤ kMaxVertices) and no edges. Throws std::invalid_argument otherwise.
  explicit ColouredGraph(std::span<const int> cell_sizes) { reset(cell_sizes); }
  /// Makes this the edgeless graph of `cell_sizes` (as the constructor).
  void reset(std::span<const int> cell_sizes);
  /// Adds the edge {a, b} (0 ≤ a, b < n, a ≠ b; adding it twice is harmless).
  /// Throws std::out_of_range for a vertex out of range or a == b.
  void add_edge(int a, int b);
  /// Number of vertices n.
  [[nodiscard]] int vertices() const { return n_; }
  /// 64-bit words per adjacency row (nauty's m).
  [[nodiscard]] int words_per_row() const { return m_; }

private:
  friend struct Canoniser;
  int n_ = 0;
  int m_ = 0;
  std::vector<std::uint64_t> rows_;  ///< n × m words, nauty's dense format
  std::vector<int> cell_sizes_;
};

/// A canonical form: the graph relabelled by nauty's canonical labelling
/// (compare forms of graphs with the same cell sizes), and the order of its
/// automorphism group (colour-preserving).
struct CanonicalForm {
  int vertices = 0;
  int words_per_row = 0;
  std::vector<std::uint64_t> rows;  ///< the relabelled adjacency rows, nauty's dense format
  /// |Aut| = group_mantissa · 10^group_exponent (nauty's grpsize1, grpsize2).
  double group_mantissa = 1.0;
  int group_exponent = 0;

  /// Whether canonical vertices a and b are adjacent (0 ≤ a, b < vertices).
  [[nodiscard]] bool has_edge(int a, int b) const;
  /// |Aut| as an exact integer. Throws InternalError (pcount/errors.hpp)
  /// when it is not exactly representable (above 10^15).
  [[nodiscard]] std::uint64_t automorphisms() const;

  friend bool operator==(const CanonicalForm& a, const CanonicalForm& b) {
    return a.vertices == b.vertices && a.rows == b.rows;
  }
  friend std::strong_ordering operator<=>(const CanonicalForm& a, const CanonicalForm& b) {
    if (auto c = a.vertices <=> b.vertices; c != 0) return c;
    return a.rows <=> b.rows;
  }
};

/// Computes the canonical form of `g` into `out`, reusing out's buffers.
/// Thread-safe for different `out` objects (nauty's dense routine with
/// per-call work space). Throws InternalError if nauty reports a failure.
void canonical_form(const ColouredGraph& g, CanonicalForm& out);

/// The canonical form of `g` (as above, in a new object).
[[nodiscard]] CanonicalForm canonical_form(const ColouredGraph& g);

}  // namespace pcount::graph
