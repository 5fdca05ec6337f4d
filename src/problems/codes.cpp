// The `--bulls-and-cows` and `--mastermind [--strategy S]` problems: a code-breaking
// strategy played against every secret.

// GCC 12 reports a false -Wrestrict inside inlined std::string concatenation
// (GCC bug 105329); the code is correct, so the warning is off for this file.
#pragma GCC diagnostic ignored "-Wrestrict"
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include <unistd.h>

#include "pcount/engine/files.hpp"
#include "pcount/engine/hash.hpp"
#include "pcount/games/code_strategy.hpp"
#include "pcount/games/codes.hpp"
#include "pcount/problems/games.hpp"
#include "pcount/engine/data_files.hpp"
#include "games/codes_optimal.hpp"
#include "problems/codes_play.hpp"

namespace pcount::games {

using namespace driver;

namespace {

void add_codes_options(po::options_description& d) {
  d.add_options()("strategy", po::value<std::string>()->value_name("S"),
                  "guessing strategy of --bulls-and-cows and --mastermind: first-consistent (default for "
                  "bulls and cows), knuth (minimax; default for Mastermind) or optimal (least average, exact "
                  "branch and bound)")(
      "objective", po::value<std::string>()->value_name("O"),
      "what --strategy optimal minimises (given alone, it implies --strategy optimal: a proof of minutes): "
      "average (default: the total of guesses over all secrets) or "
      "worst-case (the most guesses any secret needs, proved over every first guess; then the least total "
      "among the strategies of that worst case)")(
      "strategy-out", po::value<std::string>()->value_name("FILE"),
      "also write the strategy played as a JSON decision tree to FILE (atomically; docs/games.md)")(
      "strategy-file", po::value<std::string>()->value_name("FILE"),
      "evaluate the strategy given as a JSON decision tree in FILE over every secret, instead of --strategy")(
      "bound-tree", po::value<std::string>()->value_name("FILE"),
      "with --strategy optimal: a strategy tree (JSON, as --strategy-file) starting with the optimal search's first "
      "guess, whose total over each answer class bounds that class's search; splits the proof into one task per "
      "(answer class, second guess), so it checkpoints and shards finely (docs/games.md)")(
      "class-bounds", po::value<std::string>()->value_name("B1,B2,..."),
      "with --strategy optimal: as --bound-tree, the bounds given as numbers, one per answer class of the first "
      "guess in answer order (guesses after the first, summed over the class); a bound below the optimum is "
      "reported as such after the run")(
      "play", po::value<bool>()->implicit_value(true)->zero_tokens(),
      "play one game on the terminal: the program guesses, you score each guess with bulls (black pegs) and "
      "cows (white pegs) as 1B 2C, 1 2 or 12; q quits. With --strategy optimal, bulls and cows plays the "
      "shipped tree (share/pcount/games/)")(
      "secret", po::value<std::string>()->value_name("CODE"),
      "play one game against CODE and print each guess with its answer (e.g. '0123  1B 2C')");
}

/// The histogram of a tree as the job's solved[] (index = guesses).
std::string strategy_json_text(const codes::CodeSet& cs, const codes::StrategyTree& tree, const std::string& name,
                               std::uint64_t guesses) {
  return codes::tree_to_json(cs, tree, name, guesses).dump() + "\n";
}

/// Reads and checks --strategy-file before any work.
std::shared_ptr<const codes::StrategyTree> read_strategy_file(const codes::CodeSet& cs, const std::string& path,
                                                              const std::string& option = "--strategy-file") {
  const std::string text = engine::read_input_file(option, path, codes::kMaxStrategyFileBytes);
  try {
    return std::make_shared<codes::StrategyTree>(codes::strategy_from_text(cs, text));
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(option, path + ": " + e.what());
  }
}

/// The game's name, as fingerprints and reports start.
std::string game_name(codes::Game game) { return game == codes::Game::mastermind ? "mastermind" : "bulls-and-cows"; }

/// How a strategy-file job's fingerprint starts, before the tree's digest
/// ("tree=fnv1a64:…").
Fingerprint tree_fingerprint(codes::Game game) { return Fingerprint(game_name(game)).flag("strategy-file"); }

/// The job playing a checked tree: one task per answer to its first guess.
/// `params` records the tree's digest, the one parameter of such a job.
engine::Job tree_job(Params& params, codes::Game game, std::shared_ptr<const codes::StrategyTree> tree) {
  const codes::CodeSet& cs = code_set(game);
  auto classes = std::make_shared<std::vector<std::vector<std::uint16_t>>>(tree->answers.size());
  for (std::size_t s = 0; s < cs.size(); ++s) {
    const auto a = cs.answer(tree->guess, s);
    const auto it = std::find(tree->answers.begin(), tree->answers.end(), a);
    if (it != tree->answers.end())
      (*classes)[static_cast<std::size_t>(it - tree->answers.begin())].push_back(static_cast<std::uint16_t>(s));
  }
  engine::Job job;
  // The whole tree decides the count: its canonical JSON (keys sorted, no
  // spacing) enters the fingerprint by digest, not the file's name or text.
  const std::string canonical = codes::tree_to_json(cs, *tree, "file", 0)["tree"].dump();
  const std::string digest = engine::fnv1a64_digest(canonical);
  params.record("tree", digest, Params::checked);
  job.fingerprint = tree_fingerprint(game).add("tree", digest);
  job.counter_names = codes::strategy_counter_names();
  job.task_count = std::max<std::size_t>(classes->size(), 1);
  job.split_depth = 1;
  job.run_task = [game, tree, classes](std::size_t id, engine::Tally& out) {
    const codes::CodeSet& c = code_set(game);
    std::vector<std::uint64_t> solved(2, 0);
    if (id == 0) solved[1] = 1;  // the first guess is itself a secret
    if (id < classes->size())
      codes::evaluate_subtree(c, tree->next[id], (*classes)[id], 1,
                              c.name(tree->guess) + " " + codes::answer_name(tree->answers[id]), solved);
    codes::add_solved(solved, out);
  };
  return job;
}

/// Under `count merge` of a strategy file's shards: the job the shards ran,
/// named by their fingerprint (the tree's digest), without reading a tree
/// (the file option arrives as "-"). Shards of another job get a
/// fingerprint that cannot match, and the merge says so.
engine::Job replayed_tree_job(const Invocation& inv, codes::Game game) {
  const std::string start = tree_fingerprint(game).str() + " tree=";
  const std::string found = inv.replayed_fingerprint();
  engine::Job job;
  job.fingerprint = found.rfind(start, 0) == 0 ? found : start + "(shard files of another job)";
  job.counter_names = codes::strategy_counter_names();
  job.task_count = inv.replayed()->tasks_total;
  job.split_depth = 1;
  job.run_task = [](std::size_t, engine::Tally&) { throw InternalError("strategy file: a replayed job ran a task"); };
  return job;
}

/// --strategy, by default knuth for Mastermind and first-consistent for
/// bulls and cows. The jobs write it into their fingerprints themselves
/// ("strategy=knuth"), so it is declared Params::checked.
codes::Strategy declare_strategy(Params& params, codes::Game game) {
  const std::string s = params.choice("--strategy", "strategy", {"first-consistent", "knuth", "optimal"},
                                      game == codes::Game::mastermind ? "knuth" : "first-consistent", Params::checked);
  return s == "knuth"     ? codes::Strategy::knuth
         : s == "optimal" ? codes::Strategy::optimal
                          : codes::Strategy::first_consistent;
}

/// Chooses the guesses of one game: a tree's nodes, or a named strategy on
/// the codes still consistent with the answers.
class Player {
public:
  Player(const codes::CodeSet& cs, codes::Strategy strategy, std::shared_ptr<const codes::StrategyTree> tree)
      : cs_(cs), strategy_(strategy), tree_(std::move(tree)), node_(tree_.get()), consistent_(cs.size()) {
    for (std::size_t i = 0; i < consistent_.size(); ++i) consistent_[i] = static_cast<std::uint16_t>(i);
  }
  std::size_t guess() const { return node_ ? node_->guess : codes::next_guess(cs_, strategy_, consistent_, made_); }
  /// Records the answer to the current guess; false when no code is
  /// consistent with every answer so far.
  bool answer(std::size_t g, std::uint8_t a) {
    ++made_;
    std::erase_if(consistent_, [&](std::uint16_t c) { return cs_.answer(g, c) != a; });
    if (consistent_.empty()) return false;
    if (node_ && a != cs_.solved()) {
      const auto it = std::find(node_->answers.begin(), node_->answers.end(), a);
      if (it == node_->answers.end()) return false;  // a checked tree covers every consistent answer
      node_ = &node_->next[static_cast<std::size_t>(it - node_->answers.begin())];
    }
    return true;
  }
  [[nodiscard]] int made() const { return made_; }
  /// Whether answer `a` to guess `g` leaves a secret (and, with a tree, is
  /// one of its answers): answer() would take it.
  [[nodiscard]] bool possible(std::size_t g, std::uint8_t a) const {
    if (node_ && a != cs_.solved() &&
        std::find(node_->answers.begin(), node_->answers.end(), a) == node_->answers.end())
      return false;
    return std::any_of(consistent_.begin(), consistent_.end(), [&](std::uint16_t c) { return cs_.answer(g, c) == a; });
  }

private:
  const codes::CodeSet& cs_;
  codes::Strategy strategy_;
  std::shared_ptr<const codes::StrategyTree> tree_;
  const codes::StrategyTree* node_;
  std::vector<std::uint16_t> consistent_;
  int made_ = 0;
};

/// Largest --class-bounds value (far above any game's total).
constexpr std::uint64_t kMaxClassBound = 1'000'000'000;

std::string spaced_answer(std::uint8_t a) { return std::to_string(a / 5) + "B " + std::to_string(a % 5) + "C"; }

/// The optimal bulls-and-cows tree that ships with pcount (data/games/,
/// installed in share/pcount/games/), for --strategy optimal --play/--secret.
std::shared_ptr<const codes::StrategyTree> shipped_optimal_tree(const codes::CodeSet& cs) {
  const std::string name = "games/bulls-and-cows-optimal.json";
  const auto file = engine::find_data_file(name);
  if (!file)
    throw InvalidArgument("--strategy", "optimal bulls and cows is played from its proved tree, installed as " +
                                            (engine::installed_data_dir() / name).string() +
                                            ", which is missing: give it with --strategy-file FILE (in the source: "
                                            "data/" +
                                            name + ")");
  return read_strategy_file(cs, file->string(), "--strategy");
}

/// --play and --secret: one game, not an engine job.
std::optional<int> run_codes(const Invocation& inv, codes::Game game) {
  const bool play = inv.has("play");
  const auto secret_text = inv.value("secret");
  if (!play && !secret_text) return std::nullopt;  // a count: plan
  if (play && secret_text) throw InvalidArgument("--play", "and --secret exclude each other: choose one");
  const std::string which = play ? "--play" : "--secret";
  if (inv.distributed())
    throw InvalidArgument(which, "plays one game in one process: run it with count, not count-mpi");
  if (!inv.common.checkpoint.empty() || inv.common.shard_count > 1 || !inv.common.out_file.empty() ||
      inv.value("strategy-out") || inv.common.json || inv.has("objective") || inv.has("bound-tree") ||
      inv.has("class-bounds") || inv.common.estimate || !inv.common.profile.empty() || !inv.common.stop_file.empty() ||
      inv.common.list || !inv.common.output_file.empty())
    throw InvalidArgument(which,
                          "plays one game: it does not combine with --json, --checkpoint, --shard, --out, "
                          "--output, --profile, --stop-file, --estimate, --list, --objective, --bound-tree, "
                          "--class-bounds or --strategy-out");
  const codes::CodeSet& cs = code_set(game);
  const bool mastermind = game == codes::Game::mastermind;
  std::optional<std::size_t> secret;
  if (secret_text) {
    secret = cs.find(*secret_text);
    if (!secret)
      throw InvalidArgument("--secret",
                            "'" + *secret_text + "' is not a code of " +
                                (mastermind ? "Mastermind (4 colours of 1-6)" : "bulls and cows (4 distinct digits)"));
  }
  const auto strategy_file = inv.value("strategy-file");
  if (strategy_file && inv.has("strategy"))
    throw InvalidArgument("--strategy-file", "gives the strategy itself: leave out --strategy");
  Params params(inv);  // a game is no job: nothing is fingerprinted, the options are parsed alike
  const codes::Strategy strategy = declare_strategy(params, game);
  std::shared_ptr<const codes::StrategyTree> tree;
  if (strategy_file) tree = read_strategy_file(cs, *strategy_file);
  if (!tree && strategy == codes::Strategy::optimal && !mastermind) tree = shipped_optimal_tree(cs);
  Player player(cs, strategy, tree);
  if (play) inv.out << play::intro(game);
  const bool echo = play && isatty(STDIN_FILENO) == 0;  // a piped answer's line end is not shown
  for (;;) {
    if (player.made() >= codes::kMaxGuesses)
      throw InternalError("code game: the strategy needs more than " + std::to_string(codes::kMaxGuesses) + " guesses");
    const std::size_t g = player.guess();
    std::uint8_t a = 0;
    if (secret) {
      a = cs.answer(g, *secret);
      inv.out << cs.name(g) << "  " << spaced_answer(a) << "\n";
    } else {
      const play::Asked asked = play::ask_answer(inv, std::cin, echo, cs, g, player.made() + 1,
                                                 [&](std::uint8_t answer) { return player.possible(g, answer); });
      if (!asked.answer) return asked.status;
      a = *asked.answer;
    }
    if (!player.answer(g, a))
      throw InternalError("code game: answer " + codes::answer_name(a) + " to " + cs.name(g) + " leaves no secret");
    if (a == cs.solved()) {
      if (play) inv.out << "solved: " << cs.name(g) << " in " << player.made() << " guesses\n";
      return 0;
    }
  }
}

/// --objective worst-case: the least worst case over every first guess,
/// then the least total among the strategies of that worst case.
Plan plan_worst_case(const Invocation& inv, codes::Game game, const std::optional<std::string>& strategy_out) {
  if (strategy_out) {
    engine::check_output_file("--strategy-out", *strategy_out);
    if (!inv.common.checkpoint.empty() || inv.common.shard_count > 1)
      throw InvalidArgument("--strategy-out",
                            "the worst-case tree is built in this process's memory: it cannot be "
                            "combined with --checkpoint or --shard");
  }
  if (inv.common.split_depth && *inv.common.split_depth != 1)
    throw InvalidArgument("split_depth", "the worst-case search is split by the first answer only: use 1, got " +
                                             std::to_string(*inv.common.split_depth));
  const std::string method = choose_method(inv, {"branch-and-bound"}, "branch-and-bound");
  std::shared_ptr<codes::WorstCaseTrees> trees;
  if (strategy_out) trees = std::make_shared<codes::WorstCaseTrees>();
  Plan plan;
  plan.job = codes::make_worst_case_job(game, trees);
  plan.report = [game, method, strategy_out, trees](const engine::RunResult& result) {
    const codes::CodeSet& c = code_set(game);
    const std::vector<std::size_t> firsts = codes::first_guess_orbits(c);
    const auto get = [&](std::size_t i) { return static_cast<std::uint64_t>(result.totals.get(i)); };
    // Each first guess's least worst case: 1 + the least cap (after it)
    // within which every answer class is solvable.
    nlohmann::ordered_json per_first = nlohmann::ordered_json::object();
    int best_depth = 0;
    std::size_t best_first = 0;
    std::uint64_t best_total = 0;
    for (std::size_t i = 0; i < firsts.size(); ++i) {
      int least = 0;
      for (int cap = 1; cap <= codes::kWorstCaps && least == 0; ++cap)
        if (get(codes::worst_unsolvable(i, cap)) == 0) least = cap + 1;
      per_first[c.name(firsts[i])] = least == 0
                                         ? nlohmann::ordered_json("more than " + std::to_string(codes::kWorstCaps + 1))
                                         : nlohmann::ordered_json(least);
      if (least == 0) continue;
      const std::uint64_t total = c.size() + get(codes::worst_guesses(i, least - 1));
      if (best_depth == 0 || least < best_depth || (least == best_depth && total < best_total))
        best_depth = least, best_first = i, best_total = total;
    }
    if (best_depth == 0)
      throw InternalError("worst case: no first guess solves every secret within " +
                          std::to_string(codes::kWorstCaps + 1) + " guesses");
    std::vector<std::uint64_t> histogram(static_cast<std::size_t>(best_depth), 0);
    histogram[0] = 1;  // the secret equal to the first guess
    std::uint64_t secrets = 1;
    for (int k = 1; k <= best_depth; ++k) {
      histogram[static_cast<std::size_t>(k - 1)] += get(codes::worst_solved_in(best_first, best_depth - 1, k));
      secrets += get(codes::worst_solved_in(best_first, best_depth - 1, k));
    }
    if (secrets != c.size())
      throw InternalError("worst case: " + std::to_string(secrets) + " secrets played, expected " +
                          std::to_string(c.size()));
    if (strategy_out) {
      const codes::StrategyTree tree = trees->assemble(c, best_first, best_depth - 1);
      const auto solved = codes::evaluate_tree(c, tree);
      std::uint64_t guesses = 0;
      for (std::size_t k = 1; k < solved.size(); ++k) guesses += solved[k] * k;
      if (guesses != best_total || static_cast<int>(solved.size()) - 1 > best_depth)
        throw InternalError("worst case: the strategy tree needs " + std::to_string(guesses) + " guesses, the run " +
                            std::to_string(best_total));
      engine::write_atomically(*strategy_out, strategy_json_text(c, tree, "optimal-worst-case", guesses));
    }
    const bool mastermind = game == codes::Game::mastermind;
    Report report;
    report.problem = game_name(game);
    report.title = std::string(mastermind ? "Mastermind (4 pegs, 6 colours, 1296 secrets)"
                                          : "bulls and cows (4 distinct digits, 5040 secrets)") +
                   ", least worst case, then least total";
    report.params["strategy"] = "optimal";
    report.params["objective"] = "worst-case";
    report.method = method;
    report.counts = {{"worst_case", std::to_string(best_depth)},
                     {"secrets", std::to_string(c.size())},
                     {"guesses", std::to_string(best_total)}};
    char average[32];
    std::snprintf(average, sizeof average, "%.4f", static_cast<double>(best_total) / static_cast<double>(c.size()));
    report.extra["average"] = average;
    report.extra["first_guess"] = c.name(firsts[best_first]);
    report.extra["worst_case_by_first_guess"] = per_first;
    report.extra["max_guesses"] = best_depth;
    report.extra["histogram"] = histogram;
    return report;
  };
  return plan;
}

/// The options of a strategy count, checked against each other.
struct CodesOptions {
  std::optional<std::string> strategy_file, strategy_out, bound_tree_file, class_bounds;
  bool worst_case = false;
  codes::Strategy strategy = codes::Strategy::first_consistent;
};

/// --objective: average or worst-case. Only the worst-case job names it in
/// its fingerprint ("objective=worst-case", written by the job): average
/// jobs were fingerprinted before the option existed, without it, and stay
/// so, so their checkpoints and shards still read.
bool parse_worst_case(Params& params, const std::optional<std::string>& objective) {
  if (!objective) return false;
  if (*objective != "average" && *objective != "worst-case")
    throw InvalidArgument("--objective", "'" + *objective + "' does not apply here; allowed: average, worst-case");
  if (*objective == "average") return false;
  params.record("objective", "worst-case", Params::checked);
  return true;
}

/// Reads and cross-checks --strategy, --strategy-file, --objective,
/// --bound-tree and --class-bounds; throws InvalidArgument naming the option.
CodesOptions check_codes_options(const Invocation& inv, Params& params, codes::Game game) {
  CodesOptions o;
  o.strategy_file = inv.value("strategy-file");
  o.strategy_out = inv.value("strategy-out");
  if (o.strategy_file && inv.has("strategy"))
    throw InvalidArgument("--strategy-file", "gives the strategy itself: leave out --strategy");
  const auto objective = inv.value("objective");
  o.worst_case = parse_worst_case(params, objective);
  if (objective && o.strategy_file)
    throw InvalidArgument("--objective", "applies to --strategy optimal, not to --strategy-file");
  if (objective && inv.has("strategy") && *inv.value("strategy") != "optimal")
    throw InvalidArgument("--objective", "applies to --strategy optimal only");
  // A strategy file's job is named by the tree's digest (tree_job), an
  // --objective implies the optimal strategy.
  if (o.strategy_file) {
    o.strategy = game == codes::Game::mastermind ? codes::Strategy::knuth : codes::Strategy::first_consistent;
  } else if (objective) {
    params.record("strategy", "optimal", Params::checked);
    o.strategy = codes::Strategy::optimal;
  } else {
    o.strategy = declare_strategy(params, game);
  }
  o.bound_tree_file = inv.value("bound-tree");
  o.class_bounds = inv.value("class-bounds");
  if (o.bound_tree_file && o.class_bounds)
    throw InvalidArgument("--class-bounds", "and --bound-tree both give the bounds: choose one");
  for (const char* option : {"--bound-tree", "--class-bounds"}) {
    if (!inv.has(option + 2)) continue;
    if (o.strategy_file)
      throw InvalidArgument(option, "bounds the optimal search, --strategy-file evaluates a tree: choose one");
    if (o.worst_case) throw InvalidArgument(option, "applies to the average objective, not --objective worst-case");
    if (o.strategy != codes::Strategy::optimal) throw InvalidArgument(option, "applies to --strategy optimal only");
  }
  return o;
}

/// --class-bounds B,B,...: one bound per answer class of the optimal first
/// guess (the solved answer excluded), each 0 to kMaxClassBound.
std::vector<std::uint64_t> parse_class_bounds(const codes::CodeSet& cs, codes::Game game, const std::string& text) {
  const std::size_t first = *cs.find(codes::optimal_first_guess(game));
  std::size_t classes = 0;
  for (std::uint8_t a = 0; a < codes::kAnswers; ++a) {
    if (a == cs.solved()) continue;
    bool any = false;
    for (std::size_t x = 0; x < cs.size() && !any; ++x) any = cs.answer(first, x) == a;
    classes += any ? 1 : 0;
  }
  const std::string allowed = std::to_string(classes) + " numbers 0-" + std::to_string(kMaxClassBound) +
                              " separated by commas, one per answer class of " + cs.name(first);
  std::vector<std::uint64_t> bounds;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t end = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, end - at);
    if (item.empty() || item.size() > 12 || item.find_first_not_of("0123456789") != std::string::npos ||
        std::stoull(item) > kMaxClassBound)
      throw InvalidArgument("--class-bounds", "expected " + allowed + ", got '" + text + "'");
    bounds.push_back(std::stoull(item));
    at = end + 1;
  }
  if (bounds.size() != classes)
    throw InvalidArgument("--class-bounds", "expected " + allowed + ", got " + std::to_string(bounds.size()));
  return bounds;
}

