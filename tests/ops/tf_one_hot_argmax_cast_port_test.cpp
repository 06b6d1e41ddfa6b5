// Cases ported from TensorFlow 1.x's kernel tests one_hot_op_test.py, argmax_op_test.py and
// cast_op_test.py, for tf::one_hot, tf::argmax / tf::argmin and tf::cast. Each case names the
// TensorFlow test it ports; the expected values are the test's literals (truth arrays,
// np.iinfo bounds), or the numpy computation it compares with (x.argmax(axis), x.astype),
// done here by index arithmetic and in double. Comparisons are exact, as TensorFlow's
// assertAllEqual.
//
// Not ported, and why:
// - dtypes typeflow has no element type for: complex64 / complex128 (testComplexBasic,
//   testComplexBatch, the complex rows of cast's type lists), string (one_hot's testString,
//   cast's testNotImplemented becomes the check that cast<std::string> does not compile),
//   uint8, bfloat16 (testBfloat16), half; SparseTensorCastTest, SaturateCastTest (no
//   saturate_cast in typeflow).
// - the GPU runs (use_gpu=True) and XLA runs.
// - one_hot's testSingleValueGiven: typeflow takes on_value and off_value together or not at
//   all; the case runs with both given (the values TensorFlow fills in).
// - one_hot's testPrefixDimOverflow: not in the 1.x test.
// - argmax's testDim runs for double only (float, int32, int64 and bool run testBasic and
//   testTieBreaking), to keep this file quick to compile: one node type per axis.
// one_hot's testOnOffMismatchTypeError / testDtypeMismatchTypeError, an out-of-range static
// axis, argmax's testEmpty with a static shape are compile errors: compile_fail/one_hot_on_off_dtype.cpp,
// compile_fail/one_hot_axis.cpp, compile_fail/argmax_empty_axis.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
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

namespace {

template <class T, std::size_t R>
xt::xtensor<T, R> tensor_of(std::array<std::size_t, R> dims, const std::vector<double>& v) {
  auto t = xt::xtensor<T, R>::from_shape(dims);
  REQUIRE(t.size() == v.size());
  for (std::size_t i = 0; i < v.size(); ++i) t.flat(i) = static_cast<T>(v[i]);
  return t;
}

// np.transpose of a [rows, cols] matrix given row-major, per batch of `batch` matrices.
std::vector<double> transposed(const std::vector<double>& v, std::size_t batch, std::size_t rows, std::size_t cols) {
  std::vector<double> out(v.size());
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j) out[b * rows * cols + j * rows + i] = v[b * rows * cols + i * cols + j];
  return out;
}

// The truth arrays of _testBasic (on 1, off -1) and _testBatch; off 0 gives _testDefault*'s.
std::vector<double> with_off(std::vector<double> v, double off) {
  for (auto& x : v)
    if (x == -1) x = off;
  return v;
}
const std::vector<double> basic_truth = {1, -1, -1, -1, -1, 1, -1, -1, -1, -1, 1, -1};
const std::vector<double> batch_truth = {1, -1, -1, -1, -1, 1, -1, -1, -1, -1, 1, -1,
                                         -1, 1, -1, 1, -1, -1, -1, 1, -1, -1, -1, -1};

