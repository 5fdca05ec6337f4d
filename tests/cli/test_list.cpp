// `--list [K]`: each object counted, one per line, the same bytes for every
// thread count and for shards merged; checked by plain checkers that share
// no code with the kernels; counts from OEIS / published values.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "support/run_command.hpp"

namespace pcount::test {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> v;
  std::istringstream in(line);
  for (std::string w; in >> w;) v.push_back(w);
  return v;
}

/// Plain N-Queens check: n columns 1..n, no two queens share a column or a diagonal.
bool valid_queens(const std::vector<int>& col) {
  const int n = static_cast<int>(col.size());
  for (int a = 0; a < n; ++a) {
    if (col[a] < 1 || col[a] > n) return false;
    for (int b = a + 1; b < n; ++b)
      if (col[a] == col[b] || col[a] - col[b] == a - b || col[a] - col[b] == b - a) return false;
  }
  return true;
}

std::vector<int> queens_line(const std::string& line) {
  std::vector<int> v;
  for (const auto& w : words_of(line)) v.push_back(std::stoi(w));
  return v;
}

/// Plain check of a reduced Latin rectangle given as rows of symbols 1..n
/// ("1234 2143 ..."): each row a permutation, no symbol twice in a column,
/// first row 1..n in order, first column 1..k in order.
bool valid_reduced_latin(const std::vector<std::string>& rows, int n) {
  const auto value = [](char c) { return c >= '1' && c <= '9' ? c - '0' : c >= 'A' && c <= 'Z' ? c - 'A' + 10 : -1; };
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (static_cast<int>(rows[r].size()) != n) return false;
    std::set<int> seen;
    for (int c = 0; c < n; ++c) {
      const int v = value(rows[r][static_cast<std::size_t>(c)]);
      if (v < 1 || v > n || !seen.insert(v).second) return false;
      if (r == 0 && v != c + 1) return false;
      if (c == 0 && v != static_cast<int>(r) + 1) return false;
      for (std::size_t q = 0; q < r; ++q)
        if (rows[q][static_cast<std::size_t>(c)] == rows[r][static_cast<std::size_t>(c)]) return false;
    }
  }
  return true;
}

/// Plain sudoku grid check: side·side digits 1..side, each row, column and
/// R×C box a permutation; clues (0 = blank) kept.
bool valid_sudoku(const std::string& line, int br, int bc, const std::string& clues = "") {
  const int n = br * bc;
  if (static_cast<int>(line.size()) != n * n) return false;
  const auto at = [&](int r, int c) { return line[static_cast<std::size_t>(r * n + c)] - '0'; };
  for (int i = 0; i < n; ++i) {
    std::set<int> row, col, box;
    for (int j = 0; j < n; ++j) {
      const int b_r = (i / br) * br + j / bc, b_c = (i % br) * bc + j % bc;  // box i of R×C cells
      if (at(i, j) < 1 || at(i, j) > n) return false;
      row.insert(at(i, j));
      col.insert(at(j, i));
      box.insert(at(b_r, b_c));
    }
    if (row.size() != static_cast<std::size_t>(n) || col.size() != static_cast<std::size_t>(n) ||
        box.size() != static_cast<std::size_t>(n))
      return false;
  }
  for (std::size_t k = 0; k < clues.size(); ++k)
    if (clues[k] >= '1' && clues[k] <= '9' && clues[k] != line[k]) return false;
  return true;
}

class List : public ::testing::Test {
protected:
  void TearDown() override {
    for (const auto& f : files_) std::remove(f.c_str());
  }
  std::string file(const std::string& stem) {
    files_.push_back("/tmp/pcount-list-" + stem + "-" + std::to_string(::getpid()));
    std::remove(files_.back().c_str());
    return files_.back();
  }
  /// The listing of `args --list`: the same bytes for --threads 1, 2 and 7
  /// and for three shards merged; returned once.
  std::string same_everywhere(std::vector<std::string> args) {
    args.emplace_back("--list");
    auto with = [&args](std::vector<std::string> more) {
      std::vector<std::string> a = args;
      a.insert(a.end(), more.begin(), more.end());
      return a;
    };
    const CommandResult one = run_count(with({"--threads", "1", "-q"}));
    EXPECT_EQ(one.status, 0) << one.err;
    for (const std::string t : {"2", "7"}) {
      const CommandResult r = run_count(with({"--threads", t, "-q"}));
      EXPECT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(r.out, one.out) << "--threads " << t;
    }
    std::vector<std::string> merge{"merge"};
    for (const std::string i : {"0", "1", "2"}) {
      merge.push_back(file("shard" + i));
      const CommandResult r = run_count(with({"--shard", i + "/3", "--out", merge.back(), "--threads", "2", "-q"}));
      EXPECT_EQ(r.status, 0) << r.err;
    }
    const CommandResult m = run_count(merge);
    EXPECT_EQ(m.status, 0) << m.err;
    EXPECT_EQ(m.out, one.out) << "merged shards";
    return one.out;
  }
  std::vector<std::string> files_;
};

