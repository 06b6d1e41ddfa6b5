// sigmoid_cross_entropy_with_logits and weighted_cross_entropy_with_logits, ported from
// TensorFlow 1.x's nn_xent_test.py (tensorflow/python/ops/): its logits, targets, reference
// (_SigmoidCrossEntropyWithLogits, _WeightedCrossEntropy: the sigmoid clipped to
// [1e-4, 1 - 1e-4]) and tolerances; and softmax_cross_entropy_with_logits, ported from
// xent_op_test.py (tensorflow/python/kernel_tests/), its loss and its backprop (the gradient
// with respect to the logits). Each TEST_CASE names the tests it ports.
//
// sparse_softmax_cross_entropy_with_logits is ported from sparse_xent_op_test.py (testNpXent,
// testSingleClass, testInvalidLabel, testFloat/testDouble/testInt32/64Labels as one case,
// testGradient); its testScalar, testVector and rank checks are compile errors here, and its
// testSecondGradient is not ported: the sparse cross-entropy has no second derivative here.
//
// xent_op_test.py's testSingleClass is not ported: its labels rows ([-1], [0], [1]) do not sum
// to 1, and there TensorFlow's backprop is its kernel's softmax - labels while typeflow's is the
// exact derivative, softmax * sum(labels) - labels (docs/reference/ops.md); testShapeMismatch
// and testNotMatrix are compile errors here.
// Not ported: testConstructionNamed (a node's name is its op here), float16 (not a typeflow
// dtype), testShapeError (a shape mismatch is a compile error here,
// labels_and_logits_must_have_the_same_shape<labels, logits>, where TensorFlow raises
// ValueError; tests/ops/compile_fail/sigmoid_xent_shape.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
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
void check_close(const Got& got, const std::vector<double>& want, double atol, double rtol = 1e-6) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i);
    CHECK(std::abs(double(got.data()[i]) - want[i]) <= atol + rtol * std::abs(want[i]));
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

namespace {
// _npXent: the loss -sum(labels * log(probs)) and the backprop probs - labels, per row.
void np_xent(const std::vector<double>& f, const std::vector<double>& l, std::size_t rows, std::size_t classes,
             std::vector<double>& loss, std::vector<double>& backprop) {
  loss.assign(rows, 0);
  backprop.assign(rows * classes, 0);
  for (std::size_t r = 0; r < rows; ++r) {
    double mx = -1e300, sum = 0;
    for (std::size_t c = 0; c < classes; ++c) mx = std::max(mx, f[r * classes + c]);
    for (std::size_t c = 0; c < classes; ++c) sum += std::exp(f[r * classes + c] - mx);
    for (std::size_t c = 0; c < classes; ++c) {
      const double p = std::exp(f[r * classes + c] - mx) / sum;
      backprop[r * classes + c] = p - l[r * classes + c];
      loss[r] -= l[r * classes + c] * std::log(p + 1e-20);
    }
  }
}

template <class T>
void xent_case() {
  using S = tf::shape<2, 4>;
  const std::vector<double> f{1, 1, 1, 1, 1, 2, 3, 4}, l{0, 0, 0, 1, 0, .5, .5, 0};
  auto features = tf::placeholder<"features", T, S>();
  auto labels = tf::constant<"labels">(tensor<T, S>(l));
  auto loss = tf::softmax_cross_entropy_with_logits(labels, features);
  auto [backprop] = tf::gradients(tf::reduce_sum(loss), features);
  tf::session sess(loss, backprop);
  const auto [got_loss, got_backprop] = sess.run(tf::fetch(loss, backprop), tf::feed(features, tensor<T, S>(f)));
  std::vector<double> want_loss, want_backprop;
  np_xent(f, l, 2, 4, want_loss, want_backprop);
  check_close(got_loss, want_loss, 1e-6);
  check_close(got_backprop, want_backprop, 1e-6);
  // testNpXent's literal values, with its tolerances (rtol = atol = 1e-3)
  check_close(got_backprop, {0.25, 0.25, 0.25, -0.75, 0.0321, -0.4129, -0.2632, 0.6439}, 1e-3, 1e-3);
  check_close(got_loss, {1.3862, 1.9401}, 1e-3, 1e-3);
}
}  // namespace

TEST_CASE("XentTest.testNpXent, testFloat, testDouble (xent_op_test.py): loss and backprop") {
  xent_case<float>();
  xent_case<double>();
}

TEST_CASE("XentTest.testGradient (xent_op_test.py): [3, 4] float64 against central differences") {
  using S = tf::shape<3, 4>;
  auto l = tf::constant<"l">(tensor<double, S>({0, 0, 1, 0, 1, 0, 0, 0, 0, 0.5, 0, 0.5}));
  auto f = tf::placeholder<"f", double, S>();
  auto loss = tf::reduce_sum(tf::softmax_cross_entropy_with_logits(l, f) *
                             tf::constant<"w">(xt::xtensor_fixed<double, xt::xshape<3>>{1, -0.5, 2}));
  auto [g] = tf::gradients(loss, f);
  tf::session sess(loss, g);
  fd_check::check_gradient_node(sess, loss, g, f,
                                tensor<double, S>({0.1, 0.2, 0.3, 0.4, 0.1, 0.4, 0.9, 1.6, 0.1, 0.8, 2.7, 6.4}));
}

