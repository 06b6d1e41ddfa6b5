// Cases ported from TensorFlow 1.x's kernel tests for the array ops that sequence models use
// (concat, stack, unstack, split, clip_by_value; slicing ops in tf_slicing_ops_port_test.cpp,
// gather, reverse_sequence, sequence_mask, where and reductions in
// tf_sequence_ops_port_test.cpp: three files to keep each one quick to compile),
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

// --- concat ----------------------------------------------------------------------------------

// concat_op_test.py testZeroSize: inputs with 0, 1 or 2 rows along the axis, with a leading
// dim (2,) or none and a trailing dim (3,) or none; np.concatenate is the expected value.
TEST_CASE("concat: testZeroSize, static zero-size inputs (np.concatenate)") {
  auto e03 = tf::placeholder<"cz_e03", double, shape<0, 3>>();
  auto a23 = tf::constant<"cz_a23">(arange<double, 2, 3>(1));
  auto rows = tf::concat<0>(e03, a23);  // shape0 (), n0 0, n1 2, shape1 (3,)
  static_assert(has_shape<decltype(rows), shape<2, 3>>);
  auto e0 = tf::placeholder<"cz_e0", double, shape<0>>();
  auto none = tf::concat<0>(e0, e0);  // shape0 (), shape1 (), n0 = n1 = 0
  static_assert(has_shape<decltype(none), shape<0>>);
  auto e20 = tf::placeholder<"cz_e20", double, shape<2, 0>>();
  auto a21 = tf::constant<"cz_a21">(arange<double, 2, 1>(7));
  auto cols = tf::concat<1>(a21, e20);  // shape0 (2,), n0 1, n1 0
  static_assert(has_shape<decltype(cols), shape<2, 1>>);
  auto e203 = tf::placeholder<"cz_e203", double, shape<2, 0, 3>>();
  auto a223 = tf::constant<"cz_a223">(arange<double, 2, 2, 3>(0));
  auto mid = tf::concat<1>(e203, a223, e203);  // shape0 (2,), shape1 (3,)
  static_assert(has_shape<decltype(mid), shape<2, 2, 3>>);
  tf::session sess(rows, none, cols, mid);
  check_values(sess.run(rows, tf::feed(e03, empty_of<double, 2>({0, 3}))), {2, 3}, {1, 2, 3, 4, 5, 6});
  check_values(sess.run(none, tf::feed(e0, empty_of<double, 1>({0}))), {0}, {});
  check_values(sess.run(cols, tf::feed(e20, empty_of<double, 2>({2, 0}))), {2, 1}, {7, 8});
  check_all(sess.run(mid, tf::feed(e203, empty_of<double, 3>({2, 0, 3}))), {2, 2, 3}, elements(arange<double, 2, 2, 3>(0)));
}

// concat_op_test.py testRandom (bool, int32, int64): several inputs along an inner axis of a
// rank-5 tensor; each input is its slice of the result (result[ind] == params[p[i]]).
TEST_CASE("concat: testRandom, three int64 and bool inputs of rank 5 along axis 3") {
  auto p0 = tf::constant<"cr_p0">(arange<std::int64_t, 2, 1, 3, 1, 2>(0));
  auto p1 = tf::constant<"cr_p1">(arange<std::int64_t, 2, 1, 3, 3, 2>(100));
  auto p2 = tf::constant<"cr_p2">(arange<std::int64_t, 2, 1, 3, 2, 2>(1000));
  auto c = tf::concat<3>(p0, p1, p2);
  static_assert(has_shape<decltype(c), shape<2, 1, 3, 6, 2>>);
  tf::session sess(c);
  const auto got = sess.run(c);
  const auto v0 = arange<std::int64_t, 2, 1, 3, 1, 2>(0);
  const auto v1 = arange<std::int64_t, 2, 1, 3, 3, 2>(100);
  const auto v2 = arange<std::int64_t, 2, 1, 3, 2, 2>(1000);
  for (std::size_t a = 0; a < 2; ++a)
    for (std::size_t b = 0; b < 3; ++b)
      for (std::size_t k = 0; k < 2; ++k) {
        CHECK(got(a, 0, b, 0, k) == v0(a, 0, b, 0, k));
        for (std::size_t j = 0; j < 3; ++j) CHECK(got(a, 0, b, 1 + j, k) == v1(a, 0, b, j, k));
        for (std::size_t j = 0; j < 2; ++j) CHECK(got(a, 0, b, 4 + j, k) == v2(a, 0, b, j, k));
      }
  auto b0 = tf::constant<"cr_b0">(xt::xtensor_fixed<bool, xt::xshape<2, 2>>{{true, false}, {false, false}});
  auto b1 = tf::constant<"cr_b1">(xt::xtensor_fixed<bool, xt::xshape<2, 1>>{{true}, {true}});
  auto cb = tf::concat<-1>(b0, b1);
  tf::session sb(cb);
  check_values(sb.run(cb), {2, 3}, {1, 0, 1, 0, 0, 1});
}

