// zeros, ones, fill (ops/fill.hpp), zeros_like, ones_like (ops/broadcast_gradient.hpp) and
// shape_op, size, rank (ops/shape_ops.hpp), ported from TensorFlow 1.x's constant_op_test.py
// (ZerosTest, OnesTest, FillTest, ZerosLikeTest, OnesLikeTest) and shape_ops_test.py
// (ShapeOpsTest.testBasic, testBool, _test64BitOutput). Each case names the TensorFlow test
// it ports. Not ported: the dtypes typeflow does not have (half, int8, int16, uint8, uint16,
// complex, string, variant: testFillComplex*, testFillString, testZerosLikeVariant); the
// sparse-tensor and shape_n variants of ShapeOpsTest (no SparseTensor, no shape_n); a
// dims placeholder of unknown rank (ranks are static). Differences kept: tf.shape is spelled
// shape_op (`shape` names the static shape type); zeros_like has no dtype argument, so
// testZerosLikeDtype uses zeros<T>(shape_op(x)); fill with a static negative dim is a compile
// error (compile_fail.fill_negative_dim), TensorFlow's ValueError; in testShapeFunctionEdgeCases
// fill([h, 17]) is fill(stack(h, 17)), whose static shape is [?, ?] (TensorFlow: [?, 17]).
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "ops_testing.hpp"

namespace tf = typeflow;
using ops_testing::shape_vector;
using tf::dyn;

namespace {

template <class N, class S>
constexpr bool has_shape = std::is_same_v<tf::shape_of<N>, S>;
template <class N, class T>
constexpr bool has_dtype = std::is_same_v<tf::value_type_of<N>, T>;

template <class V>
std::vector<double> elements(const V& v) {
  if constexpr (std::is_arithmetic_v<V>) {
    return {static_cast<double>(v)};
  } else {
    return std::vector<double>(v.begin(), v.end());
  }
}
template <class V>
std::vector<std::size_t> dims(const V& v) {
  if constexpr (std::is_arithmetic_v<V>) return {};
  else return shape_vector(v);
}
// The value's shape is `shape` and each element is `x`.
template <class V>
void check_filled(const V& v, const std::vector<std::size_t>& shape, double x) {
  REQUIRE(dims(v) == shape);
  for (double e : elements(v)) CHECK(e == x);
}

// d = tf.fill([2, 3], 12.): a static [2, 3] float tensor, and a dynamic one of its value.
const auto d = tf::fill<tf::shape<2, 3>>(tf::constant<12.0f>());
const auto p = tf::placeholder<"p", float, tf::shape<dyn, dyn>>();
const xt::xtensor<float, 2> p_value = xt::xtensor<float, 2>::from_shape({2, 3});

// zeros and ones of dtype T: [2, 3] static, like d (static) and like p (dynamic).
template <class T>
void check_zeros_ones_dtype() {
  INFO("dtype " << tf::dtype_name(tf::dtype_of<T>));
  const auto z = tf::zeros<tf::shape<2, 3>, T>();
  const auto zd = tf::zeros<T>(tf::shape_op(d));
  const auto zp = tf::zeros<T>(tf::shape_op(p));
  const auto o = tf::ones<tf::shape<2, 3>, T>();
  const auto od = tf::ones<T>(tf::shape_op(d));
  const auto op = tf::ones<T>(tf::shape_op(p));
  static_assert(has_dtype<decltype(z), T> && has_dtype<decltype(zp), T> && has_dtype<decltype(op), T>);
  static_assert(has_shape<decltype(z), tf::shape<2, 3>> && has_shape<decltype(zd), tf::shape<2, 3>>);
  static_assert(has_shape<decltype(o), tf::shape<2, 3>> && has_shape<decltype(od), tf::shape<2, 3>>);
  static_assert(has_shape<decltype(zp), tf::shape<dyn, dyn>> && has_shape<decltype(op), tf::shape<dyn, dyn>>);
  tf::session sess(z, zd, zp, o, od, op);
  check_filled(sess.run(z), {2, 3}, 0);
  check_filled(sess.run(zd), {2, 3}, 0);
  check_filled(sess.run(zp, tf::feed(p, p_value)), {2, 3}, 0);
  check_filled(sess.run(o), {2, 3}, 1);
  check_filled(sess.run(od), {2, 3}, 1);
  check_filled(sess.run(op, tf::feed(p, p_value)), {2, 3}, 1);
}

// zeros_like and ones_like of a [2, 3] T tensor of ones: static (a constant) and dynamic (a
// placeholder fed ones).
template <class T>
void check_like(bool ones) {
  INFO("dtype " << tf::dtype_name(tf::dtype_of<T>));
  const auto c = tf::ones<tf::shape<2, 3>, T>();
  const auto x = tf::placeholder<"x", T, tf::shape<dyn, dyn>>();
  const auto cz = tf::zeros_like(c);
  const auto xz = tf::zeros_like(x);
  const auto co = tf::ones_like(c);
  const auto xo = tf::ones_like(x);
  static_assert(has_dtype<decltype(cz), T> && has_dtype<decltype(xz), T> && has_dtype<decltype(xo), T>);
  static_assert(has_shape<decltype(cz), tf::shape<2, 3>> && has_shape<decltype(co), tf::shape<2, 3>>);
  const xt::xtensor<T, 2> x_value = xt::ones<T>({2, 3});
  tf::session sess(cz, xz, co, xo);
  if (!ones) {
    check_filled(sess.run(cz), {2, 3}, 0);
    check_filled(sess.run(xz, tf::feed(x, x_value)), {2, 3}, 0);
  } else {
    check_filled(sess.run(co), {2, 3}, 1);
    check_filled(sess.run(xo, tf::feed(x, x_value)), {2, 3}, 1);
  }
}

}  // namespace

