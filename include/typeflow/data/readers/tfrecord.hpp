// typeflow/data/readers/tfrecord.hpp — TFRecord files (tf.io.TFRecordWriter,
// tf.compat.v1.io.tf_record_iterator, tf.data.TFRecordDataset), uncompressed.
//
// A record is: uint64 length (little-endian), uint32 masked CRC32C of those 8 bytes, the
// data, uint32 masked CRC32C of the data (io/crc32c.hpp: crc32c_mask). Both checksums of
// every record are verified.
//
//   typeflow::data::tfrecord_writer w("data.tfrecord");
//   w.write("a record");
//   w.close();
//   typeflow::data::tfrecord_reader r("data.tfrecord");
//   while (auto record = r.next()) use(*record);   // std::span<const std::byte>
//
// The reader reads a file through one buffer that grows to the largest record and is then
// reused: no allocation per record. A record's span is valid until the next call to next().
// Errors are DataLoss naming the file and the record's byte offset: "truncated record",
// "corrupted record" (a checksum mismatch), as TensorFlow's record reader words them.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "typeflow/core/errors.hpp"
#include "typeflow/data/readers/detail/bytes.hpp"
#include "typeflow/io/crc32c.hpp"
#include "typeflow/io/file/reading.hpp"

namespace typeflow::data {

namespace detail {
/// A record's frame: the header (uint64 length, masked CRC32C of it) and the footer (masked
/// CRC32C of the data), as every TFRecord writer puts them around the record.
struct tfrecord_frame {
  unsigned char header[12];
  unsigned char footer[4];
  explicit tfrecord_frame(std::span<const std::byte> record) {
    store_le(header, record.size(), 8);
    store_le(header + 8, io::crc32c_mask(io::crc32c(header, 8)), 4);
    store_le(footer, io::crc32c_mask(io::crc32c(record.data(), record.size())), 4);
  }
};
}  // namespace detail

class tfrecord_reader {
 public:
  /// Opens the file (NotFound, FailedPrecondition for a directory or a FIFO).
  explicit tfrecord_reader(const std::filesystem::path& path) : source_(path.string()) {
    struct ::stat st {};
    fd_ = io::open_regular_file(path, "TFRecord file", &st);
    size_ = static_cast<std::uint64_t>(st.st_size);
    buffer_.resize(std::size_t{64} << 10);
    data_ = buffer_.data();
  }
  /// Reads records from bytes in memory (not copied: they must outlive the reader).
  explicit tfrecord_reader(std::span<const std::byte> bytes, std::string_view source = "<memory>")
      : source_(source),
        size_(bytes.size()),
        data_(reinterpret_cast<const unsigned char*>(bytes.data())),
        end_(bytes.size()) {}

  tfrecord_reader(tfrecord_reader&& o) noexcept
      : source_(std::move(o.source_)), fd_(std::exchange(o.fd_, -1)), size_(o.size_), buffer_(std::move(o.buffer_)),
        data_(fd_ >= 0 ? buffer_.data() : o.data_), begin_offset_(o.begin_offset_), pos_(o.pos_), end_(o.end_) {}
  tfrecord_reader(const tfrecord_reader&) = delete;
  tfrecord_reader& operator=(const tfrecord_reader&) = delete;
  tfrecord_reader& operator=(tfrecord_reader&&) = delete;
  ~tfrecord_reader() {
    if (fd_ >= 0) ::close(fd_);
  }

