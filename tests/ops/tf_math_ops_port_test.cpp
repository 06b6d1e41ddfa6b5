// Values of the elementwise math and activation ops of ops/math_functions.hpp, ops/logical.hpp
// and ops/activation.hpp (rsqrt, reciprocal, log1p, expm1, sin, cos, erf, floor, ceil, round,
// pow, squared_difference, logical_and / or / not, relu6, leaky_relu, elu, selu, softplus,
// softsign), ported from TensorFlow 1.x's kernel tests: cwise_ops_unary_test.py,
// cwise_ops_test.py, cwise_ops_binary_test.py, math_ops_test.py, relu_op_test.py,
// softplus_op_test.py and softsign_op_test.py. Each case names the TensorFlow test it ports.
// The expected values are the test's literals, or the numpy function it compares with,
// computed here with <cmath> in double (or long double); the tolerance is the test's
// (assertAllClose: |got - want| <= 1e-6 + 1e-6 |want|, NaN equal to NaN). TensorFlow's dtypes
// that typeflow has no element type for (half, bfloat16, int8, int16, uint*, complex) are left
// out, and so are the GPU runs. Their gradients: tests/autodiff/tf_math_gradient_port_test.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "ops_testing.hpp"

namespace tf = typeflow;
using ops_testing::shape_vector;
using tf::shape;

namespace {

constexpr double qnan = std::numeric_limits<double>::quiet_NaN();

template <class T, std::size_t... D>
using fixed = xt::xtensor_fixed<T, xt::xshape<D...>>;

/// A fixed tensor of element type T holding `v` (row-major), converted as numpy's astype.
template <class T, std::size_t... D>
fixed<T, D...> tensor(const std::vector<double>& v) {
  fixed<T, D...> t{};
  REQUIRE(v.size() == t.size());
  for (std::size_t i = 0; i < v.size(); ++i) t.flat(i) = static_cast<T>(v[i]);
  return t;
}

/// The elements of a fetched value, as doubles.
template <class V>
std::vector<double> elements(const V& v) {
  std::vector<double> out;
  for (std::size_t i = 0; i < v.size(); ++i) out.push_back(static_cast<double>(v.flat(i)));
  return out;
}

/// f applied to each element of v (the numpy reference, in double).
std::vector<double> map(const std::vector<double>& v, const std::function<double(double)>& f) {
  std::vector<double> out;
  for (double x : v) out.push_back(f(x));
  return out;
}

/// TensorFlow's assertAllClose: each element within atol + rtol |want|, NaN where want is NaN.
template <class V>
void check_close(const V& got, std::vector<std::size_t> dims, const std::vector<double>& want, double rtol = 1e-6,
                 double atol = 1e-6) {
  REQUIRE(shape_vector(got) == dims);
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double g = static_cast<double>(got.flat(i));
    INFO("element " << i << ": got " << g << ", want " << want[i]);
    if (std::isnan(want[i])) {
      CHECK(std::isnan(g));
    } else {
      CHECK(std::abs(g - want[i]) <= atol + rtol * std::abs(want[i]));
    }
  }
}

/// assertAllEqual.
template <class V>
void check_equal(const V& got, std::vector<std::size_t> dims, const std::vector<double>& want) {
  REQUIRE(shape_vector(got) == dims);
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i);
    CHECK(static_cast<double>(got.flat(i)) == want[i]);
  }
}

// np.arange(-3, 3).reshape(1, 3, 2), and testFloatBasic's y = x + 0.5, z = x + 15.5.
const std::vector<double> arange_x = {-3, -2, -1, 0, 1, 2};
const std::vector<double> arange_y = {-2.5, -1.5, -0.5, 0.5, 1.5, 2.5};
const std::vector<double> arange_z = {12.5, 13.5, 14.5, 15.5, 16.5, 17.5};

// relu_op_test.py's testNumbers input: np.array([[-9, 7, -5, 3, -1], [1, -3, 5, -7, 9]]).
const std::vector<double> numbers = {-9, 7, -5, 3, -1, 1, -3, 5, -7, 9};
// relu_op_test.py's testNp* input.
const std::vector<double> np_input = {-0.9, 0.7, -0.5, 0.3, -0.1, 0.1, -0.3, 0.5, -0.7, 0.9};

constexpr double selu_scale = 1.0507009873554804934193349852946;
constexpr double selu_scale_alpha = 1.7580993408473768599402175208123;

// The numpy references of relu_op_test.py, softplus_op_test.py and softsign_op_test.py.
double np_relu6(double x) { return std::isnan(x) ? x : std::min(std::max(x, 0.0), 6.0); }
double np_elu(double x) { return x < 0 ? std::exp(x) - 1 : x; }
double np_selu(double x) { return x < 0 ? selu_scale_alpha * (std::exp(x) - 1) : selu_scale * x; }
double np_softsign(double x) { return x / (1 + std::abs(x)); }
// np.logaddexp(0, x), in long double.
double np_softplus(double x) {
  const long double l = x;
  return static_cast<double>(l > 0 ? l + std::log1p(std::exp(-l)) : std::log1p(std::exp(l)));
}

