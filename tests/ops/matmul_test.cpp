// tf.matmul (ops/matmul.hpp): 2-D products through BLAS (float, double) and loops (int32,
// int64), transpose flags, batched rank-3 products with static and dynamic batch dims,
// and the run-time check of inner dims that are dynamic.
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

// A = [[1, 2, 3], [4, 5, 6]], B = [[7, 8], [9, 10], [11, 12]]: A B = [[58, 64], [139, 154]].
template <class T>
using m23 = xt::xtensor_fixed<T, xt::xshape<2, 3>>;
template <class T>
using m32 = xt::xtensor_fixed<T, xt::xshape<3, 2>>;

TEST_CASE("2-D float matmul [2, 3] x [3, 2]") {
  auto a = tf::constant<"mm_fa">(m23<float>{{1, 2, 3}, {4, 5, 6}});
  auto b = tf::constant<"mm_fb">(m32<float>{{7, 8}, {9, 10}, {11, 12}});
  auto ab = tf::matmul(a, b);
  auto ba = tf::matmul(b, a);
  static_assert(std::is_same_v<tf::shape_of<decltype(ab)>, tf::shape<2, 2>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(ba)>, tf::shape<3, 3>>);
  tf::session sess(ab, ba);
  static_assert(std::is_same_v<decltype(sess.run(ab)), xt::xtensor_fixed<float, xt::xshape<2, 2>>>);
  check_values(sess.run(ab), {2, 2}, {58, 64, 139, 154});
  check_values(sess.run(ba), {3, 3}, {39, 54, 69, 49, 68, 87, 59, 82, 105});
}

TEST_CASE("2-D double matmul, fed, with a dynamic number of rows") {
  auto x = tf::placeholder<"mm_dx", double, tf::shape<dyn, 3>>();
  auto w = tf::constant<"mm_dw">(m32<double>{{7, 8}, {9, 10}, {11, 12}});
  auto y = tf::matmul(x, w);
  static_assert(std::is_same_v<tf::shape_of<decltype(y)>, tf::shape<dyn, 2>>);
  tf::session sess(y);
  static_assert(std::is_same_v<decltype(sess.run(y, tf::feed(x, xt::xtensor<double, 2>{}))), xt::xtensor<double, 2>>);
  const xt::xtensor<double, 2> three{{1, 2, 3}, {4, 5, 6}, {0.5, 0, -1}};
  check_values(sess.run(y, tf::feed(x, three)), {3, 2}, {58, 64, 139, 154, -7.5, -8}, 1e-12);
  const xt::xtensor<double, 2> one{{1, 0, 0}};
  check_values(sess.run(y, tf::feed(x, one)), {1, 2}, {7, 8});
  const xt::xtensor<double, 2> none = xt::zeros<double>({0, 3});
  CHECK(ops_testing::shape_vector(sess.run(y, tf::feed(x, none))) == std::vector<std::size_t>{0, 2});
}

TEST_CASE("2-D int32 and int64 matmul (loops, no BLAS)") {
  auto a = tf::constant<"mm_ia">(m23<std::int32_t>{{1, 2, 3}, {4, 5, 6}});
  auto b = tf::constant<"mm_ib">(m32<std::int32_t>{{7, 8}, {9, 10}, {11, 12}});
  tf::session sess(tf::matmul(a, b));
  static_assert(std::is_same_v<decltype(sess.run(tf::matmul(a, b))),
                               xt::xtensor_fixed<std::int32_t, xt::xshape<2, 2>>>);
  check_values(sess.run(tf::matmul(a, b)), {2, 2}, {58, 64, 139, 154});

  auto x = tf::placeholder<"mm_lx", std::int64_t, tf::shape<dyn, dyn>>();
  auto y = tf::placeholder<"mm_ly", std::int64_t, tf::shape<dyn, dyn>>();
  auto xy = tf::matmul(x, y);
  tf::session sess64(xy);
  const xt::xtensor<std::int64_t, 2> vx{{1 << 20, 1}, {-2, 3}};
  const xt::xtensor<std::int64_t, 2> vy{{1 << 20, 0, 1}, {5, -1, 2}};
  const auto r = sess64.run(xy, tf::feed(x, vx), tf::feed(y, vy));
  REQUIRE(ops_testing::shape_vector(r) == std::vector<std::size_t>{2, 3});
  CHECK(r(0, 0) == (std::int64_t{1} << 40) + 5);  // beyond int32
  CHECK(r(0, 1) == -1);
  CHECK(r(0, 2) == (1 << 20) + 2);
  CHECK(r(1, 0) == -(std::int64_t{2} << 20) + 15);
  CHECK(r(1, 1) == -3);
  CHECK(r(1, 2) == 4);
}

