// typeflow/ops/cumulative.hpp — tf.cumsum and tf.cumprod along one axis, with TensorFlow's
// exclusive and reverse flags.
//
// Both are one node kind; their gradients are TensorFlow's (math_grad.py): _CumsumGrad is
// the cumsum of g the other way, _CumprodGrad cumsum(cumprod(x) * g, other way) / x, built
// from the same nodes, so they are differentiable again.
#pragma once

#include <array>
#include <cstddef>
#include <type_traits>

#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"
#include "typeflow/ops/elementwise.hpp"
#include "typeflow/ops/math_functions.hpp"

namespace typeflow {

template <class Kind, class A, std::ptrdiff_t Axis, bool Exclusive, bool Reverse>
struct cumulative_node;

namespace ops::detail {
/// Cumulative sum: starts at 0. The gradient is the cumsum of g in the other direction.
struct cumsum_tag : op_info<"Cumsum"> {
  template <class T>
  static constexpr T start() { return T(0); }
  template <class T>
  static constexpr void join(T& acc, T x) { acc += x; }
  template <class G, class A, class Y, std::ptrdiff_t Axis, bool Exclusive, bool Reverse>
  using gradient = cumulative_node<cumsum_tag, G, Axis, Exclusive, !Reverse>;
};
/// Cumulative product: starts at 1. TensorFlow's _CumprodGrad, cumsum(y * g, other
/// direction) / x, which (as TensorFlow's) is not finite where x is 0.
struct cumprod_tag : op_info<"Cumprod"> {
  template <class T>
  static constexpr T start() { return T(1); }
  template <class T>
  static constexpr void join(T& acc, T x) { acc *= x; }
  template <class G, class A, class Y, std::ptrdiff_t Axis, bool Exclusive, bool Reverse>
  using gradient = ew<fn::div, cumulative_node<cumsum_tag, ew<fn::mul, Y, G>, Axis, Exclusive, !Reverse>, A>;
};
}  // namespace ops::detail

/// y[..., i, ...] = the sum (product) of x[..., j, ...] for j <= i along Axis (j < i when
/// Exclusive; j >= i, j > i when Reverse).
template <class Kind, class A, std::ptrdiff_t Axis, bool Exclusive, bool Reverse>
struct cumulative_node : node_facade<value_type_of<A>, shape_of<A>, node_kind::compute, A>, op_info_of<Kind> {
  static constexpr std::size_t axis = ops::detail::normalized_axis(Axis, shape_of<A>::rank);
  template <class... N>
  using rebind = cumulative_node<Kind, N..., Axis, Exclusive, Reverse>;
  template <std::size_t K, class G>
  using gradient = typename Kind::template gradient<G, A, cumulative_node, Axis, Exclusive, Reverse>;

  template <class Out, class V>
  static void compute(Out& out, const V& a) {
    using T = value_type_of<A>;
    constexpr std::size_t r = shape_of<A>::rank;
    if constexpr (!shape_of<A>::is_static) out.resize(a.shape());
    const auto dims = ops::detail::dims_of<r>(a);
    const std::size_t outer = ops::detail::dims_product(dims, 0, axis);
    const std::size_t n = dims[axis];
    const std::size_t inner = ops::detail::dims_product(dims, axis + 1, r);
    const auto* x = a.data();
    T* o = out.data();
    for (std::size_t p = 0; p < outer; ++p)
      for (std::size_t q = 0; q < inner; ++q) {
        T acc = Kind::template start<T>();
        for (std::size_t s = 0; s < n; ++s) {
          const std::size_t i = (p * n + (Reverse ? n - 1 - s : s)) * inner + q;
          if constexpr (Exclusive) {
            o[i] = acc;
            Kind::join(acc, T(x[i]));
          } else {
            Kind::join(acc, T(x[i]));
            o[i] = acc;
          }
        }
      }
  }
};

/// In a diagnostic: the axis of a cumsum or cumprod, outside [-rank, rank) of x's shape.
template <std::ptrdiff_t Axis, class Shape>
struct cumsum_and_cumprod_axis_must_be_a_dim_of_x {
  static constexpr bool value = false;
};

namespace ops::detail {
template <class Kind, std::ptrdiff_t Axis, bool Exclusive, bool Reverse, class A>
constexpr auto make_cumulative(const A& a) {
  if constexpr (!op_needs_a_number_operand<value_type_of<A>>::value) {
    static_assert(op_needs_a_number_operand<value_type_of<A>>::value,
                  "typeflow::cumsum / cumprod(x) needs a number x (float, double, int32 or int64)");
    return a;  // inert: the error above is the one to read
  } else if constexpr (shape_of<A>::rank == 0 || !axis_in_range(Axis, shape_of<A>::rank)) {
    static_assert(cumsum_and_cumprod_axis_must_be_a_dim_of_x<Axis, shape_of<A>>::value,
                  "typeflow::cumsum / cumprod<axis>(x): x needs rank >= 1 and axis must be in [-rank, rank)");
    return a;
  } else {
    return make_node<cumulative_node<Kind, A, Axis, Exclusive, Reverse>>(a);
  }
}
}  // namespace ops::detail

/// `cumsum<axis, exclusive, reverse>(x)`: tf.cumsum(x, axis, exclusive, reverse) (op Cumsum);
/// axis 0 and both flags false by default, as TensorFlow's.
template <std::ptrdiff_t Axis = 0, bool Exclusive = false, bool Reverse = false, node A>
constexpr auto cumsum(const A& a) {
  return ops::detail::make_cumulative<ops::detail::cumsum_tag, Axis, Exclusive, Reverse>(a);
}
/// `cumprod<axis, exclusive, reverse>(x)`: tf.cumprod (op Cumprod), likewise.
template <std::ptrdiff_t Axis = 0, bool Exclusive = false, bool Reverse = false, node A>
constexpr auto cumprod(const A& a) {
  return ops::detail::make_cumulative<ops::detail::cumprod_tag, Axis, Exclusive, Reverse>(a);
}

}  // namespace typeflow
