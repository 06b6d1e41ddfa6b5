// typeflow/ops/arithmetic.hpp — + - * / and unary minus, with numpy broadcasting.
#pragma once

#include "typeflow/ops/broadcast_gradient.hpp"
#include "typeflow/ops/elementwise.hpp"

namespace typeflow {

namespace ops::detail {
/// a + b under the op name OpName: "add", or "BiasAdd" (fn::bias_add, ops/dense.hpp), an
/// add that graphs name otherwise.
template <fixed_string OpName>
struct add_op : op_info<OpName> {
  template <class T> constexpr T operator()(T a, T b) const { return a + b; }
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = mp::mp_if_c<K == 0, sum_to_t<G, A>, sum_to_t<G, B>>;  // not mp_at_c: see autodiff/gradients.hpp
};
}  // namespace ops::detail

namespace fn {
struct neg;
struct add : ops::detail::add_op<"add"> {};
struct sub : op_info<"sub"> {
  template <class T> constexpr T operator()(T a, T b) const { return a - b; }
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = mp::mp_if_c<K == 0, sum_to_t<G, A>, sum_to_t<ew<neg, G>, B>>;
};
struct mul : op_info<"mul"> {
  template <class T> constexpr T operator()(T a, T b) const { return a * b; }
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = mp::mp_if_c<K == 0, sum_to_t<ew<mul, G, B>, A>, sum_to_t<ew<mul, G, A>, B>>;
};
struct div : op_info<"truediv"> {
  // Floats divide as tf.truediv; integers truncate as C++ does (tf.truncatediv), where
  // TensorFlow's truediv would convert them to float64 (docs/reference/ops.md).
  template <class T> constexpr T operator()(T a, T b) const { return a / b; }
  // d(a/b)/db = -a/b^2 = -(a/b)/b: reuses the forward value.
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = mp::mp_if_c<K == 0, sum_to_t<ew<div, G, B>, A>, sum_to_t<ew<neg, ew<div, ew<mul, G, Self>, B>>, B>>;
};
struct neg : op_info<"Neg"> {
  template <class T> constexpr T operator()(T a) const { return -a; }
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
