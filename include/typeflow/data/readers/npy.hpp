// typeflow/data/readers/npy.hpp — NumPy .npy files: load_npy (numpy.load) and save_npy
// (numpy.save).
//
// Read: format versions 1.0, 2.0 and 3.0; dtypes b1, i1, u1, i2, u2, i4, u4, i8, u8, f4, f8 in
// either byte order; any shape; fortran_order True (the values are reordered to row-major).
// Written: version 1.0, little-endian, C order, with the
// header padded so that the data starts at a multiple of 64 bytes, as numpy 1.24 writes it.
//
//   xt::xarray<double> a = typeflow::data::load_npy<double>("a.npy");
//   typeflow::tensor t = typeflow::data::load_npy("a.npy");   // float32, float64, int32, int64, bool
//   typeflow::data::save_npy("b.npy", a);
//
// No zlib needed (the .npz reader is npz.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include <xtensor/xarray.hpp>
#include <xtensor/xmanipulation.hpp>

#include "typeflow/core/tensor.hpp"
#include "typeflow/data/readers/detail/bytes.hpp"
#include "typeflow/data/readers/detail/convert.hpp"
#include "typeflow/data/readers/detail/npy_header.hpp"

namespace typeflow::data {

namespace detail {

// Row-major values from a layout; a Fortran-order array is read as its transpose's C order.
template <class T>
xt::xarray<T> npy_array(const npy_layout& l, std::string_view source) {
  if (!l.fortran_order) return make_array<T>(l.shape, l.elements, l.count, l.type, l.big_endian, source);
  std::vector<std::size_t> reversed(l.shape.rbegin(), l.shape.rend());
  const xt::xarray<T> c = make_array<T>(reversed, l.elements, l.count, l.type, l.big_endian, source);
  return xt::xarray<T>(xt::transpose(c));
}

inline tensor npy_tensor(const npy_layout& l, std::string_view source) {
  if (!l.fortran_order) return make_tensor(l.shape, l.elements, l.count, l.type, l.big_endian, source);
  std::vector<std::size_t> reversed(l.shape.rbegin(), l.shape.rend());
  const tensor c = make_tensor(reversed, l.elements, l.count, l.type, l.big_endian, source);
  return std::visit([](const auto& a) { return tensor(xt::transpose(a)); }, c.variant());
}

template <class T>
constexpr std::string_view npy_descr_of() {
  if constexpr (std::is_same_v<T, bool>) return "|b1";
  else if constexpr (std::is_same_v<T, float>) return "<f4";
  else if constexpr (std::is_same_v<T, double>) return "<f8";
  else if constexpr (std::is_same_v<T, std::int8_t>) return "|i1";
  else if constexpr (std::is_same_v<T, std::uint8_t>) return "|u1";
  else if constexpr (std::is_same_v<T, std::int16_t>) return "<i2";
  else if constexpr (std::is_same_v<T, std::uint16_t>) return "<u2";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "<i4";
  else if constexpr (std::is_same_v<T, std::uint32_t>) return "<u4";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "<i8";
  else if constexpr (std::is_same_v<T, std::uint64_t>) return "<u8";
  else return "";
}

template <class T>
concept npy_writable = !npy_descr_of<T>().empty();

// The .npy bytes of a C-order array of T.
template <npy_writable T>
std::vector<unsigned char> npy_encode(const T* values, std::span<const std::size_t> shape) {
  std::string dict = "{'descr': '" + std::string(npy_descr_of<T>()) + "', 'fortran_order': False, 'shape': (";
  std::size_t count = 1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    dict += std::to_string(shape[i]);
    dict += shape.size() == 1 || i + 1 < shape.size() ? ", " : "";
    count *= shape[i];
  }
  if (shape.size() == 1) dict.pop_back();  // "(3,)"
  dict += "), }";
  const bool v2 = dict.size() + 1 + 10 > 65535;
  const std::size_t prefix = v2 ? 12 : 10;
  const std::size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - prefix - dict.size() - 1, ' ');
  dict += '\n';
  std::vector<unsigned char> out(total + count * sizeof(T));
  const unsigned char magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  std::copy(magic, magic + 6, out.begin());
  out[6] = v2 ? 2 : 1;
  out[7] = 0;
  store_le(out.data() + 8, dict.size(), v2 ? 4 : 2);
  std::copy(dict.begin(), dict.end(), out.begin() + static_cast<std::ptrdiff_t>(prefix));
  unsigned char* p = out.data() + total;
  for (std::size_t i = 0; i < count; ++i) {
    if constexpr (std::is_same_v<T, bool>) {
      p[i] = values[i] ? 1 : 0;
    } else {
      unsigned char b[sizeof(T)];
      std::memcpy(b, &values[i], sizeof(T));
      if constexpr (std::endian::native == std::endian::big)
        for (std::size_t k = 0; k < sizeof(T); ++k) p[i * sizeof(T) + k] = b[sizeof(T) - 1 - k];
      else
        std::memcpy(p + i * sizeof(T), b, sizeof(T));
    }
  }
  return out;
}

