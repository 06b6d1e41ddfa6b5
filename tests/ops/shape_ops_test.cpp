// tf.transpose (ops/transpose.hpp) and tf.reshape (ops/reshape.hpp): default and explicit
// permutations, static and dynamic dims, an inferred dimension (tf.reshape's -1) known at
// compile time or at run time, and the run-time error of an impossible dynamic reshape.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "ops_testing.hpp"

namespace tf = typeflow;
using ops_testing::check_values;
using tf::dyn;

TEST_CASE("transpose() of a matrix swaps its dims") {
  auto x = tf::constant<"sh_t2">(xt::xtensor_fixed<float, xt::xshape<2, 3>>{{1, 2, 3}, {4, 5, 6}});
  auto t = tf::transpose(x);
  static_assert(std::is_same_v<tf::shape_of<decltype(t)>, tf::shape<3, 2>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(t)>, float>);
  tf::session sess(t);
  check_values(sess.run(t), {3, 2}, {1, 4, 2, 5, 3, 6});
  check_values(sess.run(tf::transpose(t)), {2, 3}, {1, 2, 3, 4, 5, 6});
  // transpose() is transpose<1, 0>() on rank 2: the same node.
  static_assert(std::is_same_v<decltype(t), decltype(tf::transpose<1, 0>(x))>);
}

TEST_CASE("transpose() reverses every dim of a rank-3 tensor; transpose<1, 0, 2> permutes") {
  xt::xtensor_fixed<std::int32_t, xt::xshape<2, 3, 4>> v{};
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      for (std::size_t k = 0; k < 4; ++k) v(i, j, k) = static_cast<std::int32_t>(100 * i + 10 * j + k);
  auto x = tf::constant<"sh_t3">(v);
  auto rev = tf::transpose(x);
  auto p102 = tf::transpose<1, 0, 2>(x);
  auto p201 = tf::transpose<2, 0, 1>(x);
  static_assert(std::is_same_v<tf::shape_of<decltype(rev)>, tf::shape<4, 3, 2>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(p102)>, tf::shape<3, 2, 4>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(p201)>, tf::shape<4, 2, 3>>);
  tf::session sess(rev, p102, p201);
  const auto r = sess.run(rev);
  const auto p = sess.run(p102);
  const auto q = sess.run(p201);
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      for (std::size_t k = 0; k < 4; ++k) {
        const auto want = static_cast<std::int32_t>(100 * i + 10 * j + k);
        CHECK(r(k, j, i) == want);
        CHECK(p(j, i, k) == want);
        CHECK(q(k, i, j) == want);
      }
  check_values(sess.run(tf::transpose<0, 1, 2>(x)), {2, 3, 4},
               {0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23, 100, 101, 102, 103, 110, 111, 112, 113, 120, 121, 122, 123});
}

TEST_CASE("transpose of dynamic dims, and of a rank-1 tensor") {
  auto x = tf::placeholder<"sh_tdyn", double, tf::shape<dyn, 3>>();
  auto t = tf::transpose(x);
  static_assert(std::is_same_v<tf::shape_of<decltype(t)>, tf::shape<3, dyn>>);
  tf::session sess(t);
  const xt::xtensor<double, 2> v{{1, 2, 3}, {4, 5, 6}};
  check_values(sess.run(t, tf::feed(x, v)), {3, 2}, {1, 4, 2, 5, 3, 6});
  const xt::xtensor<double, 2> one_row{{7, 8, 9}};
  check_values(sess.run(t, tf::feed(x, one_row)), {3, 1}, {7, 8, 9});

  auto b = tf::placeholder<"sh_tdyn3", float, tf::shape<dyn, 2, dyn>>();
  auto bt = tf::transpose<0, 2, 1>(b);
  static_assert(std::is_same_v<tf::shape_of<decltype(bt)>, tf::shape<dyn, dyn, 2>>);
  tf::session sess_b(bt);
  const xt::xtensor<float, 3> vb{{{1, 2, 3}, {4, 5, 6}}};  // [1, 2, 3]
  check_values(sess_b.run(bt, tf::feed(b, vb)), {1, 3, 2}, {1, 4, 2, 5, 3, 6});

  auto v1 = tf::constant<"sh_t1">(xt::xtensor_fixed<float, xt::xshape<3>>{1, 2, 3});
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::transpose(v1))>, tf::shape<3>>);
  tf::session sess_1(tf::transpose(v1));
  check_values(sess_1.run(tf::transpose(v1)), {3}, {1, 2, 3});
}

