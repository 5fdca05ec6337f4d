#include <gtest/gtest.h>

#include <vector>

#include "pcount/bigint.hpp"
#include "pcount/u128.hpp"

namespace pcount {
namespace {

TEST(U128, PrintsAndParsesBeyond64Bits) {
  const u128 max = ~static_cast<u128>(0);
  EXPECT_EQ(to_string(max), "340282366920938463463374607431768211455");
  EXPECT_EQ(parse_u128("340282366920938463463374607431768211455"), max);
  EXPECT_EQ(to_string(static_cast<u128>(0)), "0");
  EXPECT_EQ(to_string(join64(0, 1)), "18446744073709551616");
  EXPECT_EQ(low64(join64(5, 7)), 5u);
  EXPECT_EQ(high64(join64(5, 7)), 7u);
}

TEST(U128, PrintingAgreesWithBigIntAtChunkBoundaries) {
  // to_string(u128) prints 19 digits at a time; check around 10^19 and 10^38
  // and a spread of values against Boost.Multiprecision's printing.
  u128 ten19 = 1;
  for (int i = 0; i < 19; ++i) ten19 *= 10;
  std::vector<u128> values = {1, 9, 10, ten19 - 1, ten19, ten19 + 1, ten19 * 10, ten19 * ten19 - 1, ten19 * ten19,
                              ten19 * ten19 + 7, join64(123, 456)};
  u128 x = 0x9e3779b97f4a7c15ULL;
  for (int i = 0; i < 200; ++i) values.push_back(x = x * 0x2545F4914F6CDD1DULL + (x >> 17));
  for (u128 v : values) {
    EXPECT_EQ(to_string(v), to_string(to_big(v)));
    EXPECT_EQ(parse_u128(to_string(v)), v);
  }
  EXPECT_EQ(to_string(ten19), "10000000000000000000");
}

TEST(U128, CheckedArithmeticThrowsOnOverflow) {
  const u128 max = ~static_cast<u128>(0);
  EXPECT_THROW((void)checked_add(max, 1), CountOverflow);
  EXPECT_THROW((void)checked_mul(max / 2 + 1, 2), CountOverflow);
  EXPECT_EQ(checked_add(max - 1, 1), max);
  EXPECT_THROW((void)parse_u128("340282366920938463463374607431768211456"), CountOverflow);
  EXPECT_THROW((void)parse_u128("12a"), std::invalid_argument);
  EXPECT_THROW((void)parse_u128(""), std::invalid_argument);
}

TEST(BigInt, FactorialAndPrinting) {
  EXPECT_EQ(to_string(factorial(0)), "1");
  EXPECT_EQ(to_string(factorial(25)), "15511210043330985984000000");
  EXPECT_EQ(to_string(to_big(join64(0, 1)) * 3), "55340232221128654848");
}

}  // namespace
}  // namespace pcount
