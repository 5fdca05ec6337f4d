// Fuzz target: the `count` command line — option parsing and every
// problem's argument checks, up to the start of the run.
//
// Input: arguments separated by '\n' (at most 12, each at most 48 bytes).
// The program runs for real, sandboxed: in a private scratch directory,
// with standard input at /dev/null, nauty's genbg made unavailable
// (PCOUNT_GENBG) and the class cache inside the scratch directory, and a
// stop file given and present, so any accepted job stops before its first
// task. Inputs that could still cost much before the run starts are
// skipped: a path with '/', more than 16 threads, and the 2×5 and 2×6
// sudoku shapes and their transposes (whose band and sub-band tables take
// seconds to build without sanitizers, over a minute with them), and
// N-Queens from N = 19 (the join's task list and estimates, or the size
// estimate's probes, take 10–20 s under the sanitizers from there on).
// Properties: the exit status is 0, 1, 2 or 143; no input causes an
// internal error; exit 2 prints exactly one line on stderr, starting
// "count: ", and nothing on stdout.
#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/problems.hpp"
#include "fuzz_support.hpp"

namespace {

using pcount::fuzz::broken;

/// Whether `value` ("=N" or "N") is a whole number of at least `least`.
bool at_least(std::string_view value, unsigned long least) {
  if (!value.empty() && value.front() == '=') value.remove_prefix(1);
  if (value.empty() || value.size() > 6) return value.size() > 6;
  for (char c : value)
    if (c < '0' || c > '9') return false;  // refused by the parser anyway
  return std::stoul(std::string(value)) >= least;
}

bool costly(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (const std::size_t q = a.find("queens"); q != std::string::npos) {
      const std::string_view rest = std::string_view(a).substr(q + 6);
      if (!rest.empty() ? at_least(rest, 19) : (i + 1 < args.size() && at_least(args[i + 1], 19))) return true;
    }
    if (a.find('/') != std::string::npos) return true;
    const bool shape_like = a.find('x') != std::string::npos || a.find('X') != std::string::npos;
    if (shape_like && (a.find('5') != std::string::npos || a.find('6') != std::string::npos)) return true;
    for (std::string_view flag : {"--threads", "-t"})
      if (a.rfind(flag, 0) == 0) {
        const std::string_view rest = std::string_view(a).substr(flag.size());
        if (!rest.empty() ? at_least(rest, 17) : (i + 1 < args.size() && at_least(args[i + 1], 17)))
          return true;
      }
  }
  return false;
}

void setup_once() {
  static const bool done = [] {
    const auto& dir = pcount::fuzz::scratch_dir();
    std::filesystem::current_path(dir);
    ::setenv("PCOUNT_GENBG", (dir / "no-genbg").c_str(), 1);
    ::setenv("XDG_CACHE_HOME", (dir / "cache").c_str(), 1);
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, 0);
    return true;
  }();
  (void)done;
}

void clear_scratch() {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(pcount::fuzz::scratch_dir(), ec))
    std::filesystem::remove_all(e.path(), ec);
  pcount::fuzz::write_file(pcount::fuzz::scratch_dir() / "STOP", "");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  setup_once();
  std::vector<std::string> args;
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  while (!rest.empty() || args.empty()) {
    const std::size_t nl = rest.find('\n');
    args.emplace_back(rest.substr(0, nl));
    if (args.size() > 12 || args.back().size() > 48 || args.back().find('\0') != std::string::npos) return -1;
    if (nl == std::string_view::npos) break;
    rest.remove_prefix(nl + 1);
  }
  if (costly(args)) return -1;
  clear_scratch();

  std::vector<const char*> argv{"count"};
  for (const auto& a : args) argv.push_back(a.c_str());
  const bool merge = args.front() == "merge";
  if (!merge) {
    argv.push_back("--stop-file");
    argv.push_back("STOP");
  }
  std::ostringstream out, err;
  const int status = pcount::driver::main(static_cast<int>(argv.size()), argv.data(), pcount::cli::count_program(), out, err);
  const std::string e = err.str();
  if (status != 0 && status != 1 && status != 2 && status != 143) broken("exit status " + std::to_string(status));
  if (e.rfind("count: internal error", 0) == 0 || e.find("\ncount: internal error") != std::string::npos) broken("internal error: " + e);
  if (status == 2) {
    if (!out.str().empty()) broken("exit 2 printed on stdout: " + out.str());
    if (e.rfind("count: ", 0) != 0 || e.find('\n') != e.size() - 1) broken("exit 2 without one 'count: ' line: " + e);
  }
  return 0;
}
