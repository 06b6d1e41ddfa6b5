// Gradients of the elementwise math and activation ops of ops/math_functions.hpp and
// ops/activation.hpp (rsqrt, reciprocal, log1p, expm1, sin, cos, erf, floor, ceil, round, pow,
// squared_difference, relu6, leaky_relu, elu, selu, softplus, softsign): TensorFlow's gradient
// tests ported (cwise_ops_unary_test.py, cwise_ops_binary_test.py, relu_op_test.py,
// softplus_op_test.py, softsign_op_test.py), each rule against central differences
// (fd_check.hpp) at the test's inputs, away from kinks, and TensorFlow's values at the kinks,
// checked exactly. Each case names the TensorFlow test it ports. Second and third derivatives:
// tf_math_second_order_port_test.cpp; values: tests/ops/tf_math_ops_port_test.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <vector>

#include <xtensor/xfixed.hpp>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"
#include "op_testing.hpp"

namespace tf = typeflow;
using fd_check::value_t;
using op_testing::check_binary;
using op_testing::check_unary;
using op_testing::fusion;
using tf::shape;

namespace {

/// A value of static shape S holding `v` (row-major).
template <class S>
value_t<S> values(const std::vector<double>& v) {
  value_t<S> t{};
  REQUIRE(v.size() == t.size());
  for (std::size_t i = 0; i < v.size(); ++i) t.flat(i) = v[i];
  return t;
}

// relu_op_test.py's gradient input: [[-0.9, -0.7, -0.5, -0.3, -0.1], [0.1, 0.3, 0.5, 0.7, 0.9]],
// away from the kink at 0; relu6's replaces the second row with 6.1 ... 6.9, away from 6.
using S25 = shape<2, 5>;
value_t<S25> x_init() { return values<S25>({-0.9, -0.7, -0.5, -0.3, -0.1, 0.1, 0.3, 0.5, 0.7, 0.9}); }
value_t<S25> x_init_relu6() { return values<S25>({-0.9, -0.7, -0.5, -0.3, -0.1, 6.1, 6.3, 6.5, 6.7, 6.9}); }

/// gradient(reduce_sum(op(x)), x) at x0: the op's derivative at each element (TensorFlow's
/// gradient with grad_ys of ones).
template <class S, class Op>
value_t<S> derivative(Op op, const value_t<S>& x0) {
  auto x = tf::placeholder<"x", double, S>();
  auto g = tf::gradient(tf::reduce_sum(op(x)), x);
  tf::session sess(g);
  return sess.run(g, tf::feed(x, x0));
}

void check_exactly(const auto& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i);
    CHECK(got.flat(i) == want[i]);
  }
}

}  // namespace

// --- cwise_ops_unary_test.py ---------------------------------------------------------------------

TEST_CASE("cwise_ops_unary_test.py testDoubleBasic (its gradient checks): reciprocal, rsqrt, expm1, log1p, "
          "sin, cos, erf") {
  using S = shape<1, 3, 2>;
  const auto x = values<S>({-3, -2, -1, 0, 1, 2});               // np.arange(-3, 3)
  const auto y = values<S>({-2.5, -1.5, -0.5, 0.5, 1.5, 2.5});   // x + 0.5: no zero
  const auto z = values<S>({12.5, 13.5, 14.5, 15.5, 16.5, 17.5});  // x + 15.5: positive
  {
    INFO("reciprocal");
    check_unary<S>([](auto a) { return tf::reciprocal(a); }, y);
  }
  {
    INFO("rsqrt");
    check_unary<S>([](auto a) { return tf::rsqrt(a); }, z);
  }
  {
    INFO("expm1");
    check_unary<S>([](auto a) { return tf::expm1(a); }, x);
  }
  {
    INFO("log1p");
    check_unary<S>([](auto a) { return tf::log1p(a); }, z);
  }
  {
    INFO("sin");
    check_unary<S>([](auto a) { return tf::sin(a); }, x);
  }
  {
    INFO("cos");
    check_unary<S>([](auto a) { return tf::cos(a); }, x);
  }
  {
    INFO("erf");
    check_unary<S>([](auto a) { return tf::erf(a); }, x);
  }
}

TEST_CASE("gradients of reciprocal, rsqrt, log1p near their poles, and of erf over [-3, 3], on a scalar "
          "and on [3]") {
  check_unary<shape<>>([](auto a) { return tf::reciprocal(a); }, -0.3);
  check_unary<shape<>>([](auto a) { return tf::rsqrt(a); }, 0.05);
  check_unary<shape<3>>([](auto a) { return tf::log1p(a); }, values<shape<3>>({-0.9, 0.0, 3.0}));
  check_unary<shape<3>>([](auto a) { return tf::erf(a); }, values<shape<3>>({-3.0, 0.25, 3.0}));
}

