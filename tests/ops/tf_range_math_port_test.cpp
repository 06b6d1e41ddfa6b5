// range, linspace, eye (ops/range.hpp); sign, is_nan, is_inf, is_finite, floormod, floordiv,
// truncatemod, truncatediv (ops/math.hpp, ops/math_extra.hpp), ported from TensorFlow 1.x's
// init_ops_test.py (RangeTest, LinSpaceTest), cwise_ops_test.py (IsFiniteInfNanTest, the
// sign cases of UnaryOpTest) and math_ops_test.py (ModTest, DivAndModTest). Each TEST_CASE
// names the TensorFlow test it ports; expected values are the tests' literals, or numpy's
// (np.arange, %, //, np.fmod) recomputed here.
//
// Not ported, and why:
// - Static misuse (range<0, 5, 0>(), linspace<0>, is_nan of an int, floormod of bool) is a
//   compile error: compile-fail tests range_delta_zero, range_wrong_direction, is_nan_int,
//   floormod_bool (tests/ops/CMakeLists.txt).
// - float16 / complex dtypes, use_gpu: typeflow has neither.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"
#include "ops_testing.hpp"

namespace tf = typeflow;
using ops_testing::check_values;

namespace {
template <class T>
xt::xtensor<T, 1> vec(const std::vector<double>& v) {
  xt::xtensor<T, 1> t = xt::xtensor<T, 1>::from_shape({v.size()});
  for (std::size_t i = 0; i < v.size(); ++i) t(i) = static_cast<T>(v[i]);
  return t;
}
template <class T>
xt::xtensor<T, 2> mat(std::size_t r, std::size_t c, const std::vector<double>& v) {
  xt::xtensor<T, 2> t = xt::xtensor<T, 2>::from_shape({r, c});
  for (std::size_t i = 0; i < v.size(); ++i) t.flat(i) = static_cast<T>(v[i]);
  return t;
}
// The dynamic form: one graph per element type, fed each case's start, limit, delta.
template <class T>
xt::xtensor<T, 1> run_range(T start, T limit, T delta) {
  auto s = tf::placeholder<"start", T, tf::scalar>();
  auto l = tf::placeholder<"limit", T, tf::scalar>();
  auto d = tf::placeholder<"delta", T, tf::scalar>();
  const auto r = tf::range(s, l, d);
  tf::session sess(r);
  return sess.run(r, tf::feed(s, start), tf::feed(l, limit), tf::feed(d, delta));
}
std::vector<double> lin(double a, double b, int n) {
  auto p = tf::placeholder<"a", float, tf::scalar>();
  auto q = tf::placeholder<"b", float, tf::scalar>();
  auto k = tf::placeholder<"num", std::int32_t, tf::scalar>();
  const auto r = tf::linspace(p, q, k);
  tf::session sess(r);
  const auto v = sess.run(r, tf::feed(p, static_cast<float>(a)), tf::feed(q, static_cast<float>(b)), tf::feed(k, n));
  return std::vector<double>(v.begin(), v.end());
}
void near(const std::vector<double>& got, const std::vector<double>& want) {  // assertArrayNear(.., 1e-5)
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) CHECK(std::abs(got[i] - want[i]) <= 1e-5);
}
}  // namespace

TEST_CASE("RangeTest.testBasic: static and dynamic") {
  const auto r = tf::range<0, 5, 1>();
  static_assert(std::is_same_v<tf::shape_of<decltype(r)>, tf::shape<5>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(r)>, std::int32_t>);  // dtype int32
  const auto r2 = tf::range<0, 5, 2>();
  const auto r3 = tf::range<0, 6, 2>();
  const auto r4 = tf::range<13, 32, 7>();
  const auto r5 = tf::range<100, 500, 100>();
  tf::session sess(r, r2, r3, r4, r5);
  const auto [a, b, c, d, e] = sess.run(tf::fetch(r, r2, r3, r4, r5));
  check_values(a, {5}, {0, 1, 2, 3, 4});
  check_values(b, {3}, {0, 2, 4});
  check_values(c, {3}, {0, 2, 4});
  check_values(d, {3}, {13, 20, 27});
  check_values(e, {4}, {100, 200, 300, 400});
  check_values(run_range<std::int32_t>(13, 32, 7), {3}, {13, 20, 27});
  check_values(run_range<std::int64_t>(100, 500, 100), {4}, {100, 200, 300, 400});
}

