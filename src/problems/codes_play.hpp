#pragma once
// Internal: reading a person's answers in `--bulls-and-cows --play` and
// `--mastermind --play` (src/problems/codes_play.cpp), used by src/problems/codes.cpp.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "pcount/driver/problem.hpp"
#include "pcount/games/codes.hpp"

namespace pcount::games::play {

/// Longest answer line kept, in bytes; the rest of a longer line is read
/// and discarded, and the answer asked again.
inline constexpr std::size_t kMaxLine = 256;
/// Most bytes of one line read before the game stops (input without line
/// ends, such as /dev/zero).
inline constexpr std::size_t kMaxLineRead = std::size_t{16} << 20;
/// Answers in a row that are not understood before the game stops.
inline constexpr int kMaxSlips = 10;

/// What read_line found.
enum class LineRead {
  line,      ///< a line of at most kMaxLine bytes
  too_long,  ///< a longer line, read to its end and dropped
  ended,     ///< end of input before any byte
  runaway,   ///< kMaxLineRead bytes without a line end
};

/// Reads one line (without its '\n') from `in` into `line`, keeping at most
/// kMaxLine bytes; a last line without '\n' counts as a line.
[[nodiscard]] LineRead read_line(std::istream& in, std::string& line);

/// One typed answer, parsed.
struct Answer {
  enum class Kind { score, quit, slip } kind = Kind::slip;
  int bulls = 0;  ///< bulls (black pegs)
  int cows = 0;   ///< cows (white pegs)
};

/// Parses an answer as typed: "1B 2C" (also "1b2c", "2C 1B", "1B 2W",
/// "4B"), "1 2" or "12" (bulls then cows), or "q"/"quit". Anything else is
/// a slip. Checks the form only, not that the score is possible.
[[nodiscard]] Answer parse_answer(std::string_view line);

/// The three lines that open a game of --play.
[[nodiscard]] std::string intro(codes::Game game);

/// An answer asked for: the answer code (5 × bulls + cows), or the exit
/// status the game ends with (quit 0, end of input 1, runaway input 2).
struct Asked {
  std::optional<std::uint8_t> answer;
  int status = 0;
};

/// Prompts on inv.out for the answer to guess number `number` (`guess`)
/// and reads lines from `in` until one is a possible score that `possible`
/// accepts; each slip is named on inv.err with the expected form and asked
/// again (at most kMaxSlips in a row). With `echo` (input that is not a
/// terminal, so the typed line end is not shown), each line read is written
/// after its prompt, at most 40 bytes of it and unprintable bytes escaped,
/// so every prompt ends its own line of stdout.
[[nodiscard]] Asked ask_answer(const driver::Invocation& inv, std::istream& in, bool echo, const codes::CodeSet& cs,
                               std::size_t guess, int number, const std::function<bool(std::uint8_t)>& possible);

}  // namespace pcount::games::play