/// Bounds as --class-bounds takes them, and as the job's fingerprint holds
/// them: "B1,B2,…".
std::string bounds_text(const std::vector<std::uint64_t>& bounds) {
  std::string text;
  for (std::uint64_t b : bounds) {
    if (!text.empty()) text += ',';
    text += std::to_string(b);
  }
  return text;
}

/// --bound-tree FILE: the bounds its tree reaches per class (refused with
/// --shard, whose merge could not read the tree again: its bounds are named).
std::vector<std::uint64_t> bounds_of_tree(const Invocation& inv, const codes::CodeSet& cs, codes::Game game,
                                          const std::string& file) {
  const auto bound_tree = read_strategy_file(cs, file, "--bound-tree");
  const std::size_t first = *cs.find(codes::optimal_first_guess(game));
  std::vector<std::uint64_t> bounds;
  try {
    bounds = codes::OptimalSplit::bounds_from_tree(cs, first, *bound_tree);
  } catch (const InvalidArgument& e) {
    throw InvalidArgument("--bound-tree", file + ": " + e.what());
  }
  if (inv.common.shard_count > 1)
    throw InvalidArgument("--bound-tree",
                          "merge cannot read the tree again: with --shard give its bounds as "
                          "--class-bounds " +
                              bounds_text(bounds));
  return bounds;
}

