// Comparisons (ops/compare.hpp) give bool, elementwise with broadcasting, as functions
// and as operators < <= > >=; tf.cast (ops/math.hpp) converts between element types as
// static_cast does (float to int truncates toward zero, nonzero to bool is true).
#include <doctest/doctest.h>

#include <cstdint>
#include <type_traits>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "ops_testing.hpp"

namespace tf = typeflow;
using ops_testing::check_values;
using tf::dyn;

TEST_CASE("the six comparisons on int32 tensors give bool tensors") {
  auto a = tf::constant<"cmp_a">(xt::xtensor_fixed<std::int32_t, xt::xshape<4>>{1, 2, 3, 4});
  auto b = tf::constant<"cmp_b">(xt::xtensor_fixed<std::int32_t, xt::xshape<4>>{3, 2, 1, 4});
  static_assert(std::is_same_v<tf::value_type_of<decltype(tf::equal(a, b))>, bool>);
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::less(a, b))>, tf::shape<4>>);
  tf::session sess(a, b);
  static_assert(std::is_same_v<decltype(sess.run(tf::equal(a, b))), xt::xtensor_fixed<bool, xt::xshape<4>>>);
  check_values(sess.run(tf::equal(a, b)), {4}, {0, 1, 0, 1});
  check_values(sess.run(tf::not_equal(a, b)), {4}, {1, 0, 1, 0});
  check_values(sess.run(tf::less(a, b)), {4}, {1, 0, 0, 0});
  check_values(sess.run(tf::less_equal(a, b)), {4}, {1, 1, 0, 1});
  check_values(sess.run(tf::greater(a, b)), {4}, {0, 0, 1, 0});
  check_values(sess.run(tf::greater_equal(a, b)), {4}, {0, 1, 1, 1});
}

TEST_CASE("operators < <= > >= are the comparison functions") {
  auto a = tf::constant<"cmp_op_a">(xt::xtensor_fixed<float, xt::xshape<3>>{-1, 0.5f, 2});
  auto b = tf::constant<"cmp_op_b">(xt::xtensor_fixed<float, xt::xshape<3>>{0, 0.5f, 1});
  static_assert(std::is_same_v<decltype(a < b), decltype(tf::less(a, b))>);
  static_assert(std::is_same_v<decltype(a <= b), decltype(tf::less_equal(a, b))>);
  static_assert(std::is_same_v<decltype(a > b), decltype(tf::greater(a, b))>);
  static_assert(std::is_same_v<decltype(a >= b), decltype(tf::greater_equal(a, b))>);
  tf::session sess(a < b, a <= b, a > b, a >= b);
  check_values(sess.run(a < b), {3}, {1, 0, 0});
  check_values(sess.run(a <= b), {3}, {1, 1, 0});
  check_values(sess.run(a > b), {3}, {0, 0, 1});
  check_values(sess.run(a >= b), {3}, {0, 1, 1});
}

TEST_CASE("comparisons of scalars, and with a literal that adopts the element type") {
  auto x = tf::placeholder<"cmp_s", double>();
  auto positive = x > tf::constant<0>();
  static_assert(std::is_same_v<tf::value_type_of<decltype(positive)>, bool>);
  tf::session sess(positive);
  static_assert(std::is_same_v<decltype(sess.run(positive, tf::feed(x, 1.0))), bool>);
  CHECK(sess.run(positive, tf::feed(x, 0.25)) == true);
  CHECK(sess.run(positive, tf::feed(x, -0.25)) == false);
  CHECK(sess.run(positive, tf::feed(x, 0.0)) == false);
  CHECK(sess.run(tf::equal(x, tf::constant<0.5>()), tf::feed(x, 0.5)) == true);
  CHECK(sess.run(tf::not_equal(x, tf::constant<0.5>()), tf::feed(x, 0.5)) == false);
}

TEST_CASE("comparisons broadcast: [dyn, 3] against [3], and [2, 1] against [1, 3]") {
  auto x = tf::placeholder<"cmp_dyn", float, tf::shape<dyn, 3>>();
  auto threshold = tf::constant<"cmp_thr">(xt::xtensor_fixed<float, xt::xshape<3>>{0, 1, 2});
  auto above = x > threshold;
  static_assert(std::is_same_v<tf::shape_of<decltype(above)>, tf::shape<dyn, 3>>);
  tf::session sess(above);
  static_assert(std::is_same_v<decltype(sess.run(above, tf::feed(x, xt::xtensor<float, 2>{}))), xt::xtensor<bool, 2>>);
  const xt::xtensor<float, 2> v{{1, 1, 1}, {-1, 2, 3}};
  check_values(sess.run(above, tf::feed(x, v)), {2, 3}, {1, 0, 0, 0, 1, 1});

  auto col = tf::constant<"cmp_col">(xt::xtensor_fixed<std::int32_t, xt::xshape<2, 1>>{{1}, {2}});
  auto row = tf::constant<"cmp_row">(xt::xtensor_fixed<std::int32_t, xt::xshape<1, 3>>{{1, 2, 3}});
  tf::session sess2(tf::equal(col, row), col <= row);
  check_values(sess2.run(tf::equal(col, row)), {2, 3}, {1, 0, 0, 0, 1, 0});
  check_values(sess2.run(col <= row), {2, 3}, {1, 1, 1, 0, 1, 1});
}

