#pragma once
// The random seed of a randomised test: $PCOUNT_TEST_SEED when set (to replay
// a failure), else a fresh one. It is printed on stdout and stored as the
// test's "seed" property (in the XML report), so every run can be replayed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>

namespace pcount::test {

inline std::uint32_t test_seed() {
  const char* given = std::getenv("PCOUNT_TEST_SEED");
  const std::uint32_t seed =
      given && *given ? static_cast<std::uint32_t>(std::stoul(given)) : std::random_device{}();
  std::cout << "random seed: " << seed << " (replay with PCOUNT_TEST_SEED=" << seed << ")" << std::endl;
  ::testing::Test::RecordProperty("seed", std::to_string(seed));
  return seed;
}

}  // namespace pcount::test