/// The optimal strategy's job: by the first answer, or with bounds by the
/// second guess (`split` set then); `trees` keeps the trees for --strategy-out.
engine::Job optimal_job(const Invocation& inv, Params& params, codes::Game game, const CodesOptions& o,
                        const std::shared_ptr<codes::OptimalTrees>& trees,
                        std::shared_ptr<const codes::OptimalSplit>& split) {
  const int depth = o.bound_tree_file || o.class_bounds ? 2 : 1;
  if (inv.common.split_depth && *inv.common.split_depth != depth)
    throw InvalidArgument("split_depth", std::string("the optimal strategy is split by the first answer (1), or with "
                                                     "--bound-tree or --class-bounds by the second guess (2): use ") +
                                             std::to_string(depth) + ", got " +
                                             std::to_string(*inv.common.split_depth));
  if (depth == 1) return codes::make_optimal_job(game, trees);
  const codes::CodeSet& cs = code_set(game);
  const std::vector<std::uint64_t> bounds = o.bound_tree_file ? bounds_of_tree(inv, cs, game, *o.bound_tree_file)
                                                              : parse_class_bounds(cs, game, *o.class_bounds);
  params.record("bounds", bounds_text(bounds), Params::checked);  // the job writes them ("bounds=…")
  split = std::make_shared<const codes::OptimalSplit>(game, bounds);
  return split->job(trees);
}

