#include "driver/output_file.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pcount/errors.hpp"

namespace pcount::driver {

namespace {
constexpr std::size_t kBufferBytes = std::size_t{1} << 16;
}

OutputFile::OutputFile(std::string path, std::uint64_t length) : path_(std::move(path)), written_(length) {
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw InvalidArgument("--output", path_ + ": cannot be written: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    throw InvalidArgument("--output", path_ + ": is not a regular file");
  }
  if (static_cast<std::uint64_t>(st.st_size) < length) {
    ::close(fd_);
    throw InvalidArgument("--output", path_ + ": holds " + std::to_string(st.st_size) +
                                          " bytes, but the checkpoint records " + std::to_string(length) +
                                          " written; it was changed since, so remove both to start afresh");
  }
  if (::ftruncate(fd_, static_cast<off_t>(length)) != 0 || ::lseek(fd_, static_cast<off_t>(length), SEEK_SET) < 0) {
    const std::string why = std::strerror(errno);
    ::close(fd_);
    throw InvalidArgument("--output", path_ + ": cannot be cut to the checkpoint's length: " + why);
  }
  buffer_.reserve(kBufferBytes);
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
  buffer_.push_back(traits_type::to_char_type(c));
  if (buffer_.size() >= kBufferBytes && !write_buffer()) return traits_type::eof();
  return c;
}

std::streamsize OutputFile::xsputn(const char* s, std::streamsize n) {
  buffer_.append(s, static_cast<std::size_t>(n));
  if (buffer_.size() >= kBufferBytes && !write_buffer()) return 0;
  return n;
}

int OutputFile::sync() { return write_buffer() ? 0 : -1; }

}  // namespace pcount::driver
