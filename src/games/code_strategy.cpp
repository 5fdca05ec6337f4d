// Strategies as decision trees: built from a named strategy, written and
// read as JSON, and checked by playing them against every secret.
#include "pcount/games/code_strategy.hpp"

#include <algorithm>

#include "pcount/errors.hpp"

namespace pcount::games::codes {

namespace {

const char* game_name(Game game) { return game == Game::mastermind ? "mastermind" : "bulls-and-cows"; }

[[noreturn]] void bad(const std::string& path, const std::string& why) {
  throw InvalidArgument("strategy file", (path.empty() ? std::string("the root") : "node " + path) + ": " + why);
}

std::string extend(const std::string& path, const std::string& guess, std::uint8_t answer) {
  return (path.empty() ? "" : path + " ") + guess + " " + answer_name(answer);
}

void build(const CodeSet& codes, Strategy strategy, const std::vector<std::uint16_t>& set, int made,
           StrategyTree& node) {
  if (made >= kMaxGuesses)
    throw InternalError("code game: strategy needs more than " + std::to_string(kMaxGuesses) + " guesses");
  node.guess = static_cast<std::uint16_t>(next_guess(codes, strategy, set, made));
  std::array<std::vector<std::uint16_t>, kAnswers> classes;
  for (std::uint16_t s : set) classes[codes.answer(node.guess, s)].push_back(s);
  for (std::size_t a = 0; a < classes.size(); ++a) {
    if (a == codes.solved() || classes[a].empty()) continue;
    node.answers.push_back(static_cast<std::uint8_t>(a));
    node.next.emplace_back();
    build(codes, strategy, classes[a], made + 1, node.next.back());
  }
}

nlohmann::json node_json(const CodeSet& codes, const StrategyTree& node) {
  nlohmann::json j = nlohmann::json::object();
  j["guess"] = codes.name(node.guess);
  if (!node.next.empty()) {
    nlohmann::json next = nlohmann::json::object();
    for (std::size_t i = 0; i < node.next.size(); ++i) next[answer_name(node.answers[i])] = node_json(codes, node.next[i]);
    j["next"] = std::move(next);
  }
  return j;
}

/// "1B2C" → 7; nullopt when not of that form or not a possible answer for
/// the game's code length.
std::optional<std::uint8_t> parse_answer(const CodeSet& codes, const std::string& s) {
  if (s.size() != 4 || s[1] != 'B' || s[3] != 'C' || s[0] < '0' || s[0] > '9' || s[2] < '0' || s[2] > '9')
    return std::nullopt;
  const int b = s[0] - '0', c = s[2] - '0', p = codes.positions();
  if (b + c > p || (b == p - 1 && c == 1)) return std::nullopt;
  return static_cast<std::uint8_t>(5 * b + c);
}

void parse(const CodeSet& codes, const nlohmann::json& j, const std::string& path, int depth, StrategyTree& node) {
  if (depth > kMaxGuesses) bad(path, "deeper than " + std::to_string(kMaxGuesses) + " guesses");
  if (!j.is_object()) bad(path, "expected an object {\"guess\": ..., \"next\": {...}}");
  for (const auto& [key, value] : j.items())
    if (key != "guess" && key != "next") bad(path, "unknown key '" + key + "' (allowed: guess, next)");
  if (!j.contains("guess") || !j["guess"].is_string()) bad(path, "no \"guess\" string");
  const std::string g = j["guess"].get<std::string>();
  const auto code = codes.find(g);
  if (!code) bad(path, "guess '" + g + "' is not a code of " + game_name(codes.game()));
  node.guess = static_cast<std::uint16_t>(*code);
  if (!j.contains("next")) return;
  if (!j["next"].is_object()) bad(path, "\"next\" must be an object mapping answers (e.g. \"1B2C\") to nodes");
  std::vector<std::pair<std::uint8_t, const nlohmann::json*>> kids;
  for (const auto& [key, value] : j["next"].items()) {
    const auto a = parse_answer(codes, key);
    if (!a) bad(path, "'" + key + "' is not an answer (expected <bulls>B<cows>C, e.g. 1B2C)");
    if (*a == codes.solved()) bad(path, "the solved answer " + key + " has no subtree");
    kids.emplace_back(*a, &value);
  }
  std::sort(kids.begin(), kids.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (const auto& [a, value] : kids) {
    node.answers.push_back(a);
    node.next.emplace_back();
    parse(codes, *value, extend(path, g, a), depth + 1, node.next.back());
  }
}

}  // namespace

std::string answer_name(std::uint8_t answer) {
  return std::to_string(answer / 5) + "B" + std::to_string(answer % 5) + "C";
}

StrategyTree strategy_tree(const CodeSet& codes, Strategy strategy) {
  if (strategy == Strategy::optimal)
    throw InvalidArgument("strategy", "the optimal tree comes from the optimal job, not from strategy_tree");
  std::vector<std::uint16_t> all(codes.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint16_t>(i);
  StrategyTree root;
  build(codes, strategy, all, 0, root);
  return root;
}

nlohmann::json tree_to_json(const CodeSet& codes, const StrategyTree& tree, const std::string& strategy,
                            std::uint64_t guesses) {
  nlohmann::json j = nlohmann::json::object();
  j["game"] = game_name(codes.game());
  j["strategy"] = strategy;
  j["secrets"] = codes.size();
  j["guesses"] = guesses;
  j["tree"] = node_json(codes, tree);
  return j;
}

StrategyTree tree_from_json(const CodeSet& codes, const nlohmann::json& doc) {
  if (!doc.is_object() || !doc.contains("tree"))
    throw InvalidArgument("strategy file", "expected an object with \"game\" and \"tree\"");
  if (!doc.contains("game") || !doc["game"].is_string() || doc["game"].get<std::string>() != game_name(codes.game()))
    throw InvalidArgument("strategy file", std::string("\"game\" must be \"") + game_name(codes.game()) + "\"");
  StrategyTree root;
  parse(codes, doc["tree"], "", 1, root);
  return root;
}

StrategyTree strategy_from_text(const CodeSet& codes, std::string_view text) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for numbers such as 1e999
    throw InvalidArgument("strategy file", std::string("not JSON we can read: ") + e.what());
  }
  StrategyTree tree = tree_from_json(codes, doc);
  (void)evaluate_tree(codes, tree);  // a strategy: every secret is solved
  return tree;
}

void evaluate_subtree(const CodeSet& codes, const StrategyTree& node, const std::vector<std::uint16_t>& set, int made,
                      const std::string& path, std::vector<std::uint64_t>& solved) {
  if (made >= kMaxGuesses) bad(path, "a game longer than " + std::to_string(kMaxGuesses) + " guesses");
  std::array<std::vector<std::uint16_t>, kAnswers> classes;
  for (std::uint16_t s : set) classes[codes.answer(node.guess, s)].push_back(s);
  const auto k = static_cast<std::size_t>(made + 1);
  if (solved.size() <= k) solved.resize(k + 1);
  solved[k] += classes[codes.solved()].size();
  std::size_t i = 0;
  const std::string& g = codes.name(node.guess);
  for (std::size_t a = 0; a < classes.size(); ++a) {
    if (a == codes.solved()) continue;
    const bool has = i < node.answers.size() && node.answers[i] == a;
    if (classes[a].empty()) {
      if (has) bad(extend(path, g, static_cast<std::uint8_t>(a)), "no secret consistent with the answers so far gives this answer");
      continue;
    }
    if (!has)
      bad(path.empty() ? "" : path, "guess " + g + ": no subtree for the answer " +
                                        answer_name(static_cast<std::uint8_t>(a)) + ", which " +
                                        std::to_string(classes[a].size()) + " secret(s) give (e.g. " +
                                        codes.name(classes[a].front()) + ")");
    evaluate_subtree(codes, node.next[i], classes[a], made + 1, extend(path, g, static_cast<std::uint8_t>(a)), solved);
    ++i;
  }
}

std::vector<std::uint64_t> evaluate_tree(const CodeSet& codes, const StrategyTree& tree) {
  std::vector<std::uint16_t> all(codes.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint16_t>(i);
  std::vector<std::uint64_t> solved;
  evaluate_subtree(codes, tree, all, 0, "", solved);
  return solved;
}

}  // namespace pcount::games::codes
