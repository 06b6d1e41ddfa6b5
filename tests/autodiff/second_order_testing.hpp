// tests/autodiff/second_order_testing.hpp — second derivatives: gradients of gradients.
//
// For f = reduce_sum(op(x, ...) * w) and a random direction v, the Hessian-vector product
// H v is the gradient of reduce_sum(gradient(f, x) * v) with respect to x; checking that
// gradient with fd_check compares it with central differences of (gradient(f, x) . v),
// that is, with finite differences of the gradient. The gradient graph is differentiated,
// so this checks that each rule's own ops have rules (DESIGN rule 8) and that they are right.
#pragma once

#include <doctest/doctest.h>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"
#include "op_testing.hpp"

namespace second_order_testing {

namespace tf = typeflow;
using fd_check::value_t;
using op_testing::fusion;
using op_testing::output;

/// H v and its mixed part (d/dw of gradient(f, x) . v) for f = reduce_sum(op(x) * w).
template <class S, fusion F = fusion::allowed, class Op>
void check_unary(Op op, const value_t<S>& x0) {
  auto x = tf::placeholder<"x", double, S>();
  auto v = tf::placeholder<"v", double, S>();
  auto z = output<F>(op(x));
  auto w = tf::placeholder<"w", double, tf::shape_of<decltype(z)>>();
  auto f = tf::reduce_sum(z * w);
  auto hv = tf::reduce_sum(tf::gradient(f, x) * v);
  tf::session sess(hv);
  const auto w0 = fd_check::fill_uniform(sess.run(z, tf::feed(x, x0)));
  const auto v0 = fd_check::fill_uniform(x0);
  {
    INFO("Hessian-vector product");
    fd_check::check_gradient(sess, hv, x, x0, tf::feed(w, w0), tf::feed(v, v0));
  }
  {
    INFO("mixed second derivative, with respect to the weights");
    fd_check::check_gradient(sess, hv, w, w0, tf::feed(x, x0), tf::feed(v, v0));
  }
}

/// H v for f = reduce_sum(op(x, y) * w), over both operands: the gradient of
/// gradient(f, x) . vx + gradient(f, y) . vy with respect to x and to y.
template <class Sx, class Sy, fusion F = fusion::allowed, class Op>
void check_binary(Op op, const value_t<Sx>& x0, const value_t<Sy>& y0) {
  auto x = tf::placeholder<"x", double, Sx>();
  auto y = tf::placeholder<"y", double, Sy>();
  auto vx = tf::placeholder<"vx", double, Sx>();
  auto vy = tf::placeholder<"vy", double, Sy>();
  auto z = output<F>(op(x, y));
  auto w = tf::placeholder<"w", double, tf::shape_of<decltype(z)>>();
  auto f = tf::reduce_sum(z * w);
  auto [gx, gy] = tf::gradients(f, x, y);
  auto hv = tf::reduce_sum(gx * vx) + tf::reduce_sum(gy * vy);
  tf::session sess(hv);
  const auto w0 = fd_check::fill_uniform(sess.run(z, tf::feed(x, x0), tf::feed(y, y0)));
  const auto vx0 = fd_check::fill_uniform(x0);
  const auto vy0 = fd_check::fill_uniform(y0);
  {
    INFO("Hessian-vector product, first operand");
    fd_check::check_gradient(sess, hv, x, x0, tf::feed(y, y0), tf::feed(w, w0), tf::feed(vx, vx0),
                             tf::feed(vy, vy0));
  }
  {
    INFO("Hessian-vector product, second operand");
    fd_check::check_gradient(sess, hv, y, y0, tf::feed(x, x0), tf::feed(w, w0), tf::feed(vx, vx0),
                             tf::feed(vy, vy0));
  }
}

}  // namespace second_order_testing
