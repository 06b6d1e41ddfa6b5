// typeflow/ops/argmax.hpp — tf.argmax and tf.argmin over one axis (int64 indices).
#pragma once

#include <array>
#include <cstdint>

#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/ops/reduce.hpp"

namespace typeflow {

namespace ops::detail {
struct argmax_tag : op_info<"ArgMax"> {
  template <class T> static constexpr bool better(T a, T b) { return a > b; }
};
struct argmin_tag : op_info<"ArgMin"> {
  template <class T> static constexpr bool better(T a, T b) { return a < b; }
};
}  // namespace ops::detail

template <class Kind, class A, std::ptrdiff_t Axis>
struct arg_reduce_node
    : node_facade<std::int64_t, typename ops::detail::reduced_shape<shape_of<A>, false, Axis>::type, node_kind::compute, A>,
      op_info_of<Kind> {
  static constexpr std::size_t axis = static_cast<std::size_t>(Axis < 0 ? Axis + std::ptrdiff_t(shape_of<A>::rank) : Axis);
  template <class... N>
  using rebind = arg_reduce_node<Kind, N..., Axis>;
  // Differentiable, but no gradient flows into indices.
  template <std::size_t K, class G>
  using gradient = no_gradient;

  template <class Out, class V>
  static void compute(Out& out, const V& a) {
    constexpr std::size_t r = shape_of<A>::rank;
    const auto& s = a.shape();
    std::size_t outer = 1, inner = 1;
    for (std::size_t i = 0; i < axis; ++i) outer *= s[i];
    for (std::size_t i = axis + 1; i < r; ++i) inner *= s[i];
    const std::size_t n = s[axis];
    if constexpr (!shape_of<arg_reduce_node>::is_static) {
      std::array<std::size_t, r - 1> dims{};
      for (std::size_t i = 0, j = 0; i < r; ++i)
        if (i != axis) dims[j++] = s[i];
      out.resize(dims);
    }
    const auto* x = a.data();
    std::int64_t* o;
    std::int64_t scalar = 0;
    if constexpr (std::is_arithmetic_v<Out>) {
      o = &scalar;
    } else {
      o = out.data();
    }
    for (std::size_t p = 0; p < outer; ++p)
      for (std::size_t q = 0; q < inner; ++q) {
        std::size_t best = 0;
        for (std::size_t k = 1; k < n; ++k)
          if (Kind::better(x[(p * n + k) * inner + q], x[(p * n + best) * inner + q])) best = k;
        o[p * inner + q] = static_cast<std::int64_t>(best);
      }
    if constexpr (std::is_arithmetic_v<Out>) out = scalar;
  }
};

/// tf.argmax(x, axis): the index of the largest element along Axis (the first on ties).
template <std::ptrdiff_t Axis, node A>
constexpr arg_reduce_node<ops::detail::argmax_tag, A, Axis> argmax(const A& a) {
  static_assert(ops::detail::axes_valid<shape_of<A>::rank, Axis>(), "typeflow::argmax<axis>(x): axis out of range");
  return make_node<arg_reduce_node<ops::detail::argmax_tag, A, Axis>>(a);
}
/// tf.argmin(x, axis)
template <std::ptrdiff_t Axis, node A>
constexpr arg_reduce_node<ops::detail::argmin_tag, A, Axis> argmin(const A& a) {
  static_assert(ops::detail::axes_valid<shape_of<A>::rank, Axis>(), "typeflow::argmin<axis>(x): axis out of range");
  return make_node<arg_reduce_node<ops::detail::argmin_tag, A, Axis>>(a);
}

}  // namespace typeflow
