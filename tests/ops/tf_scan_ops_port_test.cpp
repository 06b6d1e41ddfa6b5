// Values of cumsum and cumprod (ops/cumulative.hpp), ported from TensorFlow 1.x's
// scan_ops_test.py (CumsumTest, CumprodTest): test1D, test2D, test3D and testEmpty, each over
// every axis the test uses and the four (exclusive, reverse) combinations (_compareAll). The
// expected values are the test's numpy reference (handle_options: np.cumsum / np.cumprod on the
// reversed or shifted input), written here in C++ in double; the tolerance its assertAllClose
// (1e-6). Of its dtypes, int32, int64, float and double (test1D) and float and int64 (2D, 3D);
// half and complex have no typeflow element type. testInvalidAxis is a compile error here
// (cumsum_and_cumprod_axis_must_be_a_dim_of_x). Gradients: tests/autodiff/tf_scan_gradient_port_test.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "ops_testing.hpp"

namespace tf = typeflow;

namespace {

template <class T, std::size_t... D>
using fixed = xt::xtensor_fixed<T, xt::xshape<D...>>;

// handle_options(func, x, axis, exclusive, reverse) of scan_ops_test.py, on x row-major of
// shape dims.
std::vector<double> np_scan(const std::vector<double>& x, const std::vector<std::size_t>& dims, std::ptrdiff_t axis,
                            bool prod, bool exclusive, bool reverse) {
  const std::size_t ax = std::size_t(axis < 0 ? axis + std::ptrdiff_t(dims.size()) : axis);
  std::size_t outer = 1, inner = 1;
  for (std::size_t i = 0; i < ax; ++i) outer *= dims[i];
  for (std::size_t i = ax + 1; i < dims.size(); ++i) inner *= dims[i];
  const std::size_t n = dims[ax];
  std::vector<double> out(x.size());
  for (std::size_t p = 0; p < outer; ++p)
    for (std::size_t q = 0; q < inner; ++q) {
      double acc = prod ? 1.0 : 0.0;
      for (std::size_t s = 0; s < n; ++s) {
        const std::size_t i = (p * n + (reverse ? n - 1 - s : s)) * inner + q;
        if (exclusive) out[i] = acc;
        acc = prod ? acc * x[i] : acc + x[i];
        if (!exclusive) out[i] = acc;
      }
    }
  return out;
}

// _compare(x, axis, exclusive, reverse) for the four flag combinations (_compareAll).
template <bool Prod, std::ptrdiff_t Axis, class X, class V>
void compare_all(X x, const V& x0) {
  const auto scan = [&]<bool E, bool R>() {
    if constexpr (Prod) return tf::cumprod<Axis, E, R>(x);
    else return tf::cumsum<Axis, E, R>(x);
  };
  const auto y_ff = scan.template operator()<false, false>();
  const auto y_ft = scan.template operator()<false, true>();
  const auto y_tf = scan.template operator()<true, false>();
  const auto y_tt = scan.template operator()<true, true>();
  static_assert(tf::op_name_of<decltype(y_ff)>() == (Prod ? "Cumprod" : "Cumsum"));
  tf::session sess(y_ff, y_ft, y_tf, y_tt);
  const auto [v_ff, v_ft, v_tf, v_tt] = sess.run(tf::fetch(y_ff, y_ft, y_tf, y_tt), tf::feed(x, x0));
  const std::vector<std::size_t> dims(x0.shape().begin(), x0.shape().end());
  std::vector<double> xv;
  for (std::size_t i = 0; i < x0.size(); ++i) xv.push_back(static_cast<double>(x0.flat(i)));
  const auto check = [&](const auto& got, bool exclusive, bool reverse) {
    INFO((Prod ? "cumprod" : "cumsum") << " axis " << Axis << " exclusive " << exclusive << " reverse " << reverse);
    REQUIRE(ops_testing::shape_vector(got) == dims);
    const auto want = np_scan(xv, dims, Axis, Prod, exclusive, reverse);
    for (std::size_t i = 0; i < want.size(); ++i) {
      INFO("element " << i);
      CHECK(std::abs(static_cast<double>(got.flat(i)) - want[i]) <= 1e-6 + 1e-6 * std::abs(want[i]));
    }
  };
  check(v_ff, false, false);
  check(v_ft, false, true);
  check(v_tf, true, false);
  check(v_tt, true, true);
}

// np.arange(from, from + size).reshape(D...).astype(T)
template <class T, std::size_t... D>
fixed<T, D...> arange(int from) {
  fixed<T, D...> v{};
  for (std::size_t i = 0; i < v.size(); ++i) v.flat(i) = static_cast<T>(from + int(i));
  return v;
}

template <bool Prod, class T>
void test1d() {
  auto x = tf::placeholder<"x", T, tf::shape<5>>();
  const auto x0 = arange<T, 5>(1);
  compare_all<Prod, -1>(x, x0);
  compare_all<Prod, 0>(x, x0);
}

template <bool Prod, class T>
void test2d() {
  auto x = tf::placeholder<"x", T, tf::shape<2, 5>>();
  const auto x0 = arange<T, 2, 5>(Prod ? 1 : 0);
  compare_all<Prod, -2>(x, x0);
  compare_all<Prod, -1>(x, x0);
  compare_all<Prod, 0>(x, x0);
  compare_all<Prod, 1>(x, x0);
}

template <bool Prod, class T>
void test3d() {
  auto x = tf::placeholder<"x", T, tf::shape<2, 2, 5>>();
  const auto x0 = arange<T, 2, 2, 5>(Prod ? 1 : 0);
  compare_all<Prod, -3>(x, x0);
  compare_all<Prod, -2>(x, x0);
  compare_all<Prod, -1>(x, x0);
  compare_all<Prod, 0>(x, x0);
  compare_all<Prod, 1>(x, x0);
  compare_all<Prod, 2>(x, x0);
}

template <bool Prod>
void test_empty() {
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn>>();
  const auto x0 = xt::xtensor<float, 1>::from_shape({0});
  compare_all<Prod, -1>(x, x0);
  compare_all<Prod, 0>(x, x0);
}

}  // namespace