// cwise_ops_unary_test.py testFloatBasic / testDoubleBasic: the ops of this header on x, y
// (no zero) and z (positive), against numpy in double.
template <class T>
void unary_basic() {
  auto x = tf::placeholder<"x", T, shape<1, 3, 2>>();
  auto y = tf::placeholder<"y", T, shape<1, 3, 2>>();
  auto z = tf::placeholder<"z", T, shape<1, 3, 2>>();
  auto r1 = tf::reciprocal(y);
  auto r2 = tf::rsqrt(z);
  auto r3 = tf::expm1(x);
  auto r4 = tf::log1p(z);
  auto r5 = tf::sin(x);
  auto r6 = tf::cos(x);
  auto r7 = tf::erf(x);
  tf::session sess(r1, r2, r3, r4, r5, r6, r7);
  const auto [reciprocal, rsqrt, expm1, log1p, sin, cos, erf] =
      sess.run(tf::fetch(r1, r2, r3, r4, r5, r6, r7), tf::feed(x, tensor<T, 1, 3, 2>(arange_x)),
               tf::feed(y, tensor<T, 1, 3, 2>(arange_y)),
               tf::feed(z, tensor<T, 1, 3, 2>(arange_z)));
  const std::vector<std::size_t> dims = {1, 3, 2};
  check_close(reciprocal, dims, map(arange_y, [](double v) { return 1 / v; }));
  check_close(rsqrt, dims, map(arange_z, [](double v) { return 1 / std::sqrt(v); }));
  check_close(expm1, dims, map(arange_x, [](double v) { return std::expm1(v); }));
  check_close(log1p, dims, map(arange_z, [](double v) { return std::log1p(v); }));
  check_close(sin, dims, map(arange_x, [](double v) { return std::sin(v); }));
  check_close(cos, dims, map(arange_x, [](double v) { return std::cos(v); }));
  check_close(erf, dims, map(arange_x, [](double v) { return std::erf(v); }));
}

// cwise_ops_test.py RoundingTest._testDtype: floor and ceil of np.arange(-3, 3) / 4, exactly.
template <class T>
void floor_ceil() {
  const std::vector<double> data = {-0.75, -0.5, -0.25, 0, 0.25, 0.5};
  auto x = tf::placeholder<"x", T, shape<1, 3, 2>>();
  auto fl = tf::floor(x);
  auto ce = tf::ceil(x);
  tf::session sess(fl, ce);
  const auto [floor, ceil] = sess.run(tf::fetch(fl, ce), tf::feed(x, tensor<T, 1, 3, 2>(data)));
  check_equal(floor, {1, 3, 2}, map(data, [](double v) { return std::floor(v); }));
  check_equal(ceil, {1, 3, 2}, map(data, [](double v) { return std::ceil(v); }));
}

}  // namespace

// --- cwise_ops_unary_test.py -------------------------------------------------------------------

TEST_CASE("cwise_ops_unary_test.py testFloatBasic: reciprocal, rsqrt, expm1, log1p, sin, cos, erf (float)") {
  unary_basic<float>();
}

TEST_CASE("cwise_ops_unary_test.py testDoubleBasic: reciprocal, rsqrt, expm1, log1p, sin, cos, erf (double)") {
  unary_basic<double>();
}

TEST_CASE("cwise_ops_unary_test.py testFloatEmpty: the ops on an empty [2, 0, 5] tensor give an empty tensor") {
  auto x = tf::placeholder<"x", float, shape<2, 0, 5>>();
  auto ops = tf::fetch(tf::reciprocal(x), tf::rsqrt(x), tf::expm1(x), tf::log1p(x), tf::sin(x), tf::cos(x),
                       tf::erf(x), tf::floor(x), tf::softplus(x));
  tf::session sess(tf::reciprocal(x), tf::rsqrt(x), tf::expm1(x), tf::log1p(x), tf::sin(x), tf::cos(x), tf::erf(x),
                   tf::floor(x), tf::softplus(x));
  const fixed<float, 2, 0, 5> empty{};
  const auto [a, b, c, d, e, f, g, h, i] = sess.run(ops, tf::feed(x, empty));
  for (const auto& dims : {shape_vector(a), shape_vector(b), shape_vector(c), shape_vector(d), shape_vector(e),
                           shape_vector(f), shape_vector(g), shape_vector(h), shape_vector(i)})
    CHECK(dims == std::vector<std::size_t>{2, 0, 5});
}

// --- rounding ------------------------------------------------------------------------------------

TEST_CASE("cwise_ops_test.py RoundingTest testTypes: floor and ceil of np.arange(-3, 3) / 4 (float, double)") {
  floor_ceil<float>();
  floor_ceil<double>();
}

