// Cases ported from TensorFlow 1.x's kernel tests transpose_op_test.py and reshape_op_test.py,
// for tf::transpose and tf::reshape (matmul's: tf_matmul_shape_port_test.cpp, two files so
// that each compiles quickly). Each case names the TensorFlow test it ports; the expected
// values are the test's literals or the numpy computation it compares with (np.transpose,
// x.reshape), done here by index arithmetic; comparisons are exact. Gradients:
// tests/autodiff/tf_matmul_shape_gradient_port_test.cpp.
//
// Not ported, and why:
// - dtypes typeflow has no element type for (half, complex, int8, int16: testHalf,
//   testComplex64/128, testInt8, testInt16), the GPU runs (test3DGPU, test4DGPU, test5DGPU).
// - transpose's random permutations: two fixed ones per shape instead.
// - transpose's testError, the TF 2.x reshape testZeroDimWithUnspecifiedDim (1.x raises),
//   testPartialShapes / testTensorShape / testInt64Shape / testTooLargeShape (a shape given as a
//   tensor; shapes of 2^32 elements): typeflow's perm and target shape are template arguments;
//   a perm that is not a permutation is a compile error (transpose's static_assert), and
//   reshape's testErrors (element counts that cannot agree) is tests/compile_fail/reshape_mismatch.cpp.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "ops_testing.hpp"
#include "tf_port_testing.hpp"

namespace tf = typeflow;
using ops_testing::shape_vector;
using tf::dyn;
using tf::shape;

using namespace tf_port_testing;

// --- transpose -------------------------------------------------------------------------------

namespace {

// np.transpose(x, perm) of a row-major tensor of dims `dims`.
std::vector<double> np_transpose(const std::vector<double>& x, const std::vector<std::size_t>& dims,
                                 const std::vector<std::size_t>& perm) {
  const std::size_t r = dims.size();
  std::vector<std::size_t> out_dims(r), stride(r, 1);
  for (std::size_t i = r; i-- > 1;) stride[i - 1] = stride[i] * dims[i];
  for (std::size_t i = 0; i < r; ++i) out_dims[i] = dims[perm[i]];
  std::vector<double> out(x.size());
  std::vector<std::size_t> idx(r, 0);  // index into the output
  for (std::size_t o = 0; o < x.size(); ++o) {
    std::size_t src = 0;
    for (std::size_t i = 0; i < r; ++i) src += idx[i] * stride[perm[i]];
    out[o] = x[src];
    for (std::size_t i = r; i-- > 0;) {
      if (++idx[i] < out_dims[i]) break;
      idx[i] = 0;
    }
  }
  return out;
}

std::vector<double> iota(std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<double>(i);
  return v;
}

// _compare for one dtype: np.arange shaped [3, 7], [2, 3, 5, 7] and [1, 2, 1, 2, 1, 2, 1, 2],
// two permutations each (TensorFlow draws them at random; fixed here), and the default.
template <class T>
void transpose_cases() {
  auto x2 = tf::constant<"tr_x2">(arange<T, 3, 7>(0));
  auto x4 = tf::constant<"tr_x4">(arange<T, 2, 3, 5, 7>(0));
  auto x8 = tf::constant<"tr_x8">(arange<T, 1, 2, 1, 2, 1, 2, 1, 2>(0));
  auto a = tf::transpose<1, 0>(x2);
  auto b = tf::transpose<0, 1>(x2);
  auto c = tf::transpose<3, 1, 0, 2>(x4);
  auto d = tf::transpose<2, 3, 1, 0>(x4);
  auto e = tf::transpose<7, 0, 5, 2, 3, 1, 6, 4>(x8);
  auto f = tf::transpose(x8);
  tf::session sess(a, b, c, d, e, f);
  check_all(sess.run(a), {7, 3}, np_transpose(iota(21), {3, 7}, {1, 0}));
  check_all(sess.run(b), {3, 7}, iota(21));
  check_all(sess.run(c), {7, 3, 2, 5}, np_transpose(iota(210), {2, 3, 5, 7}, {3, 1, 0, 2}));
  check_all(sess.run(d), {5, 7, 3, 2}, np_transpose(iota(210), {2, 3, 5, 7}, {2, 3, 1, 0}));
  check_all(sess.run(e), {2, 1, 2, 1, 2, 2, 1, 1}, np_transpose(iota(16), {1, 2, 1, 2, 1, 2, 1, 2}, {7, 0, 5, 2, 3, 1, 6, 4}));
  check_all(sess.run(f), {2, 1, 2, 1, 2, 1, 2, 1}, np_transpose(iota(16), {1, 2, 1, 2, 1, 2, 1, 2}, {7, 6, 5, 4, 3, 2, 1, 0}));
}

}  // namespace

