// Variable initializers (ops/init.hpp), ported from TensorFlow 1.x's
// tensorflow/python/kernel_tests/init_ops_test.py: ConstantInitializersTest,
// RandomNormalInitializationTest, TruncatedNormalInitializationTest,
// RandomUniformInitializationTest, and the statistics TensorFlow's tests check. Each case names
// the TensorFlow test it ports. typeflow draws from std::mt19937_64, not TensorFlow's Philox,
// so no test compares values with TensorFlow's: the determinism tests (identicaltest: the same
// seed gives the same values, another seed others; duplicated_initializer: two unseeded
// variables of one graph differ) and the statistical ones are ported.
//
// Not ported:
// - testConstantTupleInitializer, testNDimConstantInitializer{,LessValues,MoreValues}: a list
//   of values; tf::init::constant takes one value (variables.md, "Differences from
//   TensorFlow": a tensor is assigned from a named constant instead).
// - testInvalidValueTypeForConstantInitializerCausesTypeError: the value is a double, and a
//   node is not one (it does not compile).
// - UniformUnitScaling, VarianceScaling, Orthogonal, ConvolutionDeltaOrthogonal,
//   ConvolutionOrthogonal{1,2,3}d, Identity initializers, RangeTest, LinSpaceTest: typeflow
//   has none of these. VarianceScaling's statistics (mean 0, variance 1 / fan_in) are not
//   glorot_uniform's; glorot_uniform's limit and variance are checked instead.
// - testInvalidDataType's string dtype: typeflow has none; its float-only check is ported
//   for integer variables.
// - DeviceTest: devices.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <type_traits>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
using tf::shape;

namespace {
template <class T, std::size_t... D>
using fixed = xt::xtensor_fixed<T, xt::xshape<D...>>;

template <class V>
double mean_of(const V& v) {
  double s = 0;
  for (auto e : v) s += static_cast<double>(e);
  return s / static_cast<double>(v.size());
}
template <class V>
double variance_of(const V& v) {  // np.var: the population variance
  const double m = mean_of(v);
  double s = 0;
  for (auto e : v) s += (static_cast<double>(e) - m) * (static_cast<double>(e) - m);
  return s / static_cast<double>(v.size());
}

// identicaltest(init1, init2) with shape [100]: each initializer in a graph (session) of its own.
template <class T>
bool identical(const tf::init::initializer& init1, const tf::init::initializer& init2) {
  auto t1 = tf::variable<"t", T, shape<100>>(init1);
  auto t2 = tf::variable<"t", T, shape<100>>(init2);
  tf::session s1(t1), s2(t2);
  s1.initialize_all();
  s2.initialize_all();
  return s1.run(t1) == s2.run(t2);
}

// duplicated_initializer(init, graph_seed=1): two variables of one graph from one initializer.
template <class T>
bool duplicated(const tf::init::initializer& init) {
  auto t1 = tf::variable<"t1", T, shape<100>>(init);
  auto t2 = tf::variable<"t2", T, shape<100>>(init);
  tf::session sess(t1, t2);
  sess.set_random_seed(1);
  sess.initialize_all();
  return sess.run(t1) == sess.run(t2);
}

template <class T>
void check_identical_and_different(tf::init::initializer (*make)(std::uint64_t)) {
  INFO(std::string(tf::dtype_name_of<T>));
  CHECK(identical<T>(make(1), make(1)));      // testInitializerIdentical
  CHECK_FALSE(identical<T>(make(1), make(2)));  // testInitializerDifferent
}
}  // namespace

TEST_CASE("ConstantInitializersTest: zeros, ones, constant(0), constant(1), int32 constant(7)") {
  using S = shape<2, 3>;
  auto zeros = tf::variable<"zeros", float, S>(tf::init::zeros());
  auto ones = tf::variable<"ones", float, S>(tf::init::ones());
  auto c0 = tf::variable<"constant0", float, S>(tf::init::constant(0.0));
  auto c1 = tf::variable<"constant1", float, S>(tf::init::constant(1.0));
  auto c7 = tf::variable<"constant7", std::int32_t, S>(tf::init::constant(7));
  tf::session sess(zeros, ones, c0, c1, c7);
  sess.initialize_all();
  const fixed<float, 2, 3> np_zeros = xt::zeros<float>({2, 3});
  const fixed<float, 2, 3> np_ones = xt::ones<float>({2, 3});
  CHECK(sess.run(zeros) == np_zeros);
  CHECK(sess.run(ones) == np_ones);
  CHECK(sess.run(c0) == np_zeros);
  CHECK(sess.run(c1) == np_ones);
  static_assert(std::is_same_v<tf::value_type_of<decltype(c7)>, std::int32_t>);
  CHECK(sess.run(c7) == fixed<std::int32_t, 2, 3>{{7, 7, 7}, {7, 7, 7}});
}

TEST_CASE("RandomNormalInitializationTest.testInitializerIdentical / Different (float32, float64)") {
  const auto make = [](std::uint64_t seed) { return tf::init::random_normal(0.0, 1.0, seed); };
  check_identical_and_different<float>(make);
  check_identical_and_different<double>(make);
}

TEST_CASE("TruncatedNormalInitializationTest.testInitializerIdentical / Different (float32, float64)") {
  const auto make = [](std::uint64_t seed) { return tf::init::truncated_normal(0.0, 1.0, seed); };
  check_identical_and_different<float>(make);
  check_identical_and_different<double>(make);
}

TEST_CASE("RandomUniformInitializationTest.testInitializerIdentical / Different (float32, float64, int32, int64)") {
  const auto make = [](std::uint64_t seed) { return tf::init::random_uniform(0, 7, seed); };
  check_identical_and_different<float>(make);
  check_identical_and_different<double>(make);
  check_identical_and_different<std::int32_t>(make);
  check_identical_and_different<std::int64_t>(make);
}

