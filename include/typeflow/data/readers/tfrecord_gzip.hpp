// typeflow/data/readers/tfrecord_gzip.hpp — GZIP-compressed TFRecord files
// (tf.data.TFRecordDataset(..., compression_type="GZIP"), tf.io.TFRecordOptions("GZIP")).
//
//   typeflow::data::gzip_tfrecord_writer w("data.tfrecord.gz");
//   w.write("a record");
//   w.close();
//   typeflow::data::gzip_tfrecord_reader r("data.tfrecord.gz");
//   while (auto record = r.next()) use(*record);
//
// The reader inflates the whole file first (bounded by deflate's 1032:1 ratio over the
// file's size), then reads its records as tfrecord_reader does; the byte offsets in its
// errors are offsets in the inflated stream. Needs zlib: link typeflow::data.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "typeflow/data/readers/detail/bytes.hpp"
#include "typeflow/data/readers/detail/inflate.hpp"
#include "typeflow/data/readers/tfrecord.hpp"
#include "typeflow/io/crc32c.hpp"

namespace typeflow::data {

class gzip_tfrecord_reader {
 public:
  explicit gzip_tfrecord_reader(const std::filesystem::path& path)
      : source_(path.string() + " (inflated)"), inflated_(inflate(detail::read_file(path, "TFRecord file"), path.string())),
        reader_(std::as_bytes(std::span(inflated_)), source_) {}
  explicit gzip_tfrecord_reader(std::span<const std::byte> bytes, std::string_view source = "<memory>")
      : source_(std::string(source) + " (inflated)"), inflated_(inflate(detail::as_uchars(bytes), source)),
        reader_(std::as_bytes(std::span(inflated_)), source_) {}
  gzip_tfrecord_reader(const gzip_tfrecord_reader&) = delete;
  gzip_tfrecord_reader& operator=(const gzip_tfrecord_reader&) = delete;

  /// The next record, or nullopt at the end; DataLoss as tfrecord_reader::next.
  std::optional<std::span<const std::byte>> next() { return reader_.next(); }
  /// The offset of the next record in the inflated stream.
  std::uint64_t offset() const noexcept { return reader_.offset(); }

 private:
  static std::vector<unsigned char> inflate(std::span<const unsigned char> raw, std::string_view source) {
    if (raw.empty()) return {};
    if (!detail::is_gzip(raw.data(), raw.size())) detail::invalid(source, 0, "not a GZIP file: no 1f 8b magic");
    return detail::inflate_all(raw.data(), raw.size(), detail::deflate_framing::gzip, source,
                               detail::deflate_bound_for(raw.size()));
  }

  std::string source_;
  std::vector<unsigned char> inflated_;
  tfrecord_reader reader_;
};

/// Writes GZIP-compressed TFRecord files, as tf.io.TFRecordWriter with TFRecordOptions("GZIP").
class gzip_tfrecord_writer {
 public:
  explicit gzip_tfrecord_writer(const std::filesystem::path& path) : path_(path), file_(gzopen(path.c_str(), "wb")) {
    if (!file_) throw not_found_error("Unable to open TFRecord file " + path.string() + " for writing");
  }
  gzip_tfrecord_writer(const gzip_tfrecord_writer&) = delete;
  gzip_tfrecord_writer& operator=(const gzip_tfrecord_writer&) = delete;
  ~gzip_tfrecord_writer() {
    if (file_) gzclose(file_);
  }

  void write(std::span<const std::byte> record) {
    const detail::tfrecord_frame frame(record);
    put(frame.header, 12);
    for (std::size_t at = 0; at < record.size();) {
      const std::size_t n = std::min<std::size_t>(record.size() - at, std::size_t{1} << 30);
      put(record.data() + at, n);
      at += n;
    }
    put(frame.footer, 4);
  }
  void write(std::string_view record) { write(std::as_bytes(std::span(record.data(), record.size()))); }
  void close() {
    gzFile f = file_;
    file_ = nullptr;
    if (!f || gzclose(f) != Z_OK) throw data_loss_error("Unable to write TFRecord file " + path_.string());
  }

 private:
  void put(const void* p, std::size_t n) {
    if (!file_) throw failed_precondition_error("TFRecord file " + path_.string() + " is closed");
    if (n > 0 && gzwrite(file_, p, static_cast<unsigned>(n)) != static_cast<int>(n))
      throw data_loss_error("Unable to write TFRecord file " + path_.string());
  }

  std::filesystem::path path_;
  gzFile file_;
};

}  // namespace typeflow::data
