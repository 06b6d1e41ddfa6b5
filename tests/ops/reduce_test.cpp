// tf.reduce_sum, tf.reduce_mean, tf.reduce_max and tf.reduce_min (ops/reduce.hpp): over
// all axes, each axis, negative axes, several axes, keep_dims, integer means (truncating),
// extrema of infinities, NaN and nothing, and dynamic shapes.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "ops_testing.hpp"

namespace tf = typeflow;
using ops_testing::check_values;
using tf::dyn;

// X = [[1, 2, 3], [4, 5, 6]]: sum 21, column sums [5, 7, 9], row sums [6, 15].
using m23 = xt::xtensor_fixed<float, xt::xshape<2, 3>>;

TEST_CASE("reduce_sum and reduce_mean over all axes give a scalar") {
  auto x = tf::constant<"rd_all">(m23{{1, 2, 3}, {4, 5, 6}});
  auto s = tf::reduce_sum(x);
  auto m = tf::reduce_mean(x);
  static_assert(std::is_same_v<tf::shape_of<decltype(s)>, tf::scalar>);
  tf::session sess(s, m);
  static_assert(std::is_same_v<decltype(sess.run(s)), float>);
  CHECK(sess.run(s) == 21.0f);
  CHECK(sess.run(m) == 3.5f);
  // Naming every axis is the same as naming none.
  CHECK(sess.run(tf::reduce_sum<0, 1>(x)) == 21.0f);
  CHECK(sess.run(tf::reduce_mean<1, 0>(x)) == 3.5f);
}

TEST_CASE("reduce over each axis of a [2, 3] tensor") {
  auto x = tf::constant<"rd_axis">(m23{{1, 2, 3}, {4, 5, 6}});
  auto s0 = tf::reduce_sum<0>(x);
  auto s1 = tf::reduce_sum<1>(x);
  static_assert(std::is_same_v<tf::shape_of<decltype(s0)>, tf::shape<3>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(s1)>, tf::shape<2>>);
  tf::session sess(s0, s1);
  check_values(sess.run(s0), {3}, {5, 7, 9});
  check_values(sess.run(s1), {2}, {6, 15});
  check_values(sess.run(tf::reduce_mean<0>(x)), {3}, {2.5, 3.5, 4.5});
  check_values(sess.run(tf::reduce_mean<1>(x)), {2}, {2, 5});
}

TEST_CASE("negative axes count from the end") {
  auto x = tf::constant<"rd_neg">(m23{{1, 2, 3}, {4, 5, 6}});
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::reduce_sum<-1>(x))>, tf::shape<2>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::reduce_sum<-2>(x))>, tf::shape<3>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::reduce_sum<0, -1>(x))>, tf::scalar>);
  tf::session sess(x);
  check_values(sess.run(tf::reduce_sum<-1>(x)), {2}, {6, 15});
  check_values(sess.run(tf::reduce_sum<-2>(x)), {3}, {5, 7, 9});
  check_values(sess.run(tf::reduce_mean<-1>(x)), {2}, {2, 5});
  CHECK(sess.run(tf::reduce_sum<0, -1>(x)) == 21.0f);
  CHECK(sess.run(tf::reduce_mean<-2, 1>(x)) == 3.5f);
}

