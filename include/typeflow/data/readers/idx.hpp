// typeflow/data/readers/idx.hpp — IDX files (MNIST, Fashion-MNIST), raw or gzip-compressed.
//
// An IDX file is two zero bytes, an element-type code (0x08 ubyte, 0x09 byte, 0x0B short,
// 0x0C int, 0x0D float, 0x0E double), the rank, one big-endian uint32 per dimension and the
// elements, big-endian, row-major. A file that starts with the gzip magic (1f 8b) is
// inflated first. Needs zlib: link typeflow::data (docs/reference/readers.md).
//
//   xt::xarray<float> images = typeflow::data::read_idx<float>("train-images-idx3-ubyte.gz");
//   typeflow::tensor labels = typeflow::data::read_idx("train-labels-idx1-ubyte.gz");  // int32
//
// Errors name the file and the byte offset (in the inflated data for a gzip file): DataLoss
// for a truncated or corrupt file, InvalidArgument for a file that is not IDX or whose values
// do not fit the requested type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <xtensor/xarray.hpp>

#include "typeflow/core/tensor.hpp"
#include "typeflow/data/readers/detail/bytes.hpp"
#include "typeflow/data/readers/detail/convert.hpp"
#include "typeflow/data/readers/detail/inflate.hpp"

namespace typeflow::data {

namespace detail {

struct idx_layout {
  stored_type type;
  std::vector<std::size_t> shape;
  const unsigned char* elements;
  std::size_t count;
};

inline stored_type idx_type(std::uint64_t code, const cursor& c) {
  switch (code) {
    case 0x08: return stored_type::u8;
    case 0x09: return stored_type::i8;
    case 0x0B: return stored_type::i16;
    case 0x0C: return stored_type::i32;
    case 0x0D: return stored_type::f32;
    case 0x0E: return stored_type::f64;
    default:
      invalid(c.source, c.offset() - 1, "not an IDX file: unknown element type code " + std::to_string(code) +
                                           " (IDX has 0x08, 0x09, 0x0B, 0x0C, 0x0D, 0x0E)");
  }
}

// Parses the (inflated) bytes; the layout points into them.
inline idx_layout idx_parse(std::span<const unsigned char> bytes, std::string_view source) {
  cursor c{bytes.data(), bytes.size(), 0, source};
  if (c.be(2, "the IDX magic") != 0) invalid(source, 0, "not an IDX file: the first two bytes are not zero");
  idx_layout l;
  l.type = idx_type(c.be(1, "the IDX element type"), c);
  const std::uint64_t rank = c.be(1, "the IDX rank");
  c.need(4 * rank, "the IDX dimensions");
  std::uint64_t count = 1;
  for (std::uint64_t d = 0; d < rank; ++d) {
    const std::uint64_t dim = c.be(4, "a dimension");
    if (!checked_mul(count, dim, count)) invalid(source, c.offset() - 4, "the dimensions' product overflows");
    l.shape.push_back(static_cast<std::size_t>(dim));
  }
  if (!shape_fits(l.shape)) invalid(source, 4, "the dimensions' product is too large for an array");
  const std::size_t width = stored_size(l.type);
  std::uint64_t bytes_needed = 0;
  if (!checked_mul(count, width, bytes_needed) || bytes_needed > c.remaining())
    data_loss(source, c.offset(),
              "truncated: the dimensions give " + std::to_string(count) + " elements of " + std::to_string(width) +
                  " bytes, " + std::to_string(c.remaining()) + " bytes remain");
  if (bytes_needed < c.remaining())
    data_loss(source, c.offset() + bytes_needed,
              std::to_string(c.remaining() - bytes_needed) + " bytes after the last element");
  l.elements = c.data + c.pos;
  l.count = static_cast<std::size_t>(count);
  return l;
}

// The IDX bytes of `raw`, inflated if they are gzip; `storage` keeps the inflated bytes.
inline std::span<const unsigned char> idx_bytes(std::span<const unsigned char> raw, std::vector<unsigned char>& storage,
                                                std::string_view source) {
  if (!is_gzip(raw.data(), raw.size())) return raw;
  storage = inflate_all(raw.data(), raw.size(), deflate_framing::gzip, source, deflate_bound_for(raw.size()));
  return storage;
}

template <class T>
xt::xarray<T> read_idx_bytes(std::span<const unsigned char> raw, std::string_view source) {
  std::vector<unsigned char> storage;
  const idx_layout l = idx_parse(idx_bytes(raw, storage, source), source);
  return make_array<T>(l.shape, l.elements, l.count, l.type, true, source);
}

inline tensor read_idx_tensor(std::span<const unsigned char> raw, std::string_view source) {
  std::vector<unsigned char> storage;
  const idx_layout l = idx_parse(idx_bytes(raw, storage, source), source);
  return make_tensor(l.shape, l.elements, l.count, l.type, true, source);
}

}  // namespace detail

/// The IDX file at `path` (raw or gzip) as an xarray of T: the values converted as they are
/// (a ubyte image is 0..255 in float, not scaled). Integer values that do not fit T and
/// floating values asked as integers are InvalidArgument.
template <detail::readable_element T>
xt::xarray<T> read_idx(const std::filesystem::path& path) {
  const auto raw = detail::read_file(path, "IDX file");
  return detail::read_idx_bytes<T>(raw, path.string());
}

/// The same from bytes in memory; `source` names them in errors.
template <detail::readable_element T>
xt::xarray<T> read_idx(std::span<const std::byte> bytes, std::string_view source = "<memory>") {
  return detail::read_idx_bytes<T>(detail::as_uchars(bytes), source);
}

/// The IDX file at `path` as a tensor: ubyte, byte, short and int as int32, float as float32,
/// double as float64.
inline tensor read_idx(const std::filesystem::path& path) {
  const auto raw = detail::read_file(path, "IDX file");
  return detail::read_idx_tensor(raw, path.string());
}

inline tensor read_idx(std::span<const std::byte> bytes, std::string_view source = "<memory>") {
  return detail::read_idx_tensor(detail::as_uchars(bytes), source);
}

}  // namespace typeflow::data
