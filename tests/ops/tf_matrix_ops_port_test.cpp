// matrix_transpose, trace, matrix_diag, matrix_diag_part, matrix_set_diag, diag, diag_part,
// matrix_band_part, broadcast_to and invert_permutation (ops/diagonal.hpp and
// ops/matrix_ops.hpp), ported from
// TensorFlow 1.x's array_ops_test.py (BatchMatrixTransposeTest, InvertPermutationTest),
// trace_op_test.py, diag_op_test.py (MatrixDiagTest, MatrixSetDiagTest, MatrixDiagPartTest,
// DiagTest, DiagPartOpTest), matrix_band_part_op_test.py
// and broadcast_to_ops_test.py. Each TEST_CASE names the TensorFlow test it ports; expected
// values are the tests' literals, or numpy's computation (np.trace, np.diag, np.triu/np.tril,
// np.broadcast_to) done here by index arithmetic. Where TensorFlow draws np.random values, the
// port uses np.arange-like values (the checked property does not depend on them). The
// gradient tests (gradient_checker's) are in tf_matrix_ops_grad_port_test.cpp, a second TU.
//
// Not ported, and why:
// - complex, string, float16 and the small integer dtypes (testConjugate, testBroadcastToString,
//   uint8/int8/int16): typeflow has no such element types.
// - ValueErrors of static misuse (testInvalidShape, testOddRank, testUnevenDimensions,
//   testTensorWithStaticRankLessThanTwoRaisesBecauseNotAMatrix, testBroadcastToBadOutputShape):
//   compile errors here (compile-fail tests matrix_transpose_rank_1, diag_part_odd_rank,
//   matrix_set_diag_wrong_diag, broadcast_to_incompatible, invert_permutation_matrix); with dyn
//   dims, the run-time InvalidArgument is checked below.
// - Unknown-rank placeholders (testInvalidShapeAtEval's rank checks): typeflow's ranks are static.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "ops_testing.hpp"
#include "tf_port_testing.hpp"

namespace tf = typeflow;
using tf::dyn;
using tf::shape;
using tf_port_testing::check_all;
using tf_port_testing::dynamic;
using tf_port_testing::fixed;
using tf_port_testing::has_shape;
using tf_port_testing::invalid_argument_message;

namespace {

// 0, 1, ..., n - 1.
std::vector<double> iota(std::size_t n, double from = 0) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = from + static_cast<double>(i);
  return v;
}

// np.diag generalized as tf.diag: rank k values (n elements) -> n x n with them on the diagonal.
std::vector<double> diag_of(const std::vector<double>& v) {
  const std::size_t n = v.size();
  std::vector<double> out(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) out[i * n + i] = v[i];
  return out;
}

}  // namespace

// --- matrix_transpose -----------------------------------------------------------------------

TEST_CASE("BatchMatrixTransposeTest.testNonBatchMatrix and testBatchMatrix") {
  auto m = tf::placeholder<"m", float, shape<2, 3>>();
  auto t = tf::matrix_transpose(m);
  static_assert(has_shape<decltype(t), shape<3, 2>>);
  auto b = tf::placeholder<"b", float, shape<2, 2, 3>>();
  auto tb = tf::matrix_transpose(b);
  static_assert(has_shape<decltype(tb), shape<2, 3, 2>>);
  static_assert(tf::op_name_of<decltype(tb)>() == "transpose");
  tf::session sess(t, tb);
  check_all(sess.run(t, tf::feed(m, fixed<float, 2, 3>({1, 2, 3, 4, 5, 6}))), {3, 2}, {1, 4, 2, 5, 3, 6});
  check_all(sess.run(tb, tf::feed(b, fixed<float, 2, 2, 3>({1, 2, 3, 4, 5, 6, 11, 22, 33, 44, 55, 66}))), {2, 3, 2},
            {1, 4, 2, 5, 3, 6, 11, 44, 22, 55, 33, 66});
}

