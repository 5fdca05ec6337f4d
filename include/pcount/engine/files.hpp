#pragma once
/// @file
/// The files a run writes: checked before any work, written atomically.
///
/// This is the one place that creates files (docs/hpc.md, "File safety").
///
/// Every output of a run (a shard result, a profile, an SVG, a cache entry,
/// a checkpoint header) is written whole to a temporary file
/// `PATH.tmp.<12 random hex digits>` in the target's own directory, created
/// exclusively (O_CREAT|O_EXCL|O_NOFOLLOW, so a planted file or symbolic
/// link at that name is never written through), flushed to disk and renamed
/// over `PATH`, so a reader sees the old file or the new one, never half of
/// one. Files written in place (a checkpoint, the --output listing) are
/// opened by open_regular_file, which never follows a symbolic link and
/// takes regular files only. Before a run starts, each output path is
/// checked to be writable in exactly that way, so that a typo costs nothing
/// instead of the whole count.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace pcount::engine {

/// Writes `content` to `path` atomically (temporary file, fsync, rename,
/// fsync of the directory); safe when several processes write the same path
/// at once. Throws
/// std::runtime_error("<path>: cannot write: <reason>") on any failure; the
/// temporary file is removed then and `path` is left as it was.
void write_atomically(const std::string& path, std::string_view content);

/// write_atomically in pieces, for a file too large to build in memory (a
/// class list of 10⁸ lines): the pieces go, through a 1 MiB buffer, to a
/// temporary file beside `path` (created as write_atomically creates its
/// own), and commit() renames it over `path`. Destroyed uncommitted (an
/// exception on the way), it removes the temporary file and `path` is left
/// as it was. Every call throws std::runtime_error("<path>: cannot write:
/// <reason>") on a failed create, write, fsync or rename.
class AtomicWriter {
public:
  explicit AtomicWriter(std::string path);
  ~AtomicWriter();
  AtomicWriter(const AtomicWriter&) = delete;
  AtomicWriter& operator=(const AtomicWriter&) = delete;
  /// Appends `text`.
  void write(std::string_view text);
  /// Flushes, fsyncs and renames the file over `path`, then fsyncs the
  /// directory. Nothing may be written after.
  void commit();
  /// Flushes, fsyncs and closes the temporary file and hands it over: the
  /// caller links or renames it, or removes it. Returns its name.
  [[nodiscard]] std::string close_temporary();

private:
  void flush();
  [[noreturn]] void fail(int err);
  std::string path_;
  std::string tmp_;
  int fd_ = -1;
  std::string buffer_;
};

/// Checks before any work that `path` can be written later by
/// write_atomically (or in place, for a checkpoint or --output): it must not
/// be "-" (an output option never means standard output), a symbolic link
/// (even one to a regular file: /dev/stdout is one), a directory, a device,
/// a FIFO or a socket; an existing file must be writable, and its directory
/// must let a new file be created beside it (tried with a random name,
/// created exclusively and removed again, so no existing file is touched).
/// Throws InvalidArgument(option, "<path>: <why>") otherwise, e.g.
/// "/tmp: is a directory, expected a file",
/// "/dev/stdout: is a symbolic link; outputs are never written through a
/// link (name the file itself)" or
/// "/proc/x/y: cannot be created: No such file or directory".
void check_output_file(const std::string& option, const std::string& path);

/// Opens `path` in place (a checkpoint, the --output file) with `access`
/// (O_RDONLY, O_WRONLY or O_RDWR; O_CLOEXEC is added), creating it (mode
/// 0644 less the umask) when `create`. The last component is never followed
/// as a symbolic link (O_NOFOLLOW), a FIFO never blocks the open
/// (O_NONBLOCK, cleared after), and anything but a regular file is refused
/// after the open (fstat), so nothing can be swapped in between a check and
/// the open. Returns the descriptor; throws std::runtime_error("<path>:
/// <why>") with errno kept (ELOOP for a link, EINVAL for another kind of
/// file), the why being errno's text or "is a symbolic link" / "is not a
/// regular file".
[[nodiscard]] int open_regular_file(const std::string& path, int access, bool create);