/// What a strategy count reports, and how --strategy-out is written.
struct CodesReport {
  codes::Game game = codes::Game::bulls_and_cows;
  std::string method, strategy_name;
  codes::Strategy strategy = codes::Strategy::first_consistent;
  std::optional<std::string> strategy_out;
  std::shared_ptr<codes::OptimalTrees> trees;
  std::shared_ptr<const codes::StrategyTree> given;
  std::shared_ptr<const codes::OptimalSplit> split;
  std::string file_name, bound_name, bound_param;

  /// Writes the strategy played (checked against the counted total) to
  /// --strategy-out; throws InternalError when they differ.
  void write_strategy(const std::optional<codes::OptimalSplit::Result>& fine, const codes::Summary& s) const {
    const codes::CodeSet& c = code_set(game);
    codes::StrategyTree tree = given   ? *given
                               : fine  ? trees->assemble(fine->chosen)
                               : trees ? trees->assemble()
                                       : codes::strategy_tree(c, strategy);
    const auto solved = codes::evaluate_tree(c, tree);
    std::uint64_t guesses = 0;
    for (std::size_t k = 1; k < solved.size(); ++k) guesses += solved[k] * k;
    if (guesses != s.guesses)
      throw InternalError("code game: the strategy tree needs " + std::to_string(guesses) +
                          " guesses, the run counted " + std::to_string(s.guesses));
    engine::write_atomically(*strategy_out, strategy_json_text(c, tree, strategy_name, guesses));
  }