// _testBasic, _testDefaultBasic, _testBatch, _testDefaultValuesBatch and _testValueTypeBatch
// for dtype T: indices [0, 2, -1, 1] (int64) and [[0, 2, -1, 1], [1, 0, 1, -1]], depth 3,
// axis -1 and axis 0 (basic) or 1 (batch), on/off 1/-1 as literals, and as fed scalars.
template <class T>
void one_hot_cases() {
  auto idx = tf::placeholder<"oh_idx", std::int64_t, shape<4>>();
  auto batch = tf::placeholder<"oh_batch", std::int64_t, shape<dyn, 4>>();
  auto on = tf::placeholder<"oh_on", T, shape<>>();
  auto off = tf::placeholder<"oh_off", T, shape<>>();
  auto basic = tf::one_hot<3, T>(idx, tf::constant<1>(), tf::constant<-1>());
  auto basic0 = tf::one_hot<3, T, 0>(idx, tf::constant<1>(), tf::constant<-1>());
  auto dflt = tf::one_hot<3, T>(idx);
  auto dflt0 = tf::one_hot<3, T, 0>(idx);
  auto b = tf::one_hot<3, T>(batch, on, off);
  auto b1 = tf::one_hot<3, T, 1>(batch, on, off);
  auto bd = tf::one_hot<3, T>(batch);
  auto bd1 = tf::one_hot<3, T, 1>(batch);
  static_assert(has_shape<decltype(basic), shape<4, 3>> && has_shape<decltype(basic0), shape<3, 4>>);
  static_assert(has_shape<decltype(b), shape<dyn, 4, 3>> && has_shape<decltype(b1), shape<dyn, 3, 4>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(basic)>, T>);
  tf::session sess(basic, basic0, dflt, dflt0, b, b1, bd, bd1);
  const xt::xtensor_fixed<std::int64_t, xt::xshape<4>> iv{0, 2, -1, 1};
  check_all(sess.run(basic, tf::feed(idx, iv)), {4, 3}, basic_truth);
  check_all(sess.run(basic0, tf::feed(idx, iv)), {3, 4}, transposed(basic_truth, 1, 4, 3));
  check_all(sess.run(dflt, tf::feed(idx, iv)), {4, 3}, with_off(basic_truth, 0));
  check_all(sess.run(dflt0, tf::feed(idx, iv)), {3, 4}, transposed(with_off(basic_truth, 0), 1, 4, 3));
  const auto bv = tensor_of<std::int64_t, 2>({2, 4}, {0, 2, -1, 1, 1, 0, 1, -1});
  const auto fb = tf::feed(batch, bv);
  check_all(sess.run(b, fb, tf::feed(on, T(1)), tf::feed(off, T(-1))), {2, 4, 3}, batch_truth);
  check_all(sess.run(b1, fb, tf::feed(on, T(1)), tf::feed(off, T(-1))), {2, 3, 4}, transposed(batch_truth, 2, 4, 3));
  check_all(sess.run(bd, fb), {2, 4, 3}, with_off(batch_truth, 0));
  check_all(sess.run(bd1, fb), {2, 3, 4}, transposed(with_off(batch_truth, 0), 2, 4, 3));
  // The same graph with other on/off values and a batch of one (not in the TF test).
  check_all(sess.run(b, tf::feed(batch, tensor_of<std::int64_t, 2>({1, 4}, {2, 3, 0, -7})), tf::feed(on, T(5)),
                     tf::feed(off, T(2))),
            {1, 4, 3}, {2, 2, 5, 2, 2, 2, 5, 2, 2, 2, 2, 2});
}

}  // namespace

// --- one_hot ---------------------------------------------------------------------------------

TEST_CASE("one_hot: testFloatBasic and testFloatBatch") { one_hot_cases<float>(); }
TEST_CASE("one_hot: testDoubleBasic and testDoubleBatch") { one_hot_cases<double>(); }
TEST_CASE("one_hot: testInt32Basic and testInt32Batch") { one_hot_cases<std::int32_t>(); }
TEST_CASE("one_hot: testInt64Basic and testInt64Batch") { one_hot_cases<std::int64_t>(); }

// testSimpleCases: indices [0, 1, 2] (int32), depth 3: float by default, int32 when asked,
// and on 1 / off -1 given as Python ints (TensorFlow then infers int32). testSingleValueGiven
// with both values given (see the top comment).
TEST_CASE("one_hot: testSimpleCases and testSingleValueGiven") {
  auto idx = tf::constant<"ohs_idx">(xt::xtensor_fixed<std::int32_t, xt::xshape<3>>{0, 1, 2});
  auto f = tf::one_hot<3>(idx);
  auto i = tf::one_hot<3, std::int32_t>(idx);
  auto pm = tf::one_hot<3, std::int32_t>(idx, tf::constant<1>(), tf::constant<-1>());
  auto single = tf::one_hot<3, std::int32_t>(idx, tf::constant<1>(), tf::constant<0>());
  static_assert(std::is_same_v<tf::value_type_of<decltype(f)>, float>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(pm)>, std::int32_t>);
  tf::session sess(f, i, pm, single);
  const std::vector<double> eye = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  check_all(sess.run(f), {3, 3}, eye);
  check_all(sess.run(i), {3, 3}, eye);
  check_all(sess.run(pm), {3, 3}, {1, -1, -1, -1, 1, -1, -1, -1, 1});
  check_all(sess.run(single), {3, 3}, eye);
  // Rank-0 indices (TensorFlow allows any rank): a vector of depth elements.
  auto s = tf::placeholder<"ohs_s", std::int32_t, shape<>>();
  auto sv = tf::one_hot<4>(s);
  static_assert(has_shape<decltype(sv), shape<4>>);
  tf::session ss(sv);
  check_all(ss.run(sv, tf::feed(s, 2)), {4}, {0, 0, 1, 0});
  check_all(ss.run(sv, tf::feed(s, 4)), {4}, {0, 0, 0, 0});
}

