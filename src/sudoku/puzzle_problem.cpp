// The `--puzzle P` and `--puzzle-file F` problems: solve and count sudoku puzzles.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "pcount/sudoku/problem.hpp"
#include "pcount/sudoku/puzzle.hpp"
#include "pcount/sudoku/solver.hpp"

namespace pcount::sudoku {

using namespace driver;

namespace {

constexpr long long kMaxLimit = std::numeric_limits<long long>::max();

Shape read_shape(const Invocation& inv) {
  Shape shape;
  if (auto box = inv.value("box")) {
    const auto [r, c] = parse_box("--box", *box, kMaxSide);
    shape = Shape{r, c};
    check_shape(shape, "--box");
  }
  return shape;
}

std::uint64_t read_limit(const Invocation& inv, std::uint64_t fallback) {
  if (auto text = inv.value("limit")) return static_cast<std::uint64_t>(parse_int("--limit", *text, 0, kMaxLimit));
  return fallback;
}

Kernel read_kernel(const Invocation& inv) {
  const std::string m = choose_method(inv, {"auto", "fast9", "general"}, "auto");
  if (m == "fast9") return Kernel::fast9;
  if (m == "general") return Kernel::general;
  return Kernel::automatic;
}

std::string shape_name(const Shape& s) {
  return std::to_string(s.box_rows) + "x" + std::to_string(s.box_cols);
}

/// One puzzle line of a file and what became of it.
struct LineResult {
  std::size_t line = 0;
  std::string text;
  bool bad = false;  ///< `out` is the error message
  int kind = 0;      ///< 0 no solution, 1 unique, 2 several (or stopped at the limit)
  std::string out;   ///< the result line (with '\n'), or the error message
};

/// Parses, solves and formats one line (runs on a worker thread).
void solve_line(LineResult& r, const Shape& shape, std::uint64_t limit, Kernel kernel, bool json) {
  Puzzle p;
  try {
    p = parse_puzzle(r.text, shape, "--puzzle-file");
  } catch (const InvalidArgument& e) {
    r.bad = true;
    r.out = e.what();
    return;
  }
  const SolveResult res = solve(p, limit, kernel);
  if (!res.first.empty() && !is_solution(p, res.first))
    throw InternalError("puzzle-file: the solver returned a grid that breaks the rules (line " +
                        std::to_string(r.line) + ")");
  const std::uint64_t k = res.solutions;
  r.kind = k == 0 ? 0 : (k == 1 && !res.limit_reached) ? 1 : 2;
  const std::string sol = res.first.empty() ? std::string() : to_line(res.first);
  if (json) {
    nlohmann::ordered_json j;
    j["line"] = r.line;
    j["puzzle"] = to_line(p.cells);
    j["solutions"] = std::to_string(k);
    j["limit_reached"] = res.limit_reached;
    j["solution"] = sol.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(sol);
    r.out = j.dump();
  } else {
    r.out = std::to_string(r.line);
    r.out += ' ';
    r.out += std::to_string(k);
    if (res.limit_reached) r.out += '+';
    r.out += ' ';
    r.out += sol.empty() ? std::string("-") : sol;
  }
  r.out += '\n';
}

/// Longest line --puzzle-file reads (a 16×16 puzzle has 256 cells; this
/// leaves room for spaces and a comment). A longer line — or a stream with no
/// line ends at all, such as /dev/zero — stops the reading there, so memory
/// stays bounded.
constexpr std::size_t kMaxPuzzleLine = 4096;

enum class LineRead { ok, end, too_long };

/// std::getline with a length limit: reads up to '\n' (dropped) or the end.
LineRead read_line(std::istream& in, std::string& line) {
  line.clear();
  std::streambuf* buf = in.rdbuf();
  for (;;) {
    const int c = buf->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      return line.empty() ? LineRead::end : LineRead::ok;
    }
    if (c == '\n') return LineRead::ok;
    if (line.size() == kMaxPuzzleLine) return LineRead::too_long;
    line.push_back(static_cast<char>(c));
  }
}

bool blank_or_comment(const std::string& line) {
  for (char ch : line) {
    if (ch == ' ' || ch == '\t' || ch == '\r') continue;
    return ch == '#';
  }
  return true;
}

void add_puzzle_options(po::options_description& d) {
  d.add_options()
      ("box", po::value<std::string>()->value_name("RxC"),
       "box shape of the puzzle(s), R·C ≤ 16 (e.g. 2x3 for 36 cells); default 3x3")
      ("limit", po::value<std::string>()->value_name("K"),
       "stop counting at K solutions (0 = no limit); default: no limit for --puzzle, 2 for --puzzle-file");
}

Plan plan_puzzle(const Invocation& inv) {
  const Shape shape = read_shape(inv);
  const std::uint64_t limit = read_limit(inv, 0);
  const Kernel kernel = read_kernel(inv);
  if (kernel == Kernel::fast9 && !(shape == Shape{3, 3}))
    throw InvalidArgument("--method", "fast9 needs 3x3 boxes, got --box " + shape_name(shape));
  const Puzzle puzzle = parse_puzzle(*inv.value("puzzle"), shape, "--puzzle");

  // The first solution in search order, sequentially; the count in parallel.
  auto first = std::make_shared<const SolveResult>(solve(puzzle, 1, kernel));
  CountJobOptions options;
  options.limit = limit;
  options.kernel = kernel;
  options.split_depth = inv.common.split_depth.value_or(-1);
  options.min_tasks = 64 * static_cast<std::size_t>(inv.common.threads);  // subtrees vary a lot in size
  options.fingerprint_prefix = "pcount/" + std::string(version());
  Plan plan;
  plan.job = make_count_job(puzzle, options);
  plan.report = [&inv, shape, limit, kernel, puzzle, first](const engine::RunResult& result) {
    u128 count = result.totals.counts[0];
    const bool limit_reached = limit != 0 && count >= limit;
    if (limit_reached) count = limit;
    if ((count == 0) != first->first.empty())
      throw InternalError("puzzle: the count (" + to_string(count) + ") and the first solution search disagree");
    if (!first->first.empty() && !is_solution(puzzle, first->first))
      throw InternalError("puzzle: the solver returned a grid that breaks the rules");

    const int n = shape.side();
    Report report;
    report.problem = "puzzle";
    report.title = "solutions of a " + std::to_string(n) + "×" + std::to_string(n) + " sudoku puzzle (" +
                   shape_name(shape) + " boxes)";
    report.params["box"] = shape_name(shape);
    report.params["puzzle"] = to_line(puzzle.cells);
    report.params["limit"] = limit;
    report.method = std::string("search (") +
                    (kernel == Kernel::automatic ? (n == 9 && shape.box_rows == 3 ? "fast9" : "general")
                                                 : kernel_name(kernel)) +
                    ")";
    report.counts.emplace_back("solutions", to_string(count));
    report.extra["limit_reached"] = limit_reached;
    report.extra["solution"] = first->first.empty() ? nlohmann::ordered_json(nullptr)
                                                    : nlohmann::ordered_json(to_line(first->first));
    if (!inv.common.json && !first->first.empty()) report.text_after = "first solution:\n" + to_grid(first->first, shape);
    return report;
  };
  return plan;
}

int run_puzzle_file(const Invocation& inv) {
  const Shape shape = read_shape(inv);
  const std::uint64_t limit = read_limit(inv, 2);
  const Kernel kernel = read_kernel(inv);
  if (kernel == Kernel::fast9 && !(shape == Shape{3, 3}))
    throw InvalidArgument("--method", "fast9 needs 3x3 boxes, got --box " + shape_name(shape));
  if (inv.common.split_depth)
    throw InvalidArgument("--split-depth", "does not apply to --puzzle-file: each puzzle is one sequential task");
  const std::string path = *inv.value("puzzle-file");
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {  // checked readable (and not a directory) by driver::main before the run
    file.open(path);
    if (!file) throw InvalidArgument("--puzzle-file", "cannot open '" + path + "' for reading");
    in = &file;
  }

  const auto t0 = std::chrono::steady_clock::now();
  const int threads = inv.common.threads;
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  tbb::task_arena arena(threads);
  constexpr std::size_t kChunk = 16384;  // puzzles read, solved and printed at a time
  std::vector<LineResult> chunk;
  chunk.reserve(kChunk);
  std::size_t line_no = 0, solved = 0, unique = 0, none = 0, several = 0, bad = 0;
  std::string line;
  bool more = true;
  bool too_long = false;
  while (more) {
    chunk.clear();
    while (chunk.size() < kChunk) {
      const LineRead got = read_line(*in, line);
      more = got == LineRead::ok;
      too_long = got == LineRead::too_long;
      if (!more) break;
      ++line_no;
      if (blank_or_comment(line)) continue;
      LineResult r;
      r.line = line_no;
      r.text = line;
      chunk.push_back(std::move(r));
    }
    if (in->bad()) throw std::runtime_error("reading '" + path + "' failed");
    arena.execute([&] {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, chunk.size(), 16),
                        [&](const tbb::blocked_range<std::size_t>& range) {
                          for (std::size_t i = range.begin(); i != range.end(); ++i)
                            solve_line(chunk[i], shape, limit, kernel, inv.common.json);
                        });
    });
    std::string out;
    out.reserve(chunk.size() * (inv.common.json ? 260 : 100));
    for (const LineResult& r : chunk) {
      if (r.bad) {
        ++bad;
        if (!out.empty()) {  // keep stdout and stderr in input order on a terminal
          inv.out << out;
          out.clear();
        }
        inv.out.flush();
        inv.err << inv.session.program << ": --puzzle-file: line " << r.line << ": " << r.out << '\n';
        continue;
      }
      ++solved;
      if (r.kind == 0) ++none;
      else if (r.kind == 1) ++unique;
      else ++several;
      out += r.out;
    }
    inv.out << out;
  }
  inv.out.flush();
  if (too_long) {
    inv.err << inv.session.program << ": --puzzle-file: line " << line_no + 1 << ": longer than " << kMaxPuzzleLine
            << " characters; stopped reading '" << path << "' there (is it a file of puzzles, one per line?)\n";
    ++bad;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!inv.common.quiet) {
    std::ostringstream s;
    s << "puzzles: " << solved << " solved (" << unique << " unique, " << none << " without solution, " << several
      << " with " << (limit == 1 ? "1 or more" : "several") << "), " << bad << " bad line" << (bad == 1 ? "" : "s")
      << "; " << std::fixed << std::setprecision(3) << wall << " s, " << std::setprecision(0)
      << (wall > 0 ? static_cast<double>(solved) / wall : 0.0) << " puzzles/s, " << threads << " thread"
      << (threads == 1 ? "" : "s") << '\n';
    inv.err << s.str();
  }
  return bad ? 1 : 0;
}

}  // namespace

constexpr ParameterOption kPuzzleParameters[] = {{"box_shape", "--box"}, {"puzzle", "--puzzle"}};
constexpr ParameterOption kFileParameters[] = {{"box_shape", "--box"}, {"puzzle", "--puzzle-file"}};

std::span<const Problem> puzzle_problems() {
  static const Problem table[] = {
      {"puzzle", "P", "solutions of one sudoku puzzle (81 cells, '.' or 0 for a blank)", "puzzle",
       add_puzzle_options, "auto|fast9|general", plan_puzzle, nullptr, kPuzzleParameters},
      {"puzzle-file", "F", "solve every puzzle of file F (one per line, '-' = stdin)", "puzzle", nullptr,
       "auto|fast9|general", nullptr, run_puzzle_file, kFileParameters},
  };
  return table;
}

}  // namespace pcount::sudoku
