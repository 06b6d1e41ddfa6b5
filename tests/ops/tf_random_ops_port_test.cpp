// random_normal, truncated_normal and random_uniform (ops/random.hpp), ported from TensorFlow
// 1.x's random_ops_test.py: RandomNormalTest, TruncatedNormalTest, RandomUniformTest and
// RandomShapeTest. Each case names the TensorFlow test it ports.
//
// typeflow's stream is splitmix64, not TensorFlow's Philox, so TensorFlow's numbers cannot
// be matched: the ports check the properties (distinct draws, equal draws from equal seeds,
// ranges, moments, histograms). Not ported:
//   - testCPUGPUMatch (all three classes): typeflow has no GPU kernels.
//   - float16 cases: typeflow has no half type.
//   - testEagerSeed: no eager mode.
//   - RandomShapeTest's "unknown shape" (a dims placeholder of unknown rank): a typeflow
//     rank is static.
//   - testSeed's seeds 2**100 and -2**100: an op seed is a 64-bit integer here; the
//     negative seed -345 stands for them.
// Differences kept: the shape of the samplers is a dims placeholder fed [num] (one graph type
// for every num); the op seeds 1345 and 17 of TensorFlow's cases are 345 here (any fixed seed
// shows the property, and one seed keeps one graph type); testNoCSE's two ops are two seeds,
// no_seed and 345, as two calls with equal arguments are one node in typeflow (DESIGN rule 1);
// its shape [2, 3, 4] is fed as [24]. testUniformIntsWithInvalidShape is a compile error:
// compile_fail.random_uniform_vector_minval (tests/ops/CMakeLists.txt).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
using tf::dyn;

namespace {

using dims1 = xt::xtensor_fixed<std::int32_t, xt::xshape<1>>;
const auto num = tf::placeholder<"num", std::int32_t, tf::shape<1>>();

template <class T>
const auto lo = tf::placeholder<"lo", T>();  // mean or minval
template <class T>
const auto hi = tf::placeholder<"hi", T>();  // stddev or maxval

enum class kind { normal, truncated, uniform };

// The op of kind K, dtype T and op seed Seed over [num], parameters lo<T> and hi<T>.
template <kind K, class T, auto Seed>
auto op() {
  if constexpr (K == kind::normal) return tf::random_normal<T, Seed>(num, lo<T>, hi<T>);
  else if constexpr (K == kind::truncated) return tf::truncated_normal<T, Seed>(num, lo<T>, hi<T>);
  else return tf::random_uniform<T, Seed>(num, lo<T>, hi<T>);
}

// One run's values, as doubles.
template <class Sess, class N, class T>
std::vector<double> draw(Sess& sess, const N& node, std::int32_t n, T a, T b) {
  const auto v = sess.run(node, tf::feed(num, dims1{n}), tf::feed(lo<T>, a), tf::feed(hi<T>, b));
  REQUIRE(v.shape()[0] == std::size_t(n));
  return std::vector<double>(v.begin(), v.end());
}

// _Sampler: a new session (with graph seed `graph_seed` when given) runs the op 10 times.
template <kind K, class T, auto Seed = tf::no_seed>
std::vector<double> sampler(std::int32_t n, double a, double b, std::optional<std::uint64_t> graph_seed = {}) {
  const auto node = op<K, T, Seed>();
  tf::session sess(node);
  if (graph_seed) sess.set_random_seed(*graph_seed);
  std::vector<double> out;
  for (int i = 0; i < 10; ++i) {
    const auto v = draw(sess, node, n, static_cast<T>(a), static_cast<T>(b));
    out.insert(out.end(), v.begin(), v.end());
  }
  return out;
}

std::size_t count_equal(const std::vector<double>& x, const std::vector<double>& y) {
  REQUIRE(x.size() == y.size());
  std::size_t c = 0;
  for (std::size_t i = 0; i < x.size(); ++i) c += x[i] == y[i];
  return c;
}

double mean_of(const std::vector<double>& x) {
  double s = 0;
  for (double v : x) s += v;
  return s / double(x.size());
}
double std_of(const std::vector<double>& x) {
  const double m = mean_of(x);
  double s = 0;
  for (double v : x) s += (v - m) * (v - m);
  return std::sqrt(s / double(x.size()));
}

// testDistinct: two samplers without a seed (two sessions) rarely draw an equal value.
template <kind K, class T>
void check_distinct(double a, double b) {
  const auto x = sampler<K, T>(1000, a, b);
  const auto y = sampler<K, T>(1000, a, b);
  CHECK(count_equal(x, y) < 10);
}

// testSeed: two samplers with one op seed (two sessions) draw equal values.
template <kind K, class T>
void check_seed(double a, double b) {
  CHECK(sampler<K, T, 345>(1000, a, b) == sampler<K, T, 345>(1000, a, b));
  CHECK(sampler<K, T, -345>(1000, a, b) == sampler<K, T, -345>(1000, a, b));
  CHECK(sampler<K, T, 345>(1000, a, b) != sampler<K, T, -345>(1000, a, b));
  // No op seed but a graph seed: reproducible too (TensorFlow derives the op seed from it).
  CHECK(sampler<K, T>(1000, a, b, 965) == sampler<K, T>(1000, a, b, 965));
  CHECK(sampler<K, T>(1000, a, b, 965) != sampler<K, T>(1000, a, b, 966));
}

// _testSingleSessionNotConstant: three runs of one op in one session are not all equal.
template <kind K, class T, auto Seed = tf::no_seed>
void check_single_session_not_constant(double a, double b, std::optional<std::uint64_t> graph_seed = {}) {
  const auto node = op<K, T, Seed>();
  tf::session sess(node);
  if (graph_seed) sess.set_random_seed(*graph_seed);
  const auto y = draw(sess, node, 100, T(a), T(b));
  const auto z = draw(sess, node, 100, T(a), T(b));
  const auto w = draw(sess, node, 100, T(a), T(b));
  CHECK((y != z || z != w || y != w));
}

template <kind K, class T>
void check_single_session_all(double a, double b) {
  check_single_session_not_constant<K, T>(a, b);             // testSingleSessionNotConstant
  check_single_session_not_constant<K, T, 345>(a, b);        // testSingleSessionOpSeedNotConstant
  check_single_session_not_constant<K, T>(a, b, 965);        // testSingleSessionGraphSeedNotConstant
}

// testNoCSE: two random ops in one graph draw different values.
template <kind K, class T>
void check_no_cse() {
  const auto rnd1 = op<K, T, tf::no_seed>();
  const auto rnd2 = op<K, T, 345>();
  static_assert(std::is_same_v<std::remove_const_t<decltype(rnd1)>, decltype(op<K, T, tf::no_seed>())>);  // one node
  const auto diff = rnd2 - rnd1;
  tf::session sess(diff);
  const T a = T(0), b = K == kind::uniform ? T(17) : T(1);
  const auto d = sess.run(diff, tf::feed(num, dims1{24}), tf::feed(lo<T>, a), tf::feed(hi<T>, b));
  double norm = 0;
  for (auto v : d) norm += double(v) * double(v);
  CHECK(std::sqrt(norm) > 0.1);
  // The same node fetched twice in one run is one draw.
  const auto [p, q] = sess.run(tf::fetch(rnd1, rnd1), tf::feed(num, dims1{24}), tf::feed(lo<T>, a), tf::feed(hi<T>, b));
  CHECK(p == q);
}

}  // namespace