// testIndicesTypes: int32 and int64 indices [[0, 2, -1, 1], [1, 0, 1, -1]], float on 1 / off -1,
// axis -1 and 1.
TEST_CASE("one_hot: testIndicesTypes") {
  auto i32 = tf::constant<"ohi_32">(xt::xtensor_fixed<std::int32_t, xt::xshape<2, 4>>{{0, 2, -1, 1}, {1, 0, 1, -1}});
  auto i64 = tf::constant<"ohi_64">(xt::xtensor_fixed<std::int64_t, xt::xshape<2, 4>>{{0, 2, -1, 1}, {1, 0, 1, -1}});
  auto on = tf::constant<1.0f>();
  auto off = tf::constant<-1.0f>();
  auto a = tf::one_hot<3>(i32, on, off);
  auto a1 = tf::one_hot<3, float, 1>(i32, on, off);
  auto b = tf::one_hot<3>(i64, on, off);
  auto b1 = tf::one_hot<3, float, 1>(i64, on, off);
  tf::session sess(a, a1, b, b1);
  check_all(sess.run(a), {2, 4, 3}, batch_truth);
  check_all(sess.run(b), {2, 4, 3}, batch_truth);
  check_all(sess.run(a1), {2, 3, 4}, transposed(batch_truth, 2, 4, 3));
  check_all(sess.run(b1), {2, 3, 4}, transposed(batch_truth, 2, 4, 3));
}

// Not a TensorFlow case: the OneHot kernel's rule for indices outside [0, depth) and for an
// inner axis of rank-3 indices (TensorFlow: the depth dimension inserted at `axis`).
TEST_CASE("one_hot: out-of-range indices and axis 1 of rank-3 indices, against the rule") {
  auto idx = tf::placeholder<"ohr_idx", std::int32_t, shape<2, 2, 3>>();
  auto y = tf::one_hot<4, double, 1>(idx, tf::constant<7>(), tf::constant<-2>());
  auto ylast = tf::one_hot<4, double, 3>(idx);
  static_assert(has_shape<decltype(y), shape<2, 4, 2, 3>> && has_shape<decltype(ylast), shape<2, 2, 3, 4>>);
  tf::session sess(y, ylast);
  xt::xtensor_fixed<std::int32_t, xt::xshape<2, 2, 3>> iv{{{0, 3, 4}, {-1, 2, 1}}, {{3, 3, -100}, {1, 0, 2}}};
  const auto got = sess.run(y, tf::feed(idx, iv));
  const auto last = sess.run(ylast, tf::feed(idx, iv));
  for (std::size_t a = 0; a < 2; ++a)
    for (std::size_t d = 0; d < 4; ++d)
      for (std::size_t b = 0; b < 2; ++b)
        for (std::size_t c = 0; c < 3; ++c) {
          const bool hit = iv(a, b, c) == static_cast<std::int32_t>(d);
          CHECK(got(a, d, b, c) == (hit ? 7.0 : -2.0));
          CHECK(last(a, b, c, d) == (hit ? 1.0 : 0.0));
        }
}

// --- argmax, argmin --------------------------------------------------------------------------

