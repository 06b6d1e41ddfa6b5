// Elementwise ops (ops/arithmetic.hpp, math.hpp, activation.hpp, state.hpp's identity):
// values on scalars and tensors, numpy broadcasting with static and dynamic dims, int and
// floating element types, and literals that adopt the other operand's element type.
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

TEST_CASE("+ - * / and unary minus on int32 literals, integer division truncating") {
  auto seven = tf::constant<7>();
  auto two = tf::constant<2>();
  auto minus_seven = -seven;
  auto sum = seven + two;
  auto diff = two - seven;
  auto prod = seven * two;
  auto quot = seven / two;
  auto neg_quot = minus_seven / two;
  tf::session sess(sum, diff, prod, quot, neg_quot);
  static_assert(std::is_same_v<decltype(sess.run(sum)), std::int32_t>);
  CHECK(sess.run(sum) == 9);
  CHECK(sess.run(diff) == -5);
  CHECK(sess.run(prod) == 14);
  CHECK(sess.run(quot) == 3);
  CHECK(sess.run(minus_seven) == -7);
  CHECK(sess.run(neg_quot) == -3);  // C++ and tf.truncatediv: toward zero
  CHECK(sess.run(tf::add(seven, two)) == 9);
  CHECK(sess.run(tf::subtract(seven, two)) == 5);
  CHECK(sess.run(tf::multiply(seven, two)) == 14);
  CHECK(sess.run(tf::divide(seven, two)) == 3);
  CHECK(sess.run(tf::negative(two)) == -2);
}

TEST_CASE("+ - * / on fed float and double scalars") {
  auto a = tf::placeholder<"a", float>();
  auto b = tf::placeholder<"b", float>();
  auto expr = (a + b) * (a - b) / b;
  tf::session sess(expr);
  static_assert(std::is_same_v<decltype(sess.run(expr, tf::feed(a, 1), tf::feed(b, 1))), float>);
  CHECK(sess.run(expr, tf::feed(a, 3.0f), tf::feed(b, 2.0f)) == doctest::Approx(2.5));
  CHECK(sess.run(expr, tf::feed(a, 1.0f), tf::feed(b, 4.0f)) == doctest::Approx(-3.75));

  auto c = tf::placeholder<"c", double>();
  auto half = c / tf::constant<2>();  // the literal 2 becomes 2.0
  tf::session sess_d(half);
  CHECK(sess_d.run(half, tf::feed(c, 1.0)) == 0.5);
}

TEST_CASE("+ - * / on static float tensors of equal shape") {
  auto a = tf::constant<"ew_a">(xt::xtensor_fixed<float, xt::xshape<2, 2>>{{1, 2}, {3, 4}});
  auto b = tf::constant<"ew_b">(xt::xtensor_fixed<float, xt::xshape<2, 2>>{{4, 3}, {2, 1}});
  tf::session sess(a + b, a - b, a * b, a / b, -a);
  static_assert(std::is_same_v<decltype(sess.run(a + b)), xt::xtensor_fixed<float, xt::xshape<2, 2>>>);
  check_values(sess.run(a + b), {2, 2}, {5, 5, 5, 5});
  check_values(sess.run(a - b), {2, 2}, {-3, -1, 1, 3});
  check_values(sess.run(a * b), {2, 2}, {4, 6, 6, 4});
  check_values(sess.run(a / b), {2, 2}, {0.25, 2.0 / 3.0, 1.5, 4});
  check_values(sess.run(-a), {2, 2}, {-1, -2, -3, -4});
}

TEST_CASE("integer tensors: + - * / with truncating division, and int64") {
  auto a = tf::constant<"ew_ia">(xt::xtensor_fixed<std::int32_t, xt::xshape<4>>{7, -7, 9, 0});
  auto b = tf::constant<"ew_ib">(xt::xtensor_fixed<std::int32_t, xt::xshape<4>>{2, 2, -4, 5});
  tf::session sess(a + b, a - b, a * b, a / b);
  check_values(sess.run(a + b), {4}, {9, -5, 5, 5});
  check_values(sess.run(a - b), {4}, {5, -9, 13, -5});
  check_values(sess.run(a * b), {4}, {14, -14, -36, 0});
  check_values(sess.run(a / b), {4}, {3, -3, -2, 0});

  auto big = tf::placeholder<"ew_big", std::int64_t, tf::shape<2>>();
  auto twice = big * tf::constant<2>();
  static_assert(std::is_same_v<tf::value_type_of<decltype(twice)>, std::int64_t>);
  tf::session sess64(twice);
  const xt::xtensor_fixed<std::int64_t, xt::xshape<2>> v{std::int64_t{1} << 40, -3};
  const auto r = sess64.run(twice, tf::feed(big, v));
  CHECK(r(0) == (std::int64_t{1} << 41));
  CHECK(r(1) == -6);
}

