// Kirkman's 15 schoolgirls: second days (their number recomputed here by a
// plain enumeration), their orbits, the 2,021,760 count for several splits
// and thread counts, --find, and the CLI.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <vector>

#include "pcount/errors.hpp"
#include "pcount/engine/runner.hpp"
#include "pcount/designs/kirkman.hpp"
#include "support/plain_kirkman.hpp"
#include "support/run_command.hpp"

namespace pcount::designs::kirkman {
namespace {

u128 count(int depth, int threads) {
  engine::RunOptions o;
  o.threads = threads;
  return solutions(engine::run(make_count_job(depth), o).totals);
}

/// The permutations of the girls that keep day 1's rows as rows (S3 wr S5,
/// 6^5·5! = 933,120 of them) and map `day` to itself, counted one by one:
/// row k goes to row rows[k], girl 3k+i to 3·rows[k] + inner[k][i].
std::uint64_t plain_stabiliser_size(const Day& day) {
  std::array<int, 5> rows = {0, 1, 2, 3, 4};
  std::array<std::array<int, 3>, 6> s3{};
  {
    std::array<int, 3> p = {0, 1, 2};
    std::size_t i = 0;
    do s3[i++] = p;
    while (std::next_permutation(p.begin(), p.end()));
  }
  std::vector<std::uint16_t> want(day.begin(), day.end());
  std::sort(want.begin(), want.end());
  std::uint64_t fixed = 0;
  do {
    for (int code = 0; code < 7776; ++code) {  // one S3 element per row: 6^5 choices
      std::array<int, 15> image{};
      int c = code;
      for (int k = 0; k < 5; ++k, c /= 6)
        for (int i = 0; i < 3; ++i)
          image[static_cast<std::size_t>(3 * k + i)] =
              3 * rows[static_cast<std::size_t>(k)] + s3[static_cast<std::size_t>(c % 6)][static_cast<std::size_t>(i)];
      std::vector<std::uint16_t> got;
      for (std::uint16_t row : day) {
        unsigned m = 0;
        for (int g = 0; g < 15; ++g)
          if ((row >> g) & 1u) m |= 1u << image[static_cast<std::size_t>(g)];
        got.push_back(static_cast<std::uint16_t>(m));
      }
      std::sort(got.begin(), got.end());
      fixed += got == want ? 1 : 0;
    }
  } while (std::next_permutation(rows.begin(), rows.end()));
  return fixed;
}

TEST(Kirkman, SecondDaysAreAllDaysOrthogonalToDayOne) {
  EXPECT_EQ(format(first_day()), "ABC DEF GHI JKL MNO");
  const std::vector<Day> days = second_days();
  ASSERT_EQ(days.size(), test::plain_second_day_count());
  std::set<Day> distinct(days.begin(), days.end());
  EXPECT_EQ(distinct.size(), days.size());
  const Day one = first_day();
  for (const Day& d : days) {
    unsigned covered = 0;
    for (std::uint16_t t : d) {
      ASSERT_EQ(__builtin_popcount(t), 3);
      covered |= t;
      for (std::uint16_t u : one) ASSERT_LE(__builtin_popcount(static_cast<unsigned>(t & u)), 1);
    }
    ASSERT_EQ(covered, 0x7FFFu);
  }
}

TEST(Kirkman, TwoOrbitsOfSecondDays) {
  const auto orbits = second_day_orbits();
  ASSERT_EQ(orbits.size(), 2u);
  std::vector<std::uint64_t> sizes{orbits[0].size, orbits[1].size};
  std::sort(sizes.begin(), sizes.end());
  EXPECT_EQ(sizes[0] + sizes[1], test::plain_second_day_count());
  // Orbit–stabiliser: each orbit's size is the group order over the number
  // of group elements fixing its representative, counted here directly.
  for (const auto& o : orbits) EXPECT_EQ(o.size * plain_stabiliser_size(o.representative), 933120u);
  EXPECT_EQ(sizes, (std::vector<std::uint64_t>{38880, 93312}));
  EXPECT_EQ(format(orbits[0].representative), "ADG BEH CJM FKN ILO");
}

TEST(Kirkman, CountIs2021760ForEverySplitAndThreadCount) {
  EXPECT_EQ(count(2, 1), 2021760u);
  EXPECT_EQ(count(0, 2), 2021760u);
  EXPECT_EQ(count(4, 4), 2021760u);
  engine::Tally bad;
  bad.add(kWeightedCompletions, 7);
  EXPECT_THROW((void)solutions(bad), InternalError);
  EXPECT_THROW((void)make_count_job(-1), InvalidArgument);
  EXPECT_THROW((void)completions(first_day()), InvalidArgument);
  EXPECT_THROW((void)make_count_job(11), InvalidArgument);
}

TEST(Kirkman, FindGivesAValidScheduleStartingWithDayOne) {
  const auto s = find_solution();
  ASSERT_TRUE(s.has_value());
  EXPECT_TRUE(is_solution(*s));
  EXPECT_EQ((*s)[0], first_day());
  Schedule broken = *s;
  std::swap(broken[1][0], broken[2][0]);  // rows moved between days: girls repeat in a day
  EXPECT_FALSE(is_solution(broken));
  Schedule twice = *s;
  twice[2] = twice[1];  // a day repeated: pairs meet twice
  EXPECT_FALSE(is_solution(twice));
}

TEST(Kirkman, SevenIsomorphismClassesFromFourTripleSystems) {
  std::size_t systems = 0;
  EXPECT_EQ(isomorphism_classes(systems), 7u);  // Cole 1922
  EXPECT_EQ(systems, 4u);
}

TEST(KirkmanCli, CountFindAndBadInput) {
  using test::run_count;
  const auto r = run_count({"--kirkman", "--json", "--threads", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["problem"], "kirkman");
  EXPECT_EQ(j["counts"]["solutions"], "2021760");
  EXPECT_EQ(j["method"], "orbits");
  EXPECT_EQ(j["second_days"], test::plain_second_day_count());
  EXPECT_EQ(j["orbits"], 2);
  // The second days are listed in parallel at start-up: the same count and
  // orbits on 1 and 3 threads as on 2.
  for (const std::string threads : {"1", "3"}) {
    const auto t = run_count({"--kirkman", "--json", "--threads", threads});
    ASSERT_EQ(t.status, 0) << t.err;
    const auto jt = nlohmann::json::parse(t.out);
    EXPECT_EQ(jt["counts"]["solutions"], "2021760") << threads;
    EXPECT_EQ(jt["second_days"], test::plain_second_day_count()) << threads;
    EXPECT_EQ(jt["orbits"], 2) << threads;
  }

  const auto f = run_count({"--kirkman", "--find", "--json"});
  ASSERT_EQ(f.status, 0) << f.err;
  const auto k = nlohmann::json::parse(f.out);
  ASSERT_EQ(k["days"].size(), 7u);
  EXPECT_EQ(k["days"][0], "ABC DEF GHI JKL MNO");
  std::set<std::pair<char, char>> pairs;
  for (const auto& day : k["days"]) {
    const std::string d = day.get<std::string>();
    ASSERT_EQ(d.size(), 19u);
    for (std::size_t r0 = 0; r0 < 19; r0 += 4)
      for (std::size_t a = r0; a < r0 + 3; ++a)
        for (std::size_t b = a + 1; b < r0 + 3; ++b) pairs.emplace(std::min(d[a], d[b]), std::max(d[a], d[b]));
  }
  EXPECT_EQ(pairs.size(), 105u);  // all C(15, 2) pairs, each once (7 × 5 × 3 = 105 row pairs)

  const auto c = run_count({"--kirkman", "--classes", "--json"});
  ASSERT_EQ(c.status, 0) << c.err;
  const auto cj = nlohmann::json::parse(c.out);
  EXPECT_EQ(cj["counts"]["classes"], "7");
  EXPECT_EQ(cj["counts"]["triple_systems"], "4");

  const auto text = run_count({"--kirkman", "--find"});
  ASSERT_EQ(text.status, 0);
  EXPECT_NE(text.out.find("day 7"), std::string::npos);

  const std::vector<test::BadInputCase> cases = {
      {{"--queens", "8", "--find"}, "--find"},
      {{"--kirkman", "--split-depth", "11"}, "--split-depth"},
      {{"--kirkman", "--method", "magic"}, "--method"},
      {{"--kirkman", "--find", "--method", "orbits"}, "--method"},
      {{"--kirkman", "--find", "--split-depth", "2"}, "--split-depth"},
      {{"--kirkman", "--find", "--classes"}, "--find, --classes"},
      {{"--kirkman", "--find", "--shard", "0/2"}, "--shard"},  // a search that finds: nothing to split
      {{"--kirkman", "--classes", "--out", "kirkman-classes.json"}, "--out"},
      {{"--kirkman", "--classes", "--method", "orbits"}, "--method"},
      {{"--tictactoe", "--classes"}, "--classes"},
      {{"--kirkman", "--misere"}, "--misere"},
      {{"--kirkman", "3"}, "'3': unexpected argument"},
  };
  test::expect_bad_input(cases);
}

}  // namespace
}  // namespace pcount::designs::kirkman