  Report operator()(const engine::RunResult& result) const {
    std::optional<codes::OptimalSplit::Result> fine;
    if (split) fine = split->result(result.totals);  // the least total per class over its second guesses
    const codes::Summary s = fine ? fine->summary : codes::summarize(result.totals);
    if (strategy_out) write_strategy(fine, s);
    const bool mastermind = game == codes::Game::mastermind;
    if (s.secrets != code_set(game).size())
      throw InternalError("code game: " + std::to_string(s.secrets) + " secrets played, expected " +
                          std::to_string(code_set(game).size()));
    Report report;
    report.problem = game_name(game);
    report.title = mastermind ? "Mastermind (4 pegs, 6 colours, 1296 secrets), strategy " + strategy_name
                              : "bulls and cows (4 distinct digits, 5040 secrets), strategy " + strategy_name;
    report.params["strategy"] = strategy_name;
    if (!file_name.empty()) report.params["strategy_file"] = file_name;
    if (!bound_name.empty()) report.params[bound_param] = bound_name;
    report.method = method;
    report.counts = {{"secrets", std::to_string(s.secrets)}, {"guesses", std::to_string(s.guesses)}};
    char average[32];
    std::snprintf(average, sizeof average, "%.4f", static_cast<double>(s.guesses) / static_cast<double>(s.secrets));
    report.extra["average"] = average;
    report.extra["max_guesses"] = s.max_guesses;
    report.extra["histogram"] = s.histogram;
    return report;
  }
};

