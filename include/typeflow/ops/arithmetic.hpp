// typeflow/ops/arithmetic.hpp — + - * / and unary minus, with numpy broadcasting.
#pragma once

#include "typeflow/ops/broadcast_gradient.hpp"
#include "typeflow/ops/elementwise.hpp"

namespace typeflow {

namespace fn {
struct neg;
struct add {
  static constexpr std::string_view op_name = "add";
  template <class T> constexpr T operator()(T a, T b) const { return a + b; }
  static constexpr bool differentiable = true;
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = mp::mp_if_c<K == 0, sum_to_t<G, A>, sum_to_t<G, B>>;  // not mp_at_c: see autodiff/gradients.hpp
};
struct sub {
  static constexpr std::string_view op_name = "sub";
  template <class T> constexpr T operator()(T a, T b) const { return a - b; }
  static constexpr bool differentiable = true;
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = mp::mp_if_c<K == 0, sum_to_t<G, A>, sum_to_t<ew<neg, G>, B>>;
};
struct mul {
  static constexpr std::string_view op_name = "mul";
  template <class T> constexpr T operator()(T a, T b) const { return a * b; }
  static constexpr bool differentiable = true;
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = mp::mp_if_c<K == 0, sum_to_t<ew<mul, G, B>, A>, sum_to_t<ew<mul, G, A>, B>>;
};
struct div {
  // Floats divide as tf.truediv; integers truncate as C++ does (tf.truncatediv), where
  // TensorFlow's truediv would convert them to float64 (docs/reference/ops.md).
  static constexpr std::string_view op_name = "truediv";
  template <class T> constexpr T operator()(T a, T b) const { return a / b; }
  static constexpr bool differentiable = true;
  // d(a/b)/db = -a/b^2 = -(a/b)/b: reuses the forward value.
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = mp::mp_if_c<K == 0, sum_to_t<ew<div, G, B>, A>, sum_to_t<ew<neg, ew<div, ew<mul, G, Self>, B>>, B>>;
};
struct neg {
  static constexpr std::string_view op_name = "Neg";
  template <class T> constexpr T operator()(T a) const { return -a; }
  static constexpr bool differentiable = true;
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<neg, G>;
};
}  // namespace fn

template <node A, node B> constexpr auto operator+(A a, B b) { return make_binary<fn::add>(a, b); }
template <node A, node B> constexpr auto operator-(A a, B b) { return make_binary<fn::sub>(a, b); }
template <node A, node B> constexpr auto operator*(A a, B b) { return make_binary<fn::mul>(a, b); }
template <node A, node B> constexpr auto operator/(A a, B b) { return make_binary<fn::div>(a, b); }
template <node A> constexpr auto operator-(A a) { return make_unary<fn::neg>(a); }

/// tf.add, tf.subtract, tf.multiply, tf.divide, tf.negative
template <node A, node B> constexpr auto add(A a, B b) { return a + b; }
template <node A, node B> constexpr auto subtract(A a, B b) { return a - b; }
template <node A, node B> constexpr auto multiply(A a, B b) { return a * b; }
template <node A, node B> constexpr auto divide(A a, B b) { return a / b; }
template <node A> constexpr auto negative(A a) { return -a; }

}  // namespace typeflow
