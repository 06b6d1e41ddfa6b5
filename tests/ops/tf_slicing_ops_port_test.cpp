// Cases ported from TensorFlow 1.x's kernel tests for the array ops that sequence models use
// (slice, strided_slice, expand_dims, squeeze, tile, reverse),
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

// --- slice -------------------------------------------------------------------------------------

// slice_op_test.py testSlicingInt64Tensor / testSlicingWithInt64Index, testSelectAll,
// testSliceMatrixDim0, testPartialShapeInference and testComputedShape.
TEST_CASE("slice: testSlicingInt64Tensor, testSelectAll, testSliceMatrixDim0, testPartialShapeInference, testComputedShape") {
  auto a64 = tf::constant<"sl_a64">(xt::xtensor_fixed<std::int64_t, xt::xshape<3>>{0, 1, 2});
  auto a32 = tf::constant<"sl_a32">(xt::xtensor_fixed<std::int32_t, xt::xshape<3>>{0, 1, 2});
  auto af = tf::constant<"sl_af">(xt::xtensor_fixed<float, xt::xshape<3>>{0, 1, 2});
  auto s64 = tf::slice<ints<1>, ints<2>>(a64);
  auto s32 = tf::slice<ints<1>, ints<2>>(a32);
  auto sf = tf::slice<ints<1>, ints<2>>(af);
  auto one = tf::strided_slice<ints<1>, ints<2>, ints<>, 0, 0, 1>(a64);  // a[i]
  auto one_range = tf::strided_slice<ints<1>, ints<2>>(a64);             // a[i:i+1]
  tf::session sess(s64, s32, sf, one, one_range);
  check_values(sess.run(s64), {2}, {1, 2});
  check_values(sess.run(s32), {2}, {1, 2});
  check_values(sess.run(sf), {2}, {1, 2});
  CHECK(sess.run(one) == 1);
  check_values(sess.run(one_range), {1}, {1});
  // testSelectAll: begin 0 and size -1 everywhere is the input.
  const auto v4 = arange<float, 4, 4, 4, 4>(0);
  auto a4 = tf::constant<"sl_a4">(v4);
  auto all = tf::slice<ints<0, 0, 0, 0>, ints<-1, -1, -1, -1>>(a4);
  static_assert(has_shape<decltype(all), shape<4, 4, 4, 4>>);
  // testSliceMatrixDim0: x[begin:begin + size, :] of an (8, 4) and an (8, 7).
  const auto v84 = arange<float, 8, 4>(0);
  const auto v87 = arange<float, 8, 7>(0);
  auto x84 = tf::constant<"sl_84">(v84);
  auto x87 = tf::constant<"sl_87">(v87);
  auto m1 = tf::slice<ints<1, 0>, ints<2, 4>>(x84);
  auto m2 = tf::slice<ints<3, 0>, ints<3, 4>>(x84);
  auto m3 = tf::slice<ints<1, 0>, ints<2, 7>>(x87);
  auto m4 = tf::slice<ints<3, 0>, ints<3, 7>>(x87);
  tf::session sm(all, m1, m2, m3, m4);
  check_all(sm.run(all), {4, 4, 4, 4}, elements(v4));
  const auto check_rows = [](const auto& got, const auto& x, std::size_t begin, std::size_t size, std::size_t cols) {
    REQUIRE(shape_vector(got) == std::vector<std::size_t>{size, cols});
    for (std::size_t i = 0; i < size; ++i)
      for (std::size_t j = 0; j < cols; ++j) CHECK(got(i, j) == x(begin + i, j));
  };
  check_rows(sm.run(m1), v84, 1, 2, 4);
  check_rows(sm.run(m2), v84, 3, 3, 4);
  check_rows(sm.run(m3), v87, 1, 2, 7);
  check_rows(sm.run(m4), v87, 3, 3, 7);
  // testPartialShapeInference: slice(zeros((1, 2, 3)), [0, 0, 0], [-1, -1, -1]) is [1, 2, 3].
  auto z = tf::constant<"sl_z">(xt::xtensor_fixed<float, xt::xshape<1, 2, 3>>{});
  static_assert(has_shape<decltype(tf::slice<ints<0, 0, 0>, ints<-1, -1, -1>>(z)), shape<1, 2, 3>>);
  // testComputedShape: slice([[1, 2, 3], [4, 5, 6]], [0, 0], [1, 2]) has shape [1, 2].
  auto c = tf::constant<"sl_c">(xt::xtensor_fixed<std::int32_t, xt::xshape<2, 3>>{{1, 2, 3}, {4, 5, 6}});
  auto b = tf::slice<ints<0, 0>, ints<1, 2>>(c);
  static_assert(has_shape<decltype(b), shape<1, 2>>);
  tf::session sc(b);
  check_values(sc.run(b), {1, 2}, {1, 2});
}

