// typeflow/io/file/mapped.hpp — a checkpoint mapped read-only, so that its tensors are verified
// where they lie in the page cache and copied once.
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

}  // namespace typeflow::io
