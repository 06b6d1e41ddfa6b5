// Values of add_n, reduce_logsumexp, reduce_prod, reduce_all, reduce_any, count_nonzero and
// l2_normalize (ops/math_reductions.hpp), ported from TensorFlow 1.x's tests: math_ops_test.py
// (AddNTest, LogSumExpTest), reduction_ops_test.py (ProdReductionTest, AllReductionTest,
// AnyReductionTest, CountNonzeroReductionTest) and nn_test.py (L2NormalizeTest). Each case
// names the TensorFlow test it ports. The expected values are numpy's, computed here in double
// by the same formula the test gives numpy; the tolerance is the test's assertAllClose
// (|got - want| <= 1e-6 + 1e-6 |want|; float16 cases are left out, as typeflow has no half).
// Where the test draws np.random values, a fixed-seed std::mt19937 draws them here.
// TensorFlow's reduction over axis=[] (no axis) has no typeflow spelling and is left out.
// Their gradients: tests/autodiff/tf_math_reductions_gradient_port_test.cpp.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "ops_testing.hpp"

namespace tf = typeflow;
using ops_testing::shape_vector;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

template <class T, std::size_t... D>
using fixed = xt::xtensor_fixed<T, xt::xshape<D...>>;

std::mt19937& rng() {
  static std::mt19937 g(1);
  return g;
}

/// np.random.random_sample(shape) - offset, as T.
template <class T, std::size_t... D>
fixed<T, D...> random_sample(double offset = 0.0) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  fixed<T, D...> v{};
  for (auto& x : v) x = static_cast<T>(u(rng()) - offset);
  return v;
}

/// np.arange(prod(shape)).reshape(shape) / div, as T (the tests' _makeIncremental).
template <class T, std::size_t... D>
fixed<T, D...> incremental(double from = 0.0, double div = 1.0) {
  fixed<T, D...> v{};
  for (std::size_t i = 0; i < v.size(); ++i) v.flat(i) = static_cast<T>((from + double(i)) / div);
  return v;
}

template <class V>
std::vector<double> elements(const V& v) {
  if constexpr (std::is_arithmetic_v<V>) {
    return {static_cast<double>(v)};
  } else {
    std::vector<double> out;
    for (std::size_t i = 0; i < v.size(); ++i) out.push_back(static_cast<double>(v.flat(i)));
    return out;
  }
}