TEST_CASE("BatchMatrixTransposeTest.testNonBatchMatrixDynamicallyDefined and testBatchMatrixDynamicallyDefined") {
  auto m = tf::placeholder<"m", std::int32_t, shape<dyn, dyn>>();
  auto b = tf::placeholder<"b", std::int32_t, shape<dyn, dyn, dyn>>();
  auto t = tf::matrix_transpose(m);
  auto tb = tf::matrix_transpose(b);
  static_assert(has_shape<decltype(t), shape<dyn, dyn>> && has_shape<decltype(tb), shape<dyn, dyn, dyn>>);
  tf::session sess(t, tb);
  check_all(sess.run(t, tf::feed(m, dynamic<std::int32_t, 2>({2, 3}, {1, 2, 3, 4, 5, 6}))), {3, 2},
            {1, 4, 2, 5, 3, 6});
  check_all(sess.run(tb, tf::feed(b, dynamic<std::int32_t, 3>({2, 2, 3}, {1, 2, 3, 4, 5, 6, 11, 22, 33, 44, 55, 66}))),
            {2, 3, 2}, {1, 4, 2, 5, 3, 6, 11, 44, 22, 55, 33, 66});
}

// --- trace ----------------------------------------------------------------------------------

// np.trace(x, axis1=-2, axis2=-1) of x = arange(prod(dims)).reshape(dims).
std::vector<double> trace_of_arange(std::size_t batch, std::size_t m, std::size_t n) {
  std::vector<double> out;
  for (std::size_t b = 0; b < batch; ++b) {
    double s = 0;
    for (std::size_t i = 0; i < std::min(m, n); ++i) s += static_cast<double>((b * m + i) * n + i);
    out.push_back(s);
  }
  return out;
}

TEST_CASE("TraceTest.testTrace: shapes [2, 2], [2, 3], [3, 2], [2, 3, 2], [2, 2, 2, 3]; int32, float32, float64") {
  auto run = [](auto tag) {
    using T = decltype(tag);
    auto x22 = tf::placeholder<"x22", T, shape<2, 2>>();
    auto x23 = tf::placeholder<"x23", T, shape<2, 3>>();
    auto x32 = tf::placeholder<"x32", T, shape<3, 2>>();
    auto x232 = tf::placeholder<"x232", T, shape<2, 3, 2>>();
    auto x2223 = tf::placeholder<"x2223", T, shape<2, 2, 2, 3>>();
    static_assert(has_shape<decltype(tf::trace(x22)), tf::scalar>);
    static_assert(has_shape<decltype(tf::trace(x232)), shape<2>>);
    static_assert(has_shape<decltype(tf::trace(x2223)), shape<2, 2>>);
    static_assert(std::is_same_v<tf::value_type_of<decltype(tf::trace(x23))>, T>);
    tf::session sess(tf::trace(x22), tf::trace(x23), tf::trace(x32), tf::trace(x232), tf::trace(x2223));
    check_all(sess.run(tf::trace(x22), tf::feed(x22, tf_port_testing::arange<T, 2, 2>())), {}, trace_of_arange(1, 2, 2));
    check_all(sess.run(tf::trace(x23), tf::feed(x23, tf_port_testing::arange<T, 2, 3>())), {}, trace_of_arange(1, 2, 3));
    check_all(sess.run(tf::trace(x32), tf::feed(x32, tf_port_testing::arange<T, 3, 2>())), {}, trace_of_arange(1, 3, 2));
    check_all(sess.run(tf::trace(x232), tf::feed(x232, tf_port_testing::arange<T, 2, 3, 2>())), {2},
              trace_of_arange(2, 3, 2));
    check_all(sess.run(tf::trace(x2223), tf::feed(x2223, tf_port_testing::arange<T, 2, 2, 2, 3>())), {2, 2},
              trace_of_arange(4, 2, 3));
  };
  run(std::int32_t{});
  run(float{});
  run(double{});
  // Spot values: trace(arange(6).reshape(2, 3)) = 0 + 4.
  CHECK(trace_of_arange(1, 2, 3) == std::vector<double>{4});
}

TEST_CASE("trace: dyn dims") {
  auto x = tf::placeholder<"x", double, shape<dyn, 3, dyn>>();
  auto t = tf::trace(x);
  static_assert(has_shape<decltype(t), shape<dyn>>);
  tf::session sess(t);
  check_all(sess.run(t, tf::feed(x, dynamic<double, 3>({2, 3, 2}, iota(12)))), {2}, trace_of_arange(2, 3, 2));
}

// --- matrix_diag, matrix_diag_part, matrix_set_diag -------------------------------------------

