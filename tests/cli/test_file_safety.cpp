// File safety (docs/hpc.md, "File safety"): no planted link redirects an
// output, no output is a link, a device or one of the standard streams, the
// --output file belongs to its checkpoint (identity, digest and lock), and a
// strategy file enters its job's fingerprint by content. Each test here
// failed at 7c61a9c, the commit where these holes were found.

// GCC 12 reports a false -Wrestrict inside inlined std::string concatenation
// (GCC bug 105329); the code is correct, so the warning is off for this file.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "support/run_command.hpp"

namespace pcount {
namespace {

namespace fs = std::filesystem;
using test::BadInputCase;
using test::CommandResult;
using test::expect_bad_input;
using test::is_one_line;
using test::run_command;
using test::run_count;
using test::slurp;

/// A fresh directory every user may write (the planted-link runs drop root).
fs::path scratch(const std::string& name) {
  const fs::path dir = test::scratch_dir("pcount-safety-" + name);
  ::chmod(dir.c_str(), 0777);
  return dir;
}

/// The prefix that runs a command as nobody, when the tests run as root and
/// nobody may run the count program (a checkout under /root may not let it):
/// then root's rights mask nothing. Empty otherwise.
std::string as_unprivileged() {
  static const std::string prefix = [] {
    if (::geteuid() != 0) return std::string();
    const std::string setpriv = "setpriv --reuid=65534 --regid=65534 --clear-groups -- ";
    const CommandResult probe = run_command({"/bin/bash", "-c", setpriv + "test -x '" PCOUNT_COUNT_EXE "'"});
    return probe.status == 0 ? setpriv : std::string();
  }();
  return prefix;
}

/// Runs `script` with bash in `dir`; "$COUNT" is the count program, run as
/// nobody where as_unprivileged() allows.
CommandResult bash_in(const fs::path& dir, const std::string& script) {
  const std::string as_user = as_unprivileged();
  return run_command(
      {"/bin/bash", "-c", "cd '" + dir.string() + "' && COUNT='" + as_user + PCOUNT_COUNT_EXE + "' && " + script});
}

bool is_link(const fs::path& p) {
  std::error_code ec;
  return fs::is_symlink(fs::symlink_status(p, ec));
}

// 1. A symbolic link planted at a temporary name the program could use for
// an output (this process's pid, as the names were before they became
// random) is never written through, for every option that writes a file.
TEST(FileSafety, PlantedLinksAtTemporaryNamesAreNeverWrittenThrough) {
  const std::vector<std::pair<std::string, std::string>> jobs = {
      {"--out", "--latin 5 --out T"},
      {"--checkpoint", "--latin 5 --checkpoint T"},
      {"--output", "--queens 8 --list --output T --checkpoint T.ck"},
      {"--profile", "--latin 5 --profile T"},
      {"--svg", "--queens 6 --svg T"},
      {"--strategy-out", "--bulls-and-cows --strategy-out T"},
  };
  for (const auto& [option, args] : jobs) {
    const fs::path dir = scratch("planted");
    test::write_file(dir / "victim", "victim\n");
    ::chmod((dir / "victim").c_str(), 0666);
    // Links at the old names (T.tmp.<pid>.<n>, T.pcount-probe.<pid>.<n>,
    // and the checkpoint's) for the pid that exec keeps.
    const std::string plant =
        "for i in $(seq 0 15); do for t in T T.ck; do ln -s victim $t.tmp.$$.$i; ln -s victim $t.pcount-probe.$$.$i; "
        "done; done; exec $COUNT " +
        args + " >/dev/null";
    const CommandResult r = bash_in(dir, plant);
    EXPECT_EQ(r.status, 0) << option << ": " << r.err;
    EXPECT_EQ(slurp((dir / "victim").string()), "victim\n") << option << " wrote through a planted link";
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(dir / "T"))) << option << ": T is not a regular file";
    EXPECT_GT(fs::file_size(dir / "T"), 0u) << option;
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string name = e.path().filename().string();
      if (name.find(".tmp.") != std::string::npos || name.find(".pcount-probe.") != std::string::npos) {
        EXPECT_TRUE(is_link(e.path())) << option << ": a temporary file was left behind: " << name;
      }
    }
  }
}

