#pragma once
/// @file
/// A code-breaking strategy as an explicit decision tree: the guess to make,
/// then one subtree per answer that can still come. Written and read as
/// JSON (docs/games.md, "Strategy files"):
///
///     {"game": "bulls-and-cows", "strategy": "optimal", "guesses": 26274,
///      "tree": {"guess": "0123", "next": {"0B1C": {"guess": "1456", ...}, ...}}}
///
/// Answers are named "<bulls>B<cows>C" (Mastermind: black, white); the
/// solved answer has no subtree. "strategy" and "guesses" are informative
/// only: evaluate_tree recomputes the total.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "pcount/games/codes.hpp"

namespace pcount::games::codes {

/// One node: the guess (a code index of the game's CodeSet) and, for each
/// unsolved answer that some secret reaching the node gives, the subtree
/// (answers[i] leads to next[i]; answers increasing).
struct StrategyTree {
  std::uint16_t guess = 0;
  std::vector<std::uint8_t> answers;
  std::vector<StrategyTree> next;
};

/// Answer code (5·bulls + cows) as text, e.g. 7 → "1B2C".
[[nodiscard]] std::string answer_name(std::uint8_t answer);

/// The tree of a named strategy (Strategy::first_consistent or knuth),
/// played against every secret. Strategy::optimal throws InvalidArgument
/// ("strategy"): its tree comes from the optimal job.
[[nodiscard]] StrategyTree strategy_tree(const CodeSet& codes, Strategy strategy);

/// The tree as the JSON document above; `strategy` names it, `guesses` is
/// its total (from evaluate_tree).
[[nodiscard]] nlohmann::json tree_to_json(const CodeSet& codes, const StrategyTree& tree, const std::string& strategy,
                                          std::uint64_t guesses);

/// Reads a tree written by tree_to_json (only "game" and "tree" matter;
/// other top-level keys are ignored). Throws InvalidArgument("strategy
/// file", why) naming the first bad node by its path of guesses and
/// answers (e.g. "node 0123 0B1C 1456 1B0C: guess '99' is not a code of
/// bulls-and-cows") when the document is not such a tree, the game is not
/// `codes`' game, or a node has unknown keys. Does not check the tree is a
/// strategy: evaluate_tree does.
[[nodiscard]] StrategyTree tree_from_json(const CodeSet& codes, const nlohmann::json& doc);

/// The most bytes a strategy file may hold: 16 MiB (the optimal bulls and
/// cows tree of data/games is 137 KB); --strategy-file and --bound-tree read
/// no more.
inline constexpr std::size_t kMaxStrategyFileBytes = std::size_t{16} << 20;

/// A strategy file's text read and checked whole: JSON, tree_from_json and
/// evaluate_tree (so the tree solves every secret). Throws
/// InvalidArgument("strategy file", why) for text that is not JSON (the
/// parser's message, e.g. a number out of range such as 1e999), not a tree,
/// or not a strategy; nothing else for any input.
[[nodiscard]] StrategyTree strategy_from_text(const CodeSet& codes, std::string_view text);

/// Plays the tree against every secret: solved[k] = secrets solved with
/// exactly k guesses (solved[0] = 0). Throws InvalidArgument("strategy
/// file", why) naming the first bad node (depth-first, answers in
/// increasing order) when some secret reaches a node with no subtree for
/// its answer, a subtree belongs to an answer no secret reaching the node
/// gives, or a game is longer than kMaxGuesses.
[[nodiscard]] std::vector<std::uint64_t> evaluate_tree(const CodeSet& codes, const StrategyTree& tree);

/// evaluate_tree on the secrets `set` (sorted code indices) reaching
/// `node` after `made` guesses whose path is named `path` (for messages);
/// adds to solved (resized as needed).
void evaluate_subtree(const CodeSet& codes, const StrategyTree& node, const std::vector<std::uint16_t>& set, int made,
                      const std::string& path, std::vector<std::uint64_t>& solved);

}  // namespace pcount::games::codes