// slice_op_test.py testOutOfBoundsSizeWithConstantInput: slice([0, 1, 2, 3], [1], [4]) is
// InvalidArgument "Expected size[0] in [0, 3]". With a static shape it does not compile
// (tests/ops/compile_fail/); with a dyn one the run fails with TensorFlow's message.
TEST_CASE("slice: testOutOfBoundsSizeWithConstantInput, at run time") {
  auto x = tf::placeholder<"slo_x", std::int32_t, shape<dyn>>();
  auto s = tf::slice<ints<1>, ints<4>>(x);
  tf::session sess(s);
  CHECK_THROWS_WITH_AS(sess.run(s, tf::feed(x, xt::xtensor<std::int32_t, 1>{0, 1, 2, 3})),
                       doctest::Contains("Expected size[0] in [0, 3], but got 4"), tf::invalid_argument_error);
}

// slice_op_test.py testEmpty / testInt32 (a[2, k:k] is empty), testSingleDimension (a[hi],
// a[lo:hi]) and testSliceOfSlice (2 * d - c[1, :] + a[2, :] - 2 * b[-2, :] is [0, 0, 0]).
TEST_CASE("slice: testEmpty, testInt32, testSingleDimension, testSliceOfSlice") {
  auto a = tf::constant<"sle_a">(arange<std::int32_t, 4, 4>(0));
  auto e0 = tf::strided_slice<ints<2, 0>, ints<3, 0>, ints<>, 0, 0, 1>(a);  // a[2, 0:0]
  auto e3 = tf::strided_slice<ints<2, 3>, ints<3, 3>, ints<>, 0, 0, 1>(a);  // a[2, 3:3]
  static_assert(has_shape<decltype(e0), shape<0>> && has_shape<decltype(e3), shape<0>>);
  auto ten = tf::constant<"sle_10">(arange<float, 10>(0));
  auto at7 = tf::strided_slice<ints<7>, ints<8>, ints<>, 0, 0, 1>(ten);  // a[7]
  auto lo_hi = tf::strided_slice<ints<3>, ints<7>>(ten);                // a[3:7]
  tf::session sess(e0, e3, at7, lo_hi);
  check_values(sess.run(e0), {0}, {});
  check_values(sess.run(e3), {0}, {});
  CHECK(sess.run(at7) == 7.0f);
  check_values(sess.run(lo_hi), {4}, {3, 4, 5, 6});

  auto m = tf::constant<"sle_m">(xt::xtensor_fixed<std::int32_t, xt::xshape<4, 3>>{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}});
  auto b = tf::strided_slice<ints<1, 0>, ints<0, 0>, ints<>, 2, 3>(m);       // a[1:, :]
  auto c = tf::strided_slice<ints<0, 0>, ints<-1, 0>, ints<>, 1, 2>(b);      // b[:-1, :]
  auto d = tf::strided_slice<ints<1, 0>, ints<2, 0>, ints<>, 2, 2, 1>(c);    // c[1, :]
  auto c1 = tf::strided_slice<ints<1, 0>, ints<2, 0>, ints<>, 2, 2, 1>(c);   // c[1, :]
  auto a2 = tf::strided_slice<ints<2, 0>, ints<3, 0>, ints<>, 2, 2, 1>(m);   // a[2, :]
  auto bm2 = tf::strided_slice<ints<-2, 0>, ints<-1, 0>, ints<>, 2, 2, 1>(b);  // b[-2, :]
  auto res = tf::constant<2>() * d - c1 + a2 - tf::constant<2>() * bm2;
  static_assert(has_shape<decltype(res), shape<3>>);
  tf::session sr(res);
  check_values(sr.run(res), {3}, {0, 0, 0});
}

// --- strided_slice -----------------------------------------------------------------------------

