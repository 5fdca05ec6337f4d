#include "problems/codes_play.hpp"

#include <cctype>
#include <istream>
#include <streambuf>
#include <vector>

#include "pcount/errors.hpp"

namespace pcount::games::play {

LineRead read_line(std::istream& in, std::string& line) {
  line.clear();
  std::streambuf* buf = in.rdbuf();
  std::size_t length = 0;  // bytes of the line, without its '\n'
  for (;;) {
    const int ch = buf->sbumpc();
    if (ch == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      if (length == 0) return LineRead::ended;
      break;
    }
    if (ch == '\n') break;
    if (++length > kMaxLineRead) return LineRead::runaway;
    if (line.size() < kMaxLine) line.push_back(static_cast<char>(ch));
  }
  return length > kMaxLine ? LineRead::too_long : LineRead::line;
}

Answer parse_answer(std::string_view line) {
  std::string text;
  for (const char c : line)
    if (c != ' ' && c != '\t' && c != '\r' && c != ',')
      text += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  Answer a;
  if (text == "q" || text == "quit") {
    a.kind = Answer::Kind::quit;
    return a;
  }
  // Digits, each optionally followed by its letter: b (bulls, black pegs),
  // c or w (cows, white pegs).
  std::vector<std::pair<int, char>> items;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return a;
    char letter = 0;
    if (i + 1 < text.size() && (text[i + 1] == 'b' || text[i + 1] == 'c' || text[i + 1] == 'w')) letter = text[++i];
    items.emplace_back(text[i - (letter ? 1 : 0)] - '0', letter);
  }
  if (items.empty() || items.size() > 2) return a;
  const bool lettered = items.front().second != 0;
  for (const auto& [n, letter] : items)
    if ((letter != 0) != lettered) return a;  // "1B 2" is neither form
  if (!lettered) {
    if (items.size() != 2) return a;
    a = {Answer::Kind::score, items[0].first, items[1].first};
    return a;
  }
  bool bulls = false, cows = false;
  a.kind = Answer::Kind::score;
  for (const auto& [n, letter] : items) {
    bool& seen = letter == 'b' ? bulls : cows;
    if (seen) return Answer{};
    seen = true;
    (letter == 'b' ? a.bulls : a.cows) = n;
  }
  return a;
}

std::string intro(codes::Game game) {
  if (game == codes::Game::mastermind)
    return "Think of a code of 4 pegs in colours 1-6 (repeats allowed); I guess it, you score each guess.\n"
           "Answer black pegs (right colour and place), then white pegs (right colour, wrong place): "
           "1B 2W, 1 2 or 12.\n"
           "4B (or 4 0) means I found it; q quits.\n";
  return "Think of a secret of 4 different digits 0-9; I guess it, you score each guess.\n"
         "Answer bulls (right digit and place), then cows (right digit, wrong place): 1B 2C, 1 2 or 12.\n"
         "4B (or 4 0) means I found it; q quits.\n";
}

namespace {

/// Why a parsed answer is refused, or empty when `a` is the score `code`.
std::string check_score(const Answer& a, const codes::CodeSet& cs, const std::function<bool(std::uint8_t)>& possible,
                        std::uint8_t& code) {
  const int p = cs.positions();
  if (a.kind != Answer::Kind::score) return "not an answer";
  if (a.bulls + a.cows > p || (a.bulls == p - 1 && a.cows == 1))
    return "no score: B + C is at most " + std::to_string(p) + ", and " + std::to_string(p - 1) + " 1 cannot be";
  code = static_cast<std::uint8_t>(5 * a.bulls + a.cows);
  if (!possible(code))
    return "no secret fits it with the answers before; check it and answer again (q quits if an earlier answer "
           "was wrong)";
  return {};
}

}  // namespace

Asked ask_answer(const driver::Invocation& inv, std::istream& in, bool echo, const codes::CodeSet& cs,
                 std::size_t guess, int number, const std::function<bool(std::uint8_t)>& possible) {
  const std::string me = inv.program() + ": --play: ";
  for (int slips = 0;;) {
    inv.out << "guess " << number << ": " << cs.name(guess) << "   answer? " << std::flush;
    std::string line;
    const LineRead read = read_line(in, line);
    if (read == LineRead::ended) {
      inv.out << "\n";
      inv.err << me << "the input ended before the code was found\n";
      return {std::nullopt, 1};
    }
    if (read == LineRead::runaway) {
      inv.out << "\n";
      inv.err << me << "an answer line of over " << (kMaxLineRead >> 20) << " MiB: stopping\n";
      return {std::nullopt, 2};
    }
    if (echo) inv.out << printable(line, 40) << "\n" << std::flush;
    std::string why = "a line of over " + std::to_string(kMaxLine) + " bytes";
    std::uint8_t code = 0;
    if (read == LineRead::line) {
      const Answer a = parse_answer(line);
      if (a.kind == Answer::Kind::quit) {
        inv.out << "quit after " << number - 1 << (number == 2 ? " guess\n" : " guesses\n");
        return {std::nullopt, 0};
      }
      why = check_score(a, cs, possible, code);
      if (why.empty()) return {code, 0};
    }
    inv.err << me << "'" << printable(line, 40) << "' to guess " << number << " (" << cs.name(guess) << "): " << why
            << "; answer e.g. 1B 2C, 1 2 or 12, or q to quit\n";
    if (++slips == kMaxSlips) {
      inv.err << me << kMaxSlips << " answers in a row were not understood: stopping\n";
      return {std::nullopt, 2};
    }
  }
}

}  // namespace pcount::games::play