/// numpy's reduction of `x` (row-major, of shape `dims`) over the axes `reduced`, joining the
/// elements of each slice with `join` from `start`, in row-major order.
template <class Join>
std::vector<double> np_reduce(const std::vector<double>& x, const std::vector<std::size_t>& dims,
                              const std::vector<bool>& reduced, double start, Join join) {
  const std::size_t r = dims.size();
  std::vector<std::size_t> stride(r);
  std::size_t s = 1, n_out = 1;
  for (std::size_t i = r; i-- > 0;) {
    stride[i] = reduced[i] ? 0 : s;
    if (!reduced[i]) {
      s *= dims[i];
      n_out *= dims[i];
    }
  }
  std::vector<double> out(n_out, start);
  std::vector<std::size_t> idx(r, 0);
  for (double v : x) {
    std::size_t k = 0;
    for (std::size_t d = 0; d < r; ++d) k += idx[d] * stride[d];
    out[k] = join(out[k], v);
    for (std::size_t d = r; d-- > 0;) {
      if (++idx[d] < dims[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

/// The shape numpy gives the reduction (keepdims or not).
std::vector<std::size_t> np_reduced_shape(const std::vector<std::size_t>& dims, const std::vector<bool>& reduced,
                                          bool keep) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < dims.size(); ++i)
    if (!reduced[i]) out.push_back(dims[i]);
    else if (keep) out.push_back(1);
  return out;
}

template <class V>
std::vector<std::size_t> shape_of_value(const V& v) {
  if constexpr (std::is_arithmetic_v<V>) return {};
  else return shape_vector(v);
}

/// assertAllClose (rtol = atol = 1e-6; inf equal to inf of its sign, NaN to NaN) or, with
/// exact, assertAllEqual; and assertShapeEqual.
template <class V>
void check_close(const V& got, const std::vector<std::size_t>& shape, const std::vector<double>& want,
                 bool exact = false, double tol = 1e-6) {
  REQUIRE(shape_of_value(got) == shape);
  const auto g = elements(got);
  REQUIRE(g.size() == want.size());
  for (std::size_t i = 0; i < g.size(); ++i) {
    INFO("element " << i << ": got " << g[i] << ", want " << want[i]);
    if (exact || std::isinf(want[i])) CHECK(g[i] == want[i]);
    else if (std::isnan(want[i])) CHECK(std::isnan(g[i]));
    else CHECK(std::abs(g[i] - want[i]) <= tol + tol * std::abs(want[i]));
  }
}

template <std::size_t R, std::ptrdiff_t... Axes>
std::vector<bool> mask() {
  std::vector<bool> m(R, sizeof...(Axes) == 0);
  for (std::ptrdiff_t a : std::initializer_list<std::ptrdiff_t>{Axes...})
    m[std::size_t(a < 0 ? a + std::ptrdiff_t(R) : a)] = true;
  return m;
}

}  // namespace

// --- AddNTest ---------------------------------------------------------------------------

TEST_CASE("AddNTest.testPartials: add_n of 98 one-input add_n's and a two-input one, plus 0, is 100") {
  const auto one = tf::add_n(tf::constant<1>());  // one input: the input itself
  static_assert(std::is_same_v<decltype(one), const tf::literal_node<1, std::int32_t>>);
  const auto two = tf::add_n(tf::constant<1>(), tf::constant<1>());
  const auto res = [&]<std::size_t... I>(std::index_sequence<I...>) {
    return tf::add_n(((void)I, one)..., two) + tf::constant<0>();
  }(std::make_index_sequence<98>{});
  tf::session sess(res);
  CHECK(sess.run(res) == 100);
}

namespace {
constexpr std::array<tf::fixed_string<2>, 9> input_names{{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}, {"f"}, {"g"}, {"h"}, {"i"}}};

// add_n of N inputs of T and shape S, fed xs: sum(x), and add_n([x[0]] * N) == x[0] * N.
template <class T, class S, class V, std::size_t... I>
void check_add_n(const std::array<V, sizeof...(I)>& xs, std::index_sequence<I...>) {
  constexpr std::size_t n = sizeof...(I);
  const auto sum = tf::add_n(tf::placeholder<input_names[I], T, S>()...);
  const auto x0 = tf::placeholder<input_names[0], T, S>();
  const auto repeated = tf::add_n(((void)I, x0)...);
  tf::session sess(sum, repeated);
  const auto got = sess.run(sum, tf::feed(tf::placeholder<input_names[I], T, S>(), xs[I])...);
  const auto got_repeated = sess.run(repeated, tf::feed(x0, xs[0]));
  std::vector<double> want(xs[0].size(), 0.0), want_repeated;
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t j = 0; j < want.size(); ++j) want[j] += static_cast<double>(xs[k].flat(j));
  for (std::size_t j = 0; j < want.size(); ++j) want_repeated.push_back(static_cast<double>(xs[0].flat(j)) * double(n));
  const bool exact = std::is_integral_v<T>;
  check_close(got, shape_vector(xs[0]), want, exact);
  check_close(got_repeated, shape_vector(xs[0]), want_repeated, exact);
}

template <std::size_t N>
void add_n_float_case() {
  INFO("num_inputs " << N);
  std::array<fixed<double, 1, 2, 3, 4, 5>, N> xs;
  for (auto& x : xs) x = random_sample<double, 1, 2, 3, 4, 5>(0.5);
  check_add_n<double, tf::shape<1, 2, 3, 4, 5>>(xs, std::make_index_sequence<N>{});
}
template <std::size_t N>
void add_n_int_case() {
  INFO("num_inputs " << N);
  std::uniform_int_distribution<std::int32_t> u(-128, 127);
  std::array<fixed<std::int32_t, 5, 4, 3, 2, 1>, N> xs;
  for (auto& x : xs)
    for (auto& e : x) e = u(rng());
  check_add_n<std::int32_t, tf::shape<5, 4, 3, 2, 1>>(xs, std::make_index_sequence<N>{});
}
}  // namespace