TEST_CASE("square, abs, relu on int32 and float tensors") {
  auto i = tf::constant<"ew_sq_i">(xt::xtensor_fixed<std::int32_t, xt::xshape<4>>{-3, -1, 0, 2});
  auto f = tf::constant<"ew_sq_f">(xt::xtensor_fixed<float, xt::xshape<4>>{-1.5f, -0.25f, 0, 2.5f});
  tf::session sess(tf::square(i), tf::abs(i), tf::relu(i), tf::square(f), tf::abs(f), tf::relu(f));
  static_assert(std::is_same_v<tf::value_type_of<decltype(tf::square(i))>, std::int32_t>);
  check_values(sess.run(tf::square(i)), {4}, {9, 1, 0, 4});
  check_values(sess.run(tf::abs(i)), {4}, {3, 1, 0, 2});
  check_values(sess.run(tf::relu(i)), {4}, {0, 0, 0, 2});
  check_values(sess.run(tf::square(f)), {4}, {2.25, 0.0625, 0, 6.25});
  check_values(sess.run(tf::abs(f)), {4}, {1.5, 0.25, 0, 2.5});
  check_values(sess.run(tf::relu(f)), {4}, {0, 0, 0, 2.5});
}

TEST_CASE("sqrt, exp, log on float and double") {
  auto f = tf::constant<"ew_math_f">(xt::xtensor_fixed<float, xt::xshape<3>>{1, 4, 9});
  auto d = tf::constant<"ew_math_d">(xt::xtensor_fixed<double, xt::xshape<3>>{0, 1, 2});
  tf::session sess(tf::sqrt(f), tf::log(f), tf::exp(d), tf::log(tf::exp(d)));
  check_values(sess.run(tf::sqrt(f)), {3}, {1, 2, 3});
  check_values(sess.run(tf::log(f)), {3}, {0, 1.3862943611198906, 2.1972245773362196});
  static_assert(std::is_same_v<decltype(sess.run(tf::exp(d))), xt::xtensor_fixed<double, xt::xshape<3>>>);
  check_values(sess.run(tf::exp(d)), {3}, {1, 2.718281828459045, 7.38905609893065}, 1e-12);
  check_values(sess.run(tf::log(tf::exp(d))), {3}, {0, 1, 2}, 1e-12);

  auto s = tf::placeholder<"ew_math_s", float>();
  tf::session sess_s(tf::sqrt(s));
  CHECK(sess_s.run(tf::sqrt(s), tf::feed(s, 2.25f)) == 1.5f);
}

TEST_CASE("tanh and sigmoid, sigmoid saturating without NaN for large |x|") {
  auto x = tf::constant<"ew_act">(xt::xtensor_fixed<float, xt::xshape<5>>{-1000, -1, 0, 1, 1000});
  tf::session sess(tf::tanh(x), tf::sigmoid(x));
  check_values(sess.run(tf::tanh(x)), {5}, {-1, -0.7615941559557649, 0, 0.7615941559557649, 1});
  const auto s = sess.run(tf::sigmoid(x));
  check_values(s, {5}, {0, 0.2689414213699951, 0.5, 0.7310585786300049, 1});
  for (float v : s) CHECK_FALSE(std::isnan(v));

  auto d = tf::placeholder<"ew_act_d", double>();
  tf::session sess_d(tf::sigmoid(d));
  CHECK(sess_d.run(tf::sigmoid(d), tf::feed(d, 2.0)) == doctest::Approx(0.8807970779778823).epsilon(1e-14));
}

TEST_CASE("maximum and minimum, with broadcasting, on int and float") {
  auto a = tf::constant<"ew_max_a">(xt::xtensor_fixed<std::int32_t, xt::xshape<2, 3>>{{1, 5, 3}, {-4, 0, 8}});
  auto b = tf::constant<"ew_max_b">(xt::xtensor_fixed<std::int32_t, xt::xshape<3>>{2, 2, 2});
  tf::session sess(tf::maximum(a, b), tf::minimum(a, b));
  check_values(sess.run(tf::maximum(a, b)), {2, 3}, {2, 5, 3, 2, 2, 8});
  check_values(sess.run(tf::minimum(a, b)), {2, 3}, {1, 2, 2, -4, 0, 2});

  auto x = tf::placeholder<"ew_max_x", float, tf::shape<dyn>>();
  auto clipped = tf::minimum(tf::maximum(x, tf::constant<0>()), tf::constant<6>());  // relu6
  tf::session sess_x(clipped);
  const xt::xtensor<float, 1> v{-2.f, 3.5f, 7.f};
  check_values(sess_x.run(clipped, tf::feed(x, v)), {3}, {0, 3.5, 6});
}

