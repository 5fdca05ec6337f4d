#pragma once
/// @file
/// The files a run writes: checked before any work, written atomically.
///
/// Every output of a run (a shard result, a profile, an SVG, a cache entry,
/// a checkpoint header) is written whole to a temporary file
/// `PATH.tmp.<pid>.<n>` in the target's own directory, flushed to disk and renamed over `PATH`, so a reader sees the
/// old file or the new one, never half of one. Before a run starts, each
/// output path is checked to be writable in exactly that way, so that a
/// typo costs nothing instead of the whole count.

#include <string>
#include <string_view>

namespace pcount::engine {

/// Writes `content` to `path` atomically (temporary file, fsync, rename,
/// fsync of the directory); safe when several processes write the same path
/// at once. Throws
/// std::runtime_error("<path>: cannot write: <reason>") on any failure; the
/// temporary file is removed then and `path` is left as it was.
void write_atomically(const std::string& path, std::string_view content);

/// Checks before any work that `path` can be written later by
/// write_atomically (or appended to, for a checkpoint): it must not be an
/// existing directory or other non-regular file, an existing file must be
/// writable, and its directory must let a new file be created beside it
/// (tried with a name of this process's own, created exclusively and
/// removed again, so no existing file is touched). Throws
/// InvalidArgument(option, "<path>: <why>") otherwise, e.g.
/// "/tmp: is a directory, expected a file" or
/// "/proc/x/y: cannot be created: No such file or directory".
void check_output_file(const std::string& option, const std::string& path);

/// Checks that an input `path` can be read as a file: it exists, is not a
/// directory and opens for reading. Throws InvalidArgument(option, "<path>:
/// <why>") otherwise.
void check_input_file(const std::string& option, const std::string& path);

/// Whether `a` and `b` name the same file: the same inode when both exist,
/// else the same normalised absolute path (std::filesystem::weakly_canonical).
[[nodiscard]] bool same_file(const std::string& a, const std::string& b);

}  // namespace pcount::engine