/// Takes a POSIX advisory lock (fcntl F_SETLK: a write lock when `write`,
/// else a read lock) on the whole of open file `fd`, held until the
/// descriptor is closed. Returns "" when taken, or when the file system has
/// no locks; otherwise "is in use by process P (another run of this job?)".
[[nodiscard]] std::string lock_file(int fd, bool write);

/// A file's identity: (device, inode), as stat(2) gives them.
struct FileId {
  std::uint64_t device = 0;  ///< st_dev
  std::uint64_t inode = 0;   ///< st_ino
  friend bool operator==(const FileId&, const FileId&) = default;
};

/// The identity of the regular file `path` (lstat: a symbolic link is not
/// followed and gives nullopt), or nullopt when it does not exist or is not
/// a regular file.
[[nodiscard]] std::optional<FileId> regular_file_id(const std::string& path);

/// The identity of open descriptor `fd` (e.g. 1, standard output) when it
/// is a regular file; nullopt for a terminal, pipe, device or closed fd.
[[nodiscard]] std::optional<FileId> regular_fd_id(int fd);

/// Checks that an input `path` can be read as a file: it is not "-" (the
/// options that read standard input check "-" themselves), it exists, is
/// not a directory and opens for reading. Throws InvalidArgument(option,
/// "<path>: <why>") otherwise.
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

/// The bytes of an input read whole before a run: a regular file mapped
/// read-only (no copy, no fresh pages to fill), or a stream read in blocks
/// into a buffer that grows without zeroing what it is about to receive.
///
/// A mapped file that shrinks while it is mapped (another program truncates
/// or rewrites it during the run) turns reads of its lost pages into
/// SIGBUS. While a file is mapped, a SIGBUS handler checks whether the
/// faulting address lies in the mapping: then the first thread to fault
/// writes one prepared line to stderr and ends the process with status 1
/// (no core dump, no wrong count); any other SIGBUS gets the previous action
/// back and recurs there. One mapping at a time in a process.
class InputBytes {
public:
  InputBytes() = default;
  ~InputBytes();
  InputBytes(const InputBytes&) = delete;
  InputBytes& operator=(const InputBytes&) = delete;

  /// The bytes so far (the mapping, or the buffer).
  [[nodiscard]] const char* data() const { return mapped_ ? mapped_ : data_.get(); }
  /// How many bytes data() holds.
  [[nodiscard]] std::size_t size() const { return size_; }
  /// Maps regular file `path` of `bytes` bytes (read-only, opened without
  /// following a symbolic link) as the whole buffer; false (buffer
  /// unchanged) when that cannot be done, or the file is no longer `bytes`
  /// long once mapped: the caller reads it instead. If the file shrinks
  /// while mapped, reading the lost part prints `shrunk` (one line ending
  /// in '\n') and exits with status 1.
  bool map_file(const std::string& path, std::size_t bytes, const std::string& shrunk);
  /// Room for `n` more bytes at data() + size(); returns where they go.
  char* grow(std::size_t n);
  /// Records `n` bytes written at the grow() pointer.
  void commit(std::size_t n) { size_ += n; }
  /// Makes room for `n` bytes ahead of time (one allocation for a file of known size).
  void reserve(std::size_t n) { (void)grow(n); }

private:
  std::unique_ptr<char[]> data_;
  const char* mapped_ = nullptr;  ///< the mapped file (map_file), else null
  std::size_t size_ = 0, capacity_ = 0;
};

/// "16 MiB", "512 KiB" or "100 bytes": a byte count for messages.
[[nodiscard]] std::string byte_size_text(std::size_t bytes);

/// Whether `a` and `b` name the same file: the same inode when both exist,
/// else the same normalised absolute path (std::filesystem::weakly_canonical).
[[nodiscard]] bool same_file(const std::string& a, const std::string& b);

}  // namespace pcount::engine