TEST_CASE("identity forwards the value") {
  auto x = tf::placeholder<"ew_id", std::int32_t, tf::shape<2>>();
  auto y = tf::identity(x);
  static_assert(std::is_same_v<tf::shape_of<decltype(y)>, tf::shape<2>>);
  tf::session sess(y);
  const xt::xtensor_fixed<std::int32_t, xt::xshape<2>> v{4, -4};
  check_values(sess.run(y, tf::feed(x, v)), {2}, {4, -4});
}

TEST_CASE("broadcasting [dyn, 3] + [3]: the row is added to every fed row") {
  auto x = tf::placeholder<"bc_x", float, tf::shape<dyn, 3>>();
  auto row = tf::constant<"bc_row">(xt::xtensor_fixed<float, xt::xshape<3>>{10, 20, 30});
  auto y = x + row;
  static_assert(std::is_same_v<tf::shape_of<decltype(y)>, tf::shape<dyn, 3>>);
  tf::session sess(y);
  static_assert(std::is_same_v<decltype(sess.run(y, tf::feed(x, xt::xtensor<float, 2>{}))), xt::xtensor<float, 2>>);
  const xt::xtensor<float, 2> two_rows{{1, 2, 3}, {4, 5, 6}};
  check_values(sess.run(y, tf::feed(x, two_rows)), {2, 3}, {11, 22, 33, 14, 25, 36});
  // The same plan with another number of rows (buffers are resized, not reused blindly).
  const xt::xtensor<float, 2> three_rows{{0, 0, 0}, {1, 1, 1}, {-1, -2, -3}};
  check_values(sess.run(y, tf::feed(x, three_rows)), {3, 3}, {10, 20, 30, 11, 21, 31, 9, 18, 27});
  const xt::xtensor<float, 2> no_rows = xt::zeros<float>({0, 3});
  CHECK(ops_testing::shape_vector(sess.run(y, tf::feed(x, no_rows))) == std::vector<std::size_t>{0, 3});
}

TEST_CASE("broadcasting [2, 1] * [1, 3] is an outer product of shape [2, 3]") {
  auto col = tf::constant<"bc_col">(xt::xtensor_fixed<std::int32_t, xt::xshape<2, 1>>{{2}, {3}});
  auto row = tf::constant<"bc_row_i">(xt::xtensor_fixed<std::int32_t, xt::xshape<1, 3>>{{1, 10, 100}});
  auto outer = col * row;
  static_assert(std::is_same_v<tf::shape_of<decltype(outer)>, tf::shape<2, 3>>);
  tf::session sess(outer);
  check_values(sess.run(outer), {2, 3}, {2, 20, 200, 3, 30, 300});
  check_values(sess.run(row * col), {2, 3}, {2, 20, 200, 3, 30, 300});
}

TEST_CASE("broadcasting with dynamic dims on both sides: [dyn, 1] - [1, dyn]") {
  auto a = tf::placeholder<"bc_a", double, tf::shape<dyn, 1>>();
  auto b = tf::placeholder<"bc_b", double, tf::shape<1, dyn>>();
  auto d = a - b;
  static_assert(std::is_same_v<tf::shape_of<decltype(d)>, tf::shape<dyn, dyn>>);
  tf::session sess(d);
  const xt::xtensor<double, 2> va{{1}, {2}, {3}};
  const xt::xtensor<double, 2> vb{{0.5, 1.5}};
  check_values(sess.run(d, tf::feed(a, va), tf::feed(b, vb)), {3, 2}, {0.5, -0.5, 1.5, 0.5, 2.5, 1.5});
}