TEST_CASE("MatrixDiagTest.testVector and testBatchVector") {
  auto v = tf::placeholder<"v", double, shape<3>>();
  auto m = tf::matrix_diag(v);
  static_assert(has_shape<decltype(m), shape<3, 3>>);
  static_assert(tf::op_name_of<decltype(m)>() == "MatrixDiag");
  auto vb = tf::placeholder<"vb", double, shape<dyn, 3>>();
  auto mb = tf::matrix_diag(vb);
  static_assert(has_shape<decltype(mb), shape<dyn, 3, 3>>);
  tf::session sess(m, mb);
  check_all(sess.run(m, tf::feed(v, fixed<double, 3>({1.0, 2.0, 3.0}))), {3, 3}, {1, 0, 0, 0, 2, 0, 0, 0, 3});
  check_all(sess.run(mb, tf::feed(vb, dynamic<double, 2>({2, 3}, {1, 2, 3, 4, 5, 6}))), {2, 3, 3},
            {1, 0, 0, 0, 2, 0, 0, 0, 3, 4, 0, 0, 0, 5, 0, 0, 0, 6});
}

TEST_CASE("MatrixSetDiagTest.testSquare and testRectangular") {
  auto m33 = tf::placeholder<"m33", float, shape<3, 3>>();
  auto v3 = tf::placeholder<"v3", float, shape<3>>();
  auto m23 = tf::placeholder<"m23", float, shape<2, 3>>();
  auto m32 = tf::placeholder<"m32", float, shape<3, 2>>();
  auto v2 = tf::placeholder<"v2", float, shape<2>>();
  auto s = tf::matrix_set_diag(m33, v3);
  static_assert(has_shape<decltype(s), shape<3, 3>>);
  static_assert(tf::op_name_of<decltype(s)>() == "MatrixSetDiag");
  tf::session sess(s, tf::matrix_set_diag(m23, v2), tf::matrix_set_diag(m32, v2));
  check_all(sess.run(s, tf::feed(m33, fixed<float, 3, 3>({0, 1, 0, 1, 0, 1, 1, 1, 1})),
                     tf::feed(v3, fixed<float, 3>({1, 2, 3}))),
            {3, 3}, {1, 1, 0, 1, 2, 1, 1, 1, 3});
  check_all(sess.run(tf::matrix_set_diag(m23, v2), tf::feed(m23, fixed<float, 2, 3>({0, 1, 0, 1, 0, 1})),
                     tf::feed(v2, fixed<float, 2>({3, 4}))),
            {2, 3}, {3, 1, 0, 1, 4, 1});
  check_all(sess.run(tf::matrix_set_diag(m32, v2), tf::feed(m32, fixed<float, 3, 2>({0, 1, 1, 0, 1, 1})),
                     tf::feed(v2, fixed<float, 2>({3, 4}))),
            {3, 2}, {3, 1, 1, 4, 1, 1});
}

TEST_CASE("MatrixSetDiagTest.testSquareBatch and testRectangularBatch") {
  auto m = tf::placeholder<"m", double, shape<2, 3, 3>>();
  auto v = tf::placeholder<"v", double, shape<2, 3>>();
  auto mr = tf::placeholder<"mr", double, shape<2, 2, 3>>();
  auto vr = tf::placeholder<"vr", double, shape<2, 2>>();
  tf::session sess(tf::matrix_set_diag(m, v), tf::matrix_set_diag(mr, vr));
  check_all(sess.run(tf::matrix_set_diag(m, v),
                     tf::feed(m, fixed<double, 2, 3, 3>({1, 0, 3, 4, 5, 6, 7, 8, 9, 0, 1, 0, 2, 0, 2, 3, 3, 3})),
                     tf::feed(v, fixed<double, 2, 3>({-1, 0, -3, -4, -5, -6}))),
            {2, 3, 3}, {-1, 0, 3, 4, 0, 6, 7, 8, -3, -4, 1, 0, 2, -5, 2, 3, 3, -6});
  check_all(sess.run(tf::matrix_set_diag(mr, vr), tf::feed(mr, fixed<double, 2, 2, 3>({1, 0, 3, 4, 5, 6, 0, 1, 0, 2, 0, 2})),
                     tf::feed(vr, fixed<double, 2, 2>({-1, -2, -4, -5}))),
            {2, 2, 3}, {-1, 0, 3, 4, -2, 6, -4, 1, 0, 2, -5, 2});
}

