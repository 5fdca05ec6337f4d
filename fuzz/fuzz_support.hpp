#pragma once
// Helpers shared by the libFuzzer targets in this folder (not a public header).
//
// Each target defines LLVMFuzzerTestOneInput. Built with clang's
// -fsanitize=fuzzer it is a libFuzzer program (scripts/fuzz); built with
// replay_main.cpp it is a plain program that runs the target once per file
// named on its command line, which is how the committed corpus — every crash
// ever found included — runs as a regression test in the ordinary suite.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace pcount::fuzz {

/// A private scratch directory for this process (created on first use,
/// removed at exit). Targets that need a file (the checkpoint and shard
/// readers take paths) write their input there.
inline const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    std::string templ = (std::filesystem::temp_directory_path() / "pcount-fuzz-XXXXXX").string();
    if (::mkdtemp(templ.data()) == nullptr) std::abort();
    std::filesystem::path p(templ);
    static const std::filesystem::path to_remove = p;
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(to_remove, ec);
    });
    return p;
  }();
  return dir;
}

/// Writes `data` to `path` (truncating); aborts if that fails, since the
/// target could not test anything.
inline void write_file(const std::filesystem::path& path, std::string_view data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  if (!out) std::abort();
}

/// A property the code under test must keep was broken: print why and
/// abort, which libFuzzer reports as a crash and saves the input.
[[noreturn]] inline void broken(const std::string& what) {
  std::fprintf(stderr, "pcount fuzz: property broken: %s\n", what.c_str());
  std::abort();
}

}  // namespace pcount::fuzz
