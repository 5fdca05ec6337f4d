#include <gtest/gtest.h>

#include <vector>

#include "pcount/bigint.hpp"
#include "pcount/engine/wide.hpp"
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

TEST(WideCounters, CarryL11ThroughLimbsShardsAndMerge) {
  // L(11) = R(11)·11!·10!, R(11) from McKay & Wanless 2005 (OEIS A000315).
  const BigInt r11("5363937773277371298119673540771840");
  const BigInt l11 = r11 * factorial(11) * factorial(10);
  ASSERT_GT(l11 >> 128, 0);  // wider than one counter
  EXPECT_EQ(engine::wide_counter_names("all", 1), std::vector<std::string>{"all"});
  EXPECT_EQ(engine::wide_counter_names("all", 3),
            (std::vector<std::string>{"all, bits 0-63", "all, bits 64-127", "all, bits 128-191"}));
  // Two shards' tallies, each the sum of many terms, merged.
  engine::Tally a(3), b(3);
  BigInt sum = 0;
  for (int i = 1; i <= 1000; ++i) {
    const BigInt term = l11 / (i * 7919) + i;
    engine::add_wide(i % 2 ? a : b, 0, 3, term);
    sum += term;
  }
  a.merge(b);
  EXPECT_EQ(engine::wide_total(a, 0, 3), sum);
  engine::Tally one(3);
  engine::add_wide(one, 0, 3, l11);
  EXPECT_EQ(to_string(engine::wide_total(one, 0, 3)), to_string(l11));
  // One limb holds any u128; what does not fit is refused, not wrapped.
  engine::Tally narrow(1);
  engine::add_wide(narrow, 0, 1, to_big(~u128{0}));
  EXPECT_EQ(narrow.get(0), ~u128{0});
  EXPECT_THROW(engine::add_wide(narrow, 0, 1, BigInt(1)), CountOverflow);
  EXPECT_THROW(engine::add_wide(one, 0, 1, l11), CountOverflow);
  EXPECT_THROW(engine::add_wide(one, 0, 2, l11 << 100), CountOverflow);
  EXPECT_THROW(engine::add_wide(one, 0, 3, BigInt(-1)), CountOverflow);
}

}  // namespace
}  // namespace pcount