TEST_CASE("MatrixSetDiagTest.testInvalidShapeAtEval: dyn dims, the kernel's InvalidArgument") {
  auto m = tf::placeholder<"m", float, shape<dyn, dyn>>();
  auto v = tf::placeholder<"v", float, shape<dyn>>();
  auto s = tf::matrix_set_diag(m, v);
  tf::session sess(s);
  CHECK(invalid_argument_message([&] {
          sess.run(s, tf::feed(m, dynamic<float, 2>({2, 3}, iota(6))), tf::feed(v, dynamic<float, 1>({3}, {1, 2, 3})));
        }) == "must have diagonal.shape == input.shape[:-2] + min(input.shape[-2:]), but received input shape: [2,3] "
              "and diagonal shape: [3]");
  check_all(sess.run(s, tf::feed(m, dynamic<float, 2>({2, 3}, iota(6))), tf::feed(v, dynamic<float, 1>({2}, {-1, -2}))),
            {2, 3}, {-1, 1, 2, 3, -2, 5});
}

TEST_CASE("MatrixDiagPartTest.testSquare, testRectangular, testSquareBatch, testRectangularBatch") {
  auto m = tf::placeholder<"m", double, shape<3, 3>>();
  auto r23 = tf::placeholder<"r23", double, shape<2, 3>>();
  auto r32 = tf::placeholder<"r32", double, shape<3, 2>>();
  auto b = tf::placeholder<"b", double, shape<2, 3, 3>>();
  auto rb = tf::placeholder<"rb", double, shape<dyn, 2, 3>>();
  static_assert(has_shape<decltype(tf::matrix_diag_part(r32)), shape<2>>);
  static_assert(has_shape<decltype(tf::matrix_diag_part(rb)), shape<dyn, 2>>);
  static_assert(has_shape<decltype(tf::matrix_diag_part(tf::placeholder<"d", double, shape<dyn, 3>>())), shape<dyn>>);
  static_assert(tf::op_name_of<decltype(tf::matrix_diag_part(m))>() == "MatrixDiagPart");
  tf::session sess(tf::matrix_diag_part(m), tf::matrix_diag_part(r23), tf::matrix_diag_part(r32),
                   tf::matrix_diag_part(b), tf::matrix_diag_part(rb));
  check_all(sess.run(tf::matrix_diag_part(m), tf::feed(m, fixed<double, 3, 3>({1, 0, 0, 0, 2, 0, 0, 0, 3}))), {3},
            {1, 2, 3});
  check_all(sess.run(tf::matrix_diag_part(r23), tf::feed(r23, fixed<double, 2, 3>({1, 2, 3, 4, 5, 6}))), {2}, {1, 5});
  check_all(sess.run(tf::matrix_diag_part(r32), tf::feed(r32, fixed<double, 3, 2>({1, 2, 3, 4, 5, 6}))), {2}, {1, 4});
  check_all(sess.run(tf::matrix_diag_part(b),
                     tf::feed(b, fixed<double, 2, 3, 3>({1, 0, 0, 0, 2, 0, 0, 0, 3, 4, 0, 0, 0, 5, 0, 0, 0, 6}))),
            {2, 3}, {1, 2, 3, 4, 5, 6});
  check_all(sess.run(tf::matrix_diag_part(rb),
                     tf::feed(rb, dynamic<double, 3>({2, 2, 3}, {1, 0, 0, 0, 2, 0, 4, 0, 0, 0, 5, 0}))),
            {2, 2}, {1, 2, 4, 5});
}

// --- diag, diag_part --------------------------------------------------------------------------

TEST_CASE("DiagTest.testRankOneIntTensor, testRankOneFloatTensor") {
  auto vi = tf::placeholder<"vi", std::int32_t, shape<3>>();
  auto vf = tf::placeholder<"vf", float, shape<3>>();
  static_assert(has_shape<decltype(tf::diag(vi)), shape<3, 3>>);
  static_assert(tf::op_name_of<decltype(tf::diag(vi))>() == "Diag");
  tf::session sess(tf::diag(vi), tf::diag(vf));
  check_all(sess.run(tf::diag(vi), tf::feed(vi, fixed<std::int32_t, 3>({1, 2, 3}))), {3, 3}, {1, 0, 0, 0, 2, 0, 0, 0, 3});
  const auto f = fixed<float, 3>({1.1, 2.2, 3.3});
  check_all(sess.run(tf::diag(vf), tf::feed(vf, f)), {3, 3},
            diag_of({static_cast<double>(f(0)), static_cast<double>(f(1)), static_cast<double>(f(2))}));
}

