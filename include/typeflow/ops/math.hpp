// typeflow/ops/math.hpp — square, sqrt, exp, log, abs, maximum, minimum, cast.
#pragma once

#include <cmath>
#include <type_traits>

#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/elementwise.hpp"
#include "typeflow/ops/constant.hpp"

namespace typeflow {

namespace fn {

/// g where the condition on (a, b) holds, else 0: the gradient of maximum and minimum.
template <class Cond>
struct select_gradient {
  static constexpr std::string_view op_name = "Select";
  template <class T> constexpr T operator()(T g, T a, T b) const { return Cond{}(a, b) ? g : T(0); }
  static constexpr bool differentiable = true;
  template <std::size_t K, class G, class Self, class GI, class A, class B>
  using gradient = mp::mp_if_c<K == 0, ew<select_gradient, G, A, B>, no_gradient>;
};
struct ge { template <class T> constexpr bool operator()(T a, T b) const { return a >= b; } };
struct lt { template <class T> constexpr bool operator()(T a, T b) const { return a < b; } };
struct le { template <class T> constexpr bool operator()(T a, T b) const { return a <= b; } };
struct gt { template <class T> constexpr bool operator()(T a, T b) const { return a > b; } };

struct sign {
  static constexpr std::string_view op_name = "Sign";
  template <class T> constexpr T operator()(T a) const { return T((T(0) < a) - (a < T(0))); }
  static constexpr bool differentiable = true;
  template <std::size_t K, class G, class Self, class A>
  using gradient = no_gradient;  // zero almost everywhere
};
struct square {
  static constexpr std::string_view op_name = "Square";
  template <class T> constexpr T operator()(T a) const { return a * a; }
  static constexpr bool differentiable = true;
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, G, ew<mul, A, literal_node<2, value_type_of<A>>>>;
};
struct sqrt {
  static constexpr std::string_view op_name = "Sqrt";
  template <class T> T operator()(T a) const { return std::sqrt(a); }
  static constexpr bool differentiable = true;
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<div, ew<mul, G, literal_node<0.5, value_type_of<A>>>, Self>;
};
struct exp {
  static constexpr std::string_view op_name = "Exp";
  template <class T> T operator()(T a) const { return std::exp(a); }
  static constexpr bool differentiable = true;
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, G, Self>;
};
struct log {
  static constexpr std::string_view op_name = "Log";
  template <class T> T operator()(T a) const { return std::log(a); }
  static constexpr bool differentiable = true;
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<div, G, A>;
};
struct abs {
  static constexpr std::string_view op_name = "Abs";
  template <class T> constexpr T operator()(T a) const { return a < T(0) ? T(-a) : a; }
  static constexpr bool differentiable = true;
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, G, ew<sign, A>>;
};
struct maximum {
  static constexpr std::string_view op_name = "Maximum";
  template <class T> constexpr T operator()(T a, T b) const { return a < b ? b : a; }
  static constexpr bool differentiable = true;
  // Ties go to the first operand, as TensorFlow's _MaximumGrad (a >= b).
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = mp::mp_if_c<K == 0, sum_to_t<ew<select_gradient<ge>, G, A, B>, A>,
                               sum_to_t<ew<select_gradient<lt>, G, A, B>, B>>;
};
struct minimum {
  static constexpr std::string_view op_name = "Minimum";
  template <class T> constexpr T operator()(T a, T b) const { return b < a ? b : a; }
  static constexpr bool differentiable = true;
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = mp::mp_if_c<K == 0, sum_to_t<ew<select_gradient<le>, G, A, B>, A>,
                               sum_to_t<ew<select_gradient<gt>, G, A, B>, B>>;
};
template <class To>
struct cast {
  static constexpr std::string_view op_name = "Cast";
  template <class T> constexpr To operator()(T a) const { return static_cast<To>(a); }
  static constexpr bool differentiable = true;
  // Only between floating types does a gradient flow, as in TensorFlow.
  template <std::size_t K, class G, class Self, class A>
  using gradient = mp::mp_if_c<floating_element<To> && floating_element<value_type_of<A>>,
                               ew<cast<value_type_of<A>>, G>, no_gradient>;
};
struct stop_gradient {
  static constexpr std::string_view op_name = "StopGradient";
  template <class T> constexpr T operator()(T a) const { return a; }
  static constexpr bool differentiable = true;
  template <std::size_t K, class G, class Self, class A>
  using gradient = no_gradient;
};
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