namespace {

// x.argmax(axis) / x.argmin(axis) of a row-major tensor of dims `dims`, first index on ties.
std::vector<double> np_arg(const std::vector<double>& x, const std::vector<std::size_t>& dims, std::size_t axis,
                           bool max) {
  std::size_t outer = 1, inner = 1;
  for (std::size_t i = 0; i < axis; ++i) outer *= dims[i];
  for (std::size_t i = axis + 1; i < dims.size(); ++i) inner *= dims[i];
  const std::size_t n = dims[axis];
  std::vector<double> out;
  for (std::size_t p = 0; p < outer; ++p)
    for (std::size_t q = 0; q < inner; ++q) {
      std::size_t best = 0;
      for (std::size_t k = 1; k < n; ++k) {
        const double v = x[(p * n + k) * inner + q], b = x[(p * n + best) * inner + q];
        if (max ? v > b : v < b) best = k;
      }
      out.push_back(static_cast<double>(best));
    }
  return out;
}

// _testBasic and _testTieBreaking for dtype T: a shuffled arange(200).astype(bool).astype(T)
// (one 0, the rest 1), zeros(200), and [[0, 0, 1, 1], [1, 1, 0, 0], [0, 1, 0, 1]] along axis 1.
template <class T>
void argmax_basic_cases() {
  auto x = tf::placeholder<"am_x", T, shape<200>>();
  auto m = tf::placeholder<"am_m", T, shape<3, 4>>();
  auto mx = tf::argmax<0>(x);
  auto mn = tf::argmin<0>(x);
  auto mx1 = tf::argmax<1>(m);
  auto mn1 = tf::argmin<1>(m);
  static_assert(std::is_same_v<tf::value_type_of<decltype(mx)>, std::int64_t>);  // "Defaults to int64 output"
  static_assert(has_shape<decltype(mx), shape<>> && has_shape<decltype(mx1), shape<3>>);
  tf::session sess(mx, mn, mx1, mn1);
  std::vector<double> v(200);
  std::iota(v.begin(), v.end(), 0.0);
  for (auto& e : v) e = e != 0 ? 1 : 0;
  std::mt19937 gen(7);
  std::shuffle(v.begin(), v.end(), gen);
  xt::xtensor_fixed<T, xt::xshape<200>> xv{};
  for (std::size_t i = 0; i < 200; ++i) xv(i) = static_cast<T>(v[i]);
  CHECK(sess.run(mx, tf::feed(x, xv)) == static_cast<std::int64_t>(np_arg(v, {200}, 0, true)[0]));
  CHECK(sess.run(mn, tf::feed(x, xv)) == static_cast<std::int64_t>(np_arg(v, {200}, 0, false)[0]));
  const xt::xtensor_fixed<T, xt::xshape<200>> zeros{};
  CHECK(sess.run(mx, tf::feed(x, zeros)) == 0);
  CHECK(sess.run(mn, tf::feed(x, zeros)) == 0);
  const std::vector<double> t = {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 1};
  xt::xtensor_fixed<T, xt::xshape<3, 4>> tv{};
  for (std::size_t i = 0; i < 12; ++i) tv.flat(i) = static_cast<T>(t[i]);
  check_all(sess.run(mx1, tf::feed(m, tv)), {3}, {2, 0, 1});
  check_all(sess.run(mn1, tf::feed(m, tv)), {3}, {0, 2, 0});
}

}  // namespace

TEST_CASE("argmax: testFloat (testBasic, testTieBreaking)") { argmax_basic_cases<float>(); }
TEST_CASE("argmax: testDouble (testBasic, testTieBreaking)") { argmax_basic_cases<double>(); }
TEST_CASE("argmax: testInt32 (testBasic, testTieBreaking)") { argmax_basic_cases<std::int32_t>(); }
TEST_CASE("argmax: testInt64 (testBasic, testTieBreaking)") { argmax_basic_cases<std::int64_t>(); }
TEST_CASE("argmax: testBool (testBasic, testTieBreaking)") { argmax_basic_cases<bool>(); }

