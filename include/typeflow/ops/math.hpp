// typeflow/ops/math.hpp — square, sqrt, exp, log, abs, maximum, minimum, cast.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/elementwise.hpp"

namespace typeflow {

namespace fn {

/// g where the condition on (a, b) holds, else 0: the gradient of maximum and minimum.
template <class Cond>
struct select_gradient : op_info<"Select"> {
  template <class T> constexpr T operator()(T g, T a, T b) const { return Cond{}(a, b) ? g : T(0); }
  template <std::size_t K, class G, class Self, class GI, class A, class B>
  using gradient = mp::mp_if_c<K == 0, ew<select_gradient, G, A, B>, no_gradient>;
};
struct ge { template <class T> constexpr bool operator()(T a, T b) const { return a >= b; } };
struct lt { template <class T> constexpr bool operator()(T a, T b) const { return a < b; } };
struct le { template <class T> constexpr bool operator()(T a, T b) const { return a <= b; } };
struct gt { template <class T> constexpr bool operator()(T a, T b) const { return a > b; } };

struct sign : op_info<"Sign"> {
  template <class T> constexpr T operator()(T a) const { return T((T(0) < a) - (a < T(0))); }
  template <std::size_t K, class G, class Self, class A>
  using gradient = no_gradient;  // zero almost everywhere
};
struct square : op_info<"Square"> {
  template <class T> constexpr T operator()(T a) const { return a * a; }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, G, ew<mul, A, literal_node<2, value_type_of<A>>>>;
};
struct sqrt : op_info<"Sqrt"> {
  template <class T> T operator()(T a) const { return std::sqrt(a); }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<div, ew<mul, G, literal_node<0.5, value_type_of<A>>>, Self>;
};
struct exp : op_info<"Exp"> {
  template <class T> T operator()(T a) const { return std::exp(a); }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, G, Self>;
};
struct log : op_info<"Log"> {
  template <class T> T operator()(T a) const { return std::log(a); }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<div, G, A>;
};
struct abs : op_info<"Abs"> {
  template <class T> constexpr T operator()(T a) const { return a < T(0) ? T(-a) : a; }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, G, ew<sign, A>>;
};
struct maximum : op_info<"Maximum"> {
  template <class T> constexpr T operator()(T a, T b) const { return a < b ? b : a; }
  // Ties go to the first operand, as TensorFlow's _MaximumGrad (a >= b).
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = mp::mp_if_c<K == 0, sum_to_t<ew<select_gradient<ge>, G, A, B>, A>,
                               sum_to_t<ew<select_gradient<lt>, G, A, B>, B>>;
};
struct minimum : op_info<"Minimum"> {
  template <class T> constexpr T operator()(T a, T b) const { return b < a ? b : a; }
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = mp::mp_if_c<K == 0, sum_to_t<ew<select_gradient<le>, G, A, B>, A>,
                               sum_to_t<ew<select_gradient<gt>, G, A, B>, B>>;
};
template <class To>
struct cast : op_info<"Cast"> {
  // A floating value that truncates (toward zero) outside an integer type's range, NaN and
  // the infinities included, gives the type's lowest value: TensorFlow's CPU result (x86's
  // cvttss2si), and no undefined behaviour here. Every other conversion is static_cast's.
  template <class T> constexpr To operator()(T a) const {
    if constexpr (std::is_floating_point_v<T> && std::is_integral_v<To> && !std::is_same_v<To, bool>) {
      // The range [lowest, end): powers of two (or 0), exact in T.
      constexpr T lowest = static_cast<T>(std::numeric_limits<To>::min());
      constexpr T end = T(2) * static_cast<T>(std::numeric_limits<To>::max() / 2 + 1);
      if (!(a > lowest - T(1) && a < end)) return std::numeric_limits<To>::min();
    }
    return static_cast<To>(a);
  }
  // Only between floating types does a gradient flow, as in TensorFlow.
  template <std::size_t K, class G, class Self, class A>
  using gradient = mp::mp_if_c<floating_element<To> && floating_element<value_type_of<A>>,
                               ew<cast<value_type_of<A>>, G>, no_gradient>;
};
struct stop_gradient : ops::detail::forward_op<"StopGradient", false> {};
}  // namespace fn

/// tf.stop_gradient(x): x's value; no gradient flows through it.
template <node A>
constexpr auto stop_gradient(A a) {
  return make_unary<fn::stop_gradient>(a);
}

/// tf.sign(x): -1, 0 or 1.
template <node A>
constexpr auto sign(A a) {
  return make_unary<fn::sign>(a);
}

/// In a diagnostic: the op needs a floating-point operand (float or double).
template <class T>
struct op_needs_a_floating_point_operand {
  static constexpr bool value = floating_element<T>;
};

#define TYPEFLOW_FLOAT_UNARY(name)                                                          \
  template <node A>                                                                          \
  constexpr auto name(A a) {                                                                 \
    static_assert(op_needs_a_floating_point_operand<value_type_of<A>>::value,               \
                  "typeflow::" #name "(x) needs a float or double x: use typeflow::cast<float>(x)"); \
    return make_unary<fn::name>(a);                                                          \
  }

/// tf.sqrt, tf.exp, tf.log
TYPEFLOW_FLOAT_UNARY(sqrt)
TYPEFLOW_FLOAT_UNARY(exp)
TYPEFLOW_FLOAT_UNARY(log)
#undef TYPEFLOW_FLOAT_UNARY

/// tf.square, tf.abs
template <node A> constexpr auto square(A a) { return make_unary<fn::square>(a); }
template <node A> constexpr auto abs(A a) { return make_unary<fn::abs>(a); }

/// tf.maximum, tf.minimum (elementwise, broadcasting)
template <node A, node B> constexpr auto maximum(A a, B b) { return make_binary<fn::maximum>(a, b); }
template <node A, node B> constexpr auto minimum(A a, B b) { return make_binary<fn::minimum>(a, b); }

/// tf.cast(x, T)
template <element_type To, node A>
constexpr auto cast(A a) {
  return make_unary<fn::cast<To>>(a);
}

}  // namespace typeflow