TEST_CASE("cwise_ops_test.py RoundingTest._compare_values: halves to even (the cases TensorFlow checks on rint, "
          "whose rule tf.round shares)") {
  auto x2 = tf::placeholder<"x2", double, shape<2>>();
  auto x7 = tf::placeholder<"x7", float, shape<7>>();
  auto ops = tf::fetch(tf::round(x2), tf::round(x7));
  tf::session sess(tf::round(x2), tf::round(x7));
  const auto [r2, r7] = sess.run(ops, tf::feed(x2, tensor<double, 2>({0.5, 0.5000001})),
                                 tf::feed(x7, tensor<float, 7>({-1.7, -1.5, -0.2, 0.2, 1.5, 1.7, 2.0})));
  check_equal(r2, {2}, {0.0, 1.0});
  check_equal(r7, {7}, {-2.0, -2.0, -0.0, 0.0, 2.0, 2.0, 2.0});
  CHECK(std::signbit(r7(2)));  // -0.2 rounds to -0.0, as np.rint
  CHECK(!std::signbit(r7(3)));
}

TEST_CASE("math_ops_test.py RoundTest testRounding: np.arange(-5.0, 5.0, .25) rounded as np.round "
          "(float, double, int32)") {
  std::vector<double> x;
  for (int k = -20; k < 20; ++k) x.push_back(k * 0.25);
  // np.round: halves to even; std::nearbyint in the default rounding mode is the reference.
  const std::vector<double> want = map(x, [](double v) { return std::nearbyint(v); });
  auto xf = tf::placeholder<"xf", float, shape<40>>();
  auto xd = tf::placeholder<"xd", double, shape<40>>();
  auto xi = tf::placeholder<"xi", std::int32_t, shape<40>>();
  // An integer tensor is its own rounding: tf.round returns x itself, and so does typeflow.
  static_assert(std::is_same_v<decltype(tf::round(xi)), decltype(xi)>);
  auto ops = tf::fetch(tf::round(xf), tf::round(xd), tf::round(xi));
  tf::session sess(tf::round(xf), tf::round(xd), tf::round(xi));
  const auto [rf, rd, ri] = sess.run(ops, tf::feed(xf, tensor<float, 40>(x)), tf::feed(xd, tensor<double, 40>(x)),
                                     tf::feed(xi, tensor<std::int32_t, 40>(x)));
  check_close(rf, {40}, want, 0, 1e-2);  // the test's atol=1e-2; the values are exact
  check_equal(rf, {40}, want);
  check_equal(rd, {40}, want);
  check_equal(ri, {40}, map(x, [](double v) { return std::trunc(v); }));  // np.array(x, dtype=int32)
  CHECK(want[2] == -4.0);   // -4.5 -> -4
  CHECK(want[10] == -2.0);  // -2.5 -> -2
  CHECK(want[22] == 0.0);   // 0.5 -> 0
  CHECK(want[26] == 2.0);   // 1.5 -> 2
}

// --- pow -----------------------------------------------------------------------------------------

namespace {
// cwise_ops_binary_test.py _compareBCast: x = 1 + np.linspace(0, 5, prod(xs)), likewise y,
// as T; pow against np.power, both ways round (xs, ys) and (ys, xs).
std::vector<double> bcast_values(std::size_t n) {
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(1 + (n == 1 ? 0.0 : 5.0 * double(i) / double(n - 1)));
  return v;
}

template <class T, class Sx, class Sy, class X, class Y>
void pow_bcast(const X& xv, const Y& yv, std::vector<std::size_t> dims, const std::vector<double>& want) {
  auto x = tf::placeholder<"x", T, Sx>();
  auto y = tf::placeholder<"y", T, Sy>();
  auto z = tf::pow(x, y);
  tf::session sess(z);
  const auto got = sess.run(z, tf::feed(x, xv), tf::feed(y, yv));
  if constexpr (std::is_integral_v<T>) {
    check_equal(got, dims, want);
  } else {
    check_close(got, dims, want);
  }
}

// np.power(x, y) with numpy broadcasting, for x of dims xd and y of dims yd (rank 3, y's
// dims right-aligned and padded with 1), in double from the values as T.
template <class T>
std::vector<double> np_power(const std::vector<double>& x, std::vector<std::size_t> xd, const std::vector<double>& y,
                             std::vector<std::size_t> yd, std::vector<std::size_t>& out) {
  while (xd.size() < 3) xd.insert(xd.begin(), 1);
  while (yd.size() < 3) yd.insert(yd.begin(), 1);
  out.assign(3, 0);
  for (std::size_t d = 0; d < 3; ++d) out[d] = std::max(xd[d], yd[d]);
  std::vector<double> r;
  for (std::size_t i = 0; i < out[0]; ++i)
    for (std::size_t j = 0; j < out[1]; ++j)
      for (std::size_t k = 0; k < out[2]; ++k) {
        auto at = [&](const std::vector<double>& v, const std::vector<std::size_t>& d) {
          const std::size_t a = d[0] == 1 ? 0 : i, b = d[1] == 1 ? 0 : j, c = d[2] == 1 ? 0 : k;
          return static_cast<double>(static_cast<T>(v[(a * d[1] + b) * d[2] + c]));
        };
        r.push_back(std::pow(at(x, xd), at(y, yd)));
      }
  return r;
}

template <class T, class Sx, class Sy, std::size_t... X, std::size_t... Y>
void pow_bcast_case(fixed<T, X...>*, fixed<T, Y...>*) {
  const auto xs = bcast_values((X * ...));
  const auto ys = bcast_values((Y * ...));
  {
    std::vector<std::size_t> dims;
    const auto want = np_power<T>(xs, {X...}, ys, {Y...}, dims);
    while (dims.size() > std::max(sizeof...(X), sizeof...(Y))) dims.erase(dims.begin());
    pow_bcast<T, Sx, Sy>(tensor<T, X...>(xs), tensor<T, Y...>(ys), dims, want);
  }
  {
    std::vector<std::size_t> dims;
    const auto want = np_power<T>(ys, {Y...}, xs, {X...}, dims);
    while (dims.size() > std::max(sizeof...(X), sizeof...(Y))) dims.erase(dims.begin());
    pow_bcast<T, Sy, Sx>(tensor<T, Y...>(ys), tensor<T, X...>(xs), dims, want);
  }
}

template <class T>
void pow_bcast_cases() {
  {
    INFO("testBCast_0B: [1, 3, 2] and [1]");
    pow_bcast_case<T, shape<1, 3, 2>, shape<1>>((fixed<T, 1, 3, 2>*)nullptr, (fixed<T, 1>*)nullptr);
  }
  {
    INFO("testBCast_3B: [1, 3, 2] and [3, 1]");
    pow_bcast_case<T, shape<1, 3, 2>, shape<3, 1>>((fixed<T, 1, 3, 2>*)nullptr, (fixed<T, 3, 1>*)nullptr);
  }
  {
    INFO("testBCast_8B: [2, 1, 5] and [2, 3, 1]");
    pow_bcast_case<T, shape<2, 1, 5>, shape<2, 3, 1>>((fixed<T, 2, 1, 5>*)nullptr, (fixed<T, 2, 3, 1>*)nullptr);
  }
}
}  // namespace

