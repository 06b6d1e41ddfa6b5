// sigmoid_cross_entropy_with_logits and weighted_cross_entropy_with_logits, ported from
// TensorFlow 1.x's nn_xent_test.py (tensorflow/python/ops/): its logits, targets, reference
// (_SigmoidCrossEntropyWithLogits, _WeightedCrossEntropy: the sigmoid clipped to
// [1e-4, 1 - 1e-4]) and tolerances. Each TEST_CASE names the tests it ports.
//
// Not ported: testConstructionNamed (a node's name is its op here), float16 (not a typeflow
// dtype), testShapeError (a shape mismatch is a compile error here,
// labels_and_logits_must_have_the_same_shape<labels, logits>, where TensorFlow raises
// ValueError; tests/ops/compile_fail/sigmoid_xent_shape.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"

namespace tf = typeflow;

namespace {

const std::vector<double> xs{-100, -2, -2, 0, 2, 2, 2, 100};
const std::vector<double> ys{0, 0, 1, 0, 0, 1, 0.5, 1};

// _WeightedCrossEntropy (pos_coeff 1 is _SigmoidCrossEntropyWithLogits).
std::vector<double> reference(double pos_coeff) {
  std::vector<double> out;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double p = std::min(std::max(1 / (1 + std::exp(-xs[i])), 1e-4), 1 - 1e-4);
    out.push_back(-ys[i] * pos_coeff * std::log(p) - (1 - ys[i]) * std::log(1 - p));
  }
  return out;
}

template <class T, class S>
auto tensor(const std::vector<double>& v) {
  tf::storage_t<T, S> out;
  for (std::size_t i = 0; i < v.size(); ++i) out.data()[i] = static_cast<T>(v[i]);
  return out;
}

template <class Got>
void check_close(const Got& got, const std::vector<double>& want, double atol) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i);
    CHECK(std::abs(double(got.data()[i]) - want[i]) <= atol + 1e-6 * std::abs(want[i]));
  }
}

template <class S>
void logistic_output() {
  auto logits = tf::constant<"logits">(tensor<float, S>(xs));
  auto targets = tf::constant<"targets">(tensor<float, S>(ys));
  auto loss = tf::sigmoid_cross_entropy_with_logits(targets, logits);
  tf::session sess(loss);
  check_close(sess.run(loss), reference(1.0), 0.002);
}

template <class S>
void weighted_output() {
  auto logits = tf::constant<"logits">(tensor<float, S>(xs));
  auto targets = tf::constant<"targets">(tensor<float, S>(ys));
  auto loss = tf::weighted_cross_entropy_with_logits(targets, logits, tf::constant<3.0f>());
  tf::session sess(loss);
  check_close(sess.run(loss), reference(3.0), 0.001);
}

}  // namespace

TEST_CASE("SigmoidCrossEntropyWithLogitsTest.testLogisticOutput, testLogisticOutputMultiDim (nn_xent_test.py)") {
  logistic_output<tf::shape<8>>();
  logistic_output<tf::shape<2, 2, 2>>();
}

TEST_CASE("SigmoidCrossEntropyWithLogitsTest.testGradient (nn_xent_test.py): sizes [4, 2], float64") {
  using S = tf::shape<4, 2>;
  auto logits = tf::placeholder<"logits", double, S>();
  auto targets = tf::constant<"targets">(tensor<double, S>(ys));
  auto loss = tf::reduce_sum(tf::sigmoid_cross_entropy_with_logits(targets, logits) *
                             tf::constant<"w">(tensor<double, S>({0.5, -1, 2, 1, 0.25, 3, -2, 1})));
  auto [g] = tf::gradients(loss, logits);
  tf::session sess(loss, g);
  // TensorFlow's logits, but 0 moved off the kink of its branch and +-100 to +-10, where a
  // central difference of the loss still sees the slope
  fd_check::check_gradient_node(sess, loss, g, logits, tensor<double, S>({-10, -2, -2, 0.3, 2, 2, 2, 10}));
}

TEST_CASE("SigmoidCrossEntropyWithLogitsTest.testGradientAtZero (nn_xent_test.py): [0.5, -0.5]") {
  auto logits = tf::placeholder<"logits", double, tf::shape<2>>();
  auto targets = tf::constant<"targets">(xt::xtensor_fixed<double, xt::xshape<2>>{0, 1});
  auto [g] = tf::gradients(tf::reduce_sum(tf::sigmoid_cross_entropy_with_logits(targets, logits)), logits);
  tf::session sess(g);
  const auto grads = sess.run(g, tf::feed(logits, xt::xtensor_fixed<double, xt::xshape<2>>{0, 0}));
  CHECK(grads(0) == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(grads(1) == doctest::Approx(-0.5).epsilon(1e-12));
}

TEST_CASE("sigmoid_cross_entropy_with_logits: stable at logits of +-1000, float32 and float64") {
  auto f = tf::constant<"f">(xt::xtensor_fixed<float, xt::xshape<2>>{-1000, 1000});
  auto d = tf::constant<"d">(xt::xtensor_fixed<double, xt::xshape<2>>{-1000, 1000});
  auto zf = tf::constant<"zf">(xt::xtensor_fixed<float, xt::xshape<2>>{1, 0});
  auto zd = tf::constant<"zd">(xt::xtensor_fixed<double, xt::xshape<2>>{1, 0});
  tf::session sess(tf::sigmoid_cross_entropy_with_logits(zf, f), tf::sigmoid_cross_entropy_with_logits(zd, d));
  const auto lf = sess.run(tf::sigmoid_cross_entropy_with_logits(zf, f));
  const auto ld = sess.run(tf::sigmoid_cross_entropy_with_logits(zd, d));
  CHECK(lf(0) == 1000.0f);  // the wrong label at the largest confidence: -log(sigmoid(-1000))
  CHECK(lf(1) == 1000.0f);
  CHECK(ld(0) == 1000.0);
  CHECK(ld(1) == 1000.0);
}

TEST_CASE("WeightedCrossEntropyTest.testOutput, testOutputMultiDim (nn_xent_test.py): pos_weight 3") {
  weighted_output<tf::shape<8>>();
  weighted_output<tf::shape<2, 2, 2>>();
}

TEST_CASE("WeightedCrossEntropyTest.testGradient (nn_xent_test.py): sizes [4, 2], float64") {
  using S = tf::shape<4, 2>;
  auto logits = tf::placeholder<"logits", double, S>();
  auto targets = tf::constant<"targets">(tensor<double, S>(ys));
  auto loss = tf::reduce_sum(tf::weighted_cross_entropy_with_logits(targets, logits, tf::constant<3.0>()));
  auto [g] = tf::gradients(loss, logits);
  tf::session sess(loss, g);
  fd_check::check_gradient_node(sess, loss, g, logits, tensor<double, S>({-10, -2, -2, 0.3, 2, 2, 2, 10}));
}