TEST_CASE("several axes of a rank-3 tensor") {
  // T[i][j][k] = 100 i + 10 j + k, shape [2, 3, 4]
  xt::xtensor_fixed<double, xt::xshape<2, 3, 4>> v{};
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      for (std::size_t k = 0; k < 4; ++k) v(i, j, k) = 100.0 * i + 10.0 * j + k;
  auto t = tf::constant<"rd_r3">(v);
  auto s02 = tf::reduce_sum<0, 2>(t);   // over i and k: 8 terms per j
  auto m1 = tf::reduce_mean<1>(t);      // over j: [2, 4]
  auto s12k = tf::reduce_sum<-1, 1>(t, tf::keep_dims);
  static_assert(std::is_same_v<tf::shape_of<decltype(s02)>, tf::shape<3>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(m1)>, tf::shape<2, 4>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(s12k)>, tf::shape<2, 1, 1>>);
  tf::session sess(s02, m1, s12k);
  // sum over i, k of 100 i + 10 j + k = 4 * 100 + 8 * 10 j + 2 * 6
  check_values(sess.run(s02), {3}, {412, 492, 572});
  check_values(sess.run(m1), {2, 4}, {10, 11, 12, 13, 110, 111, 112, 113});
  // sum over j, k of 100 i + 10 j + k = 1200 i + 4 * 30 + 3 * 6
  check_values(sess.run(s12k), {2, 1, 1}, {138, 1338});
}

TEST_CASE("keep_dims keeps reduced axes with size 1") {
  auto x = tf::constant<"rd_keep">(m23{{1, 2, 3}, {4, 5, 6}});
  auto rows = tf::reduce_sum<1>(x, tf::keep_dims);
  auto cols = tf::reduce_mean<0>(x, tf::keep_dims);
  auto all = tf::reduce_sum(x, tf::keep_dims);
  static_assert(std::is_same_v<tf::shape_of<decltype(rows)>, tf::shape<2, 1>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(cols)>, tf::shape<1, 3>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(all)>, tf::shape<1, 1>>);
  tf::session sess(rows, cols, all);
  check_values(sess.run(rows), {2, 1}, {6, 15});
  check_values(sess.run(cols), {1, 3}, {2.5, 3.5, 4.5});
  check_values(sess.run(all), {1, 1}, {21});
  check_values(sess.run(tf::reduce_mean<-1>(x, tf::keep_dims)), {2, 1}, {2, 5});
}

TEST_CASE("a keep_dims reduction inside a broadcasting expression (centering rows)") {
  // The xtensor 0.24.3 pitfall concerns lazy keep_dims reducers in such expressions;
  // typeflow materializes the reduction, so the values are right.
  auto x = tf::constant<"rd_center">(m23{{1, 2, 3}, {4, 6, 14}});
  auto centered = x - tf::reduce_mean<1>(x, tf::keep_dims);
  auto scaled = x / tf::reduce_sum<0>(x, tf::keep_dims);
  tf::session sess(centered, scaled);
  check_values(sess.run(centered), {2, 3}, {-1, 0, 1, -4, -2, 6});
  check_values(sess.run(scaled), {2, 3}, {0.2, 0.25, 3.0 / 17.0, 0.8, 0.75, 14.0 / 17.0});
}

TEST_CASE("integer reductions: sums exact, means truncate toward zero") {
  auto x = tf::constant<"rd_int">(xt::xtensor_fixed<std::int32_t, xt::xshape<2, 2>>{{1, 2}, {3, 5}});
  tf::session sess(x);
  static_assert(std::is_same_v<decltype(sess.run(tf::reduce_mean(x))), std::int32_t>);
  CHECK(sess.run(tf::reduce_sum(x)) == 11);
  CHECK(sess.run(tf::reduce_mean(x)) == 2);            // 11 / 4
  check_values(sess.run(tf::reduce_mean<1>(x)), {2}, {1, 4});   // 3 / 2, 8 / 2
  check_values(sess.run(tf::reduce_mean<0>(x)), {2}, {2, 3});   // 4 / 2, 7 / 2

  auto n = tf::constant<"rd_int_neg">(xt::xtensor_fixed<std::int64_t, xt::xshape<3>>{-1, -2, -4});
  tf::session sess_n(n);
  CHECK(sess_n.run(tf::reduce_sum(n)) == -7);
  CHECK(sess_n.run(tf::reduce_mean(n)) == -2);  // -7 / 3 = -2.33, truncated toward zero
}

