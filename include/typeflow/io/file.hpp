// typeflow/io/file.hpp — files written atomically and durably, and stream buffers.
//
// A checkpoint or state file is written to a temporary file beside its final name
// ("<name>.tmp.<random>", created with O_EXCL), flushed, fsync'ed, renamed over the final
// name, and then the directory is fsync'ed: a crash at any moment leaves either the old
// file or the complete new one, never a partial one (Pillai et al., OSDI'14). Every write
// error (a full disk, RLIMIT_FSIZE, an I/O error) is reported as typeflow::unknown_error
// naming the file, and the temporary file is removed.
//
// A checkpoint being restored can also be mapped read-only (mapped_file), so that its
// tensors are verified where they lie in the page cache and copied once.
//
// Files are read only when they are regular files: open_regular_file opens without
// blocking (O_NONBLOCK, so a FIFO cannot hang the program) and checks with fstat, and
// anything else (a directory, a FIFO, a socket, a device) is FailedPrecondition naming the
// path and what it is.
//
// POSIX only (open, write, fsync, rename, mmap).
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

namespace typeflow::io {

namespace detail {

inline std::string errno_text(int e) { return std::strerror(e); }

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

inline int retry_fsync(int fd) {
  int r;
  do {
    r = ::fsync(fd);
  } while (r != 0 && errno == EINTR);
  return r;
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

/// A regular file mapped read-only, its pages faulted in up front.
///
/// `mapped_file::map(path)` gives nothing (and the caller reads the file with read(2)
/// instead) when the file cannot be opened, is not a regular file, is empty, or when mmap
/// or faulting the pages in fails; that includes a file that shrank between fstat and the
/// mapping, and a read error while faulting in (MADV_POPULATE_READ, Linux 5.14, reports
/// both as errors where touching the pages would raise SIGBUS; without it nothing is
/// mapped). The size is the file's st_size when it was mapped.
///
/// What a mapping cannot protect against: a process that truncates the file while it is
/// mapped makes the next access to a page beyond the new end raise SIGBUS, and a process
/// that writes into the file changes the bytes seen through the mapping (changed_since_mapped
/// tells a write(2) by the file's times). typeflow never does either to a checkpoint: it
/// writes a new file and renames it, and deleting a mapped file keeps its pages.
class mapped_file {
 public:
  static std::optional<mapped_file> map(const std::filesystem::path& path) {
    // O_NONBLOCK: opening a FIFO must not wait for a writer (it is then refused below).
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    struct ::stat st {};
    void* p = MAP_FAILED;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        static_cast<std::uint64_t>(st.st_size) <= std::numeric_limits<std::size_t>::max())
      p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
      ::close(fd);
      return std::nullopt;
    }
    mapped_file m(fd, static_cast<const unsigned char*>(p), st);
    if (!m.populate()) return std::nullopt;
    return m;
  }

  mapped_file(mapped_file&& o) noexcept
      : fd_(std::exchange(o.fd_, -1)), data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)),
        stat_(o.stat_) {}
  mapped_file& operator=(mapped_file&& o) noexcept {
    std::swap(fd_, o.fd_);
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(stat_, o.stat_);
    return *this;
  }
  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;
  ~mapped_file() {
    if (data_) ::munmap(const_cast<unsigned char*>(data_), size_);
    if (fd_ >= 0) ::close(fd_);
  }

  const unsigned char* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }

  /// Whether the file's size or modification time differ from when it was mapped (or fstat
  /// fails): true after a write(2) into it or a truncation, as precisely as the file
  /// system's timestamps (Linux 6.13 and later give a write after an fstat a distinct
  /// time), and after a `touch`. Not the status-change time: renaming or deleting the file
  /// (checkpoint rotation) changes that, and harms no mapping. A write through another
  /// process's writable mapping updates the time only when that process first dirties a
  /// page, and may go unnoticed.
  bool changed_since_mapped() const noexcept {
    struct ::stat now {};
    if (::fstat(fd_, &now) != 0) return true;
    return now.st_size != stat_.st_size || now.st_mtim.tv_sec != stat_.st_mtim.tv_sec ||
           now.st_mtim.tv_nsec != stat_.st_mtim.tv_nsec;
  }

 private:
  mapped_file(int fd, const unsigned char* data, const struct ::stat& st) noexcept
      : fd_(fd), data_(data), size_(static_cast<std::size_t>(st.st_size)), stat_(st) {}

  // Faults every page in now, so that a short file or a read error is an error return here
  // rather than SIGBUS later.
  bool populate() const noexcept {
#ifdef MADV_POPULATE_READ
    int r;
    do {
      r = ::madvise(const_cast<unsigned char*>(data_), size_, MADV_POPULATE_READ);
    } while (r != 0 && (errno == EINTR || errno == EAGAIN));
    // EFAULT: a page beyond the end of the file (it shrank); EIO, ENOMEM; EINVAL: a kernel
    // before 5.14.
    return r == 0;
#else
    return false;  // no way to fault in without risking SIGBUS: read the file instead
#endif
  }

  int fd_ = -1;
  const unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
  struct ::stat stat_ {};
};

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
