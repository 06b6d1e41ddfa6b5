// Second and third derivatives of the elementwise math and activation ops of
// ops/math_functions.hpp and ops/activation.hpp: TensorFlow's grad-of-grad tests ported
// (relu_op_test.py testGradGrad*, softplus_op_test.py testGradGrad and testGradGradGrad,
// cwise_ops_unary_test.py testGradGrad), and Hessian-vector products of every other new op
// against finite differences of its gradient (second_order_testing.hpp): the gradient ops
// (EluGrad, SeluGrad, LeakyReluGrad, Relu6Grad, pow's log where x > 0, ...) have TensorFlow's
// gradients too. First derivatives: tf_math_gradient_port_test.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <vector>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"
#include "second_order_testing.hpp"

namespace tf = typeflow;
using fd_check::value_t;
using second_order_testing::check_binary;
using second_order_testing::check_unary;
using tf::shape;

namespace {
using S25 = shape<2, 5>;
// relu_op_test.py's input: [[-0.9, -0.7, -0.5, -0.3, -0.1], [0.1, 0.3, 0.5, 0.7, 0.9]].
value_t<S25> x_init() {
  value_t<S25> v{};
  const double x[] = {-0.9, -0.7, -0.5, -0.3, -0.1, 0.1, 0.3, 0.5, 0.7, 0.9};
  for (std::size_t i = 0; i < 10; ++i) v.flat(i) = x[i];
  return v;
}
}  // namespace

TEST_CASE("relu_op_test.py EluTest testGradGrad: d2 elu / dx2 is exp(x) for x < 0, else 0, within 1e-4") {
  auto x = tf::placeholder<"x", double>();
  auto g = tf::gradient(tf::elu(x), x);
  auto gg = tf::gradient(g, x);
  tf::session sess(gg);
  for (double v : {-1.0, -0.5, 0.5, 1.0}) {
    INFO("x = " << v);
    CHECK(std::abs(sess.run(gg, tf::feed(x, v)) - (v < 0 ? std::exp(v) : 0.0)) < 1e-4);
  }
}

TEST_CASE("relu_op_test.py EluTest, SeluTest, LeakyReluTest testGradGradFloat64: Hessian-vector products of "
          "elu, selu, leaky_relu") {
  {
    INFO("elu");
    check_unary<S25>([](auto a) { return tf::elu(a); }, x_init());
  }
  {
    INFO("selu");
    check_unary<S25>([](auto a) { return tf::selu(a); }, x_init());
  }
  {
    INFO("leaky_relu");
    check_unary<S25>([](auto a) { return tf::leaky_relu(a); }, x_init());
  }
}

TEST_CASE("softplus_op_test.py testGradGrad and testGradGradGrad: the second and third derivatives of softplus") {
  check_unary<S25>([](auto a) { return tf::softplus(a); }, x_init());
  // Third order: the gradient of reduce_sum(gradient(reduce_sum(gradient(reduce_sum(softplus(x)), x)), x))
  // against central differences of the second derivative.
  auto x = tf::placeholder<"x", double, S25>();
  auto g = tf::gradient(tf::reduce_sum(tf::softplus(x)), x);
  auto gg = tf::gradient(tf::reduce_sum(g), x);
  auto loss = tf::reduce_sum(gg);
  tf::session sess(tf::gradient(loss, x));
  fd_check::check_gradient(sess, loss, x, x_init());
}

TEST_CASE("cwise_ops_unary_test.py testGradGrad: ReciprocalGrad on [-2, 2] (away from 0) and RsqrtGrad on "
          "[0.1, 3]") {
  check_unary<shape<5>>([](auto a) { return tf::reciprocal(a); }, fd_check::away_from_zero<shape<5>>(0.2, 2.0));
  check_unary<shape<5>>([](auto a) { return tf::rsqrt(a); }, fd_check::positive<shape<5>>(0.1, 3.0));
}

TEST_CASE("second derivatives of log1p, expm1, sin, cos, erf, softsign, relu6 (zero, away from its kinks)") {
  using S = shape<2, 3>;
  check_unary<S>([](auto a) { return tf::log1p(a); }, fd_check::positive<S>(0.1, 2.0));
  check_unary<S>([](auto a) { return tf::expm1(a) * tf::sin(a); }, fd_check::uniform<S>(-2, 2));
  check_unary<S>([](auto a) { return tf::cos(a) + tf::erf(a); }, fd_check::uniform<S>(-2, 2));
  check_unary<S>([](auto a) { return tf::softsign(a); }, fd_check::away_from_zero<S>(0.2, 2.0));
  check_unary<S>([](auto a) { return tf::relu6(a) * tf::exp(a); }, fd_check::uniform<S>(0.1, 5.9));
}

TEST_CASE("second derivatives of pow (positive base, both operands, broadcasting) and squared_difference") {
  check_binary<shape<2, 3>, shape<3>>([](auto a, auto b) { return tf::pow(a, b); }, fd_check::positive<shape<2, 3>>(0.5, 2.0),
                                      fd_check::uniform<shape<3>>(-1.5, 1.5));
  check_binary<shape<2, 3>, shape<2, 3>>([](auto a, auto b) { return tf::squared_difference(a, b); },
                                         fd_check::uniform<shape<2, 3>>(), fd_check::uniform<shape<2, 3>>());
}