TEST_CASE("*InitializationTest.testDuplicatedInitializer: two unseeded variables of one graph differ") {
  CHECK_FALSE(duplicated<float>(tf::init::random_normal(0.0, 1.0)));
  CHECK_FALSE(duplicated<float>(tf::init::truncated_normal(0.0, 1.0)));
  CHECK_FALSE(duplicated<float>(tf::init::random_uniform(0.0, 1.0)));
  CHECK_FALSE(duplicated<float>(tf::init::glorot_uniform()));
}

TEST_CASE("random_uniform on integers: uniform on minval, ..., maxval - 1, negative bounds too") {
  // TensorFlow's integer random_uniform draws minval + (bits % (maxval - minval)).
  auto u = tf::variable<"int_uniform", std::int32_t, shape<2000>>(tf::init::random_uniform(-3, 3, 5));
  auto l = tf::variable<"int64_uniform", std::int64_t, shape<2000>>(tf::init::random_uniform(0, 7, 5));
  tf::session sess(u, l);
  sess.initialize_all();
  const auto vu = sess.run(u);
  const std::set<std::int32_t> seen_u(vu.begin(), vu.end());
  CHECK(seen_u == std::set<std::int32_t>{-3, -2, -1, 0, 1, 2});
  // each of the 6 values about 2000 / 6 = 333 times (a truncation toward zero gave 0 twice as
  // often and never -3)
  for (std::int32_t k = -3; k < 3; ++k) {
    INFO("value " << k);
    const auto n = std::count(vu.begin(), vu.end(), k);
    CHECK(n > 250);
    CHECK(n < 420);
  }
  const auto vl = sess.run(l);
  CHECK(*std::min_element(vl.begin(), vl.end()) == 0);
  CHECK(*std::max_element(vl.begin(), vl.end()) == 6);
}

TEST_CASE("truncated_normal: within two standard deviations; random_normal: mean and variance") {
  // TensorFlow's truncated_normal redraws values more than 2 stddev from the mean.
  auto t = tf::variable<"truncated", double, shape<100, 100>>(tf::init::truncated_normal(0.0, 1.0, 3));
  auto n = tf::variable<"normal", double, shape<100, 100>>(tf::init::random_normal(0.0, 1.0 / std::sqrt(100.0), 3));
  tf::session sess(t, n);
  sess.initialize_all();
  const auto vt = sess.run(t);
  CHECK(xt::amax(xt::abs(vt))() <= 2.0);
  CHECK(xt::amax(xt::abs(vt))() > 1.95);
  // VarianceScalingInitializationTest's tolerances (assertNear err=1e-2), for a normal of
  // variance 1 / shape[0]
  const auto vn = sess.run(n);
  CHECK(std::abs(mean_of(vn)) < 1e-2);
  CHECK(std::abs(variance_of(vn) - 1.0 / 100) < 1e-2);
}

TEST_CASE("glorot_uniform: the limit sqrt(6 / (fan_in + fan_out)), variance limit^2 / 3, [0, 2] empty") {
  auto g = tf::variable<"glorot", float, shape<100, 100>>(tf::init::glorot_uniform(9));
  // UniformUnitScalingInitializationTest.testZeroSize: shape [0, 2] initializes to [0, 2]
  auto empty = tf::variable<"glorot_empty", float, shape<0, 2>>(tf::init::glorot_uniform());
  tf::session sess(g, empty);
  sess.run(tf::global_variables_initializer());
  const auto v = sess.run(g);
  const double limit = std::sqrt(6.0 / (100 + 100));
  CHECK(xt::amax(xt::abs(v))() <= limit);
  CHECK(xt::amax(v)() > 0.99 * limit);
  CHECK(xt::amin(v)() < -0.99 * limit);
  CHECK(std::abs(mean_of(v)) < 1e-2);
  CHECK(std::abs(variance_of(v) - limit * limit / 3) < 1e-3);
  CHECK(sess.run(empty).size() == 0);
  CHECK(sess.run(tf::report_uninitialized_variables()).empty());
}

TEST_CASE("*InitializationTest.testInvalidDataType: a float-only initializer for an integer variable") {
  // TensorFlow raises ValueError when the initializer (or get_variable) meets an integer dtype;
  // typeflow when the variable is made (an initializer in the type: a compile error).
  CHECK_THROWS_WITH_AS((tf::variable<"int_normal", std::int32_t, shape<3>>(tf::init::random_normal())),
                       "InvalidArgument: Expected floating point type, got int32: random_normal_initializer cannot "
                       "initialize variable int_normal",
                       tf::invalid_argument_error);
  CHECK_THROWS_AS((tf::variable<"int_truncated", std::int64_t>(tf::init::truncated_normal())),
                  tf::invalid_argument_error);
  CHECK_THROWS_AS((tf::variable<"int_glorot", std::int32_t, shape<2, 2>>(tf::init::glorot_uniform())),
                  tf::invalid_argument_error);
  CHECK_THROWS_WITH_AS((tf::variable<"bool_uniform", bool>(tf::init::random_uniform())),
                       "InvalidArgument: Invalid dtype bool: random_uniform_initializer cannot initialize variable "
                       "bool_uniform",
                       tf::invalid_argument_error);
  CHECK_NOTHROW((tf::variable<"int_uniform_ok", std::int32_t>(tf::init::random_uniform(0, 7))));
  static_assert(!tf::init::valid_for<std::int32_t>(tf::init::random_normal()));
  static_assert(tf::init::valid_for<double>(tf::init::glorot_uniform()));
}
