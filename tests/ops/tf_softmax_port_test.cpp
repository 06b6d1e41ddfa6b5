// softmax and log_softmax, ported from TensorFlow 1.x's softmax_op_test.py
// (tensorflow/python/kernel_tests/): its features, axes and the numpy reference _npSoftmax
// redone, with assertAllCloseAccordingToType's tolerances (1e-6 for float32 and float64).
// Each TEST_CASE names the tests it ports.
//
// Not ported: testHalf and the GPU tests (no float16, no GPU); testEmptyInput along axis 0,
// testDimTooLarge and testInvalidAxis (the axis is a template argument: an axis out of range
// is a compile error here, softmax_axis_is_out_of_range<axis, rank>, where TensorFlow fails
// at run time).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"

namespace tf = typeflow;

namespace {

using f3 = xt::xtensor_fixed<float, xt::xshape<3, 2, 4>>;
const f3 features3{{{1, 1, 1, 1}, {1, 2, 3, 4}}, {{2, 3, 4, 5}, {6, 7, 8, 9}}, {{5, 4, 3, 2}, {1, 2, 3, 4}}};

// _npSoftmax(features, dim, log) in double, over axis `dim` of a [3, 2, 4] tensor.
std::vector<double> np_softmax3(const f3& x, int dim, bool log) {
  const std::size_t dims[3] = {3, 2, 4};
  std::vector<double> out(24);
  auto at = [&](std::size_t i, std::size_t j, std::size_t k) { return (i * 2 + j) * 4 + k; };
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 2; ++j)
      for (std::size_t k = 0; k < 4; ++k) {
        auto index = [&](std::size_t t) {
          return dim == 0 ? at(t, j, k) : dim == 1 ? at(i, t, k) : at(i, j, t);
        };
        double mx = -std::numeric_limits<double>::infinity(), sum = 0;
        for (std::size_t t = 0; t < dims[dim]; ++t) mx = std::max(mx, double(x.data()[index(t)]));
        for (std::size_t t = 0; t < dims[dim]; ++t) sum += std::exp(double(x.data()[index(t)]) - mx);
        const double e = std::exp(double(x.data()[at(i, j, k)]) - mx) / sum;
        out[at(i, j, k)] = log ? std::log(e) : e;
      }
  return out;
}

template <class Got>
void check_close(const Got& got, const std::vector<double>& want, double tol = 1e-6) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i);
    CHECK(std::abs(double(got.data()[i]) - want[i]) <= tol + tol * std::abs(want[i]));
  }
}

template <class N>
auto run(N n) {
  tf::session sess(n);
  return sess.run(n);
}

}  // namespace

TEST_CASE("testNpSoftmax, testFloat, testDouble (softmax_op_test.py): [[1, 1, 1, 1], [1, 2, 3, 4]]") {
  const std::vector<double> sm{0.25, 0.25, 0.25, 0.25, 0.0320586, 0.08714432, 0.23688282, 0.64391426};
  const std::vector<double> lsm{-1.386294, -1.386294, -1.386294, -1.386294,
                                -3.4401897, -2.4401897, -1.4401897, -0.4401897};
  auto f = tf::constant<"f">(xt::xtensor_fixed<float, xt::xshape<2, 4>>{{1, 1, 1, 1}, {1, 2, 3, 4}});
  auto d = tf::constant<"d">(xt::xtensor_fixed<double, xt::xshape<2, 4>>{{1, 1, 1, 1}, {1, 2, 3, 4}});
  check_close(run(tf::softmax(f)), sm, 1e-5);
  check_close(run(tf::log_softmax(f)), lsm, 1e-5);
  check_close(run(tf::softmax(d)), sm, 1e-5);
  check_close(run(tf::log_softmax(d)), lsm, 1e-5);
  const auto rows = run(tf::reduce_sum<-1>(tf::softmax(d)));  // the bonus check: rows add to one
  check_close(rows, {1, 1});
}

TEST_CASE("_testOverflow (softmax_op_test.py): log_softmax of the largest float is 0, the others -max") {
  {
    const float max = std::numeric_limits<float>::max();
    auto x = tf::constant<"x">(xt::xtensor_fixed<float, xt::xshape<2, 4>>{{1, 1, 1, 1}, {max, 1, 2, 3}});
    check_close(run(tf::log_softmax(x)), {-1.386294, -1.386294, -1.386294, -1.386294, 0, -max, -max, -max}, 1e-5);
  }
  {
    const double max = std::numeric_limits<double>::max();
    auto x = tf::constant<"x">(xt::xtensor_fixed<double, xt::xshape<2, 4>>{{1, 1, 1, 1}, {max, 1, 2, 3}});
    check_close(run(tf::log_softmax(x)), {-1.386294, -1.386294, -1.386294, -1.386294, 0, -max, -max, -max}, 1e-5);
  }
}