// --- RandomNormalTest -----------------------------------------------------------------------

TEST_CASE("RandomNormalTest.testDistinct: float and double, 1000 samples, fewer than 10 equal") {
  check_distinct<kind::normal, float>(0.0, 1.0);
  check_distinct<kind::normal, double>(0.0, 1.0);
}

TEST_CASE("RandomNormalTest.testSeed: op seed 345 gives equal draws in two sessions") {
  check_seed<kind::normal, float>(0.0, 1.0);
  check_seed<kind::normal, double>(0.0, 1.0);
}

TEST_CASE("RandomNormalTest.testNoCSE: two random_normal ops in one graph differ") {
  check_no_cse<kind::normal, float>();
}

TEST_CASE("RandomNormalTest.testSingleSession{,OpSeed,GraphSeed}NotConstant: runs draw anew") {
  check_single_session_all<kind::normal, float>(0.0, 1.0);
  check_single_session_all<kind::normal, double>(0.0, 1.0);
}

TEST_CASE("RandomNormalTest (added): mean and stddev of 10^5 samples, float and double") {
  for (auto [m, s] : {std::pair{0.0, 1.0}, std::pair{5.0, 2.0}}) {
    INFO("mean " << m << ", stddev " << s);
    const auto x = sampler<kind::normal, float, 345>(10000, m, s);
    CHECK(std::abs(mean_of(x) - m) < 0.02 * s);  // the standard error is s / 316
    CHECK(std::abs(std_of(x) / s - 1) < 0.02);
    const auto y = sampler<kind::normal, double, 345>(10000, m, s);
    CHECK(std::abs(mean_of(y) - m) < 0.02 * s);
    CHECK(std::abs(std_of(y) / s - 1) < 0.02);
  }
}

// --- TruncatedNormalTest --------------------------------------------------------------------

TEST_CASE("TruncatedNormalTest.testDistinct: float and double") {
  check_distinct<kind::truncated, float>(0.0, 1.0);
  check_distinct<kind::truncated, double>(0.0, 1.0);
}

