// sudoku-make-puzzles: a reproducible set of sudoku puzzles of one box shape
// (pcount/sudoku/generate.hpp; the sets of data/sudoku/README.md).
//
//   sudoku-make-puzzles --box 3x4 --count 300 --seed 1 [--clues K] [--out FILE]
//
// One puzzle per line (N² characters: '.' for a blank, 1-9 then A-G), after
// a '#' line naming the command, so `count --puzzle-file FILE --box RxC`
// reads the file as it is. Bad options (a bad value, a missing or repeated
// one, an unknown option, a word without an option, an empty --out): one line
// on stderr naming the option and what it allows, exit 2, before any puzzle
// is made or any file written (tests/cli/test_make_puzzles_cli.cpp).
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>

#include <boost/program_options.hpp>

#include "pcount/driver/program.hpp"
#include "pcount/errors.hpp"
#include "pcount/engine/files.hpp"
#include "pcount/sudoku/generate.hpp"

namespace po = boost::program_options;
using namespace pcount;

namespace {

constexpr const char* kOptions = "the options are --box, --count, --seed, --clues, --out, --help";

/// What option `name` ("--box", …) allows, for messages about a missing or
/// repeated value; kOptions for any other name.
std::string allowed(std::string_view name) {
  if (name == "--box") return "expected a box shape RxC with R·C ≤ 16, such as 3x3 or 2x3, given once";
  if (name == "--count") return "expected K, a whole number from 1 to 1000000, given once";
  if (name == "--seed") return "expected S, a whole number from 0 to 9223372036854775807, given once";
  if (name == "--clues") return "expected K, a whole number from 0 to the number of cells, given once";
  if (name == "--out") return "expected a file name, given once";
  if (name == "--help") return "takes no value";
  return kOptions;
}

/// One line (without the program name) for a Boost.Program_options error.
std::string describe(const po::error& e) {
  if (const auto* u = dynamic_cast<const po::unknown_option*>(&e))
    return u->get_option_name() + ": unknown option; " + kOptions;
  if (const auto* n = dynamic_cast<const po::error_with_option_name*>(&e)) {
    const std::string name = n->get_option_name();
    if (dynamic_cast<const po::multiple_occurrences*>(&e)) return name + ": given more than once; " + allowed(name);
    if (const auto* m = dynamic_cast<const po::invalid_command_line_syntax*>(&e)) {
      if (m->kind() == po::invalid_command_line_syntax::missing_parameter)
        return name + ": missing value; " + allowed(name);
      if (m->kind() == po::invalid_command_line_syntax::extra_parameter) return name + ": takes no value";
    }
    return name + ": " + e.what() + "; " + allowed(name);
  }
  return std::string(e.what()) + "; " + kOptions;
}

}  // namespace

int main(int argc, char** argv) {
  const char* const program = "sudoku-make-puzzles";
  std::string box = "3x3", count_text = "100", seed_text = "1", clues_text = "0", out;
  po::options_description d("sudoku-make-puzzles: a reproducible set of sudoku puzzles with one solution each");
  d.add_options()("help", "this text")("box", po::value(&box)->value_name("RxC"), "box shape, R·C ≤ 16 (default 3x3)")(
      "count", po::value(&count_text)->value_name("K"), "puzzles to make, 1 … 1000000 (default 100)")(
      "seed", po::value(&seed_text)->value_name("S"), "seed, 0 … 2^63-1 (default 1)")(
      "clues", po::value(&clues_text)->value_name("K"),
      "stop removing clues at K (default 0: until no clue can be removed, i.e. minimal puzzles)")(
      "out", po::value(&out)->value_name("FILE"), "write the set to FILE (atomically) instead of stdout");
  sudoku::BoxShape shape;
  std::uint64_t count = 0, seed = 0;
  int clues = 0;
  try {
    po::variables_map vm;
    try {
      // No abbreviations (--cou for --count), as `count` does.
      const po::parsed_options parsed =
          po::command_line_parser(argc, argv)
              .options(d)
              .style(po::command_line_style::unix_style ^ po::command_line_style::allow_guessing)
              .run();
      // No positional arguments exist: a word without an option is refused
      // (Boost would otherwise drop it silently).
      for (const po::option& o : parsed.options)
        if (o.string_key.empty() && !o.original_tokens.empty()) {
          std::cerr << program << ": '" << o.original_tokens.front() << "': unexpected argument without an option; "
                    << kOptions << '\n';
          return 2;
        }
      po::store(parsed, vm);
      po::notify(vm);
    } catch (const po::error& e) {
      std::cerr << program << ": " << describe(e) << '\n';
      return 2;
    }
    if (vm.count("help")) {
      std::cout << d;
      return 0;
    }
    const auto [r, c] = driver::parse_box("--box", box, sudoku::kMaxSide);
    shape = sudoku::BoxShape{r, c};
    sudoku::check_shape(shape, "--box");
    count = static_cast<std::uint64_t>(driver::parse_int("--count", count_text, 1, 1'000'000));
    seed = static_cast<std::uint64_t>(driver::parse_int("--seed", seed_text, 0, INT64_MAX));
    clues = static_cast<int>(driver::parse_int("--clues", clues_text, 0, shape.cells()));
    // An empty --out would otherwise mean stdout, silently.
    if (vm.count("out") && out.empty()) throw InvalidArgument("--out", "expected a file name, got an empty value");
    if (!out.empty()) engine::check_output_file("--out", out);
  } catch (const InvalidArgument& e) {
    std::cerr << program << ": " << pcount::one_line(e.argument()) << ": " << pcount::one_line(e.what()) << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << program << ": " << pcount::one_line(e.what()) << '\n';
    return 2;
  }
  std::ostringstream text;
  text << "# " << program << " --box " << shape.name() << " --count " << count << " --seed " << seed << " --clues "
       << clues << '\n';
  for (std::uint64_t i = 0; i < count; ++i) {
    std::mt19937_64 rng = sudoku::puzzle_rng(seed, i);
    text << sudoku::to_line(sudoku::random_puzzle(shape, clues, rng).cells) << '\n';
  }
  try {
    if (out.empty())
      std::cout << text.str() << std::flush;
    else
      engine::write_atomically(out, text.str());
  } catch (const std::exception& e) {
    std::cerr << program << ": " << pcount::one_line(e.what()) << '\n';
    return 1;
  }
  return 0;
}