TEST_CASE("transpose flags: every combination gives A B, for float and int32") {
  // At = transpose(A) is [3, 2], Bt = transpose(B) is [2, 3].
  auto a = tf::constant<"mm_ta">(m23<float>{{1, 2, 3}, {4, 5, 6}});
  auto at = tf::constant<"mm_tat">(m32<float>{{1, 4}, {2, 5}, {3, 6}});
  auto b = tf::constant<"mm_tb">(m32<float>{{7, 8}, {9, 10}, {11, 12}});
  auto bt = tf::constant<"mm_tbt">(m23<float>{{7, 9, 11}, {8, 10, 12}});
  auto tn = tf::matmul<true, false>(at, b);
  auto nt = tf::matmul<false, true>(a, bt);
  auto tt = tf::matmul<true, true>(at, bt);
  static_assert(std::is_same_v<tf::shape_of<decltype(tn)>, tf::shape<2, 2>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(nt)>, tf::shape<2, 2>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(tt)>, tf::shape<2, 2>>);
  tf::session sess(tn, nt, tt);
  check_values(sess.run(tn), {2, 2}, {58, 64, 139, 154});
  check_values(sess.run(nt), {2, 2}, {58, 64, 139, 154});
  check_values(sess.run(tt), {2, 2}, {58, 64, 139, 154});
  // B^T A^T = (A B)^T, with both flags on the other operands.
  check_values(sess.run(tf::matmul<true, true>(b, a)), {2, 2}, {58, 139, 64, 154});

  auto ia = tf::constant<"mm_tia">(m32<std::int32_t>{{1, 4}, {2, 5}, {3, 6}});
  auto ib = tf::constant<"mm_tib">(m23<std::int32_t>{{7, 9, 11}, {8, 10, 12}});
  tf::session sess_i(tf::matmul<true, true>(ia, ib), tf::matmul<true, false>(ia, ia),
                     tf::matmul<false, true>(ib, ib));
  check_values(sess_i.run(tf::matmul<true, true>(ia, ib)), {2, 2}, {58, 64, 139, 154});
  check_values(sess_i.run(tf::matmul<true, false>(ia, ia)), {2, 2}, {14, 32, 32, 77});  // At^T At = A A^T
  check_values(sess_i.run(tf::matmul<false, true>(ib, ib)), {2, 2}, {251, 278, 278, 308});
}

TEST_CASE("a transpose flag equals a transpose op, also with dynamic dims") {
  auto x = tf::placeholder<"mm_eq_x", float, tf::shape<dyn, 3>>();
  auto y = tf::placeholder<"mm_eq_y", float, tf::shape<dyn, 3>>();
  auto flagged = tf::matmul<false, true>(x, y);  // x y^T: [dyn, dyn]
  auto explicit_t = tf::matmul(x, tf::transpose(y));
  static_assert(std::is_same_v<tf::shape_of<decltype(flagged)>, tf::shape<dyn, dyn>>);
  tf::session sess(flagged, explicit_t);
  const xt::xtensor<float, 2> vx{{1, 2, 3}, {4, 5, 6}};
  const xt::xtensor<float, 2> vy{{1, 0, 0}, {0, 1, 0}, {1, 1, 1}};
  auto [f, e] = sess.run(tf::fetch(flagged, explicit_t), tf::feed(x, vx), tf::feed(y, vy));
  check_values(f, {2, 3}, {1, 2, 6, 4, 5, 15});
  check_values(e, {2, 3}, {1, 2, 6, 4, 5, 15});
}

TEST_CASE("batched rank-3 matmul [2, 2, 3] x [2, 3, 2], static and with a dynamic batch") {
  using b23 = xt::xtensor_fixed<float, xt::xshape<2, 2, 3>>;
  using b32 = xt::xtensor_fixed<float, xt::xshape<2, 3, 2>>;
  const b23 va{{{1, 2, 3}, {4, 5, 6}}, {{1, 0, 0}, {0, 1, 0}}};
  const b32 vb{{{7, 8}, {9, 10}, {11, 12}}, {{7, 8}, {9, 10}, {11, 12}}};
  auto a = tf::constant<"mm_ba">(va);
  auto b = tf::constant<"mm_bb">(vb);
  auto ab = tf::matmul(a, b);
  static_assert(std::is_same_v<tf::shape_of<decltype(ab)>, tf::shape<2, 2, 2>>);
  tf::session sess(ab, tf::matmul<true, true>(b, a));
  check_values(sess.run(ab), {2, 2, 2}, {58, 64, 139, 154, 7, 8, 9, 10});
  // (A_i B_i)^T per batch
  check_values(sess.run(tf::matmul<true, true>(b, a)), {2, 2, 2}, {58, 139, 64, 154, 7, 9, 8, 10});

  auto x = tf::placeholder<"mm_bx", float, tf::shape<dyn, 2, 3>>();
  auto y = tf::placeholder<"mm_by", float, tf::shape<dyn, 3, 2>>();
  auto xy = tf::matmul(x, y);
  static_assert(std::is_same_v<tf::shape_of<decltype(xy)>, tf::shape<dyn, 2, 2>>);
  tf::session sess_d(xy);
  const xt::xtensor<float, 3> dx = va;
  const xt::xtensor<float, 3> dy = vb;
  check_values(sess_d.run(xy, tf::feed(x, dx), tf::feed(y, dy)), {2, 2, 2}, {58, 64, 139, 154, 7, 8, 9, 10});
  // Batch of three: the first matrix pair repeated.
  xt::xtensor<float, 3> dx3 = xt::zeros<float>({3, 2, 3});
  xt::xtensor<float, 3> dy3 = xt::zeros<float>({3, 3, 2});
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t r = 0; r < 2; ++r)
      for (std::size_t c = 0; c < 3; ++c) {
        dx3(i, r, c) = va(0, r, c);
        dy3(i, c, r) = vb(0, c, r);
      }
  check_values(sess_d.run(xy, tf::feed(x, dx3), tf::feed(y, dy3)), {3, 2, 2},
               {58, 64, 139, 154, 58, 64, 139, 154, 58, 64, 139, 154});
}