// --- stack and unstack -------------------------------------------------------------------------

// stack_op_test.py testSimple / testAgainstNumpy: np_split_squeeze(data, axis) stacked back
// along the same axis is data, for every axis in [-rank, rank).
TEST_CASE("stack: testSimple and testAgainstNumpy, unstack then stack along each axis") {
  auto x = tf::constant<"st_x">(arange<std::int32_t, 2, 2, 3>(1));
  const auto want = elements(arange<std::int32_t, 2, 2, 3>(1));
  auto s0 = std::apply([](auto... p) { return tf::stack<-3>(p...); }, tf::unstack<-3>(x));
  auto s1 = std::apply([](auto... p) { return tf::stack<-2>(p...); }, tf::unstack<-2>(x));
  auto s2 = std::apply([](auto... p) { return tf::stack<-1>(p...); }, tf::unstack<-1>(x));
  auto s2p = std::apply([](auto... p) { return tf::stack<2>(p...); }, tf::unstack<2>(x));
  static_assert(has_shape<decltype(s1), shape<2, 2, 3>> && has_shape<decltype(s2), shape<2, 2, 3>>);
  tf::session sess(s0, s1, s2, s2p);
  check_all(sess.run(s0), {2, 2, 3}, want);
  check_all(sess.run(s1), {2, 2, 3}, want);
  check_all(sess.run(s2), {2, 2, 3}, want);
  check_all(sess.run(s2p), {2, 2, 3}, want);
  auto b = tf::constant<"st_b">(xt::xtensor_fixed<bool, xt::xshape<3, 2>>{{true, false}, {false, false}, {true, true}});
  auto sb = std::apply([](auto... p) { return tf::stack<1>(p...); }, tf::unstack<1>(b));
  tf::session ssb(sb);
  check_values(ssb.run(sb), {3, 2}, {1, 0, 0, 0, 1, 1});
}

// stack_op_test.py testZeroSizeCPU: two int32 zeros of shape (0,), (3, 0) and (0, 3) stack
// into (2, 0), (2, 3, 0) and (2, 0, 3).
TEST_CASE("stack: testZeroSizeCPU") {
  auto a = tf::placeholder<"sz_a", std::int32_t, shape<0>>();
  auto b = tf::placeholder<"sz_b", std::int32_t, shape<3, 0>>();
  auto c = tf::placeholder<"sz_c", std::int32_t, shape<0, 3>>();
  auto sa = tf::stack(a, a);
  auto sb = tf::stack(b, b);
  auto sc = tf::stack(c, c);
  static_assert(has_shape<decltype(sa), shape<2, 0>> && has_shape<decltype(sb), shape<2, 3, 0>> &&
                has_shape<decltype(sc), shape<2, 0, 3>>);
  tf::session sess(sa, sb, sc);
  check_values(sess.run(sa, tf::feed(a, empty_of<std::int32_t, 1>({0}))), {2, 0}, {});
  check_values(sess.run(sb, tf::feed(b, empty_of<std::int32_t, 2>({3, 0}))), {2, 3, 0}, {});
  check_values(sess.run(sc, tf::feed(c, empty_of<std::int32_t, 2>({0, 3}))), {2, 0, 3}, {});
}