// array_ops_test.py StridedSliceTest.test_basic_slice on REF_TENSOR = np.arange(1, 19)
// reshaped to (3, 2, 3), against python's slicing of the same values; testInt64GPU.
TEST_CASE("strided_slice: test_basic_slice and testInt64GPU") {
  auto t = tf::constant<"ssb_t">(arange<std::int32_t, 3, 2, 3>(1));
  auto id = tf::strided_slice<ints<0, 0, 0>, ints<0, 0, 0>, ints<1, 1, 1>, 7, 7>(t);      // [::1, ::1, ::1]
  auto skip = tf::strided_slice<ints<0, 0, 0>, ints<0, 0, 0>, ints<1, 5, 2>, 7, 7>(t);    // [::1, ::5, ::2]
  auto r0 = tf::strided_slice<ints<0, 0, 0>, ints<0, 0, 0>, ints<-1, 1, 1>, 7, 7>(t);     // [::-1, :, :]
  auto r1 = tf::strided_slice<ints<0, 0, 0>, ints<0, 0, 0>, ints<1, -1, 1>, 7, 7>(t);     // [:, ::-1, :]
  auto r2 = tf::strided_slice<ints<0, 0, 0>, ints<0, 0, 0>, ints<1, 1, -1>, 7, 7>(t);     // [:, :, ::-1]
  auto n1 = tf::strided_slice<ints<-2, 0, 0>, ints<0, 0, 0>, ints<-1, 1, 1>, 6, 7>(t);    // [-2::-1, :, ::1]
  auto n2 = tf::strided_slice<ints<-2, 0, 0>, ints<0, 0, 0>, ints<-1, 1, 2>, 6, 7>(t);    // [-2::-1, :, ::2]
  static_assert(has_shape<decltype(skip), shape<3, 1, 2>> && has_shape<decltype(n2), shape<2, 2, 2>>);
  tf::session sess(id, skip, r0, r1, r2, n1, n2);
  check_all(sess.run(id), {3, 2, 3}, elements(arange<std::int32_t, 3, 2, 3>(1)));
  check_values(sess.run(skip), {3, 1, 2}, {1, 3, 7, 9, 13, 15});
  check_values(sess.run(r0), {3, 2, 3}, {13, 14, 15, 16, 17, 18, 7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6});
  check_values(sess.run(r1), {3, 2, 3}, {4, 5, 6, 1, 2, 3, 10, 11, 12, 7, 8, 9, 16, 17, 18, 13, 14, 15});
  check_values(sess.run(r2), {3, 2, 3}, {3, 2, 1, 6, 5, 4, 9, 8, 7, 12, 11, 10, 15, 14, 13, 18, 17, 16});
  check_values(sess.run(n1), {2, 2, 3}, {7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6});
  check_values(sess.run(n2), {2, 2, 2}, {7, 9, 10, 12, 1, 3, 4, 6});
  // testInt64GPU: strided_slice([1., 2., 3.], [2], [3], [1]) is [3.].
  auto x = tf::constant<"ssb_x">(xt::xtensor_fixed<float, xt::xshape<3>>{1, 2, 3});
  auto s = tf::strided_slice<ints<2>, ints<3>, ints<1>>(x);
  tf::session sx(s);
  check_values(sx.run(s), {1}, {3});
}

