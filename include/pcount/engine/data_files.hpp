#pragma once
/// @file
/// Data files that ship with pcount (data/ in the source tree, installed into
/// share/pcount/), found relative to the running program.
#include <filesystem>
#include <optional>
#include <string>

namespace pcount::engine {

/// The folder of the running executable (from /proc/self/exe); empty when
/// it cannot be read.
[[nodiscard]] std::filesystem::path executable_dir();

/// Where an installed or bundled program keeps its data: ../share/pcount
/// from the executable's folder (`cmake --install` and scripts/bundle put
/// data/ there).
[[nodiscard]] std::filesystem::path installed_data_dir();

/// The data file `relative` (e.g. "games/bulls-and-cows-optimal.json"):
/// under installed_data_dir(), else under ../data from the executable's
/// folder (a build inside the source tree: build/count); nullopt when
/// neither exists.
[[nodiscard]] std::optional<std::filesystem::path> find_data_file(const std::string& relative);

}  // namespace pcount::engine