// unstack_op_test.py testAgainstNumpy / testSimple: unstack(x, axis)[k] is x[..., k, ...]
// (unstackReference), for each axis in [-rank, rank) of a rank-3 float64 tensor.
TEST_CASE("unstack: testSimple and testAgainstNumpy on [2, 3, 4], every axis") {
  const auto v = arange<double, 2, 3, 4>(0);
  auto x = tf::constant<"us3_x">(v);
  auto [a0, a1] = tf::unstack<-3>(x);
  auto [b0, b1, b2] = tf::unstack<-2>(x);
  auto [c0, c1, c2, c3] = tf::unstack<-1>(x);
  static_assert(has_shape<decltype(a1), shape<3, 4>> && has_shape<decltype(b2), shape<2, 4>> &&
                has_shape<decltype(c3), shape<2, 3>>);
  tf::session sess(a1, b2, c3);
  const auto va = sess.run(a1);
  const auto vb = sess.run(b2);
  const auto vc = sess.run(c3);
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      for (std::size_t k = 0; k < 4; ++k) {
        if (i == 1) CHECK(va(j, k) == v(i, j, k));
        if (j == 2) CHECK(vb(i, k) == v(i, j, k));
        if (k == 3) CHECK(vc(i, j) == v(i, j, k));
      }
  (void)a0, (void)b0, (void)b1, (void)c0, (void)c1, (void)c2;
}

// unstack_op_test.py testZeroLengthDim: unstack(zeros([0, 1, 2]), axis=1)[0] has shape (0, 2).
TEST_CASE("unstack: testZeroLengthDim") {
  auto x = tf::placeholder<"uz_x", float, shape<0, 1, 2>>();
  auto [y] = tf::unstack<1>(x);
  static_assert(has_shape<decltype(y), shape<0, 2>>);
  tf::session sess(y);
  check_values(sess.run(y, tf::feed(x, empty_of<float, 3>({0, 1, 2}))), {0, 2}, {});
}

// --- split -------------------------------------------------------------------------------------

// split_op_test.py testSplitRows, testSplitCols, testIdentity and testSplitDim0 (_compare:
// np.split(x, num, dim)).
TEST_CASE("split: testSplitRows, testSplitCols, testIdentity, testSplitDim0") {
  const auto v = arange<float, 4, 4>(0);
  auto x = tf::constant<"sp_x">(v);
  auto rows = tf::split<4, 0>(x);
  auto cols = tf::split<4, 1>(x);
  tf::session sess(x);
  const auto r = sess.run(rows);
  const auto c = sess.run(cols);
  check_values(std::get<0>(r), {1, 4}, {0, 1, 2, 3});
  check_values(std::get<3>(r), {1, 4}, {12, 13, 14, 15});
  check_values(std::get<1>(c), {4, 1}, {1, 5, 9, 13});
  check_values(std::get<2>(c), {4, 1}, {2, 6, 10, 14});
  // testIdentity: one piece along each axis of a [2, 2, 2] is the input.
  auto cube = tf::constant<"sp_cube">(arange<double, 2, 2, 2>(0));
  auto [i0] = tf::split<1, 0>(cube);
  auto [i1] = tf::split<1, 1>(cube);
  auto [i2] = tf::split<1, 2>(cube);
  tf::session si(i0, i1, i2);
  const auto want = elements(arange<double, 2, 2, 2>(0));
  check_all(si.run(i0), {2, 2, 2}, want);
  check_all(si.run(i1), {2, 2, 2}, want);
  check_all(si.run(i2), {2, 2, 2}, want);
  // testSplitDim0: (6, 7, 9) in 3 along axis 0; piece k is rows 2k and 2k + 1.
  const auto big = arange<std::int64_t, 6, 7, 9>(0);
  auto d = tf::constant<"sp_d">(big);
  auto [d0, d1, d2] = tf::split<3, 0>(d);
  static_assert(has_shape<decltype(d1), shape<2, 7, 9>>);
  tf::session sd(d0, d1, d2);
  const auto [v0, v1, v2] = sd.run(std::tuple{d0, d1, d2});
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 7; ++j)
      for (std::size_t k = 0; k < 9; ++k) {
        CHECK(v0(i, j, k) == big(i, j, k));
        CHECK(v1(i, j, k) == big(2 + i, j, k));
        CHECK(v2(i, j, k) == big(4 + i, j, k));
      }
}

