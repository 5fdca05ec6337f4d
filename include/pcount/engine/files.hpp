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

#include <cstddef>
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

/// Reads the whole of input file `path`, which must be a regular file (not a
/// device such as /dev/zero, a FIFO or a directory) of at most `max_bytes`
/// bytes; at most max_bytes + 1 bytes are ever read, so a file that grows
/// while it is read is refused too. Throws InvalidArgument(option, "<path>:
/// <why>") naming the cap, e.g. "/dev/zero: is not a regular file" or
/// "big.json: is larger than 16 MiB (the most this option reads)".
[[nodiscard]] std::string read_input_file(const std::string& option, const std::string& path, std::size_t max_bytes);

/// Reads `fd` from its current position to its end into `text`, reading at
/// most max_bytes + 1 bytes. Returns false (with the first max_bytes bytes
/// in `text`) when there were more than max_bytes. Throws
/// std::runtime_error(strerror) on a read error.
bool read_up_to(int fd, std::size_t max_bytes, std::string& text);

/// Creates `path` with `content` atomically and only if it does not exist:
/// the content is written to a temporary file beside it and hard-linked to
/// `path` (link(2) never replaces a file), so two processes racing to create
/// it cannot both succeed. Returns false when `path` already exists. On a
/// file system without hard links it falls back to write_atomically's
/// rename. Throws std::runtime_error("<path>: cannot write: <reason>").
bool create_atomically(const std::string& path, std::string_view content);

/// "16 MiB", "512 KiB" or "100 bytes": a byte count for messages.
[[nodiscard]] std::string byte_size_text(std::size_t bytes);

/// Whether `a` and `b` name the same file: the same inode when both exist,
/// else the same normalised absolute path (std::filesystem::weakly_canonical).
[[nodiscard]] bool same_file(const std::string& a, const std::string& b);

}  // namespace pcount::engine