// 2. An output that is a symbolic link (even /dev/stdout), a device, or "-"
// is refused by name before any work; the link and its target stay as they were.
TEST(FileSafety, OutputsThatAreLinksDevicesOrDashAreRefused) {
  const fs::path dir = scratch("links");
  const std::string target = (dir / "target").string(), link = (dir / "link").string();
  test::write_file(target, "target\n");
  fs::create_symlink("target", link);
  const std::string ck = (dir / "ck").string();
  std::vector<BadInputCase> cases = {
      {{"--latin", "5", "--out", link}, "--out: " + link + ": is a symbolic link"},
      {{"--latin", "5", "--checkpoint", link}, "--checkpoint: " + link + ": is a symbolic link"},
      {{"--queens", "8", "--list", "--output", link}, "--output: " + link + ": is a symbolic link"},
      {{"--queens", "6", "--svg", link}, "--svg: " + link + ": is a symbolic link"},
      {{"--bulls-and-cows", "--strategy-out", link}, "--strategy-out: " + link + ": is a symbolic link"},
      {{"--queens", "8", "--list", "--output", "/dev/null"}, "--output: /dev/null: is not a regular file"},
      {{"--bulls-and-cows", "--strategy-file", "-"}, "--strategy-file: '-' (standard input) is read by --puzzle-file"},
      {{"--latin", "5", "--checkpoint", ck, "--stop-file", "-"}, "--stop-file: '-' is not a stop file"},
  };
  for (const std::string option : {"--out", "--profile", "--checkpoint"})
    cases.push_back({{"--latin", "5", option, "-"}, option + ": '-' is not standard output here"});
  cases.push_back({{"--queens", "8", "--list", "--output", "-"}, "--output: '-' is not standard output here"});
  cases.push_back({{"--queens", "6", "--svg", "-"}, "--svg: '-' is not standard output here"});
  cases.push_back({{"--bulls-and-cows", "--strategy-out", "-"}, "--strategy-out: '-' is not standard output here"});
  expect_bad_input(cases);
  // /dev/stdout is a link too. These run as nobody (bash_in), so that a
  // regression can never replace the machine's /dev/stdout with a file, as
  // the program run as root once did.
  const bool safe = ::geteuid() != 0 || !as_unprivileged().empty();  // else root would run them
  for (const std::string args : {"--latin 5 --profile /dev/stdout", "--latin 5 --out /dev/stdout",
                                 "--queens 8 --list --output /dev/stdout"}) {
    if (!safe) continue;
    const CommandResult r = bash_in(dir, "exec $COUNT " + args + " > /dev/null");
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
    EXPECT_NE(r.err.find(": /dev/stdout: is a symbolic link"), std::string::npos) << args << ": " << r.err;
  }
  EXPECT_TRUE(is_link("/dev/stdout"));
  EXPECT_TRUE(is_link(link));
  EXPECT_EQ(slurp(target), "target\n");
  EXPECT_FALSE(fs::exists(dir / "-"));
  EXPECT_FALSE(fs::exists(ck));
}

// 5. An output that is also the run's standard output or error, or an input
// that is its standard output (the shell has emptied it), or stdin read as
// the input while an output names the same file: refused, exit 2.
TEST(FileSafety, AnOutputThatIsAStandardStreamIsRefused) {
  const fs::path dir = scratch("streams");
  const std::string f = (dir / "F").string(), p = (dir / "P").string();
  const std::string puzzle = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..\n";
  const auto refused = [](const CommandResult& r, const std::string& names, const std::string& what) {
    EXPECT_EQ(r.status, 2) << what << ": " << r.err;
    EXPECT_NE(r.err.find(names), std::string::npos) << what << ": " << r.err;
  };
  refused(run_count({"--queens", "9", "--list", "--output", f}, "", f),
          "--output: " + f + ": is also the standard output", "--output F > F");
  refused(run_count({"--latin", "5", "--out", f}, "", f), "--out: " + f + ": is also the standard output",
          "--out F > F");
  const std::string g = (dir / "G").string();
  refused(bash_in(dir, "touch G && chmod 666 G && exec $COUNT --queens 9 --list 3 --output G 2> G"), "",
          "--output G 2> G");
  EXPECT_EQ(slurp(g).rfind("count: --output: G: is also the standard error", 0), 0u) << slurp(g);
  test::write_file(p, puzzle);
  const CommandResult emptied = bash_in(dir, "$COUNT --puzzle-file P > P");
  refused(emptied, "--puzzle-file: P: is also the standard output", "--puzzle-file P > P");
  test::write_file(p, puzzle);
  refused(run_count({"--puzzle-file", "-", "--output", p}, p), "--output", "--puzzle-file - --output P < P");
  EXPECT_EQ(slurp(p), puzzle) << "the input was overwritten";
  test::write_file(p, puzzle);
  refused(bash_in(dir, "exec $COUNT --puzzle-file - < P > P"), "--puzzle-file: -: is also the standard output",
          "--puzzle-file - < P > P");
}

