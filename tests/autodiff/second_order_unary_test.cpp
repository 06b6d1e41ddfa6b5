// Second derivatives through each unary op's gradient rule, and through reductions,
// reshape and transpose: Hessian-vector products against finite differences of the
// gradient (second_order_testing.hpp). A rule whose own ops had no rule would not compile;
// one that is wrong for its second derivative fails here.
#include <doctest/doctest.h>

#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"
#include "second_order_testing.hpp"

namespace tf = typeflow;
using second_order_testing::check_unary;
using tf::keep_dims;
using tf::shape;

namespace {
using S = shape<2, 3>;

template <class N>
constexpr bool has_gradient_rule = requires { N::differentiable; };
}  // namespace

TEST_CASE("second derivatives of square, sqrt, exp, log, tanh, sigmoid") {
  check_unary<S>([](auto a) { return tf::square(a); }, fd_check::uniform<S>());
  check_unary<S>([](auto a) { return tf::sqrt(a); }, fd_check::positive<S>());
  check_unary<S>([](auto a) { return tf::exp(a); }, fd_check::uniform<S>());
  check_unary<S>([](auto a) { return tf::log(a); }, fd_check::positive<S>());
  check_unary<S>([](auto a) { return tf::tanh(a); }, fd_check::uniform<S>(-2, 2));
  check_unary<S>([](auto a) { return tf::sigmoid(a); }, fd_check::uniform<S>(-3, 3));
  check_unary<shape<>>([](auto a) { return tf::tanh(a); }, 0.3);
}

TEST_CASE("second derivatives through piecewise-linear ops (zero) and their gradient helpers: "
          "relu, abs, neg, identity, cast, sign") {
  // relu's gradient is ReluGrad(g, relu(x)), abs's is g * sign(x): their second
  // derivatives are 0 away from the kinks, but the mixed ones (with respect to w) are not.
  check_unary<S>([](auto a) { return tf::relu(a); }, fd_check::away_from_zero<S>());
  check_unary<S>([](auto a) { return tf::abs(a); }, fd_check::away_from_zero<S>());
  check_unary<S>([](auto a) { return tf::square(-a); }, fd_check::uniform<S>());
  check_unary<S>([](auto a) { return tf::exp(tf::identity(a)); }, fd_check::uniform<S>());
  check_unary<S>([](auto a) { return tf::tanh(tf::cast<double>(a)); }, fd_check::uniform<S>());
  check_unary<S>([](auto a) { return tf::relu(tf::tanh(a)) * tf::sign(a); }, fd_check::away_from_zero<S>());
}

TEST_CASE("second derivatives through compositions: relu(tanh(x)) * exp(x), sqrt(square(x) + 1)") {
  check_unary<S>([](auto a) { return tf::relu(tf::tanh(a)) * tf::exp(a); }, fd_check::away_from_zero<S>());
  check_unary<S>([](auto a) { return tf::sqrt(tf::square(a) + tf::constant<1.0>()); }, fd_check::uniform<S>());
  check_unary<S>([](auto a) { return tf::log(tf::sigmoid(a)) / tf::exp(a); }, fd_check::uniform<S>());
}

TEST_CASE("second derivatives through check_numerics and control_dependencies") {
  check_unary<S>([](auto a) { return tf::square(tf::check_numerics<"n">(tf::tanh(a))); }, fd_check::uniform<S>());
  check_unary<S>([](auto a) { return tf::exp(tf::control_dependencies(tf::square(a))(tf::tanh(a))); },
                 fd_check::uniform<S>());
}

TEST_CASE("second derivatives through reductions (their gradient is a broadcast, whose "
          "gradient is the reduction again)") {
  using S3 = shape<2, 3, 4>;
  const auto x0 = fd_check::uniform<S3>();
  check_unary<S3>([](auto a) { return tf::square(tf::reduce_sum(a)); }, x0);
  check_unary<S3>([](auto a) { return tf::square(tf::reduce_mean(a)); }, x0);
  check_unary<S3>([](auto a) { return tf::tanh(tf::reduce_sum<1>(a)); }, x0);
  check_unary<S3>([](auto a) { return tf::tanh(tf::reduce_mean<1>(a)); }, x0);
  check_unary<S3>([](auto a) { return tf::exp(tf::reduce_mean<0, 2>(a, keep_dims)); }, x0);
  check_unary<S3>([](auto a) { return tf::square(tf::reduce_sum<-1>(a, keep_dims)); }, x0);
  check_unary<S3>([](auto a) { return tf::reduce_mean<2>(tf::square(a)); }, x0);
  check_unary<S3>([](auto a) { return tf::square(tf::reduce_mean(a, keep_dims)); }, x0);
}

TEST_CASE("second derivatives through reshape and transpose") {
  using S3 = shape<2, 3, 4>;
  const auto x0 = fd_check::uniform<S3>();
  check_unary<S3>([](auto a) { return tf::tanh(tf::reshape<shape<6, 4>>(tf::square(a))); }, x0);
  check_unary<S3>([](auto a) { return tf::exp(tf::transpose<2, 0, 1>(tf::tanh(a))); }, x0);
  check_unary<S3>([](auto a) { return tf::square(tf::transpose(a)); }, x0);
  const auto d0 = fd_check::fill_uniform(xt::xtensor<double, 2>::from_shape({4, 3}));
  check_unary<shape<tf::dyn, 3>>([](auto a) { return tf::tanh(tf::reshape<shape<tf::dyn>>(tf::square(a))); }, d0);
}

// Softmax's and log_softmax's gradient nodes have gradient rules of their own
// (ops/softmax.hpp), so Hessian-vector products go through them.
TEST_CASE("second derivatives through softmax and log_softmax") {
  const auto x0 = fd_check::uniform<S>();
  check_unary<S>([](auto a) { return tf::softmax(a); }, x0);
  check_unary<S>([](auto a) { return tf::log_softmax(a); }, x0);
  check_unary<S>([](auto a) { return tf::tanh(tf::softmax(tf::square(a))); }, x0);
}
