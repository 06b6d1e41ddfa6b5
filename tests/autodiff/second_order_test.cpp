// Hessian-vector products of a small model f(x, W) built from tanh, square, matmul,
// reduce_sum, mul, add, sigmoid, exp and log: H v = gradients(reduce_sum(g * v), x) with
// g = gradients(f, x), against finite differences of the gradient; a third derivative.
#include <doctest/doctest.h>

#include <cmath>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"

namespace tf = typeflow;
using tf::shape;

namespace {
auto x = tf::placeholder<"x", double, shape<2, 3>>();
auto W = tf::placeholder<"W", double, shape<3, 4>>();
auto a = tf::placeholder<"a", double, shape<2, 4>>();
auto v = tf::placeholder<"v", double, shape<2, 3>>();

// f(x, W) = sum(tanh(x W) * a) + sum(square(x) * sigmoid(x)) + sum(log(exp(x) + 1))
//           + sum(sigmoid(x W) * exp(x W / 4)) * sum(x)
auto f = [] {
  auto xw = tf::matmul(x, W);
  return tf::reduce_sum(tf::tanh(xw) * a) + tf::reduce_sum(tf::square(x) * tf::sigmoid(x)) +
         tf::reduce_sum(tf::log(tf::exp(x) + tf::constant<1.0>())) +
         tf::reduce_sum(tf::sigmoid(xw) * tf::exp(xw * tf::constant<0.25>())) * tf::reduce_sum(x);
}();
}  // namespace

TEST_CASE("the gradient of the model is right (first order)") {
  tf::session sess(f);
  const auto x0 = fd_check::uniform<shape<2, 3>>();
  const auto W0 = fd_check::uniform<shape<3, 4>>();
  const auto a0 = fd_check::uniform<shape<2, 4>>();
  fd_check::check_gradient(sess, f, x, x0, tf::feed(W, W0), tf::feed(a, a0));
  fd_check::check_gradient(sess, f, W, W0, tf::feed(x, x0), tf::feed(a, a0));
}

TEST_CASE("Hessian-vector product: gradients(reduce_sum(gradients(f, x) * v), x)") {
  auto [g] = tf::gradients(f, x);
  auto gv = tf::reduce_sum(g * v);
  auto [hvp, mixed] = tf::gradients(gv, x, W);
  static_assert(std::is_same_v<tf::shape_of<decltype(hvp)>, shape<2, 3>>);
  tf::session sess(gv);
  const auto x0 = fd_check::uniform<shape<2, 3>>();
  const auto W0 = fd_check::uniform<shape<3, 4>>();
  const auto a0 = fd_check::uniform<shape<2, 4>>();
  const auto v0 = fd_check::uniform<shape<2, 3>>();

  // Each element of H v against central differences of g . v (fd_check).
  fd_check::check_gradient(sess, gv, x, x0, tf::feed(W, W0), tf::feed(a, a0), tf::feed(v, v0));
  // The mixed second derivative d(g . v)/dW.
  fd_check::check_gradient(sess, gv, W, W0, tf::feed(x, x0), tf::feed(a, a0), tf::feed(v, v0));

  // H v against the directional difference of the gradient: (g(x + h v) - g(x - h v)) / 2h.
  const auto got = sess.run(hvp, tf::feed(x, x0), tf::feed(W, W0), tf::feed(a, a0), tf::feed(v, v0));
  const double h = 1e-6;
  const fd_check::value_t<shape<2, 3>> xp = x0 + h * v0, xm = x0 - h * v0;
  const auto gp = sess.run(g, tf::feed(x, xp), tf::feed(W, W0), tf::feed(a, a0));
  const auto gm = sess.run(g, tf::feed(x, xm), tf::feed(W, W0), tf::feed(a, a0));
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double fd = (gp.flat(i) - gm.flat(i)) / (2 * h);
    INFO("element " << i << ": H v " << got.flat(i) << ", difference of gradients " << fd);
    CHECK(std::abs(got.flat(i) - fd) <= 1e-6 + 1e-6 * std::abs(fd));
  }

  // gradients of gradients are nodes like others: fetch f, g and H v in one run.
  const auto [f0, g0, hv0] =
      sess.run(tf::fetch(f, g, hvp), tf::feed(x, x0), tf::feed(W, W0), tf::feed(a, a0), tf::feed(v, v0));
  CHECK(std::isfinite(f0));
  CHECK(g0.size() == 6);
  CHECK(hv0 == got);
}

TEST_CASE("third derivative of a scalar: d3/dx3 of x^2 tanh(x) + exp(2x) / x") {
  auto s = tf::placeholder<"s", double, shape<>>();
  auto y = tf::square(s) * tf::tanh(s) + tf::exp(s * tf::constant<2.0>()) / s;
  auto d1 = tf::gradient(y, s);
  auto d2 = tf::gradient(d1, s);
  auto d3 = tf::gradient(d2, s);
  tf::session sess(d3);
  for (double s0 : {-1.3, -0.4, 0.7, 1.9}) {
    CAPTURE(s0);
    fd_check::check_gradient(sess, y, s, s0);
    fd_check::check_gradient(sess, d1, s, s0);
    fd_check::check_gradient(sess, d2, s, s0);
    // and against the closed form
    const double t = std::tanh(s0), sech2 = 1 - t * t, e = std::exp(2 * s0);
    const double d3_tanh_part = [&] {
      // (x^2 tanh x)''' = 6 tanh' + 6 x tanh'' + x^2 tanh'''
      const double t1 = sech2, t2 = -2 * t * sech2, t3 = -2 * sech2 * sech2 + 4 * t * t * sech2;
      return 6 * t1 + 6 * s0 * t2 + s0 * s0 * t3;
    }();
    const double d3_exp_part = [&] {
      // (e^{2x} / x)''' = e^{2x} (8/x - 12/x^2 + 12/x^3 - 6/x^4)
      return e * (8 / s0 - 12 / (s0 * s0) + 12 / (s0 * s0 * s0) - 6 / (s0 * s0 * s0 * s0));
    }();
    CHECK(sess.run(d3, tf::feed(s, s0)) == doctest::Approx(d3_tanh_part + d3_exp_part).epsilon(1e-10));
  }
}
