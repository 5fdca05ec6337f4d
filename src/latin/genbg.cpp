#include "pcount/latin/genbg.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
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

std::vector<std::string> run_lines(const std::string& program, const std::vector<std::string>& args) {
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
  std::string data;
  char buf[1 << 16];
  for (;;) {
    const ssize_t got = read(fds[0], buf, sizeof buf);
    if (got > 0) {
      data.append(buf, static_cast<std::size_t>(got));
    } else if (got == 0 || errno != EINTR) {
      break;
    }
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("'" + program + "' failed (" +
                             (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                                : "signal " + std::to_string(WTERMSIG(status))) +
                             ")");
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < data.size()) {
    std::size_t end = data.find('\n', start);
    if (end == std::string::npos) end = data.size();
    if (end > start) lines.emplace_back(data, start, end - start);
    start = end + 1;
  }
  return lines;
}

std::vector<std::string> genbg_regular(int n, int d, int res, int mod) {
  const std::string dd = std::to_string(d) + ":" + std::to_string(d);
  std::vector<std::string> args{"-q", "-d" + dd, "-D" + dd, std::to_string(n), std::to_string(n)};
  if (mod > 1) args.push_back(std::to_string(res) + "/" + std::to_string(mod));
  return run_lines(genbg_program(), args);
}

}  // namespace pcount::latin
