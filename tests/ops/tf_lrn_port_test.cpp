// local_response_normalization (ops/local_response_normalization.hpp), ported from
// TensorFlow 1.x's lrn_op_test.py (LRNOpTest). Each TEST_CASE names the TensorFlow test it
// ports.
//
// testCompute draws a random shape, depth_radius, bias, alpha and beta per run; typeflow's
// hyperparameters are template arguments, so the runs here use fixed sets drawn once from
// TensorFlow's ranges (depth_radius in [1, min(8, depth)), bias in [1, 2), alpha in [0, 2),
// beta in [0.01, 2.01)) plus TensorFlow's defaults, each over random shapes and inputs from a
// fixed-seed std::mt19937, against the test's numpy _LRN recomputed here in double, with its
// bound (max error < 1e-4 for float32). testGradients compares TensorFlow's LRNGrad with
// finite differences (compute_gradient_error < 1e-4): here fd_check's central differences in
// double (tests/autodiff/fd_check.hpp), of a random weighting of the output.
//
// Not ported: the float16 runs (typeflow has no half type) and use_gpu (no GPU kernel).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"
#include "ops_testing.hpp"

namespace tf = typeflow;
using ops_testing::shape_vector;

namespace {

std::mt19937& rng() {
  static std::mt19937 g(20240612u);
  return g;
}

/// lrn_op_test.py's _LRN in double: x / (bias + alpha * sum(patch^2)) ** beta per channel.
std::vector<double> np_lrn(const std::vector<double>& x, std::size_t depth, std::ptrdiff_t radius, double bias,
                           double alpha, double beta) {
  std::vector<double> out(x.size());
  for (std::size_t row = 0; row * depth < x.size(); ++row)
    for (std::ptrdiff_t d = 0; d < std::ptrdiff_t(depth); ++d) {
      const std::ptrdiff_t begin = std::max<std::ptrdiff_t>(0, d - radius);
      const std::ptrdiff_t end = std::min<std::ptrdiff_t>(std::ptrdiff_t(depth), d + radius + 1);
      double sum = 0;
      for (std::ptrdiff_t j = begin; j < end; ++j) sum += x[row * depth + std::size_t(j)] * x[row * depth + std::size_t(j)];
      out[row * depth + std::size_t(d)] = x[row * depth + std::size_t(d)] / std::pow(bias + alpha * sum, beta);
    }
  return out;
}

auto image() { return tf::placeholder<"p", float, tf::shape<tf::dyn, tf::dyn, tf::dyn, tf::dyn>>(); }

/// _RunAndVerify(float32) with the given hyperparameters: a random shape (each dim in
/// [1, 16), depth one more), np.random.rand inputs.
template <std::ptrdiff_t R, double Bias, double Alpha, double Beta>
void run_and_verify() {
  std::uniform_int_distribution<std::size_t> dim(1, 15);
  std::array<std::size_t, 4> shape{dim(rng()), dim(rng()), dim(rng()), dim(rng()) + 1};
  shape[3] = std::max<std::size_t>(shape[3], std::size_t(R) + 1);  // TensorFlow draws R below depth
  INFO("shape [" << shape[0] << ", " << shape[1] << ", " << shape[2] << ", " << shape[3] << "], depth_radius " << R
                 << ", bias " << Bias << ", alpha " << Alpha << ", beta " << Beta);
  auto input = xt::xtensor<float, 4>::from_shape(shape);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> x;
  for (auto& v : input) {
    v = static_cast<float>(u(rng()));
    x.push_back(v);
  }
  const auto lrn = tf::local_response_normalization<R, Bias, Alpha, Beta>(image());
  tf::session sess;
  const auto result = sess.run(lrn, tf::feed(image(), input));
  REQUIRE(shape_vector(result) == std::vector<std::size_t>(shape.begin(), shape.end()));  // assertShapeEqual
  const auto expected = np_lrn(x, shape[3], R, Bias, Alpha, Beta);
  double err = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) err = std::max(err, std::abs(double(result.flat(i)) - expected[i]));
  CHECK(err < 1e-4);
}

}  // namespace