// testDouble's _testDim: a shuffled arange of shape (3, 2, 4, 5, 6, 3, 7), argmax and argmin
// along every axis in [-7, 7), against numpy's x.argmax(axis).
TEST_CASE("argmax: testDouble (testDim, every axis of a rank-7 tensor)") {
  auto x = tf::placeholder<"amd_x", double, shape<3, 2, 4, 5, 6, 3, 7>>();
  const std::vector<std::size_t> dims{3, 2, 4, 5, 6, 3, 7};
  std::vector<double> v(3 * 2 * 4 * 5 * 6 * 3 * 7);
  std::iota(v.begin(), v.end(), 0.0);
  std::mt19937 gen(11);
  std::shuffle(v.begin(), v.end(), gen);
  xt::xtensor_fixed<double, xt::xshape<3, 2, 4, 5, 6, 3, 7>> xv{};
  std::copy(v.begin(), v.end(), xv.begin());
  auto check_axis = [&]<std::ptrdiff_t A>(std::integral_constant<std::ptrdiff_t, A>) {
    auto mx = tf::argmax<A>(x);
    auto mn = tf::argmin<A>(x);
    tf::session sess(mx, mn);
    const std::size_t axis = static_cast<std::size_t>(A < 0 ? A + 7 : A);
    std::vector<std::size_t> out_dims = dims;
    out_dims.erase(out_dims.begin() + static_cast<std::ptrdiff_t>(axis));
    INFO("axis " << A);
    check_all(sess.run(mx, tf::feed(x, xv)), out_dims, np_arg(v, dims, axis, true));
    check_all(sess.run(mn, tf::feed(x, xv)), out_dims, np_arg(v, dims, axis, false));
  };
  [&]<std::ptrdiff_t... A>(std::integer_sequence<std::ptrdiff_t, A...>) {
    (check_axis(std::integral_constant<std::ptrdiff_t, A - 7>{}), ...);
  }(std::make_integer_sequence<std::ptrdiff_t, 14>{});
}

// testFloatInt32Output: output_type=int32 gives int32 indices, the same values.
TEST_CASE("argmax: testFloatInt32Output") {
  auto x = tf::placeholder<"am32_x", float, shape<200>>();
  auto mx = tf::argmax<0, std::int32_t>(x);
  auto mn = tf::argmin<0, std::int32_t>(x);
  static_assert(std::is_same_v<tf::value_type_of<decltype(mx)>, std::int32_t>);
  tf::session sess(mx, mn);
  std::mt19937 gen(3);
  std::normal_distribution<float> randn(0.f, 1.f);
  xt::xtensor_fixed<float, xt::xshape<200>> xv{};
  std::vector<double> v;
  for (auto& e : xv) v.push_back(e = 100 * randn(gen));
  CHECK(sess.run(mx, tf::feed(x, xv)) == static_cast<std::int32_t>(np_arg(v, {200}, 0, true)[0]));
  CHECK(sess.run(mn, tf::feed(x, xv)) == static_cast<std::int32_t>(np_arg(v, {200}, 0, false)[0]));
}

// testEmpty: "InvalidArgument: Reduction axis 0 is empty in shape [0]" for a dynamic shape, when run (a static
// one is a compile error: compile_fail/argmax_empty_axis.cpp). testDefaultAxis: argmax([1])
// is 0, axis 0 by default. testOutputEmpty: zeros [1, 0, 2] along -1 give shape (1, 0).
TEST_CASE("argmax: testEmpty, testDefaultAxis and testOutputEmpty") {
  auto e = tf::placeholder<"ame_e", float, shape<dyn>>();
  auto emx = tf::argmax(e);
  auto emn = tf::argmin(e);
  tf::session se(emx, emn);
  const auto empty = empty_of<float, 1>({0});
  CHECK_THROWS_WITH_AS(se.run(emx, tf::feed(e, empty)), "InvalidArgument: Reduction axis 0 is empty in shape [0]",
                       tf::invalid_argument_error);
  CHECK_THROWS_WITH_AS(se.run(emn, tf::feed(e, empty)), "InvalidArgument: Reduction axis 0 is empty in shape [0]",
                       tf::invalid_argument_error);
  const auto one = tensor_of<float, 1>({1}, {1});
  static_assert(std::is_same_v<decltype(se.run(emx, tf::feed(e, one))), std::int64_t>);  // shape []
  CHECK(se.run(emx, tf::feed(e, one)) == 0);
  CHECK(se.run(emn, tf::feed(e, one)) == 0);
  auto z = tf::placeholder<"ame_z", float, shape<1, 0, 2>>();
  auto zmx = tf::argmax<-1>(z);
  auto zmn = tf::argmin<-1>(z);
  static_assert(has_shape<decltype(zmx), shape<1, 0>>);
  tf::session sz(zmx, zmn);
  check_all(sz.run(zmx, tf::feed(z, empty_of<float, 3>({1, 0, 2}))), {1, 0}, {});
  check_all(sz.run(zmn, tf::feed(z, empty_of<float, 3>({1, 0, 2}))), {1, 0}, {});
}