TEST_CASE("DiagTest.testRankTwoIntTensor, testRankTwoFloatTensor, testRankThreeFloatTensor") {
  auto vi = tf::placeholder<"vi", std::int64_t, shape<2, 3>>();
  auto vd = tf::placeholder<"vd", double, shape<2, 3>>();
  auto v3 = tf::placeholder<"v3", double, shape<2, 2, 2>>();
  static_assert(has_shape<decltype(tf::diag(vi)), shape<2, 3, 2, 3>>);
  static_assert(has_shape<decltype(tf::diag(v3)), shape<2, 2, 2, 2, 2, 2>>);
  tf::session sess(tf::diag(vi), tf::diag(vd), tf::diag(v3));
  const auto rank4 = sess.run(tf::diag(vi), tf::feed(vi, fixed<std::int64_t, 2, 3>({1, 2, 3, 4, 5, 6})));
  check_all(rank4, {2, 3, 2, 3}, diag_of({1, 2, 3, 4, 5, 6}));
  CHECK(rank4(1, 2, 1, 2) == 6);  // expected_ans[1][2][1][2] = 6
  CHECK(rank4(0, 1, 0, 1) == 2);
  check_all(sess.run(tf::diag(vd), tf::feed(vd, fixed<double, 2, 3>({1.1, 2.2, 3.3, 4.4, 5.5, 6.6}))), {2, 3, 2, 3},
            diag_of({1.1, 2.2, 3.3, 4.4, 5.5, 6.6}));
  check_all(sess.run(tf::diag(v3), tf::feed(v3, fixed<double, 2, 2, 2>({1.1, 2.2, 3.3, 4.4, 5.5, 6.6, 7.7, 8.8}))),
            {2, 2, 2, 2, 2, 2}, diag_of({1.1, 2.2, 3.3, 4.4, 5.5, 6.6, 7.7, 8.8}));
}

TEST_CASE("DiagPartOpTest.testDiagPartOp, testRankFourNumberTensor, testRankSixFloatTensor") {
  auto x = tf::placeholder<"x", double, shape<3, 3>>();
  static_assert(has_shape<decltype(tf::diag_part(x)), shape<3>>);
  static_assert(tf::op_name_of<decltype(tf::diag_part(x))>() == "DiagPart");
  auto run4 = [](auto tag) {
    using T = decltype(tag);
    auto x4 = tf::placeholder<"x4", T, shape<2, 3, 2, 3>>();
    static_assert(has_shape<decltype(tf::diag_part(x4)), shape<2, 3>>);
    tf::session sess(tf::diag_part(x4));
    check_all(sess.run(tf::diag_part(x4), tf::feed(x4, tf_port_testing::arange<T, 2, 3, 2, 3>())), {2, 3},
              {0, 7, 14, 21, 28, 35});
  };
  run4(float{});
  run4(double{});
  run4(std::int64_t{});
  run4(std::int32_t{});
  auto x6 = tf::placeholder<"x6", double, shape<2, 2, 2, 2, 2, 2>>();
  tf::session sess(tf::diag_part(x), tf::diag_part(x6));
  check_all(sess.run(tf::diag_part(x), tf::feed(x, fixed<double, 3, 3>({0.5, 1, 2, 3, 0.25, 4, 5, 6, 0.125}))), {3},
            {0.5, 0.25, 0.125});
  std::vector<double> want6;
  for (std::size_t i = 0; i < 8; ++i) want6.push_back(static_cast<double>(i * 8 + i));
  check_all(sess.run(tf::diag_part(x6), tf::feed(x6, tf_port_testing::arange<double, 2, 2, 2, 2, 2, 2>())), {2, 2, 2},
            want6);
}

TEST_CASE("DiagPartOpTest.testUnevenDimensions: dyn dims, the kernel's InvalidArgument") {
  auto x = tf::placeholder<"x", double, shape<dyn, dyn>>();
  auto d = tf::diag_part(x);
  static_assert(has_shape<decltype(d), shape<dyn>>);
  tf::session sess(d);
  CHECK(invalid_argument_message([&] { sess.run(d, tf::feed(x, dynamic<double, 2>({2, 5}, iota(10)))); }) ==
        "Invalid shape [2,5]: dimensions 0 and 1 do not match.");
  auto x4 = tf::placeholder<"x4", double, shape<2, dyn, 2, dyn>>();
  tf::session sess4(tf::diag_part(x4));
  CHECK(invalid_argument_message([&] {
          sess4.run(tf::diag_part(x4), tf::feed(x4, dynamic<double, 4>({2, 3, 2, 2}, iota(24))));
        }) == "Invalid shape [2,3,2,2]: dimensions 1 and 3 do not match.");
  check_all(sess.run(d, tf::feed(x, dynamic<double, 2>({2, 2}, {1, 2, 3, 4}))), {2}, {1, 4});
}