/// The lines of Q(8)'s listing: 92 solutions (OEIS A000170).
constexpr std::size_t kQueens8 = 92;

// 4. The --output file belongs to its checkpoint: a resume refuses another
// file or an edited one (by digest), takes a faithful copy with a note,
// refuses a log of the older form, and two runs never write one file.
TEST(FileSafety, TheOutputFileBelongsToItsCheckpoint) {
  const fs::path dir = scratch("owned");
  const std::string a = (dir / "A").string(), b = (dir / "B").string(), ck = (dir / "c.ck").string();
  const std::vector<std::string> job = {"--queens", "8", "--list", "--threads", "2", "--checkpoint", ck};
  auto with_output = [&job](const std::string& out) {
    std::vector<std::string> args = job;
    args.insert(args.end(), {"--output", out});
    return args;
  };
  const CommandResult first = run_count(with_output(a));
  ASSERT_EQ(first.status, 0) << first.err;
  const std::string listing = slurp(a);
  ASSERT_EQ(test::count_lines(listing), kQueens8);

  const std::string unrelated(100000, 'x');
  test::write_file(b, unrelated);
  const CommandResult other = run_count(with_output(b));
  EXPECT_EQ(other.status, 2) << other.err;
  EXPECT_NE(other.err.find("are not what this job wrote"), std::string::npos) << other.err;
  EXPECT_EQ(slurp(b), unrelated) << "another file was cut or written";

  std::string edited = listing;
  edited[edited.size() / 2] = edited[edited.size() / 2] == 'Q' ? '.' : 'Q';  // same length
  test::write_file(a, edited);
  const CommandResult changed = run_count(with_output(a));
  EXPECT_EQ(changed.status, 2) << changed.err;
  EXPECT_EQ(slurp(a), edited);

  test::write_file(a, listing);  // a new inode with the committed bytes: a copy
  fs::remove(b);
  fs::copy_file(a, b);
  const CommandResult copy = run_count(with_output(b));
  EXPECT_EQ(copy.status, 0) << copy.err;
  EXPECT_NE(copy.err.find("is not the file this job wrote"), std::string::npos) << copy.err;
  EXPECT_EQ(slurp(b), listing);

  // A log of the earlier form (offsets without digests) says so.
  std::string old = slurp(ck);
  old = old.substr(0, old.find("output marks\n")) + "output offsets\n";
  test::write_file(ck, old);
  const CommandResult older = run_count(with_output(a));
  EXPECT_EQ(older.status, 2) << older.err;
  EXPECT_NE(older.err.find("older pcount"), std::string::npos) << older.err;
}