TEST_CASE("broadcasting a scalar, and a lower rank against a higher one: [3] + [2, 1]") {
  auto s = tf::placeholder<"bc_s", float>();
  auto v = tf::constant<"bc_v">(xt::xtensor_fixed<float, xt::xshape<3>>{1, 2, 3});
  auto c = tf::constant<"bc_c">(xt::xtensor_fixed<float, xt::xshape<2, 1>>{{0}, {10}});
  auto scaled = s * v;
  auto grid = v + c;
  static_assert(std::is_same_v<tf::shape_of<decltype(grid)>, tf::shape<2, 3>>);
  tf::session sess(scaled, grid);
  check_values(sess.run(scaled, tf::feed(s, 2.0f)), {3}, {2, 4, 6});
  check_values(sess.run(grid), {2, 3}, {1, 2, 3, 11, 12, 13});
}

TEST_CASE("a fused chain, a shared subexpression and several fetches give the same values") {
  auto x = tf::placeholder<"fuse_x", float, tf::shape<dyn, 2>>();
  auto sq = x * x;                          // needed twice: materialized once
  auto y = tf::relu(sq - tf::constant<2>()) + sq;  // an elementwise chain around it
  tf::session sess(y);
  const xt::xtensor<float, 2> v{{1, 2}, {-3, 0.5f}};
  check_values(sess.run(y, tf::feed(x, v)), {2, 2}, {1, 6, 16, 0.25});
  auto [s, r] = sess.run(tf::fetch(sq, y), tf::feed(x, v));
  check_values(s, {2, 2}, {1, 4, 9, 0.25});
  check_values(r, {2, 2}, {1, 6, 16, 0.25});
}

TEST_CASE("a literal adopts the other operand's element type") {
  auto f = tf::placeholder<"lit_f", float, tf::shape<2>>();
  auto times_two = f * tf::constant<2>();            // int literal, float node
  auto plus_half = tf::constant<0.5>() + f;          // double literal, float node
  static_assert(std::is_same_v<tf::value_type_of<decltype(times_two)>, float>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(plus_half)>, float>);
  tf::session sess(times_two, plus_half);
  const xt::xtensor_fixed<float, xt::xshape<2>> v{1.25f, -3};
  check_values(sess.run(times_two, tf::feed(f, v)), {2}, {2.5, -6});
  check_values(sess.run(plus_half, tf::feed(f, v)), {2}, {1.75, -2.5});

  auto i = tf::placeholder<"lit_i", std::int64_t>();
  auto inc = i + tf::constant<1>();
  static_assert(std::is_same_v<tf::value_type_of<decltype(inc)>, std::int64_t>);
  tf::session sess_i(inc);
  CHECK(sess_i.run(inc, tf::feed(i, std::int64_t{41})) == 42);

  // Between two literals nothing adapts: constant<2.0>() is double, constant<0.5, float>() float.
  auto third = tf::constant<1.0>() / tf::constant<3.0>();
  static_assert(std::is_same_v<tf::value_type_of<decltype(third)>, double>);
  auto f_half = tf::constant<0.5, float>() * tf::constant<3.0f>();
  static_assert(std::is_same_v<tf::value_type_of<decltype(f_half)>, float>);
  tf::session sess_l(third, f_half);
  CHECK(sess_l.run(third) == doctest::Approx(1.0 / 3.0).epsilon(1e-15));
  CHECK(sess_l.run(f_half) == 1.5f);
}

// DESIGN rule 4: dynamic dims are checked when values are fed, with a typeflow error.
// Regression: incompatible fed shapes used to escape as xt::broadcast_error.
TEST_CASE("incompatible fed shapes in an elementwise op throw invalid_argument_error") {
  auto x = tf::placeholder<"bc_bad_x", float, tf::shape<dyn, 3>>();
  auto y = tf::placeholder<"bc_bad_y", float, tf::shape<dyn, 3>>();
  tf::session sess(x + y);
  const xt::xtensor<float, 2> two = xt::ones<float>({2, 3});
  const xt::xtensor<float, 2> four = xt::ones<float>({4, 3});
  CHECK_THROWS_AS(sess.run(x + y, tf::feed(x, two), tf::feed(y, four)), tf::invalid_argument_error);
  CHECK_THROWS_WITH(sess.run(x + y, tf::feed(x, two), tf::feed(y, four)),
                    doctest::Contains("Incompatible shapes"));

  auto p = tf::placeholder<"bc_bad_p", float, tf::shape<dyn>>();
  auto c = tf::constant<"bc_bad_c">(xt::xtensor_fixed<float, xt::xshape<3>>{1, 2, 3});
  tf::session sess_c(p + c);
  const xt::xtensor<float, 1> v{1, 2};
  CHECK_THROWS_AS(sess_c.run(p + c, tf::feed(p, v)), tf::invalid_argument_error);
}

