// typeflow/data/readers/detail/convert.hpp — element types of files and the checked
// conversion of their values into the element type a caller asked for.
#pragma once

#include <bit>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include <xtensor/xarray.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/tensor.hpp"
#include "typeflow/data/readers/detail/bytes.hpp"

namespace typeflow::data::detail {

/// An element type as a file stores it.
enum class stored_type { u8, i8, u16, i16, u32, i32, u64, i64, f32, f64, boolean };

constexpr std::size_t stored_size(stored_type t) noexcept {
  switch (t) {
    case stored_type::u8: case stored_type::i8: case stored_type::boolean: return 1;
    case stored_type::u16: case stored_type::i16: return 2;
    case stored_type::u32: case stored_type::i32: case stored_type::f32: return 4;
    case stored_type::u64: case stored_type::i64: case stored_type::f64: return 8;
  }
  return 1;
}
constexpr std::string_view stored_name(stored_type t) noexcept {
  switch (t) {
    case stored_type::u8: return "uint8";
    case stored_type::i8: return "int8";
    case stored_type::u16: return "uint16";
    case stored_type::i16: return "int16";
    case stored_type::u32: return "uint32";
    case stored_type::i32: return "int32";
    case stored_type::u64: return "uint64";
    case stored_type::i64: return "int64";
    case stored_type::f32: return "float32";
    case stored_type::f64: return "float64";
    case stored_type::boolean: return "bool";
  }
  return "?";
}
constexpr bool stored_is_float(stored_type t) noexcept { return t == stored_type::f32 || t == stored_type::f64; }

template <class T>
concept readable_element = std::is_arithmetic_v<T> && !std::is_const_v<T>;

template <class U>
U load_scalar(const unsigned char* p, bool big_endian) noexcept {
  unsigned char b[sizeof(U)];
  if (big_endian == (std::endian::native == std::endian::big)) {
    std::memcpy(b, p, sizeof(U));
  } else {
    for (std::size_t i = 0; i < sizeof(U); ++i) b[i] = p[sizeof(U) - 1 - i];
  }
  U v;
  std::memcpy(&v, b, sizeof(U));
  return v;
}

template <class T, class U>
bool fits(U v) noexcept {
  if constexpr (std::is_same_v<T, bool>) {
    return v == U(0) || v == U(1);
  } else if constexpr (std::is_floating_point_v<T>) {
    return true;  // integers and floats widen or round, as NumPy's astype does
  } else if constexpr (std::is_floating_point_v<U>) {
    return false;  // caught before: floats are not read as integers
  } else if constexpr (std::is_same_v<U, bool>) {
    return true;
  } else {
    return std::in_range<T>(v);
  }
}

/// Converts `count` stored values at `p` into `out` (row-major). Floating values are not
/// read as integers, and integers that do not fit T are refused: InvalidArgument naming
/// `source`, the element index and the value.
template <readable_element T>
void convert_into(T* out, const unsigned char* p, std::size_t count, stored_type from, bool big_endian,
                  std::string_view source) {
  if (stored_is_float(from) && !std::is_floating_point_v<T>)
    throw invalid_argument_error(std::string(source) + ": holds " + std::string(stored_name(from)) +
                                 " values, which are not read as an integer or bool type; read them as float or double");
  auto run = [&]<class U>(U*) {
    constexpr std::size_t w = sizeof(U);
    auto put = [&](std::size_t i, U v) {
      if constexpr (std::is_same_v<T, U>) {
        out[i] = v;
      } else {
        if (!fits<T>(v)) {
          std::string text;
          if constexpr (std::is_same_v<U, bool>) text = v ? "true" : "false";
          else text = std::to_string(v);
          throw invalid_argument_error(std::string(source) + ": element " + std::to_string(i) + " (" + text +
                                       ") does not fit the requested element type");
        }
        out[i] = static_cast<T>(v);
      }
    };
    // The byte order is decided once, outside the loops, so that they vectorize.
    if (w == 1 || big_endian == (std::endian::native == std::endian::big)) {
      for (std::size_t i = 0; i < count; ++i) {
        U v;
        std::memcpy(&v, p + i * w, w);
        put(i, v);
      }
    } else {
      for (std::size_t i = 0; i < count; ++i) put(i, load_scalar<U>(p + i * w, big_endian));
    }
  };
  switch (from) {
    case stored_type::u8: run(static_cast<std::uint8_t*>(nullptr)); break;
    case stored_type::i8: run(static_cast<std::int8_t*>(nullptr)); break;
    case stored_type::u16: run(static_cast<std::uint16_t*>(nullptr)); break;
    case stored_type::i16: run(static_cast<std::int16_t*>(nullptr)); break;
    case stored_type::u32: run(static_cast<std::uint32_t*>(nullptr)); break;
    case stored_type::i32: run(static_cast<std::int32_t*>(nullptr)); break;
    case stored_type::u64: run(static_cast<std::uint64_t*>(nullptr)); break;
    case stored_type::i64: run(static_cast<std::int64_t*>(nullptr)); break;
    case stored_type::f32: run(static_cast<float*>(nullptr)); break;
    case stored_type::f64: run(static_cast<double*>(nullptr)); break;
    case stored_type::boolean: {
      for (std::size_t i = 0; i < count; ++i) {
        if (p[i] > 1)
          throw invalid_argument_error(std::string(source) + ": element " + std::to_string(i) + " is a bool byte of value " +
                                       std::to_string(p[i]) + ", not 0 or 1");
        out[i] = static_cast<T>(p[i] != 0);
      }
      break;
    }
  }
}

/// An xarray of T of `shape` holding the converted values.
template <readable_element T, class Shape>
xt::xarray<T> make_array(const Shape& shape, const unsigned char* p, std::size_t count, stored_type from,
                         bool big_endian, std::string_view source) {
  xt::xarray<T> a = xt::xarray<T>::from_shape(shape);
  advise_huge_pages(a.data(), a.size() * sizeof(T));  // xtensor leaves arithmetic values untouched
  convert_into(a.data(), p, count, from, big_endian, source);
  return a;
}

/// The values as a typeflow::tensor, whose element types are float32, float64, int32, int64
/// and bool: 8- and 16-bit integers widen to int32, uint32 and uint64 to int64 (a uint64
/// above the int64 range is refused).
template <class Shape>
tensor make_tensor(const Shape& shape, const unsigned char* p, std::size_t count, stored_type from, bool big_endian,
                   std::string_view source) {
  switch (from) {
    case stored_type::f32: return tensor(make_array<float>(shape, p, count, from, big_endian, source));
    case stored_type::f64: return tensor(make_array<double>(shape, p, count, from, big_endian, source));
    case stored_type::boolean: return tensor(make_array<bool>(shape, p, count, from, big_endian, source));
    case stored_type::u32: case stored_type::i64: case stored_type::u64:
      return tensor(make_array<std::int64_t>(shape, p, count, from, big_endian, source));
    default: return tensor(make_array<std::int32_t>(shape, p, count, from, big_endian, source));
  }
}

}  // namespace typeflow::data::detail