TEST_CASE("AddNTest.testFloat: 1 to 9 inputs of [1, 2, 3, 4, 5] in [-0.5, 0.5)") {
  [&]<std::size_t... N>(std::index_sequence<N...>) { (add_n_float_case<N + 1>(), ...); }(std::make_index_sequence<9>{});
}

TEST_CASE("AddNTest.testInt: 1, 2, 5 and 9 int32 inputs of [5, 4, 3, 2, 1] in [-128, 128)") {
  add_n_int_case<1>();
  add_n_int_case<2>();
  add_n_int_case<5>();
  add_n_int_case<9>();
}

TEST_CASE("add_n: shape and element type rules") {
  auto a = tf::placeholder<"a", float, tf::shape<tf::dyn, 3>>();
  auto b = tf::placeholder<"b", float, tf::shape<2, 3>>();
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::add_n(a, b))>, tf::shape<2, 3>>);
  static_assert(tf::op_name_of<decltype(tf::add_n(a, b))>() == "AddN");
  static_assert(std::is_same_v<tf::value_type_of<decltype(tf::add_n(a, b, a))>, float>);
}

// --- LogSumExpTest ----------------------------------------------------------------------

namespace {
template <class T>
void logsumexp_values() {
  const auto x0 = random_sample<T, 5, 5>();
  const std::vector<double> xv = elements(x0);
  const std::vector<std::size_t> dims{5, 5};
  auto x = tf::placeholder<"x", T, tf::shape<5, 5>>();
  const auto all = tf::reduce_logsumexp(x);
  const auto axis0 = tf::reduce_logsumexp<0>(x);
  const auto kept = tf::reduce_logsumexp(x, tf::keep_dims);
  tf::session sess(all, axis0, kept);
  const auto sum_exp = [](double a, double v) { return a + std::exp(v); };
  auto log_of = [](std::vector<double> v) {
    for (auto& e : v) e = std::log(e);
    return v;
  };
  {
    INFO("testReduceLogSumExp: y_np = log(np.sum(exp(x_np)))");
    check_close(sess.run(all, tf::feed(x, x0)), {}, log_of(np_reduce(xv, dims, {true, true}, 0.0, sum_exp)));
  }
  {
    INFO("testReductionIndices: reduction_indices=[0], y_np = log(np.sum(exp(x_np), axis=0))");
    check_close(sess.run(axis0, tf::feed(x, x0)), {5}, log_of(np_reduce(xv, dims, {true, false}, 0.0, sum_exp)));
  }
  {
    INFO("testKeepDims: keepdims=True, ndim 2");
    check_close(sess.run(kept, tf::feed(x, x0)), {1, 1}, log_of(np_reduce(xv, dims, {true, true}, 0.0, sum_exp)));
  }
}

// testOverflow / testUnderflow: y_np = log(np.sum(exp(x_np - max_np))) + max_np.
template <class T>
void logsumexp_shifted(const std::array<double, 4>& v) {
  fixed<T, 4> x0{};
  for (std::size_t i = 0; i < 4; ++i) x0[i] = static_cast<T>(v[i]);
  double m = -inf, s = 0;
  for (double e : v) m = std::max(m, e);
  for (double e : v) s += std::exp(e - m);
  auto x = tf::placeholder<"x", T, tf::shape<4>>();
  const auto y = tf::reduce_logsumexp(x);
  tf::session sess(y);
  const double got = sess.run(y, tf::feed(x, x0));
  CHECK(std::isfinite(got));
  CHECK(std::abs(got - (std::log(s) + m)) <= 1e-6 + 1e-6 * std::abs(std::log(s) + m));
}
}  // namespace

