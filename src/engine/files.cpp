#include "pcount/engine/files.hpp"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pcount/errors.hpp"

namespace pcount::engine {

namespace fs = std::filesystem;

namespace {

/// Twelve hex digits from the kernel's random source (getrandom(2)), so
/// that a temporary name cannot be guessed and planted in advance.
std::string random_suffix() {
  unsigned char bytes[6] = {};
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(std::string("getrandom: ") + std::strerror(errno));
    got += static_cast<std::size_t>(n);
  }
  static const char* const kHex = "0123456789abcdef";
  std::string s;
  for (const unsigned char b : bytes) {
    s += kHex[b >> 4];
    s += kHex[b & 15];
  }
  return s;
}

/// Creates a new file `<path><infix><random>` exclusively (O_EXCL with
/// O_NOFOLLOW: an existing file or symbolic link of that name is never
/// opened; another name is tried instead). Returns its descriptor and sets
/// `name`; -1 with errno set on failure.
int create_exclusive(const std::string& path, const char* infix, std::string& name) {
  for (int attempt = 0; attempt < 64; ++attempt) {
    name = path + infix + random_suffix();
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

/// Writes `content` to a new temporary file beside `path` and fsyncs it;
/// returns its name. Throws std::runtime_error("<path>: cannot write: ...").
std::string write_temporary(const std::string& path, std::string_view content) {
  AtomicWriter out(path);
  out.write(content);
  return out.close_temporary();
}

/// Makes a rename or link into `path`'s directory durable.
void sync_directory_of(const std::string& path) {
  const fs::path dir = fs::path(path).parent_path();
  const int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace

constexpr std::size_t kWriterBuffer = std::size_t{1} << 20;

AtomicWriter::AtomicWriter(std::string path) : path_(std::move(path)) {
  fd_ = create_exclusive(path_, ".tmp.", tmp_);
  if (fd_ < 0) throw std::runtime_error(path_ + ": cannot write: " + std::strerror(errno));
  buffer_.reserve(kWriterBuffer);
}

AtomicWriter::~AtomicWriter() {
  if (fd_ >= 0) ::close(fd_);
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
}

void AtomicWriter::fail(int err) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
  tmp_.clear();
  throw std::runtime_error(path_ + ": cannot write: " + std::strerror(err));
}

void AtomicWriter::flush() {
  if (fd_ < 0) fail(EBADF);
  std::size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(errno);
    done += static_cast<std::size_t>(n);
  }
  buffer_.clear();
}

void AtomicWriter::write(std::string_view text) {
  if (buffer_.size() + text.size() > kWriterBuffer) flush();
  if (text.size() > kWriterBuffer) {
    buffer_.assign(text);  // one large piece goes straight through
    flush();
    return;
  }
  buffer_.append(text);
}

std::string AtomicWriter::close_temporary() {
  flush();
  if (::fsync(fd_) != 0) fail(errno);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail(errno);
  return std::exchange(tmp_, std::string());
}

void AtomicWriter::commit() {
  const std::string tmp = close_temporary();
  if (::rename(tmp.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw std::runtime_error(path_ + ": cannot write: " + std::strerror(err));
  }
  sync_directory_of(path_);
}

void write_atomically(const std::string& path, std::string_view content) {
  AtomicWriter out(path);
  out.write(content);
  out.commit();
}

bool create_atomically(const std::string& path, std::string_view content) {
  const std::string tmp = write_temporary(path, content);
  if (::link(tmp.c_str(), path.c_str()) == 0) {
    ::unlink(tmp.c_str());
    sync_directory_of(path);
    return true;
  }
  const int err = errno;
  if (err == EEXIST) {
    ::unlink(tmp.c_str());
    return false;
  }
  if (err == EPERM || err == EOPNOTSUPP || err == ENOSYS) {  // no hard links here: plain rename
    if (::rename(tmp.c_str(), path.c_str()) == 0) {
      sync_directory_of(path);
      return true;
    }
  }
  const std::string why = std::strerror(errno);
  ::unlink(tmp.c_str());
  throw std::runtime_error(path + ": cannot write: " + why);
}

void check_output_file(const std::string& option, const std::string& path) {
  if (path.empty()) throw InvalidArgument(option, "expected a file name, got an empty value");
  if (path == "-")
    throw InvalidArgument(option, "'-' is not standard output here: " + option +
                                      " writes a file (atomically, or resumed by a checkpoint); name a file");
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode))
      throw InvalidArgument(option, path +
                                        ": is a symbolic link; outputs are never written through a link (name "
                                        "the file itself)");
    if (S_ISDIR(st.st_mode)) throw InvalidArgument(option, path + ": is a directory, expected a file");
    if (!S_ISREG(st.st_mode))
      throw InvalidArgument(option, path +
                                        ": is not a regular file but a device, FIFO or socket (outputs are "
                                        "replaced whole, atomically)");
    if (::access(path.c_str(), W_OK) != 0)
      throw InvalidArgument(option, path + ": cannot be written: " + std::strerror(errno));
  }
  // The directory must take a new file beside the target, as
  // write_atomically will need: try one of a random name, created
  // exclusively, so that no existing file is ever touched.
  std::string probe;
  const int fd = create_exclusive(path, ".pcount-probe.", probe);
  if (fd < 0) throw InvalidArgument(option, path + ": cannot be created: " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

int open_regular_file(const std::string& path, int access, bool create) {
  const int flags = access | (create ? O_CREAT : 0) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
  const int fd = ::open(path.c_str(), flags, 0644);
  if (fd < 0) {
    const int err = errno;
    const std::string why = err == ELOOP ? "is a symbolic link" : std::strerror(err);
    errno = err;
    throw std::runtime_error(path + ": " + why);
  }
  struct stat st {};
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  const int status = regular ? ::fcntl(fd, F_GETFL) : -1;
  if (!regular || status < 0 || ::fcntl(fd, F_SETFL, status & ~O_NONBLOCK) != 0) {
    const int err = regular ? errno : EINVAL;
    ::close(fd);
    errno = err;
    throw std::runtime_error(path + ": " + (regular ? std::strerror(err) : "is not a regular file"));
  }
  return fd;
}

std::string lock_file(int fd, bool write) {
  struct flock lock {};
  lock.l_type = static_cast<short>(write ? F_WRLCK : F_RDLCK);
  lock.l_whence = SEEK_SET;
  if (::fcntl(fd, F_SETLK, &lock) == 0) return {};
  if (errno != EAGAIN && errno != EACCES) return {};  // no locks on this file system: go on without
  struct flock holder {};
  holder.l_type = static_cast<short>(write ? F_WRLCK : F_RDLCK);
  holder.l_whence = SEEK_SET;
  const bool known = ::fcntl(fd, F_GETLK, &holder) == 0 && holder.l_type != F_UNLCK && holder.l_pid > 0;
  return "is in use by " + (known ? "process " + std::to_string(holder.l_pid) : std::string("another process")) +
         " (another run of this job?)";
}

namespace {

FileId id_of(const struct stat& st) {
  return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
}

}  // namespace

std::optional<FileId> regular_file_id(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return id_of(st);
}

std::optional<FileId> regular_fd_id(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return id_of(st);
}

void check_input_file(const std::string& option, const std::string& path) {
  if (path.empty()) throw InvalidArgument(option, "expected a file name, got an empty value");
  if (path == "-") throw InvalidArgument(option, "'-' (standard input) is read by --puzzle-file only; name a file");
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw InvalidArgument(option, path + ": cannot be read: " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw InvalidArgument(option, path + ": is a directory, expected a file");
  if (::access(path.c_str(), R_OK) != 0)
    throw InvalidArgument(option, path + ": cannot be read: " + std::strerror(errno));
}

namespace {

/// The SIGBUS guard of a mapped input (InputBytes): the mapping's range and
/// the line to print, set before the handler is installed.
namespace bus_guard {
std::atomic<const char*> begin{nullptr};
std::atomic<std::size_t> size{0};
char message[1024];
std::size_t message_length = 0;
struct sigaction previous {};

extern "C" void on_sigbus(int, siginfo_t* info, void*) {
  const char* at = static_cast<const char*>(info->si_addr);
  const char* b = begin.load();
  if (b && at >= b && at < b + size.load()) {
    static std::atomic<bool> fired{false};
    if (fired.exchange(true))
      for (;;) ::pause();  // another thread is writing the line and exiting
    [[maybe_unused]] const ssize_t written = ::write(2, message, message_length);
    ::_exit(1);
  }
  ::sigaction(SIGBUS, &previous, nullptr);  // not ours: the fault recurs under the old action
}

/// Guards [at, at + bytes) with `line` (ended by '\n') as the message.
void arm(const char* at, std::size_t bytes, const std::string& line) {
  message_length = std::min(line.size(), sizeof message);
  std::memcpy(message, line.data(), message_length);
  size.store(bytes);
  begin.store(at);
  struct sigaction action {};
  action.sa_sigaction = on_sigbus;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGBUS, &action, &previous);
}

void disarm() {
  ::sigaction(SIGBUS, &previous, nullptr);
  begin.store(nullptr);
  size.store(0);
}
}  // namespace bus_guard

}  // namespace

InputBytes::~InputBytes() {
  if (mapped_) {
    bus_guard::disarm();
    ::munmap(const_cast<char*>(mapped_), size_);
  }
}

bool InputBytes::map_file(const std::string& path, std::size_t bytes, const std::string& shrunk) {
  if (bytes == 0 || size_ != 0 || mapped_) return false;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  void* at = ::mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  struct stat now {};
  const bool same = ::fstat(fd, &now) == 0 && S_ISREG(now.st_mode) && static_cast<std::uintmax_t>(now.st_size) == bytes;
  ::close(fd);
  if (at == MAP_FAILED) return false;
  if (!same) {
    ::munmap(at, bytes);
    return false;
  }
  mapped_ = static_cast<const char*>(at);
  size_ = bytes;
  bus_guard::arm(mapped_, size_, shrunk);
  return true;
}

char* InputBytes::grow(std::size_t n) {
  if (size_ + n > capacity_) {
    const std::size_t cap = std::max(2 * capacity_, size_ + n);
    std::unique_ptr<char[]> bigger(new char[cap]);
    if (size_) std::memcpy(bigger.get(), data_.get(), size_);
    data_ = std::move(bigger);
    capacity_ = cap;
  }
  return data_.get() + size_;
}

std::string byte_size_text(std::size_t bytes) {
  if (bytes >= (std::size_t{1} << 20) && bytes % (std::size_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= (std::size_t{1} << 10) && bytes % (std::size_t{1} << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

std::string read_input_file(const std::string& option, const std::string& path, std::size_t max_bytes) {
  check_input_file(option, path);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InvalidArgument(option, path + ": cannot be read: " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw InvalidArgument(option, path + ": cannot be read: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw InvalidArgument(option, path + ": is not a regular file");
  const std::string too_large = path + ": is larger than " + byte_size_text(max_bytes) + " (the most " + option +
                                " reads)";
  if (static_cast<std::size_t>(st.st_size) > max_bytes) throw InvalidArgument(option, too_large);
  std::string text;
  bool whole = false;
  try {
    whole = read_up_to(fd, max_bytes, text);
  } catch (const std::runtime_error& e) {
    throw InvalidArgument(option, path + ": cannot be read: " + e.what());
  }
  if (!whole) throw InvalidArgument(option, too_large);
  return text;
}

bool read_up_to(int fd, std::size_t max_bytes, std::string& text) {
  text.assign(std::min<std::size_t>(max_bytes + 1, 1 << 16), '\0');
  std::size_t done = 0;
  for (;;) {
    if (done == text.size()) {
      if (done > max_bytes) {
        text.resize(max_bytes);
        return false;
      }
      text.resize(std::min(max_bytes + 1, 2 * text.size()));
    }
    const ssize_t n = ::read(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(std::strerror(errno));
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  text.resize(done);
  return true;
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ea, eb;
  const bool a_exists = fs::exists(a, ea), b_exists = fs::exists(b, eb);
  if (a_exists && b_exists) {
    std::error_code ec;
    return fs::equivalent(a, b, ec);
  }
  std::error_code ec1, ec2;
  const fs::path pa = fs::weakly_canonical(fs::absolute(a, ec1), ec1);
  const fs::path pb = fs::weakly_canonical(fs::absolute(b, ec2), ec2);
  return !ec1 && !ec2 && pa == pb;
}

}  // namespace pcount::engine