// --- ZerosTest, OnesTest --------------------------------------------------------------------

TEST_CASE("ZerosTest.testConst and OnesTest.testConst: [2, 3] of 0 and of 1, float32") {
  const auto z = tf::zeros<tf::shape<2, 3>>();
  const auto o = tf::ones<tf::shape<2, 3>>();
  static_assert(has_dtype<decltype(z), float> && has_shape<decltype(z), tf::shape<2, 3>>);
  tf::session sess(z, o);
  check_filled(sess.run(z), {2, 3}, 0);
  check_filled(sess.run(o), {2, 3}, 1);
}

TEST_CASE("ZerosTest.testScalar and OnesTest.testScalar: shape [] and an empty int32 dims tensor") {
  const auto z = tf::zeros<tf::shape<>>();
  const auto o = tf::ones<tf::shape<>>();
  const auto empty = tf::placeholder<"empty", std::int32_t, tf::shape<0>>();
  const auto zs = tf::zeros(empty);
  const auto os = tf::ones(empty);
  static_assert(has_shape<decltype(zs), tf::shape<>> && has_shape<decltype(os), tf::shape<>>);
  tf::session sess(z, o, zs, os);
  CHECK(sess.run(z) == 0.0f);
  CHECK(sess.run(o) == 1.0f);
  const xt::xtensor_fixed<std::int32_t, xt::xshape<0>> no_dims{};
  CHECK(sess.run(zs, tf::feed(empty, no_dims)) == 0.0f);
  CHECK(sess.run(os, tf::feed(empty, no_dims)) == 1.0f);
}

TEST_CASE("ZerosTest.testDynamicSizes and OnesTest.testDynamicSizes: zeros(shape(d)), d = fill([2, 3], 12.)") {
  const auto z = tf::zeros(tf::shape_op(d));
  const auto o = tf::ones(tf::shape_op(d));
  tf::session sess(d, z, o);
  check_filled(sess.run(d), {2, 3}, 12);
  check_filled(sess.run(z), {2, 3}, 0);
  check_filled(sess.run(o), {2, 3}, 1);
}

TEST_CASE("ZerosTest.testDtype and OnesTest.testDtype: float32 default; float64, int32, int64, bool") {
  check_zeros_ones_dtype<float>();
  check_zeros_ones_dtype<double>();
  check_zeros_ones_dtype<std::int32_t>();
  check_zeros_ones_dtype<std::int64_t>();
  check_zeros_ones_dtype<bool>();
}

