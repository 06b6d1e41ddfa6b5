// tan, asin, acos, atan, sinh, cosh, asinh, acosh, atanh, atan2, erfc, lgamma, digamma,
// log_sigmoid, xlogy (ops/math_special.hpp), ported from TensorFlow 1.x's
// cwise_ops_unary_test.py / cwise_ops_test.py (UnaryOpTest.testFloatBasic, testDoubleBasic:
// TensorFlow's inputs x, w, y, k), cwise_ops_binary_test.py (atan2 of random values pushed
// away from the origin) and math_ops_test.py (XlogyTest). Expected values are computed here
// independently, in long double with the C library (numpy's role in those tests), or from
// closed forms (digamma, trigamma); the domain edges are IEEE's and Eigen's values.
// _compareBoth's gradient checks are central differences (tests/autodiff/fd_check.hpp) of
// each op's math_grad.py rule at well-conditioned points.
//
// Not ported, and why:
// - float16, complex and sparse (_compareBothSparse) cases: typeflow has none of them.
// - An integer operand is a compile error: compile-fail tests tan_int, atan2_int; digamma
//   differentiated twice (Polygamma has no gradient rule): digamma_second_derivative.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"
#include "ops_testing.hpp"

namespace tf = typeflow;
using ops_testing::check_values;