TEST_CASE("RangeTest.testLimitOnly, testEmpty") {
  const auto r = tf::range_to<5>();
  auto l = tf::placeholder<"limit", std::int32_t, tf::scalar>();
  const auto rl = tf::range(l);
  const auto e0 = tf::range<0, 0, 1>();
  const auto e5 = tf::range<5, 5, 1>();
  static_assert(tf::shape_of<decltype(e5)>::size == 0);
  tf::session sess(r, rl, e0, e5);
  const auto [a, b, c, d] = sess.run(tf::fetch(r, rl, e0, e5), tf::feed(l, 5));
  check_values(a, {5}, {0, 1, 2, 3, 4});
  check_values(b, {5}, {0, 1, 2, 3, 4});
  CHECK(c.size() == 0);
  CHECK(d.size() == 0);
  for (int start : {0, 5}) CHECK(run_range<std::int32_t>(start, start, 1).size() == 0);
}

TEST_CASE("RangeTest.testNonInteger, testNegativeDelta, testDType") {
  const auto f1 = tf::range<0.0, 2.0, 0.5, float>();
  static_assert(std::is_same_v<tf::value_type_of<decltype(f1)>, float>);  // range(0., 5., 1.): float32
  const auto f2 = tf::range<0.0, 5.0, 2.5>();
  const auto f3 = tf::range<0.0, 3.0, 0.9>();
  static_assert(std::is_same_v<tf::shape_of<decltype(f3)>, tf::shape<4>>);
  const auto n1 = tf::range<5, -1, -1>();
  const auto n2 = tf::range<2.5, 0.0, -0.5>();
  const auto n3 = tf::range<-5, -10, -3>();
  const auto dt = tf::range<0, 5, 1, double>();  // range(0, 5, dtype=tf.float64)
  tf::session sess(f1, f2, f3, n1, n2, n3, dt);
  const auto [a, b, c, d, e, f, g] = sess.run(tf::fetch(f1, f2, f3, n1, n2, n3, dt));
  check_values(a, {4}, {0, 0.5, 1, 1.5});
  check_values(b, {2}, {0, 2.5});
  check_values(c, {4}, {0, 0.9, 1.8, 2.7});
  check_values(d, {6}, {5, 4, 3, 2, 1, 0});
  check_values(e, {5}, {2.5, 2, 1.5, 1, 0.5});
  check_values(f, {2}, {-5, -8});
  check_values(g, {5}, {0, 1, 2, 3, 4});
  check_values(run_range<float>(100.f, 500.f, 100.f), {4}, {100, 200, 300, 400});
  check_values(run_range<double>(0, 3, 0.9), {4}, {0, 0.9, 1.8, 2.7});
  check_values(run_range<std::int32_t>(-5, -10, -3), {2}, {-5, -8});
}

TEST_CASE("tf.range with nodes: TensorFlow's InvalidArgument messages") {
  CHECK_THROWS_WITH_AS(run_range<std::int32_t>(0, 5, 0), "InvalidArgument: Requires delta != 0", tf::invalid_argument_error);
  CHECK_THROWS_WITH_AS(run_range<std::int32_t>(5, 0, 1), "InvalidArgument: Requires start <= limit when delta > 0",
                       tf::invalid_argument_error);
  CHECK_THROWS_WITH_AS(run_range<float>(0, 5, -1), "InvalidArgument: Requires start >= limit when delta < 0",
                       tf::invalid_argument_error);
  // Not in TensorFlow 1 (whose kernel computes a count from nan): typeflow refuses nan and inf.
  CHECK_THROWS_AS(run_range<double>(0, std::numeric_limits<double>::infinity(), 1), tf::invalid_argument_error);
}