// array_ops_test.py StridedSliceTest.testDegenerateSlices, testShrink and testOptimizedCases.
TEST_CASE("strided_slice: testDegenerateSlices, testShrink, testOptimizedCases") {
  auto t = tf::constant<"ssd_t">(arange<std::int32_t, 3, 2, 3>(1));
  auto d1 = tf::strided_slice<ints<0, 0, 0>, ints<-1, 0, 0>, ints<-1, 1, 1>, 6, 6>(t);  // [0:-1:-1, :, :]
  auto d2 = tf::strided_slice<ints<-1, 0, 0>, ints<0, 0, 0>, ints<1, 1, 1>, 6, 6>(t);   // [-1:0, :, :]
  auto d3 = tf::strided_slice<ints<-1, 2, 2>, ints<0, 2, 3>, ints<1, 1, -1>>(t);        // [-1:0, 2:2, 2:3:-1]
  static_assert(has_shape<decltype(d1), shape<0, 2, 3>> && has_shape<decltype(d2), shape<0, 2, 3>> &&
                has_shape<decltype(d3), shape<0, 0, 0>>);
  // testShrink: raw of shape (1, 2, 1, 3, 4).
  using raw_t = xt::xtensor_fixed<std::int32_t, xt::xshape<1, 2, 1, 3, 4>>;
  const raw_t raw{{{{{1, 2, 4, 5}, {5, 6, 7, 8}, {9, 10, 11, 12}}}, {{{13, 14, 15, 16}, {17, 18, 19, 20}, {21, 22, 23, 24}}}}};
  auto r = tf::constant<"ssd_raw">(raw);
  auto last3 = tf::strided_slice<ints<0, 0, 0, 0, 3>, ints<0, 0, 0, 0, 4>, ints<>, 15, 15, 16>(r);  // [:, :, :, :, 3]
  auto first = tf::strided_slice<ints<0, 0>, ints<0, 1>, ints<>, 1, 1, 2>(r);                       // [:, 0]
  auto third = tf::strided_slice<ints<0, 0, 0>, ints<0, 0, 1>, ints<>, 3, 3, 4>(r);                 // [:, :, 0]
  static_assert(has_shape<decltype(last3), shape<1, 2, 1, 3>> && has_shape<decltype(first), shape<1, 1, 3, 4>> &&
                has_shape<decltype(third), shape<1, 2, 3, 4>>);
  // testOptimizedCases: REF_TENSOR_ALIGNED = np.arange(1, 97) as (3, 4, 8), [1:].
  auto al = tf::constant<"ssd_al">(arange<float, 3, 4, 8>(1));
  auto tail = tf::strided_slice<ints<1>, ints<0>, ints<>, 0, 1>(al);
  static_assert(has_shape<decltype(tail), shape<2, 4, 8>>);
  tf::session sess(d1, d2, d3, last3, first, third, tail);
  CHECK(sess.run(d1).size() == 0);
  CHECK(sess.run(d2).size() == 0);
  CHECK(sess.run(d3).size() == 0);
  check_values(sess.run(last3), {1, 2, 1, 3}, {5, 8, 12, 16, 20, 24});
  check_values(sess.run(first), {1, 1, 3, 4}, {1, 2, 4, 5, 5, 6, 7, 8, 9, 10, 11, 12});
  check_all(sess.run(third), {1, 2, 3, 4}, elements(raw));
  std::vector<double> want;
  for (int i = 33; i <= 96; ++i) want.push_back(i);
  check_all(sess.run(tail), {2, 4, 8}, want);
}

// array_ops_test.py StridedSliceShapeTest.testTensorShapeUncertain: the static shapes of
// slices of a (5, None, 7) tensor (the cases without np.newaxis).
TEST_CASE("strided_slice: testTensorShapeUncertain") {
  auto a = tf::placeholder<"ssu_a", float, shape<5, dyn, 7>>();
  static_assert(has_shape<decltype(tf::strided_slice<ints<3>, ints<5>>(a)), shape<2, dyn, 7>>);                 // a[3:5]
  static_assert(has_shape<decltype(tf::strided_slice<ints<3, 0, 4>, ints<5, 0, 5>, ints<>, 2, 2, 4>(a)),
                          shape<2, dyn>>);                                                                        // a[3:5, :, 4]
  static_assert(has_shape<decltype(tf::strided_slice<ints<3, 3, 4>, ints<5, 4, 5>, ints<>, 0, 0, 4>(a)),
                          shape<2, dyn>>);                                                                        // a[3:5, 3:4, 4]
  static_assert(has_shape<decltype(tf::strided_slice<ints<3, 0, 5>, ints<5, 0, 10>, ints<>, 2, 2>(a)),
                          shape<2, dyn, 2>>);                                                                     // a[3:5, :, 5:10]
  static_assert(has_shape<decltype(tf::strided_slice<ints<3, 0, 50>, ints<5, 0, 3>, ints<>, 2, 2>(a)),
                          shape<2, dyn, 0>>);                                                                     // a[3:5, :, 50:3]
  static_assert(has_shape<decltype(tf::strided_slice<ints<1, 0, 50>, ints<5, 0, 3>, ints<2, 1, 1>, 2, 2>(a)),
                          shape<2, dyn, 0>>);                                                                     // a[1:5:2, :, 50:3]
  static_assert(has_shape<decltype(tf::strided_slice<ints<0, 0, 50>, ints<5, 0, 3>, ints<3, 1, 1>, 3, 2>(a)),
                          shape<2, dyn, 0>>);                                                                     // a[:5:3, :, 50:3]
  static_assert(has_shape<decltype(tf::strided_slice<ints<0, 0, 50>, ints<2, 0, 3>, ints<3, 1, 1>, 3, 2>(a)),
                          shape<1, dyn, 0>>);                                                                     // a[:2:3, :, 50:3]
  static_assert(has_shape<decltype(tf::strided_slice<ints<0, 0, 0>, ints<0, 0, 0>, ints<-1, 1, -2>, 7, 7>(a)),
                          shape<5, dyn, 4>>);                                                                     // a[::-1, :, ::-2]
  // and the values of the last one, fed a (5, 1, 7)
  auto rev = tf::strided_slice<ints<0, 0, 0>, ints<0, 0, 0>, ints<-1, 1, -2>, 7, 7>(a);
  tf::session sess(rev);
  const auto got = sess.run(rev, tf::feed(a, xt::xtensor<float, 3>(arange<float, 5, 1, 7>(0))));
  REQUIRE(shape_vector(got) == std::vector<std::size_t>{5, 1, 4});
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t k = 0; k < 4; ++k) CHECK(got(i, 0, k) == float(7 * (4 - i) + (6 - 2 * k)));
}

