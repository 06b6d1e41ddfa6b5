// typeflow/control/detail/values.hpp — what a loop reads and writes of the values a run
// hands it: elements in row-major order and dims, the same way for a scalar (rank 0, the
// value itself) and a container, and storage that keeps its capacity when a shorter run
// needs less (so that a loop run at its longest length once allocates nothing after).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <xtensor/xnoalias.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"

namespace typeflow::control::detail {

/// Whether v is a scalar (rank 0) rather than a container.
template <class V>
inline constexpr bool is_scalar_value = std::is_arithmetic_v<std::remove_cvref_t<V>>;

/// The number of elements of v.
template <class V>
std::size_t element_count(const V& v) {
  if constexpr (is_scalar_value<V>) {
    return 1;
  } else {
    return v.size();
  }
}

/// The writable first element of a scalar or a container.
template <class S>
auto* mutable_data(S& s) {
  if constexpr (is_scalar_value<S>) {
    return &s;
  } else {
    return s.data();
  }
}

/// Resizes a container whose shape is not static to dims; a scalar or a fixed-size
/// container is left as it is (its dims are those).
template <class S, class Dims>
void resize_to(S& s, const Dims& dims) {
  if constexpr (!is_scalar_value<S> && requires { s.resize(dims); }) {
    bool same = s.dimension() == dims.size();
    for (std::size_t i = 0; same && i < dims.size(); ++i) same = std::size_t(s.shape()[i]) == std::size_t(dims[i]);
    if (!same) s.resize(dims);
  }
}

/// A pointer to the elements of a value that a run hands a loop: its own for a container
/// or a scalar, or those of `scratch` after the value (a lazy expression) is assigned to it.
template <class V, class Scratch>
const auto* contiguous(const V& v, Scratch& scratch) {
  if constexpr (is_scalar_value<V> || requires { v.data(); }) {
    return ops::detail::data_ptr(v);
  } else {
    resize_to(scratch, v.shape());
    xt::noalias(scratch) = v;
    return std::as_const(scratch).data();
  }
}

/// Element storage that keeps its capacity: resizing to fewer elements frees nothing, and
/// growing within the capacity allocates nothing.
template <class T>
struct buffer {
  std::vector<T> data;
  std::size_t size = 0;
  void resize(std::size_t n) {
    if (n > data.size()) data.resize(n);
    size = n;
  }
  T* get() noexcept { return data.data(); }
  const T* get() const noexcept { return data.data(); }
};

template <class T>
void copy_elements(T* to, const T* from, std::size_t n) {
  if (n != 0 && to != from) std::memmove(to, from, n * sizeof(T));
}

/// Copies value v (a container, a scalar or a lazy expression) into storage s, resized to
/// v's dims.
template <class S, class V>
void assign_value(S& s, const V& v) {
  if constexpr (is_scalar_value<S> && is_scalar_value<V>) {
    s = static_cast<S>(v);
  } else if constexpr (is_scalar_value<S>) {
    s = static_cast<S>(*v.begin());
  } else if constexpr (!is_scalar_value<V> && !requires { v.data(); }) {
    resize_to(s, v.shape());
    xt::noalias(s) = v;
  } else {
    if constexpr (!is_scalar_value<V>) resize_to(s, v.shape());
    using T = std::remove_cvref_t<decltype(*s.data())>;
    copy_elements<T>(s.data(), ops::detail::data_ptr(v), s.size());
  }
}

/// The dims of a value of rank R (none for a scalar).
template <std::size_t R, class V>
std::array<std::size_t, R> dims_of_value(const V& v) {
  return ops::detail::dims_of<R>(v);
}

/// The per-example lengths of a run (sequence_length), checked against the batch. A length
/// past the last step is allowed (the example runs every step), as in TensorFlow.
template <class V>
void read_lengths(buffer<std::int64_t>& out, const V& lengths, std::size_t batch, std::string_view loop) {
  const std::size_t n = element_count(lengths);
  if (n != batch)
    throw invalid_argument_error(std::string(loop) + ": sequence_length has " + std::to_string(n) +
                                 " entries, the batch has " + std::to_string(batch) + " examples");
  out.resize(n);
  const auto* p = ops::detail::data_ptr(lengths);
  for (std::size_t b = 0; b < n; ++b) {
    const auto len = static_cast<std::int64_t>(p[b]);
    if (len < 0)
      throw invalid_argument_error(std::string(loop) + ": sequence_length[" + std::to_string(b) + "] = " +
                                   std::to_string(len) + " is negative");
    out.get()[b] = len;
  }
}

}  // namespace typeflow::control::detail