TEST_CASE("reshape of a static tensor: fully given, and with the dim inferred at compile time") {
  xt::xtensor_fixed<float, xt::xshape<2, 6>> v{};
  for (std::size_t i = 0; i < 12; ++i) v.flat(i) = static_cast<float>(i);
  auto x = tf::constant<"sh_rs">(v);
  auto flat = tf::reshape<tf::shape<12>>(x);
  auto rows = tf::reshape<tf::shape<dyn, 4>>(x);    // -1 inferred: 3
  auto cols = tf::reshape<tf::shape<6, dyn>>(x);    // 2
  auto cube = tf::reshape<tf::shape<2, dyn, 3>>(x);  // 2
  auto one = tf::reshape<tf::shape<dyn>>(x);        // 12
  static_assert(std::is_same_v<tf::shape_of<decltype(flat)>, tf::shape<12>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(rows)>, tf::shape<3, 4>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(cols)>, tf::shape<6, 2>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(cube)>, tf::shape<2, 2, 3>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(one)>, tf::shape<12>>);
  tf::session sess(flat, rows, cols, cube, one);
  static_assert(std::is_same_v<decltype(sess.run(rows)), xt::xtensor_fixed<float, xt::xshape<3, 4>>>);
  check_values(sess.run(flat), {12}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  check_values(sess.run(rows), {3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  check_values(sess.run(cols), {6, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  check_values(sess.run(cube), {2, 2, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  const auto c = sess.run(cube);
  CHECK(c(1, 0, 2) == 8.0f);
  // reshape and transpose together: rows of the transposed reshape are the columns.
  check_values(sess.run(tf::transpose(tf::reshape<tf::shape<dyn, 6>>(x))), {6, 2},
               {0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11});
}

TEST_CASE("reshape between a scalar and one-element tensors") {
  auto s = tf::placeholder<"sh_rs_s", std::int32_t>();
  auto m = tf::reshape<tf::shape<1, 1>>(s);
  static_assert(std::is_same_v<tf::shape_of<decltype(m)>, tf::shape<1, 1>>);
  tf::session sess(m);
  check_values(sess.run(m, tf::feed(s, 5)), {1, 1}, {5});

  auto one = tf::constant<"sh_rs_one">(xt::xtensor_fixed<double, xt::xshape<1>>{2.5});
  auto back = tf::reshape<tf::scalar>(one);
  tf::session sess_b(back);
  static_assert(std::is_same_v<decltype(sess_b.run(back)), double>);
  CHECK(sess_b.run(back) == 2.5);
}

TEST_CASE("reshape of a dynamic input: the inferred dim is computed when the value is fed") {
  auto x = tf::placeholder<"sh_rd", float, tf::shape<dyn, 4>>();
  auto pairs = tf::reshape<tf::shape<dyn, 2>>(x);
  auto wide = tf::reshape<tf::shape<2, dyn>>(x);
  auto flat = tf::reshape<tf::shape<dyn>>(x);
  static_assert(std::is_same_v<tf::shape_of<decltype(pairs)>, tf::shape<dyn, 2>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(wide)>, tf::shape<2, dyn>>);
  tf::session sess(pairs, wide, flat);
  static_assert(std::is_same_v<decltype(sess.run(pairs, tf::feed(x, xt::xtensor<float, 2>{}))), xt::xtensor<float, 2>>);

  const xt::xtensor<float, 2> two{{1, 2, 3, 4}, {5, 6, 7, 8}};
  check_values(sess.run(pairs, tf::feed(x, two)), {4, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  check_values(sess.run(wide, tf::feed(x, two)), {2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  check_values(sess.run(flat, tf::feed(x, two)), {8}, {1, 2, 3, 4, 5, 6, 7, 8});
  const xt::xtensor<float, 2> four = xt::ones<float>({4, 4});
  CHECK(ops_testing::shape_vector(sess.run(pairs, tf::feed(x, four))) == std::vector<std::size_t>{8, 2});
  CHECK(ops_testing::shape_vector(sess.run(wide, tf::feed(x, four))) == std::vector<std::size_t>{2, 8});

  // A dynamic input reshaped to a fully static shape, fed a value of the right size.
  auto fixed = tf::reshape<tf::shape<2, 2, 2>>(x);
  static_assert(std::is_same_v<tf::shape_of<decltype(fixed)>, tf::shape<2, 2, 2>>);
  tf::session sess_f(fixed);
  check_values(sess_f.run(fixed, tf::feed(x, two)), {2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
}

TEST_CASE("an impossible dynamic reshape throws invalid_argument_error naming the shape") {
  auto x = tf::placeholder<"sh_rbad", float, tf::shape<dyn, 3>>();
  auto pairs = tf::reshape<tf::shape<dyn, 2>>(x);
  auto wide = tf::reshape<tf::shape<4, dyn>>(x);
  tf::session sess(pairs, wide);
  const xt::xtensor<float, 2> three = xt::ones<float>({3, 3});  // 9 values
  CHECK_THROWS_AS(sess.run(pairs, tf::feed(x, three)), tf::invalid_argument_error);
  CHECK_THROWS_AS(sess.run(wide, tf::feed(x, three)), tf::invalid_argument_error);
  try {
    sess.run(pairs, tf::feed(x, three));
  } catch (const tf::invalid_argument_error& e) {
    const std::string what = e.what();
    CHECK(what.find("9 values") != std::string::npos);
    CHECK(what.find("[?, 2]") != std::string::npos);
  }
  // 4 rows (12 values) fit both.
  const xt::xtensor<float, 2> four = xt::ones<float>({4, 3});
  CHECK(ops_testing::shape_vector(sess.run(pairs, tf::feed(x, four))) == std::vector<std::size_t>{6, 2});
  CHECK(ops_testing::shape_vector(sess.run(wide, tf::feed(x, four))) == std::vector<std::size_t>{4, 3});
}

// Regression: a dynamic input reshaped to a fully static shape was not checked at run
// time, so 4 values fed for [2, 4] left half the buffer stale, and 12 values overflowed
// it (std::copy past the end of the fixed buffer).
TEST_CASE("a dynamic input of the wrong size reshaped to a static shape throws") {
  auto x = tf::placeholder<"sh_rstatic_bad", float, tf::shape<dyn, 4>>();
  auto fixed = tf::reshape<tf::shape<2, 4>>(x);
  tf::session sess(fixed);
  const xt::xtensor<float, 2> one_row = xt::ones<float>({1, 4});
  CHECK_THROWS_AS(sess.run(fixed, tf::feed(x, one_row)), tf::invalid_argument_error);
  CHECK_THROWS_WITH(sess.run(fixed, tf::feed(x, one_row)), doctest::Contains("4 values"));
  const xt::xtensor<float, 2> three_rows = xt::ones<float>({3, 4});  // would overflow the buffer
  CHECK_THROWS_AS(sess.run(fixed, tf::feed(x, three_rows)), tf::invalid_argument_error);
  const xt::xtensor<float, 2> two_rows = xt::ones<float>({2, 4});
  CHECK(ops_testing::shape_vector(sess.run(fixed, tf::feed(x, two_rows))) == std::vector<std::size_t>{2, 4});
  auto to_scalar = tf::reshape<tf::scalar>(x);
  tf::session sess_s(to_scalar);
  CHECK_THROWS_AS(sess_s.run(to_scalar, tf::feed(x, one_row)), tf::invalid_argument_error);
}