namespace {
using ld = long double;

template <class T>
xt::xtensor<T, 1> vec(const std::vector<double>& v) {
  xt::xtensor<T, 1> t = xt::xtensor<T, 1>::from_shape({v.size()});
  for (std::size_t i = 0; i < v.size(); ++i) t(i) = static_cast<T>(v[i]);
  return t;
}

// UnaryOpTest's inputs: x = arange(-3, 3); w = x - min(x) + 1.02 (above 1); y = x + 0.5 (no
// zero); k = arange(-0.9, 0.9, 0.25) (inside (-1, 1)).
const std::vector<double> tf_x{-3, -2, -1, 0, 1, 2};
const std::vector<double> tf_w{1.02, 2.02, 3.02, 4.02, 5.02, 6.02};
const std::vector<double> tf_y{-2.5, -1.5, -0.5, 0.5, 1.5, 2.5};
const std::vector<double> tf_k{-0.9, -0.65, -0.4, -0.15, 0.1, 0.35, 0.6, 0.85};

// Each element of `got` against `want` of the element (rounded to T first, as numpy's
// input), relative tolerance rtol; non-finite expectations exactly (NaN as NaN).
template <class T, class Got, class Want>
void check_against(const Got& got, const std::vector<double>& in, Want want, double rtol) {
  REQUIRE(got.size() == in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const ld w = want(static_cast<ld>(static_cast<T>(in[i])));
    const double g = static_cast<double>(got(i));
    INFO("input " << in[i] << ": got " << g << ", want " << static_cast<double>(w));
    if (std::isnan(w)) {
      CHECK(std::isnan(g));
    } else if (std::isinf(w)) {
      CHECK(g == static_cast<double>(w));
    } else {
      CHECK(g == doctest::Approx(static_cast<double>(w)).epsilon(rtol).scale(1e-300));
    }
  }
}

template <class T>
void unary_op_test_basic(double rtol) {
  auto x = tf::placeholder<"x", T, tf::shape<tf::dyn>>();
  auto w = tf::placeholder<"w", T, tf::shape<tf::dyn>>();
  auto y = tf::placeholder<"y", T, tf::shape<tf::dyn>>();
  auto k = tf::placeholder<"k", T, tf::shape<tf::dyn>>();
  const auto ops = tf::fetch(tf::sinh(x), tf::cosh(x), tf::asinh(x), tf::acosh(w), tf::atanh(k), tf::log_sigmoid(x),
                             tf::asin(k), tf::acos(k), tf::atan(x), tf::tan(x), tf::lgamma(y), tf::erfc(x));
  tf::session sess(tf::sinh(x), tf::cosh(x), tf::asinh(x), tf::acosh(w), tf::atanh(k), tf::log_sigmoid(x), tf::asin(k),
                   tf::acos(k), tf::atan(x), tf::tan(x), tf::lgamma(y), tf::erfc(x));
  const auto [sinh_, cosh_, asinh_, acosh_, atanh_, log_sigmoid_, asin_, acos_, atan_, tan_, lgamma_, erfc_] =
      sess.run(ops, tf::feed(x, vec<T>(tf_x)), tf::feed(w, vec<T>(tf_w)), tf::feed(y, vec<T>(tf_y)),
               tf::feed(k, vec<T>(tf_k)));
  check_against<T>(sinh_, tf_x, [](ld v) { return std::sinh(v); }, rtol);
  check_against<T>(cosh_, tf_x, [](ld v) { return std::cosh(v); }, rtol);
  check_against<T>(asinh_, tf_x, [](ld v) { return std::asinh(v); }, rtol);
  check_against<T>(acosh_, tf_w, [](ld v) { return std::acosh(v); }, rtol);
  check_against<T>(atanh_, tf_k, [](ld v) { return std::atanh(v); }, rtol);
  check_against<T>(log_sigmoid_, tf_x, [](ld v) { return -std::log1p(std::exp(-v)); }, rtol);  // _log_sigmoid
  check_against<T>(asin_, tf_k, [](ld v) { return std::asin(v); }, rtol);
  check_against<T>(acos_, tf_k, [](ld v) { return std::acos(v); }, rtol);
  check_against<T>(atan_, tf_x, [](ld v) { return std::atan(v); }, rtol);
  check_against<T>(tan_, tf_x, [](ld v) { return std::tan(v); }, rtol);
  check_against<T>(lgamma_, tf_y, [](ld v) { return std::lgamma(v); }, rtol);
  check_against<T>(erfc_, tf_x, [](ld v) { return std::erfc(v); }, rtol);
}

// digamma(0.5) = -gamma - 2 ln 2; digamma(x + 1) = digamma(x) + 1/x, downward for x < 0.5.
ld digamma_at_half_integer(ld v) {
  ld d = -std::numbers::egamma_v<ld> - 2 * std::numbers::ln2_v<ld>;
  ld at = 0.5L;
  for (; at < v; at += 1) d += 1 / at;
  for (; at > v; at -= 1) d -= 1 / (at - 1);
  return d;
}
// digamma(n) = H(n - 1) - gamma for n >= 1.
ld digamma_at_integer(int n) {
  ld h = 0;
  for (int i = 1; i < n; ++i) h += ld(1) / i;
  return h - std::numbers::egamma_v<ld>;
}

// The gradient of sum(f(x) * c), c a fixed random weight, against central differences.
template <class S, class F>
void check_unary_gradient(F f, const fd_check::value_t<S>& x0) {
  auto x = tf::placeholder<"x", double, S>();
  const auto c = tf::constant<"c">(fd_check::uniform<S>(0.5, 1.5));
  const auto loss = tf::reduce_sum(f(x) * c);
  tf::session sess(loss, tf::gradient(loss, x));
  fd_check::check_gradient(sess, loss, x, x0);
}
}  // namespace

TEST_CASE("UnaryOpTest.testFloatBasic: sinh, cosh, asinh, acosh, atanh, log_sigmoid, asin, acos, atan, tan, lgamma, erfc") {
  unary_op_test_basic<float>(1e-6);
}

TEST_CASE("UnaryOpTest.testDoubleBasic: the same ops in double") { unary_op_test_basic<double>(1e-13); }