// Regression: xtensor 0.24.3 miscomputes a broadcasting xfunction over fixed-size
// containers (here [2, 3] + [3]) nested in another xfunction whose other operands are not
// scalars (-(x + b), (x + b) * x); when the session fused such static chains into xtensor
// expressions, every row but the first came out wrong.
TEST_CASE("a fused chain over static shapes that broadcast: -(x + b), relu(x - b) + x") {
  auto x = tf::placeholder<"fuse_bc_x", float, tf::shape<2, 3>>();
  auto b = tf::constant<"fuse_bc_b">(xt::xtensor_fixed<float, xt::xshape<3>>{10, 20, 30});
  auto neg = -(x + b);
  auto shifted = tf::relu(x - b) + x;
  auto prod = (x + b) * x;
  tf::session sess(neg, shifted, prod);
  const xt::xtensor_fixed<float, xt::xshape<2, 3>> v{{1, 2, 3}, {4, 5, 6}};
  check_values(sess.run(neg, tf::feed(x, v)), {2, 3}, {-11, -22, -33, -14, -25, -36});
  check_values(sess.run(shifted, tf::feed(x, v)), {2, 3}, {1, 2, 3, 4, 5, 6});
  check_values(sess.run(prod, tf::feed(x, v)), {2, 3}, {11, 44, 99, 56, 125, 216});
}

TEST_CASE("the same chains with a dynamic batch are right") {
  auto x = tf::placeholder<"fuse_bc_dx", float, tf::shape<dyn, 3>>();
  auto b = tf::constant<"fuse_bc_db">(xt::xtensor_fixed<float, xt::xshape<3>>{10, 20, 30});
  auto neg = -(x + b);
  auto shifted = tf::relu(x - b) + x;
  auto prod = (x + b) * x;
  tf::session sess(neg, shifted, prod);
  const xt::xtensor<float, 2> v{{1, 2, 3}, {4, 5, 6}};
  check_values(sess.run(neg, tf::feed(x, v)), {2, 3}, {-11, -22, -33, -14, -25, -36});
  check_values(sess.run(shifted, tf::feed(x, v)), {2, 3}, {1, 2, 3, 4, 5, 6});
  check_values(sess.run(prod, tf::feed(x, v)), {2, 3}, {11, 44, 99, 56, 125, 216});
}

TEST_CASE("fused static trees mixing a bias row, a column, a scalar and an outer product") {
  // Each expression is checked element by element against the same formula on plain
  // numbers, with x[i][j] = 3i + j - 2, b = [10, -20, 30], c = [[1], [-2]], s = 0.5.
  auto x = tf::placeholder<"fuse_mix_x", float, tf::shape<2, 3>>();
  auto s = tf::placeholder<"fuse_mix_s", float>();
  auto b = tf::constant<"fuse_mix_b">(xt::xtensor_fixed<float, xt::xshape<3>>{10, -20, 30});
  auto c = tf::constant<"fuse_mix_c">(xt::xtensor_fixed<float, xt::xshape<2, 1>>{{1}, {-2}});
  auto e1 = tf::relu(x * s + b) - c;
  auto e2 = (c + b) * x;                          // an outer product inside a product
  auto e3 = tf::maximum(x - b, -c) / (s + tf::constant<1>());
  auto e4 = tf::cast<float>(x > b * s) * x + c * c;
  tf::session sess(e1, e2, e3, e4);
  xt::xtensor_fixed<float, xt::xshape<2, 3>> v{};
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j) v(i, j) = static_cast<float>(3 * i + j) - 2.0f;
  const float vs = 0.5f;
  const float vb[3] = {10, -20, 30};
  const float vc[2] = {1, -2};
  auto [r1, r2, r3, r4] = sess.run(tf::fetch(e1, e2, e3, e4), tf::feed(x, v), tf::feed(s, vs));
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j) {
      CAPTURE(i);
      CAPTURE(j);
      const float xv = v(i, j);
      CHECK(r1(i, j) == doctest::Approx(std::max(xv * vs + vb[j], 0.0f) - vc[i]));
      CHECK(r2(i, j) == doctest::Approx((vc[i] + vb[j]) * xv));
      CHECK(r3(i, j) == doctest::Approx(std::max(xv - vb[j], -vc[i]) / (vs + 1)));
      CHECK(r4(i, j) == doctest::Approx((xv > vb[j] * vs ? xv : 0.0f) + vc[i] * vc[i]));
    }
  // Fetched one at a time, each tree is fused differently: the same values.
  const auto a1 = sess.run(e1, tf::feed(x, v), tf::feed(s, vs));
  const auto a2 = sess.run(e2, tf::feed(x, v), tf::feed(s, vs));
  const auto a3 = sess.run(e3, tf::feed(x, v), tf::feed(s, vs));
  const auto a4 = sess.run(e4, tf::feed(x, v), tf::feed(s, vs));
  CHECK(a1 == r1);
  CHECK(a2 == r2);
  CHECK(a3 == r3);
  CHECK(a4 == r4);
}

