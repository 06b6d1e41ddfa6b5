// typeflow/data/readers/detail/bytes.hpp — the byte-level helpers every reader shares: a
// bounds-checked cursor over bytes held in memory, whole-file reads of regular files, and
// the typed errors that name the source, the byte offset and what is wrong.
//
// Readers never trust a size read from a file: every length is checked against the bytes
// that remain (`cursor::need`) before anything is allocated or read.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <vector>

#include "typeflow/core/errors.hpp"
#include "typeflow/io/file/reading.hpp"

namespace typeflow::data::detail {

/// "<source>: <what> at byte offset <offset>": the text of a reader's error.
inline std::string at_offset(std::string_view source, std::uint64_t offset, std::string_view what) {
  return std::string(source) + ": " + std::string(what) + " (at byte offset " + std::to_string(offset) + ")";
}

[[noreturn]] inline void data_loss(std::string_view source, std::uint64_t offset, std::string_view what) {
  throw data_loss_error(at_offset(source, offset, what));
}
[[noreturn]] inline void invalid(std::string_view source, std::uint64_t offset, std::string_view what) {
  throw invalid_argument_error(at_offset(source, offset, what));
}

/// a * b, or false when it overflows std::uint64_t.
inline bool checked_mul(std::uint64_t a, std::uint64_t b, std::uint64_t& out) noexcept {
  return !__builtin_mul_overflow(a, b, &out);
}

/// Whether an array of this shape can exist: the product of its dimensions, zeros counted as
/// one, fits std::ptrdiff_t (xtensor computes strides as such products, also for an empty
/// array: a shape (0, 2^40, 2^40) holds no element but is refused).
template <class Shape>
bool shape_fits(const Shape& shape) noexcept {
  std::uint64_t p = 1;
  for (const auto d : shape)
    if (d != 0 && (!checked_mul(p, static_cast<std::uint64_t>(d), p) || p > static_cast<std::uint64_t>(PTRDIFF_MAX)))
      return false;
  return true;
}

/// Asks the kernel for transparent huge pages over a large buffer not yet touched, as NumPy
/// does for its arrays: on Linux, faulting in hundreds of megabytes 4 KiB at a time costs more
/// than reading them (the Fashion-MNIST images as float: 1.5 s against 0.07 s here). Only a
/// hint; nothing changes where it is not honored.
inline void advise_huge_pages(void* p, std::size_t bytes) noexcept {
#ifdef MADV_HUGEPAGE
  constexpr std::uintptr_t page = 4096;
  if (bytes < (std::size_t{4} << 20)) return;
  const auto begin = (reinterpret_cast<std::uintptr_t>(p) + page - 1) & ~(page - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(page - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

/// Makes `v` n bytes long, advising huge pages before the bytes are first touched.
inline void resize_fresh(std::vector<unsigned char>& v, std::size_t n) {
  if (n > v.capacity()) {
    std::vector<unsigned char> fresh;
    fresh.reserve(n);
    advise_huge_pages(fresh.data(), n);
    fresh.assign(v.begin(), v.end());
    v.swap(fresh);
  }
  v.resize(n);
}

/// Bytes in memory read front to back; every read is checked against the end.
struct cursor {
  const unsigned char* data = nullptr;
  std::size_t size = 0;
  std::size_t pos = 0;
  std::string_view source;  // names the file (or "<memory>") in errors
  std::uint64_t base = 0;   // offset of data[0] in the source, for messages

  std::size_t remaining() const noexcept { return size - pos; }
  std::uint64_t offset() const noexcept { return base + pos; }

  /// Throws DataLoss "truncated" unless n more bytes remain; `what` says what they are.
  void need(std::uint64_t n, std::string_view what) const {
    if (n > remaining())
      data_loss(source, offset(),
                "truncated: " + std::string(what) + " needs " + std::to_string(n) + " bytes, " +
                    std::to_string(remaining()) + " remain");
  }
  const unsigned char* take(std::uint64_t n, std::string_view what) {
    need(n, what);
    const unsigned char* p = data + pos;
    pos += static_cast<std::size_t>(n);
    return p;
  }
  std::uint64_t be(int bytes, std::string_view what) {
    const unsigned char* p = take(static_cast<std::uint64_t>(bytes), what);
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v = (v << 8) | p[i];
    return v;
  }
  std::uint64_t le(int bytes, std::string_view what) {
    const unsigned char* p = take(static_cast<std::uint64_t>(bytes), what);
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
    return v;
  }
};

inline std::uint32_t load_le32(const unsigned char* p) noexcept {
  return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
}
inline std::uint16_t load_le16(const unsigned char* p) noexcept {
  return static_cast<std::uint16_t>(p[0] | p[1] << 8);
}
inline void store_le(unsigned char* p, std::uint64_t v, int bytes) noexcept {
  for (int i = 0; i < bytes; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}

inline std::span<const unsigned char> as_uchars(std::span<const std::byte> b) noexcept {
  return {reinterpret_cast<const unsigned char*>(b.data()), b.size()};
}

/// The whole content of the regular file `path` (NotFound, FailedPrecondition for a
/// directory or a FIFO, DataLoss when a read fails); `what` names the file in errors.
inline std::vector<unsigned char> read_file(const std::filesystem::path& path, std::string_view what) {
  struct ::stat st {};
  const int fd = io::open_regular_file(path, what, &st);
  std::vector<unsigned char> out;
  try {
    // st_size is the file's own size, not a number read from it; the loop below still
    // stops at the real end if the file shrinks, and grows if it grew.
    resize_fresh(out, static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    for (;;) {
      if (got == out.size()) {
        // At the size fstat gave: see whether the file grew before growing the buffer.
        unsigned char probe[4096];
        const ::ssize_t n = ::read(fd, probe, sizeof probe);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0)
          throw data_loss_error(std::string(what) + " " + path.string() + ": read failed: " + io::detail::errno_text(errno));
        if (n == 0) break;
        out.insert(out.end(), probe, probe + n);
        got += static_cast<std::size_t>(n);
        out.resize(out.size() + (std::size_t{64} << 10));
        continue;
      }
      const ::ssize_t n = ::read(fd, out.data() + got, out.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0)
        throw data_loss_error(std::string(what) + " " + path.string() + ": read failed: " +
                              io::detail::errno_text(errno));
      if (n == 0) break;
      got += static_cast<std::size_t>(n);
    }
    out.resize(got);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  return out;
}

}  // namespace typeflow::data::detail