// --- expand_dims, squeeze, tile, reverse ------------------------------------------------------

// shape_ops_test.py testExpandDims / testExpandDimsBool (np.expand_dims), testExpandDimsScalar.
TEST_CASE("expand_dims: testExpandDims, testExpandDimsBool, testExpandDimsScalar") {
  auto x = tf::constant<"ex_x">(arange<double, 2, 3>(0));
  static_assert(has_shape<decltype(tf::expand_dims<0>(x)), shape<1, 2, 3>>);
  static_assert(has_shape<decltype(tf::expand_dims<1>(x)), shape<2, 1, 3>>);
  static_assert(has_shape<decltype(tf::expand_dims<2>(x)), shape<2, 3, 1>>);
  static_assert(has_shape<decltype(tf::expand_dims<-1>(x)), shape<2, 3, 1>>);
  static_assert(has_shape<decltype(tf::expand_dims<-2>(x)), shape<2, 1, 3>>);
  auto y = tf::placeholder<"ex_y", bool, shape<2, 3, 5>>();
  static_assert(has_shape<decltype(tf::expand_dims<1>(y)), shape<2, 1, 3, 5>>);
  static_assert(has_shape<decltype(tf::expand_dims<-2>(y)), shape<2, 3, 1, 5>>);
  static_assert(has_shape<decltype(tf::expand_dims<-3>(y)), shape<2, 1, 3, 5>>);
  auto e = tf::expand_dims<-2>(x);
  auto bv = tf::constant<"ex_bv">(xt::xtensor_fixed<bool, xt::xshape<3>>{false, true, true});
  auto eb = tf::expand_dims<-1>(bv);
  auto seven = tf::constant<"ex_7">(std::int32_t{7});
  auto s0 = tf::expand_dims<0>(seven);
  auto s1 = tf::expand_dims<-1>(seven);
  auto truth = tf::constant<"ex_true">(true);
  auto t0 = tf::expand_dims<0>(truth);
  static_assert(has_shape<decltype(s1), shape<1>> && has_shape<decltype(t0), shape<1>>);
  tf::session sess(e, eb, s0, s1, t0);
  check_values(sess.run(e), {2, 1, 3}, {0, 1, 2, 3, 4, 5});
  check_values(sess.run(eb), {3, 1}, {0, 1, 1});
  check_values(sess.run(s0), {1}, {7});
  check_values(sess.run(s1), {1}, {7});
  check_values(sess.run(t0), {1}, {1});
}