// --- matrix_band_part -------------------------------------------------------------------------

// np.triu(np.tril(ones(m, n), upper), -lower) (with -1 = no bound), tiled `batch` times.
std::vector<double> band_of_ones(std::size_t batch, std::size_t m, std::size_t n, long lower, long upper) {
  std::vector<double> out;
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        const long d = static_cast<long>(i) - static_cast<long>(j);
        out.push_back((lower < 0 || d <= lower) && (upper < 0 || -d <= upper) ? 1.0 : 0.0);
      }
  return out;
}

TEST_CASE("MatrixBandPartTest: shapes (1,1) (1,2) (2,1) (2,2) (3,3) (1,10) (10,1) (7,8), batch () (2,) (1,3,2)") {
  // for lower in -1, 0, 1, rows - 1; for upper in -1, 0, 1, cols - 1; index dtypes int32, int64.
  auto run = [](auto tag, auto index_tag) {
    using T = decltype(tag);
    using I = decltype(index_tag);
    auto lo = tf::placeholder<"lo", I, tf::scalar>();
    auto up = tf::placeholder<"up", I, tf::scalar>();
    auto x2 = tf::placeholder<"x2", T, shape<dyn, dyn>>();
    auto x3 = tf::placeholder<"x3", T, shape<2, dyn, dyn>>();
    auto x5 = tf::placeholder<"x5", T, shape<1, 3, 2, dyn, dyn>>();
    auto b2 = tf::matrix_band_part(x2, lo, up);
    auto b3 = tf::matrix_band_part(x3, lo, up);
    auto b5 = tf::matrix_band_part(x5, lo, up);
    static_assert(has_shape<decltype(b5), shape<1, 3, 2, dyn, dyn>>);
    static_assert(tf::op_name_of<decltype(b2)>() == "MatrixBandPart");
    tf::session sess(b2, b3, b5);
    const std::array<std::array<std::size_t, 2>, 8> shapes{
        {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {3, 3}, {1, 10}, {10, 1}, {7, 8}}};
    for (const auto& s : shapes) {
      const std::size_t m = s[0], n = s[1];
      for (long lower : {-1L, 0L, 1L, static_cast<long>(m) - 1})
        for (long upper : {-1L, 0L, 1L, static_cast<long>(n) - 1}) {
          INFO("shape " << m << "x" << n << " lower " << lower << " upper " << upper);
          const auto l = tf::feed(lo, static_cast<I>(lower));
          const auto u = tf::feed(up, static_cast<I>(upper));
          check_all(sess.run(b2, tf::feed(x2, dynamic<T, 2>({m, n}, std::vector<double>(m * n, 1.0))), l, u), {m, n},
                    band_of_ones(1, m, n, lower, upper));
          check_all(sess.run(b3, tf::feed(x3, dynamic<T, 3>({2, m, n}, std::vector<double>(2 * m * n, 1.0))), l, u),
                    {2, m, n}, band_of_ones(2, m, n, lower, upper));
          check_all(sess.run(b5, tf::feed(x5, dynamic<T, 5>({1, 3, 2, m, n}, std::vector<double>(6 * m * n, 1.0))), l, u),
                    {1, 3, 2, m, n}, band_of_ones(6, m, n, lower, upper));
        }
    }
  };
  run(float{}, std::int32_t{});
  run(double{}, std::int64_t{});
  run(std::int32_t{}, std::int64_t{});
}