TEST_CASE("OnesTest.testAutoPack: ones([h, w]) with h, w int32 scalars fed 4 and 16") {
  const auto h = tf::placeholder<"h", std::int32_t>();
  const auto w = tf::placeholder<"w", std::int32_t>();
  const auto z = tf::ones(tf::stack(h, w));
  static_assert(has_shape<decltype(z), tf::shape<dyn, dyn>>);
  tf::session sess(z);
  check_filled(sess.run(z, tf::feed(h, 4), tf::feed(w, 16)), {4, 16}, 1);
  // (added) zero-size shapes: [0, 16] and [4, 0].
  check_filled(sess.run(z, tf::feed(h, 0), tf::feed(w, 16)), {0, 16}, 1);
  check_filled(sess.run(z, tf::feed(h, 4), tf::feed(w, 0)), {4, 0}, 1);
}

// --- ZerosLikeTest, OnesLikeTest ------------------------------------------------------------

TEST_CASE("ZerosLikeTest.testZerosLikeCPU: float32, float64, int32, int64, bool; static and fed shapes") {
  check_like<float>(false);
  check_like<double>(false);
  check_like<std::int32_t>(false);
  check_like<std::int64_t>(false);
  check_like<bool>(false);
}

TEST_CASE("OnesLikeTest.testOnesLike: float32, float64, int32, int64, bool; static and fed shapes") {
  check_like<float>(true);
  check_like<double>(true);
  check_like<std::int32_t>(true);
  check_like<std::int64_t>(true);
  check_like<bool>(true);
}

TEST_CASE("ZerosLikeTest.testZerosLikePartialShape and OnesLikeTest.testOnesLikePartialShape: [?, 4, ?]") {
  const auto x = tf::placeholder<"x", float, tf::shape<dyn, 4, dyn>>();
  static_assert(has_shape<decltype(tf::zeros_like(x)), tf::shape<dyn, 4, dyn>>);
  static_assert(has_shape<decltype(tf::ones_like(x)), tf::shape<dyn, 4, dyn>>);
  CHECK(tf::shape_of<decltype(tf::zeros_like(x))>::dims[1] == 4);
}

TEST_CASE("ZerosLikeTest.testZerosLikeDtype: zeros of x's shape in another dtype, (3, 5)") {
  const auto x = tf::fill<tf::shape<3, 5>>(tf::constant<1.0f>());
  const auto zd = tf::zeros<double>(tf::shape_op(x));
  const auto zf = tf::zeros<float>(tf::shape_op(x));
  static_assert(has_dtype<decltype(zd), double> && has_shape<decltype(zd), tf::shape<3, 5>>);
  tf::session sess(zd, zf);
  check_filled(sess.run(zd), {3, 5}, 0);
  check_filled(sess.run(zf), {3, 5}, 0);
}

// --- FillTest -------------------------------------------------------------------------------

TEST_CASE("FillTest.testFill{Float,Double,Int32,Int64}: [2, 3] of 3.1415, 3.1415, 42, -42") {
  const auto f = tf::fill<tf::shape<2, 3>>(tf::constant<3.1415f>());
  const auto g = tf::fill<tf::shape<2, 3>>(tf::constant<3.1415>());
  const auto i = tf::fill<tf::shape<2, 3>>(tf::constant<42>());
  const auto l = tf::fill<tf::shape<2, 3>>(tf::constant<std::int64_t{-42}>());
  static_assert(has_dtype<decltype(f), float> && has_dtype<decltype(g), double>);
  static_assert(has_dtype<decltype(i), std::int32_t> && has_dtype<decltype(l), std::int64_t>);
  tf::session sess(f, g, i, l);
  check_filled(sess.run(f), {2, 3}, double(3.1415f));
  check_filled(sess.run(g), {2, 3}, 3.1415);
  check_filled(sess.run(i), {2, 3}, 42);
  check_filled(sess.run(l), {2, 3}, -42);
  // (added) the value a fed scalar, and a zero-size shape.
  const auto v = tf::placeholder<"v", double>();
  const auto fv = tf::fill<tf::shape<0, 3>>(v);
  tf::session sv(fv);
  check_filled(sv.run(fv, tf::feed(v, 2.5)), {0, 3}, 2.5);
}