TEST_CASE("LogSumExpTest.testReduceLogSumExp, testReductionIndices, testKeepDims: 5x5 in [0, 1), float and double") {
  SUBCASE("float") { logsumexp_values<float>(); }
  SUBCASE("double") { logsumexp_values<double>(); }
}

TEST_CASE("LogSumExpTest.testOverflow: [1000, 1001, 1002, 1003], where log(sum(exp(x))) is inf") {
  logsumexp_shifted<float>({1000, 1001, 1002, 1003});
  logsumexp_shifted<double>({1000, 1001, 1002, 1003});
}

TEST_CASE("LogSumExpTest.testUnderflow: [-1000, -1001, -1002, -1003], where log(sum(exp(x))) is -inf") {
  logsumexp_shifted<float>({-1000, -1001, -1002, -1003});
  logsumexp_shifted<double>({-1000, -1001, -1002, -1003});
}

TEST_CASE("LogSumExpTest.testInfinity: reduce_logsumexp(-inf) is -inf (the infinite max is not subtracted)") {
  auto x = tf::placeholder<"x", double, tf::shape<>>();
  auto v = tf::placeholder<"v", double, tf::shape<2>>();
  const auto y = tf::reduce_logsumexp(x);
  const auto yv = tf::reduce_logsumexp(v);
  tf::session sess(y, yv);
  CHECK(sess.run(y, tf::feed(x, -inf)) == -inf);
  // And the other infinite cases of TensorFlow's where(is_finite(max), max, 0):
  CHECK(sess.run(yv, tf::feed(v, fixed<double, 2>{-inf, -inf})) == -inf);
  CHECK(sess.run(yv, tf::feed(v, fixed<double, 2>{inf, 1.0})) == inf);
  CHECK(sess.run(yv, tf::feed(v, fixed<double, 2>{-inf, 1.0})) == doctest::Approx(1.0));
}

// --- ProdReductionTest ------------------------------------------------------------------

namespace {
// _compareAll(x, axes): reduce_prod with and without keepdims against np.prod.
template <std::ptrdiff_t... Axes, class X, class V>
void prod_compare(X x, const V& x0) {
  constexpr std::size_t r = tf::shape_of<X>::rank;
  INFO("axes (" << sizeof...(Axes) << " given)");
  const auto y = tf::reduce_prod<Axes...>(x);
  const auto yk = tf::reduce_prod<Axes...>(x, tf::keep_dims);
  tf::session sess(y, yk);
  const std::vector<std::size_t> dims(x0.shape().begin(), x0.shape().end());
  const auto m = mask<r, Axes...>();
  const auto want = np_reduce(elements(x0), dims, m, 1.0, [](double a, double v) { return a * v; });
  const bool exact = std::is_integral_v<tf::value_type_of<X>>;
  check_close(sess.run(y, tf::feed(x, x0)), np_reduced_shape(dims, m, false), want, exact);
  check_close(sess.run(yk, tf::feed(x, x0)), np_reduced_shape(dims, m, true), want, exact);
}

// _compareAllAxes on a rank-3 input: None and every non-empty subset of the axes.
template <class T>
void prod_all_axes() {
  auto x = tf::placeholder<"x", T, tf::shape<2, 2, 2>>();
  const auto x0 = incremental<T, 2, 2, 2>();
  prod_compare<>(x, x0);
  prod_compare<0>(x, x0);
  prod_compare<1>(x, x0);
  prod_compare<2>(x, x0);
  prod_compare<0, 1>(x, x0);
  prod_compare<0, 2>(x, x0);
  prod_compare<1, 2>(x, x0);
  prod_compare<0, 1, 2>(x, x0);
}
}  // namespace