TEST_CASE("LinSpaceTest.testPositive, testNegative, testNegativeToPositive, testPoint") {
  near(lin(1., 5., 1), {1.});
  near(lin(1., 5., 2), {1., 5.});
  near(lin(1., 5., 3), {1., 3., 5.});
  near(lin(1., 5., 4), {1., 7. / 3., 11. / 3., 5.});
  near(lin(-1., -5., 1), {-1.});
  near(lin(-1., -5., 2), {-1., -5.});
  near(lin(-1., -5., 3), {-1., -3., -5.});
  near(lin(-1., -5., 4), {-1., -7. / 3., -11. / 3., -5.});
  near(lin(-1., 5., 1), {-1.});
  near(lin(-1., 5., 2), {-1., 5.});
  near(lin(-1., 5., 3), {-1., 2., 5.});
  near(lin(-1., 5., 4), {-1., 1., 3., 5.});
  near(lin(5., 5., 1), {5.});
  near(lin(5., 5., 2), {5., 5.});
  near(lin(5., 5., 3), {5., 5., 5.});
  near(lin(5., 5., 4), {5., 5., 5., 5.});
  CHECK_THROWS_WITH_AS(lin(1., 5., 0), "InvalidArgument: Requires num > 0: 0", tf::invalid_argument_error);
  // The static form: linspace<4>(1, 5) is a [4]; num == 1 is [start] (TensorFlow 1's LinSpace).
  const auto s4 = tf::linspace<4>(tf::constant<1.0>(), tf::constant<5.0>());
  const auto s1 = tf::linspace<1>(tf::constant<1.0>(), tf::constant<5.0>());
  static_assert(std::is_same_v<tf::shape_of<decltype(s4)>, tf::shape<4>>);
  tf::session sess(s4, s1);
  const auto [a, b] = sess.run(tf::fetch(s4, s1));
  check_values(a, {4}, {1., 7. / 3., 11. / 3., 5.}, 1e-12);
  check_values(b, {1}, {1.});
}

TEST_CASE("tf.eye: square, rectangular, batched (linalg_ops_test EyeTest shapes)") {
  const auto e3 = tf::eye<float, 3>();
  const auto e23 = tf::eye<std::int32_t, 2, 3>();
  const auto e32 = tf::eye<double, 3, 2>();
  const auto b = tf::eye<float, 2, 2, 3>();  // batch_shape=[3]
  static_assert(std::is_same_v<tf::shape_of<decltype(b)>, tf::shape<3, 2, 2>>);
  tf::session sess(e3, e23, e32, b);
  const auto [x, y, z, w] = sess.run(tf::fetch(e3, e23, e32, b));
  check_values(x, {3, 3}, {1, 0, 0, 0, 1, 0, 0, 0, 1});
  check_values(y, {2, 3}, {1, 0, 0, 0, 1, 0});
  check_values(z, {3, 2}, {1, 0, 0, 1, 0, 0});
  check_values(w, {3, 2, 2}, {1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1});
}

TEST_CASE("UnaryOpTest sign: float and int values, gradient zeros") {
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn>>();
  auto xi = tf::placeholder<"xi", std::int32_t, tf::shape<tf::dyn>>();
  tf::session sess(tf::sign(x), tf::sign(xi));
  const auto [a, b] = sess.run(tf::fetch(tf::sign(x), tf::sign(xi)), tf::feed(x, vec<float>({-5, -0.5, 0, 0.5, 5})),
                               tf::feed(xi, vec<std::int32_t>({-3, 0, 4})));
  check_values(a, {5}, {-1, -1, 0, 1, 1});
  check_values(b, {3}, {-1, 0, 1});
  // _SignGrad: zeros. The gradient of sum(sign(x) + x) is 1 everywhere.
  auto xd = tf::placeholder<"xd", double, tf::shape<4>>();
  const auto loss = tf::reduce_sum(tf::sign(xd) * tf::constant<3.0>() + xd);
  tf::session gs(loss);
  fd_check::check_gradient(gs, loss, xd, fd_check::fill_away_from_zero(fd_check::value_t<tf::shape<4>>{}));
}

