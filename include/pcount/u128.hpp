#pragma once
/// @file
/// 128-bit unsigned counts with overflow-checked arithmetic.
///
/// Every partial and total count in pcount is an `unsigned __int128`
/// (`pcount::u128`). Sums and products go through the checked helpers below,
/// so a count that would exceed 2^128 - 1 stops the run with an error instead
/// of wrapping around to a wrong number.
///
/// Namespace pcount, beside errors.hpp, u128.hpp and bigint.hpp: the
/// vocabulary of every layer (engine, kernels, driver); the definitions are
/// built into the pcount_engine library (src/engine/).

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace pcount {

/// Unsigned 128-bit count (0 .. 2^128 - 1).
__extension__ typedef unsigned __int128 u128;

/// Thrown when a 128-bit count would overflow. The message names the operation.
class CountOverflow : public std::overflow_error {
public:
  using std::overflow_error::overflow_error;
};

/// a + b; throws CountOverflow when the sum exceeds 2^128 - 1.
[[nodiscard]] inline u128 checked_add(u128 a, u128 b) {
  u128 r;
  if (__builtin_add_overflow(a, b, &r)) throw CountOverflow("128-bit count overflow in addition");
  return r;
}

/// a * b; throws CountOverflow when the product exceeds 2^128 - 1.
[[nodiscard]] inline u128 checked_mul(u128 a, u128 b) {
  u128 r;
  if (__builtin_mul_overflow(a, b, &r)) throw CountOverflow("128-bit count overflow in multiplication");
  return r;
}

/// Decimal representation of a 128-bit count, e.g. "16942080".
[[nodiscard]] std::string to_string(u128 value);

/// Parses a decimal count (digits only, no sign, no spaces).
/// Throws std::invalid_argument on an empty string or a non-digit, and
/// CountOverflow when the value exceeds 2^128 - 1.
[[nodiscard]] u128 parse_u128(std::string_view text);

/// Splits a count into its low and high 64-bit halves (for MPI and files).
[[nodiscard]] constexpr std::uint64_t low64(u128 v) { return static_cast<std::uint64_t>(v); }
/// High 64 bits of a count.
[[nodiscard]] constexpr std::uint64_t high64(u128 v) { return static_cast<std::uint64_t>(v >> 64); }
/// Joins two 64-bit halves into a count.
[[nodiscard]] constexpr u128 join64(std::uint64_t low, std::uint64_t high) {
  return (static_cast<u128>(high) << 64) | low;
}

}  // namespace pcount