TEST_CASE("domain edges: asin, acos at +-1, acosh at 1, atanh at +-1, lgamma at 0 and the negative integers") {
  auto run = [](auto zero) {
    using T = decltype(zero);
    constexpr T inf = std::numeric_limits<T>::infinity();
    constexpr T pi = std::numbers::pi_v<T>;
    auto u = tf::placeholder<"u", T, tf::shape<4>>();
    auto a = tf::placeholder<"a", T, tf::shape<3>>();
    auto g = tf::placeholder<"g", T, tf::shape<5>>();
    tf::session sess(tf::asin(u), tf::acos(u), tf::acosh(a), tf::atanh(u), tf::lgamma(g), tf::digamma(g));
    const auto [as, ac, ach, ath, lg, dg] =
        sess.run(tf::fetch(tf::asin(u), tf::acos(u), tf::acosh(a), tf::atanh(u), tf::lgamma(g), tf::digamma(g)),
                 tf::feed(u, xt::xtensor_fixed<T, xt::xshape<4>>{-1, 1, 1.5, -2}),
                 tf::feed(a, xt::xtensor_fixed<T, xt::xshape<3>>{1, 0.5, inf}),
                 tf::feed(g, xt::xtensor_fixed<T, xt::xshape<5>>{0, -1, -2, 1, 2}));
    CHECK(as(0) == -pi / 2);
    CHECK(as(1) == pi / 2);
    CHECK(std::isnan(as(2)));  // outside [-1, 1]
    CHECK(std::isnan(as(3)));
    CHECK(ac(0) == doctest::Approx(static_cast<double>(pi)));
    CHECK(ac(1) == 0);
    CHECK(std::isnan(ac(2)));
    CHECK(ach(0) == 0);
    CHECK(std::isnan(ach(1)));  // below 1
    CHECK(ach(2) == inf);
    CHECK(ath(0) == -inf);
    CHECK(ath(1) == inf);
    CHECK(std::isnan(ath(2)));
    // lgamma: _replace_domain_error_with_inf(math.lgamma) gives inf at the poles; lgamma(1) = lgamma(2) = 0.
    CHECK(lg(0) == inf);
    CHECK(lg(1) == inf);
    CHECK(lg(2) == inf);
    CHECK(lg(3) == 0);
    CHECK(lg(4) == 0);
    // digamma: NaN at the poles (Eigen's digamma, TensorFlow's kernel); -gamma at 1, 1 - gamma at 2.
    CHECK(std::isnan(dg(0)));
    CHECK(std::isnan(dg(1)));
    CHECK(std::isnan(dg(2)));
    CHECK(dg(3) == doctest::Approx(-std::numbers::egamma).epsilon(1e-6));
    CHECK(dg(4) == doctest::Approx(1 - std::numbers::egamma).epsilon(1e-6));
  };
  run(0.0f);
  run(0.0);
}

TEST_CASE("digamma: TensorFlow's y = x + 0.5 and integers against closed forms, and against lgamma's slope") {
  auto yd = tf::placeholder<"y", double, tf::shape<tf::dyn>>();
  auto yf = tf::placeholder<"yf", float, tf::shape<tf::dyn>>();
  std::vector<double> in = tf_y;
  for (double v : {-7.5, 11.5, 30.5, 100.5}) in.push_back(v);
  tf::session sess(tf::digamma(yd), tf::digamma(yf));
  const auto [d, f] = sess.run(tf::fetch(tf::digamma(yd), tf::digamma(yf)), tf::feed(yd, vec<double>(in)),
                               tf::feed(yf, vec<float>(in)));
  check_against<double>(d, in, digamma_at_half_integer, 1e-13);
  check_against<float>(f, in, digamma_at_half_integer, 1e-6);
  const std::vector<double> ints{1, 2, 3, 9, 10, 11, 50};
  const auto di = sess.run(tf::digamma(yd), tf::feed(yd, vec<double>(ints)));
  for (std::size_t i = 0; i < ints.size(); ++i) {
    INFO("digamma(" << ints[i] << ")");
    CHECK(di(i) == doctest::Approx(static_cast<double>(digamma_at_integer(static_cast<int>(ints[i])))).epsilon(1e-13));
  }
  // Non-half-integer points: digamma is lgamma's derivative, here by a 5-point stencil of std::lgamma.
  const std::vector<double> pts{-2.7, -0.3, 0.2, 0.9, 3.3, 9.99, 10.01, 42.0};
  const auto dp = sess.run(tf::digamma(yd), tf::feed(yd, vec<double>(pts)));
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const ld v = pts[i], h = 1e-3L;
    const ld slope = (-std::lgamma(v + 2 * h) + 8 * std::lgamma(v + h) - 8 * std::lgamma(v - h) + std::lgamma(v - 2 * h)) / (12 * h);
    INFO("digamma(" << pts[i] << ")");
    CHECK(dp(i) == doctest::Approx(static_cast<double>(slope)).epsilon(1e-9));
  }
}