// Not in the TF test: NaN and the infinities, as TensorFlow's CPU kernel (Eigen's reducers
// replace the best value only on a strict > or <): NaN never wins, an all-NaN row gives 0.
TEST_CASE("argmax: NaN skipped, infinities ordered, as TensorFlow's CPU kernel") {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  constexpr double inf = std::numeric_limits<double>::infinity();
  auto x = tf::placeholder<"amn_x", double, shape<4, 4>>();
  auto mx = tf::argmax<1>(x);
  auto mn = tf::argmin<1>(x);
  tf::session sess(mx, mn);
  const auto v = tensor_of<double, 2>({4, 4}, {nan, 1, 3, nan,  //
                                               -inf, inf, 0, inf,  //
                                               nan, nan, nan, nan,  //
                                               2, nan, -inf, -inf});
  xt::xtensor_fixed<double, xt::xshape<4, 4>> xv{};
  std::copy(v.begin(), v.end(), xv.begin());
  check_all(sess.run(mx, tf::feed(x, xv)), {4}, {2, 1, 0, 0});
  check_all(sess.run(mn, tf::feed(x, xv)), {4}, {1, 0, 0, 2});
}

// --- cast ------------------------------------------------------------------------------------

namespace {

// numpy's astype to To of a value already of the source type (in range): truncation toward
// zero to an integer, rounding to nearest to float, != 0 to bool.
template <class To>
double np_astype(double v) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != 0 ? 1 : 0;
  } else if constexpr (std::is_integral_v<To>) {
    return std::trunc(v);
  } else {
    return static_cast<double>(static_cast<To>(v));  // float rounding of a double
  }
}

// One placeholder per source type, cast to each target type: _testTypes over
// {float32, float64, int32, int64} plus bool -> float32 and bool -> int32, fed x.astype(from).
struct cast_graph {
  tf::placeholder_node<"c_f", float, shape<dyn>> f = tf::placeholder<"c_f", float, shape<dyn>>();
  tf::placeholder_node<"c_d", double, shape<dyn>> d = tf::placeholder<"c_d", double, shape<dyn>>();
  tf::placeholder_node<"c_i", std::int32_t, shape<dyn>> i = tf::placeholder<"c_i", std::int32_t, shape<dyn>>();
  tf::placeholder_node<"c_l", std::int64_t, shape<dyn>> l = tf::placeholder<"c_l", std::int64_t, shape<dyn>>();
  tf::placeholder_node<"c_b", bool, shape<dyn>> b = tf::placeholder<"c_b", bool, shape<dyn>>();

  template <class From, class P>
  void check_from(auto& sess, P p, const std::vector<double>& x) {
    std::vector<double> from;
    for (double v : x) from.push_back(np_astype<From>(v));
    const auto fed = tensor_of<From, 1>({x.size()}, from);
    auto each = [&]<class To>(To*) {
      std::vector<double> want;
      for (double v : from) want.push_back(np_astype<To>(v));
      INFO("cast " << tf::dtype_name_of<From> << " -> " << tf::dtype_name_of<To>);
      check_all(sess.run(tf::cast<To>(p), tf::feed(p, fed)), {x.size()}, want);
    };
    if constexpr (std::is_same_v<From, bool>) {
      each((float*)nullptr);
      each((std::int32_t*)nullptr);
    } else {
      each((float*)nullptr);
      each((double*)nullptr);
      each((std::int32_t*)nullptr);
      each((std::int64_t*)nullptr);
    }
  }
  void check_all_types(const std::vector<double>& x) {
    auto roots = [](auto p) {
      return std::make_tuple(tf::cast<float>(p), tf::cast<double>(p), tf::cast<std::int32_t>(p),
                             tf::cast<std::int64_t>(p));
    };
    auto all = std::tuple_cat(roots(f), roots(d), roots(i), roots(l),
                              std::make_tuple(tf::cast<float>(b), tf::cast<std::int32_t>(b)));
    std::apply([&](auto... r) {
      tf::session sess(r...);
      check_from<float>(sess, f, x);
      check_from<double>(sess, d, x);
      check_from<std::int32_t>(sess, i, x);
      check_from<std::int64_t>(sess, l, x);
      check_from<bool>(sess, b, x);
    }, all);
  }
};

}  // namespace