TEST_CASE("IsFiniteInfNanTest.testIsNan, testIsInf, testIsFinite: float and double") {
  auto run = [](auto zero) {
    using T = decltype(zero);
    using L = std::numeric_limits<T>;
    const std::vector<double> data{0, -1, 1, L::epsilon(), -L::epsilon(), L::lowest(), L::max(),
                                   -L::infinity(), L::infinity(), L::quiet_NaN()};
    auto x = tf::placeholder<"x", T, tf::shape<tf::dyn>>();
    static_assert(std::is_same_v<tf::value_type_of<decltype(tf::is_nan(x))>, bool>);
    tf::session sess(tf::is_nan(x), tf::is_inf(x), tf::is_finite(x));
    const auto [n, i, f] = sess.run(tf::fetch(tf::is_nan(x), tf::is_inf(x), tf::is_finite(x)), tf::feed(x, vec<T>(data)));
    for (std::size_t k = 0; k < data.size(); ++k) {
      const T v = static_cast<T>(data[k]);
      CHECK(n(k) == std::isnan(v));
      CHECK(i(k) == std::isinf(v));
      CHECK(f(k) == std::isfinite(v));
    }
  };
  run(0.0f);
  run(0.0);
}

TEST_CASE("DivAndModTest.testFloorModInt, testTruncateModInt, testFloorDivideInt, testConsistent") {
  // nums = np.arange(-10, 10, 1).reshape(20, 1), divs = np.arange(-3, 4, 2).reshape(1, 4)
  std::vector<double> nv, dv{-3, -1, 1, 3};
  for (int k = -10; k < 10; ++k) nv.push_back(k);
  auto nums = tf::placeholder<"nums", std::int32_t, tf::shape<tf::dyn, 1>>();
  auto divs = tf::placeholder<"divs", std::int32_t, tf::shape<1, 4>>();
  const auto fm = tf::floormod(nums, divs);
  const auto tm = tf::truncatemod(nums, divs);
  const auto fd = tf::floordiv(nums, divs);
  const auto td = tf::truncatediv(nums, divs);
  const auto consistent = fd * divs + fm;
  tf::session sess(fm, tm, fd, td, consistent);
  const auto [a, b, c, d, e] = sess.run(tf::fetch(fm, tm, fd, td, consistent), tf::feed(nums, mat<std::int32_t>(20, 1, nv)),
                                        tf::feed(divs, mat<std::int32_t>(1, 4, dv)));
  REQUIRE(a.shape()[0] == 20);
  for (std::size_t i = 0; i < 20; ++i)
    for (std::size_t j = 0; j < 4; ++j) {
      const int n = static_cast<int>(nv[i]), m = static_cast<int>(dv[j]);
      const int py_div = static_cast<int>(std::floor(static_cast<double>(n) / m));
      CHECK(a(i, j) == n - m * py_div);      // nums % divs (Python)
      CHECK(b(i, j) == static_cast<int>(std::fmod(n, m)));  // np.fmod
      CHECK(c(i, j) == py_div);               // nums // divs
      CHECK(d(i, j) == n / m);                // truncation toward 0
      CHECK(e(i, j) == n);                    // testConsistent
    }
}

