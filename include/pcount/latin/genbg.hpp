#pragma once
/// @file
/// Runs nauty's `genbg` (Debian package `nauty`, binary `nauty-genbg`) to
/// list the classes of regular bipartite graphs. No shell is involved: the
/// program is started with posix_spawnp and an argument vector, and its
/// standard output is read through a pipe.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace pcount::latin {

/// The genbg program to run: $PCOUNT_GENBG when set and not empty (a path or
/// a name looked up in PATH; used by tests to simulate a missing binary),
/// else an executable "nauty-genbg" in the running program's own directory
/// (the relocatable bundle, docs/bundle.md), otherwise "nauty-genbg".
[[nodiscard]] std::string genbg_program();

/// Runs `program args...` and hands each line of its standard output to
/// `line` as it is read (without the newline; empty lines skipped), so no
/// more than one read buffer is held. Throws as run_lines, and
/// std::runtime_error for a line over 4096 bytes. When `line` throws, the
/// program is stopped (SIGTERM) and reaped and the exception goes on.
void run_each_line(const std::string& program, const std::vector<std::string>& args,
                   const std::function<void(std::string_view)>& line);

/// Runs `program args...` and returns its standard output split into lines
/// (without the newlines). Throws InvalidArgument("method") when the
/// program cannot be started (e.g. not installed: the message says to
/// install the Debian package nauty, set PCOUNT_GENBG, or use --method
/// search), and std::runtime_error when it exits with a non-zero status or
/// is killed by a signal. Its stderr is discarded.
[[nodiscard]] std::vector<std::string> run_lines(const std::string& program, const std::vector<std::string>& args);

/// The graph6 lines of every class of d-regular n+n bipartite graphs
/// (isomorphism preserving both sides): `genbg -q -dd:d -Dd:d n n [res/mod]`.
/// `mod` > 1 selects the disjoint slice `res` of `mod` (genbg's own
/// splitting). Errors as run_lines.
[[nodiscard]] std::vector<std::string> genbg_regular(int n, int d, int res = 0, int mod = 1);

/// genbg_regular's lines handed to `line` as genbg writes them
/// (run_each_line): a list of 10⁸ classes is never held as text.
void genbg_each(int n, int d, int res, int mod, const std::function<void(std::string_view)>& line);

}  // namespace pcount::latin