TEST_CASE("ProdReductionTest.testFloat32, testFloat64: (2, 2, 2) incremental over every axis set (rank 3 of 1..5)") {
  SUBCASE("float") { prod_all_axes<float>(); }
  SUBCASE("double") { prod_all_axes<double>(); }
}

TEST_CASE("ProdReductionTest.testInt32: int32 (2, 2, 2) incremental over every axis set") { prod_all_axes<std::int32_t>(); }

TEST_CASE("ProdReductionTest.testFloat32: ranks 1, 2 and 5 over all axes and the first axis") {
  auto x1 = tf::placeholder<"x1", float, tf::shape<2>>();
  prod_compare<>(x1, incremental<float, 2>());
  prod_compare<0>(x1, incremental<float, 2>());
  auto x2 = tf::placeholder<"x2", float, tf::shape<2, 2>>();
  prod_compare<>(x2, incremental<float, 2, 2>());
  prod_compare<-1>(x2, incremental<float, 2, 2>());
  auto x5 = tf::placeholder<"x5", double, tf::shape<2, 2, 2, 2, 2>>();
  prod_compare<>(x5, incremental<double, 2, 2, 2, 2, 2>(1.0));
  prod_compare<1, 3>(x5, incremental<double, 2, 2, 2, 2, 2>(1.0));
}

TEST_CASE("ProdReductionTest.testInfinity: [+-inf, +-inf], float and double") {
  auto xf = tf::placeholder<"xf", float, tf::shape<2>>();
  auto xd = tf::placeholder<"xd", double, tf::shape<2>>();
  for (double a : {-inf, inf})
    for (double b : {-inf, inf}) {
      prod_compare<>(xf, fixed<float, 2>{float(a), float(b)});
      prod_compare<>(xd, fixed<double, 2>{a, b});
    }
}

TEST_CASE("ProdReductionTest.testEmptyGradients / testDegenerate: a reduce_prod over an empty axis is 1") {
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 3>>();
  const auto y0 = tf::reduce_prod<0>(x);
  const auto y1 = tf::reduce_prod<1>(x);
  tf::session sess(y0, y1);
  const auto empty = xt::xtensor<float, 2>::from_shape({0, 3});
  check_close(sess.run(y0, tf::feed(x, empty)), {3}, {1, 1, 1}, true);
  check_close(sess.run(y1, tf::feed(x, empty)), {0}, {}, true);
}

// --- AllReductionTest, AnyReductionTest -------------------------------------------------

namespace {
template <bool All, std::ptrdiff_t... Axes, class X, class V>
void logical_compare(X x, const V& x0) {
  INFO((All ? "reduce_all" : "reduce_any") << " over " << sizeof...(Axes) << " given axes");
  constexpr std::size_t r = tf::shape_of<X>::rank;
  const auto reduce = [](auto... a) {
    if constexpr (All) return tf::reduce_all<Axes...>(a...);
    else return tf::reduce_any<Axes...>(a...);
  };
  const auto y = reduce(x);
  const auto yk = reduce(x, tf::keep_dims);
  static_assert(std::is_same_v<tf::value_type_of<decltype(y)>, bool>);
  tf::session sess(y, yk);
  const std::vector<std::size_t> dims(x0.shape().begin(), x0.shape().end());
  const auto m = mask<r, Axes...>();
  const auto want = np_reduce(elements(x0), dims, m, All ? 1.0 : 0.0,
                              [](double a, double v) { return All ? double(a != 0 && v != 0) : double(a != 0 || v != 0); });
  check_close(sess.run(y, tf::feed(x, x0)), np_reduced_shape(dims, m, false), want, true);
  check_close(sess.run(yk, tf::feed(x, x0)), np_reduced_shape(dims, m, true), want, true);
}

// testAll3D: (np.random.uniform(0, 1, 30) > p).reshape([2, 3, 5]) over None, [0], [1], [2],
// [0, 1], [1, 2], [0, 2], [0, 1, 2].
template <bool All>
void logical_all_3d(double p) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  fixed<bool, 2, 3, 5> x0{};
  for (auto& b : x0) b = u(rng()) > p;
  auto x = tf::placeholder<"x", bool, tf::shape<2, 3, 5>>();
  logical_compare<All>(x, x0);
  logical_compare<All, 0>(x, x0);
  logical_compare<All, 1>(x, x0);
  logical_compare<All, 2>(x, x0);
  logical_compare<All, 0, 1>(x, x0);
  logical_compare<All, 1, 2>(x, x0);
  logical_compare<All, 0, 2>(x, x0);
  logical_compare<All, 0, 1, 2>(x, x0);
}
}  // namespace