// split_op_test.py testEmpty: an (8, 0, 21) input split in 2 and 4 along axis 0, 4 along axis
// 1 (pieces of size 0), 3 and 7 along axis 2.
TEST_CASE("split: testEmpty") {
  auto x = tf::placeholder<"spe_x", float, shape<8, 0, 21>>();
  auto p0 = tf::split<2, 0>(x);
  auto p1 = tf::split<4, 0>(x);
  auto p2 = tf::split<4, 1>(x);
  auto p3 = tf::split<3, 2>(x);
  auto p4 = tf::split<7, 2>(x);
  static_assert(has_shape<std::tuple_element_t<1, decltype(p0)>, shape<4, 0, 21>>);
  static_assert(has_shape<std::tuple_element_t<3, decltype(p1)>, shape<2, 0, 21>>);
  static_assert(std::tuple_size_v<decltype(p2)> == 4 && has_shape<std::tuple_element_t<3, decltype(p2)>, shape<8, 0, 21>>);
  static_assert(has_shape<std::tuple_element_t<2, decltype(p3)>, shape<8, 0, 7>>);
  static_assert(std::tuple_size_v<decltype(p4)> == 7 && has_shape<std::tuple_element_t<6, decltype(p4)>, shape<8, 0, 3>>);
  tf::session sess(x);
  const auto e = empty_of<float, 3>({8, 0, 21});
  check_values(std::get<1>(sess.run(p0, tf::feed(x, e))), {4, 0, 21}, {});
  check_values(std::get<3>(sess.run(p2, tf::feed(x, e))), {8, 0, 21}, {});
  check_values(std::get<6>(sess.run(p4, tf::feed(x, e))), {8, 0, 3}, {});
}