TEST_CASE("cwise_ops_binary_test.py testBCast_0B, _3B, _8B: pow with broadcasting against np.power (float)") {
  pow_bcast_cases<float>();
}

TEST_CASE("cwise_ops_binary_test.py testBCast_0B, _3B, _8B: pow with broadcasting against np.power "
          "(double, int32, int64)") {
  pow_bcast_cases<double>();
  {
    INFO("int32, testBCast_3B");
    pow_bcast_case<std::int32_t, shape<1, 3, 2>, shape<3, 1>>((fixed<std::int32_t, 1, 3, 2>*)nullptr,
                                                               (fixed<std::int32_t, 3, 1>*)nullptr);
  }
  {
    INFO("int64, testBCast_0B");
    pow_bcast_case<std::int64_t, shape<1, 3, 2>, shape<1>>((fixed<std::int64_t, 1, 3, 2>*)nullptr,
                                                            (fixed<std::int64_t, 1>*)nullptr);
  }
}

TEST_CASE("basic_gpu_test.py testFloatBasic: pow of np.linspace(-5, 20, 15) by np.linspace(20, -5, 15), "
          "NaN where a negative base has a fractional exponent, as np.power") {
  std::vector<double> xs, ys;
  for (int i = 0; i < 15; ++i) {
    xs.push_back(static_cast<float>(-5 + 25.0 * i / 14));
    ys.push_back(static_cast<float>(20 - 25.0 * i / 14));
  }
  auto x = tf::placeholder<"x", float, shape<1, 3, 5>>();
  auto y = tf::placeholder<"y", float, shape<1, 3, 5>>();
  tf::session sess(tf::pow(x, y));
  const auto got = sess.run(tf::pow(x, y), tf::feed(x, tensor<float, 1, 3, 5>(xs)), tf::feed(y, tensor<float, 1, 3, 5>(ys)));
  std::vector<double> want;
  for (int i = 0; i < 15; ++i) want.push_back(std::pow(xs[i], ys[i]));
  CHECK(std::isnan(want[1]));  // (-3.2142856)^18.214285
  check_close(got, {1, 3, 5}, want);
}

TEST_CASE("cwise_ops_binary_test.py testPowNegativeExponentCpu: integers to negative integer powers throw "
          "(int32, int64)") {
  auto check = [](auto zero) {
    using T = decltype(zero);
    auto x = tf::placeholder<"x", T, shape<2>>();
    auto y = tf::placeholder<"y", T, shape<2>>();
    auto z = tf::pow(x, y);
    auto z3 = tf::pow(x, tf::constant<-3>());
    tf::session sess(z, z3);
    const auto five_two = tensor<T, 2>({5, 2});
    for (const auto& exponents : {std::vector<double>{-2, 3}, std::vector<double>{2, -3}}) {
      CHECK_THROWS_WITH_AS(sess.run(z, tf::feed(x, five_two), tf::feed(y, tensor<T, 2>(exponents))),
                           doctest::Contains("Integers to negative integer powers are not allowed"),
                           tf::invalid_argument_error);
    }
    CHECK_THROWS_AS(sess.run(z3, tf::feed(x, five_two)), tf::invalid_argument_error);
    check_equal(sess.run(z, tf::feed(x, five_two), tf::feed(y, tensor<T, 2>({2, 3}))), {2}, {25, 8});
  };
  check(std::int32_t{});
  check(std::int64_t{});
}

