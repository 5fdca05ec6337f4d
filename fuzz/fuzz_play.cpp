// Fuzz target: the --play loop of bulls and cows and Mastermind (a person
// types the answers, so every byte of stdin is untrusted).
//
// Input: the first byte picks the game and the strategy (bit 0: bulls and
// cows or Mastermind; bit 1: its default strategy or first-consistent); the
// rest is standard input, fed to `count --GAME --play` run in-process
// (std::cin reads it). Properties: the game ends with exit status 0 (found
// or quit), 1 (input ended) or 2 (runaway input or too many slips); no line
// on stderr or stdout is longer than 512 bytes (an answer line is never
// echoed whole, and piped answers end each prompt's line: the process's
// own stdin is /dev/null, so never a terminal); stdout grows at most by a prompt per input line and a few
// lines more. Any exception escaping main is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/problems.hpp"
#include "fuzz_support.hpp"
#include "pcount/driver/program.hpp"

namespace {

using pcount::fuzz::broken;

std::size_t longest_line(const std::string& text) {
  std::size_t longest = 0, start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    longest = std::max(longest, end - start);
    start = end + 1;
  }
  return longest;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const bool stdin_is_null = std::freopen("/dev/null", "r", stdin) != nullptr;
  if (!stdin_is_null) broken("cannot reopen stdin on /dev/null");
  std::vector<std::string> args = {"count", (data[0] & 1) ? "--mastermind" : "--bulls-and-cows", "--play"};
  if (data[0] & 2) {
    args.emplace_back("--strategy");
    args.emplace_back("first-consistent");
  }
  std::istringstream input(std::string(reinterpret_cast<const char*>(data + 1), size - 1));
  std::streambuf* const saved = std::cin.rdbuf(input.rdbuf());
  std::ostringstream out, err;
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  const int status = pcount::driver::main(static_cast<int>(argv.size()), argv.data(), pcount::cli::count_program(),
                                          out, err);
  std::cin.rdbuf(saved);
  std::cin.clear();
  if (status != 0 && status != 1 && status != 2) broken("--play ended with status " + std::to_string(status));
  if (longest_line(err.str()) > 512) broken("a line on stderr longer than 512 bytes");
  if (longest_line(out.str()) > 512) broken("a line on stdout longer than 512 bytes");
  std::size_t lines = 1;
  for (std::size_t i = 1; i < size; ++i) lines += data[i] == '\n';
  if (out.str().size() > 200 * (lines + 10)) broken("stdout out of proportion to the input");
  return 0;
}