TEST_CASE("transpose: testFloat") { transpose_cases<float>(); }
TEST_CASE("transpose: testDouble") { transpose_cases<double>(); }
TEST_CASE("transpose: testInt32") { transpose_cases<std::int32_t>(); }
TEST_CASE("transpose: testInt64") { transpose_cases<std::int64_t>(); }

// testRank1, test1D ([1, 1, 1, 2, 1] permuted), testNop, testSimple, testTranspose2DAuto,
// testNullTensor, and testTransposeShapes' static shapes.
TEST_CASE("transpose: testRank1, test1D, testNop, testSimple, testTranspose2DAuto, testNullTensor, testTransposeShapes") {
  auto r1 = tf::constant<"tt_r1">(arange<double, 2>(0));
  auto v = tf::constant<"tt_v">(arange<std::int64_t, 1, 1, 1, 2, 1>(0));
  auto nop = tf::constant<"tt_nop">(arange<float, 3, 2>(0));
  auto simple = tf::constant<"tt_simple">(arange<float, 2, 4>(0));
  auto m = tf::constant<"tt_m">(xt::xtensor_fixed<std::int32_t, xt::xshape<2, 3>>{{1, 2, 3}, {4, 5, 6}});
  auto null = tf::placeholder<"tt_null", float, shape<1, 4, 0>>();
  auto y1 = tf::transpose<0>(r1);
  auto yv = tf::transpose<4, 3, 0, 2, 1>(v);
  auto ynop = tf::transpose<0, 1>(nop);
  auto ysimple = tf::transpose<1, 0>(simple);
  auto yauto = tf::transpose(m);
  auto ynull = tf::transpose<0, 2, 1>(null);
  static_assert(has_shape<decltype(ynull), shape<1, 0, 4>> && has_shape<decltype(yv), shape<1, 2, 1, 1, 1>>);
  tf::session sess(y1, yv, ynop, ysimple, yauto, ynull);
  check_all(sess.run(y1), {2}, {0, 1});
  check_all(sess.run(yv), {1, 2, 1, 1, 1}, {0, 1});
  check_all(sess.run(ynop), {3, 2}, iota(6));
  check_all(sess.run(ysimple), {4, 2}, {0, 4, 1, 5, 2, 6, 3, 7});
  check_all(sess.run(yauto), {3, 2}, {1, 4, 2, 5, 3, 6});
  check_all(sess.run(ynull, tf::feed(null, empty_of<float, 3>({1, 4, 0}))), {1, 0, 4}, {});
  // testTransposeShapes
  auto s0 = tf::placeholder<"ts0", std::int32_t, shape<>>();
  auto s1 = tf::placeholder<"ts1", std::int32_t, shape<100>>();
  auto s2 = tf::placeholder<"ts2", std::int32_t, shape<100, 37>>();
  auto s3 = tf::placeholder<"ts3", std::int32_t, shape<100, 37, 15>>();
  auto sd = tf::placeholder<"tsd", std::int32_t, shape<dyn, 37>>();
  static_assert(has_shape<decltype(tf::transpose(s0)), shape<>>);
  static_assert(has_shape<decltype(tf::transpose(s1)), shape<100>>);
  static_assert(has_shape<decltype(tf::transpose(s2)), shape<37, 100>>);
  static_assert(has_shape<decltype(tf::transpose<0, 1>(s2)), shape<100, 37>>);
  static_assert(has_shape<decltype(tf::transpose(s3)), shape<15, 37, 100>>);
  static_assert(has_shape<decltype(tf::transpose<2, 0, 1>(s3)), shape<15, 100, 37>>);
  static_assert(has_shape<decltype(tf::transpose(sd)), shape<37, dyn>>);
}