// --- squared_difference --------------------------------------------------------------------------

TEST_CASE("math_ops_test.py SquaredDifferenceTest testSquaredDifference: [[1, 2, 3], [4, 5, 6]] and "
          "[-3, -2, -1] (float, double, int32, int64)") {
  auto check = [](auto zero) {
    using T = decltype(zero);
    auto x = tf::placeholder<"x", T, shape<2, 3>>();
    auto y = tf::placeholder<"y", T, shape<3>>();
    auto z = tf::squared_difference(x, y);
    static_assert(std::is_same_v<tf::value_type_of<decltype(z)>, T>);
    tf::session sess(z);
    check_equal(sess.run(z, tf::feed(x, tensor<T, 2, 3>({1, 2, 3, 4, 5, 6})), tf::feed(y, tensor<T, 3>({-3, -2, -1}))),
                {2, 3}, {16, 16, 16, 49, 49, 49});
  };
  check(float{});
  check(double{});
  check(std::int32_t{});
  check(std::int64_t{});
}

// --- logical ops ---------------------------------------------------------------------------------

TEST_CASE("cwise_ops_test.py LogicalOpTest testScalar: logical_and, logical_or, logical_not on [True] and "
          "[False]") {
  auto x = tf::placeholder<"x", bool, shape<1>>();
  auto y = tf::placeholder<"y", bool, shape<1>>();
  auto ops = tf::fetch(tf::logical_and(x, y), tf::logical_or(x, y), tf::logical_not(x));
  static_assert(std::is_same_v<tf::value_type_of<decltype(tf::logical_and(x, y))>, bool>);
  tf::session sess(tf::logical_and(x, y), tf::logical_or(x, y), tf::logical_not(x));
  for (bool a : {true, false})
    for (bool b : {true, false}) {
      const auto [conj, disj, neg] = sess.run(ops, tf::feed(x, fixed<bool, 1>{a}), tf::feed(y, fixed<bool, 1>{b}));
      CHECK(conj(0) == (a && b));
      CHECK(disj(0) == (a || b));
      CHECK(neg(0) == !a);
    }
}

TEST_CASE("cwise_ops_test.py LogicalOpTest testTensor and testBCast: [1, 3, 2] with [1, 3, 2], [3, 1], [2, 1, 1]; "
          "[2, 0, 5] with [2, 0, 1]") {
  const fixed<bool, 1, 3, 2> x0 = {{{true, false}, {false, true}, {true, true}}};
  auto x = tf::placeholder<"x", bool, shape<1, 3, 2>>();
  auto same = tf::placeholder<"same", bool, shape<1, 3, 2>>();
  auto column = tf::placeholder<"column", bool, shape<3, 1>>();
  auto deep = tf::placeholder<"deep", bool, shape<2, 1, 1>>();
  auto ops = tf::fetch(tf::logical_not(x), tf::logical_and(x, same), tf::logical_or(x, same),
                       tf::logical_and(x, column), tf::logical_or(column, x), tf::logical_and(deep, x));
  tf::session sess(tf::logical_not(x), tf::logical_and(x, same), tf::logical_or(x, same), tf::logical_and(x, column),
                   tf::logical_or(column, x), tf::logical_and(deep, x));
  const fixed<bool, 1, 3, 2> same0 = {{{true, true}, {false, false}, {false, true}}};
  const fixed<bool, 3, 1> column0 = {{false}, {true}, {true}};
  const fixed<bool, 2, 1, 1> deep0 = {{{true}}, {{false}}};
  const auto [neg, conj, disj, conj_col, disj_col, conj_deep] =
      sess.run(ops, tf::feed(x, x0), tf::feed(same, same0), tf::feed(column, column0), tf::feed(deep, deep0));
  // np.logical_not, np.logical_and, np.logical_or with numpy broadcasting.
  check_equal(neg, {1, 3, 2}, {0, 1, 1, 0, 0, 0});
  check_equal(conj, {1, 3, 2}, {1, 0, 0, 0, 0, 1});
  check_equal(disj, {1, 3, 2}, {1, 1, 0, 1, 1, 1});
  check_equal(conj_col, {1, 3, 2}, {0, 0, 0, 1, 1, 1});
  check_equal(disj_col, {1, 3, 2}, {1, 0, 1, 1, 1, 1});
  check_equal(conj_deep, {2, 3, 2}, {1, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0});

  auto e = tf::placeholder<"e", bool, shape<2, 0, 5>>();
  auto f = tf::placeholder<"f", bool, shape<2, 0, 1>>();
  tf::session empty(tf::logical_or(e, f));
  CHECK(shape_vector(empty.run(tf::logical_or(e, f), tf::feed(e, fixed<bool, 2, 0, 5>{}),
                               tf::feed(f, fixed<bool, 2, 0, 1>{}))) ==
        std::vector<std::size_t>{2, 0, 5});
}

