// typeflow/io/file/reading.hpp — files read only when they are regular files, and the stream
// buffers they are read through.
//
// Files are read only when they are regular files: open_regular_file opens without
// blocking (O_NONBLOCK, so a FIFO cannot hang the program) and checks with fstat, and
// anything else (a directory, a FIFO, a socket, a device) is FailedPrecondition naming the
// path and what it is.
#pragma once

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <ios>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <random>
#include <streambuf>
#include <string>
#include <string_view>
#include <utility>

#include "typeflow/core/errors.hpp"

#include "typeflow/io/detail/posix.hpp"

namespace typeflow::io {

/// "a directory", "a FIFO (named pipe)", ...: what a file of this st_mode is.
inline std::string file_kind(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

/// Opens `path` read-only if it is a regular file, and returns the descriptor (the caller
/// closes it). Never blocks: opened with O_NONBLOCK (a FIFO without a writer would block a
/// plain open, and its reads would wait for one), then checked with fstat. `what` names the
/// file in errors ("Checkpoint"): NotFound "<what> <path> not found" when it does not exist,
/// FailedPrecondition "<what> <path> is a directory, not a regular file" (or a FIFO, ...),
/// NotFound "Unable to open <what> <path>: <reason>" otherwise. `st` receives its status.
inline int open_regular_file(const std::filesystem::path& path, std::string_view what, struct ::stat* st = nullptr) {
  const std::string name = std::string(what) + " " + path.string();
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    const int e = errno;
    if (e == ENOENT || e == ENOTDIR) throw not_found_error(name + " not found");
    throw not_found_error("Unable to open " + name + ": " + detail::errno_text(e));
  }
  struct ::stat s {};
  if (::fstat(fd, &s) != 0) {
    const int e = errno;
    ::close(fd);
    throw not_found_error("Unable to open " + name + ": " + detail::errno_text(e));
  }
  if (!S_ISREG(s.st_mode)) {
    ::close(fd);
    throw failed_precondition_error(name + " is " + file_kind(s.st_mode) + ", not a regular file");
  }
  // Reads of a regular file never block; clear the flag all the same, so that the
  // descriptor reads as any other.
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  if (st) *st = s;
  return fd;
}

/// A read-only, seekable stream buffer over a file descriptor, which it owns (closes).
/// Reads of at least its buffer size go straight to read(2).
class fd_input_buffer : public std::streambuf {
 public:
  explicit fd_input_buffer(int fd, std::size_t buffer_size = std::size_t{64} << 10)
      : fd_(fd), buffer_(new char[buffer_size]), size_(buffer_size) {
    setg(buffer_.get(), buffer_.get(), buffer_.get());
  }
  fd_input_buffer(const fd_input_buffer&) = delete;
  fd_input_buffer& operator=(const fd_input_buffer&) = delete;
  ~fd_input_buffer() override {
    if (fd_ >= 0) ::close(fd_);
  }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    const ssize_t n = read_some(buffer_.get(), size_);
    if (n <= 0) return traits_type::eof();
    setg(buffer_.get(), buffer_.get(), buffer_.get() + n);
    return traits_type::to_int_type(*gptr());
  }

  std::streamsize xsgetn(char* s, std::streamsize n) override {
    std::streamsize done = 0;
    const auto buffered = std::min<std::streamsize>(n, egptr() - gptr());
    if (buffered > 0) {
      std::memcpy(s, gptr(), static_cast<std::size_t>(buffered));
      gbump(static_cast<int>(buffered));
      done = buffered;
    }
    while (done < n) {
      const auto left = static_cast<std::size_t>(n - done);
      if (left >= size_) {
        const ssize_t r = read_some(s + done, left);
        if (r <= 0) break;
        done += r;
      } else {
        if (traits_type::eq_int_type(underflow(), traits_type::eof())) break;
        const auto k = std::min<std::streamsize>(static_cast<std::streamsize>(left), egptr() - gptr());
        std::memcpy(s + done, gptr(), static_cast<std::size_t>(k));
        gbump(static_cast<int>(k));
        done += k;
      }
    }
    return done;
  }

  pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode which) override {
    if (!(which & std::ios_base::in)) return pos_type(off_type(-1));
    off_type target = off;
    if (dir == std::ios_base::cur) {
      const off_type at = ::lseek(fd_, 0, SEEK_CUR);
      if (at < 0) return pos_type(off_type(-1));
      target += at - (egptr() - gptr());
    } else if (dir == std::ios_base::end) {
      const off_type end = ::lseek(fd_, 0, SEEK_END);
      if (end < 0) return pos_type(off_type(-1));
      target += end;
    }
    if (target < 0 || ::lseek(fd_, target, SEEK_SET) < 0) return pos_type(off_type(-1));
    setg(buffer_.get(), buffer_.get(), buffer_.get());
    return pos_type(target);
  }
  pos_type seekpos(pos_type pos, std::ios_base::openmode which) override {
    return seekoff(off_type(pos), std::ios_base::beg, which);
  }

 private:
  ssize_t read_some(char* p, std::size_t n) {
    ssize_t r;
    do {
      r = ::read(fd_, p, n);
    } while (r < 0 && errno == EINTR);
    return r;
  }

  int fd_;
  std::unique_ptr<char[]> buffer_;
  std::size_t size_;
};

/// A read-only, seekable stream buffer over bytes in memory (not copied).
class memory_input_buffer : public std::streambuf {
 public:
  memory_input_buffer(const void* data, std::size_t size) {
    char* p = const_cast<char*>(static_cast<const char*>(data));
    setg(p, p, p + size);
  }

 protected:
  pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode which) override {
    if (!(which & std::ios_base::in)) return pos_type(off_type(-1));
    off_type base = dir == std::ios_base::beg ? 0 : dir == std::ios_base::cur ? gptr() - eback() : egptr() - eback();
    const off_type target = base + off;
    if (target < 0 || target > egptr() - eback()) return pos_type(off_type(-1));
    setg(eback(), eback() + target, egptr());
    return pos_type(target);
  }
  pos_type seekpos(pos_type pos, std::ios_base::openmode which) override {
    return seekoff(off_type(pos), std::ios_base::beg, which);
  }
};

}  // namespace typeflow::io