// --- reshape ---------------------------------------------------------------------------------

// testBoolBasic, testFloatBasic, testDoubleBasic, testInt32Basic: np.arange(1, 7) [1, 6] to
// [2, 3]; testFloatReshapeThreeDimensions: [1, 27] to [3, 3, 3].
TEST_CASE("reshape: testBoolBasic, testFloatBasic, testDoubleBasic, testInt32Basic, testFloatReshapeThreeDimensions") {
  auto f = tf::constant<"rs_f">(arange<float, 1, 6>(1));
  auto d = tf::constant<"rs_d">(arange<double, 1, 6>(1));
  auto i = tf::constant<"rs_i">(arange<std::int32_t, 1, 6>(1));
  auto bl = tf::constant<"rs_b">(xt::xtensor_fixed<bool, xt::xshape<1, 6>>{{false, false, false, true, true, true}});
  auto f27 = tf::constant<"rs_f27">(arange<float, 1, 27>(1));
  auto rf = tf::reshape<shape<2, 3>>(f);
  auto rd = tf::reshape<shape<2, 3>>(d);
  auto ri = tf::reshape<shape<2, 3>>(i);
  auto rb = tf::reshape<shape<2, 3>>(bl);
  auto r3 = tf::reshape<shape<3, 3, 3>>(f27);
  tf::session sess(rf, rd, ri, rb, r3);
  const std::vector<double> one_to_six = {1, 2, 3, 4, 5, 6};
  check_all(sess.run(rf), {2, 3}, one_to_six);
  check_all(sess.run(rd), {2, 3}, one_to_six);
  check_all(sess.run(ri), {2, 3}, one_to_six);
  check_all(sess.run(rb), {2, 3}, {0, 0, 0, 1, 1, 1});
  check_all(sess.run(r3), {3, 3, 3}, elements(arange<float, 27>(1)));
}

// testFloatUnspecifiedDimOnly / Begin / End: [6] to [-1], [-1, 2], [3, -1], with a static
// input (inferred at compile time) and a dynamic one (inferred when run).
TEST_CASE("reshape: testFloatUnspecifiedDimOnly, testFloatUnspecifiedDimBegin, testFloatUnspecifiedDimEnd") {
  auto x = tf::constant<"rsu_x">(arange<float, 6>(1));
  auto p = tf::placeholder<"rsu_p", float, shape<dyn>>();
  auto only = tf::reshape<shape<dyn>>(x);
  auto begin = tf::reshape<shape<dyn, 2>>(x);
  auto end = tf::reshape<shape<3, dyn>>(x);
  static_assert(has_shape<decltype(only), shape<6>> && has_shape<decltype(begin), shape<3, 2>> &&
                has_shape<decltype(end), shape<3, 2>>);
  auto pbegin = tf::reshape<shape<dyn, 2>>(p);
  auto pend = tf::reshape<shape<3, dyn>>(p);
  tf::session sess(only, begin, end, pbegin, pend);
  const std::vector<double> want = {1, 2, 3, 4, 5, 6};
  check_all(sess.run(only), {6}, want);
  check_all(sess.run(begin), {3, 2}, want);
  check_all(sess.run(end), {3, 2}, want);
  const xt::xtensor<float, 1> pv = {1, 2, 3, 4, 5, 6};
  check_all(sess.run(pbegin, tf::feed(p, pv)), {3, 2}, want);
  check_all(sess.run(pend, tf::feed(p, pv)), {3, 2}, want);
  // Not evenly divisible when run: TensorFlow's InvalidArgumentError.
  const xt::xtensor<float, 1> seven = {1, 2, 3, 4, 5, 6, 7};
  CHECK_THROWS_AS(sess.run(pbegin, tf::feed(p, seven)), tf::invalid_argument_error);
}

