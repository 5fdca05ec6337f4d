#pragma once
/// @file
/// Errors shared by every problem and the engine.
///
/// Namespace pcount, beside errors.hpp, u128.hpp and bigint.hpp: the
/// vocabulary of every layer (engine, kernels, driver); the definitions are
/// built into the pcount_engine library (src/engine/).

#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

namespace pcount {

/// Bad user input: a parameter out of range, a malformed value, an option
/// that does not apply. `argument()` names the offending argument as the
/// user wrote it (e.g. "--latin"); `what()` says what is allowed. The `count`
/// program prints "count: <argument>: <what>" on stderr and exits with 2.
class InvalidArgument : public std::invalid_argument {
public:
  /// @param argument the option or value at fault, e.g. "--threads"
  /// @param message  one line: what was given and what is allowed
  InvalidArgument(std::string argument, const std::string& message)
      : std::invalid_argument(message), argument_(std::move(argument)) {}
  /// The argument at fault, as the user would type it.
  [[nodiscard]] const std::string& argument() const noexcept { return argument_; }

private:
  std::string argument_;
};

/// A check the program makes on its own results failed (e.g. a Burnside
/// identity or an R(n) mod n self-check). Never a user error: the `count`
/// program reports it and exits with status 1 without printing a count.
class InternalError : public std::logic_error {
public:
  using std::logic_error::logic_error;
};

/// Text from a file or another untrusted source, made safe for a one-line
/// message: control characters (below 0x20, and 0x7f) become `\xNN`, and a
/// text longer than `max` bytes is cut there with "..." appended.
[[nodiscard]] inline std::string printable(std::string_view text, std::size_t max = 80) {
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < max; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  if (text.size() > max) out += "...";
  return out;
}

/// A message made one line for stderr: printable() without its cut, so
/// that a newline or an escape sequence in a user's argument (a --method
/// value with a newline in it) is shown as `\x0a` or `\x1b`, never acted on.
[[nodiscard]] inline std::string one_line(std::string_view text) { return printable(text, std::string_view::npos); }

}  // namespace pcount