TEST_CASE("AllReductionTest.testAll3D: elements true with probability 0.9") { logical_all_3d<true>(0.1); }
TEST_CASE("AnyReductionTest.testAll3D: elements true with probability 0.1") { logical_all_3d<false>(0.9); }

TEST_CASE("AllReductionTest.testEmpty, AnyReductionTest.testEmpty: [] over axis 0 is true, false") {
  auto x = tf::placeholder<"x", bool, tf::shape<tf::dyn>>();
  const auto all = tf::reduce_all<0>(x);
  const auto any = tf::reduce_any<0>(x, tf::keep_dims);
  tf::session sess(all, any);
  const auto empty = xt::xtensor<bool, 1>::from_shape({0});
  CHECK(sess.run(all, tf::feed(x, empty)) == true);
  check_close(sess.run(any, tf::feed(x, empty)), {1}, {0}, true);
}

// --- CountNonzeroReductionTest ----------------------------------------------------------

namespace {
template <std::ptrdiff_t... Axes, class X, class V>
void count_compare(X x, const V& x0) {
  INFO("count_nonzero over " << sizeof...(Axes) << " given axes");
  constexpr std::size_t r = tf::shape_of<X>::rank;
  const auto y = tf::count_nonzero<Axes...>(x);
  const auto yk = tf::count_nonzero<Axes...>(x, tf::keep_dims);
  static_assert(std::is_same_v<tf::value_type_of<decltype(y)>, std::int64_t>);
  tf::session sess(y, yk);
  const std::vector<std::size_t> dims(x0.shape().begin(), x0.shape().end());
  const auto m = mask<r, Axes...>();
  const auto want = np_reduce(elements(x0), dims, m, 0.0, [](double a, double v) { return a + double(v != 0); });
  check_close(sess.run(y, tf::feed(x, x0)), np_reduced_shape(dims, m, false), want, true);
  check_close(sess.run(yk, tf::feed(x, x0)), np_reduced_shape(dims, m, true), want, true);
}
}  // namespace

TEST_CASE("CountNonzeroReductionTest.testBoolReduce1D, testFloatReduce1D") {
  auto b = tf::placeholder<"b", bool, tf::shape<6>>();
  count_compare<>(b, fixed<bool, 6>{false, false, true, false, false, true});
  count_compare<0>(b, fixed<bool, 6>{false, false, true, false, false, true});
  auto f = tf::placeholder<"f", float, tf::shape<6>>();
  count_compare<0>(f, fixed<float, 6>{0.0f, 1.0f, -1.0f, 0.0f, 0.0f, 3.0f});
}

TEST_CASE("CountNonzeroReductionTest.testFloatReduce4D: floor(arange(210) / 100) as [2, 3, 5, 7]") {
  fixed<float, 2, 3, 5, 7> x0{};
  for (std::size_t i = 0; i < x0.size(); ++i) x0.flat(i) = std::floor(float(i) / 100.0f);
  auto x = tf::placeholder<"x", float, tf::shape<2, 3, 5, 7>>();
  count_compare<>(x, x0);
  count_compare<0>(x, x0);
  count_compare<1>(x, x0);
  count_compare<2>(x, x0);
  count_compare<0, 1>(x, x0);
  count_compare<1, 2>(x, x0);
  count_compare<0, 1, 2>(x, x0);
  count_compare<1, 2, 3>(x, x0);
  count_compare<0, 1, 2, 3>(x, x0);
}