TEST_CASE("TruncatedNormalTest.testSeed: op seed 345 gives equal draws in two sessions") {
  check_seed<kind::truncated, float>(0.0, 1.0);
  check_seed<kind::truncated, double>(0.0, 1.0);
}

TEST_CASE("TruncatedNormalTest.testStdDev: the stddev is 85% of the requested 3, within 0.04; all within 2 stddev") {
  const auto x = sampler<kind::truncated, float>(100000, 0.0, 3.0);
  CHECK(std::abs(std_of(x) / 3.0 - 0.85) < 0.04);
  const auto y = sampler<kind::truncated, double>(100000, 0.0, 3.0);
  CHECK(std::abs(std_of(y) / 3.0 - 0.85) < 0.04);
  // (added) the truncation, with a mean: every value within two stddevs of it.
  const auto z = sampler<kind::truncated, double, 345>(10000, 10.0, 0.5);
  CHECK(*std::min_element(z.begin(), z.end()) >= 9.0);
  CHECK(*std::max_element(z.begin(), z.end()) <= 11.0);
  CHECK(std::abs(mean_of(z) - 10.0) < 0.01);
}

TEST_CASE("TruncatedNormalTest.testLargeShape: the shape of a [2^33, 1] variable, known statically") {
  const auto v = tf::placeholder<"v", float, tf::shape<8589934592, 1>>();
  const auto n = tf::truncated_normal(tf::shape_op(v));
  static_assert(std::is_same_v<tf::shape_of<decltype(n)>, tf::shape<8589934592, 1>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(n)>, float>);
  CHECK(tf::shape_of<decltype(n)>::dims[0] == 8589934592);
}

TEST_CASE("TruncatedNormalTest.testNoCSE: two truncated_normal ops in one graph differ") {
  check_no_cse<kind::truncated, float>();
}

// --- RandomUniformTest ----------------------------------------------------------------------

TEST_CASE("RandomUniformTest.testRange: float, double, int32, int64 in [-2, 8)") {
  auto check = [](const std::vector<double>& x) {
    CHECK(*std::min_element(x.begin(), x.end()) >= -2);
    CHECK(*std::max_element(x.begin(), x.end()) < 8);
  };
  check(sampler<kind::uniform, float>(1000, -2, 8));
  check(sampler<kind::uniform, double>(1000, -2, 8));
  check(sampler<kind::uniform, std::int32_t>(1000, -2, 8));
  check(sampler<kind::uniform, std::int64_t>(1000, -2, 8));
}

TEST_CASE("RandomUniformTest.testDistinct: maxval 1.0 for floats, 1 << 30 for integers") {
  check_distinct<kind::uniform, float>(0, 1.0);
  check_distinct<kind::uniform, double>(0, 1.0);
  check_distinct<kind::uniform, std::int32_t>(0, 1 << 30);
  check_distinct<kind::uniform, std::int64_t>(0, 1 << 30);
}

TEST_CASE("RandomUniformTest.testUniformInts: counts of 10^5 ints in [-2, 15) within 5 std of the binomial mean") {
  const int minv = -2, maxv = 15, n = 100000;
  const double p = 1.0 / (maxv - minv), mean = p * n, std = std::sqrt(n * p * (1 - p));
  auto check = [&](const std::vector<double>& x) {
    REQUIRE(x.size() == std::size_t(n));
    std::vector<int> counts(maxv - minv, 0);
    for (double v : x) {
      REQUIRE(v >= minv);
      REQUIRE(v < maxv);
      ++counts[std::size_t(v - minv)];
    }
    double error = 0;
    for (int c : counts) error = std::max(error, std::abs(c - mean));
    CHECK(error < 5 * std);
  };
  check(sampler<kind::uniform, std::int32_t, 345>(n / 10, minv, maxv));
  check(sampler<kind::uniform, std::int64_t, 345>(n / 10, minv, maxv));
}

TEST_CASE("RandomUniformTest.testUniformIntsDegenerate: minval == maxval draws 0 values, fails for 1") {
  auto check = [](auto t) {
    using T = decltype(t);
    CHECK(sampler<kind::uniform, T>(0, 0, 0).empty());  // shape (10, 0)
    try {
      sampler<kind::uniform, T>(1, 0, 0);
      FAIL("minval == maxval with one value to draw must fail");
    } catch (const tf::invalid_argument_error& e) {
      CHECK(std::string(e.what()).find("Need minval < maxval, got 0 >= 0") != std::string::npos);
    }
  };
  check(std::int32_t{});
  check(std::int64_t{});
}

TEST_CASE("RandomUniformTest.testSeed: seeds 345 and -345, [0, 17), all dtypes") {
  check_seed<kind::uniform, float>(0, 17);
  check_seed<kind::uniform, double>(0, 17);
  check_seed<kind::uniform, std::int32_t>(0, 17);
  check_seed<kind::uniform, std::int64_t>(0, 17);
}

