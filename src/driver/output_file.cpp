#include "driver/output_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pcount/engine/files.hpp"
#include "pcount/errors.hpp"

namespace pcount::driver {

namespace {
constexpr std::size_t kBufferBytes = std::size_t{1} << 16;
}

OutputFile::OutputFile(std::string path, const engine::OutputMark& mark) : path_(std::move(path)) {
  open_locked();
  try {
    check_committed(mark);
    if (::ftruncate(fd_, static_cast<off_t>(mark.end)) != 0 || ::lseek(fd_, static_cast<off_t>(mark.end), SEEK_SET) < 0)
      throw InvalidArgument("--output", path_ + ": cannot be cut to the checkpoint's length: " + std::strerror(errno));
  } catch (...) {
    ::close(fd_);
    throw;
  }
  written_ = mark.end;
  digest_ = mark.digest;
  buffer_.reserve(kBufferBytes);
}

void OutputFile::open_locked() {
  try {
    fd_ = engine::open_regular_file(path_, O_RDWR, true);
  } catch (const std::runtime_error& e) {
    throw InvalidArgument("--output", std::string(e.what()).insert(path_.size(), ": cannot be written"));
  }
  if (const std::string busy = engine::lock_file(fd_, true); !busy.empty()) {
    ::close(fd_);
    throw InvalidArgument("--output", path_ + ": " + busy + "; two runs never write one --output file");
  }
  struct stat st {};
  if (::fstat(fd_, &st) == 0) inode_ = static_cast<std::uint64_t>(st.st_ino);
}

void OutputFile::check_committed(const engine::OutputMark& mark) {
  const std::string afresh = "; remove both it and the checkpoint to start afresh";
  struct stat st {};
  if (::fstat(fd_, &st) != 0) throw InvalidArgument("--output", path_ + ": " + std::strerror(errno));
  if (static_cast<std::uint64_t>(st.st_size) < mark.end)
    throw InvalidArgument("--output", path_ + ": holds " + std::to_string(st.st_size) +
                                          " bytes, but the checkpoint records " + std::to_string(mark.end) +
                                          " written; it was changed since (or is another file)" + afresh);
  std::string chunk(kBufferBytes, '\0');
  std::uint64_t digest = engine::kFnv1a64Basis;
  for (std::uint64_t done = 0; done < mark.end;) {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), mark.end - done));
    const ssize_t n = ::pread(fd_, chunk.data(), want, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw InvalidArgument("--output",
                            path_ + ": cannot be read back: " + (n < 0 ? std::strerror(errno) : "it ended early"));
    digest = engine::fnv1a64(std::string_view(chunk.data(), static_cast<std::size_t>(n)), digest);
    done += static_cast<std::uint64_t>(n);
  }
  if (digest != mark.digest)
    throw InvalidArgument("--output", path_ + ": its first " + std::to_string(mark.end) +
                                          " bytes are not what this job wrote (edited since, or another file)" +
                                          afresh);
  if (mark.inode != 0 && mark.inode != inode_)
    note_ = "--output " + path_ + " is not the file this job wrote (inode " + std::to_string(inode_) + ", recorded " +
            std::to_string(mark.inode) + "), but its " + std::to_string(mark.end) +
            " committed bytes are the same: a copy, written on from there";
}

OutputFile::~OutputFile() {
  write_buffer();  // errors were reported by sync(); nothing more to say here
  ::close(fd_);
}

bool OutputFile::write_buffer() {
  std::size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      buffer_.erase(0, done);
      written_ += done;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  written_ += done;
  buffer_.clear();
  return true;
}

void OutputFile::sync_to_disk() {
  if (!write_buffer() || ::fdatasync(fd_) != 0)
    throw std::runtime_error("--output: " + path_ + ": " + std::strerror(errno));
}

void OutputFile::sync_written() const {
  if (::fdatasync(fd_) != 0) throw std::runtime_error("--output: " + path_ + ": " + std::strerror(errno));
}

OutputFile::int_type OutputFile::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char ch = traits_type::to_char_type(c);
  buffer_.push_back(ch);
  digest_ = engine::fnv1a64(std::string_view(&ch, 1), digest_);
  if (buffer_.size() >= kBufferBytes && !write_buffer()) return traits_type::eof();
  return c;
}

std::streamsize OutputFile::xsputn(const char* s, std::streamsize n) {
  buffer_.append(s, static_cast<std::size_t>(n));
  digest_ = engine::fnv1a64(std::string_view(s, static_cast<std::size_t>(n)), digest_);
  if (buffer_.size() >= kBufferBytes && !write_buffer()) return 0;
  return n;
}

int OutputFile::sync() { return write_buffer() ? 0 : -1; }

}  // namespace pcount::driver
