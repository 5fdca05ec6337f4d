#pragma once
/// @file
/// Arbitrary-precision integers for totals that exceed 2^128 (Latin squares
/// L(n) = n!·(n-1)!·R(n), sudoku grids = reduced count × multiplier).
/// Boost.Multiprecision's cpp_int; print with pcount::to_string, which works
/// around a GCC 12 false -Wrestrict warning inside cpp_int::str().
///
/// Namespace pcount, beside errors.hpp, u128.hpp and bigint.hpp: the
/// vocabulary of every layer (engine, kernels, driver); the definitions are
/// built into the pcount_engine library (src/engine/).

#include <string>

#include <boost/multiprecision/cpp_int.hpp>

#include "pcount/u128.hpp"

namespace pcount {

/// Exact integer of any size.
using BigInt = boost::multiprecision::cpp_int;

/// BigInt holding a 128-bit count.
[[nodiscard]] BigInt to_big(u128 value);

/// Decimal representation, e.g. "6670903752021072936960".
[[nodiscard]] std::string to_string(const BigInt& value);

/// n! for n ≥ 0 (throws std::invalid_argument for n < 0).
[[nodiscard]] BigInt factorial(int n);

}  // namespace pcount