// testBasic: np.arange(-10, 10) and np.linspace(-10, 10, 17); testSmallValues: 0, +-1, the
// float32 and float64 resolutions; testRandom: np.random.normal(0, 10) and (0, 1e6), 210 each.
TEST_CASE("cast: testBasic, testSmallValues and testRandom, every pair of types against numpy's astype") {
  cast_graph g;
  std::vector<double> ar;
  for (int v = -10; v < 10; ++v) ar.push_back(v);
  g.check_all_types(ar);
  std::vector<double> lin;
  for (int k = 0; k < 17; ++k) lin.push_back(-10 + 20.0 * k / 16);
  g.check_all_types(lin);
  g.check_all_types({0, -1, 1, -1e-6, 1e-6, 1e-15, -1e-15});
  std::mt19937 gen(5);
  for (double sd : {10.0, 1e6}) {
    std::normal_distribution<double> normal(0, sd);
    std::vector<double> r(210);
    for (auto& e : r) e = normal(gen);
    g.check_all_types(r);
  }
}

// testIntToFloatBoundary and testInfNan (CPU): int bounds to float are rounded; inf, -inf and
// NaN to an integer give its lowest value on TensorFlow's CPU; NaN stays NaN in float. Not in
// the TF test, the same rule for finite values outside the range (x86's cvttss2si), and
// truncation inside it up to the bounds.
TEST_CASE("cast: testIntToFloatBoundary and testInfNan") {
  constexpr double inf = std::numeric_limits<double>::infinity();
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  constexpr auto i4min = std::numeric_limits<std::int32_t>::min(), i4max = std::numeric_limits<std::int32_t>::max();
  constexpr auto i8min = std::numeric_limits<std::int64_t>::min(), i8max = std::numeric_limits<std::int64_t>::max();
  auto i = tf::placeholder<"cb_i", std::int32_t, shape<2>>();
  auto l = tf::placeholder<"cb_l", std::int64_t, shape<2>>();
  auto d = tf::placeholder<"cb_d", double, shape<dyn>>();
  auto f = tf::placeholder<"cb_f", float, shape<dyn>>();
  tf::session sess(tf::cast<float>(i), tf::cast<double>(i), tf::cast<float>(l), tf::cast<double>(l),
                   tf::cast<std::int32_t>(d), tf::cast<std::int64_t>(d), tf::cast<float>(d), tf::cast<double>(f),
                   tf::cast<std::int32_t>(f), tf::cast<std::int64_t>(f));
  const xt::xtensor_fixed<std::int32_t, xt::xshape<2>> iv{i4min, i4max};
  const xt::xtensor_fixed<std::int64_t, xt::xshape<2>> lv{i8min, i8max};
  check_all(sess.run(tf::cast<float>(i), tf::feed(i, iv)), {2}, {double(float(i4min)), double(float(i4max))});
  check_all(sess.run(tf::cast<double>(i), tf::feed(i, iv)), {2}, {double(i4min), double(i4max)});
  check_all(sess.run(tf::cast<float>(l), tf::feed(l, lv)), {2}, {-9223372036854775808.0, 9223372036854775808.0});
  check_all(sess.run(tf::cast<double>(l), tf::feed(l, lv)), {2}, {-9223372036854775808.0, 9223372036854775808.0});

  const auto dv = tensor_of<double, 1>({10}, {inf, -inf, nan, 3e9, -3e9, 2147483647.9, -2147483648.9, 1e19, -1e19,
                                              -9223372036854775808.0});
  const std::vector<double> want32 = {i4min, i4min, i4min, i4min, i4min, i4max, i4min, i4min, i4min, i4min};
  check_all(sess.run(tf::cast<std::int32_t>(d), tf::feed(d, dv)), {10}, want32);
  const auto got64 = sess.run(tf::cast<std::int64_t>(d), tf::feed(d, dv));
  const std::vector<std::int64_t> want64 = {i8min, i8min, i8min, 3000000000, -3000000000, 2147483647, -2147483648,
                                            i8min, i8min, i8min};
  REQUIRE(got64.size() == want64.size());
  for (std::size_t k = 0; k < want64.size(); ++k) CHECK(got64(k) == want64[k]);
  const auto fd = sess.run(tf::cast<float>(d), tf::feed(d, dv));
  CHECK(fd(0) == std::numeric_limits<float>::infinity());
  CHECK(fd(1) == -std::numeric_limits<float>::infinity());
  CHECK(std::isnan(fd(2)));

  const auto fv = tensor_of<float, 1>({5}, {inf, -inf, nan, 2147483648.0, -2147483648.0});
  const auto df = sess.run(tf::cast<double>(f), tf::feed(f, fv));
  CHECK(df(0) == inf);
  CHECK(df(1) == -inf);
  CHECK(std::isnan(df(2)));
  check_all(sess.run(tf::cast<std::int32_t>(f), tf::feed(f, fv)), {5}, {i4min, i4min, i4min, i4min, i4min});
  const auto f64 = sess.run(tf::cast<std::int64_t>(f), tf::feed(f, fv));
  CHECK(f64(0) == i8min);
  CHECK(f64(1) == i8min);
  CHECK(f64(2) == i8min);
  CHECK(f64(3) == 2147483648LL);
  CHECK(f64(4) == -2147483648LL);
}