TEST_CASE("floor, ceil, round: no gradient flows (TensorFlow's None), so the gradient is zeros") {
  using S = shape<6>;
  const auto x0 = values<S>({-1.5, -0.7, 0.0, 0.5, 1.2, 2.5});
  const std::vector<double> zeros(6, 0.0);
  check_exactly(derivative<S>([](auto a) { return tf::floor(a); }, x0), zeros);
  check_exactly(derivative<S>([](auto a) { return tf::ceil(a); }, x0), zeros);
  check_exactly(derivative<S>([](auto a) { return tf::round(a) + a * tf::constant<2.0>(); }, x0),
                std::vector<double>(6, 2.0));  // only the other path's gradient
}

// --- pow, squared_difference -----------------------------------------------------------------------

TEST_CASE("cwise_ops_binary_test.py testBCast_3B and _8B (pow's gradient checks): x = 1 + linspace(0, 5), "
          "both operands, both ways round") {
  auto linspace = []<class S>(S) {
    value_t<S> v{};
    for (std::size_t i = 0; i < v.size(); ++i) v.flat(i) = 1 + 5.0 * double(i) / double(v.size() - 1);
    return v;
  };
  // The test's loss is 1.1 * pow(x, y); check_binary's random weights w of the output generalize it.
  constexpr auto pow = [](auto a, auto b) { return tf::pow(a, b); };
  {
    INFO("[1, 3, 2] and [3, 1]");
    check_binary<shape<1, 3, 2>, shape<3, 1>>(pow, linspace(shape<1, 3, 2>{}), linspace(shape<3, 1>{}));
    check_binary<shape<3, 1>, shape<1, 3, 2>>(pow, linspace(shape<3, 1>{}), linspace(shape<1, 3, 2>{}));
  }
  {
    INFO("[2, 1, 5] and [2, 3, 1]");
    check_binary<shape<2, 1, 5>, shape<2, 3, 1>>(pow, linspace(shape<2, 1, 5>{}), linspace(shape<2, 3, 1>{}));
  }
}

TEST_CASE("gradients of pow with broadcasting (a scalar exponent, a row), literal exponents, and a negative "
          "base with an integer exponent (gradient with respect to the base only)") {
  constexpr auto pow = [](auto a, auto b) { return tf::pow(a, b); };
  const auto base = fd_check::positive<shape<2, 3>>(0.5, 2.0);
  check_binary<shape<2, 3>, shape<>>(pow, base, 1.7);
  check_binary<shape<2, 3>, shape<3>>(pow, base, fd_check::uniform<shape<3>>(-1.5, 1.5));
  check_unary<shape<2, 3>>([](auto a) { return tf::pow(a, tf::constant<3>()); }, fd_check::uniform<shape<2, 3>>());
  check_unary<shape<2, 3>>([](auto a) { return tf::pow(tf::constant<2.0>(), a); }, fd_check::uniform<shape<2, 3>>());
  // x < 0, y an integer: x^y is smooth in x, and its derivative is y x^(y - 1).
  check_binary<shape<2, 3>, shape<3>>(pow, fd_check::uniform<shape<2, 3>>(-2.0, -0.5), values<shape<3>>({2, 3, -1}),
                                      1u);
}

TEST_CASE("cwise_ops_binary_test.py testZeroPowGrad and _PowGrad's convention: d pow(x, y) / dy is "
          "z log(x), with log(x) taken as 0 where x <= 0; exactly") {
  auto x = tf::placeholder<"x", double, shape<5>>();
  auto y = tf::placeholder<"y", double, shape<5>>();
  auto z = tf::pow(x, y);
  auto [gx, gy] = tf::gradients(tf::reduce_sum(z), x, y);
  tf::session sess(gx, gy);
  const auto [dx, dy] = sess.run(tf::fetch(gx, gy), tf::feed(x, values<shape<5>>({0, -2, -2, 1.5, 0})),
                                 tf::feed(y, values<shape<5>>({2, 2, 3, 2, 0.5})));
  // 0^2: testZeroPowGrad asserts a gradient error of exactly 0 with respect to the exponent.
  check_exactly(dy, {0.0, 0.0, 0.0, 2.25 * std::log(1.5), 0.0});
  CHECK(dx(0) == 0.0);   // 2 * 0^1
  CHECK(dx(1) == -4.0);  // 2 * (-2)^1
  CHECK(dx(2) == 12.0);  // 3 * (-2)^2
  CHECK(dx(3) == 3.0);   // 2 * 1.5
  CHECK(std::isinf(dx(4)));  // 0.5 * 0^-0.5, as TensorFlow
}

TEST_CASE("gradient of squared_difference: 2 g (x - y) and its negation, with broadcasting, against central "
          "differences and exactly") {
  constexpr auto sqd = [](auto a, auto b) { return tf::squared_difference(a, b); };
  check_binary<shape<2, 3>, shape<2, 3>, fusion::allowed>(sqd, fd_check::uniform<shape<2, 3>>(),
                                                         fd_check::uniform<shape<2, 3>>());
  check_binary<shape<2, 3>, shape<3>>(sqd, fd_check::uniform<shape<2, 3>>(), fd_check::uniform<shape<3>>());
  check_binary<shape<2, 1>, shape<1, 3>>(sqd, fd_check::uniform<shape<2, 1>>(), fd_check::uniform<shape<1, 3>>());

  // math_ops_test.py's testSquaredDifference operands: x [[1, 2, 3], [4, 5, 6]], y [-3, -2, -1].
  auto x = tf::placeholder<"x", double, shape<2, 3>>();
  auto y = tf::placeholder<"y", double, shape<3>>();
  auto [gx, gy] = tf::gradients(tf::reduce_sum(tf::squared_difference(x, y)), x, y);
  tf::session sess(gx, gy);
  const auto [dx, dy] = sess.run(tf::fetch(gx, gy), tf::feed(x, values<shape<2, 3>>({1, 2, 3, 4, 5, 6})),
                                 tf::feed(y, values<shape<3>>({-3, -2, -1})));
  check_exactly(dx, {8, 8, 8, 14, 14, 14});
  check_exactly(dy, {-22, -22, -22});
}

