// tf.nn.softmax and tf.nn.log_softmax (ops/softmax.hpp) over the last axis: values, rows
// summing to 1, stability for large logits, log_softmax == log(softmax), and a regression
// test for the xtensor 0.24.3 lazy keep_dims reducer pitfall (DESIGN.md, "Known pitfalls";
// /work/shared/pitfalls/xtensor_lazy_keepdims_reducer.cpp): a softmax whose row maximum or
// row sum is a lazy keep_dims reducer inside the broadcasting expression gives values
// above 1 and rows that do not sum to 1.
#include <doctest/doctest.h>

#include <cmath>
#include <type_traits>

#include <xtensor/xfixed.hpp>
#include <xtensor/xrandom.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "ops_testing.hpp"

namespace tf = typeflow;
using ops_testing::check_values;
using tf::dyn;

namespace {
// softmax([1, 2, 3]) and log_softmax([1, 2, 3]), from exp(k) / (e + e^2 + e^3).
constexpr double s1 = 0.09003057317038046, s2 = 0.24472847105479764, s3 = 0.6652409557748219;
constexpr double l1 = -2.4076059644443806, l2 = -1.4076059644443806, l3 = -0.4076059644443806;

template <class Tensor>
void check_rows_are_distributions(const Tensor& p, double eps) {
  const std::size_t cols = p.shape()[p.dimension() - 1];
  for (std::size_t row = 0; row * cols < p.size(); ++row) {
    double sum = 0;
    for (std::size_t j = 0; j < cols; ++j) {
      const double v = p.flat(row * cols + j);
      INFO("row " << row << ", column " << j << ": " << v);
      CHECK(v > 0.0);
      CHECK(v < 1.0);
      sum += v;
    }
    INFO("row " << row);
    CHECK(sum == doctest::Approx(1.0).epsilon(eps));
  }
}
}  // namespace

TEST_CASE("softmax and log_softmax of [[1, 2, 3], [1, 1, 1]]") {
  auto x = tf::constant<"sm_small">(xt::xtensor_fixed<float, xt::xshape<2, 3>>{{1, 2, 3}, {1, 1, 1}});
  auto p = tf::softmax(x);
  auto lp = tf::log_softmax(x);
  static_assert(std::is_same_v<tf::shape_of<decltype(p)>, tf::shape<2, 3>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(lp)>, float>);
  tf::session sess(p, lp);
  check_values(sess.run(p), {2, 3}, {s1, s2, s3, 1.0 / 3, 1.0 / 3, 1.0 / 3});
  check_values(sess.run(lp), {2, 3}, {l1, l2, l3, -std::log(3.0), -std::log(3.0), -std::log(3.0)});
  check_rows_are_distributions(sess.run(p), 1e-6);
}

TEST_CASE("softmax of a rank-1 and of a rank-3 tensor is over the last axis") {
  auto v = tf::constant<"sm_r1">(xt::xtensor_fixed<double, xt::xshape<3>>{3, 1, 2});
  tf::session sess(tf::softmax(v));
  check_values(sess.run(tf::softmax(v)), {3}, {s3, s1, s2}, 1e-14);

  auto t = tf::constant<"sm_r3">(
      xt::xtensor_fixed<double, xt::xshape<2, 2, 3>>{{{1, 2, 3}, {0, 0, 0}}, {{3, 2, 1}, {-1, -2, -3}}});
  tf::session sess_t(tf::softmax(t));
  check_values(sess_t.run(tf::softmax(t)), {2, 2, 3},
               {s1, s2, s3, 1.0 / 3, 1.0 / 3, 1.0 / 3, s3, s2, s1, s3, s2, s1}, 1e-14);
}

TEST_CASE("softmax of fed logits with a dynamic batch") {
  auto x = tf::placeholder<"sm_dyn", float, tf::shape<dyn, 3>>();
  auto p = tf::softmax(x * tf::constant<2>());  // softmax of a fused expression
  static_assert(std::is_same_v<tf::shape_of<decltype(p)>, tf::shape<dyn, 3>>);
  tf::session sess(p);
  const xt::xtensor<float, 2> v{{0.5f, 1, 1.5f}, {0, 0, 0}, {1.5f, 1, 0.5f}};
  const auto r = sess.run(p, tf::feed(x, v));
  check_values(r, {3, 3}, {s1, s2, s3, 1.0 / 3, 1.0 / 3, 1.0 / 3, s3, s2, s1});
  const xt::xtensor<float, 2> one{{0, 0, 0}};
  check_values(sess.run(p, tf::feed(x, one)), {1, 3}, {1.0 / 3, 1.0 / 3, 1.0 / 3});
}

TEST_CASE("large logits (1000) are stable: no NaN, no inf") {
  auto x = tf::constant<"sm_large">(xt::xtensor_fixed<float, xt::xshape<4, 3>>{
      {1000, 1000, 1000}, {1000, 0, 0}, {-1000, 1000, 0}, {1001, 1002, 1003}});
  tf::session sess(tf::softmax(x), tf::log_softmax(x));
  const auto p = sess.run(tf::softmax(x));
  const auto lp = sess.run(tf::log_softmax(x));
  for (float v : p) CHECK(std::isfinite(v));
  for (float v : lp) CHECK(std::isfinite(v));
  check_values(p, {4, 3}, {1.0 / 3, 1.0 / 3, 1.0 / 3, 1, 0, 0, 0, 1, 0, s1, s2, s3});
  check_values(lp, {4, 3},
               {-std::log(3.0), -std::log(3.0), -std::log(3.0), 0, -1000, -1000, -2000, 0, -1000, l1, l2, l3});
}

