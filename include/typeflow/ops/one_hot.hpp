// typeflow/ops/one_hot.hpp — tf.one_hot(indices, depth, on_value, off_value, axis, dtype).
//
// Indices of any rank (int32 or int64) give a tensor of rank + 1 whose new dimension, of
// size depth, sits at `axis` (-1: last). Along it, an index i gives on_value at position i
// and off_value elsewhere; an index outside [0, depth), negative included, gives off_value
// everywhere, as TensorFlow's OneHot kernel. depth and axis are attributes here (part of
// the type); on_value and off_value are scalar nodes (literals, placeholders, variables).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/constant.hpp"

namespace typeflow {

/// In a diagnostic: one_hot's axis must be in [-1, rank(indices)] (TensorFlow: "axis must
/// be >= -1"; the new dimension goes before dimension `axis`, or last).
template <std::ptrdiff_t Axis, std::size_t IndicesRank>
struct one_hot_axis_is_out_of_range {
  static constexpr bool value = false;
};

/// In a diagnostic: on_value and off_value must be scalars of the one_hot's dtype T
/// (TensorFlow's TypeError "dtype ... does not match dtype of on_value / off_value").
template <class T, class OnType, class OffType>
struct one_hot_on_and_off_values_must_have_the_dtype {
  static constexpr bool value = false;
};

namespace ops::detail {
/// The output shape: the indices' dims with Depth inserted before dimension A (0 <= A <= rank).
template <class S, std::size_t A, std::size_t Depth>
struct one_hot_shape {
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>)
      -> shape<(I < A ? S::dims[I] : I == A ? std::ptrdiff_t(Depth) : S::dims[I - 1])...>;
  using type = decltype(make(std::make_index_sequence<S::rank + 1>{}));
};

template <class V>
constexpr auto scalar_value(const V& v) {
  if constexpr (std::is_arithmetic_v<V>) {
    return v;
  } else {
    return *v.begin();
  }
}

/// A literal (`tf::constant<-1>()`, a Python scalar in TensorFlow) takes the one_hot's dtype;
/// any other node keeps its own, checked against it.
template <class T, class N>
struct one_hot_value {
  using type = N;
};
template <class T, auto V, class U>
struct one_hot_value<T, literal_node<V, U>> {
  using type = literal_node<V, T>;
};
template <class T, class N>
constexpr auto as_one_hot_value(const N& n) {
  if constexpr (std::is_same_v<typename one_hot_value<T, N>::type, N>) {
    return n;
  } else {
    return typename one_hot_value<T, N>::type{};
  }
}
}  // namespace ops::detail

template <std::size_t Depth, std::size_t Axis, class T, class L, class On, class Off>
struct one_hot_node
    : node_facade<T, typename ops::detail::one_hot_shape<shape_of<L>, Axis, Depth>::type, node_kind::compute, L, On,
                  Off>,
      op_info<"OneHot"> {
  static constexpr std::size_t depth = Depth;
  static constexpr std::size_t axis = Axis;
  template <class... N>
  using rebind = one_hot_node<Depth, Axis, T, N...>;
  // TensorFlow registers OneHot as not differentiable: nothing flows to any input.
  template <std::size_t K, class G>
  using gradient = no_gradient;

  template <class Out, class VL, class VOn, class VOff>
  static void compute(Out& out, const VL& indices, const VOn& on, const VOff& off) {
    constexpr std::size_t r = shape_of<L>::rank;
    std::array<std::size_t, r + 1> dims{};
    std::size_t outer = 1, inner = 1;
    if constexpr (r > 0) {
      const auto& s = indices.shape();
      for (std::size_t i = 0; i < r; ++i) {
        dims[i < Axis ? i : i + 1] = s[i];
        (i < Axis ? outer : inner) *= s[i];
      }
    }
    dims[Axis] = Depth;
    if constexpr (!shape_of<one_hot_node>::is_static) out.resize(dims);
    const T on_value = ops::detail::scalar_value(on), off_value = ops::detail::scalar_value(off);
    T* o = out.data();
    for (std::size_t p = 0; p < outer; ++p)
      for (std::size_t q = 0; q < inner; ++q) {
        std::int64_t index;
        if constexpr (r == 0) {
          index = static_cast<std::int64_t>(indices);
        } else {
          index = static_cast<std::int64_t>(indices.data()[p * inner + q]);
        }
        for (std::size_t d = 0; d < Depth; ++d)
          o[(p * Depth + d) * inner + q] = index == static_cast<std::int64_t>(d) ? on_value : off_value;
      }
  }
};

namespace ops::detail {
template <std::size_t Depth, class T, std::ptrdiff_t Axis, class L, class On, class Off>
constexpr auto make_one_hot(const L& indices, const On& on, const Off& off) {
  constexpr std::size_t r = shape_of<L>::rank;
  static_assert(std::is_same_v<value_type_of<L>, std::int32_t> || std::is_same_v<value_type_of<L>, std::int64_t>,
                "typeflow::one_hot<depth>(indices): indices must be int32 or int64");
  using OnV = typename one_hot_value<T, On>::type;
  using OffV = typename one_hot_value<T, Off>::type;
  if constexpr (Axis < -1 || Axis > std::ptrdiff_t(r)) {
    static_assert(one_hot_axis_is_out_of_range<Axis, r>::value,
                  "typeflow::one_hot<depth, T, axis>(indices): axis must be in [-1, rank(indices)]");
    return indices;  // inert: the error above is the one to read
  } else if constexpr (!std::is_same_v<value_type_of<OnV>, T> || !std::is_same_v<value_type_of<OffV>, T> ||
                       shape_of<OnV>::rank != 0 || shape_of<OffV>::rank != 0) {
    static_assert(one_hot_on_and_off_values_must_have_the_dtype<T, value_type_of<OnV>, value_type_of<OffV>>::value,
                  "typeflow::one_hot<depth, T>(indices, on_value, off_value): on_value and off_value must be "
                  "scalars of type T (or literals, converted to T)");
    return indices;  // inert
  } else {
    constexpr std::size_t axis = Axis == -1 ? r : std::size_t(Axis);
    return make_node<one_hot_node<Depth, axis, T, L, OnV, OffV>>(indices, as_one_hot_value<T>(on),
                                                                     as_one_hot_value<T>(off));
  }
}
}  // namespace ops::detail

/// `one_hot<depth, T = float, axis = -1>(indices)`: tf.one_hot(indices, depth, axis=axis,
/// dtype=T), on_value 1 and off_value 0. `one_hot<10>(labels)` turns [n] labels into [n, 10].
template <std::size_t Depth, element_type T = float, std::ptrdiff_t Axis = -1, node L>
constexpr auto one_hot(const L& indices) {
  return ops::detail::make_one_hot<Depth, T, Axis>(indices, literal_node<1, T>{}, literal_node<0, T>{});
}

/// `one_hot<depth, T = float, axis = -1>(indices, on_value, off_value)`: on_value and
/// off_value are scalar nodes of type T, or literals (`tf::constant<-1>()`), converted to T.
template <std::size_t Depth, element_type T = float, std::ptrdiff_t Axis = -1, node L, node On, node Off>
constexpr auto one_hot(const L& indices, const On& on_value, const Off& off_value) {
  return ops::detail::make_one_hot<Depth, T, Axis>(indices, on_value, off_value);
}

}  // namespace typeflow