TEST_CASE("batched int32 matmul with a transposed operand") {
  auto a = tf::placeholder<"mm_bi_a", std::int32_t, tf::shape<2, 2, 2>>();
  auto b = tf::placeholder<"mm_bi_b", std::int32_t, tf::shape<2, 2, 2>>();
  auto atb = tf::matmul<true, false>(a, b);
  tf::session sess(atb);
  const xt::xtensor_fixed<std::int32_t, xt::xshape<2, 2, 2>> va{{{1, 2}, {3, 4}}, {{0, 1}, {1, 0}}};
  const xt::xtensor_fixed<std::int32_t, xt::xshape<2, 2, 2>> vb{{{1, 0}, {0, 1}}, {{5, 6}, {7, 8}}};
  // batch 0: [[1, 3], [2, 4]] I; batch 1: the swap [[0, 1], [1, 0]] swaps b's rows
  check_values(sess.run(atb, tf::feed(a, va), tf::feed(b, vb)), {2, 2, 2}, {1, 3, 2, 4, 7, 8, 5, 6});
}

TEST_CASE("dynamic inner dims that disagree at run time throw invalid_argument_error") {
  auto x = tf::placeholder<"mm_bad_x", float, tf::shape<2, dyn>>();
  auto y = tf::placeholder<"mm_bad_y", float, tf::shape<dyn, 2>>();
  auto xy = tf::matmul(x, y);
  static_assert(std::is_same_v<tf::shape_of<decltype(xy)>, tf::shape<2, 2>>);
  tf::session sess(xy);
  const xt::xtensor<float, 2> vx = xt::ones<float>({2, 3});
  const xt::xtensor<float, 2> vy = xt::ones<float>({4, 2});
  CHECK_THROWS_AS(sess.run(xy, tf::feed(x, vx), tf::feed(y, vy)), tf::invalid_argument_error);
  try {
    sess.run(xy, tf::feed(x, vx), tf::feed(y, vy));
  } catch (const tf::invalid_argument_error& e) {
    const std::string what = e.what();
    CHECK(e.code() == tf::error_code::invalid_argument);
    CHECK(what.find("MatMul") != std::string::npos);
    CHECK(what.find("[2, 3]") != std::string::npos);
    CHECK(what.find("[4, 2]") != std::string::npos);
  }
  // The session still works with agreeing values afterwards.
  const xt::xtensor<float, 2> vy3 = xt::ones<float>({3, 2});
  check_values(sess.run(xy, tf::feed(x, vx), tf::feed(y, vy3)), {2, 2}, {3, 3, 3, 3});

  auto bx = tf::placeholder<"mm_bad_bx", float, tf::shape<dyn, 2, 2>>();
  auto by = tf::placeholder<"mm_bad_by", float, tf::shape<dyn, 2, 2>>();
  tf::session sess_b(tf::matmul(bx, by));
  const xt::xtensor<float, 3> two = xt::ones<float>({2, 2, 2});
  const xt::xtensor<float, 3> three = xt::ones<float>({3, 2, 2});
  CHECK_THROWS_AS(sess_b.run(tf::matmul(bx, by), tf::feed(bx, two), tf::feed(by, three)),
                  tf::invalid_argument_error);
}

// Regression: matmul hands the value's data to BLAS as row-major; a column-major feed
// (accepted, its shape is right) used to give the product of the transposed matrix.
TEST_CASE("a column-major fed value gives the same product as a row-major one") {
  auto x = tf::placeholder<"mm_colmajor", float, tf::shape<dyn, dyn>>();
  auto w = tf::constant<"mm_colmajor_w">(xt::xtensor_fixed<float, xt::xshape<2, 2>>{{1, 0}, {0, 10}});
  tf::session sess(tf::matmul(x, w));
  const xt::xtensor<float, 2, xt::layout_type::column_major> v{{1, 2}, {3, 4}};
  check_values(sess.run(tf::matmul(x, w), tf::feed(x, v)), {2, 2}, {1, 20, 3, 40});
}