TEST_CASE("RandomUniformTest.testNoCSE: float and int32") {
  check_no_cse<kind::uniform, float>();
  check_no_cse<kind::uniform, std::int32_t>();
}

TEST_CASE("RandomUniformTest.testSingleSession{,OpSeed,GraphSeed}NotConstant: all dtypes") {
  check_single_session_all<kind::uniform, float>(0, 17);
  check_single_session_all<kind::uniform, double>(10, 20);
  check_single_session_all<kind::uniform, std::int32_t>(20, 200);
  check_single_session_all<kind::uniform, std::int64_t>(0, 17);
}

TEST_CASE("RandomUniformTest (added): float mean and spread of 10^5 samples; int64 over a range above 2^32") {
  const auto x = sampler<kind::uniform, double, 345>(10000, -1, 3);
  CHECK(std::abs(mean_of(x) - 1.0) < 0.02);
  CHECK(std::abs(std_of(x) - 4.0 / std::sqrt(12.0)) < 0.02);
  const double big = 1e12;
  const auto y = sampler<kind::uniform, std::int64_t, 345>(10000, -big, big);
  CHECK(*std::min_element(y.begin(), y.end()) >= -big);
  CHECK(*std::max_element(y.begin(), y.end()) < big);
  CHECK(std::abs(mean_of(y)) < 0.02 * big);
}

// --- RandomShapeTest ------------------------------------------------------------------------

TEST_CASE("RandomShapeTest.test{TruncatedNormal,RandomNormal,RandomUniform}: fully and partially known shapes") {
  using full = tf::shape<1, 2, 3>;
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::truncated_normal<full>())>, full>);
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::random_normal<full>())>, full>);
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::random_uniform<full>())>, full>);
  const auto dims = tf::placeholder<"dims", std::int32_t, tf::shape<3>>();
  using partial = tf::shape<dyn, dyn, dyn>;
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::truncated_normal(dims))>, partial>);
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::random_normal(dims))>, partial>);
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::random_uniform(dims))>, partial>);
  // (added) the values: static [1, 2, 3]; fed [2, 0, 4] (empty) and [3, 1, 2]; a negative
  // dim fails the run.
  const auto r = tf::random_uniform<full>();
  const auto d = tf::random_normal(dims);
  tf::session sess(r, d);
  const auto rv = sess.run(r);
  static_assert(std::is_same_v<std::remove_const_t<decltype(rv)>, xt::xtensor_fixed<float, xt::xshape<1, 2, 3>>>);
  CHECK(std::all_of(rv.begin(), rv.end(), [](float v) { return v >= 0 && v < 1; }));
  using dims3 = xt::xtensor_fixed<std::int32_t, xt::xshape<3>>;
  CHECK(sess.run(d, tf::feed(dims, dims3{2, 0, 4})).size() == 0);
  const auto dv = sess.run(d, tf::feed(dims, dims3{3, 1, 2}));
  CHECK(dv.shape()[0] == 3);
  CHECK(dv.shape()[2] == 2);
  CHECK_THROWS_AS(sess.run(d, tf::feed(dims, dims3{3, -1, 2})), tf::invalid_argument_error);
}

TEST_CASE("random ops (added): literal parameters, a scalar draw, no gradient, and the hidden counter") {
  const auto z = tf::random_uniform<tf::shape<4, 100>, float, 7>(tf::constant<-1>(), tf::constant<1>());
  const auto m = tf::placeholder<"m", double>();
  const auto s = tf::random_normal<tf::shape<>, double, 7>(m, tf::constant<0.0>());
  const auto [g] = tf::gradients(s * s, m);  // TensorFlow registers no gradient: none flows
  tf::session sess(z, s, g);
  const auto zv = sess.run(z);
  CHECK(std::all_of(zv.begin(), zv.end(), [](float v) { return v >= -1 && v < 1; }));
  CHECK(sess.run(s, tf::feed(m, 3.0)) == 3.0);  // stddev 0: the mean
  CHECK(sess.run(g, tf::feed(m, 3.0)) == 0.0);
  // The counter of op seed 7 is hidden state, advanced by the draws of both ops.
  using counter = tf::random_state_node<true, 7>;
  static_assert(tf::hidden_state_node<counter>);
  CHECK(counter::name.view() == "random_ops/random_state_7");
  CHECK(sess.slot<counter>().value == 2);  // z and s drew; the gradient (zeros) computes neither
  tf::session fresh(z, s, g);
  CHECK(fresh.run(z) == zv);  // another session with the same seeds: the same first draw
  CHECK(sess.run(z) != zv);
  sess.initialize_all();  // the counter starts again
  CHECK(sess.run(z) == zv);
}