// shape_ops_test.py testSqueeze, testSqueezeBool, testSqueezeSpecificDimension,
// testSqueezeAllOnes(Bool), testSqueezeOnlyOnes, and OperatorShapeTest.testSqueezeMatrix.
TEST_CASE("squeeze: testSqueeze, testSqueezeSpecificDimension, testSqueezeAllOnes, testSqueezeOnlyOnes") {
  auto v2 = tf::placeholder<"sq2_v2", double, shape<2>>();
  auto m23 = tf::placeholder<"sq2_m23", double, shape<2, 3>>();
  auto mid = tf::placeholder<"sq2_mid", bool, shape<2, 1, 2>>();
  auto ends = tf::placeholder<"sq2_ends", double, shape<1, 2, 1, 3, 1>>();
  static_assert(has_shape<decltype(tf::squeeze(v2)), shape<2>>);  // nothing to squeeze
  static_assert(has_shape<decltype(tf::squeeze(m23)), shape<2, 3>>);
  static_assert(has_shape<decltype(tf::squeeze(mid)), shape<2, 2>>);
  static_assert(has_shape<decltype(tf::squeeze(ends)), shape<2, 3>>);
  static_assert(has_shape<decltype(tf::squeeze<0>(ends)), shape<2, 1, 3, 1>>);
  static_assert(has_shape<decltype(tf::squeeze<2, 4>(ends)), shape<1, 2, 3>>);
  static_assert(has_shape<decltype(tf::squeeze<0, 4, 2>(ends)), shape<2, 3>>);
  static_assert(has_shape<decltype(tf::squeeze<-1>(ends)), shape<1, 2, 1, 3>>);
  static_assert(has_shape<decltype(tf::squeeze<-3, -5>(ends)), shape<2, 3, 1>>);
  static_assert(has_shape<decltype(tf::squeeze<-3, -5, -1>(ends)), shape<2, 3>>);
  auto ones = tf::constant<"sq2_ones">(xt::xtensor_fixed<float, xt::xshape<1, 1, 1>>{{{0}}});
  auto f = tf::constant<"sq2_false">(xt::xtensor_fixed<bool, xt::xshape<1, 1, 1>>{{{false}}});
  auto row = tf::constant<"sq2_row">(xt::xtensor_fixed<std::int32_t, xt::xshape<1, 1, 3>>{{{1, 2, 3}}});
  static_assert(has_shape<decltype(tf::squeeze(ones)), shape<>> && has_shape<decltype(tf::squeeze(f)), shape<>>);
  static_assert(has_shape<decltype(tf::squeeze(row)), shape<3>>);
  static_assert(has_shape<decltype(tf::squeeze<0>(row)), shape<1, 3>> && has_shape<decltype(tf::squeeze<1>(row)), shape<1, 3>>);
  auto mb = tf::squeeze(mid);
  auto e = tf::squeeze<-3, -5>(ends);
  auto so = tf::squeeze(ones);
  auto sf = tf::squeeze(f);
  auto sr = tf::squeeze<1>(row);
  tf::session sess(mb, e, so, sf, sr);
  const xt::xtensor<bool, 3> bv{{{true, false}}, {{false, true}}};
  check_values(sess.run(mb, tf::feed(mid, bv)), {2, 2}, {1, 0, 0, 1});
  check_values(sess.run(e, tf::feed(ends, xt::xtensor<double, 5>(arange<double, 1, 2, 1, 3, 1>(0)))), {2, 3, 1},
               {0, 1, 2, 3, 4, 5});
  CHECK(sess.run(so) == 0.0f);
  CHECK(sess.run(sf) == false);
  check_values(sess.run(sr), {1, 3}, {1, 2, 3});
  // OperatorShapeTest.testSqueezeMatrix: squeeze([[1, 2, 3]], [0]) has shape (3).
  auto matrix = tf::constant<"sq2_matrix">(xt::xtensor_fixed<std::int32_t, xt::xshape<1, 3>>{{1, 2, 3}});
  static_assert(has_shape<decltype(tf::squeeze<0>(matrix)), shape<3>>);
}

// shape_ops_test.py testSqueezeWithUnknownShape: squeeze(a, [1]) of a [2, None] is [2] (and
// a run feeding size 1 there works). TensorFlow's squeeze(a) without axes has an unknown
// shape; typeflow keeps the dyn dim (docs/reference/array-ops.md, "Differences").
TEST_CASE("squeeze: testSqueezeWithUnknownShape") {
  auto a = tf::placeholder<"squ_a", float, shape<2, dyn>>();
  auto s = tf::squeeze<1>(a);
  static_assert(has_shape<decltype(s), shape<2>>);
  static_assert(has_shape<decltype(tf::squeeze(a)), shape<2, dyn>>);
  tf::session sess(s);
  check_values(sess.run(s, tf::feed(a, xt::xtensor<float, 2>{{3}, {4}})), {2}, {3, 4});
}

