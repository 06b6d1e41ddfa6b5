// typeflow/core/shape.hpp — static shapes with dynamic dimensions, broadcasting, storage.
//
// `shape<dyn, 784>` is TensorFlow's `[None, 784]`. Static dimensions are checked at
// compile time; `dyn` ones when a value is fed.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

namespace typeflow {

/// A dimension whose size is known only when a value is fed (TensorFlow's None).
inline constexpr std::ptrdiff_t dyn = -1;

template <std::ptrdiff_t... D>
struct shape {
  static constexpr std::size_t rank = sizeof...(D);
  static constexpr std::array<std::ptrdiff_t, sizeof...(D)> dims{D...};
  static constexpr bool is_static = ((D >= 0) && ... && true);
  /// Number of elements; meaningful only when `is_static`.
  static constexpr std::size_t size = (std::size_t{1} * ... * std::size_t(D < 0 ? 0 : D));
};

using scalar = shape<>;

namespace core::detail {
template <class S>
struct is_shape : std::false_type {};
template <std::ptrdiff_t... D>
struct is_shape<shape<D...>> : std::true_type {};
}  // namespace core::detail

template <class S>
concept shape_type = core::detail::is_shape<S>::value;

/// "[2, 3]", "[?, 784]" — TensorFlow's spelling of a (partially known) shape.
template <class Dims>
std::string shape_string(const Dims& dims) {
  std::string s = "[";
  bool first = true;
  for (auto d : dims) {
    if (!first) s += ", ";
    first = false;
    s += (static_cast<std::ptrdiff_t>(d) < 0) ? std::string("?") : std::to_string(d);
  }
  return s + "]";
}

template <shape_type S>
std::string shape_string() {
  return shape_string(S::dims);
}

// ---------------------------------------------------------------------------------------
// Broadcasting (numpy rules), computed on static shapes.

namespace core::detail {

// Result of broadcasting one pair of dimensions, or -2 when they are incompatible.
constexpr std::ptrdiff_t broadcast_dim(std::ptrdiff_t a, std::ptrdiff_t b) {
  if (a == 1) return b;
  if (b == 1) return a;
  if (a == dyn) return b == dyn ? dyn : b;  // a fed value must then agree with b
  if (b == dyn) return a;
  return a == b ? a : -2;
}

template <class A, class B>
struct broadcast_impl;

template <std::ptrdiff_t... A, std::ptrdiff_t... B>
struct broadcast_impl<shape<A...>, shape<B...>> {
  static constexpr std::size_t rank = sizeof...(A) > sizeof...(B) ? sizeof...(A) : sizeof...(B);
  static constexpr auto compute() {
    std::array<std::ptrdiff_t, rank> out{};
    constexpr std::array<std::ptrdiff_t, sizeof...(A)> a{A...};
    constexpr std::array<std::ptrdiff_t, sizeof...(B)> b{B...};
    for (std::size_t i = 0; i < rank; ++i) {
      const std::ptrdiff_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
      const std::ptrdiff_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
      out[rank - 1 - i] = broadcast_dim(da, db);
    }
    return out;
  }
  static constexpr auto dims = compute();
  static constexpr bool ok = [] {
    for (auto d : dims)
      if (d == -2) return false;
    return true;
  }();
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>) -> shape<(dims[I] == -2 ? 0 : dims[I])...>;
  using type = decltype(make(std::make_index_sequence<rank>{}));
};

}  // namespace core::detail

/// True when numpy broadcasting accepts the two static shapes.
template <class A, class B>
concept broadcast_compatible = core::detail::broadcast_impl<A, B>::ok;

template <class A, class B>
using broadcast_shape = typename core::detail::broadcast_impl<A, B>::type;

// ---------------------------------------------------------------------------------------
// Storage: rank 0 is the scalar itself, static shapes use fixed-size storage (no heap),
// dynamic dims an `xt::xtensor` of the right rank.

namespace core::detail {
template <class T, class S>
struct storage_impl;
template <class T>
struct storage_impl<T, shape<>> {
  using type = T;
};
template <class T, std::ptrdiff_t... D>
  requires(sizeof...(D) > 0 && shape<D...>::is_static)
struct storage_impl<T, shape<D...>> {
  using type = xt::xtensor_fixed<T, xt::xshape<static_cast<std::size_t>(D)...>>;
};
template <class T, std::ptrdiff_t... D>
  requires(sizeof...(D) > 0 && !shape<D...>::is_static)
struct storage_impl<T, shape<D...>> {
  using type = xt::xtensor<T, sizeof...(D)>;
};
}  // namespace core::detail

/// The container a node of element type T and shape S is fetched as.
template <class T, class S>
using storage_t = typename core::detail::storage_impl<T, S>::type;

namespace core::detail {
template <class T, class S>
struct buffer_storage_impl {
  using type = storage_t<T, S>;
};
template <class T, std::ptrdiff_t... D>
  requires(sizeof...(D) > 0 && !shape<D...>::is_static && !std::is_same_v<T, bool>)
struct buffer_storage_impl<T, shape<D...>> {
  using type = xt::xtensor_container<std::vector<T>, sizeof...(D), xt::layout_type::row_major>;
};
}  // namespace core::detail

/// The container a run keeps a value of element type T and shape S in (a node's buffer, a
/// loop's states): storage_t, except that a shape with a dynamic dim gets a container over a
/// std::vector, which keeps its capacity when a run needs fewer elements. After a run at the
/// largest shape (the longest sequence, the largest batch), runs at that shape or smaller
/// allocate nothing; xt::xtensor's own storage reallocates at every change of size. (bool
/// keeps xtensor's storage: std::vector<bool> has no data().)
template <class T, class S>
using buffer_storage_t = typename core::detail::buffer_storage_impl<T, S>::type;

/// Run-time shape of a value (scalars have rank 0).
template <class V>
auto runtime_shape(const V& v) {
  if constexpr (std::is_arithmetic_v<V>) {
    return std::array<std::size_t, 0>{};
  } else {
    return v.shape();
  }
}

/// Whether run-time dims `got` fit static shape S (rank equal, static dims equal).
template <shape_type S, class Dims>
bool shape_matches(const Dims& got) {
  if (std::size(got) != S::rank) return false;
  std::size_t i = 0;
  for (auto d : got) {
    if (S::dims[i] != dyn && static_cast<std::ptrdiff_t>(d) != S::dims[i]) return false;
    ++i;
  }
  return true;
}

}  // namespace typeflow