TEST(FileSafety, TwoRunsNeverWriteOneOutputFile) {
  const fs::path dir = scratch("two-runs");
  const std::string f = (dir / "F").string();
  // Q(16) lists 14,772,512 solutions: minutes on 2 cores, killed below.
  const pid_t first = test::start_count(
      {"--queens", "16", "--list", "--threads", "1", "--output", f, "--checkpoint", (dir / "1.ck").string()});
  for (int i = 0; i < 600 && !(fs::exists(f) && fs::file_size(f) > 0); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(fs::exists(f) && fs::file_size(f) > 0) << "the first run wrote nothing in 30 s";
  const CommandResult second =
      run_count({"--queens", "9", "--list", "--output", f, "--checkpoint", (dir / "2.ck").string()});
  ::kill(first, SIGKILL);
  (void)test::wait_status(first);
  EXPECT_EQ(second.status, 2) << second.err;
  EXPECT_NE(second.err.find("is in use by process " + std::to_string(first)), std::string::npos) << second.err;
}

// 3. A strategy file enters the fingerprint by its tree's content: a resume
// on another tree with the same first guess is refused, shards of one tree
// merge into its report, shards of two trees do not add up.
TEST(FileSafety, AStrategyFileIsFingerprintedByItsWholeTree) {
  const fs::path dir = scratch("strategy");
  const std::string tree = (dir / "tree.json").string(), knuth = (dir / "knuth.json").string();
  const std::string ck = (dir / "c.ck").string();
  ASSERT_EQ(run_count({"--bulls-and-cows", "--strategy-out", tree}).status, 0);  // first-consistent: 0123 first
  ASSERT_EQ(run_count({"--bulls-and-cows", "--strategy", "knuth", "--strategy-out", knuth}).status, 0);  // 0123 too
  ASSERT_EQ(run_count({"--bulls-and-cows", "--strategy-file", tree, "--checkpoint", ck}).status, 0);
  fs::copy_file(knuth, tree, fs::copy_options::overwrite_existing);
  const CommandResult swapped = run_count({"--bulls-and-cows", "--strategy-file", tree, "--checkpoint", ck});
  EXPECT_EQ(swapped.status, 2) << swapped.err;
  EXPECT_NE(swapped.err.find("written by another job"), std::string::npos) << swapped.err;
  EXPECT_EQ(swapped.out, "");

  // The shipped optimal tree: 26,274 guesses in all (Tanaka 1996's optimum
  // for bulls and cows, docs/sources.md), from two shards. The merge reads
  // no file a shard names: it adds up with the tree gone.
  const std::string shipped = (dir / "shipped.json").string();
  fs::copy_file(PCOUNT_DATA_DIR "/games/bulls-and-cows-optimal.json", shipped);
  const std::string s0 = (dir / "s0").string(), s1 = (dir / "s1").string();
  ASSERT_EQ(run_count({"--bulls-and-cows", "--strategy-file", shipped, "--shard", "0/2", "--out", s0}).status, 0);
  ASSERT_EQ(run_count({"--bulls-and-cows", "--strategy-file", shipped, "--shard", "1/2", "--out", s1}).status, 0);
  fs::remove(shipped);
  const CommandResult merged = run_count({"merge", s0, s1});
  EXPECT_EQ(merged.status, 0) << merged.err;
  EXPECT_NE(merged.out.find("guesses       26274\n"), std::string::npos) << merged.out;
  EXPECT_NE(merged.out.find("average       5.2131\n"), std::string::npos) << merged.out;
  ASSERT_EQ(run_count({"--bulls-and-cows", "--strategy-file", knuth, "--shard", "1/2", "--out", s1}).status, 0);
  for (const bool raw : {true, false}) {
    const CommandResult mixed = raw ? run_count({"merge", "--raw", s0, s1}) : run_count({"merge", s0, s1});
    EXPECT_NE(mixed.status, 0) << mixed.out;
    EXPECT_EQ(mixed.out, "");
    EXPECT_NE(mixed.err.find("different jobs"), std::string::npos) << mixed.err;
  }
}

// 6. The smaller items: sizes past 2^64 bytes, an invalid environment
// variable, control characters in a message, a signal during the set-up.
TEST(FileSafety, SmallerItemsGetTheBehaviourTheDocsPromise) {
  expect_bad_input({
      {{"--queens", "20", "--memory-limit", "16777216T"}, "--memory-limit: must be a size"},
      {{"--queens", "20", "--memory-limit", "99999999999999T"}, "--memory-limit: must be a size"},
  });
  const fs::path dir = scratch("small");
  const std::string ck = (dir / "ck").string();
  for (const char* value : {"abc", "0", "nan", "inf", "-1", "1e9", ""}) {
    ::setenv("PCOUNT_CHECKPOINT_SECONDS", value, 1);
    const CommandResult r = run_count({"--latin", "5", "--checkpoint", ck});
    EXPECT_EQ(r.status, 2) << value << ": " << r.err;
    EXPECT_EQ(r.err.rfind("count: PCOUNT_CHECKPOINT_SECONDS: expected seconds", 0), 0u) << value << ": " << r.err;
    EXPECT_FALSE(fs::exists(ck)) << value;
  }
  ::unsetenv("PCOUNT_CHECKPOINT_SECONDS");
  for (const std::string method : {"foo\nbar", "\x1b[31mred"}) {
    const CommandResult r = run_count({"--queens", "8", "--method", method});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_TRUE(is_one_line(r.err)) << r.err;
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
    EXPECT_TRUE(r.err.find("\\x0a") != std::string::npos || r.err.find("\\x1b") != std::string::npos) << r.err;
  }
}

TEST(FileSafety, ASignalDuringTheSetUpPrintsTheStoppedLine) {
  // --estimate's notice says when the set-up has started (the 2x6 class
  // lists take seconds); the signal comes after it, during the set-up.
  const fs::path dir = scratch("setup-signal");
  const std::string err = (dir / "err").string();
  for (const int sig : {SIGINT, SIGTERM}) {
    const pid_t pid = test::start_count({"--sudoku", "2x6", "--estimate", "0.1"}, "/dev/null", err);
    for (int i = 0; i < 600 && slurp(err).find("cannot be cut short") == std::string::npos; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ::kill(pid, sig);
    const int status = test::wait_status(pid);
    const std::string text = slurp(err);
    EXPECT_EQ(status, sig == SIGINT ? 130 : 143) << text;
    EXPECT_NE(text.find(std::string("count: stopped by ") + (sig == SIGINT ? "SIGINT" : "SIGTERM") +
                        " during the set-up, before any task ran"),
              std::string::npos)
        << text;
  }
}

}  // namespace
}  // namespace pcount
