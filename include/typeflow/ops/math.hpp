// typeflow/ops/math.hpp — square, sqrt, exp, log, abs, maximum, minimum, cast.
#pragma once

#include <cmath>
#include <type_traits>

#include "typeflow/ops/elementwise.hpp"

namespace typeflow {

namespace fn {
struct square {
  static constexpr std::string_view op_name = "Square";
  template <class T> constexpr T operator()(T a) const { return a * a; }
};
struct sqrt {
  static constexpr std::string_view op_name = "Sqrt";
  template <class T> T operator()(T a) const { return std::sqrt(a); }
};
struct exp {
  static constexpr std::string_view op_name = "Exp";
  template <class T> T operator()(T a) const { return std::exp(a); }
};
struct log {
  static constexpr std::string_view op_name = "Log";
  template <class T> T operator()(T a) const { return std::log(a); }
};
struct abs {
  static constexpr std::string_view op_name = "Abs";
  template <class T> constexpr T operator()(T a) const { return a < T(0) ? T(-a) : a; }
};
struct maximum {
  static constexpr std::string_view op_name = "Maximum";
  template <class T> constexpr T operator()(T a, T b) const { return a < b ? b : a; }
};
struct minimum {
  static constexpr std::string_view op_name = "Minimum";
  template <class T> constexpr T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class To>
struct cast {
  static constexpr std::string_view op_name = "Cast";
  template <class T> constexpr To operator()(T a) const { return static_cast<To>(a); }
};
}  // namespace fn

/// In a diagnostic: the op needs a floating-point operand (float or double).
template <class T>
struct op_needs_a_floating_point_operand : std::bool_constant<floating_element<T>> {};

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