// testZeroDimBasic ([0, 6] to [0, 2, 3]), testZeroDimReshapeR1 ([-1]), testZeroDimReshapeR3
// ([-1, 2, 3]), testFloatEmpty ((0, 0, 0, 0) to [1, 2, 3, 0], [1, 0, 0, 4], [0, 0, 0, 0],
// [1, 2, 0], [0, 0, 0], [1, -1, 5]); testZeroDimWithUnspecifiedDim ([0, 6] to [0, -1, 3]) is
// TensorFlow 1.x's InvalidArgumentError (TF 2.x infers 2): a compile error when static, an
// invalid_argument_error when the input's shape is dynamic.
TEST_CASE("reshape: testZeroDimBasic, testZeroDimReshapeR1, testZeroDimReshapeR3, testFloatEmpty") {
  auto z = tf::placeholder<"rsz_z", float, shape<0, 6>>();
  auto e = tf::placeholder<"rsz_e", float, shape<0, 0, 0, 0>>();
  auto a = tf::reshape<shape<0, 2, 3>>(z);
  auto b = tf::reshape<shape<dyn>>(z);
  auto c = tf::reshape<shape<dyn, 2, 3>>(z);
  static_assert(has_shape<decltype(b), shape<0>> && has_shape<decltype(c), shape<0, 2, 3>>);
  auto e1 = tf::reshape<shape<1, 2, 3, 0>>(e);
  auto e2 = tf::reshape<shape<1, 0, 0, 4>>(e);
  auto e3 = tf::reshape<shape<0, 0, 0, 0>>(e);
  auto e4 = tf::reshape<shape<1, 2, 0>>(e);
  auto e5 = tf::reshape<shape<0, 0, 0>>(e);
  auto e6 = tf::reshape<shape<1, dyn, 5>>(e);
  static_assert(has_shape<decltype(e6), shape<1, 0, 5>>);
  tf::session sess(a, b, c, e1, e2, e3, e4, e5, e6);
  const auto zv = empty_of<float, 2>({0, 6});
  const auto ev = empty_of<float, 4>({0, 0, 0, 0});
  check_all(sess.run(a, tf::feed(z, zv)), {0, 2, 3}, {});
  check_all(sess.run(b, tf::feed(z, zv)), {0}, {});
  check_all(sess.run(c, tf::feed(z, zv)), {0, 2, 3}, {});
  check_all(sess.run(e1, tf::feed(e, ev)), {1, 2, 3, 0}, {});
  check_all(sess.run(e2, tf::feed(e, ev)), {1, 0, 0, 4}, {});
  check_all(sess.run(e3, tf::feed(e, ev)), {0, 0, 0, 0}, {});
  check_all(sess.run(e4, tf::feed(e, ev)), {1, 2, 0}, {});
  check_all(sess.run(e5, tf::feed(e, ev)), {0, 0, 0}, {});
  check_all(sess.run(e6, tf::feed(e, ev)), {1, 0, 5}, {});
  auto d = tf::placeholder<"rsz_d", float, shape<dyn, 6>>();
  auto dz = tf::reshape<shape<0, dyn, 3>>(d);
  tf::session sd(dz);
  CHECK_THROWS_WITH_AS(sd.run(dz, tf::feed(d, empty_of<float, 2>({0, 6}))),
                       "InvalidArgument: Reshape cannot infer the missing input size for an empty tensor unless all specified input "
                       "sizes are non-zero",
                       tf::invalid_argument_error);
}
