// The `--puzzle P` and `--puzzle-file F` problems: solve and count sudoku puzzles.
#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <functional>
#include <memory>
#include <random>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <signal.h>
#include <unistd.h>

#include "pcount/engine/estimate.hpp"
#include "pcount/engine/files.hpp"
#include "pcount/engine/hash.hpp"
#include "pcount/sudoku/list.hpp"
#include "pcount/problems/sudoku.hpp"
#include "pcount/sudoku/puzzle.hpp"
#include "pcount/sudoku/solver.hpp"

namespace pcount::sudoku {

using namespace driver;

namespace {

constexpr long long kMaxLimit = std::numeric_limits<long long>::max();

std::string shape_name(const BoxShape& s) { return std::to_string(s.rows) + "x" + std::to_string(s.cols); }

/// --box RxC (default 3x3), declared as "box=RxC".
BoxShape declare_shape(const Invocation& inv, Params& params, Params::Written written) {
  BoxShape shape;
  if (auto box = inv.value("box")) {
    const auto [r, c] = parse_box("--box", *box, kMaxSide);
    shape = BoxShape{r, c};
    check_shape(shape, "--box");
  }
  params.record("box", shape_name(shape), written);
  return shape;
}

/// --limit L (0 = count all; default `fallback`), declared as "limit=L".
std::uint64_t declare_limit(Params& params, long long fallback, Params::Written written) {
  return static_cast<std::uint64_t>(params.integer("--limit", "limit", 0, kMaxLimit, fallback, written));
}

/// The --method values of the puzzle problems: the CLI kernels of the table.
std::vector<std::string> kernel_names() {
  std::vector<std::string> names;
  for (const KernelInfo& k : kernels())
    if (k.cli) names.emplace_back(k.name);
  return names;
}

/// The kernel --method named (`method`, one of kernel_names()) for boxes of
/// `shape`: fast9 and simd9 need 3x3 boxes, and a bad PCOUNT_SIMD is refused
/// here, before any work, when simd9 may run. Throws InvalidArgument.
Kernel check_kernel(const std::string& method, const BoxShape& shape) {
  const Kernel kernel = *kernel_by_name(method);
  if (kernel_info(kernel).nine && !(shape == BoxShape{3, 3}))
    throw InvalidArgument("--method",
                          std::string(kernel_name(kernel)) + " needs 3x3 boxes, got --box " + shape_name(shape));
  if (shape == BoxShape{3, 3} && (kernel == Kernel::automatic || kernel == Kernel::simd9)) (void)simd_path();
  return kernel;
}

/// The --method list of the puzzle problems' help: the CLI kernels of the
/// table, "|"-separated.
const char* kernel_methods() {
  static const std::string text = [] {
    std::string t;
    for (const KernelInfo& k : kernels())
      if (k.cli) t += (t.empty() ? "" : "|") + std::string(k.name);
    return t;
  }();
  return text.c_str();
}

/// One puzzle line of a file and what became of it.
struct LineResult {
  std::size_t line = 0;
  std::string_view text;
  bool bad = false;         ///< `out` is the error message
  int kind = 0;             ///< 0 no solution, 1 unique, 2 several (or stopped at the limit)
  std::string out;          ///< the result line (with '\n'), or the error message
  std::uint64_t nodes = 0;  ///< search nodes of the solve
};

/// Row, column and box of each cell of a 9×9 grid.
struct Units9 {
  std::uint8_t row[81], col[81], box[81];
};
constexpr Units9 kUnits9 = [] {
  Units9 u{};
  for (int i = 0; i < 81; ++i) {
    u.row[i] = static_cast<std::uint8_t>(i / 9);
    u.col[i] = static_cast<std::uint8_t>(i % 9);
    u.box[i] = static_cast<std::uint8_t>((i / 27) * 3 + (i % 9) / 3);
  }
  return u;
}();

/// A line of exactly 81 characters '1'-'9', '.' or '0' (then only
/// whitespace, such as the '\r' of a CRLF file) read into `cells`; false for
/// anything else (parse_puzzle then reads the line and names what is
/// wrong). Three whole 32-byte vectors over the line padded with '0': the
/// compiler's own vectorisation of a loop over the 81 characters left 17 of
/// them to a scalar tail (265 instructions a line, 1.2 % of the serg set's,
/// callgrind, x86-64-v3). Repeated clues are not looked for here: such a
/// puzzle has no solution, and only a line the solver finds no solution for
/// is checked for them (has_repeated_clue9), so the common case pays
/// nothing for it.
[[gnu::noinline]] bool read_plain9(std::string_view text, std::uint8_t* cells) {
  while (!text.empty() && (text.back() == '\r' || text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  if (text.size() != 81) return false;
  typedef std::uint8_t B32 __attribute__((vector_size(32)));
  std::uint8_t in[96], out[96];
  std::memset(in + 64, '0', 32);
  std::memcpy(in, text.data(), 81);
  B32 bad{};
  for (int i = 0; i < 96; i += 32) {
    B32 ch;
    std::memcpy(&ch, in + i, sizeof ch);
    const B32 v = ch - '0';
    const auto dot = reinterpret_cast<B32>(ch == '.');
    bad |= reinterpret_cast<B32>(v > 9) & ~dot;
    const B32 cell = v & ~dot;
    std::memcpy(out + i, &cell, sizeof cell);
  }
  std::memcpy(cells, out, 81);
  std::uint64_t w[4];
  std::memcpy(w, &bad, sizeof w);
  return (w[0] | w[1] | w[2] | w[3]) == 0;
}

/// Whether a clue of `cells` (81 values, 0 = blank) repeats in a row,
/// column or box.
bool has_repeated_clue9(const std::uint8_t* cells) {
  std::uint16_t row[9] = {}, col[9] = {}, box[9] = {};
  for (int i = 0; i < 81; ++i) {
    if (!cells[i]) continue;
    const auto bit = static_cast<std::uint16_t>(1u << cells[i]);
    const int r = kUnits9.row[i], c = kUnits9.col[i], b = kUnits9.box[i];
    if ((row[r] | col[c] | box[b]) & bit) return true;
    row[r] |= bit;
    col[c] |= bit;
    box[b] |= bit;
  }
  return false;
}

/// Appends the result of a 9×9 solve to `out`: the text line "LINE
/// COUNT[+] GRID|-", or with `json` the JSON Lines record
/// {"line":L,"puzzle":P,"solutions":"K","limit_reached":B,"solution":S|null}
/// that solve_line builds with nlohmann::json for other shapes, byte for
/// byte (both strings hold only '1'-'9' and '.', which need no escaping;
/// PuzzleCli.JsonLinesOfTheFastPathEqualTheLibrarysRecords compares them).
[[gnu::noinline]] void format_line9(std::size_t line, const Solve9Result& res, const std::uint8_t* cells,
                                    const std::uint8_t* first, bool json, std::string& out) {
  char buf[320];
  char* at = buf;
  const auto put = [&at](std::string_view s) { at = std::copy(s.begin(), s.end(), at); };
  const auto put_grid = [&at](const std::uint8_t* g) {
    for (int i = 0; i < 81; ++i) at[i] = g[i] ? static_cast<char>('0' + g[i]) : '.';
    at += 81;
  };
  if (json) put("{\"line\":");
  at = std::to_chars(at, at + 24, line).ptr;
  if (json) {
    put(",\"puzzle\":\"");
    put_grid(cells);
    put("\",\"solutions\":\"");
  } else {
    *at++ = ' ';
  }
  at = std::to_chars(at, at + 24, res.solutions).ptr;
  if (json) {
    put(res.limit_reached ? "\",\"limit_reached\":true,\"solution\":" : "\",\"limit_reached\":false,\"solution\":");
    if (res.solutions == 0) {
      put("null}");
    } else {
      *at++ = '"';
      put_grid(first);
      put("\"}");
    }
  } else {
    if (res.limit_reached) *at++ = '+';
    *at++ = ' ';
    if (res.solutions == 0)
      *at++ = '-';
    else
      put_grid(first);
  }
  *at++ = '\n';
  out.append(buf, static_cast<std::size_t>(at - buf));
}

/// The 9×9 path of solve_line: no allocation per puzzle; the result line
/// (text or JSON) is appended to `out`. False when the line is not a plain
/// 81-character puzzle (the general path takes it).
bool solve_line9(LineResult& r, std::uint64_t limit, Kernel kernel, bool json, std::string& out) {
  std::uint8_t cells[81], first[81];
  if (!read_plain9(r.text, cells)) return false;
  const Solve9Result res = solve9(cells, limit, kernel, first);
  const bool valid = res.solutions == 0 || is_solution9(cells, first);
  // A repeated clue: the general path names it (a bad line).
  if ((res.solutions == 0 || !valid) && has_repeated_clue9(cells)) return false;
  if (!valid)
    throw InternalError("puzzle-file: the solver returned a grid that breaks the rules (line " +
                        std::to_string(r.line) + ")");
  r.nodes = res.nodes;
  r.kind = res.solutions == 0 ? 0 : (res.solutions == 1 && !res.limit_reached) ? 1 : 2;
  format_line9(r.line, res, cells, first, json, out);
  return true;
}

/// Parses, solves and formats one line (runs in an engine task).
void solve_line(LineResult& r, const BoxShape& shape, std::uint64_t limit, Kernel kernel, bool json) {
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
  r.nodes = res.nodes;
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

bool blank_or_comment(std::string_view line) {
  for (char ch : line) {
    if (ch == ' ' || ch == '\t' || ch == '\r') continue;
    return ch == '#';
  }
  return true;
}

void add_puzzle_options(po::options_description& d) {
  d.add_options()("box", po::value<std::string>()->value_name("RxC"),
                  "box shape of the puzzle(s), R·C ≤ 16 (e.g. 2x3 for 36 cells); default 3x3")(
      "limit", po::value<std::string>()->value_name("K"),
      "stop counting at K solutions (0 = no limit); default: no limit for --puzzle, 2 for --puzzle-file");
}

/// `--puzzle P --list`: every solution, one line each (sudoku/list.hpp).
/// The start of a --puzzle report: problem, title and parameters.
Report puzzle_report(const BoxShape& shape, const Puzzle& puzzle) {
  const int n = shape.side();
  Report report;
  report.problem = "puzzle";
  report.title = "solutions of a " + std::to_string(n) + "×" + std::to_string(n) + " sudoku puzzle (" +
                 shape_name(shape) + " boxes)";
  report.params["box"] = shape_name(shape);
  report.params["puzzle"] = to_line(puzzle.cells);
  return report;
}

Plan plan_puzzle_list(const Invocation& inv) {
  Params params(inv);
  const BoxShape shape = declare_shape(inv, params, Params::by_params);
  if (inv.has("limit")) throw InvalidArgument("--limit", "does not apply with --list (use --list K)");
  if (!inv.common.method.empty())
    throw InvalidArgument("--method", "does not apply with --list (it lists with a plain search of its own)");
  // The puzzle is the fingerprint's bare word after the box, as listings
  // were fingerprinted before Params.
  const Puzzle puzzle = parse_puzzle(*inv.value("puzzle"), shape, "--puzzle");
  ListJobOptions options;
  options.split_depth = inv.common.split_depth.value_or(-1);
  options.min_tasks = auto_split_min_tasks(inv);
  options.json = list_json(inv);
  options.limit = inv.common.list_limit;
  options.fingerprint = params.fingerprint("puzzle").flag(to_line(puzzle.cells)).flag("list-solutions");
  Plan plan;
  plan.job = make_grid_list_job(shape, puzzle.cells, options);
  plan.job.fingerprint += list_fingerprint(inv);
  plan.report = [shape, puzzle](const engine::RunResult& result) {
    Report report = puzzle_report(shape, puzzle);
    report.method = "search (listing every solution)";
    report.counts.emplace_back("solutions", to_string(result.totals.counts[0]));
    return report;
  };
  return plan;
}

/// "search (K)", K the kernel that runs; the simd9 kernel names its
/// instruction-set path ("simd9 avx512").
std::string method_text(const BoxShape& shape, Kernel kernel) {
  if (kernel == Kernel::automatic) kernel = automatic_kernel(shape);
  if (kernel == Kernel::simd9) return std::string("search (simd9 ") + simd_path_name(simd_path()) + ")";
  return std::string("search (") + kernel_name(kernel) + ")";
}

Plan plan_puzzle(const Invocation& inv) {
  if (inv.common.list) return plan_puzzle_list(inv);
  // The count job writes its fingerprint itself (make_count_job: box,
  // cells, limit, the kernel that runs), so its parameters are checked
  // declarations; --method auto names the kernel it chooses there.
  Params params(inv);
  const BoxShape shape = declare_shape(inv, params, Params::checked);
  const std::uint64_t limit = declare_limit(params, 0, Params::checked);
  const Kernel kernel = check_kernel(choose_method(inv, kernel_names(), kernel_name(Kernel::automatic)), shape);
  const Puzzle puzzle = parse_puzzle(*inv.value("puzzle"), shape, "--puzzle");
  params.record("cells", to_line(puzzle.cells), Params::checked);

  // The first solution in search order, sequentially; the count in parallel.
  auto first = std::make_shared<const SolveResult>(solve(puzzle, 1, kernel));
  CountJobOptions options;
  options.limit = limit;
  options.kernel = kernel;
  options.split_depth = inv.common.split_depth.value_or(-1);
  options.min_tasks = 64 * static_cast<std::size_t>(inv.common.threads);  // subtrees vary a lot in size
  options.fingerprint_prefix = fingerprint_prefix();
  options.fingerprint_prefix.pop_back();  // the job adds " puzzle ..."
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

    Report report = puzzle_report(shape, puzzle);
    report.params["limit"] = limit;
    report.method = method_text(shape, kernel);
    report.counts.emplace_back("solutions", to_string(count));
    report.extra["limit_reached"] = limit_reached;
    report.extra["solution"] =
        first->first.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(to_line(first->first));
    if (!inv.common.json && !first->first.empty())
      report.text_after = "first solution:\n" + to_grid(first->first, shape);
    return report;
  };
  return plan;
}

/// Puzzle-file lines per task: task b solves the puzzles on lines
/// 256·b + 1 … 256·b + 256 of the file (stable ids over the file's lines).
constexpr std::size_t kBlock = 256;

/// The job's counters, in this order.
enum Counter : std::size_t { kSolved, kUnique, kNoSolution, kSeveral, kBadLines };

/// Starts a line of a task's text that goes to stderr (a bad line's
/// message) instead of stdout. Result lines never contain it: they are
/// digits, letters, '+', '-', ' ' or JSON of those; messages are printable.
constexpr char kToStderr = '\x01';

struct PuzzleFile {
  engine::InputBytes text;         ///< the bytes read, as read (puzzle lines are ranges of it)
  std::vector<std::size_t> begin;  ///< offset of puzzle line i in `text` (blank and comment lines left out)
  std::vector<std::size_t> end;    ///< offset just past puzzle line i (its '\n' not included)
  std::vector<std::size_t> line;   ///< file line number (from 1) of puzzle line i
  std::size_t lines = 0;           ///< lines read, the overlong one included
  std::size_t too_long = 0;        ///< number of the overlong line where reading stopped, 0 if none
  engine::WordFnv1a64 hash;        ///< of every line read (the overlong one cut at kMaxPuzzleLine), each ended by '\n'

  [[nodiscard]] std::string_view puzzle(std::size_t i) const {
    return std::string_view(text.data() + begin[i], end[i] - begin[i]);
  }
  void add_to_hash(std::string_view bytes) {
    hash.add(bytes);
    hash.add("\n");
  }
};

/// Reads the whole input in blocks into one buffer (sized up front for a
/// regular file: no copy of the text, few page faults), up to an overlong
/// line (so a stream without line ends, such as /dev/zero, stops after
/// about kMaxPuzzleLine characters); throws on a read error.
std::shared_ptr<const PuzzleFile> read_puzzle_file(const std::string& path, const std::string& program) {
  std::ifstream file;
  std::istream* in = &std::cin;
  auto f = std::make_shared<PuzzleFile>();
  bool mapped = false;
  if (path != "-") {  // checked readable (and not a directory) by driver::main before the run
    file.open(path, std::ios::binary);
    if (!file) throw InvalidArgument("--puzzle-file", "cannot open '" + path + "' for reading");
    in = &file;
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && std::filesystem::is_regular_file(path, ec) && size < (std::uintmax_t{1} << 32)) {
      // Mapped rather than read: no copy of the text, no fresh pages to fill.
      const std::string shrunk = program + ": --puzzle-file: '" + printable(path, path.size()) +
                                 "' shrank while it was being read; the results printed are incomplete\n";
      if (f->text.map_file(path, static_cast<std::size_t>(size), shrunk))
        mapped = true;
      else
        f->text.reserve(static_cast<std::size_t>(size) + (std::size_t{1} << 16));  // + the last block read
      f->begin.reserve(static_cast<std::size_t>(size / 82 + 1));
      f->end.reserve(static_cast<std::size_t>(size / 82 + 1));
      f->line.reserve(static_cast<std::size_t>(size / 82 + 1));
    }
  }
  engine::InputBytes& buf = f->text;
  constexpr std::size_t kBlockBytes = std::size_t{1} << 16;
  std::size_t pos = 0;
  bool eof = mapped;          // a mapped file is all there from the start
  bool unterminated = false;  // the last line read had no '\n'
  for (;;) {
    const char* at = buf.data() + pos;
    const std::size_t left = buf.size() - pos;
    const void* nl = left ? std::memchr(at, '\n', left) : nullptr;
    std::size_t length;
    if (nl) {
      length = static_cast<std::size_t>(static_cast<const char*>(nl) - at);
    } else if (left > kMaxPuzzleLine || (eof && left)) {
      length = left;  // an overlong line, or the last line without a line end
    } else if (eof) {
      break;
    } else {
      in->read(buf.grow(kBlockBytes), static_cast<std::streamsize>(kBlockBytes));
      const auto got = static_cast<std::size_t>(in->gcount());
      buf.commit(got);
      if (got == 0) eof = true;
      if (in->bad()) break;
      continue;
    }
    ++f->lines;
    if (length > kMaxPuzzleLine) {
      f->hash.add(std::string_view(buf.data(), pos));  // the lines before, each with its '\n'
      f->add_to_hash(std::string_view(at, kMaxPuzzleLine));
      f->too_long = f->lines;
      break;
    }
    const std::string_view line(at, length);
    if (!blank_or_comment(line)) {
      f->begin.push_back(pos);
      f->end.push_back(pos + length);
      f->line.push_back(f->lines);
    }
    pos += length + (nl ? 1 : 0);
    unterminated = nl == nullptr;
  }
  if (in->bad()) throw std::runtime_error("reading '" + path + "' failed");
  if (!f->too_long) {
    // Every line read, each ended by '\n': the bytes as read, in one pass
    // (a line is the bytes before its '\n'), plus a '\n' for a last line
    // that had none.
    f->hash.add(std::string_view(buf.data(), pos));
    if (unterminated) f->hash.add("\n");
  }
  return f;
}

/// With --limit 0 (every solution of every puzzle counted) a line such as
/// an empty grid can take longer than any run: the job's probe, for the
/// check before the run (driver::check_feasible), is each block's search
/// nodes summed over its lines, each line's from a few Knuth probes of its
/// own count job (4 per line, 32 when the file has under 1000 lines).
std::function<double(std::size_t, std::mt19937_64&)> all_solutions_probe(const PuzzleFile& file, const BoxShape& shape,
                                                                         Kernel kernel, std::size_t blocks) {
  auto nodes = std::make_shared<std::vector<double>>(blocks, 0.0);
  const std::size_t probes = file.line.size() < 1000 ? 32 : 4;
  CountJobOptions options;
  options.split_depth = 0;
  options.kernel = kernel;
  for (std::size_t i = 0; i < file.line.size(); ++i) {
    try {
      const engine::Job one = make_count_job(parse_puzzle(file.puzzle(i), shape, "--puzzle-file"), options);
      if (one.probe) (*nodes)[(file.line[i] - 1) / kBlock] += engine::estimate_job_nodes(one, probes, i).nodes;
    } catch (const std::exception&) {  // a bad line: the run gives its one message, no search
    }
  }
  return [nodes](std::size_t id, std::mt19937_64&) { return (*nodes)[id]; };
}

/// Refuses (exit 2, before any work) a file whose first puzzle is of
/// another size than `shape` gives: its cell count is another square N²
/// (N ≤ kMaxSide), e.g. a 12×12 file read with the default 3x3 boxes,
/// which would otherwise give one "bad character" line per puzzle. Names
/// the --box of the file's header comment ("# ... --box 3x4 ...") when it
/// has one, else the box shapes of an N×N grid.
void check_first_puzzle_size(const PuzzleFile& file, const BoxShape& shape) {
  if (file.begin.empty()) return;
  int cells = 0;
  for (const char ch : file.puzzle(0)) cells += ch != ' ' && ch != '\t' && ch != '\r' && ch != '\v' && ch != '\f';
  int side = 1;
  while ((side + 1) * (side + 1) <= cells) ++side;
  if (cells == shape.cells() || side * side != cells || side > kMaxSide || side < 2) return;
  std::string boxes;
  const std::string_view head(file.text.data(), file.begin[0]);  // the comment and blank lines before it
  if (const auto at = head.find("--box "); at != std::string_view::npos) {
    const std::string_view rest = head.substr(at + 6);
    boxes = "--box " + std::string(rest.substr(0, std::min(rest.find_first_of(" \t\r\n"), std::size_t{5})));
    boxes = "its header says " + printable(boxes, 16);
  } else {
    for (int r = 2; r * r <= side; ++r)
      if (side % r == 0)
        boxes += (boxes.empty() ? "e.g. --box " : " or --box ") + std::to_string(r) + "x" + std::to_string(side / r);
  }
  const std::string n = std::to_string(shape.side());
  throw InvalidArgument("--puzzle-file", "line " + std::to_string(file.line[0]) + " has " + std::to_string(cells) +
                                             " cells, a " + std::to_string(side) + "×" + std::to_string(side) +
                                             " puzzle, not " + n + "×" + n + " (--box " + shape_name(shape) +
                                             "): give the file's box shape with --box RxC" +
                                             (boxes.empty() ? std::string() : " (" + boxes + ")"));
}

/// The task of `--puzzle-file`: block `id` of kBlock file lines, solved in
/// line order into `text` (a bad line's message marked for stderr, kToStderr).
std::function<void(std::size_t, engine::Tally&, std::string&)> puzzle_file_task(std::shared_ptr<const PuzzleFile> file,
                                                                                BoxShape shape, std::uint64_t limit,
                                                                                Kernel kernel, bool json,
                                                                                const std::string& program,
                                                                                const std::string& path) {
  const std::string where = program + ": --puzzle-file: line ";
  const bool nine = shape == BoxShape{3, 3} && kernel != Kernel::general;
  return
      [file, shape, limit, kernel, json, nine, where, path](std::size_t id, engine::Tally& tally, std::string& text) {
        const std::size_t first = id * kBlock + 1;  // file lines first … first + kBlock - 1
        const auto lo = std::lower_bound(file->line.begin(), file->line.end(), first) - file->line.begin();
        const auto hi = std::lower_bound(file->line.begin(), file->line.end(), first + kBlock) - file->line.begin();
        text.reserve(static_cast<std::size_t>(hi - lo) * (json ? 260 : 100));
        LineResult r;
        for (auto i = lo; i < hi; ++i) {
          r.line = file->line[static_cast<std::size_t>(i)];
          r.text = file->puzzle(static_cast<std::size_t>(i));
          r.bad = false;
          if (nine && solve_line9(r, limit, kernel, json, text)) {
            tally.add(kSolved, 1);
            tally.add(r.kind == 0 ? kNoSolution : r.kind == 1 ? kUnique : kSeveral, 1);
            tally.nodes += r.nodes;
            continue;
          }
          solve_line(r, shape, limit, kernel, json);
          if (r.bad) {
            tally.add(kBadLines, 1);
            text += kToStderr;
            text += where + std::to_string(r.line) + ": " + r.out + '\n';
            continue;
          }
          tally.add(kSolved, 1);
          tally.add(r.kind == 0 ? kNoSolution : r.kind == 1 ? kUnique : kSeveral, 1);
          tally.nodes += r.nodes;
          text += r.out;
        }
        if (file->too_long >= first && file->too_long < first + kBlock) {
          tally.add(kBadLines, 1);
          text += kToStderr;
          text += where + std::to_string(file->too_long) + ": longer than " + std::to_string(kMaxPuzzleLine) +
                  " characters; stopped reading '" + printable(path, path.size()) +
                  "' there (is it a file of puzzles, one per line?)\n";
        }
      };
}

/// `--puzzle-file F`: one engine task per block of kBlock file lines; each
/// solves its puzzles and prints their result lines (bad lines: a message
/// on stderr), delivered in line order by the driver (Plan::output), so the
/// output is the same for any --threads. The counts of the summary are the
/// job's counters, so checkpoints, shards and merge work as for any job.
Plan plan_puzzle_file(const Invocation& inv) {
  Params params(inv);
  const BoxShape shape = declare_shape(inv, params, Params::by_params);
  const std::uint64_t limit = declare_limit(params, 2, Params::by_params);
  const Kernel kernel = check_kernel(params.method(kernel_names(), kernel_name(Kernel::automatic)), shape);
  if (inv.common.split_depth)
    throw InvalidArgument("--split-depth", "does not apply to --puzzle-file: each puzzle is one sequential task");
  const std::string path = *inv.value("puzzle-file");

  Plan plan;
  engine::Job& job = plan.job;
  job.counter_names = {"solved", "unique", "no_solution", "several", "bad_lines"};
  params.record("block", std::to_string(kBlock));  // the task list: kBlock file lines a task
  const Fingerprint base = params.fingerprint("puzzle-file");
  const std::string stem = base.str() + " ";  // then lines= and input=, which a merge does not know
  std::size_t lines = 0;
  if (const engine::RunResult* replay = inv.replayed()) {
    // merge: the counts come from the shard files; the input is not read
    // (its identity is in the files' fingerprint, which must match `stem`).
    const std::string found = inv.replayed_fingerprint();
    job.fingerprint = found.rfind(stem, 0) == 0 ? found : stem + "(shard files of another job)";
    job.task_count = replay->tasks_total;
    if (const auto field = engine::fingerprint_field(found, "lines"))
      lines = std::strtoull(field->c_str(), nullptr, 10);
    job.run_task_output = [](std::size_t, engine::Tally&, std::string&) {
      throw InternalError("puzzle-file: a replayed job ran a task");
    };
  } else {
    const std::shared_ptr<const PuzzleFile> file = read_puzzle_file(path, inv.program());
    check_first_puzzle_size(*file, shape);
    lines = file->lines;
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(file->hash.value()));
    job.fingerprint = Fingerprint(base).add("lines", file->lines).add("input", std::string("fnv1a64w:") + hash).str();
    job.task_count = (file->lines + kBlock - 1) / kBlock;
    if (limit == 0) job.probe = all_solutions_probe(*file, shape, kernel, job.task_count);
    job.run_task_output = puzzle_file_task(file, shape, limit, kernel, inv.common.json, inv.program(), path);
  }

  // Result lines to stdout; a bad line's message to stderr at its place.
  plan.output.write = [&inv](std::string_view text, std::ostream& out) {
    std::size_t pos = 0;
    while (pos < text.size()) {
      const std::size_t mark = text.find(kToStderr, pos);
      if (mark == std::string_view::npos) {
        out << text.substr(pos);
        return;
      }
      out << text.substr(pos, mark - pos);
      out.flush();  // keep stdout and stderr in input order on a terminal
      const std::size_t end = std::min(text.find('\n', mark), text.size() - 1);
      inv.err << text.substr(mark + 1, end - mark) << std::flush;
      pos = end + 1;
    }
  };
  plan.output.resumed_note = [checkpoint = inv.common.checkpoint](const engine::Tally& done, std::size_t tasks) {
    return "--checkpoint " + checkpoint + ": " + to_string(done.counts[kSolved] + done.counts[kBadLines]) +
           " puzzle lines (" + std::to_string(tasks) + " blocks of " + std::to_string(kBlock) +
           " file lines) were done by earlier runs; their results are not printed again";
  };
  plan.report = [shape, limit, kernel, lines](const engine::RunResult& result) {
    const auto& c = result.totals.counts;
    if (c[kSolved] != c[kUnique] + c[kNoSolution] + c[kSeveral])
      throw InternalError("puzzle-file: " + to_string(c[kSolved]) + " puzzles solved but " +
                          to_string(c[kUnique] + c[kNoSolution] + c[kSeveral]) + " classified");
    Report report;
    report.problem = "puzzle-file";
    report.title = "sudoku puzzles of a file, one per line (" + std::to_string(shape.side()) + "×" +
                   std::to_string(shape.side()) + ", " + shape_name(shape) + " boxes)";
    report.params["box"] = shape_name(shape);
    report.params["limit"] = limit;
    report.method = method_text(shape, kernel);
    report.counts.emplace_back("solved", to_string(c[kSolved]));
    report.counts.emplace_back("unique", to_string(c[kUnique]));
    report.counts.emplace_back("no_solution", to_string(c[kNoSolution]));
    report.counts.emplace_back(limit == 1 ? "one_or_more" : "several", to_string(c[kSeveral]));
    report.counts.emplace_back("bad_lines", to_string(c[kBadLines]));
    report.extra["lines"] = lines;
    report.status = c[kBadLines] != 0 ? 1 : 0;
    return report;
  };
  return plan;
}

}  // namespace

constexpr ParameterOption kPuzzleParameters[] = {{"box_shape", "--box"}, {"puzzle", "--puzzle"}};
constexpr ParameterOption kFileParameters[] = {{"box_shape", "--box"}, {"puzzle", "--puzzle-file"}};

std::span<const Problem> puzzle_problems() {
  static const Problem table[] = {
      {.option = "puzzle",
       .value_name = "P",
       .help = "solutions of one sudoku puzzle (81 cells, '.' or 0 for a blank)",
       .group = "puzzle",
       .add_options = add_puzzle_options,
       .methods = kernel_methods(),
       .plan = plan_puzzle,
       .parameters = kPuzzleParameters,
       .lists = true},
      {.option = "puzzle-file",
       .value_name = "F",
       .help = "solve every puzzle of file F (one per line, '-' = stdin)",
       .group = "puzzle",
       .methods = kernel_methods(),
       .plan = plan_puzzle_file,
       .parameters = kFileParameters},
  };
  return table;
}

}  // namespace pcount::sudoku