// testNotImplemented: a cast to a type that is not an element type (TensorFlow: string) is
// rejected at compile time, by cast's constraint.
template <class To, class X>
concept castable = requires(X x) { tf::cast<To>(x); };
static_assert(castable<float, tf::placeholder_node<"cn_x", std::int64_t, shape<10>>>);
static_assert(!castable<std::string, tf::placeholder_node<"cn_x", std::int64_t, shape<10>>>);
static_assert(!castable<std::uint8_t, tf::placeholder_node<"cn_x", std::int64_t, shape<10>>>);

// testCastToTypeOfVariable: cast(y, x.dtype) with x a float variable and y a bool variable True.
TEST_CASE("cast: testCastToTypeOfVariable") {
  auto x = tf::variable<"cv_x", float, shape<>>(tf::init::constant(5));
  auto y = tf::variable<"cv_y", bool, shape<>>(tf::init::constant(1));
  auto c = tf::cast<tf::value_type_of<decltype(x)>>(y);
  tf::session sess(x, c);
  sess.run(tf::global_variables_initializer());
  CHECK(sess.run(c) == 1.0f);
  CHECK(sess.run(x) == 5.0f);
}

// testGradients (float32 and float64, each way): the gradient of cast(identity(x)) at 1.0 is
// 1, in the source type; no gradient flows from an integer cast (TensorFlow: None).
TEST_CASE("cast: testGradients") {
  auto f = tf::placeholder<"cg_f", float, shape<>>();
  auto d = tf::placeholder<"cg_d", double, shape<>>();
  auto gff = tf::gradient(tf::cast<float>(f), f);
  auto gfd = tf::gradient(tf::cast<double>(f), f);
  auto gdf = tf::gradient(tf::cast<float>(d), d);
  auto gdd = tf::gradient(tf::cast<double>(d), d);
  static_assert(std::is_same_v<tf::value_type_of<decltype(gfd)>, float>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(gdf)>, double>);
  tf::session sess(gff, gfd, gdf, gdd);
  CHECK(sess.run(gff, tf::feed(f, 1.0f)) == 1.0f);
  CHECK(sess.run(gfd, tf::feed(f, 1.0f)) == 1.0f);
  CHECK(sess.run(gdf, tf::feed(d, 1.0)) == 1.0);
  CHECK(sess.run(gdd, tf::feed(d, 1.0)) == 1.0);
  auto gi = tf::gradient(tf::cast<double>(tf::cast<std::int32_t>(d)) + d, d);  // only through the + d
  tf::session si(gi);
  CHECK(si.run(gi, tf::feed(d, 2.5)) == 1.0);
}