// split_op_test.py testSpecialCasesVariable, testDegenerateVariable, testExplicitNum and
// testListOfScalarTensors (SplitV: python slices of the input).
TEST_CASE("split: testSpecialCasesVariable, testDegenerateVariable, testExplicitNum, testListOfScalarTensors") {
  const auto v = arange<float, 4, 4>(0);
  auto x = tf::constant<"spv_x">(v);
  auto [whole] = tf::split<ints<4>, 0>(x);
  auto [top, rest] = tf::split<ints<-1, 3>, 0>(x);  // inp[0:1, :], inp[1:4, :]
  auto [none0, all0] = tf::split<ints<-1, 4>, 0>(x);
  auto [all0b, none0b] = tf::split<ints<4, -1>, 0>(x);
  auto [none1, all1] = tf::split<ints<-1, 4>, 1>(x);
  auto [all1b, none1b] = tf::split<ints<4, -1>, 1>(x);
  static_assert(has_shape<decltype(top), shape<1, 4>> && has_shape<decltype(rest), shape<3, 4>>);
  static_assert(has_shape<decltype(none0), shape<0, 4>> && has_shape<decltype(none0b), shape<0, 4>>);
  static_assert(has_shape<decltype(none1), shape<4, 0>> && has_shape<decltype(none1b), shape<4, 0>>);
  tf::session sess(whole, top, rest, none0, all0, all0b, none0b, none1, all1, all1b, none1b);
  const auto want = elements(v);
  check_all(sess.run(whole), {4, 4}, want);
  check_values(sess.run(top), {1, 4}, {0, 1, 2, 3});
  check_values(sess.run(rest), {3, 4}, {4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
  check_values(sess.run(none0), {0, 4}, {});
  check_all(sess.run(all0), {4, 4}, want);
  check_all(sess.run(all0b), {4, 4}, want);
  check_values(sess.run(none0b), {0, 4}, {});
  check_values(sess.run(none1), {4, 0}, {});
  check_all(sess.run(all1), {4, 4}, want);
  check_all(sess.run(all1b), {4, 4}, want);
  check_values(sess.run(none1b), {4, 0}, {});
  // testExplicitNum: [1, ..., 10] in sizes [2, 2, 6].
  auto ten = tf::constant<"spv_ten">(arange<std::int32_t, 10>(1));
  auto [t0, t1, t2] = tf::split<ints<2, 2, 6>, 0>(ten);
  tf::session st(t0, t1, t2);
  check_values(st.run(t0), {2}, {1, 2});
  check_values(st.run(t1), {2}, {3, 4});
  check_values(st.run(t2), {6}, {5, 6, 7, 8, 9, 10});
  // testListOfScalarTensors: an (11, 11) input in sizes [5, 6] along axis 0.
  const auto e = arange<double, 11, 11>(0);
  auto eleven = tf::constant<"spv_11">(e);
  auto [f5, f6] = tf::split<ints<5, 6>, 0>(eleven);
  tf::session s11(f5, f6);
  const auto g5 = s11.run(f5);
  const auto g6 = s11.run(f6);
  for (std::size_t j = 0; j < 11; ++j) {
    for (std::size_t i = 0; i < 5; ++i) CHECK(g5(i, j) == e(i, j));
    for (std::size_t i = 0; i < 6; ++i) CHECK(g6(i, j) == e(5 + i, j));
  }
}

// split_op_test.py testOutputShape: a [None, 12] input in sizes [3, 7, 2] along 1 and -1.
TEST_CASE("split: testOutputShape") {
  auto t = tf::placeholder<"spo_t", float, shape<dyn, 12>>();
  auto p = tf::split<ints<3, 7, 2>, 1>(t);
  auto n = tf::split<ints<3, 7, 2>, -1>(t);
  static_assert(has_shape<std::tuple_element_t<0, decltype(p)>, shape<dyn, 3>>);
  static_assert(has_shape<std::tuple_element_t<1, decltype(p)>, shape<dyn, 7>>);
  static_assert(has_shape<std::tuple_element_t<2, decltype(p)>, shape<dyn, 2>>);
  static_assert(std::is_same_v<decltype(p), decltype(n)>);
  tf::session sess(t);
  const auto got = sess.run(p, tf::feed(t, xt::xtensor<float, 2>(arange<float, 2, 12>(0))));
  check_values(std::get<2>(got), {2, 2}, {10, 11, 22, 23});
}

// --- clip_by_value -----------------------------------------------------------------------------

// clip_ops_test.py testClipByValue0Type .. testClipByValue3Type: x = [[1, 2, 3], [4, 5, 6]]
// clipped by scalar and tensor bounds, for float32, float64, int32 and int64.
template <class T>
void clip_types() {
  using m23 = xt::xtensor_fixed<T, xt::xshape<2, 3>>;
  auto x = tf::constant<"cv_x">(m23{{1, 2, 3}, {4, 5, 6}});
  auto lo1 = tf::constant<"cv_lo1">(m23{{2, 2, 2}, {3, 3, 3}});
  auto hi2 = tf::constant<"cv_hi2">(m23{{6, 6, 6}, {6, 6, 6}});
  auto lo3 = tf::constant<"cv_lo3">(m23{{2, 2, 2}, {5, 5, 5}});
  auto hi3 = tf::constant<"cv_hi3">(m23{{5, 5, 5}, {7, 7, 7}});
  auto c0 = tf::clip_by_value(x, tf::constant<2>(), tf::constant<4>());
  auto c1 = tf::clip_by_value(x, lo1, tf::constant<4>());
  auto c2 = tf::clip_by_value(x, tf::constant<4>(), hi2);
  auto c3 = tf::clip_by_value(x, lo3, hi3);
  static_assert(std::is_same_v<tf::value_type_of<decltype(c3)>, T> && has_shape<decltype(c0), shape<2, 3>>);
  tf::session sess(c0, c1, c2, c3);
  check_values(sess.run(c0), {2, 3}, {2, 2, 3, 4, 4, 4});
  check_values(sess.run(c1), {2, 3}, {2, 2, 3, 4, 4, 4});
  check_values(sess.run(c2), {2, 3}, {4, 4, 4, 4, 5, 6});
  check_values(sess.run(c3), {2, 3}, {2, 2, 3, 5, 5, 6});
}

TEST_CASE("clip_by_value: testClipByValue0Type, 1Type, 2Type, 3Type") {
  clip_types<float>();
  clip_types<double>();
  clip_types<std::int32_t>();
  clip_types<std::int64_t>();
}
