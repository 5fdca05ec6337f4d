#pragma once
// The file of --output (exactly-once listings; driver/run_job.cpp). Not a
// public header.
#include <cstdint>
#include <streambuf>
#include <string>

namespace pcount::driver {

/// A std::streambuf over the --output file: every write is checked, it
/// knows the file's length (what is written and what is still buffered),
/// and it can be synced to disk before a checkpoint records that length.
class OutputFile : public std::streambuf {
public:
  /// Opens (creating) `path` and cuts it to `length` bytes: what the
  /// checkpoint recorded as written by earlier runs (0 for a fresh run).
  /// Throws InvalidArgument("--output") when the file cannot be opened or
  /// is shorter than `length` (changed since the checkpoint was written).
  OutputFile(std::string path, std::uint64_t length);
  ~OutputFile() override;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  /// Bytes in the file once the buffer is written.
  [[nodiscard]] std::uint64_t length() const { return written_ + buffer_.size(); }
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
  /// Writes the buffer; false (and errno set) on failure.
  bool write_buffer();

  std::string path_;
  int fd_ = -1;
  std::uint64_t written_ = 0;
  std::string buffer_;
};

}  // namespace pcount::driver