TEST_CASE("LRNOpTest.testCompute: float32 against _LRN, fixed draws of TensorFlow's ranges, random shapes") {
  for (int run = 0; run < 2; ++run) {
    run_and_verify<1, 1.2, 0.35, 1.7>();
    run_and_verify<3, 1.9, 1.6, 0.43>();
    run_and_verify<7, 1.05, 0.9, 0.75>();
    run_and_verify<5, 1.0, 1.0, 0.5>();  // TensorFlow's defaults (tf::lrn(x))
  }
}

TEST_CASE("LRNOpTest.testGradientsZeroInput: zeros [4, 4, 4, 4], lrn(p, 2, 1.0, 0.0, 1.0): gradient ones") {
  auto p = tf::placeholder<"p4", float, tf::shape<4, 4, 4, 4>>();
  const auto lrn_op = tf::lrn<2, 1.0, 0.0, 1.0>(p);
  const auto grad = tf::gradient(lrn_op, p);
  static_assert(std::is_same_v<tf::shape_of<decltype(grad)>, tf::shape<4, 4, 4, 4>>);
  tf::session sess;
  xt::xtensor_fixed<float, xt::xshape<4, 4, 4, 4>> zeros;
  zeros.fill(0.0f);
  const auto r = sess.run(grad, tf::feed(p, zeros));
  for (std::size_t i = 0; i < r.size(); ++i) {
    INFO("element " << i);
    CHECK(std::abs(double(r.flat(i)) - 1.0) <= 1e-6 + 1e-6);
  }
}

namespace {
/// _RunAndVerifyGradients: LRNGrad against central differences of sum(lrn(x) * w), in
/// double, inputs np.random.rand (in [0, 1)), a shape of TensorFlow's range (dims in [1, 5),
/// depth one more), fixed: [2, 3, 1, 5].
template <std::ptrdiff_t R, double Bias, double Alpha, double Beta>
void run_and_verify_gradients() {
  INFO("depth_radius " << R << ", bias " << Bias << ", alpha " << Alpha << ", beta " << Beta);
  using S = tf::shape<2, 3, 1, 5>;
  auto x = tf::placeholder<"x", double, S>();
  const auto w = tf::constant<"w">(fd_check::uniform<S>());
  const auto loss = tf::reduce_sum(tf::local_response_normalization<R, Bias, Alpha, Beta>(x) * w);
  tf::session sess(loss);
  fd_check::check_gradient(sess, loss, x, fd_check::uniform<S>(0.0, 1.0));
}
}  // namespace

TEST_CASE("LRNOpTest.testGradients: LRNGrad against central differences, fixed draws of TensorFlow's ranges") {
  run_and_verify_gradients<1, 1.3, 0.7, 0.6>();
  run_and_verify_gradients<3, 1.8, 0.25, 0.95>();
  run_and_verify_gradients<4, 1.0, 1.0, 0.5>();  // a radius past both ends of the 5 channels
}

TEST_CASE("local_response_normalization: a dynamic last dimension, and the op names") {
  const auto y = tf::lrn<1, 2.0, 1.0, 1.0>(image());
  static_assert(tf::op_name_of<decltype(y)>() == "LRN");
  tf::session sess;
  // One row of channels [1, 2, 3]: sqr_sums 5, 14, 13; y = x / (2 + sqr_sum).
  auto in = xt::xtensor<float, 4>::from_shape({1, 1, 1, 3});
  in.flat(0) = 1;
  in.flat(1) = 2;
  in.flat(2) = 3;
  ops_testing::check_values(sess.run(y, tf::feed(image(), in)), {1, 1, 1, 3}, {1.0 / 7, 2.0 / 16, 3.0 / 15});
}