Plan plan_codes(const Invocation& inv, codes::Game game) {
  const codes::CodeSet& cs = code_set(game);
  Params params(inv);
  const CodesOptions o = check_codes_options(inv, params, game);
  if (o.worst_case) return plan_worst_case(inv, game, o.strategy_out);
  if (o.strategy_out) {
    engine::check_output_file("--strategy-out", *o.strategy_out);
    if (o.strategy == codes::Strategy::optimal && !o.strategy_file &&
        (!inv.common.checkpoint.empty() || inv.common.shard_count > 1))
      throw InvalidArgument("--strategy-out",
                            "the optimal tree is built in this process's memory: it cannot be "
                            "combined with --checkpoint or --shard");
  }
  CodesReport r;
  r.game = game;
  r.strategy = o.strategy;
  r.strategy_out = o.strategy_out;
  const bool replayed_file = o.strategy_file && inv.replayed();  // merge: no tree is read
  if (o.strategy_file && !replayed_file) r.given = read_strategy_file(cs, *o.strategy_file);
  const bool optimal = o.strategy == codes::Strategy::optimal && !o.strategy_file;
  r.method = optimal ? choose_method(inv, {"branch-and-bound"}, "branch-and-bound")
                     : choose_method(inv, {"strategy-tree"}, "strategy-tree");
  r.strategy_name = o.strategy_file                          ? "file"
                    : o.strategy == codes::Strategy::knuth   ? "knuth"
                    : o.strategy == codes::Strategy::optimal ? "optimal"
                                                             : "first-consistent";
  engine::Job job;
  if (replayed_file) {
    job = replayed_tree_job(inv, game);
  } else if (r.given) {
    if (inv.common.split_depth && *inv.common.split_depth != 1)
      throw InvalidArgument("--split-depth", "a strategy file is split by the first answer only: use 1");
    job = tree_job(params, game, r.given);
  } else if (optimal) {
    if (o.strategy_out) r.trees = std::make_shared<codes::OptimalTrees>();
    job = optimal_job(inv, params, game, o, r.trees, r.split);
  } else {
    job = codes::make_strategy_job(game, o.strategy, inv.common.split_depth.value_or(1));
  }
  r.file_name = replayed_file ? std::string() : o.strategy_file.value_or("");  // merge: the path is not known
  r.bound_name = o.bound_tree_file.value_or(o.class_bounds.value_or(""));
  r.bound_param = o.bound_tree_file ? "bound_tree" : "class_bounds";
  Plan plan;
  plan.job = std::move(job);
  plan.report = std::move(r);
  return plan;
}

Plan plan_bulls_and_cows(const Invocation& inv) { return plan_codes(inv, codes::Game::bulls_and_cows); }
Plan plan_mastermind(const Invocation& inv) { return plan_codes(inv, codes::Game::mastermind); }
std::optional<int> run_bulls_and_cows(const Invocation& inv) { return run_codes(inv, codes::Game::bulls_and_cows); }
std::optional<int> run_mastermind(const Invocation& inv) { return run_codes(inv, codes::Game::mastermind); }

}  // namespace

std::span<const Problem> code_problems() {
  static const Problem table[] = {
      {.option = "bulls-and-cows",
       .help = "evaluate a bulls-and-cows strategy over all 5040 secrets",
       .group = "codes",
       .add_options = add_codes_options,
       .methods = "strategy-tree|branch-and-bound",
       .plan = plan_bulls_and_cows,
       .run = run_bulls_and_cows},
      {.option = "mastermind",
       .help = "evaluate a Mastermind strategy (4 pegs, 6 colours) over all 1296 secrets",
       .group = "codes",
       .methods = "strategy-tree|branch-and-bound",
       .plan = plan_mastermind,
       .run = run_mastermind},
  };
  return table;
}

}  // namespace pcount::games
