// typeflow/core/dtype.hpp — the element types a tensor may hold, and their names.
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>

namespace typeflow {

/// Run-time tag of an element type, as TensorFlow's DataType (checkpoints and
/// type-erased tensors carry it).
enum class dtype : std::uint8_t { float32 = 1, float64 = 2, int32 = 3, int64 = 4, boolean = 10 };

template <class T>
concept element_type = std::is_same_v<T, float> || std::is_same_v<T, double> ||
                       std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t> ||
                       std::is_same_v<T, bool>;

template <element_type T>
inline constexpr dtype dtype_of = std::is_same_v<T, float>          ? dtype::float32
                                  : std::is_same_v<T, double>       ? dtype::float64
                                  : std::is_same_v<T, std::int32_t> ? dtype::int32
                                  : std::is_same_v<T, std::int64_t> ? dtype::int64
                                                                    : dtype::boolean;

/// TensorFlow's spelling of the type: "float32", "float64", "int32", "int64", "bool".
constexpr std::string_view dtype_name(dtype d) noexcept {
  switch (d) {
    case dtype::float32: return "float32";
    case dtype::float64: return "float64";
    case dtype::int32: return "int32";
    case dtype::int64: return "int64";
    case dtype::boolean: return "bool";
  }
  return "unknown";
}

template <element_type T>
inline constexpr std::string_view dtype_name_of = dtype_name(dtype_of<T>);

/// Bytes per element as stored in checkpoints (bool is one byte).
constexpr std::size_t dtype_size(dtype d) noexcept {
  switch (d) {
    case dtype::float32: case dtype::int32: return 4;
    case dtype::float64: case dtype::int64: return 8;
    case dtype::boolean: return 1;
  }
  return 0;
}

template <class T>
concept floating_element = std::is_same_v<T, float> || std::is_same_v<T, double>;

}  // namespace typeflow