TEST_CASE("FillTest.testFillNegative: a negative dim fed to fill(dims, 3.0) fails the run") {
  const auto dims1 = tf::placeholder<"dims1", std::int32_t, tf::shape<1>>();
  const auto dims2 = tf::placeholder<"dims2", std::int32_t, tf::shape<2>>();
  const auto f1 = tf::fill(dims1, tf::constant<3.0>());
  const auto f2 = tf::fill(dims2, tf::constant<3.0>());
  tf::session sess(f1, f2);
  using v1 = xt::xtensor_fixed<std::int32_t, xt::xshape<1>>;
  using v2 = xt::xtensor_fixed<std::int32_t, xt::xshape<2>>;
  CHECK_THROWS_AS(sess.run(f1, tf::feed(dims1, v1{-1})), tf::invalid_argument_error);
  CHECK_THROWS_AS(sess.run(f2, tf::feed(dims2, v2{2, -1})), tf::invalid_argument_error);
  CHECK_THROWS_AS(sess.run(f2, tf::feed(dims2, v2{-1, 2})), tf::invalid_argument_error);
  CHECK_THROWS_AS(sess.run(f1, tf::feed(dims1, v1{-3})), tf::invalid_argument_error);
  check_filled(sess.run(f2, tf::feed(dims2, v2{2, 2})), {2, 2}, 3);
}

TEST_CASE("FillTest.testShapeFunctionEdgeCases: partial dimension information") {
  const auto dims = tf::placeholder<"dims", std::int32_t, tf::shape<4>>();
  static_assert(has_shape<decltype(tf::fill(dims, tf::constant<3.0>())), tf::shape<dyn, dyn, dyn, dyn>>);
  const auto h = tf::placeholder<"h", std::int32_t>();
  static_assert(has_shape<decltype(tf::fill(tf::stack(h, tf::constant<17>()), tf::constant<1.0>())), tf::shape<dyn, dyn>>);
  // Non-vector dims and a non-scalar value are compile errors (TensorFlow's ValueError):
  // dims_must_be_an_int32_or_int64_vector_of_static_length, fill_value_must_be_a_scalar.
  CHECK(tf::shape_of<decltype(tf::fill(dims, tf::constant<3.0>()))>::rank == 4);
}

TEST_CASE("FillTest.testGradient: the gradient of fill([3, 2], v) is the sum of its gradient") {
  const auto v = tf::placeholder<"v", double>();
  const auto f = tf::fill<tf::shape<3, 2>>(v);
  const auto weights = tf::constant<"weights">(xt::xtensor_fixed<double, xt::xshape<3, 2>>{{1, 2}, {3, 4}, {5, 6}});
  const auto [g] = tf::gradients(tf::reduce_sum(f * weights), v);
  const auto [g_square] = tf::gradients(tf::reduce_sum(f * f), v);
  tf::session sess(g, g_square);
  CHECK(sess.run(g, tf::feed(v, 5.0)) == 21.0);
  CHECK(sess.run(g_square, tf::feed(v, 5.0)) == 60.0);  // 6 elements, 2 v each
}

// --- ShapeOpsTest ---------------------------------------------------------------------------

