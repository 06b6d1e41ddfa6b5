// Cases ported from TensorFlow 1.x's kernel tests for the array ops that sequence models use
// (gather, reverse_sequence, sequence_mask, where, reduce_max and reduce_min),
// the ones that joining_test.cpp, slicing_test.cpp, reduce_test.cpp and losses_test.cpp do not
// already port. Each case names the TensorFlow test it ports; the expected values are the
// test's literals, or the numpy computation it compares with, done here independently by
// index arithmetic (np.split, np.take, np.amax, python slicing...). TensorFlow's dtypes that
// typeflow has no element type for (int8, int16, uint8, uint32, uint64, half, bfloat16,
// complex, string) are left out, and so are the cases whose only subject is an argument
// typeflow takes at compile time (a tensor axis, a tensor index, a Python list of tensors).
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>
#include <type_traits>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "ops_testing.hpp"
#include "tf_port_testing.hpp"

namespace tf = typeflow;
using ops_testing::check_values;
using ops_testing::shape_vector;
using tf::dyn;
using tf::ints;
using tf::shape;

using namespace tf_port_testing;

// --- gather ------------------------------------------------------------------------------------

// gather_op_test.py testScalar1D (indices [1, 2, 2, 4, 5], int64 and float32 params) and
// testBatchDims with batch_dims=0 (2-D, 3-D and 4-D indices: tf.gather).
TEST_CASE("gather: testScalar1D with a vector of indices, testBatchDims (batch_dims=0)") {
  auto p64 = tf::constant<"ga_p64">(xt::xtensor_fixed<std::int64_t, xt::xshape<6>>{0, 1, 2, 3, 7, 5});
  auto pf = tf::constant<"ga_pf">(xt::xtensor_fixed<float, xt::xshape<6>>{0, 1, 2, 3, 7, 5});
  auto i = tf::constant<"ga_i">(xt::xtensor_fixed<std::int32_t, xt::xshape<5>>{1, 2, 2, 4, 5});
  auto g64 = tf::gather(p64, i);
  auto gf = tf::gather(pf, i);
  static_assert(has_shape<decltype(g64), shape<5>>);
  auto p = tf::constant<"ga_p">(xt::xtensor_fixed<std::int32_t, xt::xshape<4>>{6, 7, 8, 9});
  auto i2 = tf::constant<"ga_i2">(xt::xtensor_fixed<std::int32_t, xt::xshape<2, 2>>{{2, 1}, {0, 3}});
  auto i3 = tf::constant<"ga_i3">(xt::xtensor_fixed<std::int64_t, xt::xshape<2, 2, 2>>{{{3, 1}, {2, 0}}, {{0, 3}, {2, 2}}});
  auto p89 = tf::constant<"ga_p89">(xt::xtensor_fixed<std::int32_t, xt::xshape<2>>{8, 9});
  auto i4 = tf::constant<"ga_i4">(xt::xtensor_fixed<std::int32_t, xt::xshape<2, 2, 2, 2>>{
      {{{0, 1}, {1, 0}}, {{0, 0}, {1, 1}}}, {{{1, 1}, {0, 0}}, {{0, 1}, {1, 0}}}});
  auto g2 = tf::gather(p, i2);
  auto g3 = tf::gather(p, i3);
  auto g4 = tf::gather(p89, i4);
  static_assert(has_shape<decltype(g4), shape<2, 2, 2, 2>>);
  tf::session sess(g64, gf, g2, g3, g4);
  check_values(sess.run(g64), {5}, {1, 2, 2, 7, 5});
  check_values(sess.run(gf), {5}, {1, 2, 2, 7, 5});
  check_values(sess.run(g2), {2, 2}, {8, 7, 6, 9});
  check_values(sess.run(g3), {2, 2, 2}, {9, 7, 8, 6, 6, 9, 8, 8});
  check_values(sess.run(g4), {2, 2, 2, 2}, {8, 9, 9, 8, 8, 8, 9, 9, 9, 9, 8, 8, 8, 9, 9, 8});
}

