#pragma once
/// @file
/// Errors shared by every problem and the engine.

#include <stdexcept>
#include <string>

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

}  // namespace pcount