namespace {
// _compareShape, _compareRank, _compareSize for x of T and static dims D..., and for a
// placeholder of as many dyn dims fed a value of those dims.
template <class T, std::ptrdiff_t... D>
void compare_shape_rank_size() {
  INFO("shape [" << ((std::to_string(D) + ",") + ... + std::string()) << "]");
  const std::vector<double> want_shape{double(D)...};
  const double want_size = (1.0 * ... * double(D));
  const auto xs = tf::placeholder<"xs", T, tf::shape<D...>>();
  const auto xd = tf::placeholder<"xd", T, tf::shape<((void)D, dyn)...>>();
  const auto value = xt::xtensor<T, sizeof...(D)>::from_shape({std::size_t(D)...});
  const auto s = tf::shape_op(xs);
  const auto s64 = tf::shape_op<std::int64_t>(xs);
  const auto sd = tf::shape_op(xd);
  const auto sd64 = tf::shape_op<std::int64_t>(xd);
  static_assert(has_dtype<decltype(s), std::int32_t> && has_dtype<decltype(sd64), std::int64_t>);
  static_assert(has_shape<decltype(sd), tf::shape<std::ptrdiff_t(sizeof...(D))>>);
  static_assert(has_dtype<decltype(tf::size(xs)), std::int32_t> && has_shape<decltype(tf::size(xs)), tf::shape<>>);
  static_assert(has_dtype<decltype(tf::rank(xs)), std::int32_t> && has_shape<decltype(tf::rank(xs)), tf::shape<>>);
  tf::session sess(s, s64, sd, sd64, tf::size(xs), tf::size<std::int64_t>(xd), tf::rank(xs), tf::rank(xd));
  // Static: nothing to feed (x is not on the path).
  CHECK(elements(sess.run(s)) == want_shape);
  CHECK(elements(sess.run(s64)) == want_shape);
  CHECK(sess.run(tf::size(xs)) == want_size);
  CHECK(sess.run(tf::rank(xs)) == int(sizeof...(D)));
  CHECK(sess.run(tf::rank(xd)) == int(sizeof...(D)));
  // Dynamic: from the fed value.
  CHECK(elements(sess.run(sd, tf::feed(xd, value))) == want_shape);
  CHECK(elements(sess.run(sd64, tf::feed(xd, value))) == want_shape);
  CHECK(sess.run(tf::size<std::int64_t>(xd), tf::feed(xd, value)) == want_size);
}
}  // namespace

TEST_CASE("ShapeOpsTest.testBasic: ranks 1 to 6, dims 2, 3, 5, 7, 11, 13; int32 and int64 out_type") {
  compare_shape_rank_size<double, 2>();
  compare_shape_rank_size<double, 2, 3>();
  compare_shape_rank_size<double, 2, 3, 5>();
  compare_shape_rank_size<double, 2, 3, 5, 7>();
  compare_shape_rank_size<double, 2, 3, 5, 7, 11>();
  compare_shape_rank_size<double, 2, 3, 5, 7, 11, 13>();
}

TEST_CASE("ShapeOpsTest.testBool: ranks 1, 3 and 6 of bool") {
  compare_shape_rank_size<bool, 2>();
  compare_shape_rank_size<bool, 2, 3, 5>();
  compare_shape_rank_size<bool, 2, 3, 5, 7, 11, 13>();
}

TEST_CASE("ShapeOpsTest (added): empty shapes, a scalar, and shape_op(x) as a run-time value") {
  compare_shape_rank_size<float, 0>();
  compare_shape_rank_size<float, 3, 0, 2>();
  const auto x = tf::placeholder<"x", float>();
  const auto n = tf::placeholder<"n", float, tf::shape<dyn, 3>>();
  tf::session sess(tf::shape_op(x), tf::size(x), tf::rank(x), tf::shape_op(n) * tf::constant<2>());
  CHECK(sess.run(tf::shape_op(x)).size() == 0);
  CHECK(sess.run(tf::size(x)) == 1);
  CHECK(sess.run(tf::rank(x)) == 0);
  const xt::xtensor<float, 2> value = xt::zeros<float>({4, 3});
  CHECK(elements(sess.run(tf::shape_op(n) * tf::constant<2>(), tf::feed(n, value))) == std::vector<double>{8, 6});
}

TEST_CASE("ShapeOpsTest._test64BitOutput: size of [2^31] is 2^31 as int64 and fails as int32") {
  const auto big = tf::placeholder<"big", float, tf::shape<2147483648>>();
  tf::session sess(tf::size<std::int64_t>(big), tf::size(big));
  CHECK(sess.run(tf::size<std::int64_t>(big)) == 2147483648);  // static: nothing is allocated
  CHECK_THROWS_AS(sess.run(tf::size(big)), tf::invalid_argument_error);
}
