#pragma once
/// @file
/// Code-breaking games: bulls and cows and Mastermind. A strategy is
/// evaluated exactly against every secret: how many guesses it needs for
/// each, summed and as a histogram.
///
/// - Bulls and cows: codes are 4 distinct digits of 0–9 (5040 codes, listed
///   in lexicographic order 0123, 0124, …, 9876); the answer to a guess is
///   (bulls = right digit in the right place, cows = right digit elsewhere).
/// - Mastermind: 4 pegs of 6 colours 1–6, repetition allowed (1296 codes,
///   1111 … 6666); the answer is (black = right colour and place, white =
///   further right colours, counted with multiplicity).
///
/// Check values (sources: docs/sources.md, "Mastermind and bulls and cows"):
/// bulls and cows, strategy first-consistent: 28024 guesses over 5040
/// secrets, at most 9, histogram 1, 13, 108, 596, 1668, 1768, 752, 129, 5
/// (the seed 001 exercise). Mastermind, Knuth's minimax strategy (Knuth,
/// "The computer as Master Mind", J. Recreational Math. 9, 1976–77): 5801
/// guesses over 1296 secrets, at most 5, histogram 1, 6, 62, 533, 694.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pcount/engine/task.hpp"

namespace pcount::games::codes {

/// Which game.
enum class Game { bulls_and_cows, mastermind };

/// How the next guess is chosen from the codes still consistent with every
/// answer (the "consistent set", listed in code order).
enum class Strategy {
  /// The first consistent code (seed 001's strategy; first guess 0123 / 1111).
  first_consistent,
  /// Knuth's minimax: the code (any code, consistent or not) whose largest
  /// answer class over the consistent set is smallest; ties go to a
  /// consistent code, then to the lowest. First guess fixed: 1122
  /// (Mastermind) or 0123 (bulls and cows, where every first guess is
  /// equivalent).
  knuth,
  /// Minimum expected number of guesses (exact branch and bound, see
  /// optimal_total), after the first guess 0123 (bulls and cows: every first
  /// guess is equivalent) or 1123 (Mastermind: Koyama & Lai 1993's optimal
  /// opening). Mastermind: 5625 guesses over 1296 secrets (Koyama & Lai
  /// 1993). Bulls and cows: 26274 (Tanaka 1996), tens of minutes on 2 cores
  /// (results/games.md).
  optimal,
};

/// Answers are encoded as 5·(bulls or black) + (cows or white), < 25.
inline constexpr int kAnswers = 25;
/// The answer "all four right".
inline constexpr std::uint8_t kSolved = 20;
/// Longest game a job can record; a strategy needing more throws InternalError.
inline constexpr int kMaxGuesses = 24;

/// All codes of one game with the answer table (code i guessed against
/// secret j). Immutable; share one per game through code_set().
class CodeSet {
public:
  /// The full game: 4 positions, digits 0–9 (bulls and cows) or colours 1–6
  /// (Mastermind).
  explicit CodeSet(Game game);
  /// A reduced instance (for tests and small proofs): `positions` places
  /// (1–4) over `symbols` symbols (bulls and cows: digits 0…symbols-1,
  /// distinct, positions ≤ symbols ≤ 10; Mastermind: colours 1…symbols,
  /// 1 ≤ symbols ≤ 8). Answers keep the 5·bulls + cows encoding; the
  /// solved answer is 5·positions. Throws InvalidArgument otherwise.
  CodeSet(Game game, int positions, int symbols);
  [[nodiscard]] Game game() const { return game_; }
  /// Code length (4 for the full games).
  [[nodiscard]] int positions() const { return positions_; }
  /// Number of symbols (10 digits or 6 colours for the full games).
  [[nodiscard]] int symbols() const { return symbols_; }
  /// The answer "every position right": 5·positions (kSolved = 20 for 4).
  [[nodiscard]] std::uint8_t solved() const { return static_cast<std::uint8_t>(5 * positions_); }
  /// Number of codes: 5040 or 1296 for the full games.
  [[nodiscard]] std::size_t size() const { return names_.size(); }
  /// The code's digits as text, e.g. "0123" or "1122".
  [[nodiscard]] const std::string& name(std::size_t code) const { return names_[code]; }
  /// Index of a code given as text; nullopt when it is not a code of the game.
  [[nodiscard]] std::optional<std::size_t> find(std::string_view text) const;
  /// The answer (< kAnswers) to guess `guess` when the secret is `secret`.
  [[nodiscard]] std::uint8_t answer(std::size_t guess, std::size_t secret) const {
    return table_[guess * names_.size() + secret];
  }
  /// The answers to `guess` for every secret, indexed by secret.
  [[nodiscard]] const std::uint8_t* row(std::size_t guess) const { return &table_[guess * names_.size()]; }

private:
  Game game_;
  int positions_ = 4;
  int symbols_ = 10;
  std::vector<std::string> names_;
  std::vector<std::uint8_t> table_;
};

/// The shared code set of a game (built on first use, thread-safe).
[[nodiscard]] const CodeSet& code_set(Game game);

/// The strategy's next guess given the consistent set (code indices in
/// increasing order, not empty) and the number of guesses already made.
/// With Strategy::optimal (after the first guess) this runs optimal_guess.
[[nodiscard]] std::size_t next_guess(const CodeSet& codes, Strategy strategy, std::span<const std::uint16_t> consistent,
                                     int guesses_made);

/// Plays one game against `secret` and returns the number of guesses
/// (an independent per-secret path, used to check the jobs). Throws
/// InternalError if the strategy needs more than kMaxGuesses.
[[nodiscard]] int play(const CodeSet& codes, Strategy strategy, std::size_t secret);

/// Counters of the job from make_strategy_job, in order: kSecrets
/// ("secrets"), kGuesses ("guesses"), then one plain counter per game
/// length k = 1..kMaxGuesses, solved_in(k) ("solved_in_<k>": the secrets
/// the strategy solves with exactly k guesses); kStrategyCounters in all.
enum Counter : std::size_t {
  kSecrets = 0,    ///< secrets played (5040 / 1296)
  kGuesses = 1,    ///< guesses summed over all secrets
  kSolvedIn1 = 2,  ///< first histogram counter: solved_in(1)
};
/// Number of counters of make_strategy_job (2 + kMaxGuesses = 26).
inline constexpr std::size_t kStrategyCounters = kSolvedIn1 + static_cast<std::size_t>(kMaxGuesses);
/// The counter of the secrets solved with exactly k guesses, 1 ≤ k ≤ kMaxGuesses.
[[nodiscard]] constexpr std::size_t solved_in(int k) { return kSolvedIn1 + static_cast<std::size_t>(k - 1); }
/// The counter names of make_strategy_job: "secrets", "guesses",
/// "solved_in_1", ..., "solved_in_24".
[[nodiscard]] std::vector<std::string> strategy_counter_names();
/// Adds a game-length histogram to a strategy job's tally: solved[k] =
/// secrets solved with exactly k guesses (solved[0] unused), to solved_in(k),
/// and their number and guesses to kSecrets and kGuesses. Throws
/// InternalError when solved.size() > kMaxGuesses + 1 and CountOverflow.
void add_solved(std::span<const std::uint64_t> solved, engine::Tally& out);

/// The strategy tree as an engine job: the consistent set after the first
/// `split_depth` answers (0 ≤ split_depth ≤ 3) is one task (the secrets of a
/// task are exactly its consistent set). Secrets solved above the split are
/// counted by task 0. Counters: Counter; nodes = guesses decided. Throws
/// InvalidArgument("split_depth") for another depth. Strategy::optimal:
/// split_depth must be 1 (one task per answer to the fixed first guess, each
/// an exact branch and bound; no node count).
[[nodiscard]] engine::Job make_strategy_job(Game game, Strategy strategy, int split_depth = 1);

/// Histogram decoded from a job's totals.
struct Summary {
  std::uint64_t secrets = 0;
  std::uint64_t guesses = 0;
  int max_guesses = 0;
  std::vector<std::uint64_t> histogram;  ///< histogram[k-1] = secrets solved in k guesses, k = 1..max
};

/// Reads the totals of make_strategy_job (kStrategyCounters counters);
/// throws InternalError when the histogram does not add up to the secrets
/// and guesses counters, a count exceeds 64 bits or a counter past the last
/// is not zero.
[[nodiscard]] Summary summarize(const engine::Tally& totals);

/// An optimal guess for the consistent set, found by optimal_total's
/// search without the unused-digit symmetry (so slow beyond small sets; the
/// jobs use the symmetry).
[[nodiscard]] std::size_t optimal_guess(const CodeSet& codes, std::span<const std::uint16_t> consistent);

/// Outcome of optimal_total.
struct OptimalSearch {
  std::optional<std::uint64_t> total;  ///< the exact minimum, when the search finished
  std::uint64_t lower_bound = 0;       ///< a proven lower bound (the exact minimum when finished)
  std::uint64_t nodes = 0;             ///< guesses scored (the node_limit unit)
};

/// The minimum, over all strategies, of the guesses needed to solve every
/// secret of `consistent` (each guess counted once for every secret still
/// unsolved; a strategy's total over all 5040 secrets is what Tanaka 1996
/// minimised: 26274 for bulls and cows; Koyama & Lai 1993: 5625 for
/// Mastermind). `used_digits` is ignored (kept for callers): the digits
/// interchangeable in the set, unused ones included, are found from the set
/// itself. Depth-first branch and bound (docs/games.md, "How the optimum is
/// proved"): size bounds, one-level bounds of every answer class, digit
/// symmetry, memo by set. Works on reduced code sets too. Stops after
/// `node_limit` scored guesses and returns only the trivial lower bound
/// then. Sequential (the engine job runs one per class); throws
/// InvalidArgument for an empty set.
[[nodiscard]] OptimalSearch optimal_total(const CodeSet& codes, std::span<const std::uint16_t> consistent,
                                          unsigned used_digits, std::uint64_t node_limit);

}  // namespace pcount::games::codes