TEST_CASE("fused static rank-3 trees: [2, 2, 3] with [3], [2, 1, 1] and [2, 3]") {
  auto x = tf::placeholder<"fuse_r3_x", std::int32_t, tf::shape<2, 2, 3>>();
  auto row = tf::constant<"fuse_r3_row">(xt::xtensor_fixed<std::int32_t, xt::xshape<3>>{1, 2, 3});
  auto per_batch = tf::constant<"fuse_r3_batch">(xt::xtensor_fixed<std::int32_t, xt::xshape<2, 1, 1>>{{{100}}, {{200}}});
  auto mat = tf::constant<"fuse_r3_mat">(xt::xtensor_fixed<std::int32_t, xt::xshape<2, 3>>{{0, 1, 0}, {1, 0, 1}});
  auto y = -((x + row) * mat + per_batch);
  static_assert(std::is_same_v<tf::shape_of<decltype(y)>, tf::shape<2, 2, 3>>);
  tf::session sess(y);
  xt::xtensor_fixed<std::int32_t, xt::xshape<2, 2, 3>> v{};
  for (std::size_t i = 0; i < 12; ++i) v.flat(i) = static_cast<std::int32_t>(i);
  const int r[3] = {1, 2, 3};
  const int m[2][3] = {{0, 1, 0}, {1, 0, 1}};
  const int p[2] = {100, 200};
  const auto out = sess.run(y, tf::feed(x, v));
  for (std::size_t a = 0; a < 2; ++a)
    for (std::size_t i = 0; i < 2; ++i)
      for (std::size_t j = 0; j < 3; ++j) {
        CAPTURE(a);
        CAPTURE(i);
        CAPTURE(j);
        CHECK(out(a, i, j) == -((v(a, i, j) + r[j]) * m[i][j] + p[a]));
      }
}

TEST_CASE("float tanh and sigmoid: TensorFlow's CPU approximation, within 4e-7 of the exact values") {
  // Over [-20, 20] in steps of 1e-3, through a session (the flat loop) and the functor.
  constexpr std::size_t n = 40001;
  auto x = tf::placeholder<"x", float, tf::shape<n>>();
  auto t = tf::tanh(x);
  auto s = tf::sigmoid(x);
  tf::session sess(t, s);
  xt::xtensor_fixed<float, xt::xshape<n>> xv;
  for (std::size_t i = 0; i < n; ++i) xv(i) = -20.0f + 1e-3f * static_cast<float>(i);
  const auto [tv, sv] = sess.run(tf::fetch(t, s), tf::feed(x, xv));
  double worst_tanh = 0, worst_sigmoid = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double a = xv(i);
    worst_tanh = std::max(worst_tanh, std::abs(double(tv(i)) - std::tanh(a)));
    worst_sigmoid = std::max(worst_sigmoid, std::abs(double(sv(i)) - 1.0 / (1.0 + std::exp(-a))));
    CHECK(std::abs(tv(i)) <= 1.0f);
    CHECK((sv(i) >= 0.0f && sv(i) <= 1.0f));
  }
  CHECK(worst_tanh < 4e-7);
  CHECK(worst_sigmoid < 4e-7);
  // Odd, exact at 0 and for tiny inputs, saturating, NaN through.
  const tf::fn::tanh tanh_fn;
  CHECK(tanh_fn(0.0f) == 0.0f);
  CHECK(tanh_fn(1e-5f) == 1e-5f);
  CHECK(tanh_fn(-0.75f) == -tanh_fn(0.75f));
  CHECK(std::abs(tanh_fn(1e30f) - 1.0f) < 4e-7f);  // saturated, within the bound above
  CHECK(std::isnan(tanh_fn(std::numeric_limits<float>::quiet_NaN())));
  CHECK(std::isnan(tf::fn::sigmoid{}(std::numeric_limits<float>::quiet_NaN())));
  // double keeps the exact libm functions (the finite-difference tests run in double).
  CHECK(tanh_fn(0.5) == std::tanh(0.5));
}
