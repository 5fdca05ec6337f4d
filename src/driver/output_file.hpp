#pragma once
// The file of --output (exactly-once listings; driver/run_job.cpp). Not a
// public header.
#include <cstdint>
#include <streambuf>
#include <string>

#include "pcount/engine/runner.hpp"

namespace pcount::driver {

/// A std::streambuf over the --output file: every write is checked, it
/// knows the file's length and the digest of its bytes (what is written
/// and what is still buffered), and it can be synced to disk before a
/// checkpoint records that mark. The file is locked (fcntl) while open, so
/// two runs never write one --output file at once.
class OutputFile : public std::streambuf {
public:
  /// Opens (creating) `path` without following a symbolic link, locks it,
  /// checks that its first `mark.end` bytes are what the checkpoint recorded
  /// (their fnv1a64 equals `mark.digest`; a fresh run passes the empty
  /// mark), and cuts it to that length. Throws InvalidArgument("--output")
  /// when the file cannot be opened or locked, is not a regular file, is
  /// shorter than `mark.end`, or holds other bytes (edited since, or another
  /// file): nothing is written to it then.
  OutputFile(std::string path, const engine::OutputMark& mark);
  ~OutputFile() override;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  /// Bytes in the file once the buffer is written.
  [[nodiscard]] std::uint64_t length() const { return written_ + buffer_.size(); }
  /// The mark of the file once the buffer is written: length, digest, inode.
  [[nodiscard]] engine::OutputMark mark() const { return {length(), digest_, inode_}; }
  /// Non-empty when the resumed file is another inode than the one recorded
  /// but holds the same committed bytes (a copy, or a file moved to another
  /// file system): one line saying so.
  [[nodiscard]] const std::string& note() const { return note_; }
  /// Writes the buffer and fdatasyncs the file; throws std::runtime_error
  /// ("--output: <path>: <reason>") on failure.
  void sync_to_disk();
  /// fdatasync of what was written already (not the buffer): safe from
  /// another thread while this one writes (the checkpoint's writer thread).
  void sync_written() const;

protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

private:
  /// Opens and locks the file; throws InvalidArgument("--output").
  void open_locked();
  /// Checks the first `mark.end` bytes against the mark; throws InvalidArgument.
  void check_committed(const engine::OutputMark& mark);
  /// Writes the buffer; false (and errno set) on failure.
  bool write_buffer();

  std::string path_;
  int fd_ = -1;
  std::uint64_t written_ = 0;
  std::uint64_t digest_ = engine::kFnv1a64Basis;  ///< of every byte appended, buffered or not
  std::uint64_t inode_ = 0;
  std::string buffer_;
  std::string note_;
};

}  // namespace pcount::driver
