#pragma once
// Runs the `count` program (or another command) and captures its stdout,
// stderr and exit status, for CLI tests. No shell is involved.
#include <spawn.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace pcount::test {

struct CommandResult {
  int status = -1;  ///< exit status, or 128 + signal
  std::string out;
  std::string err;
};

/// The directories scratch_dir made in this process. They are removed when
/// the process exits, unless a test failed: then they stay for inspection
/// and their names go to stderr.
struct ScratchDirs {
  std::vector<std::filesystem::path> dirs;
  ScratchDirs() = default;
  ScratchDirs(const ScratchDirs&) = delete;
  ScratchDirs& operator=(const ScratchDirs&) = delete;
  ~ScratchDirs() {
    const bool failed = ::testing::UnitTest::GetInstance()->Failed();
    for (const auto& dir : dirs) {
      std::error_code ec;
      if (failed)
        std::fprintf(stderr, "scratch directory kept: %s\n", dir.c_str());
      else
        std::filesystem::remove_all(dir, ec);
    }
  }
  static ScratchDirs& instance() {
    static ScratchDirs all;
    return all;
  }
};

/// A fresh empty directory `name`-<pid> under gtest's temporary directory:
/// the pid keeps two test runs at once (two checkouts on one machine) apart.
/// Removed when the test process exits (ScratchDirs).
inline std::filesystem::path scratch_dir(const std::string& name) {
  ScratchDirs& all = ScratchDirs::instance();  // constructed after gtest's UnitTest, so destroyed before it
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / (name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  if (std::find(all.dirs.begin(), all.dirs.end(), dir) == all.dirs.end()) all.dirs.push_back(dir);
  return dir;
}

/// Writes `text` to `path`, created or truncated.
inline void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Runs argv[0] with the arguments; `input` (if not empty) is a file given
/// as stdin. `stdout_to`: "" captures stdout in CommandResult::out; "-"
/// starts the program with stdout closed; any other value is a file opened
/// for writing as its stdout (e.g. /dev/full).
inline CommandResult run_command(const std::vector<std::string>& argv, const std::string& input = "",
                                 const std::string& stdout_to = "") {
  char out_tmpl[] = "/tmp/pcount-test-out-XXXXXX";
  char err_tmpl[] = "/tmp/pcount-test-err-XXXXXX";
  const int out_fd = mkstemp(out_tmpl);
  const int err_fd = mkstemp(err_tmpl);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (stdout_to.empty())
    posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
  else if (stdout_to == "-")
    posix_spawn_file_actions_addclose(&actions, 1);
  else
    posix_spawn_file_actions_addopen(&actions, 1, stdout_to.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
  posix_spawn_file_actions_addopen(&actions, 0, input.empty() ? "/dev/null" : input.c_str(), O_RDONLY, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  CommandResult r;
  if (posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ) == 0) {
    int wstatus = 0;
    waitpid(pid, &wstatus, 0);
    r.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
  }
  posix_spawn_file_actions_destroy(&actions);
  close(out_fd);
  close(err_fd);
  r.out = slurp(out_tmpl);
  r.err = slurp(err_tmpl);
  unlink(out_tmpl);
  unlink(err_tmpl);
  return r;
}

/// Runs the `count` program built next to the tests with these arguments
/// (`input` and `stdout_to` as for run_command).
inline CommandResult run_count(const std::vector<std::string>& args, const std::string& input = "",
                               const std::string& stdout_to = "") {
  std::vector<std::string> argv{PCOUNT_COUNT_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv, input, stdout_to);
}

/// True when `text` is exactly one line ending in a newline.
inline bool is_one_line(const std::string& text) {
  return !text.empty() && text.back() == '\n' && text.find('\n') == text.size() - 1;
}

/// Starts `count args...` in the background (stdin from /dev/null, stdout
/// to `out_path` and stderr to `err_path`, created or truncated) and returns
/// its pid, for tests that signal or kill it.
inline pid_t start_count(const std::vector<std::string>& args, const std::string& out_path = "/dev/null",
                         const std::string& err_path = "/dev/null") {
  std::vector<std::string> argv{PCOUNT_COUNT_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargs;
  for (auto& a : argv) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = -1;
  EXPECT_EQ(posix_spawn(&pid, cargs[0], &actions, nullptr, cargs.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

/// Number of '\n' in `text`.
inline std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

/// Task records in the checkpoint log `ck`: its lines after the 6-line
/// header (engine/checkpoint.hpp), 0 while it has no records yet.
inline std::size_t checkpoint_records(const std::string& ck) {
  const std::size_t lines = count_lines(slurp(ck));
  return lines >= 6 ? lines - 6 : 0;
}

/// Waits for a started process: its exit status, or 128 + signal.
inline int wait_status(pid_t pid) {
  int w = 0;
  waitpid(pid, &w, 0);
  return WIFEXITED(w) ? WEXITSTATUS(w) : 128 + WTERMSIG(w);
}

/// A command line that must be refused, and text its message must contain
/// (usually the argument at fault).
struct BadInputCase {
  std::vector<std::string> args;
  std::string names;
};

/// Checks the bad-input contract for every case: exit status 2, nothing on
/// stdout, exactly one line on stderr that starts with "count: " and
/// contains `names`.
inline void expect_bad_input(const std::vector<BadInputCase>& cases) {
  for (const auto& c : cases) {
    const CommandResult r = run_count(c.args);
    std::string shown;
    for (const auto& a : c.args) shown += a + " ";
    EXPECT_EQ(r.status, 2) << shown;
    EXPECT_EQ(r.out, "") << shown;
    EXPECT_TRUE(is_one_line(r.err)) << shown << "-> " << r.err;
    EXPECT_NE(r.err.find(c.names), std::string::npos) << shown << "-> " << r.err;
    EXPECT_EQ(r.err.rfind("count: ", 0), 0u) << shown << "-> " << r.err;
  }
}

}  // namespace pcount::test