// shape_ops_test.py TileTest: testScalar, testSimple (np.tile(inp, (1, 4))),
// testIdentityTileAndGrad, testEmpty and testTypes (bool, float32, float64, int32, int64).
TEST_CASE("tile: testScalar, testSimple, testIdentityTileAndGrad, testEmpty, testTypes") {
  auto seven = tf::constant<"ti2_7">(7.0f);
  auto ts = tf::tile<>(seven);
  static_assert(has_shape<decltype(ts), shape<>>);
  const auto inp = arange<float, 4, 1>(1);
  auto a = tf::constant<"ti2_a">(inp);
  auto t14 = tf::tile<1, 4>(a);
  auto t11 = tf::tile<1, 1>(a);
  static_assert(has_shape<decltype(t14), shape<4, 4>> && has_shape<decltype(t11), shape<4, 1>>);
  auto b = tf::constant<"ti2_b">(arange<float, 2, 3>(0));
  auto te = tf::tile<5, 0>(b);
  static_assert(has_shape<decltype(te), shape<10, 0>>);
  tf::session sess(ts, t14, t11, te);
  CHECK(sess.run(ts) == 7.0f);
  check_values(sess.run(t14), {4, 4}, {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4});
  check_values(sess.run(t11), {4, 1}, {1, 2, 3, 4});
  check_values(sess.run(te), {10, 0}, {});
  auto bools = tf::constant<"ti2_bools">(xt::xtensor_fixed<bool, xt::xshape<4, 1>>{{true}, {false}, {false}, {true}});
  auto i64 = tf::constant<"ti2_i64">(arange<std::int64_t, 4, 1>(-2));
  auto i32 = tf::constant<"ti2_i32">(arange<std::int32_t, 4, 1>(5));
  auto f64 = tf::constant<"ti2_f64">(arange<double, 4, 1>(0.5));
  auto tb = tf::tile<1, 4>(bools);
  auto t64 = tf::tile<1, 4>(i64);
  auto t32 = tf::tile<1, 4>(i32);
  auto td = tf::tile<1, 4>(f64);
  tf::session st(tb, t64, t32, td);
  check_values(st.run(tb), {4, 4}, {1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1});
  check_values(st.run(t64), {4, 4}, {-2, -2, -2, -2, -1, -1, -1, -1, 0, 0, 0, 0, 1, 1, 1, 1});
  check_values(st.run(t32), {4, 4}, {5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8});
  check_values(st.run(td), {4, 4}, {0.5, 0.5, 0.5, 0.5, 1.5, 1.5, 1.5, 1.5, 2.5, 2.5, 2.5, 2.5, 3.5, 3.5, 3.5, 3.5});
}

// shape_ops_test.py TileTest._RunAndVerifyResult (testRandom): np.tile of a rank-5 input,
// out[i] = in[i mod dims] for every index.
TEST_CASE("tile: testRandom, a rank-5 input against np.tile") {
  const auto v = arange<float, 2, 1, 3, 1, 2>(0);
  auto x = tf::constant<"tir_x">(v);
  auto t = tf::tile<2, 3, 1, 2, 3>(x);
  static_assert(has_shape<decltype(t), shape<4, 3, 3, 2, 6>>);
  tf::session sess(t);
  const auto got = sess.run(t);
  for (std::size_t a = 0; a < 4; ++a)
    for (std::size_t b = 0; b < 3; ++b)
      for (std::size_t c = 0; c < 3; ++c)
        for (std::size_t d = 0; d < 2; ++d)
          for (std::size_t e = 0; e < 6; ++e) CHECK(got(a, b, c, d, e) == v(a % 2, 0, c, 0, e % 2));
}

