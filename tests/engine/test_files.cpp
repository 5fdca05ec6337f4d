#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "pcount/engine/files.hpp"
#include "support/run_command.hpp"

namespace pcount {
namespace {

namespace fs = std::filesystem;

/// The names in `dir`, sorted.
std::vector<std::string> names(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(AtomicWriter, WritesInPiecesAndReplacesOnlyOnCommit) {
  const fs::path dir = test::scratch_dir("atomic-writer");
  const fs::path file = dir / "list.txt";
  test::write_file(file, "old\n");
  std::string want;
  {
    engine::AtomicWriter out(file.string());
    // Pieces that cross the 1 MiB buffer, and one larger than it.
    for (int i = 0; i < 200000; ++i) {
      const std::string line = std::to_string(i) + " " + std::string(static_cast<std::size_t>(i % 13), 'x') + "\n";
      out.write(line);
      want += line;
    }
    const std::string big(3 << 20, 'y');
    out.write(big);
    want += big;
    EXPECT_EQ(test::slurp(file.string()), "old\n");  // nothing shows before the commit
    out.commit();
  }
  EXPECT_EQ(test::slurp(file.string()), want);
  EXPECT_EQ(names(dir), std::vector<std::string>{"list.txt"});  // no temporary file left
  {
    engine::AtomicWriter abandoned(file.string());
    abandoned.write("half a file");
  }  // destroyed uncommitted: the old file stays, the temporary goes
  EXPECT_EQ(test::slurp(file.string()), want);
  EXPECT_EQ(names(dir), std::vector<std::string>{"list.txt"});
  EXPECT_THROW(engine::AtomicWriter((dir / "no-such-dir" / "f").string()), std::runtime_error);
}

TEST(AtomicWriter, NeverWritesThroughAPlantedLink) {
  const fs::path dir = test::scratch_dir("atomic-writer-link");
  const fs::path target = dir / "target";
  test::write_file(target, "keep\n");
  fs::create_symlink(target, dir / "out.txt");
  {
    engine::AtomicWriter out((dir / "out.txt").string());
    out.write("new\n");
    out.commit();
  }
  EXPECT_EQ(test::slurp(target.string()), "keep\n");
  EXPECT_FALSE(fs::is_symlink(dir / "out.txt"));  // the link itself was replaced by the file
  EXPECT_EQ(test::slurp((dir / "out.txt").string()), "new\n");
}

}  // namespace
}  // namespace pcount
