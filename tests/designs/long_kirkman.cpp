// Kirkman (long): the orbit method's premise — c(D), the completions of
// {day 1, D}, takes one value per orbit — checked on 101 second days spread
// over the whole list: each has one of the two representatives' values, and
// both values occur.
#include <gtest/gtest.h>

#include <map>

#include "pcount/designs/kirkman.hpp"

namespace pcount::designs::kirkman {
namespace {

TEST(KirkmanLong, CompletionsAreConstantOnEachOrbit) {
  const auto orbits = second_day_orbits();
  std::map<std::uint64_t, std::uint64_t> by_size;  // orbit size → c
  for (const auto& o : orbits) by_size[o.size] = completions(o.representative);
  const std::vector<Day> days = second_days();
  std::uint64_t weighted = 0;
  for (const auto& [size, c] : by_size) weighted += size * c;
  EXPECT_EQ(weighted, 6u * 2021760u);
  std::map<std::uint64_t, int> seen;
  for (std::size_t i = 0; i < days.size(); i += 1321) {
    const std::uint64_t c = completions(days[i]);
    bool matches = false;
    for (const auto& [size, value] : by_size) matches = matches || value == c;
    EXPECT_TRUE(matches) << format(days[i]) << " has " << c << " completions";
    ++seen[c];
  }
  EXPECT_EQ(seen.size(), 2u);  // both orbits were sampled
}

}  // namespace
}  // namespace pcount::designs::kirkman
