// typeflow/ops/detail/tensor_access.hpp — what the array kernels (slice, expand, concat,
// gather, sequence ops, select) read of an input value: its elements in row-major order and
// its dims, the same way for a scalar (rank 0, the value itself) and a tensor; and axes.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <type_traits>

namespace typeflow::ops::detail {

/// An axis in [-rank, rank) (negative ones count from the end), and its index.
constexpr bool axis_in_range(std::ptrdiff_t axis, std::size_t rank) {
  return axis >= -static_cast<std::ptrdiff_t>(rank) && axis < static_cast<std::ptrdiff_t>(rank);
}
constexpr std::size_t normalized_axis(std::ptrdiff_t axis, std::size_t rank) {
  return static_cast<std::size_t>(axis < 0 ? axis + static_cast<std::ptrdiff_t>(rank) : axis);
}

/// The first element of v, row-major (a session hands compute ops row-major containers).
template <class V>
const auto* data_ptr(const V& v) {
  if constexpr (std::is_arithmetic_v<V>) {
    return &v;
  } else {
    return v.data();
  }
}

/// The run-time dims of v, which has rank R.
template <std::size_t R, class V>
std::array<std::size_t, R> dims_of(const V& v) {
  std::array<std::size_t, R> d{};
  if constexpr (!std::is_arithmetic_v<V>) {
    const auto& s = v.shape();
    for (std::size_t i = 0; i < R; ++i) d[i] = static_cast<std::size_t>(s[i]);
  }
  return d;
}

/// The product of dims[from, to).
template <std::size_t R>
std::size_t dims_product(const std::array<std::size_t, R>& dims, std::size_t from, std::size_t to) {
  std::size_t p = 1;
  for (std::size_t i = from; i < to && i < R; ++i) p *= dims[i];
  return p;
}

/// The writable first element of out; a scalar output goes through `scalar`, which the
/// caller copies back with store_scalar.
template <class T, class Out>
T* out_ptr(Out& out, T& scalar) {
  if constexpr (std::is_arithmetic_v<Out>) {
    return &scalar;
  } else {
    return out.data();
  }
}
template <class T, class Out>
void store_scalar(Out& out, const T& scalar) {
  if constexpr (std::is_arithmetic_v<Out>) out = scalar;
}

/// Resizes out to dims unless its shape is static (fixed-size storage or a scalar).
template <bool Static, class Out, class Dims>
void resize_unless_static(Out& out, const Dims& dims) {
  if constexpr (!Static && !std::is_arithmetic_v<Out>) out.resize(dims);
}

/// "[2,3]": dims [from, to) of `dims` as TensorFlow's TensorShape::DebugString prints them,
/// for the messages its kernels give (shape_string, core/shape.hpp, is typeflow's "[2, 3]").
template <class Dims>
std::string dims_string(const Dims& dims, std::size_t from, std::size_t to) {
  std::string s = "[";
  for (std::size_t i = from; i < to; ++i) {
    if (i > from) s += ',';
    s += std::to_string(dims[i]);
  }
  return s + ']';
}
template <std::size_t R>
std::string dims_string(const std::array<std::size_t, R>& dims) {
  return dims_string(dims, 0, R);
}

/// "[1,0]": the multi-index of flat position i in dims, as TensorFlow prints an index of
/// a tensor in a message ("" for rank 0).
template <std::size_t R>
std::string index_string(std::size_t i, const std::array<std::size_t, R>& dims) {
  if constexpr (R == 0) {
    return "";
  } else {
    std::array<std::size_t, R> idx{};
    for (std::size_t d = R; d-- > 0;) {
      const std::size_t n = dims[d] == 0 ? 1 : dims[d];
      idx[d] = i % n;
      i /= n;
    }
    std::string s = "[";
    for (std::size_t d = 0; d < R; ++d) {
      if (d) s += ',';
      s += std::to_string(idx[d]);  // appended, not prefixed: g++ 12 -O2 misreads the prefix's memcpy bound
    }
    s += ']';
    return s;
  }
}

}  // namespace typeflow::ops::detail