TEST_F(List, OutWithoutShardsNotesThatTheListingIsOnStdout) {
  // --out (a result file for merge) where --output (the objects) was likely meant.
  const std::string out = file("out-not-output");
  const CommandResult r = run_count({"--queens", "6", "--list", "--out", out, "--threads", "2"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 4);  // Q(6) = 4, on stdout
  EXPECT_NE(r.err.find("count: note: --out " + out + " is the run's result file for count merge"), std::string::npos)
      << r.err;
  const CommandResult quiet = run_count({"--queens", "6", "--list", "--out", out, "--threads", "2", "-q"});
  EXPECT_EQ(quiet.err, "");
}

TEST_F(List, QueensEightGivesThe92SolutionsEverywhereAlike) {
  const std::string out = same_everywhere({"--queens", "8"});
  const auto lines = lines_of(out);
  ASSERT_EQ(lines.size(), 92u);  // OEIS A000170
  EXPECT_EQ(lines.front(), "1 5 8 6 3 7 2 4");
  EXPECT_EQ(std::set<std::string>(lines.begin(), lines.end()).size(), 92u);
  for (const auto& l : lines) {
    const auto cols = queens_line(l);
    EXPECT_EQ(cols.size(), 8u) << l;
    EXPECT_TRUE(valid_queens(cols)) << l;
  }
  // The report goes to stderr; with --json each line is an object.
  const CommandResult r = run_count({"--queens", "8", "--list", "--json", "--threads", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto json_lines = lines_of(r.out);
  ASSERT_EQ(json_lines.size(), 92u);
  EXPECT_EQ(nlohmann::json::parse(json_lines[0])["columns"], nlohmann::json({1, 5, 8, 6, 3, 7, 2, 4}));
  EXPECT_EQ(nlohmann::json::parse(r.err)["counts"]["all"], "92");
  // Larger boards list search solutions (the default method would be constellations).
  EXPECT_EQ(lines_of(run_count({"--queens", "10", "--list", "-q"}).out).size(), 724u);  // A000170
}

TEST_F(List, LatinFiveGivesThe56ReducedSquaresEverywhereAlike) {
  const std::string out = same_everywhere({"--latin", "5"});
  const auto lines = lines_of(out);
  ASSERT_EQ(lines.size(), 56u);  // R(5), OEIS A000315
  EXPECT_EQ(std::set<std::string>(lines.begin(), lines.end()).size(), 56u);
  for (const auto& l : lines) {
    const auto rows = words_of(l);
    EXPECT_EQ(rows.size(), 5u) << l;
    EXPECT_TRUE(valid_reduced_latin(rows, 5)) << l;
  }
  const auto four = lines_of(run_count({"--latin", "4", "--list", "-q"}).out);
  ASSERT_EQ(four.size(), 4u);  // R(4)
  EXPECT_EQ(four.front(), "1234 2143 3412 4321");
  const CommandResult j = run_count({"--latin", "4", "--list", "--json", "-q"});
  EXPECT_EQ(nlohmann::json::parse(lines_of(j.out).front())["rows"],
            nlohmann::json({"1234", "2143", "3412", "4321"}));
  // Orders above 9 use letters: the first of order 11 is still valid.
  const auto big = lines_of(run_count({"--latin", "11", "--list", "1"}).out);
  ASSERT_EQ(big.size(), 1u);
  EXPECT_TRUE(valid_reduced_latin(words_of(big[0]), 11)) << big[0];
}

TEST_F(List, SudokuTwoByTwoGivesThe288GridsEverywhereAlike) {
  const std::string out = same_everywhere({"--sudoku", "2x2"});
  const auto lines = lines_of(out);
  ASSERT_EQ(lines.size(), 288u);  // every 4×4 sudoku grid
  EXPECT_EQ(std::set<std::string>(lines.begin(), lines.end()).size(), 288u);
  for (const auto& l : lines) EXPECT_TRUE(valid_sudoku(l, 2, 2)) << l;
  // The first grids of 2x3 (28,200,960 in all) are valid and distinct.
  const auto six = lines_of(run_count({"--sudoku", "2x3", "--list", "200", "--threads", "2"}).out);
  ASSERT_EQ(six.size(), 200u);
  EXPECT_EQ(std::set<std::string>(six.begin(), six.end()).size(), 200u);
  for (const auto& l : six) EXPECT_TRUE(valid_sudoku(l, 2, 3)) << l;
  const CommandResult bands = run_count({"--sudoku", "2x2", "--list", "--method", "bands"});
  EXPECT_EQ(bands.status, 2);
  EXPECT_NE(bands.err.find("--list"), std::string::npos) << bands.err;
}

TEST_F(List, PuzzleSolutionsMatchTheCount) {
  // A 4×4 puzzle with several solutions: the listing has as many lines as
  // the count says, each a valid grid keeping the clues.
  const std::string p = "1..." "...." "...." "...4";
  const CommandResult count = run_count({"--puzzle", p, "--box", "2x2", "--json"});
  ASSERT_EQ(count.status, 0) << count.err;
  const std::string n = nlohmann::json::parse(count.out)["counts"]["solutions"];
  const CommandResult list = run_count({"--puzzle", p, "--box", "2x2", "--list", "--json", "--threads", "2"});
  ASSERT_EQ(list.status, 0) << list.err;
  const auto lines = lines_of(list.out);
  EXPECT_EQ(std::to_string(lines.size()), n);
  EXPECT_EQ(nlohmann::json::parse(list.err)["counts"]["solutions"], n);
  EXPECT_EQ(std::set<std::string>(lines.begin(), lines.end()).size(), lines.size());
  for (const auto& l : lines) {
    const std::string grid = nlohmann::json::parse(l)["grid"];
    EXPECT_TRUE(valid_sudoku(grid, 2, 2, p)) << grid;
  }
}

TEST_F(List, FirstKLinesAreThePrefixOfTheWholeList) {
  const CommandResult all = run_count({"--queens", "8", "--list", "-q"});
  const auto lines = lines_of(all.out);
  const CommandResult ten = run_count({"--queens", "8", "--list", "10", "--threads", "7"});
  ASSERT_EQ(ten.status, 0) << ten.err;
  EXPECT_EQ(lines_of(ten.out), std::vector<std::string>(lines.begin(), lines.begin() + 10));
  EXPECT_NE(ten.err.find("--list 10"), std::string::npos) << ten.err;
  const CommandResult eq = run_count({"--queens", "8", "--list=10", "--threads", "1"});
  EXPECT_EQ(eq.out, ten.out);
  // More than there are: all, and the report.
  const CommandResult more = run_count({"--queens", "6", "--list", "100"});
  EXPECT_EQ(more.status, 0);
  EXPECT_EQ(lines_of(more.out).size(), 4u);
  EXPECT_NE(more.err.find("all           4"), std::string::npos) << more.err;
}

/// Plain check of a Kirkman line "ABC DEF GHI JKL MNO | … | …": 7 days, each
/// 5 rows of 3 girls A..O covering all 15, every pair of girls in one row once.
bool valid_kirkman(const std::string& line) {
  std::vector<std::string> days;
  std::string day;
  std::istringstream in(line);
  for (std::string w; in >> w;) {
    if (w == "|") {
      days.push_back(day);
      day.clear();
    } else {
      day += (day.empty() ? "" : " ") + w;
    }
  }
  days.push_back(day);
  if (days.size() != 7) return false;
  std::set<std::pair<char, char>> pairs;
  for (const auto& d : days) {
    const auto rows = words_of(d);
    if (rows.size() != 5) return false;
    std::set<char> girls;
    for (const auto& r : rows) {
      if (r.size() != 3) return false;
      for (char g : r)
        if (g < 'A' || g > 'O' || !girls.insert(g).second) return false;
      for (int a = 0; a < 3; ++a)
        for (int b = a + 1; b < 3; ++b)
          if (!pairs.emplace(std::min(r[a], r[b]), std::max(r[a], r[b])).second) return false;
    }
  }
  return pairs.size() == 105;  // C(15, 2)
}

TEST_F(List, KirkmanFirstSolutionsAreValidAndTheSameForAnyThreads) {
  const CommandResult one = run_count({"--kirkman", "--list", "6", "--threads", "1"});
  ASSERT_EQ(one.status, 0) << one.err;
  const auto lines = lines_of(one.out);
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(std::set<std::string>(lines.begin(), lines.end()).size(), 6u);
  for (const auto& l : lines) {
    EXPECT_EQ(l.rfind("ABC DEF GHI JKL MNO | ", 0), 0u) << l;
    EXPECT_TRUE(valid_kirkman(l)) << l;
  }
  EXPECT_EQ(run_count({"--kirkman", "--list", "6", "--threads", "7"}).out, one.out);
  const CommandResult j = run_count({"--kirkman", "--list", "1", "--json", "--threads", "2"});
  ASSERT_EQ(j.status, 0) << j.err;
  EXPECT_EQ(nlohmann::json::parse(j.out)["days"].size(), 7u);
  for (const auto& args : {std::vector<std::string>{"--kirkman", "--find", "--list"},
                           std::vector<std::string>{"--kirkman", "--list", "--method", "orbits"}}) {
    const CommandResult r = run_count(args);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
}

TEST_F(List, BadListArgumentsExitTwoNamingList) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--queens", "8", "--list", "0"}, {"--queens", "8", "--list", "x"},
        {"--queens", "8", "--list", "--method", "constellations"},
        {"--queens", "8", "--list", "5", "--shard", "0/2"}, {"--tictactoe", "--list"}}) {
    const CommandResult r = run_count(args);
    EXPECT_EQ(r.status, 2) << args[2] << " " << r.err;
    EXPECT_NE(r.err.find("--list"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

}  // namespace
}  // namespace pcount::test