// --- relu_op_test.py, softplus_op_test.py, softsign_op_test.py ------------------------------------

TEST_CASE("relu_op_test.py Relu6Test testGradientFloat64, LeakyReluTest testGradientFloat64, EluTest "
          "testGradientFloat64, SeluTest testGradientFloat64; softplus_op_test.py testGradient; "
          "softsign_op_test.py testGradient") {
  {
    INFO("relu6");
    check_unary<S25>([](auto a) { return tf::relu6(a); }, x_init_relu6());
  }
  {
    INFO("leaky_relu, alpha 0.2");
    check_unary<S25>([](auto a) { return tf::leaky_relu(a); }, x_init());
  }
  {
    INFO("leaky_relu, alpha 0.05");
    check_unary<S25>([](auto a) { return tf::leaky_relu<0.05>(a); }, x_init());
  }
  {
    INFO("elu");
    check_unary<S25>([](auto a) { return tf::elu(a); }, x_init());
  }
  {
    INFO("selu");
    check_unary<S25>([](auto a) { return tf::selu(a); }, x_init());
  }
  {
    INFO("softplus");
    check_unary<S25>([](auto a) { return tf::softplus(a); }, x_init());
  }
  {
    INFO("softsign");
    check_unary<S25>([](auto a) { return tf::softsign(a); }, x_init());
  }
}

TEST_CASE("softplus and its gradient far from 0, where the kernel switches to x and exp(x)") {
  check_unary<shape<4>>([](auto a) { return tf::softplus(a); }, values<shape<4>>({-40, -30, 30, 40}));
  check_unary<shape<4>>([](auto a) { return tf::elu(a) + tf::selu(a); }, values<shape<4>>({-40, -5, 5, 40}));
}

TEST_CASE("the kinks, exactly as TensorFlow's kernels: Relu6Grad 0 at 0 and 6, LeakyReluGrad alpha at 0, "
          "EluGrad 1 and SeluGrad scale at 0; softplus 1/2 and softsign 1 at 0") {
  using S = shape<7>;
  const auto x0 = values<S>({-1, 0, 3, 6, 7, -0.0, 1e-300});
  check_exactly(derivative<S>([](auto a) { return tf::relu6(a); }, x0), {0, 0, 1, 0, 0, 0, 1});
  check_exactly(derivative<S>([](auto a) { return tf::leaky_relu(a); }, x0), {0.2, 0.2, 1, 1, 1, 0.2, 1});
  check_exactly(derivative<S>([](auto a) { return tf::leaky_relu<0.05>(a); }, x0), {0.05, 0.05, 1, 1, 1, 0.05, 1});
  const auto elu = derivative<S>([](auto a) { return tf::elu(a); }, x0);
  CHECK(elu(0) == doctest::Approx(std::exp(-1.0)).epsilon(1e-15));
  for (std::size_t i = 1; i < 7; ++i) CHECK(elu(i) == 1.0);
  constexpr double scale = 1.0507009873554804934193349852946;
  constexpr double scale_alpha = 1.7580993408473768599402175208123;
  const auto selu = derivative<S>([](auto a) { return tf::selu(a); }, x0);
  CHECK(selu(0) == doctest::Approx(scale_alpha * std::exp(-1.0)).epsilon(1e-15));
  for (std::size_t i = 1; i < 7; ++i) CHECK(selu(i) == scale);
  const auto softplus = derivative<shape<1>>([](auto a) { return tf::softplus(a); }, values<shape<1>>({0}));
  CHECK(softplus(0) == 0.5);
  const auto softsign = derivative<shape<1>>([](auto a) { return tf::softsign(a); }, values<shape<1>>({0}));
  CHECK(softsign(0) == 1.0);
}

TEST_CASE("relu_op_test.py LeakyReluTest testGradientScalar: x = -100, loss leaky_relu(x, 0.05)^2, one step of "
          "gradient descent at 0.2 gives -99.9") {
  auto x = tf::variable<"x", float>(tf::init::constant(-100.0f));
  auto loss = tf::square(tf::leaky_relu(x, tf::constant<0.05>()));
  auto train = tf::train::gradient_descent(0.2).minimize(loss);
  tf::session sess(train);
  sess.run(tf::global_variables_initializer());
  sess.run(train);
  CHECK(sess.run(x) == doctest::Approx(-99.9).epsilon(1e-6));
}
