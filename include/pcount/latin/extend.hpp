#pragma once
/// @file
/// Latin rows inside a bipartite graph: how many ways a Latin rectangle
/// whose column–symbol graph is G extends by e more rows.
///
/// A (k+e)×n Latin rectangle is a k×n one (graph G, k-regular) followed by
/// an ordered e-tuple of edge-disjoint perfect matchings of the complement
/// H = K_{n,n} − G. So, summing over the classes of G (docs/latin.md,
/// "Row extension"):
///   K(k+e, n) = Σ_{classes G, k-regular} (n!)²/|Aut G| · N(G) · X_e(Ḡ)
/// with X_e(H) the number of such e-tuples. X_1(H) is the permanent of H's
/// biadjacency matrix; X_2(H) = Σ over 2-factors F ⊆ H of 2^cycles(F).

#include "pcount/latin/bipartite.hpp"
#include "pcount/u128.hpp"

namespace pcount::latin {

/// Most rows row_extensions adds: its state is one symbol set per added
/// row, so e = 3 would hold C(11,5)³ ≈ 10⁸ states per column for n = 11.
inline constexpr int kMaxExtensionRows = 2;

/// X_e(H): the ordered e-tuples of pairwise edge-disjoint perfect matchings
/// of H (0 ≤ e ≤ kMaxExtensionRows; X_0 = 1), i.e. the e×n Latin
/// rectangles whose cells all lie on edges of H (row r, column c, symbol s
/// with s adjacent to c).
///
/// Computed by a dynamic programme over the columns: after c columns the
/// state is the tuple of symbol sets each row has used (C(n,c)^e states),
/// and column c takes e distinct unused symbols adjacent to it. For e = 2
/// each column costs two passes of whole-row additions over the
/// C(n,c)×C(n,c+1) states plus a correction for equal symbols, about
/// 6·10⁶ additions for n = 11 and d = 7. Work buffers are thread_local.
/// Counts use 64-bit words when (d(d−1))ⁿ < 2⁶⁴ bounds the result, else
/// 128-bit.
/// Throws InvalidArgument("rows") for e out of range; InternalError on
/// overflow (not reachable for n ≤ 11).
[[nodiscard]] u128 row_extensions(const BipGraph& h, int e);

}  // namespace pcount::latin