inline void write_bytes(const std::filesystem::path& path, const std::vector<unsigned char>& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw not_found_error("Unable to open " + path.string() + " for writing");
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) throw data_loss_error("Unable to write " + path.string());
}

}  // namespace detail

/// The .npy file at `path` as an xarray of T (converted: integer values that do not fit T,
/// and floating values asked as integers, are InvalidArgument).
template <detail::readable_element T>
xt::xarray<T> load_npy(const std::filesystem::path& path) {
  const auto raw = detail::read_file(path, ".npy file");
  return detail::npy_array<T>(detail::npy_parse(raw, path.string()), path.string());
}
template <detail::readable_element T>
xt::xarray<T> load_npy(std::span<const std::byte> bytes, std::string_view source = "<memory>") {
  return detail::npy_array<T>(detail::npy_parse(detail::as_uchars(bytes), source), source);
}

/// The .npy file at `path` as a tensor: f4 float32, f8 float64, b1 bool, i1 u1 i2 u2 i4
/// int32, u4 i8 u8 int64 (a u8 value above the int64 range is InvalidArgument).
inline tensor load_npy(const std::filesystem::path& path) {
  const auto raw = detail::read_file(path, ".npy file");
  return detail::npy_tensor(detail::npy_parse(raw, path.string()), path.string());
}
inline tensor load_npy(std::span<const std::byte> bytes, std::string_view source = "<memory>") {
  return detail::npy_tensor(detail::npy_parse(detail::as_uchars(bytes), source), source);
}

/// Writes `a` as a .npy file (numpy.save); the file is replaced if it exists.
template <class E>
  requires xt::is_xexpression<std::decay_t<E>>::value && detail::npy_writable<typename std::decay_t<E>::value_type>
void save_npy(const std::filesystem::path& path, const E& a) {
  using T = typename std::decay_t<E>::value_type;
  const xt::xarray<T> c(a);  // row-major copy
  const std::vector<std::size_t> shape(c.shape().begin(), c.shape().end());
  detail::write_bytes(path, detail::npy_encode<T>(c.data(), shape));
}
inline void save_npy(const std::filesystem::path& path, const tensor& t) {
  std::visit([&](const auto& a) { save_npy(path, a); }, t.variant());
}

/// The .npy bytes of `a` (what save_npy writes).
template <class E>
  requires xt::is_xexpression<std::decay_t<E>>::value && detail::npy_writable<typename std::decay_t<E>::value_type>
std::vector<unsigned char> encode_npy(const E& a) {
  using T = typename std::decay_t<E>::value_type;
  const xt::xarray<T> c(a);
  const std::vector<std::size_t> shape(c.shape().begin(), c.shape().end());
  return detail::npy_encode<T>(c.data(), shape);
}

}  // namespace typeflow::data