// --- relu6 ---------------------------------------------------------------------------------------

TEST_CASE("relu_op_test.py Relu6Test testNpRelu6, testNumbersCPU (int32, int64, float, double), "
          "testNaNPropagation") {
  auto xf = tf::placeholder<"xf", double, shape<2, 5>>();
  auto nf = tf::placeholder<"nf", float, shape<2, 5>>();
  auto ni = tf::placeholder<"ni", std::int32_t, shape<2, 5>>();
  auto nl = tf::placeholder<"nl", std::int64_t, shape<2, 5>>();
  auto nd = tf::placeholder<"nd", double, shape<2, 5>>();
  auto nan_in = tf::placeholder<"nan_in", float, shape<5>>();
  auto ops = tf::fetch(tf::relu6(xf), tf::relu6(nf), tf::relu6(ni), tf::relu6(nl), tf::relu6(nd), tf::relu6(nan_in));
  static_assert(std::is_same_v<tf::value_type_of<decltype(tf::relu6(ni))>, std::int32_t>);
  tf::session sess(tf::relu6(xf), tf::relu6(nf), tf::relu6(ni), tf::relu6(nl), tf::relu6(nd), tf::relu6(nan_in));
  const auto [np, f, i, l, d, n] =
      sess.run(ops, tf::feed(xf, tensor<double, 2, 5>({-0.9, 0.7, -0.5, 0.3, 6.0, 0.1, -0.3, 6.5, -0.7, 0.9})),
               tf::feed(nf, tensor<float, 2, 5>(numbers)), tf::feed(ni, tensor<std::int32_t, 2, 5>(numbers)),
               tf::feed(nl, tensor<std::int64_t, 2, 5>(numbers)), tf::feed(nd, tensor<double, 2, 5>(numbers)),
               tf::feed(nan_in, tensor<float, 5>({-1, qnan, 1, 7, qnan})));
  check_close(np, {2, 5}, {0.0, 0.7, 0.0, 0.3, 6.0, 0.1, 0.0, 6.0, 0.0, 0.9});
  const auto want = map(numbers, np_relu6);
  check_equal(f, {2, 5}, want);
  check_equal(i, {2, 5}, want);
  check_equal(l, {2, 5}, want);
  check_equal(d, {2, 5}, want);
  check_close(n, {5}, {0, qnan, 1, 6, qnan});
}

// --- leaky_relu ----------------------------------------------------------------------------------

TEST_CASE("relu_op_test.py ReluTest testNpRelu and testNaNPropagation: max(x, 0), NaN passes through") {
  auto x = tf::placeholder<"x", double, shape<2, 5>>();
  auto nan_in = tf::placeholder<"nan_in", float, shape<5>>();
  tf::session sess(tf::relu(x), tf::relu(nan_in));
  const auto [r, n] = sess.run(tf::fetch(tf::relu(x), tf::relu(nan_in)),
                               tf::feed(x, tensor<double, 2, 5>({-0.9, 0.7, -0.5, 0.3, -0.1, 0.1, -0.3, 0.5, -0.7, 0.9})),
                               tf::feed(nan_in, tensor<float, 5>({-1, qnan, 1, 7, qnan})));
  check_close(r, {2, 5}, {0.0, 0.7, 0.0, 0.3, 0.0, 0.1, 0.0, 0.5, 0.0, 0.9});
  check_close(n, {5}, {0, qnan, 1, 7, qnan});
}

TEST_CASE("relu_op_test.py LeakyReluTest testNpLeakyRelu (alpha 0.1), testNumbersCPU (alpha 0.2, float, "
          "double; int32 through a cast, as TensorFlow converts it to float32), testNaNPropagation") {
  auto x = tf::placeholder<"x", double, shape<2, 5>>();
  auto nf = tf::placeholder<"nf", float, shape<2, 5>>();
  auto nd = tf::placeholder<"nd", double, shape<2, 5>>();
  auto ni = tf::placeholder<"ni", std::int32_t, shape<2, 5>>();
  auto nan_in = tf::placeholder<"nan_in", double, shape<4>>();
  // alpha: a template argument, or a literal as TensorFlow's second argument; the default 0.2.
  static_assert(std::is_same_v<decltype(tf::leaky_relu(x, tf::constant<0.1>())), decltype(tf::leaky_relu<0.1>(x))>);
  static_assert(std::is_same_v<decltype(tf::leaky_relu(x)), decltype(tf::leaky_relu<0.2>(x))>);
  auto ops = tf::fetch(tf::leaky_relu(x, tf::constant<0.1>()), tf::leaky_relu(nf), tf::leaky_relu<0.2>(nd),
                       tf::leaky_relu(tf::cast<float>(ni)), tf::leaky_relu(nan_in));
  tf::session sess(tf::leaky_relu(x, tf::constant<0.1>()), tf::leaky_relu(nf), tf::leaky_relu<0.2>(nd),
                   tf::leaky_relu(tf::cast<float>(ni)), tf::leaky_relu(nan_in));
  const auto [np, f, d, i, n] =
      sess.run(ops, tf::feed(x, tensor<double, 2, 5>(np_input)), tf::feed(nf, tensor<float, 2, 5>(numbers)),
               tf::feed(nd, tensor<double, 2, 5>(numbers)), tf::feed(ni, tensor<std::int32_t, 2, 5>(numbers)),
               tf::feed(nan_in, tensor<double, 4>({-1, qnan, 1, qnan})));
  check_close(np, {2, 5}, {-0.09, 0.7, -0.05, 0.3, -0.01, 0.1, -0.03, 0.5, -0.07, 0.9});
  // np.maximum(x, alpha * x)
  const auto want = map(numbers, [](double v) { return std::max(v, 0.2 * v); });
  check_close(f, {2, 5}, want);
  check_close(d, {2, 5}, want);
  check_close(i, {2, 5}, want);
  check_close(n, {4}, {-0.2, qnan, 1, qnan});
}

