// typeflow/io/file/durable.hpp — files written atomically and durably.
//
// A checkpoint or state file is written to a temporary file beside its final name
// ("<name>.tmp.<random>", created with O_EXCL), flushed, fsync'ed, renamed over the final
// name, and then the directory is fsync'ed: a crash at any moment leaves either the old
// file or the complete new one, never a partial one (Pillai et al., OSDI'14). Every write
// error (a full disk, RLIMIT_FSIZE, an I/O error) is reported as typeflow::unknown_error
// naming the file, and the temporary file is removed.
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

namespace detail {

/// "<name>.tmp.<16 hex digits>": unique per call (random, pid and a counter mixed).
inline std::string temp_name_for(const std::string& final_path) {
  static std::atomic<std::uint64_t> counter{0};
  std::random_device rd;
  std::uint64_t x = (std::uint64_t{rd()} << 32) ^ rd();
  x ^= static_cast<std::uint64_t>(::getpid()) * 0x9E3779B97F4A7C15ULL;
  x ^= counter.fetch_add(1) * 0xBF58476D1CE4E5B9ULL;
  x ^= static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  static constexpr char hex[] = "0123456789abcdef";
  std::string s = final_path + ".tmp.";
  for (int i = 15; i >= 0; --i) s += hex[(x >> (4 * i)) & 0xF];
  return s;
}

}  // namespace detail

