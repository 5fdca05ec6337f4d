// engine::for_each_index: every index once, for any thread count and grain;
// the first exception is rethrown.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "pcount/engine/parallel.hpp"

namespace pcount::engine {
namespace {

TEST(ForEachIndex, EveryIndexExactlyOnce) {
  for (int threads : {1, 2, 7})
    for (std::size_t grain : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{1000}}) {
      std::vector<std::atomic<int>> hits(2500);
      for_each_index(hits.size(), threads, [&](std::size_t i) { hits[i].fetch_add(1); }, grain);
      for (std::size_t i = 0; i < hits.size(); ++i)
        ASSERT_EQ(hits[i].load(), 1) << "index " << i << ", threads " << threads << ", grain " << grain;
    }
  std::atomic<int> calls{0};
  for_each_index(0, 2, [&](std::size_t) { calls.fetch_add(1); });
  EXPECT_EQ(calls.load(), 0);
}

TEST(ForEachIndex, RethrowsAndRefusesNegativeThreads) {
  EXPECT_THROW(for_each_index(100, 2, [](std::size_t i) {
                 if (i == 37) throw std::runtime_error("index 37");
               }),
               std::runtime_error);
  EXPECT_THROW(for_each_index(1, -1, [](std::size_t) {}), std::invalid_argument);
}

}  // namespace
}  // namespace pcount::engine