// gather_op_test.py testHigherRank (axis 0): params of shape (2, 1, 3, 2), indices of shape
// (), (0,), (2, 0) and (2, 3); the result is np.take(params, indices, 0), of shape
// indices.shape + params.shape[1:]. testEmptySlices: params (7, 0, 0), indices [3, 4].
TEST_CASE("gather: testHigherRank (axis 0) and testEmptySlices") {
  const auto pv = arange<double, 2, 1, 3, 2>(0);
  auto params = tf::constant<"gh_params">(pv);
  auto scalar = tf::constant<"gh_scalar">(std::int64_t{1});
  auto grid = tf::constant<"gh_grid">(xt::xtensor_fixed<std::int32_t, xt::xshape<2, 3>>{{1, 0, 1}, {1, 1, 0}});
  auto none = tf::placeholder<"gh_none", std::int32_t, shape<0>>();
  auto none2 = tf::placeholder<"gh_none2", std::int64_t, shape<2, 0>>();
  auto gs = tf::gather(params, scalar);
  auto gg = tf::gather(params, grid);
  auto gn = tf::gather(params, none);
  auto gn2 = tf::gather(params, none2);
  static_assert(has_shape<decltype(gs), shape<1, 3, 2>> && has_shape<decltype(gg), shape<2, 3, 1, 3, 2>>);
  static_assert(has_shape<decltype(gn), shape<0, 1, 3, 2>> && has_shape<decltype(gn2), shape<2, 0, 1, 3, 2>>);
  tf::session sess(gs, gg, gn, gn2);
  check_values(sess.run(gs), {1, 3, 2}, {6, 7, 8, 9, 10, 11});
  const std::int32_t idx[2][3] = {{1, 0, 1}, {1, 1, 0}};
  const auto got = sess.run(gg);
  for (std::size_t a = 0; a < 2; ++a)
    for (std::size_t b = 0; b < 3; ++b)
      for (std::size_t c = 0; c < 3; ++c)
        for (std::size_t d = 0; d < 2; ++d) CHECK(got(a, b, 0, c, d) == pv(std::size_t(idx[a][b]), 0, c, d));
  check_values(sess.run(gn, tf::feed(none, empty_of<std::int32_t, 1>({0}))), {0, 1, 3, 2}, {});
  check_values(sess.run(gn2, tf::feed(none2, empty_of<std::int64_t, 2>({2, 0}))), {2, 0, 1, 3, 2}, {});
  // testEmptySlices: np.zeros((7, 0, 0)) gathered at [3, 4] is np.zeros((2, 0, 0)).
  auto empty_params = tf::placeholder<"gh_ep", float, shape<7, 0, 0>>();
  auto at = tf::constant<"gh_at">(xt::xtensor_fixed<std::int64_t, xt::xshape<2>>{3, 4});
  auto ge = tf::gather(empty_params, at);
  static_assert(has_shape<decltype(ge), shape<2, 0, 0>>);
  tf::session se(ge);
  check_values(se.run(ge, tf::feed(empty_params, empty_of<float, 3>({7, 0, 0}))), {2, 0, 0}, {});
}

// --- reverse_sequence, sequence_mask, where ----------------------------------------------------

// reverse_sequence_op_test.py _testBasic exactly: x of shape (3, 2, 4, 1, 1) transposed to
// (4, 2, 3, 1, 1), seq_axis 0, batch_axis 2, seq_lengths [3, 0, 4] (int64 and int32), for
// float32, float64, int32 and int64 (testFloatBasic, testDoubleBasic, testInt32Basic,
// testInt64Basic, testSeqLengthInt32); truth is truth_orig transposed the same way.
template <class T, class Len>
void reverse_sequence_basic() {
  const int x_orig[3][2][4] = {{{1, 2, 3, 4}, {5, 6, 7, 8}}, {{9, 10, 11, 12}, {13, 14, 15, 16}}, {{17, 18, 19, 20}, {21, 22, 23, 24}}};
  const int truth_orig[3][2][4] = {{{3, 2, 1, 4}, {7, 6, 5, 8}}, {{9, 10, 11, 12}, {13, 14, 15, 16}}, {{20, 19, 18, 17}, {24, 23, 22, 21}}};
  xt::xtensor_fixed<T, xt::xshape<4, 2, 3, 1, 1>> x{};
  for (std::size_t t = 0; t < 4; ++t)
    for (std::size_t r = 0; r < 2; ++r)
      for (std::size_t b = 0; b < 3; ++b) x(t, r, b, 0, 0) = static_cast<T>(x_orig[b][r][t]);
  auto xn = tf::placeholder<"rsb_x", T, shape<4, 2, 3, 1, 1>>();
  auto lengths = tf::constant<"rsb_len">(xt::xtensor_fixed<Len, xt::xshape<3>>{3, 0, 4});
  auto y = tf::reverse_sequence<0, 2>(xn, lengths);
  static_assert(has_shape<decltype(y), shape<4, 2, 3, 1, 1>>);
  tf::session sess(y);
  const auto got = sess.run(y, tf::feed(xn, x));
  for (std::size_t t = 0; t < 4; ++t)
    for (std::size_t r = 0; r < 2; ++r)
      for (std::size_t b = 0; b < 3; ++b) CHECK(got(t, r, b, 0, 0) == static_cast<T>(truth_orig[b][r][t]));
}