TEST_CASE("matrix_band_part<lower, upper>: compile-time bounds, static shapes") {
  auto x = tf::placeholder<"x", double, shape<2, 3, 4>>();
  auto b = tf::matrix_band_part<1, 0>(x);
  static_assert(has_shape<decltype(b), shape<2, 3, 4>>);
  auto t = tf::matrix_band_part<0, -1>(x);  // the upper triangle
  tf::session sess(b, t);
  const auto ones = fixed<double, 2, 3, 4>({1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
  check_all(sess.run(b, tf::feed(x, ones)), {2, 3, 4}, band_of_ones(2, 3, 4, 1, 0));
  check_all(sess.run(t, tf::feed(x, ones)), {2, 3, 4}, band_of_ones(2, 3, 4, 0, -1));
  check_all(sess.run(t, tf::feed(x, tf_port_testing::arange<double, 2, 3, 4>())), {2, 3, 4},
            {0, 1, 2, 3, 0, 5, 6, 7, 0, 0, 10, 11, 12, 13, 14, 15, 0, 17, 18, 19, 0, 0, 22, 23});
}

TEST_CASE("MatrixBandPart: the kernel's InvalidArgument for a bound beyond the matrix") {
  auto x = tf::placeholder<"x", float, shape<dyn, dyn>>();
  auto lo = tf::placeholder<"lo", std::int64_t, tf::scalar>();
  auto up = tf::placeholder<"up", std::int64_t, tf::scalar>();
  auto b = tf::matrix_band_part(x, lo, up);
  tf::session sess(b);
  const auto x23 = dynamic<float, 2>({2, 3}, iota(6));
  CHECK(invalid_argument_message([&] { sess.run(b, tf::feed(x, x23), tf::feed(lo, std::int64_t{3}), tf::feed(up, std::int64_t{0})); }) ==
        "num_lower must be negative or less or equal to number of rows (2) got: 3");
  CHECK(invalid_argument_message([&] { sess.run(b, tf::feed(x, x23), tf::feed(lo, std::int64_t{0}), tf::feed(up, std::int64_t{4})); }) ==
        "num_upper must be negative or less or equal to number of columns (3) got: 4");
  check_all(sess.run(b, tf::feed(x, x23), tf::feed(lo, std::int64_t{2}), tf::feed(up, std::int64_t{3})), {2, 3}, iota(6));
}

// --- broadcast_to -----------------------------------------------------------------------------

TEST_CASE("BroadcastToTest.testBroadcastToBasic: [1, 2, 3] to [3, 3]; int32, int64, float, double") {
  auto run = [](auto tag) {
    using T = decltype(tag);
    auto x = tf::placeholder<"x", T, shape<3>>();
    auto v = tf::broadcast_to<shape<3, 3>>(x);
    static_assert(has_shape<decltype(v), shape<3, 3>>);
    static_assert(std::is_same_v<tf::value_type_of<decltype(v)>, T>);
    static_assert(tf::op_name_of<decltype(v)>() == "BroadcastTo");
    tf::session sess(v);
    check_all(sess.run(v, tf::feed(x, fixed<T, 3>({1, 2, 3}))), {3, 3}, {1, 2, 3, 1, 2, 3, 1, 2, 3});
  };
  run(std::int32_t{});
  run(std::int64_t{});
  run(float{});
  run(double{});
}

TEST_CASE("BroadcastToTest.testBroadcastToBool: [True, False, True] to [3, 3]") {
  auto x = tf::placeholder<"x", bool, shape<3>>();
  auto v = tf::broadcast_to<shape<3, 3>>(x);
  tf::session sess(v);
  xt::xtensor_fixed<bool, xt::xshape<3>> x0{true, false, true};
  const auto got = sess.run(v, tf::feed(x, x0));
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) CHECK(got(i, j) == (j != 1));
}

TEST_CASE("BroadcastToTest.testBroadcastToShape: [2] * input_dim to [2] * output_dim (a sample)") {
  auto x1 = tf::placeholder<"x1", float, shape<2>>();
  auto x3 = tf::placeholder<"x3", float, shape<2, 2, 2>>();
  auto a = tf::broadcast_to<shape<2, 2, 2>>(x1);
  auto b = tf::broadcast_to<shape<2, 2, 2, 2, 2>>(x3);
  tf::session sess(a, b);
  check_all(sess.run(a, tf::feed(x1, fixed<float, 2>({3, 4}))), {2, 2, 2}, {3, 4, 3, 4, 3, 4, 3, 4});
  std::vector<double> want;
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 8; ++j) want.push_back(static_cast<double>(j));
  check_all(sess.run(b, tf::feed(x3, tf_port_testing::arange<float, 2, 2, 2>())), {2, 2, 2, 2, 2}, want);
}

TEST_CASE("BroadcastToTest.testBroadcastToScalar and testBroadcastScalarToNonScalar") {
  auto xi = tf::placeholder<"xi", std::int32_t, tf::scalar>();
  auto xd = tf::placeholder<"xd", double, tf::scalar>();
  auto a = tf::broadcast_to<shape<3, 3>>(xi);
  auto b = tf::broadcast_to<shape<2, 3, 4>>(xd);
  tf::session sess(a, b);
  check_all(sess.run(a, tf::feed(xi, std::int32_t{1})), {3, 3}, std::vector<double>(9, 1.0));
  check_all(sess.run(b, tf::feed(xd, 1.0)), {2, 3, 4}, std::vector<double>(24, 1.0));
}