TEST_CASE("CountNonzeroReductionTest.testExpand, testDegenerate: empty inputs") {
  auto x = tf::placeholder<"x", double, tf::shape<5, tf::dyn>>();
  const auto y = tf::count_nonzero<1>(x);
  auto b = tf::placeholder<"b", bool, tf::shape<tf::dyn, 9938>>();
  const auto yb = tf::count_nonzero<0>(b);
  tf::session sess(y, yb);
  check_close(sess.run(y, tf::feed(x, xt::xtensor<double, 2>::from_shape({5, 0}))), {5}, {0, 0, 0, 0, 0}, true);
  const auto degenerate = sess.run(yb, tf::feed(b, xt::xtensor<bool, 2>::from_shape({0, 9938})));
  REQUIRE(degenerate.size() == 9938);
  for (auto c : degenerate) CHECK(c == 0);
}

// --- L2NormalizeTest --------------------------------------------------------------------

namespace {
// _l2Normalize(x, dim): x / np.expand_dims(np.apply_along_axis(np.linalg.norm, dim, x), dim).
template <std::ptrdiff_t... Axes, class X, class V>
void l2_compare(X x, const V& x0) {
  INFO("l2_normalize over " << sizeof...(Axes) << " given axes");
  const auto y = tf::l2_normalize<Axes...>(x);
  tf::session sess(y);
  const std::vector<std::size_t> dims(x0.shape().begin(), x0.shape().end());
  const auto m = mask<tf::shape_of<X>::rank, Axes...>();
  const auto xv = elements(x0);
  const auto sq = np_reduce(xv, dims, m, 0.0, [](double a, double v) { return a + v * v; });
  // Each element divided by its slice's norm: the slice index, as np_reduce computes it.
  std::vector<double> want;
  std::vector<std::size_t> stride(dims.size());
  for (std::size_t i = dims.size(), s = 1; i-- > 0;) {
    stride[i] = m[i] ? 0 : s;
    if (!m[i]) s *= dims[i];
  }
  for (std::size_t i = 0; i < xv.size(); ++i) {
    std::size_t rest = i, k = 0;
    for (std::size_t d = dims.size(); d-- > 0;) {
      k += (rest % dims[d]) * stride[d];
      rest /= dims[d];
    }
    want.push_back(xv[i] / std::sqrt(sq[k]));
  }
  check_close(sess.run(y, tf::feed(x, x0)), dims, want);
}
}  // namespace

TEST_CASE("L2NormalizeTest.testL2Normalize, testL2NormalizeDimArray: [20, 7, 3] in [0, 1), dim 0, 1, 2 and [1, 2]") {
  const auto x0 = random_sample<float, 20, 7, 3>();
  auto x = tf::placeholder<"x", float, tf::shape<20, 7, 3>>();
  l2_compare<0>(x, x0);
  l2_compare<1>(x, x0);
  l2_compare<2>(x, x0);
  l2_compare<1, 2>(x, x0);
}

TEST_CASE("l2_normalize: epsilon bounds the squared norm from below (TensorFlow's maximum(square_sum, epsilon))") {
  auto x = tf::placeholder<"x", double, tf::shape<2>>();
  const auto y = tf::l2_normalize(x, tf::constant<0.25>());
  const auto y0 = tf::l2_normalize<0>(x);
  tf::session sess(y, y0);
  // |x|^2 = 0.02 < 0.25: x * rsqrt(0.25) = 2 x.
  check_close(sess.run(y, tf::feed(x, fixed<double, 2>{0.1, 0.1})), {2}, {0.2, 0.2});
  // All zeros: 0 * rsqrt(1e-12) = 0, no NaN.
  check_close(sess.run(y0, tf::feed(x, fixed<double, 2>{0.0, 0.0})), {2}, {0.0, 0.0}, true);
}