TEST_CASE("reverse_sequence: _testBasic (seq_axis 0, batch_axis 2) for each dtype and length type") {
  reverse_sequence_basic<float, std::int64_t>();
  reverse_sequence_basic<float, std::int32_t>();
  reverse_sequence_basic<double, std::int64_t>();
  reverse_sequence_basic<std::int32_t, std::int64_t>();
  reverse_sequence_basic<std::int64_t, std::int64_t>();
}

// array_ops_test.py SequenceMaskTest.testDtypes: lengths [1, 3, 2] of int32 and int64, maxlen 5.
TEST_CASE("sequence_mask: testDtypes") {
  auto l32 = tf::constant<"smd_32">(xt::xtensor_fixed<std::int32_t, xt::xshape<3>>{1, 3, 2});
  auto l64 = tf::constant<"smd_64">(xt::xtensor_fixed<std::int64_t, xt::xshape<3>>{1, 3, 2});
  auto m32 = tf::sequence_mask<5>(l32);
  auto m64 = tf::sequence_mask<5>(l64);
  static_assert(has_shape<decltype(m32), shape<3, 5>> && has_shape<decltype(m64), shape<3, 5>>);
  tf::session sess(m32, m64);
  for (const auto& got : {sess.run(m32), sess.run(m64)})
    check_values(got, {3, 5}, {1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0});
}

// where_op_test.py testThreeArgument (np.where(x > 0, x * x, -x)) and testBatchSelect (a
// vector cond over the rows; TensorFlow's (16384, 192) shrunk to (8, 6), same pattern).
TEST_CASE("where: testThreeArgument and testBatchSelect") {
  auto x = tf::constant<"wh_x">(xt::xtensor_fixed<std::int64_t, xt::xshape<2, 3>>{{-2, 3, -1}, {1, -3, -3}});
  auto w = tf::where(x > tf::constant<0>(), x * x, -x);
  tf::session sess(w);
  check_values(sess.run(w), {2, 3}, {2, 9, 1, 1, 3, 3});
  xt::xtensor_fixed<std::int32_t, xt::xshape<8, 6>> bx{};
  xt::xtensor_fixed<bool, xt::xshape<8>> c_vec{};
  const int pattern[2][3] = {{-2, 3, -1}, {1, -3, -3}};
  for (std::size_t i = 0; i < 8; ++i) {
    c_vec(i) = i % 2 == 1;
    for (std::size_t j = 0; j < 6; ++j) bx(i, j) = pattern[i % 2][j % 3];
  }
  auto b = tf::constant<"wh_bx">(bx);
  auto c = tf::constant<"wh_c">(c_vec);
  auto bw = tf::where(c, b * b, -b);
  tf::session sb(bw);
  const auto got = sb.run(bw);
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < 6; ++j) CHECK(got(i, j) == (c_vec(i) ? bx(i, j) * bx(i, j) : -bx(i, j)));
}

// cwise_ops_test.py SelectOpTest.testNan: where(c, a, b) of scalars with a in {7, nan} and b in
// {5, nan} is NaN exactly when the chosen one is; BatchSelectOpTest._compare: a vector cond
// over the first dim of rank-3 x and y picks whole [2, 3] blocks (np.dstack of x_i or y_i).
TEST_CASE("where: SelectOpTest.testNan and BatchSelectOpTest (rank 3)") {
  auto c = tf::placeholder<"wn_c", bool>();
  auto a = tf::placeholder<"wn_a", float>();
  auto b = tf::placeholder<"wn_b", float>();
  auto w = tf::where(c, a, b);
  tf::session sess(w);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (bool cv : {false, true})
    for (float av : {7.0f, nan})
      for (float bv : {5.0f, nan}) {
        const float x = sess.run(w, tf::feed(c, cv), tf::feed(a, av), tf::feed(b, bv));
        const float y = cv ? av : bv;
        CHECK(std::isnan(x) == std::isnan(y));
        if (!std::isnan(y)) CHECK(x == y);
      }
  const auto xv = arange<double, 4, 2, 3>(0);
  const auto yv = arange<double, 4, 2, 3>(-100);
  const xt::xtensor_fixed<bool, xt::xshape<4>> cv{true, false, false, true};
  auto bw = tf::where(tf::constant<"wb_c">(cv), tf::constant<"wb_x">(xv), tf::constant<"wb_y">(yv));
  tf::session sb(bw);
  const auto got = sb.run(bw);
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 2; ++j)
      for (std::size_t k = 0; k < 3; ++k) CHECK(got(i, j, k) == (cv(i) ? xv(i, j, k) : yv(i, j, k)));
}

