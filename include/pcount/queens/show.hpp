#pragma once
/// @file
/// Looking at N-Queens solutions: the first distinct solutions in canonical
/// form, drawn as text boards or as one SVG image.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace pcount::queens {

/// The first `k` solutions of the n×n board that are distinct under the 8
/// symmetries, each in canonical form (the lexicographically smallest of its
/// images, see canonical()), in increasing lexicographic order — a fixed
/// order, the same on every run. Fewer than k when U(n) < k. Found by a
/// sequential lexicographic search that keeps the solutions equal to their
/// canonical form; it stops as soon as k are found. Throws
/// InvalidArgument("n") for n outside 1..32.
[[nodiscard]] std::vector<std::vector<int>> first_distinct_solutions(int n, std::size_t k);

/// One solution as a text board: n lines of n cells separated by spaces,
/// "♛" for a queen and "·" for an empty square, or "Q" and "." when
/// `ascii` is set. Row 0 is the first line; every line ends in '\n'.
[[nodiscard]] std::string board_text(std::span<const int> placement, bool ascii);

/// The solutions drawn as one standalone SVG 1.1 document: a grid of
/// chequered boards (at most 4 per row), each with its number and column
/// list as a caption. All boards must have the same size.
[[nodiscard]] std::string boards_svg(const std::vector<std::vector<int>>& solutions);

}  // namespace pcount::queens