TEST_CASE("DivAndModTest.testFloorModFloat, testTruncateModFloat; ModTest.testFloat, testFixed") {
  // nums = np.arange(-10, 10, .25).reshape(80, 1), divs = np.arange(-3, 0, .25).reshape(1, 12)
  std::vector<double> nv, dv;
  for (int k = 0; k < 80; ++k) nv.push_back(-10 + 0.25 * k);
  for (int k = 0; k < 12; ++k) dv.push_back(-3 + 0.25 * k);
  auto nums = tf::placeholder<"nums", float, tf::shape<80, 1>>();
  auto divs = tf::placeholder<"divs", float, tf::shape<1, 12>>();
  const auto fm = tf::floormod(nums, divs);
  const auto tm = tf::truncatemod(nums, divs);
  tf::session sess(fm, tm);
  const auto [a, b] = sess.run(tf::fetch(fm, tm), tf::feed(nums, mat<float>(80, 1, nv)), tf::feed(divs, mat<float>(1, 12, dv)));
  for (std::size_t i = 0; i < 80; ++i)
    for (std::size_t j = 0; j < 12; ++j) {
      const double n = nv[i], m = dv[j];
      const double py_mod = n - m * std::floor(n / m);  // exact here: quarters
      CHECK(a(i, j) == doctest::Approx(py_mod));
      CHECK(b(i, j) == doctest::Approx(std::fmod(n, m)));
    }
  // ModTest.testFloat: x = [0.5, 0.7, 0.3], mod(x, 0.5) against np.fmod, atol 1e-2.
  auto x = tf::placeholder<"x", double, tf::shape<3>>();
  const auto md = tf::mod(x, tf::constant<0.5>());
  // ModTest.testFixed: x = [5, 10, 23], mod(x, 5) and mod(x, x) against np.mod.
  auto xi = tf::placeholder<"xi", std::int64_t, tf::shape<3>>();
  const auto mi = tf::mod(xi, tf::constant<5>());
  const auto mx = tf::mod(xi, xi);
  tf::session s2(md, mi, mx);
  const auto [p, q, r] = s2.run(tf::fetch(md, mi, mx), tf::feed(x, vec<double>({0.5, 0.7, 0.3})),
                                tf::feed(xi, vec<std::int64_t>({5, 10, 23})));
  check_values(p, {3}, {0.0, 0.2, 0.3}, 1e-9);
  check_values(q, {3}, {0, 0, 3});
  check_values(r, {3}, {0, 0, 0});
}

TEST_CASE("floormod, floordiv: integer division by zero is TensorFlow's InvalidArgumentError") {
  auto x = tf::placeholder<"x", std::int32_t, tf::shape<2>>();
  auto y = tf::placeholder<"y", std::int32_t, tf::shape<2>>();
  tf::session sess(tf::floormod(x, y), tf::floordiv(x, y));
  const auto xs = vec<std::int32_t>({1, 2}), ys = vec<std::int32_t>({1, 0});
  CHECK_THROWS_WITH_AS(sess.run(tf::floormod(x, y), tf::feed(x, xs), tf::feed(y, ys)), "InvalidArgument: Integer division by zero",
                       tf::invalid_argument_error);
  CHECK_THROWS_WITH_AS(sess.run(tf::floordiv(x, y), tf::feed(x, xs), tf::feed(y, ys)), "InvalidArgument: Integer division by zero",
                       tf::invalid_argument_error);
  // Floats follow IEEE: x // 0 is +-inf, x mod 0 is nan.
  auto f = tf::placeholder<"f", float, tf::shape<1>>();
  tf::session fs(tf::floordiv(f, tf::constant<0.0f>()), tf::floormod(f, tf::constant<0.0f>()));
  const auto [q, m] = fs.run(tf::fetch(tf::floordiv(f, tf::constant<0.0f>()), tf::floormod(f, tf::constant<0.0f>())),
                             tf::feed(f, vec<float>({1})));
  CHECK(std::isinf(q(0)));
  CHECK(std::isnan(m(0)));
}

TEST_CASE("floormod: _FloorModGrad against central differences, broadcasting") {
  // Away from the jumps of floor(x / y): x in [0.1, 0.9] * y, y in [1.2, 2].
  auto x = tf::placeholder<"x", double, tf::shape<2, 3>>();
  auto y = tf::placeholder<"y", double, tf::shape<3>>();
  const auto w = tf::constant<"w">(fd_check::uniform<tf::shape<2, 3>>());
  const auto loss = tf::reduce_sum(tf::floormod(x * tf::constant<3.0>(), y) * w);
  tf::session sess(loss);
  fd_check::value_t<tf::shape<2, 3>> x0{{0.55, 1.3, 2.1}, {-0.2, 0.9, 4.3}};
  fd_check::value_t<tf::shape<3>> y0{1.25, 1.5, 2.0};
  fd_check::check_gradient(sess, loss, x, x0, tf::feed(y, y0));
  fd_check::check_gradient(sess, loss, y, y0, tf::feed(x, x0));
}