// --- reduce_max and reduce_min ---------------------------------------------------------------

// reduction_ops_test.py MaxReductionTest / MinReductionTest testFloatReduce3D and
// testDoubleReduce3D: np.arange(0, 30) reshaped to [2, 3, 5], reduced over None, [0], [1],
// [2], [0, 1], [1, 2], [0, 2] and [0, 1, 2], with and without keep_dims, against np.amax /
// np.amin computed here by loops.
template <class T, bool Max>
std::vector<double> np_extremum(unsigned mask) {
  const std::size_t dims[3] = {2, 3, 5};
  std::size_t out_dims[3];
  for (int a = 0; a < 3; ++a) out_dims[a] = (mask >> a) & 1 ? 1 : dims[a];
  std::vector<double> out(out_dims[0] * out_dims[1] * out_dims[2], Max ? -1e300 : 1e300);
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      for (std::size_t k = 0; k < 5; ++k) {
        const std::size_t oi = mask & 1 ? 0 : i, oj = mask & 2 ? 0 : j, ok = mask & 4 ? 0 : k;
        auto& o = out[(oi * out_dims[1] + oj) * out_dims[2] + ok];
        const double v = static_cast<double>(static_cast<T>(15 * i + 5 * j + k));
        o = Max ? std::max(o, v) : std::min(o, v);
      }
  return out;
}

template <class T, bool Max, std::ptrdiff_t... Axes, class S, class N>
void check_extremum(S& sess, const N& x, unsigned mask, std::vector<std::size_t> dims, std::vector<std::size_t> kept) {
  if constexpr (Max) {
    check_all(sess.run(tf::reduce_max<Axes...>(x)), dims, np_extremum<T, true>(mask));
    check_all(sess.run(tf::reduce_max<Axes...>(x, tf::keep_dims)), kept, np_extremum<T, true>(mask));
  } else {
    check_all(sess.run(tf::reduce_min<Axes...>(x)), dims, np_extremum<T, false>(mask));
    check_all(sess.run(tf::reduce_min<Axes...>(x, tf::keep_dims)), kept, np_extremum<T, false>(mask));
  }
}

template <class T, bool Max>
void reduce3d() {
  auto x = tf::constant<"rx_x">(arange<T, 2, 3, 5>(0));
  tf::session sess(x);
  const T all = Max ? sess.run(tf::reduce_max(x)) : sess.run(tf::reduce_min(x));
  CHECK(all == static_cast<T>(Max ? 29 : 0));
  check_extremum<T, Max, 0>(sess, x, 1, {3, 5}, {1, 3, 5});
  check_extremum<T, Max, 1>(sess, x, 2, {2, 5}, {2, 1, 5});
  check_extremum<T, Max, 2>(sess, x, 4, {2, 3}, {2, 3, 1});
  check_extremum<T, Max, 0, 1>(sess, x, 3, {5}, {1, 1, 5});
  check_extremum<T, Max, 1, 2>(sess, x, 6, {2}, {2, 1, 1});
  check_extremum<T, Max, 0, 2>(sess, x, 5, {3}, {1, 3, 1});
  check_extremum<T, Max, 0, 1, 2>(sess, x, 7, {}, {1, 1, 1});
}

TEST_CASE("reduce_max and reduce_min: testFloatReduce3D and testDoubleReduce3D") {
  reduce3d<float, true>();
  reduce3d<float, false>();
  reduce3d<double, true>();
  reduce3d<double, false>();
}

// reduction_ops_test.py MaxReductionTest / MinReductionTest testInfinity: [x, y] for x, y in
// {-inf, inf}, float32 and float64, against np.amax / np.amin.
template <class T>
void infinities() {
  const T inf = std::numeric_limits<T>::infinity();
  auto x = tf::placeholder<"ri_x", T, shape<2>>();
  auto mx = tf::reduce_max(x);
  auto mn = tf::reduce_min(x, tf::keep_dims);
  tf::session sess(mx, mn);
  for (T a : {-inf, inf})
    for (T b : {-inf, inf}) {
      const xt::xtensor_fixed<T, xt::xshape<2>> v{a, b};
      CHECK(sess.run(mx, tf::feed(x, v)) == std::max(a, b));
      check_values(sess.run(mn, tf::feed(x, v)), {1}, {static_cast<double>(std::min(a, b))}, 0);
    }
}

TEST_CASE("reduce_max and reduce_min: testInfinity") {
  infinities<float>();
  infinities<double>();
}