namespace {
template <class T, class Id>
void sparse_xent_case() {
  using S = tf::shape<2, 4>;
  const std::vector<double> f{1, 1, 1, 1, 1, 2, 3, 4};
  auto features = tf::placeholder<"features", T, S>();
  auto labels = tf::constant<"labels">(xt::xtensor_fixed<Id, xt::xshape<2>>{3, 0});
  auto loss = tf::sparse_softmax_cross_entropy_with_logits(labels, features);
  auto [backprop] = tf::gradients(tf::reduce_sum(loss), features);
  tf::session sess(loss, backprop);
  const auto [got_loss, got_backprop] = sess.run(tf::fetch(loss, backprop), tf::feed(features, tensor<T, S>(f)));
  std::vector<double> want_loss, want_backprop;
  np_xent(f, {0, 0, 0, 1, 1, 0, 0, 0}, 2, 4, want_loss, want_backprop);  // the labels one-hot
  check_close(got_loss, want_loss, 1e-6);
  check_close(got_backprop, want_backprop, 1e-6);
  // testNpXent's literal values, with its tolerances (rtol = atol = 1e-3)
  check_close(got_loss, {1.3862, 3.4420}, 1e-3, 1e-3);
  check_close(got_backprop, {0.25, 0.25, 0.25, -0.75, -0.968, 0.087, 0.237, 0.6439}, 1e-3, 1e-3);
}
}  // namespace

TEST_CASE("SparseXentTest.testNpXent, testFloat, testDouble, testInt32Labels, testInt64Labels (sparse_xent_op_test.py)") {
  sparse_xent_case<float, std::int32_t>();
  sparse_xent_case<double, std::int64_t>();
}

TEST_CASE("SparseXentTest.testSingleClass (sparse_xent_op_test.py): one class, loss and backprop 0") {
  using S = tf::shape<3, 1>;
  auto features = tf::placeholder<"features", float, S>();
  auto labels = tf::constant<"labels">(xt::xtensor_fixed<std::int32_t, xt::xshape<3>>{0, 0, 0});
  auto loss = tf::sparse_softmax_cross_entropy_with_logits(labels, features);
  auto [backprop] = tf::gradients(tf::reduce_sum(loss), features);
  tf::session sess(loss, backprop);
  const auto [l, b] = sess.run(tf::fetch(loss, backprop), tf::feed(features, tensor<float, S>({1, -1, 0})));
  check_close(l, {0, 0, 0}, 1e-6);
  check_close(b, {0, 0, 0}, 1e-6);
}

TEST_CASE("SparseXentTest.testInvalidLabel (sparse_xent_op_test.py): labels 4 and -1 of 4 classes fail the run") {
  auto features = tf::placeholder<"features", float, tf::shape<4, 4>>();
  auto labels = tf::placeholder<"labels", std::int32_t, tf::shape<4>>();
  auto loss = tf::sparse_softmax_cross_entropy_with_logits(labels, features);
  tf::session sess(loss);
  const auto f = tensor<float, tf::shape<4, 4>>({1, 1, 1, 1, 1, 2, 3, 4, 2, 3, 4, 5, 6, 7, 8, 9});
  for (std::int32_t bad : {4, -1}) {
    const xt::xtensor_fixed<std::int32_t, xt::xshape<4>> l{bad, 3, 0, 1};
    const std::string expected = "Received a label value of " + std::to_string(bad);
    CHECK_THROWS_WITH_AS(sess.run(loss, tf::feed(features, f), tf::feed(labels, l)),
                         doctest::Contains(expected.c_str()), tf::invalid_argument_error);
  }
  const xt::xtensor_fixed<std::int32_t, xt::xshape<4>> good{3, 3, 0, 1};
  CHECK_NOTHROW(sess.run(loss, tf::feed(features, f), tf::feed(labels, good)));
}

TEST_CASE("SparseXentTest.testGradient (sparse_xent_op_test.py): labels [3, 0, 1], [3, 4] float64") {
  using S = tf::shape<3, 4>;
  auto l = tf::constant<"l">(xt::xtensor_fixed<std::int32_t, xt::xshape<3>>{3, 0, 1});
  auto f = tf::placeholder<"f", double, S>();
  auto loss = tf::reduce_sum(tf::sparse_softmax_cross_entropy_with_logits(l, f) *
                             tf::constant<"w">(xt::xtensor_fixed<double, xt::xshape<3>>{1, -0.5, 2}));
  auto [g] = tf::gradients(loss, f);
  tf::session sess(loss, g);
  fd_check::check_gradient_node(sess, loss, g, f,
                                tensor<double, S>({0.1, 0.2, 0.3, 0.4, 0.1, 0.4, 0.9, 1.6, 0.1, 0.8, 2.7, 6.4}));
}
