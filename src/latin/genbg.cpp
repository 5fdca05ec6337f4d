#include "pcount/latin/genbg.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <functional>
#include <string_view>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "pcount/engine/data_files.hpp"
#include "pcount/errors.hpp"

extern char** environ;

namespace pcount::latin {

std::string genbg_program() {
  const char* env = std::getenv("PCOUNT_GENBG");
  if (env && *env) return env;
  // The relocatable bundle (docs/bundle.md) carries its own genbg beside count.
  const auto dir = engine::executable_dir();
  const auto beside = dir / "nauty-genbg";
  if (!dir.empty() && access(beside.c_str(), X_OK) == 0) return beside.string();
  return "nauty-genbg";
}

namespace {

/// Longest output line taken from the program: a graph6 line of 22
/// vertices is 1 + 39 characters, so anything longer is not genbg's.
constexpr std::size_t kMaxLine = 4096;

/// Waits for the child and throws when it failed.
void reap(pid_t pid, const std::string& program) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("'" + program + "' failed (" +
                             (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                                : "signal " + std::to_string(WTERMSIG(status))) +
                             ")");
}

/// Feeds the lines read from `fd` to `line`, each without its newline and
/// empty lines skipped; throws std::runtime_error at a line over kMaxLine.
void read_lines(int fd, const std::string& program, const std::function<void(std::string_view)>& line) {
  std::string pending;
  char buf[1 << 16];
  for (;;) {
    const ssize_t got = read(fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    std::string_view chunk(buf, static_cast<std::size_t>(got));
    for (std::size_t end; (end = chunk.find('\n')) != std::string_view::npos; chunk.remove_prefix(end + 1)) {
      if (pending.empty()) {
        if (end > 0) line(chunk.substr(0, end));
      } else {
        pending.append(chunk.substr(0, end));
        line(pending);
        pending.clear();
      }
    }
    pending.append(chunk);
    if (pending.size() > kMaxLine) throw std::runtime_error("'" + program + "' wrote a line over 4096 bytes");
  }
  if (!pending.empty()) line(pending);
}

}  // namespace

void run_each_line(const std::string& program, const std::vector<std::string>& args,
                   const std::function<void(std::string_view)>& line) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    throw InvalidArgument("method", "the classes method needs nauty's genbg, but '" + program +
                                          "' cannot be run (" + std::strerror(rc) +
                                          "); install the Debian package nauty, set PCOUNT_GENBG, or use --method search");
  }
  try {
    read_lines(fds[0], program, line);
  } catch (...) {
    // A line refused (or a stop request) ends the run: the child is stopped
    // and reaped, whatever its status, and the first error goes on.
    kill(pid, SIGTERM);
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    throw;
  }
  close(fds[0]);
  reap(pid, program);
}

std::vector<std::string> run_lines(const std::string& program, const std::vector<std::string>& args) {
  std::vector<std::string> lines;
  run_each_line(program, args, [&](std::string_view l) { lines.emplace_back(l); });
  return lines;
}

namespace {

std::vector<std::string> genbg_args(int n, int d, int res, int mod) {
  const std::string dd = std::to_string(d) + ":" + std::to_string(d);
  std::vector<std::string> args{"-q", "-d" + dd, "-D" + dd, std::to_string(n), std::to_string(n)};
  if (mod > 1) args.push_back(std::to_string(res) + "/" + std::to_string(mod));
  return args;
}

}  // namespace

void genbg_each(int n, int d, int res, int mod, const std::function<void(std::string_view)>& line) {
  run_each_line(genbg_program(), genbg_args(n, d, res, mod), line);
}

std::vector<std::string> genbg_regular(int n, int d, int res, int mod) {
  return run_lines(genbg_program(), genbg_args(n, d, res, mod));
}

}  // namespace pcount::latin