  /// The next record, or nullopt at the end of the file. DataLoss on a truncated or
  /// corrupt record, naming the file and the record's offset.
  std::optional<std::span<const std::byte>> next() {
    if (!ensure(1)) return std::nullopt;
    const std::uint64_t at = offset();
    if (!ensure(12)) fail(at, "truncated record: " + std::to_string(end_ - pos_) + " bytes of a 12-byte header");
    const unsigned char* h = data_ + pos_;
    std::uint64_t length = 0;
    for (int i = 7; i >= 0; --i) length = (length << 8) | h[i];
    if (io::crc32c_mask(io::crc32c(h, 8)) != detail::load_le32(h + 8))
      fail(at, "corrupted record: the length's checksum does not match");
    const std::uint64_t left = size_ > at + 12 ? size_ - at - 12 : 0;
    if (length > left || left - length < 4)
      fail(at, "truncated record: a length of " + std::to_string(length) + " bytes and its checksum, " +
                   std::to_string(left) + " bytes remain");
    const auto n = static_cast<std::size_t>(length);
    if (!ensure(16 + n)) fail(at, "truncated record: the file ends inside it");
    const unsigned char* d = data_ + pos_ + 12;
    if (io::crc32c_mask(io::crc32c(d, n)) != detail::load_le32(d + n))
      fail(at, "corrupted record: the data's checksum does not match");
    pos_ += 16 + n;
    return std::span<const std::byte>(reinterpret_cast<const std::byte*>(d), n);
  }

  /// The byte offset of the next record.
  std::uint64_t offset() const noexcept { return begin_offset_ + pos_; }
  const std::string& source() const noexcept { return source_; }

 private:
  [[noreturn]] void fail(std::uint64_t at, std::string_view what) const { detail::data_loss(source_, at, what); }

  // Whether n bytes are available at pos_ (reading more of the file when there is one).
  bool ensure(std::size_t n) {
    if (end_ - pos_ >= n) return true;
    if (fd_ < 0) return false;
    // Move what is left to the front, grow to n (n was checked against the file's size).
    std::memmove(buffer_.data(), buffer_.data() + pos_, end_ - pos_);
    begin_offset_ += pos_;
    end_ -= pos_;
    pos_ = 0;
    if (buffer_.size() < n) buffer_.resize(std::max(n, buffer_.size() * 2));
    data_ = buffer_.data();
    while (end_ < n) {
      const ::ssize_t got = ::read(fd_, buffer_.data() + end_, buffer_.size() - end_);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) throw data_loss_error(source_ + ": read failed: " + io::detail::errno_text(errno));
      if (got == 0) return false;
      end_ += static_cast<std::size_t>(got);
    }
    return true;
  }

  std::string source_;
  int fd_ = -1;
  std::uint64_t size_ = 0;            // the file's size when opened, bounds every length
  std::vector<unsigned char> buffer_;  // a file's window
  const unsigned char* data_ = nullptr;
  std::uint64_t begin_offset_ = 0;  // file offset of data_[0]
  std::size_t pos_ = 0;
  std::size_t end_ = 0;
};

/// Writes TFRecord files (uncompressed), as tf.io.TFRecordWriter does.
class tfrecord_writer {
 public:
  explicit tfrecord_writer(const std::filesystem::path& path)
      : path_(path), out_(path, std::ios::binary | std::ios::trunc) {
    if (!out_) throw not_found_error("Unable to open TFRecord file " + path.string() + " for writing");
  }
  void write(std::span<const std::byte> record) {
    const detail::tfrecord_frame frame(record);
    out_.write(reinterpret_cast<const char*>(frame.header), 12);
    out_.write(reinterpret_cast<const char*>(record.data()), static_cast<std::streamsize>(record.size()));
    out_.write(reinterpret_cast<const char*>(frame.footer), 4);
    if (!out_) throw data_loss_error("Unable to write TFRecord file " + path_.string());
  }
  void write(std::string_view record) { write(std::as_bytes(std::span(record.data(), record.size()))); }
  void flush() {
    out_.flush();
    if (!out_) throw data_loss_error("Unable to write TFRecord file " + path_.string());
  }
  void close() {
    out_.close();
    if (!out_) throw data_loss_error("Unable to write TFRecord file " + path_.string());
  }

 private:
  std::filesystem::path path_;
  std::ofstream out_;
};

}  // namespace typeflow::data