TEST_CASE("test1DTensorAsInput, test3DTensorAsInput, testShapeInference (softmax_op_test.py)") {
  auto v = tf::constant<"v">(xt::xtensor_fixed<double, xt::xshape<4>>{3, 2, 3, 9});
  const double s = std::exp(3.0 - 9) * 2 + std::exp(2.0 - 9) + 1;
  check_close(run(tf::softmax(v)), {std::exp(-6.0) / s, std::exp(-7.0) / s, std::exp(-6.0) / s, 1 / s});
  auto x = tf::constant<"x">(features3);
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::softmax(x))>, tf::shape<3, 2, 4>>);
  check_close(run(tf::softmax(x)), np_softmax3(features3, 2, false));
  check_close(run(tf::log_softmax(x)), np_softmax3(features3, 2, true));
}

TEST_CASE("testAlongFirstDimension, testAlongSecondDimension, testAlongNegativeDimension (softmax_op_test.py)") {
  auto x = tf::constant<"x">(features3);
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::softmax<0>(x))>, tf::shape<3, 2, 4>>);
  check_close(run(tf::softmax<0>(x)), np_softmax3(features3, 0, false));
  check_close(run(tf::log_softmax<0>(x)), np_softmax3(features3, 0, true));
  check_close(run(tf::softmax<1>(x)), np_softmax3(features3, 1, false));
  check_close(run(tf::log_softmax<1>(x)), np_softmax3(features3, 1, true));
  check_close(run(tf::softmax<-2>(x)), np_softmax3(features3, 1, false));
  check_close(run(tf::softmax<-1>(x)), np_softmax3(features3, 2, false));
  check_close(run(tf::softmax<2>(x)), np_softmax3(features3, 2, false));
  // the bonus check along axis 0
  const auto sums = run(tf::reduce_sum<0>(tf::softmax<0>(x)));
  check_close(sums, std::vector<double>(8, 1.0));
}

TEST_CASE("testLargeDims (softmax_op_test.py): rows of 129 and 256 against the numpy reference") {
  auto check = [](auto x, std::size_t n) {
    xt::xtensor<float, 2> v = xt::xtensor<float, 2>::from_shape({n, n});
    for (std::size_t i = 0; i < v.size(); ++i) v.data()[i] = static_cast<float>((i * 7919 % 1000) / 1000.0);
    tf::session sess(tf::softmax(x));
    const xt::xtensor<float, 2> got = sess.run(tf::softmax(x), tf::feed(x, v));
    std::vector<double> want(n * n);
    for (std::size_t r = 0; r < n; ++r) {
      double mx = -1e300, sum = 0;
      for (std::size_t c = 0; c < n; ++c) mx = std::max(mx, double(v(r, c)));
      for (std::size_t c = 0; c < n; ++c) sum += std::exp(double(v(r, c)) - mx);
      for (std::size_t c = 0; c < n; ++c) want[r * n + c] = std::exp(double(v(r, c)) - mx) / sum;
    }
    check_close(got, want);
  };
  check(tf::placeholder<"x", float, tf::shape<tf::dyn, tf::dyn>>(), 129);
  check(tf::placeholder<"x", float, tf::shape<tf::dyn, tf::dyn>>(), 256);
}

TEST_CASE("softmax<axis> and log_softmax<axis>: gradients against central differences") {
  using S = tf::shape<3, 2, 4>;
  auto x = tf::placeholder<"x", double, S>();
  auto w = tf::constant<"w">(fd_check::uniform<S>());
  const auto x0 = fd_check::uniform<S>();
  {
    auto loss = tf::reduce_sum(tf::softmax<0>(x) * w);
    auto [g] = tf::gradients(loss, x);
    tf::session sess(loss, g);
    fd_check::check_gradient_node(sess, loss, g, x, x0);
  }
  {
    auto loss = tf::reduce_sum(tf::log_softmax<1>(x) * w);
    auto [g] = tf::gradients(loss, x);
    tf::session sess(loss, g);
    fd_check::check_gradient_node(sess, loss, g, x, x0);
  }
}