TEST_CASE("dynamic shapes: [dyn, 3] reduced over each axis, with and without keep_dims") {
  auto x = tf::placeholder<"rd_dyn", float, tf::shape<dyn, 3>>();
  auto s0 = tf::reduce_sum<0>(x);
  auto s1 = tf::reduce_sum<1>(x);
  auto m1k = tf::reduce_mean<-1>(x, tf::keep_dims);
  auto all = tf::reduce_mean(x);
  static_assert(std::is_same_v<tf::shape_of<decltype(s0)>, tf::shape<3>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(s1)>, tf::shape<dyn>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(m1k)>, tf::shape<dyn, 1>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(all)>, tf::scalar>);
  tf::session sess(s0, s1, m1k, all);
  static_assert(std::is_same_v<decltype(sess.run(s1, tf::feed(x, xt::xtensor<float, 2>{}))), xt::xtensor<float, 1>>);

  const xt::xtensor<float, 2> two{{1, 2, 3}, {4, 5, 6}};
  auto [a, b, c, d] = sess.run(tf::fetch(s0, s1, m1k, all), tf::feed(x, two));
  check_values(a, {3}, {5, 7, 9});
  check_values(b, {2}, {6, 15});
  check_values(c, {2, 1}, {2, 5});
  CHECK(d == 3.5f);

  const xt::xtensor<float, 2> four{{1, 1, 1}, {2, 2, 2}, {0, 0, 3}, {-1, 0, 1}};
  auto [a4, b4, c4, d4] = sess.run(tf::fetch(s0, s1, m1k, all), tf::feed(x, four));
  check_values(a4, {3}, {2, 3, 7});
  check_values(b4, {4}, {3, 6, 3, 0});
  check_values(c4, {4, 1}, {1, 2, 1, 0});
  CHECK(d4 == doctest::Approx(1.0));
}

TEST_CASE("fully dynamic rank-3 input reduced over the middle axis") {
  auto x = tf::placeholder<"rd_dyn3", double, tf::shape<dyn, dyn, dyn>>();
  auto m = tf::reduce_mean<1>(x, tf::keep_dims);
  static_assert(std::is_same_v<tf::shape_of<decltype(m)>, tf::shape<dyn, 1, dyn>>);
  tf::session sess(m);
  const xt::xtensor<double, 3> v{{{1, 2}, {3, 4}, {5, 6}}};  // [1, 3, 2]
  check_values(sess.run(m, tf::feed(x, v)), {1, 1, 2}, {3, 4});
}

TEST_CASE("reductions of an elementwise expression and of a scalar") {
  auto x = tf::placeholder<"rd_expr", float, tf::shape<dyn>>();
  auto sum_sq = tf::reduce_sum(x * x);  // the squared norm
  tf::session sess(sum_sq);
  const xt::xtensor<float, 1> v{3, 4};
  CHECK(sess.run(sum_sq, tf::feed(x, v)) == 25.0f);

  auto s = tf::placeholder<"rd_scalar", std::int32_t>();
  tf::session sess_s(tf::reduce_sum(s), tf::reduce_mean(s));
  CHECK(sess_s.run(tf::reduce_sum(s), tf::feed(s, 7)) == 7);
  CHECK(sess_s.run(tf::reduce_mean(s), tf::feed(s, 7)) == 7);
}

// tf.reduce_mean over zero elements is NaN for floating types (0 / 0). Regression: it
// used to skip the division and return 0.
TEST_CASE("reduce_mean over an empty dimension is NaN for floats") {
  auto x = tf::placeholder<"rd_empty", float, tf::shape<dyn>>();
  tf::session sess(tf::reduce_mean(x));
  const xt::xtensor<float, 1> empty = xt::zeros<float>({0});
  CHECK(std::isnan(sess.run(tf::reduce_mean(x), tf::feed(x, empty))));
  CHECK(sess.run(tf::reduce_sum(x), tf::feed(x, empty)) == 0.0f);
}