TEST_CASE("atan2: cwise_ops_binary_test's random operands away from the origin, quadrants, broadcasting") {
  // x1, x2 = randn(5, 6), with |v| < 0.05 set to 0.05 sign(v) (atan2's gradient near the origin).
  std::mt19937 gen(7);
  std::normal_distribution<double> normal;
  std::vector<double> y1, x1;
  for (int i = 0; i < 30; ++i) {
    double a = normal(gen), b = normal(gen);
    if (std::abs(a) < 0.05) a = std::copysign(0.05, a);
    if (std::abs(b) < 0.05) b = std::copysign(0.05, b);
    y1.push_back(a);
    x1.push_back(b);
  }
  auto yf = tf::placeholder<"y", float, tf::shape<tf::dyn>>();
  auto xf = tf::placeholder<"x", float, tf::shape<tf::dyn>>();
  auto yd = tf::placeholder<"yd", double, tf::shape<2, 3>>();
  auto xd = tf::placeholder<"xd", double, tf::shape<3>>();
  tf::session sess(tf::atan2(yf, xf), tf::atan2(yd, xd));
  const auto [af, ad] = sess.run(tf::fetch(tf::atan2(yf, xf), tf::atan2(yd, xd)), tf::feed(yf, vec<float>(y1)),
                                 tf::feed(xf, vec<float>(x1)),
                                 tf::feed(yd, fd_check::value_t<tf::shape<2, 3>>{{0.0, 1.0, -0.0}, {1.0, -1.0, -1.0}}),
                                 tf::feed(xd, fd_check::value_t<tf::shape<3>>{-1.0, 0.0, -1.0}));
  for (std::size_t i = 0; i < y1.size(); ++i) {
    const ld want = std::atan2(static_cast<ld>(static_cast<float>(y1[i])), static_cast<ld>(static_cast<float>(x1[i])));
    CHECK(af(i) == doctest::Approx(static_cast<double>(want)).epsilon(1e-6));
  }
  // IEEE quadrants: atan2(+-0, -1) = +-pi, atan2(1, 0) = pi/2, atan2(-1, 0) = -pi/2, atan2(-1, -1) = -3pi/4.
  constexpr double pi = std::numbers::pi;
  check_values(ad, {2, 3}, {pi, pi / 2, -pi, std::atan2(1.0, -1.0), -pi / 2, -3 * pi / 4}, 1e-15);
}

TEST_CASE("XlogyTest.testXlogyNoZero, testXlogyWithZero, testXlogyWithZeroBroadcast") {
  auto run = [](auto zero) {
    using T = decltype(zero);
    using M = xt::xtensor_fixed<T, xt::xshape<2, 3>>;
    auto x = tf::placeholder<"x", T, tf::shape<2, 3>>();
    auto y = tf::placeholder<"y", T, tf::shape<2, 3>>();
    auto xb = tf::placeholder<"xb", T, tf::shape<2, 1>>();
    const auto a = tf::xlogy(x, y);
    const auto b = x * tf::log(y);
    const auto c = tf::xlogy(xb, y);
    tf::session sess(a, b, c);
    // testXlogyNoZero: xlogy(x, y) == x * log(y).
    const M x0{{0.1, 0.2, 3.5}, {-2., -5., 30.}}, y0{{0.1, 0.2, 3.5}, {3.1, 4., 2.}};
    const auto [r, p] = sess.run(tf::fetch(a, b), tf::feed(x, x0), tf::feed(y, y0));
    for (std::size_t i = 0; i < 6; ++i) CHECK(r.flat(i) == doctest::Approx(p.flat(i)).epsilon(1e-6));
    // testXlogyWithZero: x = 0 gives 0, also where log(y) is -inf.
    const M yz{{0.1, 0.2, 3.5}, {0., 1., 2.}};
    const auto z = sess.run(a, tf::feed(x, M{{0, 0, 0}, {0, 0, 0}}), tf::feed(y, yz));
    for (std::size_t i = 0; i < 6; ++i) CHECK(z.flat(i) == 0);
    // testXlogyWithZeroBroadcast: x = [[0], [1]]: row 0 zeros, row 1 log(y[1]) (-inf at 0).
    const auto w = sess.run(c, tf::feed(xb, xt::xtensor_fixed<T, xt::xshape<2, 1>>{{0}, {1}}), tf::feed(y, yz));
    for (std::size_t j = 0; j < 3; ++j) {
      CHECK(w(0, j) == 0);
      CHECK(w(1, j) == std::log(yz(1, j)));
    }
  };
  run(0.0f);
  run(0.0);
}