TEST_CASE("relu_op_test.py LeakyReluTest testUnexpectedAlphaValue: alpha 10 and -10 (not a maximum)") {
  auto x = tf::placeholder<"x", double, shape<2, 5>>();
  auto ops = tf::fetch(tf::leaky_relu<10.0>(x), tf::leaky_relu(x, tf::constant<-10>()));
  tf::session sess(tf::leaky_relu<10.0>(x), tf::leaky_relu(x, tf::constant<-10>()));
  const auto [ten, minus_ten] =
      sess.run(ops, tf::feed(x, tensor<double, 2, 5>({-0.9, 0.7, -0.5, 0.3, -0.01, 0.1, -0.3, 0.5, -2.7, 0.9})));
  check_close(ten, {2, 5}, {-9.0, 0.7, -5.0, 0.3, -0.1, 0.1, -3.0, 0.5, -27.0, 0.9});
  check_close(minus_ten, {2, 5}, {9.0, 0.7, 5.0, 0.3, 0.1, 0.1, 3.0, 0.5, 27.0, 0.9});
}

// --- elu, selu -----------------------------------------------------------------------------------

TEST_CASE("relu_op_test.py EluTest testNpElu, testNumbersCPU (float, double), testNaNPropagation") {
  auto x = tf::placeholder<"x", double, shape<2, 5>>();
  auto nf = tf::placeholder<"nf", float, shape<2, 5>>();
  auto nd = tf::placeholder<"nd", double, shape<2, 5>>();
  auto nan_in = tf::placeholder<"nan_in", float, shape<4>>();
  auto ops = tf::fetch(tf::elu(x), tf::elu(nf), tf::elu(nd), tf::elu(nan_in));
  tf::session sess(tf::elu(x), tf::elu(nf), tf::elu(nd), tf::elu(nan_in));
  const auto [np, f, d, n] = sess.run(ops, tf::feed(x, tensor<double, 2, 5>(np_input)),
                                      tf::feed(nf, tensor<float, 2, 5>(numbers)), tf::feed(nd, tensor<double, 2, 5>(numbers)),
                                      tf::feed(nan_in, tensor<float, 4>({-1, qnan, 1, qnan})));
  check_close(np, {2, 5},
              {-0.59343034025, 0.7, -0.39346934028, 0.3, -0.09516258196, 0.1, -0.25918177931, 0.5, -0.5034146962, 0.9});
  check_close(f, {2, 5}, map(numbers, np_elu));
  check_close(d, {2, 5}, map(numbers, np_elu));
  check_close(n, {4}, {np_elu(-1), qnan, 1, qnan});
}

TEST_CASE("relu_op_test.py SeluTest testNpSelu, testNumbers (float, double)") {
  auto x = tf::placeholder<"x", double, shape<2, 5>>();
  auto nf = tf::placeholder<"nf", float, shape<2, 5>>();
  auto nd = tf::placeholder<"nd", double, shape<2, 5>>();
  auto ops = tf::fetch(tf::selu(x), tf::selu(nf), tf::selu(nd));
  tf::session sess(tf::selu(x), tf::selu(nf), tf::selu(nd));
  const auto [np, f, d] = sess.run(ops, tf::feed(x, tensor<double, 2, 5>(np_input)),
                                   tf::feed(nf, tensor<float, 2, 5>(numbers)), tf::feed(nd, tensor<double, 2, 5>(numbers)));
  check_close(np, {2, 5},
              {-1.0433095, 0.73549069, -0.6917582, 0.3152103, -0.16730527, 0.1050701, -0.45566732, 0.5253505,
               -0.88505305, 0.9456309});
  check_close(f, {2, 5}, map(numbers, np_selu));
  check_close(d, {2, 5}, map(numbers, np_selu));
}