TEST_CASE("log_softmax equals log(softmax) where softmax does not underflow") {
  auto x = tf::placeholder<"sm_log", double, tf::shape<dyn, 5>>();
  auto direct = tf::log_softmax(x);
  auto composed = tf::log(tf::softmax(x));
  tf::session sess(direct, composed);
  xt::random::seed(7);
  const xt::xtensor<double, 2> v = xt::random::randn<double>({6, 5}, 0.0, 3.0);
  auto [d, c] = sess.run(tf::fetch(direct, composed), tf::feed(x, v));
  REQUIRE(d.shape() == c.shape());
  for (std::size_t i = 0; i < d.size(); ++i) CHECK(d.flat(i) == doctest::Approx(c.flat(i)).epsilon(1e-12));
}

TEST_CASE("pitfall regression: softmax of random [3, 4] inputs is in (0, 1), rows sum to 1") {
  // The pitfall's repro feeds xt::random::rand<float>({3, 4}); with xtensor 0.24.3 the
  // lazy exp(z - amax(z, {1}, keep_dims)) / sum(..., keep_dims) gives values > 1 and
  // rows summing to 0.9 or 2.5. typeflow's softmax must be right for every seed.
  auto z = tf::placeholder<"sm_pitfall", float, tf::shape<3, 4>>();
  auto p = tf::softmax(z);
  tf::session sess(p);
  for (int seed = 0; seed < 20; ++seed) {
    CAPTURE(seed);
    xt::random::seed(static_cast<xt::random::default_engine_type::result_type>(seed));
    const xt::xtensor_fixed<float, xt::xshape<3, 4>> v = xt::random::rand<float>({3, 4});
    check_rows_are_distributions(sess.run(p, tf::feed(z, v)), 1e-6);
  }
}

namespace {
// softmax(z) = exp(z - c) / sum(exp(z - c)) for any per-row c: here the row mean, from
// graph ops. The keep_dims reductions are materialized by the session (reduce.hpp),
// never fused lazily into the broadcasting expressions.
template <class Z>
auto composed_softmax(Z z) {
  auto e = tf::exp(z - tf::reduce_mean<1>(z, tf::keep_dims));
  return e / tf::reduce_sum<1>(e, tf::keep_dims);
}

template <class Z, class Value>
void check_composed_softmax(Z z, const Value& v) {
  auto p = tf::softmax(z);
  auto composed = composed_softmax(z);
  tf::session sess(p, composed);
  auto [pv, cv] = sess.run(tf::fetch(p, composed), tf::feed(z, v));
  check_rows_are_distributions(cv, 1e-6);
  for (std::size_t i = 0; i < pv.size(); ++i) CHECK(cv.flat(i) == doctest::Approx(pv.flat(i)).epsilon(1e-5));
  // Fetched alone, the composed softmax fuses z - mean into exp: the same values.
  tf::session sess_alone(composed);
  const auto alone = sess_alone.run(composed, tf::feed(z, v));
  for (std::size_t i = 0; i < pv.size(); ++i) CHECK(alone.flat(i) == doctest::Approx(pv.flat(i)).epsilon(1e-5));
}
}  // namespace

TEST_CASE("pitfall regression: softmax from exp and keep_dims reductions, dynamic batch") {
  auto z = tf::placeholder<"sm_composed_dyn", float, tf::shape<dyn, 4>>();
  for (int seed = 0; seed < 5; ++seed) {
    CAPTURE(seed);
    xt::random::seed(static_cast<xt::random::default_engine_type::result_type>(seed));
    const xt::xtensor<float, 2> v = xt::random::rand<float>({3, 4});
    check_composed_softmax(z, v);
  }
}

// With static shapes the fused exp(z - mean) used to be wrong: xtensor 0.24.3 miscomputes
// a broadcasting xfunction over fixed-size containers ([3, 4] - [3, 1]) nested in another
// xfunction (see elementwise_test.cpp for the minimal case -(x + b)).
TEST_CASE("pitfall regression: softmax from exp and keep_dims reductions, static shape") {
  auto z = tf::placeholder<"sm_composed_static", float, tf::shape<3, 4>>();
  for (int seed = 0; seed < 5; ++seed) {
    CAPTURE(seed);
    xt::random::seed(static_cast<xt::random::default_engine_type::result_type>(seed));
    const xt::xtensor_fixed<float, xt::xshape<3, 4>> v = xt::random::rand<float>({3, 4});
    check_composed_softmax(z, v);
  }
}

TEST_CASE("pitfall regression: a dynamic batch of random logits") {
  auto z = tf::placeholder<"sm_pitfall_dyn", double, tf::shape<dyn, 4>>();
  tf::session sess(tf::softmax(z));
  xt::random::seed(42);
  const xt::xtensor<double, 2> v = xt::random::rand<double>({50, 4}, -20.0, 20.0);
  check_rows_are_distributions(sess.run(tf::softmax(z), tf::feed(z, v)), 1e-12);
}

TEST_CASE("softmax of a column-major fed value is over the last axis of its logical shape") {
  auto z = tf::placeholder<"sm_colmajor", double, tf::shape<dyn, 3>>();
  tf::session sess(tf::softmax(z));
  const xt::xtensor<double, 2, xt::layout_type::column_major> v{{1, 2, 3}, {3, 2, 1}};
  check_values(sess.run(tf::softmax(z), tf::feed(z, v)), {2, 3}, {s1, s2, s3, s3, s2, s1}, 1e-14);
}