TEST_CASE("gradients of the unary ops: math_grad.py's rules against central differences") {
  using S = tf::shape<2, 3>;
  using V = fd_check::value_t<S>;
  const V x{{-1.3, -0.4, 0.2}, {0.7, 1.1, 2.0}};      // tan (away from pi/2), atan, sinh, cosh, asinh, erfc
  const V k{{-0.8, -0.45, -0.1}, {0.15, 0.5, 0.85}};  // asin, acos, atanh: inside (-1, 1)
  const V w{{1.2, 1.5, 2.0}, {3.1, 4.4, 6.0}};        // acosh: above 1
  const V y{{-2.5, -1.3, -0.6}, {0.4, 1.7, 3.2}};     // lgamma, digamma: away from the poles
  check_unary_gradient<S>([](auto a) { return tf::tan(a); }, x);
  check_unary_gradient<S>([](auto a) { return tf::asin(a); }, k);
  check_unary_gradient<S>([](auto a) { return tf::acos(a); }, k);
  check_unary_gradient<S>([](auto a) { return tf::atan(a); }, x);
  check_unary_gradient<S>([](auto a) { return tf::sinh(a); }, x);
  check_unary_gradient<S>([](auto a) { return tf::cosh(a); }, x);
  check_unary_gradient<S>([](auto a) { return tf::asinh(a); }, x);
  check_unary_gradient<S>([](auto a) { return tf::acosh(a); }, w);
  check_unary_gradient<S>([](auto a) { return tf::atanh(a); }, k);
  check_unary_gradient<S>([](auto a) { return tf::erfc(a); }, x);
  check_unary_gradient<S>([](auto a) { return tf::lgamma(a); }, y);
  check_unary_gradient<S>([](auto a) { return tf::digamma(a); }, y);
  check_unary_gradient<S>([](auto a) { return tf::log_sigmoid(a); }, V{{-30.0, -2.0, -0.5}, {0.0, 1.5, 30.0}});
}

TEST_CASE("digamma's gradient is trigamma (polygamma(1, x)): closed forms") {
  // trigamma(1) = pi^2/6, trigamma(0.5) = pi^2/2, trigamma(1.5) = pi^2/2 - 4,
  // trigamma(-0.5) = pi^2 / sin^2(-pi/2) - trigamma(1.5) = pi^2/2 + 4, trigamma(12) by the series' sum.
  auto x = tf::placeholder<"x", double, tf::shape<5>>();
  const auto grad = tf::gradient(tf::reduce_sum(tf::digamma(x)), x);
  tf::session sess(grad);
  const auto g = sess.run(grad, tf::feed(x, fd_check::value_t<tf::shape<5>>{1.0, 0.5, 1.5, -0.5, 12.0}));
  constexpr double pi2 = std::numbers::pi * std::numbers::pi;
  ld tail = pi2 / 6;  // trigamma(12) = pi^2/6 - sum_{k=1}^{11} 1/k^2
  for (int i = 1; i < 12; ++i) tail -= ld(1) / (ld(i) * i);
  check_values(g, {5}, {pi2 / 6, pi2 / 2, pi2 / 2 - 4, pi2 / 2 + 4, static_cast<double>(tail)}, 1e-12);
}

