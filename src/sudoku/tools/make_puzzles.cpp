// sudoku-make-puzzles: a reproducible set of sudoku puzzles of one box shape
// (pcount/sudoku/generate.hpp; the sets of data/sudoku/README.md).
//
//   sudoku-make-puzzles --box 3x4 --count 300 --seed 1 [--clues K] [--out FILE]
//
// One puzzle per line (N² characters: '.' for a blank, 1-9 then A-G), after
// a '#' line naming the command, so `count --puzzle-file FILE --box RxC`
// reads the file as it is. Bad options: one line on stderr, exit 2.
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>

#include <boost/program_options.hpp>

#include "pcount/driver/driver.hpp"
#include "pcount/engine/errors.hpp"
#include "pcount/engine/files.hpp"
#include "pcount/sudoku/generate.hpp"

namespace po = boost::program_options;
using namespace pcount;

int main(int argc, char** argv) {
  const char* const program = "sudoku-make-puzzles";
  std::string box = "3x3", count_text = "100", seed_text = "1", clues_text = "0", out;
  po::options_description d("sudoku-make-puzzles: a reproducible set of sudoku puzzles with one solution each");
  d.add_options()
      ("help", "this text")
      ("box", po::value(&box)->value_name("RxC"), "box shape, R·C ≤ 16 (default 3x3)")
      ("count", po::value(&count_text)->value_name("K"), "puzzles to make, 1 … 1000000 (default 100)")
      ("seed", po::value(&seed_text)->value_name("S"), "seed, 0 … 2^63-1 (default 1)")
      ("clues", po::value(&clues_text)->value_name("K"),
       "stop removing clues at K (default 0: until no clue can be removed, i.e. minimal puzzles)")
      ("out", po::value(&out)->value_name("FILE"), "write the set to FILE (atomically) instead of stdout");
  sudoku::BoxShape shape;
  std::uint64_t count = 0, seed = 0;
  int clues = 0;
  try {
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(d).run(), vm);
    po::notify(vm);
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
    if (!out.empty()) engine::check_output_file("--out", out);
  } catch (const InvalidArgument& e) {
    std::cerr << program << ": " << e.argument() << ": " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << program << ": " << e.what() << '\n';
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
    if (out.empty()) std::cout << text.str() << std::flush;
    else engine::write_atomically(out, text.str());
  } catch (const std::exception& e) {
    std::cerr << program << ": " << e.what() << '\n';
    return 1;
  }
  return 0;
}
