// Fuzz target: the strategy-tree reader (--strategy-file and --bound-tree
// read a JSON decision tree a user wrote or edited).
//
// Input: the bytes of a strategy file. The first byte picks the game (even:
// bulls and cows, odd: Mastermind); the rest is the file's text. The
// committed corpus holds small valid trees of both games (the first-
// consistent strategy written by tree_to_json) and damaged ones.
// Properties: a refusal is InvalidArgument("strategy file") and nothing
// else; an accepted tree solves every secret, and written back with
// tree_to_json it reads back to the same total.
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "pcount/errors.hpp"
#include "pcount/games/code_strategy.hpp"
#include "pcount/games/codes.hpp"

namespace codes = pcount::games::codes;
using pcount::fuzz::broken;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const codes::CodeSet& cs = codes::code_set(data[0] % 2 == 0 ? codes::Game::bulls_and_cows : codes::Game::mastermind);
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  codes::StrategyTree tree;
  try {
    tree = codes::strategy_from_text(cs, text);
  } catch (const pcount::InvalidArgument& e) {
    if (e.argument() != "strategy file") broken("refusal names '" + e.argument() + "', not 'strategy file'");
    return 0;
  }
  const auto solved = codes::evaluate_tree(cs, tree);
  const std::uint64_t secrets = std::accumulate(solved.begin(), solved.end(), std::uint64_t{0});
  if (secrets != cs.size()) broken("an accepted tree solves " + std::to_string(secrets) + " secrets, not all");
  std::uint64_t guesses = 0;
  for (std::size_t k = 0; k < solved.size(); ++k) guesses += k * solved[k];
  const std::string again = codes::tree_to_json(cs, tree, "fuzz", guesses).dump();
  try {
    const auto back = codes::evaluate_tree(cs, codes::strategy_from_text(cs, again));
    if (back != solved) broken("a tree written back plays differently");
  } catch (const pcount::InvalidArgument& e) {
    broken(std::string("a tree written back is refused: ") + e.what());
  }
  return 0;
}
