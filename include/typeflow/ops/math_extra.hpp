// typeflow/ops/math_extra.hpp — is_nan, is_inf, is_finite, floormod (mod), floordiv
// (floor_div), truncatemod, truncatediv: TensorFlow's elementwise ops of those names.
//
// Forward rules are TensorFlow's CPU kernels (cwise_ops.h): FloorMod's result has the sign
// of the divisor, FloorDiv rounds toward -inf, the Truncate ops toward 0. An integer
// division or modulo by zero throws typeflow::invalid_argument_error("Integer division by
// zero"), TensorFlow's InvalidArgumentError; floats follow IEEE (inf, nan). Gradients are
// math_grad.py's: FloorMod's _FloorModGrad, none for FloorDiv, the Truncate ops and the
// bool-valued predicates. tf.sign is in ops/math.hpp.
#pragma once

#include <cmath>
#include <type_traits>

#include "typeflow/core/errors.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/broadcast_gradient.hpp"
#include "typeflow/ops/elementwise.hpp"
#include "typeflow/ops/math_functions.hpp"

namespace typeflow {

namespace ops::detail {
template <class T>
void check_integer_divisor(T b) {
  if constexpr (std::is_integral_v<T>) {
    if (b == T(0)) throw invalid_argument_error("Integer division by zero");
  }
}
}  // namespace ops::detail

namespace fn {
#define TYPEFLOW_FLOAT_PREDICATE_FN(name, tf_name, expr)                      \
  struct name : op_info<tf_name> { /* bool: no gradient flows */             \
    template <class T> bool operator()(T a) const { return expr; }           \
    template <std::size_t K, class G, class Self, class A>                   \
    using gradient = no_gradient;                                            \
  };
TYPEFLOW_FLOAT_PREDICATE_FN(is_nan, "IsNan", std::isnan(a))
TYPEFLOW_FLOAT_PREDICATE_FN(is_inf, "IsInf", std::isinf(a))
TYPEFLOW_FLOAT_PREDICATE_FN(is_finite, "IsFinite", std::isfinite(a))
#undef TYPEFLOW_FLOAT_PREDICATE_FN

struct floordiv : op_info<"FloorDiv"> {
  template <class T> T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      ops::detail::check_integer_divisor(b);
      const T q = a / b, r = a % b;  // TensorFlow's google_floor_div
      return (r != T(0) && ((r < T(0)) != (b < T(0)))) ? T(q - 1) : q;
    } else {
      return std::floor(a / b);
    }
  }
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = no_gradient;  // math_grad.py's _FloorDivGrad: None, None
};
struct floormod : op_info<"FloorMod"> {
  template <class T> T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      ops::detail::check_integer_divisor(b);
      const T r = a % b;  // TensorFlow's google_floor_mod
      return (r != T(0) && ((r < T(0)) != (b < T(0)))) ? T(r + b) : r;
    } else {
      const T r = std::fmod(a, b);
      return (r != T(0) && ((r < T(0)) != (b < T(0)))) ? r + b : r;
    }
  }
  // TensorFlow's _FloorModGrad: g for x, -g floor_div(x, y) for y. Floats only.
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = mp::mp_if_c<!floating_element<value_type_of<A>>, no_gradient,
                               mp::mp_if_c<K == 0, sum_to_t<G, A>, sum_to_t<ew<neg, ew<mul, G, ew<floordiv, A, B>>>, B>>>;
};
struct truncatediv : op_info<"TruncateDiv"> {
  template <class T> T operator()(T a, T b) const {
    ops::detail::check_integer_divisor(b);
    if constexpr (std::is_integral_v<T>) {
      return a / b;
    } else {
      return std::trunc(a / b);
    }
  }
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = no_gradient;
};
struct truncatemod : op_info<"TruncateMod"> {
  template <class T> T operator()(T a, T b) const {
    ops::detail::check_integer_divisor(b);
    if constexpr (std::is_integral_v<T>) {
      return a % b;
    } else {
      return std::fmod(a, b);
    }
  }
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = no_gradient;
};
}  // namespace fn

/// In a diagnostic: TensorFlow's IsNan, IsInf, IsFinite accept only float and double.
template <class T>
struct is_nan_is_inf_is_finite_need_a_floating_point_operand {
  static constexpr bool value = floating_element<T>;
};

#define TYPEFLOW_FLOAT_PREDICATE(name)                                                             \
  template <node A>                                                                                \
  constexpr auto name(A a) {                                                                       \
    static_assert(is_nan_is_inf_is_finite_need_a_floating_point_operand<value_type_of<A>>::value, \
                  "typeflow::" #name "(x) needs a float or double x, as TensorFlow: use typeflow::cast<float>(x)"); \
    return make_unary<fn::name>(a);                                                                \
  }
/// tf.is_nan, tf.is_inf, tf.is_finite: bool, elementwise.
TYPEFLOW_FLOAT_PREDICATE(is_nan)
TYPEFLOW_FLOAT_PREDICATE(is_inf)
TYPEFLOW_FLOAT_PREDICATE(is_finite)
#undef TYPEFLOW_FLOAT_PREDICATE

/// In a diagnostic: the division ops need numbers, not bool (make_binary then checks that
/// y has x's element type).
template <class T>
struct division_op_needs_a_number_operand {
  static constexpr bool value = element_type<T> && !std::is_same_v<T, bool>;
};

#define TYPEFLOW_DIVISION_OP(name)                                                             \
  template <node A, node B>                                                                    \
  constexpr auto name(A a, B b) {                                                              \
    static_assert(division_op_needs_a_number_operand<value_type_of<A>>::value,                 \
                  "typeflow::" #name "(x, y) needs numbers (float, double, int32 or int64), not bool"); \
    return make_binary<fn::name>(a, b);                                                        \
  }
/// tf.floormod (tf.mod), tf.floordiv (tf.floor_div), tf.truncatemod, tf.truncatediv:
/// elementwise with broadcasting; integer division by zero throws invalid_argument_error.
TYPEFLOW_DIVISION_OP(floormod)
TYPEFLOW_DIVISION_OP(floordiv)
TYPEFLOW_DIVISION_OP(truncatemod)
TYPEFLOW_DIVISION_OP(truncatediv)
#undef TYPEFLOW_DIVISION_OP

/// tf.mod is tf.floormod; tf.floor_div is tf.floordiv.
template <node A, node B> constexpr auto mod(A a, B b) { return floormod(a, b); }
template <node A, node B> constexpr auto floor_div(A a, B b) { return floordiv(a, b); }

}  // namespace typeflow
