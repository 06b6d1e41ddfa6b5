// typeflow/data/readers/detail/inflate.hpp — zlib inflation of gzip streams (IDX, TFRecord)
// and raw deflate streams (.npz members), with the output bounded.
//
// Needs zlib: link the target typeflow::data (CMakeLists.txt), or -lz. The output grows with
// the bytes actually inflated, never by a size read from the input, and stops at
// `max_output` bytes (deflate cannot expand more than 1032 times, so a caller passes a
// bound derived from the input's size or from a size it checked).
#pragma once

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "typeflow/data/readers/detail/bytes.hpp"

namespace typeflow::data::detail {

enum class deflate_framing { gzip, raw };

inline bool is_gzip(const unsigned char* p, std::size_t n) noexcept { return n >= 2 && p[0] == 0x1f && p[1] == 0x8b; }

/// The inflated bytes of `in` (gzip: every concatenated member, as gunzip reads them; raw:
/// one deflate stream). DataLoss naming `source` and the compressed offset on corrupt or
/// truncated input, or when the output would pass `max_output` bytes.
inline std::vector<unsigned char> inflate_all(const unsigned char* in, std::size_t n, deflate_framing framing,
                                              std::string_view source, std::size_t max_output) {
  std::vector<unsigned char> out;
  z_stream z{};
  const int window = framing == deflate_framing::gzip ? 16 + MAX_WBITS : -MAX_WBITS;
  if (inflateInit2(&z, window) != Z_OK) throw internal_error(std::string(source) + ": zlib inflateInit2 failed");
  struct guard {
    z_stream* z;
    ~guard() { inflateEnd(z); }
  } g{&z};
  std::size_t consumed = 0;
  std::size_t produced = 0;
  // The first buffer: a gzip stream's last 4 bytes give its size modulo 2^32 (a hint only:
  // bounded by max_output, and the buffer grows past it if the data say so).
  std::size_t first = std::max<std::size_t>(n, 1024) * 4;
  if (framing == deflate_framing::gzip && n >= 18) first = std::max<std::size_t>(load_le32(in + n - 4), 1024);
  resize_fresh(out, std::min(max_output, first) + 1);
  for (;;) {
    const std::size_t chunk_in = std::min<std::size_t>(n - consumed, std::numeric_limits<uInt>::max());
    if (produced == out.size()) {
      if (out.size() > max_output) data_loss(source, consumed, "inflated data exceeds the limit of " + std::to_string(max_output) + " bytes");
      resize_fresh(out, std::min<std::size_t>(out.size() * 2, max_output + 1));
    }
    z.next_in = const_cast<Bytef*>(in + consumed);
    z.avail_in = static_cast<uInt>(chunk_in);
    const std::size_t room = std::min<std::size_t>(out.size() - produced, std::numeric_limits<uInt>::max());
    z.next_out = out.data() + produced;
    z.avail_out = static_cast<uInt>(room);
    const int r = inflate(&z, Z_NO_FLUSH);
    consumed += chunk_in - z.avail_in;
    produced += room - z.avail_out;
    if (produced > max_output)
      data_loss(source, consumed, "inflated data exceeds the limit of " + std::to_string(max_output) + " bytes");
    if (r == Z_STREAM_END) {
      // gzip: another member may follow (gunzip reads them all); raw: the stream ends here.
      if (framing == deflate_framing::gzip && consumed < n && is_gzip(in + consumed, n - consumed)) {
        if (inflateReset(&z) != Z_OK) throw internal_error(std::string(source) + ": zlib inflateReset failed");
        continue;
      }
      if (framing == deflate_framing::gzip && consumed < n)
        data_loss(source, consumed, "trailing bytes after the gzip stream");
      break;
    }
    if (r == Z_BUF_ERROR && z.avail_in == 0 && consumed == n)
      data_loss(source, consumed, "truncated compressed data");
    if (r != Z_OK && r != Z_BUF_ERROR)
      data_loss(source, consumed, std::string("corrupt compressed data: ") + (z.msg ? z.msg : "zlib error"));
    if (r == Z_BUF_ERROR && produced < out.size()) data_loss(source, consumed, "truncated compressed data");
  }
  out.resize(produced);
  return out;
}

/// The largest output a deflate stream of n bytes can give (1032:1), plus slack.
inline std::size_t deflate_bound_for(std::size_t n) noexcept {
  const std::size_t cap = std::numeric_limits<std::size_t>::max() / 2048;
  return n > cap ? std::numeric_limits<std::size_t>::max() / 2 : n * 1032 + 1024;
}

}  // namespace typeflow::data::detail
