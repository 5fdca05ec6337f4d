#include "pcount/engine/data_files.hpp"

#include <system_error>

namespace pcount::engine {

namespace fs = std::filesystem;

fs::path executable_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

fs::path installed_data_dir() {
  const fs::path dir = executable_dir();
  return dir.empty() ? fs::path() : (dir / ".." / "share" / "pcount").lexically_normal();
}

std::optional<fs::path> find_data_file(const std::string& relative) {
  const fs::path dir = executable_dir();
  if (dir.empty()) return std::nullopt;
  for (const fs::path& base : {installed_data_dir(), (dir / ".." / "data").lexically_normal()}) {
    std::error_code ec;
    const fs::path file = base / relative;
    if (fs::is_regular_file(file, ec)) return file;
  }
  return std::nullopt;
}

}  // namespace pcount::engine