// --- softplus, softsign --------------------------------------------------------------------------

namespace {
// softplus_op_test.py testNumbers: the [[-9, 7, ...]] numbers, and log(eps) +- 0, 1, 10 and
// their negations, around the kernel's thresholds; all results positive.
template <class T>
void softplus_numbers() {
  const double log_eps = std::log(static_cast<double>(std::numeric_limits<T>::epsilon()));
  std::vector<double> edges;
  for (double v : {log_eps, log_eps - 1, log_eps + 1, log_eps - 10, log_eps + 10, -log_eps, -log_eps - 1,
                   -log_eps + 1, -log_eps - 10, -log_eps + 10})
    edges.push_back(static_cast<T>(v));  // t(...) in the test: the values as T
  auto n = tf::placeholder<"n", T, shape<2, 5>>();
  auto e = tf::placeholder<"e", T, shape<10>>();
  auto ops = tf::fetch(tf::softplus(n), tf::softplus(e));
  tf::session sess(tf::softplus(n), tf::softplus(e));
  const auto [numbers_out, edges_out] =
      sess.run(ops, tf::feed(n, tensor<T, 2, 5>(numbers)), tf::feed(e, tensor<T, 10>(edges)));
  check_close(numbers_out, {2, 5}, map(numbers, np_softplus));
  check_close(edges_out, {10}, map(edges, np_softplus));
  for (double v : elements(numbers_out)) CHECK(v > 0);
  for (double v : elements(edges_out)) CHECK(v > 0);
}
}  // namespace

TEST_CASE("softplus_op_test.py testNumbers: against np.logaddexp(0, x), around the thresholds (float, double)") {
  softplus_numbers<float>();
  softplus_numbers<double>();
}

TEST_CASE("softsign_op_test.py testNumbers: against x / (1 + |x|) (float, double)") {
  auto nf = tf::placeholder<"nf", float, shape<2, 5>>();
  auto nd = tf::placeholder<"nd", double, shape<2, 5>>();
  auto ops = tf::fetch(tf::softsign(nf), tf::softsign(nd));
  tf::session sess(tf::softsign(nf), tf::softsign(nd));
  const auto [f, d] = sess.run(ops, tf::feed(nf, tensor<float, 2, 5>(numbers)), tf::feed(nd, tensor<double, 2, 5>(numbers)));
  check_close(f, {2, 5}, map(numbers, np_softsign));
  check_close(d, {2, 5}, map(numbers, np_softsign));
}

TEST_CASE("op types and names: TensorFlow's op names, result dtypes, broadcast shapes") {
  auto x = tf::placeholder<"x", float, shape<2, 3>>();
  auto v = tf::placeholder<"v", float, shape<3>>();
  auto b = tf::placeholder<"b", bool, shape<2, 3>>();
  CHECK(tf::op_name_of<decltype(tf::rsqrt(x))>() == "Rsqrt");
  CHECK(tf::op_name_of<decltype(tf::reciprocal(x))>() == "Reciprocal");
  CHECK(tf::op_name_of<decltype(tf::log1p(x))>() == "Log1p");
  CHECK(tf::op_name_of<decltype(tf::expm1(x))>() == "Expm1");
  CHECK(tf::op_name_of<decltype(tf::sin(x))>() == "Sin");
  CHECK(tf::op_name_of<decltype(tf::cos(x))>() == "Cos");
  CHECK(tf::op_name_of<decltype(tf::erf(x))>() == "Erf");
  CHECK(tf::op_name_of<decltype(tf::floor(x))>() == "Floor");
  CHECK(tf::op_name_of<decltype(tf::ceil(x))>() == "Ceil");
  CHECK(tf::op_name_of<decltype(tf::round(x))>() == "Round");
  CHECK(tf::op_name_of<decltype(tf::pow(x, v))>() == "Pow");
  CHECK(tf::op_name_of<decltype(tf::squared_difference(x, v))>() == "SquaredDifference");
  CHECK(tf::op_name_of<decltype(tf::relu6(x))>() == "Relu6");
  CHECK(tf::op_name_of<decltype(tf::leaky_relu(x))>() == "LeakyRelu");
  CHECK(tf::op_name_of<decltype(tf::elu(x))>() == "Elu");
  CHECK(tf::op_name_of<decltype(tf::selu(x))>() == "Selu");
  CHECK(tf::op_name_of<decltype(tf::softplus(x))>() == "Softplus");
  CHECK(tf::op_name_of<decltype(tf::softsign(x))>() == "Softsign");
  CHECK(tf::op_name_of<decltype(tf::logical_and(b, b))>() == "LogicalAnd");
  CHECK(tf::op_name_of<decltype(tf::logical_or(b, b))>() == "LogicalOr");
  CHECK(tf::op_name_of<decltype(tf::logical_not(b))>() == "LogicalNot");
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::pow(x, v))>, shape<2, 3>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::pow(v, tf::constant<2>()))>, shape<3>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(tf::pow(v, tf::constant<2>()))>, float>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(tf::logical_not(b))>, bool>);
}