// reduce_max and reduce_min, as TensorFlow's MaxReductionTest / MinReductionTest
// (reduction_ops_test.py): against the obvious values, over each axis, with keep_dims,
// integers, infinities, NaN and an empty reduction.
TEST_CASE("reduce_max and reduce_min over all, each and negative axes, with keep_dims") {
  auto x = tf::constant<"rd_max">(m23{{1, 5, 3}, {4, 2, 6}});
  auto all_max = tf::reduce_max(x);
  auto all_min = tf::reduce_min(x);
  static_assert(std::is_same_v<tf::shape_of<decltype(all_max)>, tf::scalar>);
  tf::session sess(all_max, all_min);
  CHECK(sess.run(all_max) == 6.0f);
  CHECK(sess.run(all_min) == 1.0f);
  check_values(sess.run(tf::reduce_max<0>(x)), {3}, {4, 5, 6});
  check_values(sess.run(tf::reduce_min<-1>(x)), {2}, {1, 2});
  check_values(sess.run(tf::reduce_max<1>(x, tf::keep_dims)), {2, 1}, {5, 6});
  check_values(sess.run(tf::reduce_min<0, 1>(x, tf::keep_dims)), {1, 1}, {1});
}

TEST_CASE("reduce_max and reduce_min of integers, infinities and NaN") {
  using i23 = xt::xtensor_fixed<std::int32_t, xt::xshape<2, 3>>;
  auto n = tf::constant<"rd_max_int">(i23{{-7, 0, 3}, {2, -9, 1}});
  tf::session si(n);
  static_assert(std::is_same_v<decltype(si.run(tf::reduce_max(n))), std::int32_t>);
  CHECK(si.run(tf::reduce_max(n)) == 3);
  CHECK(si.run(tf::reduce_min(n)) == -9);
  const float inf = std::numeric_limits<float>::infinity();
  auto f = tf::placeholder<"rd_max_inf", float, tf::shape<4>>();
  tf::session sf(f);
  const xt::xtensor_fixed<float, xt::xshape<4>> infs{-inf, 1, inf, 2}, nans{1, std::nanf(""), 3, -inf};
  CHECK(sf.run(tf::reduce_max(f), tf::feed(f, infs)) == inf);
  CHECK(sf.run(tf::reduce_min(f), tf::feed(f, infs)) == -inf);
  // NaN propagates, wherever it stands
  CHECK(std::isnan(sf.run(tf::reduce_max(f), tf::feed(f, nans))));
  CHECK(std::isnan(sf.run(tf::reduce_min(f), tf::feed(f, nans))));
}

TEST_CASE("an empty reduction is the identity: -inf for max, +inf for min, integer limits") {
  auto x = tf::placeholder<"rd_max_empty", float, tf::shape<dyn, 3>>();
  auto k = tf::placeholder<"rd_max_empty_int", std::int64_t, tf::shape<dyn>>();
  tf::session sess(x, k);
  const xt::xtensor<float, 2> none = xt::xtensor<float, 2>::from_shape({0, 3});
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(sess.run(tf::reduce_max<0>(x), tf::feed(x, none)) == xt::xtensor<float, 1>{-inf, -inf, -inf});
  CHECK(sess.run(tf::reduce_min<0>(x), tf::feed(x, none)) == xt::xtensor<float, 1>{inf, inf, inf});
  check_values(sess.run(tf::reduce_max<1>(x), tf::feed(x, none)), {0}, {});
  const xt::xtensor<std::int64_t, 1> no_ints = xt::xtensor<std::int64_t, 1>::from_shape({0});
  CHECK(sess.run(tf::reduce_max(k), tf::feed(k, no_ints)) == std::numeric_limits<std::int64_t>::lowest());
  CHECK(sess.run(tf::reduce_min(k), tf::feed(k, no_ints)) == std::numeric_limits<std::int64_t>::max());
}