TEST_CASE("comparisons of bool tensors") {
  auto p = tf::placeholder<"cmp_bool_p", bool, tf::shape<4>>();
  auto q = tf::placeholder<"cmp_bool_q", bool, tf::shape<4>>();
  tf::session sess(tf::equal(p, q), tf::not_equal(p, q));
  const xt::xtensor_fixed<bool, xt::xshape<4>> vp{true, true, false, false};
  const xt::xtensor_fixed<bool, xt::xshape<4>> vq{true, false, true, false};
  check_values(sess.run(tf::equal(p, q), tf::feed(p, vp), tf::feed(q, vq)), {4}, {1, 0, 0, 1});
  check_values(sess.run(tf::not_equal(p, q), tf::feed(p, vp), tf::feed(q, vq)), {4}, {0, 1, 1, 0});  // xor
}

TEST_CASE("cast float to int32 truncates toward zero; int32 to float is exact") {
  auto f = tf::constant<"cast_f">(xt::xtensor_fixed<float, xt::xshape<5>>{2.7f, -2.7f, 0.5f, -0.5f, 3});
  auto i = tf::cast<std::int32_t>(f);
  static_assert(std::is_same_v<tf::value_type_of<decltype(i)>, std::int32_t>);
  static_assert(std::is_same_v<tf::shape_of<decltype(i)>, tf::shape<5>>);
  tf::session sess(i, tf::cast<float>(i));
  static_assert(std::is_same_v<decltype(sess.run(i)), xt::xtensor_fixed<std::int32_t, xt::xshape<5>>>);
  check_values(sess.run(i), {5}, {2, -2, 0, 0, 3});
  check_values(sess.run(tf::cast<float>(i)), {5}, {2, -2, 0, 0, 3});
}

TEST_CASE("cast between integer widths and floating precisions") {
  auto i = tf::placeholder<"cast_i", std::int32_t, tf::shape<dyn>>();
  auto l = tf::cast<std::int64_t>(i);
  auto wide = l * tf::constant<65536>() * tf::constant<65536>();  // 2^32 i, beyond int32
  tf::session sess(wide);
  const xt::xtensor<std::int32_t, 1> vi{1, -3};
  const auto r = sess.run(wide, tf::feed(i, vi));
  CHECK(r(0) == (std::int64_t{1} << 32));
  CHECK(r(1) == -3 * (std::int64_t{1} << 32));

  auto d = tf::placeholder<"cast_d", double>();
  auto as_float = tf::cast<float>(d);
  auto back = tf::cast<double>(as_float);
  tf::session sess_d(back);
  static_assert(std::is_same_v<decltype(sess_d.run(back, tf::feed(d, 1.0))), double>);
  const double third = 1.0 / 3.0;
  CHECK(sess_d.run(back, tf::feed(d, third)) == static_cast<double>(static_cast<float>(third)));
  CHECK(sess_d.run(back, tf::feed(d, third)) != third);  // precision went through float

  auto big = tf::placeholder<"cast_big", std::int64_t>();
  tf::session sess_b(tf::cast<double>(big), tf::cast<std::int32_t>(big));
  CHECK(sess_b.run(tf::cast<double>(big), tf::feed(big, std::int64_t{1} << 53)) == 9007199254740992.0);
  CHECK(sess_b.run(tf::cast<std::int32_t>(big), tf::feed(big, std::int64_t{41})) == 41);
}

TEST_CASE("cast to and from bool: nonzero is true, true is 1") {
  auto f = tf::constant<"cast_fb">(xt::xtensor_fixed<float, xt::xshape<4>>{0, 0.25f, -2, 0});
  auto b = tf::cast<bool>(f);
  static_assert(std::is_same_v<tf::value_type_of<decltype(b)>, bool>);
  tf::session sess(b, tf::cast<std::int32_t>(b), tf::cast<double>(b));
  check_values(sess.run(b), {4}, {0, 1, 1, 0});
  check_values(sess.run(tf::cast<std::int32_t>(b)), {4}, {0, 1, 1, 0});
  check_values(sess.run(tf::cast<double>(b)), {4}, {0, 1, 1, 0});
}

TEST_CASE("a comparison cast to float masks values (relu by hand), fused") {
  auto x = tf::placeholder<"cast_mask", float, tf::shape<dyn>>();
  auto mask = tf::cast<float>(x > tf::constant<0>());
  auto masked = x * mask;
  tf::session sess(masked);
  const xt::xtensor<float, 1> v{-1.5f, 0, 2.5f, 4};
  check_values(sess.run(masked, tf::feed(x, v)), {4}, {0, 0, 2.5, 4});
  // The fraction of positive values, as accuracy is computed: mean(cast(pred == label)).
  auto fraction = tf::reduce_mean(mask);
  tf::session sess_f(fraction);
  CHECK(sess_f.run(fraction, tf::feed(x, v)) == 0.5f);
}

TEST_CASE("cast of a literal and of a scalar placeholder") {
  auto three = tf::cast<float>(tf::constant<3>());
  static_assert(std::is_same_v<tf::value_type_of<decltype(three)>, float>);
  auto s = tf::placeholder<"cast_s", float>();
  auto rounded_down = tf::cast<std::int64_t>(s);
  tf::session sess(three, rounded_down);
  CHECK(sess.run(three) == 3.0f);
  CHECK(sess.run(rounded_down, tf::feed(s, 9.99f)) == 9);
  CHECK(sess.run(rounded_down, tf::feed(s, -9.99f)) == -9);
}