TEST_CASE("BroadcastToTest.testBroadcastToShapeLargerDim: [2, 1, 3, 2, 2, 2] to [1, 1, 1, 2, 5, 3, 2, 2, 2]") {
  auto x = tf::placeholder<"x", float, shape<2, 1, 3, 2, 2, 2>>();
  auto v = tf::broadcast_to<shape<1, 1, 1, 2, 5, 3, 2, 2, 2>>(x);
  tf::session sess(v);
  std::vector<double> want;  // np.broadcast_to(arange(48).reshape(2, 1, 3, 2, 2, 2), ...)
  for (std::size_t a = 0; a < 2; ++a)
    for (std::size_t r = 0; r < 5; ++r)
      for (std::size_t k = 0; k < 24; ++k) want.push_back(static_cast<double>(a * 24 + k));
  check_all(sess.run(v, tf::feed(x, tf_port_testing::arange<float, 2, 1, 3, 2, 2, 2>())), {1, 1, 1, 2, 5, 3, 2, 2, 2},
            want);
}

TEST_CASE("BroadcastToTest.testBroadcastToBadOutputShape: dyn dims, the kernel's InvalidArgument") {
  auto x = tf::placeholder<"x", float, shape<dyn>>();
  auto v = tf::broadcast_to<shape<2, 1>>(x);
  auto w = tf::broadcast_to<shape<2, 4>>(x);
  tf::session sess(v, w);
  CHECK(invalid_argument_message([&] { sess.run(v, tf::feed(x, dynamic<float, 1>({3}, {1, 2, 3}))); }) ==
        "Unable to broadcast tensor of shape [3] to tensor of shape [2,1]");
  CHECK(invalid_argument_message([&] { sess.run(w, tf::feed(x, dynamic<float, 1>({3}, {1, 2, 3}))); }) ==
        "Incompatible shapes: [3] vs. [2,4]");
  check_all(sess.run(w, tf::feed(x, dynamic<float, 1>({1}, {7}))), {2, 4}, std::vector<double>(8, 7.0));
  check_all(sess.run(v, tf::feed(x, dynamic<float, 1>({1}, {7}))), {2, 1}, {7, 7});
}

// --- invert_permutation -----------------------------------------------------------------------

TEST_CASE("InvertPermutationTest.testInvertPermutation: [3, 4, 0, 2, 1] is [2, 4, 3, 0, 1]; int32, int64") {
  auto run = [](auto tag) {
    using T = decltype(tag);
    auto x = tf::constant<"ip_x">(fixed<T, 5>({3, 4, 0, 2, 1}));
    auto y = tf::invert_permutation(x);
    static_assert(has_shape<decltype(y), shape<5>>);
    static_assert(std::is_same_v<tf::value_type_of<decltype(y)>, T>);
    static_assert(tf::op_name_of<decltype(y)>() == "InvertPermutation");
    tf::session sess(y);
    check_all(sess.run(y), {5}, {2, 4, 3, 0, 1});
  };
  run(std::int32_t{});
  run(std::int64_t{});
}

TEST_CASE("InvertPermutation: the kernel's InvalidArgument for an index out of range or repeated") {
  auto x = tf::placeholder<"x", std::int64_t, shape<dyn>>();
  auto y = tf::invert_permutation(x);
  tf::session sess(y);
  CHECK(invalid_argument_message([&] { sess.run(y, tf::feed(x, dynamic<std::int64_t, 1>({3}, {0, 1, 5}))); }) ==
        "5 is not between 0 and 3");
  CHECK(invalid_argument_message([&] { sess.run(y, tf::feed(x, dynamic<std::int64_t, 1>({3}, {0, -1, 2}))); }) ==
        "-1 is not between 0 and 3");
  CHECK(invalid_argument_message([&] { sess.run(y, tf::feed(x, dynamic<std::int64_t, 1>({3}, {0, 2, 0}))); }) ==
        "0 is duplicated in the input.");
  check_all(sess.run(y, tf::feed(x, dynamic<std::int64_t, 1>({0}, {}))), {0}, {});
  check_all(sess.run(y, tf::feed(x, dynamic<std::int64_t, 1>({3}, {1, 2, 0}))), {3}, {2, 0, 1});
}