// array_ops_test.py ReverseV2Test: testReverse0DimAuto, _reverse1DimAuto and
// _reverse2DimAuto (axis [0], [-2], [1], [-1], [1, 0]: np.asarray(x)[::-1, :] ...).
TEST_CASE("reverse: testReverse0DimAuto, testReverse1DimAuto, testReverse2DimAuto") {
  auto four = tf::constant<"rv2_4">(std::int32_t{4});
  auto r0 = tf::reverse<>(four);
  auto v64 = tf::constant<"rv2_v64">(xt::xtensor_fixed<std::int64_t, xt::xshape<5>>{1, 200, 3, 40, 5});
  auto vf = tf::constant<"rv2_vf">(xt::xtensor_fixed<float, xt::xshape<5>>{1, 200, 3, 40, 5});
  auto vb = tf::constant<"rv2_vb">(xt::xtensor_fixed<bool, xt::xshape<5>>{true, true, false, false, false});
  auto r64 = tf::reverse<0>(v64);
  auto rf = tf::reverse<0>(vf);
  auto rb = tf::reverse<0>(vb);
  auto m = tf::constant<"rv2_m">(xt::xtensor_fixed<double, xt::xshape<2, 3>>{{1, 200, 3}, {4, 5, 60}});
  auto m0 = tf::reverse<0>(m);
  auto mm2 = tf::reverse<-2>(m);
  auto m1 = tf::reverse<1>(m);
  auto mm1 = tf::reverse<-1>(m);
  auto m10 = tf::reverse<1, 0>(m);
  tf::session sess(r0, r64, rf, rb, m0, mm2, m1, mm1, m10);
  CHECK(sess.run(r0) == 4);
  check_values(sess.run(r64), {5}, {5, 40, 3, 200, 1});
  check_values(sess.run(rf), {5}, {5, 40, 3, 200, 1});
  check_values(sess.run(rb), {5}, {0, 0, 0, 1, 1});
  check_values(sess.run(m0), {2, 3}, {4, 5, 60, 1, 200, 3});
  check_values(sess.run(mm2), {2, 3}, {4, 5, 60, 1, 200, 3});
  check_values(sess.run(m1), {2, 3}, {3, 200, 1, 60, 5, 4});
  check_values(sess.run(mm1), {2, 3}, {3, 200, 1, 60, 5, 4});
  check_values(sess.run(m10), {2, 3}, {60, 5, 4, 3, 200, 1});
}

// array_ops_test.py ReverseV2Test.testReverseRowsOf3Channels, testReverseRowsOf4Channels and
// testReverseColumnsOf3Channels: np.arange reshaped to (outer, middle, C), reversed along 1
// (x[:, ::-1, :]) or 0 (x[::-1, :, :]), with middle or outer sizes 0, 1 and more.
TEST_CASE("reverse: testReverseRowsOf3Channels, testReverseRowsOf4Channels, testReverseColumnsOf3Channels") {
  auto x3 = tf::placeholder<"rvc_x3", float, shape<dyn, dyn, 3>>();
  auto x4 = tf::placeholder<"rvc_x4", float, shape<dyn, dyn, 4>>();
  auto rows3 = tf::reverse<1>(x3);
  auto rows4 = tf::reverse<1>(x4);
  auto cols3 = tf::reverse<0>(x3);
  tf::session sess(rows3, rows4, cols3);
  const auto value = [](std::size_t outer, std::size_t middle, std::size_t c) {
    auto v = xt::xtensor<float, 3>::from_shape({outer, middle, c});
    for (std::size_t i = 0; i < v.size(); ++i) v.flat(i) = static_cast<float>(i);
    return v;
  };
  for (std::size_t outer : {1u, 2u})
    for (std::size_t middle : {0u, 1u, 2u, 7u, 49u}) {
      const auto v3 = value(outer, middle, 3);
      const auto v4 = value(outer, middle, 4);
      const auto g3 = sess.run(rows3, tf::feed(x3, v3));
      const auto g4 = sess.run(rows4, tf::feed(x4, v4));
      REQUIRE(shape_vector(g3) == shape_vector(v3));
      REQUIRE(shape_vector(g4) == shape_vector(v4));
      for (std::size_t i = 0; i < outer; ++i)
        for (std::size_t j = 0; j < middle; ++j) {
          for (std::size_t k = 0; k < 3; ++k) CHECK(g3(i, j, k) == v3(i, middle - 1 - j, k));
          for (std::size_t k = 0; k < 4; ++k) CHECK(g4(i, j, k) == v4(i, middle - 1 - j, k));
        }
    }
  for (std::size_t outer : {0u, 1u, 2u, 7u, 49u})
    for (std::size_t middle : {1u, 2u}) {
      const auto v3 = value(outer, middle, 3);
      const auto g3 = sess.run(cols3, tf::feed(x3, v3));
      REQUIRE(shape_vector(g3) == shape_vector(v3));
      for (std::size_t i = 0; i < outer; ++i)
        for (std::size_t j = 0; j < middle; ++j)
          for (std::size_t k = 0; k < 3; ++k) CHECK(g3(i, j, k) == v3(outer - 1 - i, j, k));
    }
}