/// Whether `file_name` (no directory) is a temporary file that writing `final_name`
/// would create: "<final_name>.tmp.<16 hex digits>".
inline bool is_temp_file_of(std::string_view file_name, std::string_view final_name) {
  if (file_name.size() != final_name.size() + 5 + 16 || file_name.substr(0, final_name.size()) != final_name)
    return false;
  if (file_name.substr(final_name.size(), 5) != ".tmp.") return false;
  for (char c : file_name.substr(final_name.size() + 5))
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

/// fsync of a directory, so that a rename or unlink in it is durable.
inline void sync_directory(const std::filesystem::path& dir) {
  const std::string d = dir.empty() ? std::string(".") : dir.string();
  const int fd = ::open(d.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw unknown_error("Cannot open directory " + d + " to sync it: " + detail::errno_text(errno));
  const int r = detail::retry_fsync(fd);
  const int e = errno;
  ::close(fd);
  // Some file systems cannot fsync directories (EINVAL); the rename is then as durable as
  // that file system makes it.
  if (r != 0 && e != EINVAL)
    throw unknown_error("Cannot sync directory " + d + ": " + detail::errno_text(e));
}

/// An output stream buffer on a file descriptor that remembers the first write error.
/// Writes of at least its buffer size go straight to write(2).
class fd_output_buffer : public std::streambuf {
 public:
  explicit fd_output_buffer(int fd, std::size_t buffer_size = std::size_t{1} << 20)
      : fd_(fd), buffer_(new char[buffer_size]), size_(buffer_size) {
    setp(buffer_.get(), buffer_.get() + size_);
  }
  fd_output_buffer(const fd_output_buffer&) = delete;
  fd_output_buffer& operator=(const fd_output_buffer&) = delete;

  /// errno of the first failed write, 0 if none.
  int error() const noexcept { return error_; }
  std::uint64_t bytes_written() const noexcept { return written_; }

 protected:
  int sync() override { return flush_buffer() ? 0 : -1; }

  int_type overflow(int_type ch) override {
    if (!flush_buffer()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }

  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (error_) return 0;
    const auto room = static_cast<std::streamsize>(epptr() - pptr());
    if (n <= room) {
      std::memcpy(pptr(), s, static_cast<std::size_t>(n));
      pbump(static_cast<int>(n));
      return n;
    }
    if (!flush_buffer()) return 0;
    if (static_cast<std::size_t>(n) < size_) {
      std::memcpy(pptr(), s, static_cast<std::size_t>(n));
      pbump(static_cast<int>(n));
      return n;
    }
    return write_all(s, static_cast<std::size_t>(n)) ? n : 0;
  }

 private:
  bool flush_buffer() {
    const auto n = static_cast<std::size_t>(pptr() - pbase());
    setp(buffer_.get(), buffer_.get() + size_);
    return n == 0 || write_all(buffer_.get(), n);
  }
  bool write_all(const char* p, std::size_t n) {
    if (error_) return false;
    while (n > 0) {
      const ssize_t w = ::write(fd_, p, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        error_ = errno;
        return false;
      }
      if (w == 0) {
        error_ = ENOSPC;
        return false;
      }
      p += w;
      n -= static_cast<std::size_t>(w);
      written_ += static_cast<std::uint64_t>(w);
    }
    start_writeback();
    return true;
  }

  // Starts the disk writes of every full 8 MiB written so far without waiting for them
  // (Linux's sync_file_range), so that the final fsync has little left to do and writing a
  // large checkpoint overlaps with checksumming and copying the rest. Only a hint: fsync
  // remains what makes the file durable.
  void start_writeback() noexcept {
#if defined(__linux__) && defined(SYNC_FILE_RANGE_WRITE)
    constexpr std::uint64_t step = std::uint64_t{8} << 20;
    while (written_ - synced_ >= step) {
      ::sync_file_range(fd_, static_cast<std::int64_t>(synced_), static_cast<std::int64_t>(step), SYNC_FILE_RANGE_WRITE);
      synced_ += step;
    }
#endif
  }

  int fd_;
  std::unique_ptr<char[]> buffer_;
  std::size_t size_;
  int error_ = 0;
  std::uint64_t written_ = 0;
  std::uint64_t synced_ = 0;
};

/// Writes a file atomically and durably: write to stream(), then commit(). Destroying
/// it without commit() (an exception) removes the temporary file.
class atomic_file_writer {
 public:
  explicit atomic_file_writer(std::filesystem::path final_path)
      : final_(std::move(final_path)), temp_(detail::temp_name_for(final_.string())) {
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd_ < 0)
      throw unknown_error("Cannot create " + temp_ + " to write " + final_.string() + ": " +
                          detail::errno_text(errno));
    buffer_ = std::make_unique<fd_output_buffer>(fd_);
    stream_ = std::make_unique<std::ostream>(buffer_.get());
  }
  atomic_file_writer(const atomic_file_writer&) = delete;
  atomic_file_writer& operator=(const atomic_file_writer&) = delete;
  ~atomic_file_writer() { abandon(); }

  std::ostream& stream() noexcept { return *stream_; }
  const std::filesystem::path& path() const noexcept { return final_; }
  const std::string& temp_path() const noexcept { return temp_; }

  /// Flush, fsync, close, rename over the final name, fsync the directory.
  void commit() {
    stream_->flush();
    if (buffer_->error() != 0 || !*stream_) fail("write", buffer_->error() ? buffer_->error() : EIO);
    if (detail::retry_fsync(fd_) != 0) fail("sync", errno);
    const int fd = std::exchange(fd_, -1);
    if (::close(fd) != 0 && errno != EINTR) fail("close", errno);
    if (::rename(temp_.c_str(), final_.c_str()) != 0) fail("rename", errno);
    committed_ = true;
    sync_directory(final_.parent_path());
  }

  /// Throws the error of a failed write (after removing the temporary file).
  [[noreturn]] void fail(const char* what, int e) {
    abandon();
    throw unknown_error(std::string("Failed to ") + what + " " + final_.string() + ": " + detail::errno_text(e) +
                        " (nothing was written under that name)");
  }

  /// errno of the first failed write, 0 if none.
  int write_error() const noexcept { return buffer_ ? buffer_->error() : 0; }

 private:
  void abandon() noexcept {
    if (fd_ >= 0) {
      ::close(fd_);
      fd_ = -1;
    }
    if (!committed_ && !removed_) {
      ::unlink(temp_.c_str());
      removed_ = true;
    }
  }

  std::filesystem::path final_;
  std::string temp_;
  int fd_ = -1;
  std::unique_ptr<fd_output_buffer> buffer_;
  std::unique_ptr<std::ostream> stream_;
  bool committed_ = false;
  bool removed_ = false;
};

/// Replaces the file at `path` with `contents`, atomically and durably.
inline void write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
  atomic_file_writer w(path);
  w.stream().write(contents.data(), static_cast<std::streamsize>(contents.size()));
  w.commit();
}

}  // namespace typeflow::io