TEST_CASE("CumsumTest.test1D: arange(1, 6), axis -1 and 0, int32, int64, float, double") {
  test1d<false, std::int32_t>();
  test1d<false, std::int64_t>();
  test1d<false, float>();
  test1d<false, double>();
}
TEST_CASE("CumsumTest.test2D: arange(0, 10) as [2, 5], axis -2, -1, 0, 1") {
  test2d<false, float>();
  test2d<false, std::int64_t>();
}
TEST_CASE("CumsumTest.test3D: arange(0, 20) as [2, 2, 5], axis -3 to 2") { test3d<false, float>(); }
TEST_CASE("CumsumTest.testEmpty: zeros([0])") { test_empty<false>(); }

TEST_CASE("CumprodTest.test1D: arange(1, 6), axis -1 and 0, int32, int64, float, double") {
  test1d<true, std::int32_t>();
  test1d<true, std::int64_t>();
  test1d<true, float>();
  test1d<true, double>();
}
TEST_CASE("CumprodTest.test2D: arange(1, 11) as [2, 5], axis -2, -1, 0, 1") {
  test2d<true, float>();
  test2d<true, std::int64_t>();
}
TEST_CASE("CumprodTest.test3D: arange(1, 21) as [2, 2, 5], axis -3 to 2") { test3d<true, double>(); }
TEST_CASE("CumprodTest.testEmpty: zeros([0])") { test_empty<true>(); }

TEST_CASE("cumsum, cumprod: shape and element type are x's; axis 0 and no flags by default") {
  auto x = tf::placeholder<"x", std::int32_t, tf::shape<tf::dyn, 3>>();
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::cumsum(x))>, tf::shape<tf::dyn, 3>>);
  static_assert(std::is_same_v<decltype(tf::cumsum(x)), decltype(tf::cumsum<0, false, false>(x))>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(tf::cumprod<1>(x))>, std::int32_t>);
}
