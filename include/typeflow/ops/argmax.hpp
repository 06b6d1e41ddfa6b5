// typeflow/ops/argmax.hpp — tf.argmax and tf.argmin over one axis (int64 or int32 indices).
//
// As TensorFlow's CPU kernel (Eigen's ArgMax/ArgMin reducers, which replace the running best
// only on a strict > or <): ties go to the first index, and NaN never wins, so a NaN is
// skipped (numpy's argmax returns the first NaN instead); an all-NaN slice gives 0. An empty
// reduction axis is an error: at compile time when static, else when run.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "typeflow/core/errors.hpp"

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

/// In a diagnostic: argmax and argmin need a non-empty reduction axis (TensorFlow: "Reduction
/// axis is empty in shape").
template <std::ptrdiff_t Axis, class Shape>
struct argmax_argmin_reduction_axis_is_empty {
  static constexpr bool value = false;
};

template <class Kind, class A, std::ptrdiff_t Axis, class I = std::int64_t>
struct arg_reduce_node
    : node_facade<I, typename ops::detail::reduced_shape<shape_of<A>, false, Axis>::type, node_kind::compute, A>,
      op_info_of<Kind> {
  static constexpr std::size_t axis = static_cast<std::size_t>(Axis < 0 ? Axis + std::ptrdiff_t(shape_of<A>::rank) : Axis);
  template <class... N>
  using rebind = arg_reduce_node<Kind, N..., Axis, I>;
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
    if (n == 0)
      throw invalid_argument_error("Reduction axis " + std::to_string(axis) + " is empty in shape " + shape_string(s));
    if constexpr (!shape_of<arg_reduce_node>::is_static) {
      std::array<std::size_t, r - 1> dims{};
      for (std::size_t i = 0, j = 0; i < r; ++i)
        if (i != axis) dims[j++] = s[i];
      out.resize(dims);
    }
    const auto* x = a.data();
    I* o;
    I scalar = 0;
    if constexpr (std::is_arithmetic_v<Out>) {
      o = &scalar;
    } else {
      o = out.data();
    }
    for (std::size_t p = 0; p < outer; ++p)
      for (std::size_t q = 0; q < inner; ++q) {
        std::size_t best = 0;
        auto value = x[p * n * inner + q];
        for (std::size_t k = 1; k < n; ++k) {
          const auto v = x[(p * n + k) * inner + q];
          if (Kind::better(v, value) || (value != value && v == v)) {  // a leading NaN loses to any number
            best = k;
            value = v;
          }
        }
        o[p * inner + q] = static_cast<I>(best);
      }
    if constexpr (std::is_arithmetic_v<Out>) out = scalar;
  }
};

namespace ops::detail {
template <class Kind, std::ptrdiff_t Axis, class I, class A>
constexpr auto make_arg_reduce(const A& a) {
  static_assert(std::is_same_v<I, std::int64_t> || std::is_same_v<I, std::int32_t>,
                "typeflow::argmax / argmin<axis, output_type>(x): output_type must be int64 or int32");
  constexpr std::size_t r = shape_of<A>::rank;
  static_assert(axes_valid<r, Axis>(), "typeflow::argmax / argmin<axis>(x): axis out of range");
  if constexpr (axes_valid<r, Axis>()) {
    constexpr auto d = shape_of<A>::dims[std::size_t(Axis < 0 ? Axis + std::ptrdiff_t(r) : Axis)];
    if constexpr (d == 0) {
      static_assert(argmax_argmin_reduction_axis_is_empty<Axis, shape_of<A>>::value,
                    "typeflow::argmax / argmin<axis>(x): the reduction axis of x is empty");
      return a;  // inert: the error above is the one to read
    } else {
      return make_node<arg_reduce_node<Kind, A, Axis, I>>(a);
    }
  } else {
    return a;  // inert
  }
}
}  // namespace ops::detail

/// tf.argmax(x, axis, output_type): the index of the largest element along Axis (the first
/// on ties; NaN skipped). `argmax(x)` is axis 0 (TensorFlow's default); `argmax<1, std::int32_t>(x)`
/// gives int32 indices.
template <std::ptrdiff_t Axis = 0, class OutputType = std::int64_t, node A>
constexpr auto argmax(const A& a) {
  return ops::detail::make_arg_reduce<ops::detail::argmax_tag, Axis, OutputType>(a);
}
/// tf.argmin(x, axis, output_type)
template <std::ptrdiff_t Axis = 0, class OutputType = std::int64_t, node A>
constexpr auto argmin(const A& a) {
  return ops::detail::make_arg_reduce<ops::detail::argmin_tag, Axis, OutputType>(a);
}

}  // namespace typeflow