TEST_CASE("atan2, xlogy: _Atan2Grad and _XLogyGrad against central differences, broadcasting") {
  auto y = tf::placeholder<"y", double, tf::shape<2, 3>>();
  auto x = tf::placeholder<"x", double, tf::shape<3>>();
  const auto c = tf::constant<"c">(fd_check::uniform<tf::shape<2, 3>>(0.5, 1.5));
  const auto a = tf::reduce_sum(tf::atan2(y, x) * c);
  const auto l = tf::reduce_sum(tf::xlogy(y, x) * c);
  tf::session sess(a, l);
  const fd_check::value_t<tf::shape<2, 3>> y0{{0.3, -1.2, 0.8}, {-0.4, 2.1, 1.6}};
  const fd_check::value_t<tf::shape<3>> x0{1.1, 0.6, 2.3};   // positive: xlogy's log
  const fd_check::value_t<tf::shape<3>> xn{-0.7, 0.6, -1.9};  // atan2 in the left half-plane too
  fd_check::check_gradient(sess, a, y, y0, tf::feed(x, xn));
  fd_check::check_gradient(sess, a, x, xn, tf::feed(y, y0));
  fd_check::check_gradient(sess, l, y, y0, tf::feed(x, x0));
  fd_check::check_gradient(sess, l, x, x0, tf::feed(y, y0));
}

TEST_CASE("xlogy: _XLogyGrad's values where x == 0: 0 for x, x / y = 0 for y") {
  // TensorFlow's rule, not the one-sided slope: xlogy(x != 0, y) g and xdivy(x, y) g.
  auto x = tf::placeholder<"x", double, tf::shape<3>>();
  auto y = tf::placeholder<"y", double, tf::shape<3>>();
  const auto loss = tf::reduce_sum(tf::xlogy(x, y));
  const auto [gx, gy] = tf::gradients(loss, x, y);
  tf::session sess(gx, gy);
  const auto [vx, vy] = sess.run(tf::fetch(gx, gy), tf::feed(x, fd_check::value_t<tf::shape<3>>{0.0, 2.0, 0.0}),
                                 tf::feed(y, fd_check::value_t<tf::shape<3>>{2.0, 3.0, 0.0}));
  check_values(vx, {3}, {0.0, std::log(3.0), 0.0}, 1e-15);
  check_values(vy, {3}, {0.0, 2.0 / 3.0, 0.0}, 1e-15);
}

TEST_CASE("second derivatives: xlogy's gradient (Xdivy), lgamma's twice (digamma, trigamma)") {
  // d/dy of xdivy(x, y) g = -x / y^2 for the gradient of xlogy in y; d2/dx2 lgamma = trigamma.
  auto x = tf::placeholder<"x", double, tf::shape<3>>();
  auto y = tf::placeholder<"y", double, tf::shape<3>>();
  const auto [gx, gy] = tf::gradients(tf::reduce_sum(tf::xlogy(x, y)), x, y);
  const auto c = tf::constant<"c">(fd_check::uniform<tf::shape<3>>(0.5, 1.5));
  const auto dy = tf::reduce_sum(gy * c);
  const auto dx = tf::reduce_sum(gx * c);
  const auto dl = tf::reduce_sum(tf::gradient(tf::reduce_sum(tf::lgamma(x)), x) * c);
  tf::session sess(dy, dx, dl, tf::gradient(dy, y), tf::gradient(dy, x), tf::gradient(dx, y), tf::gradient(dl, x));
  const fd_check::value_t<tf::shape<3>> x0{0.4, -1.5, 2.2}, y0{0.7, 1.3, 2.9};
  fd_check::check_gradient(sess, dy, y, y0, tf::feed(x, x0));
  fd_check::check_gradient(sess, dy, x, x0, tf::feed(y, y0));
  fd_check::check_gradient(sess, dx, y, y0, tf::feed(x, x0));
  fd_check::check_gradient(sess, dl, x, fd_check::value_t<tf::shape<3>>{0.4, 1.7, 3.5});
}
