// tests/autodiff/op_testing.hpp — checks an op's gradient for each of its input slots,
// through the loss reduce_sum(op(...) * w) with random weights w of the op's output shape,
// so that every output element's gradient matters.
#pragma once

#include <doctest/doctest.h>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"

namespace op_testing {

namespace tf = typeflow;
using fd_check::value_t;

/// How the op's output z enters the loss reduce_sum(z * w).
enum class fusion {
  /// z * w directly: the session fuses op and product into one lazy expression.
  allowed,
  /// reshape<shape of z>(z) * w: a compute node in between, so z gets its own buffer.
  /// xtensor 0.24.3 miscomputes a broadcasting xfunction over fixed-size containers nested
  /// in another one, and the session fuses exactly such chains (the skipped cases in
  /// tests/ops/elementwise_test.cpp); with a buffer in between, a test of a broadcasting
  /// op's gradient rule does not depend on that fusion bug in the forward pass.
  barrier,
};

template <fusion F, class Z>
constexpr auto output(Z z) {
  if constexpr (F == fusion::barrier) {
    return tf::reshape<tf::shape_of<Z>>(z);
  } else {
    return z;
  }
}

/// Checks d loss / dx for loss = reduce_sum(op(x) * w), w random, at x = x0. The gradient
/// with respect to w is the product's rule, which check_binary's mul cases check on every
/// shape pairing; checking it again here, once per unary case, doubled these tests'
/// compile time (each gradient is a graph type of its own) for nothing new.
template <class S, fusion F = fusion::allowed, class Op>
void check_unary(Op op, const value_t<S>& x0) {
  auto x = tf::placeholder<"x", double, S>();
  auto z = output<F>(op(x));
  auto w = tf::placeholder<"w", double, tf::shape_of<decltype(z)>>();
  auto loss = tf::reduce_sum(z * w);
  tf::session sess(loss);
  const auto w0 = fd_check::fill_uniform(sess.run(z, tf::feed(x, x0)));
  fd_check::check_gradient(sess, loss, x, x0, tf::feed(w, w0));
}

/// Checks d loss / dx and d loss / dy for loss = reduce_sum(op(x, y) * w) with random
/// weights w, at x = x0, y = y0, against central differences. `slots` selects them
/// (bit 0: x, bit 1: y).
template <class Sx, class Sy, fusion F = fusion::barrier, class Op>
void check_binary(Op op, const value_t<Sx>& x0, const value_t<Sy>& y0, unsigned slots = 3) {
  auto x = tf::placeholder<"x", double, Sx>();
  auto y = tf::placeholder<"y", double, Sy>();
  auto z = output<F>(op(x, y));
  auto w = tf::placeholder<"w", double, tf::shape_of<decltype(z)>>();
  auto loss = tf::reduce_sum(z * w);
  tf::session sess(loss);
  // w takes z's run-time shape (dynamic dims included).
  const auto w0 = fd_check::fill_uniform(sess.run(z, tf::feed(x, x0), tf::feed(y, y0)));
  if (slots & 1u) {
    INFO("gradient with respect to the first operand");
    fd_check::check_gradient(sess, loss, x, x0, tf::feed(y, y0), tf::feed(w, w0));
  }
  if (slots & 2u) {
    INFO("gradient with respect to the second operand");
    fd_check::check_gradient(sess, loss, y, y0, tf::feed(x, x0), tf::feed(w, w0));
  }
}

constexpr auto add = [](auto a, auto b) { return a + b; };
constexpr auto sub = [](auto a, auto b) { return a - b; };
constexpr auto mul = [](auto a, auto b) { return a * b; };
constexpr auto div = [](auto a, auto b) { return a / b; };
constexpr auto maximum = [](auto a, auto b) { return tf::maximum(a, b); };
constexpr auto minimum = [](auto a, auto b) { return tf::minimum(a, b); };

/// add, sub, mul, div (divisor away from 0), maximum and minimum (away from ties) on
/// operands of static shapes Sx and Sy.
template <class Sx, class Sy, fusion F = fusion::barrier>
void check_all_binary_ops(unsigned div_slots = 3) {
  {
    INFO("add");
    check_binary<Sx, Sy, F>(add, fd_check::uniform<Sx>(), fd_check::uniform<Sy>());
  }
  {
    INFO("sub");
    check_binary<Sx, Sy, F>(sub, fd_check::uniform<Sx>(), fd_check::uniform<Sy>());
  }
  {
    INFO("mul");
    check_binary<Sx, Sy, F>(mul, fd_check::uniform<Sx>(), fd_check::uniform<Sy>());
  }
  {
    INFO("div");
    check_binary<Sx, Sy, F>(div, fd_check::uniform<Sx>(), fd_check::away_from_zero<Sy>(0.5, 2.0), div_slots);
  }
  {
    INFO("maximum");
    check_binary<Sx, Sy, F>(maximum, fd_check::grid<Sx>(0.0), fd_check::grid<Sy>(0.125));
  }
  {
    INFO("minimum");
    check_binary<Sx, Sy, F>(minimum, fd_check::grid<Sx>(0.0), fd_check::grid<Sy>(0.125));
  }
}

}  // namespace op_testing
