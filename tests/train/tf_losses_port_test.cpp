// typeflow::losses (ops/weighted_losses.hpp), ported from TensorFlow 1.x's tf.losses tests,
// tensorflow/python/kernel_tests/losses_test.py (kernel_tests/nn_ops/ in later trees): the
// same inputs, weights, reductions and expected values, with TensorFlow's tolerances
// (assertAlmostEqual(a, b, places): |a - b| <= 0.5 10^-places; assertAllClose: atol and rtol
// 1e-6 unless given; assertEqual: exact). Each TEST_CASE names the test it ports. This file
// has the classes of the losses but one; tf_losses_port_reductions_test.cpp has
// CosineDistanceLossTest, ComputeWeightedLossTest and the gradients of every loss (two files:
// compile time).
//
// TensorFlow's constant_op.constant inputs are named constants here (typeflow::constant<"x">),
// its placeholders placeholders (an unknown shape is a rank of dyn dims: typeflow's ranks are
// static). Python numbers as weights are literals (typeflow::constant<2.3>()). TensorFlow
// casts integer predictions to float32; typeflow's predictions are float or double, so
// TensorFlow's int32 predictions are float here (integer labels and weights stay integers and
// are cast, as TensorFlow casts them).
//
// Not ported:
// - testValueErrorThrownWhenWeightIsNone, testNoneWeightRaisesValueError (every class): C++
//   has no None; the weights are a node, or left out for the default 1.
// - testEagerNoMemoryLeaked, AddLossTest.testNoCollectLossesBatch2: eager mode and loss
//   collections, which typeflow does not have.
// - Static shape errors, a ValueError in TensorFlow, are compile errors here (one, naming the
//   loss and both shapes): HingeLossTest and HuberLossTest.testIncompatibleShapes,
//   SoftmaxCrossEntropyLossTest.testSoftmaxWithMeasurementSpecificWeightsRaisesException,
//   SparseSoftmaxCrossEntropyLossTest's testMeasurementSpecificWeightsRaisesException,
//   testInconsistentWeightSizeRaisesException, testInconsistentLabelSizeRaisesException,
//   testInconsistentWeightShapeRaisesException and testInconsistentLabelShapeRaisesException,
//   LogLossTest.testWeightsWithSameNumDimsButWrongShapeThrowsException (the compile-fail test
//   tests/train/compile_fail/tf_losses_weights_shape.cpp),
//   MeanPairwiseSquaredErrorTest.testInvalid3dWeighted2x0 (its dynamic half feeds inputs of
//   unknown rank, which typeflow has no placeholder for).
// - The op names TensorFlow checks (loss.op.name == "softmax_cross_entropy_loss/value"): the
//   losses are anonymous nodes here.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <typeflow/typeflow.hpp>

#include "tf_losses_testing.hpp"

namespace tf = typeflow;
namespace losses = typeflow::losses;
namespace reduction = typeflow::losses::reduction;
using tf::dyn;
using tf::shape;

using namespace tf_losses_testing;  // fixed, check_almost_equal, check_all_close, evaluate

// === AbsoluteDifferenceLossTest ================================================================

namespace {
// setUp: predictions [4, 8, 12, 8, 1, 3], labels [1, 9, 2, -5, -2, 6], both [2, 3] int32.
auto absolute_difference_predictions() {
  return tf::constant<"predictions">(fixed<float, 2, 3>{{4, 8, 12}, {8, 1, 3}});
}
auto absolute_difference_labels() {
  return tf::constant<"labels">(fixed<std::int32_t, 2, 3>{{1, 9, 2}, {-5, -2, 6}});
}
template <class W>
double absolute_difference_with(const W& weights) {
  return evaluate(
      losses::absolute_difference(absolute_difference_labels(), absolute_difference_predictions(), weights));
}
}  // namespace

TEST_CASE("AbsoluteDifferenceLossTest.testAllCorrectNoLossWeight") {
  const auto p = absolute_difference_predictions();
  check_almost_equal(0.0, evaluate(losses::absolute_difference(p, p)), 3);
}

TEST_CASE("AbsoluteDifferenceLossTest.testNonZeroLoss") {
  const auto loss = losses::absolute_difference(absolute_difference_labels(), absolute_difference_predictions());
  static_assert(std::is_same_v<tf::value_type_of<decltype(loss)>, float>);
  check_almost_equal(5.5, evaluate(loss), 3);
}

TEST_CASE("AbsoluteDifferenceLossTest.testNonZeroLossWithPythonScalarWeight") {
  check_almost_equal(5.5 * 2.3, absolute_difference_with(tf::constant<2.3>()), 3);
}

TEST_CASE("AbsoluteDifferenceLossTest.testNonZeroLossWithScalarTensorWeight") {
  check_almost_equal(5.5 * 2.3, absolute_difference_with(tf::constant<"weights">(2.3f)), 3);
}

TEST_CASE("AbsoluteDifferenceLossTest.testNonZeroLossWithOneDimBatchSpecificWeights") {
  check_almost_equal(5.6, absolute_difference_with(tf::constant<"weights">(fixed<float, 2, 1>{{1.2f}, {0.0f}})), 3);
}

TEST_CASE("AbsoluteDifferenceLossTest.testNonZeroLossWithTwoDimBatchSpecificWeights") {
  check_almost_equal(5.6, absolute_difference_with(tf::constant<"weights">(fixed<float, 2, 1>{{1.2f}, {0.0f}})), 3);
}

TEST_CASE("AbsoluteDifferenceLossTest.testNonZeroLossWithSampleSpecificWeights") {
  const auto w = tf::constant<"weights">(fixed<std::int32_t, 2, 3>{{3, 6, 5}, {0, 4, 2}});
  check_almost_equal(16.6, absolute_difference_with(w), 3);
}

TEST_CASE("AbsoluteDifferenceLossTest.testNonZeroLossWithSampleSpecificWeightsMostZero") {
  const auto w = tf::constant<"weights">(fixed<std::int32_t, 2, 3>{{0, 0, 0}, {0, 0, 2}});
  check_almost_equal(6.0, absolute_difference_with(w), 3);
}

TEST_CASE("AbsoluteDifferenceLossTest.testLossWithSampleSpecificWeightsAllZero") {
  check_almost_equal(0.0, absolute_difference_with(tf::constant<"weights">(fixed<float, 2, 3>{})), 3);
}

// === SoftmaxCrossEntropyLossTest ===============================================================

namespace {
auto softmax_logits() {
  return tf::constant<"logits">(fixed<float, 3, 3>{{10, 0, 0}, {0, 10, 0}, {0, 0, 10}});
}
auto all_wrong_labels() { return tf::constant<"labels">(fixed<std::int32_t, 3, 3>{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}); }
auto all_correct_labels() {
  return tf::constant<"labels">(fixed<std::int32_t, 3, 3>{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
}
}  // namespace

TEST_CASE("SoftmaxCrossEntropyLossTest.testAllCorrect") {
  check_almost_equal(0.0, evaluate(losses::softmax_cross_entropy(all_correct_labels(), softmax_logits())), 3);
}

TEST_CASE("SoftmaxCrossEntropyLossTest.testAllWrong") {
  check_almost_equal(10.0, evaluate(losses::softmax_cross_entropy(all_wrong_labels(), softmax_logits())), 3);
}

TEST_CASE("SoftmaxCrossEntropyLossTest.testNonZeroLossWithPythonScalarWeight") {
  const auto loss = losses::softmax_cross_entropy(all_wrong_labels(), softmax_logits(), tf::constant<2.3>());
  check_almost_equal(2.3 * 10.0, evaluate(loss), 3);
}

TEST_CASE("SoftmaxCrossEntropyLossTest.testNonZeroLossWithScalarTensorWeight") {
  const auto loss = losses::softmax_cross_entropy(all_wrong_labels(), softmax_logits(), tf::constant<"weights">(2.3f));
  check_almost_equal(2.3 * 10.0, evaluate(loss), 3);
}

TEST_CASE("SoftmaxCrossEntropyLossTest.testNonZeroLossWithOneDimBatchSpecificWeights") {
  const auto w = tf::constant<"weights">(fixed<float, 3>{1.2f, 3.4f, 5.6f});
  check_almost_equal((1.2 + 3.4 + 5.6) * 10.0 / 3.0,
                     evaluate(losses::softmax_cross_entropy(all_wrong_labels(), softmax_logits(), w)), 3);
}

TEST_CASE("SoftmaxCrossEntropyLossTest.testAllWrongAllWeightsMissing") {
  const auto w = tf::constant<"weights">(fixed<std::int32_t, 3>{0, 0, 0});
  check_almost_equal(0.0, evaluate(losses::softmax_cross_entropy(all_wrong_labels(), softmax_logits(), w)), 3);
}

TEST_CASE("SoftmaxCrossEntropyLossTest.testSomeWeightsMissing") {
  const auto w = tf::constant<"weights">(fixed<float, 3>{1.2f, 0, 0});
  check_almost_equal(12.0, evaluate(losses::softmax_cross_entropy(all_wrong_labels(), softmax_logits(), w)), 3);
}

TEST_CASE("SoftmaxCrossEntropyLossTest.testSoftmaxLabelSmoothing") {
  // -sum_i p_i log q_i with log q = [0, -200, -200]: 400 L / n.
  const auto logits = tf::constant<"logits">(fixed<float, 1, 3>{{100, -100, -100}});
  const auto labels = tf::constant<"labels">(fixed<std::int32_t, 1, 3>{{1, 0, 0}});
  check_almost_equal(400.0 * 0.1 / 3.0, evaluate(losses::softmax_cross_entropy<0.1>(labels, logits)), 3);
}

// === SparseSoftmaxCrossEntropyLossTest ==========================================================

namespace {
template <class Labels, class... Options>
double sparse_loss(const Labels& labels, const Options&... options) {
  return evaluate(losses::sparse_softmax_cross_entropy(labels, softmax_logits(), options...));
}
template <class T>
auto column_labels(T a, T b, T c) {
  return tf::constant<"labels">(fixed<T, 3, 1>{{a}, {b}, {c}});
}
const xt::xtensor<float, 2> column_weights{{1.2f}, {3.4f}, {5.6f}};
const xt::xtensor<float, 2> sparse_logits_value{{10, 0, 0}, {0, 10, 0}, {0, 0, 10}};
}  // namespace

TEST_CASE("SparseSoftmaxCrossEntropyLossTest.testAllCorrectInt32Labels") {
  check_almost_equal(0.0, sparse_loss(column_labels<std::int32_t>(0, 1, 2)), 3);
}

TEST_CASE("SparseSoftmaxCrossEntropyLossTest.testAllCorrectInt64Labels") {
  check_almost_equal(0.0, sparse_loss(column_labels<std::int64_t>(0, 1, 2)), 3);
}

TEST_CASE("SparseSoftmaxCrossEntropyLossTest.testAllCorrectNonColumnLabels") {
  check_almost_equal(0.0, sparse_loss(tf::constant<"labels">(fixed<std::int32_t, 3>{0, 1, 2})), 3);
}

TEST_CASE("SparseSoftmaxCrossEntropyLossTest.testAllWrongInt32Labels") {
  check_almost_equal(10.0, sparse_loss(column_labels<std::int32_t>(2, 0, 1)), 3);
}

TEST_CASE("SparseSoftmaxCrossEntropyLossTest.testAllWrongInt64Labels") {
  check_almost_equal(10.0, sparse_loss(column_labels<std::int64_t>(2, 0, 1)), 3);
}

TEST_CASE("SparseSoftmaxCrossEntropyLossTest.testAllWrongNonColumnLabels") {
  check_almost_equal(10.0, sparse_loss(tf::constant<"labels">(fixed<std::int32_t, 3>{2, 0, 1})), 3);
}

TEST_CASE("SparseSoftmaxCrossEntropyLossTest.testNonZeroLossWithPythonScalarWeight") {
  check_almost_equal(2.3 * 10.0, sparse_loss(column_labels<std::int32_t>(2, 0, 1), tf::constant<2.3>()), 3);
}

TEST_CASE("SparseSoftmaxCrossEntropyLossTest.testNonZeroLossWithScalarTensorWeight") {
  check_almost_equal(2.3 * 10.0, sparse_loss(column_labels<std::int32_t>(2, 0, 1), tf::constant<"weights">(2.3f)), 3);
}

TEST_CASE("SparseSoftmaxCrossEntropyLossTest.testNonZeroLossWith1DTensorWeight") {
  const auto w = tf::constant<"weights">(fixed<float, 1>{2.3f});
  check_almost_equal(2.3 * 10.0, sparse_loss(column_labels<std::int32_t>(2, 0, 1), w), 3);
}

TEST_CASE("SparseSoftmaxCrossEntropyLossTest.testNonZeroLossWithPlaceholderForWeights") {
  // A float32 placeholder of unknown shape: here of rank 2, fed [3, 1], squeezed to [3].
  const auto w = tf::placeholder<"weights", float, shape<dyn, dyn>>();
  const auto loss = losses::sparse_softmax_cross_entropy(column_labels<std::int32_t>(2, 0, 1), softmax_logits(), w);
  check_almost_equal((1.2 + 3.4 + 5.6) * 10.0 / 3.0, evaluate(loss, tf::feed(w, column_weights)), 3);
}

TEST_CASE("SparseSoftmaxCrossEntropyLossTest.testUnknownShapePlaceholderForLogitsLabelsButScalarWeights") {
  const auto logits = tf::placeholder<"logits", float, shape<dyn, dyn>>();
  const auto labels = tf::placeholder<"labels", std::int32_t, shape<dyn, dyn>>();
  const auto loss = losses::sparse_softmax_cross_entropy(labels, logits, tf::constant<1.0>());
  const double got = evaluate(loss, tf::feed(logits, sparse_logits_value),
                              tf::feed(labels, xt::xtensor<std::int32_t, 2>{{2}, {0}, {1}}));
  check_almost_equal((1.0 + 1.0 + 1.0) * 10.0 / 3.0, got, 3);
}

TEST_CASE("SparseSoftmaxCrossEntropyLossTest.testNonZeroLossWithPlaceholderForLogitsLabelsAndWeights") {
  const auto logits = tf::placeholder<"logits", float, shape<dyn, 3>>();
  const auto labels = tf::placeholder<"labels", std::int32_t, shape<dyn, 1>>();
  const auto w = tf::placeholder<"weights", float, shape<dyn, dyn>>();
  const auto loss = losses::sparse_softmax_cross_entropy(labels, logits, w);
  const double got = evaluate(loss, tf::feed(logits, sparse_logits_value),
                              tf::feed(labels, xt::xtensor<std::int32_t, 2>{{2}, {0}, {1}}),
                              tf::feed(w, column_weights));
  check_almost_equal((1.2 + 3.4 + 5.6) * 10.0 / 3.0, got, 3);
  // Weights of a size that is neither 1 nor the batch's: TensorFlow's assert_broadcastable.
  CHECK_THROWS_WITH_AS(evaluate(loss, tf::feed(logits, sparse_logits_value),
                                tf::feed(labels, xt::xtensor<std::int32_t, 2>{{2}, {0}, {1}}),
                                tf::feed(w, xt::xtensor<float, 2>{{1.2f}, {3.4f}})),
                       doctest::Contains("weights can not be broadcast to values"), tf::invalid_argument_error);
}

TEST_CASE("SparseSoftmaxCrossEntropyLossTest.testNonZeroLossWithOneDimBatchSpecificWeights") {
  const auto w = tf::constant<"weights">(fixed<float, 3, 1>{{1.2f}, {3.4f}, {5.6f}});
  check_almost_equal((1.2 + 3.4 + 5.6) * 10.0 / 3.0, sparse_loss(column_labels<std::int32_t>(2, 0, 1), w), 3);
}

TEST_CASE("SparseSoftmaxCrossEntropyLossTest.testNonZeroLossWithColumnWeights") {
  const auto w = tf::constant<"weights">(fixed<float, 3, 1>{{1.2f}, {3.4f}, {5.6f}});
  check_almost_equal((1.2 + 3.4 + 5.6) * 10.0 / 3.0, sparse_loss(column_labels<std::int32_t>(2, 0, 1), w), 3);
}

TEST_CASE("SparseSoftmaxCrossEntropyLossTest.testAllWrongAllWeightsMissing") {
  const auto w = tf::constant<"weights">(fixed<std::int32_t, 3, 1>{{0}, {0}, {0}});
  check_almost_equal(0.0, sparse_loss(column_labels<std::int32_t>(2, 0, 1), w), 3);
}

TEST_CASE("SparseSoftmaxCrossEntropyLossTest.testSomeWeightsMissing") {
  const auto w = tf::constant<"weights">(fixed<float, 3, 1>{{1.2f}, {0}, {0}});
  check_almost_equal(12.0, sparse_loss(column_labels<std::int32_t>(2, 0, 1), w), 3);
}

// === SigmoidCrossEntropyLossTest ===============================================================

namespace {
auto sigmoid_logits() {
  return tf::constant<"logits">(fixed<float, 3, 3>{{100, -100, -100}, {-100, 100, -100}, {-100, -100, 100}});
}
// testLossWithSingleDimPlaceholderForLogitsAndWeights1 and 2: [None, C] placeholders fed
// ones((32, C)), weights ones_like(logits): log(1 + e^-1) = 0.313.
template <std::ptrdiff_t C>
void check_single_dim_placeholders() {
  const auto logits = tf::placeholder<"logits", float, shape<dyn, C>>();
  const auto labels = tf::placeholder<"labels", float, shape<dyn, C>>();
  const auto loss = losses::sigmoid_cross_entropy(labels, logits, tf::ones_like(logits));
  static_assert(std::is_same_v<tf::value_type_of<decltype(loss)>, float>);
  const xt::xtensor<float, 2> ones = xt::ones<float>({std::size_t{32}, std::size_t(C)});
  check_almost_equal(0.313, evaluate(loss, tf::feed(logits, ones), tf::feed(labels, ones)), 3);
}
}  // namespace

TEST_CASE("SigmoidCrossEntropyLossTest.testAllCorrectSigmoid") {
  const auto loss = losses::sigmoid_cross_entropy(all_correct_labels(), sigmoid_logits());
  static_assert(std::is_same_v<tf::value_type_of<decltype(loss)>, float>);  // logits.dtype == loss.dtype
  check_almost_equal(0.0, evaluate(loss), 3);
}

TEST_CASE("SigmoidCrossEntropyLossTest.testLossWithSingleDimPlaceholderForLogitsAndWeights1") {
  check_single_dim_placeholders<1>();
}

TEST_CASE("SigmoidCrossEntropyLossTest.testLossWithSingleDimPlaceholderForLogitsAndWeights2") {
  check_single_dim_placeholders<2>();
}

TEST_CASE("SigmoidCrossEntropyLossTest.testAllWrongSigmoid") {
  check_almost_equal(600.0 / 9.0, evaluate(losses::sigmoid_cross_entropy(all_wrong_labels(), sigmoid_logits())), 3);
}

TEST_CASE("SigmoidCrossEntropyLossTest.testAllWrongSigmoidWithMeasurementSpecificWeights") {
  const auto w = tf::constant<"weights">(fixed<std::int32_t, 3, 3>{{3, 4, 5}, {2, 6, 0}, {8, 0, 1}});
  check_almost_equal(1700.0 / 7.0, evaluate(losses::sigmoid_cross_entropy(all_wrong_labels(), sigmoid_logits(), w)),
                     3);
}

TEST_CASE("SigmoidCrossEntropyLossTest.testMultiCorrectSigmoid") {
  const auto logits = tf::constant<"logits">(fixed<float, 3, 3>{{100, -100, 100}, {100, 100, -100}, {-100, 100, 100}});
  const auto labels = tf::constant<"labels">(fixed<std::int32_t, 3, 3>{{1, 0, 1}, {1, 1, 0}, {0, 1, 1}});
  check_almost_equal(0.0, evaluate(losses::sigmoid_cross_entropy(labels, logits)), 3);
}

TEST_CASE("SigmoidCrossEntropyLossTest.testSigmoidFloat64") {
  const auto logits =
      tf::constant<"logits">(fixed<double, 3, 3>{{100, -100, 100}, {100, -100, 100}, {100, 100, -100}});
  const auto labels = tf::constant<"labels">(fixed<std::int64_t, 3, 3>{{1, 0, 1}, {1, 1, 0}, {0, 1, 1}});
  const auto loss = losses::sigmoid_cross_entropy(labels, logits);
  static_assert(std::is_same_v<tf::value_type_of<decltype(loss)>, double>);
  check_almost_equal(44.444, evaluate(loss), 3);
}

TEST_CASE("SigmoidCrossEntropyLossTest.testSigmoidNoReduction") {
  const auto logits = tf::constant<"logits">(fixed<float, 3, 3>{{100, -100, 100}, {100, -100, 100}, {100, 100, -100}});
  const auto labels = tf::constant<"labels">(fixed<std::int32_t, 3, 3>{{1, 0, 1}, {1, 1, 0}, {0, 1, 1}});
  const auto loss = losses::sigmoid_cross_entropy(labels, logits, reduction::none);
  static_assert(std::is_same_v<tf::shape_of<decltype(loss)>, shape<3, 3>>);
  const auto got = evaluate(loss);
  const fixed<double, 3, 3> want{{0, 0, 0}, {0, 100, 100}, {100, 0, 100}};
  // TensorFlow's assertAllClose(want, got, 3) passes 3 as rtol; the values are checked to
  // atol 1e-3 besides.
  for (std::size_t i = 0; i < 9; ++i) {
    check_all_close(want.flat(i), got.flat(i), 1e-6, 3.0);
    check_all_close(want.flat(i), got.flat(i), 1e-3, 0.0);
  }
}

TEST_CASE("SigmoidCrossEntropyLossTest.testSigmoidLabelSmoothingCorrect") {
  // z' = z (1 - L) + L / 2; 1/3 (100 - 100 (1 - L/2) + 100 L/2 + 100 (1 - L/2)) = (100 + 50 L) / 3.
  const auto logits = tf::constant<"logits">(fixed<float, 1, 3>{{100, -100, -100}});
  const auto labels = tf::constant<"labels">(fixed<std::int32_t, 1, 3>{{1, 0, 1}});
  check_almost_equal((100.0 + 50.0 * 0.1) / 3.0, evaluate(losses::sigmoid_cross_entropy<0.1>(labels, logits)), 3);
}

TEST_CASE("SigmoidCrossEntropyLossTest.testSigmoidLabelSmoothingEqualsSoftmaxTwoLabel") {
  const auto sigmoid_logits = tf::constant<"sigmoid_logits">(fixed<float, 1, 3>{{100, -100, -100}});
  const auto sigmoid_labels = tf::constant<"sigmoid_labels">(fixed<std::int32_t, 1, 3>{{1, 0, 1}});
  const auto sigmoid_loss = losses::sigmoid_cross_entropy<0.1>(sigmoid_labels, sigmoid_logits);
  const auto softmax_logits = tf::constant<"softmax_logits">(fixed<float, 3, 2>{{0, 100}, {100, 0}, {100, 0}});
  const auto softmax_labels = tf::constant<"softmax_labels">(fixed<std::int32_t, 3, 2>{{0, 1}, {1, 0}, {0, 1}});
  const auto softmax_loss = losses::softmax_cross_entropy<0.1>(softmax_labels, softmax_logits);
  tf::session sess(sigmoid_loss, softmax_loss);
  const auto [a, b] = sess.run(tf::fetch(sigmoid_loss, softmax_loss));
  check_almost_equal(a, b, 3);
}

// === LogLossTest ================================================================================

namespace {
// setUp: predictions and labels (numpy float64, cast to float32 by the loss as here), and
// the elementwise labels log(p + eps) + (1 - labels) log(1 - p + eps), in double.
constexpr std::array<double, 6> log_loss_p{0.9, 0.2, 0.2, 0.8, 0.4, 0.6};
constexpr std::array<double, 6> log_loss_y{1.0, 0.0, 1.0, 1.0, 0.0, 0.0};
double log_loss_expected(const std::array<double, 6>& weights = {1, 1, 1, 1, 1, 1}) {
  double s = 0;
  for (std::size_t i = 0; i < 6; ++i)
    s += weights[i] * (log_loss_y[i] * std::log(log_loss_p[i] + 1e-7) +
                       (1 - log_loss_y[i]) * std::log(1 - log_loss_p[i] + 1e-7));
  return s;
}
const fixed<float, 2, 3> log_loss_p_value{{0.9f, 0.2f, 0.2f}, {0.8f, 0.4f, 0.6f}};
const fixed<float, 2, 3> log_loss_y_value{{1, 0, 1}, {1, 0, 0}};
auto log_loss_predictions() { return tf::constant<"predictions">(log_loss_p_value); }
auto log_loss_labels() { return tf::constant<"labels">(log_loss_y_value); }
auto log_loss_placeholder() { return tf::placeholder<"tf_predictions", float, shape<2, 3>>(); }
}  // namespace

TEST_CASE("LogLossTest.testAllCorrectNoLossWeight") {
  check_almost_equal(0.0, evaluate(losses::log_loss(log_loss_labels(), log_loss_labels())), 3);
}

TEST_CASE("LogLossTest.testAllCorrectNoLossWeightWithPlaceholder") {
  const auto p = log_loss_placeholder();
  check_almost_equal(0.0, evaluate(losses::log_loss(log_loss_labels(), p), tf::feed(p, log_loss_y_value)), 3);
}

TEST_CASE("LogLossTest.testNonZeroLoss") {
  check_almost_equal(-log_loss_expected() / 6.0, evaluate(losses::log_loss(log_loss_labels(), log_loss_predictions())),
                     3);
}

TEST_CASE("LogLossTest.testNonZeroLossWithPythonScalarWeight") {
  const auto loss = losses::log_loss(log_loss_labels(), log_loss_predictions(), tf::constant<2.3>());
  check_almost_equal(2.3 * -log_loss_expected() / 6.0, evaluate(loss), 3);
}

TEST_CASE("LogLossTest.testNonZeroLossWithScalarTensorWeight") {
  const auto loss = losses::log_loss(log_loss_labels(), log_loss_predictions(), tf::constant<"weights">(2.3f));
  check_almost_equal(2.3 * -log_loss_expected() / 6.0, evaluate(loss), 3);
}

TEST_CASE("LogLossTest.testNonZeroLossWithScalarTensorWeightAndPlaceholder") {
  const auto p = log_loss_placeholder();
  const auto loss = losses::log_loss(log_loss_labels(), p, tf::constant<"weights">(2.3f));
  check_almost_equal(2.3 * -log_loss_expected() / 6.0, evaluate(loss, tf::feed(p, log_loss_p_value)), 3);
}

TEST_CASE("LogLossTest.testNonZeroLossWithScalarTensorWeightAndPlaceholderWithRankOnly") {
  const auto p = tf::placeholder<"tf_predictions", float, shape<dyn, dyn>>();
  const auto loss = losses::log_loss(log_loss_labels(), p, tf::constant<"weights">(2.3f));
  const xt::xtensor<float, 2> fed = log_loss_p_value;
  check_almost_equal(2.3 * -log_loss_expected() / 6.0, evaluate(loss, tf::feed(p, fed)), 3);
}

TEST_CASE("LogLossTest.testNonZeroLossWithOneDimBatchSpecificWeights") {
  const auto w = tf::constant<"weights">(fixed<float, 2, 1>{{1.2f}, {3.4f}});
  const auto loss = losses::log_loss(log_loss_labels(), log_loss_predictions(), w);
  check_almost_equal(-log_loss_expected({1.2, 1.2, 1.2, 3.4, 3.4, 3.4}) / 6.0, evaluate(loss), 3);
}

TEST_CASE("LogLossTest.testNonZeroLossWithOneDimBatchSpecificWeightsSomeZero") {
  const auto w = tf::constant<"weights">(fixed<float, 2, 1>{{1.2f}, {0}});
  const auto loss = losses::log_loss(log_loss_labels(), log_loss_predictions(), w);
  check_almost_equal(-log_loss_expected({1.2, 1.2, 1.2, 0, 0, 0}) / 3.0, evaluate(loss), 3);
}

TEST_CASE("LogLossTest.testNonZeroLossWithTwoDimBatchSpecificWeightsSomeZero") {
  const auto w = tf::constant<"weights">(fixed<float, 2, 1>{{1.2f}, {0}});
  const auto loss = losses::log_loss(log_loss_labels(), log_loss_predictions(), w);
  check_almost_equal(-log_loss_expected({1.2, 1.2, 1.2, 0, 0, 0}) / 3.0, evaluate(loss), 3);
}

TEST_CASE("LogLossTest.testNonZeroLossWithMeasurementSpecificWeights") {
  const auto w = tf::constant<"weights">(fixed<std::int64_t, 2, 3>{{3, 6, 5}, {0, 4, 2}});
  const auto loss = losses::log_loss(log_loss_labels(), log_loss_predictions(), w);
  check_almost_equal(-log_loss_expected({3, 6, 5, 0, 4, 2}) / 5.0, evaluate(loss), 3);
}

TEST_CASE("LogLossTest.testNonZeroLossWithMeasurementSpecificWeightsWithPlaceholder") {
  const auto p = log_loss_placeholder();
  const auto w = tf::constant<"weights">(fixed<std::int64_t, 2, 3>{{3, 6, 5}, {0, 4, 2}});
  const auto loss = losses::log_loss(log_loss_labels(), p, w);
  check_almost_equal(-log_loss_expected({3, 6, 5, 0, 4, 2}) / 5.0, evaluate(loss, tf::feed(p, log_loss_p_value)), 3);
}

TEST_CASE("LogLossTest.testNonZeroLossWithSampleSpecificWeightsMostZero") {
  const auto w = tf::constant<"weights">(fixed<std::int64_t, 2, 3>{{0, 0, 0}, {0, 0, 2}});
  const auto loss = losses::log_loss(log_loss_labels(), log_loss_predictions(), w);
  check_almost_equal(-log_loss_expected({0, 0, 0, 0, 0, 2}), evaluate(loss), 3);
}

TEST_CASE("LogLossTest.testNonZeroLossWithSampleSpecificWeightsMostZeroWithPlaceholder") {
  const auto p = log_loss_placeholder();
  const auto w = tf::constant<"weights">(fixed<std::int64_t, 2, 3>{{0, 0, 0}, {0, 0, 2}});
  const auto loss = losses::log_loss(log_loss_labels(), p, w);
  check_almost_equal(-log_loss_expected({0, 0, 0, 0, 0, 2}), evaluate(loss, tf::feed(p, log_loss_p_value)), 3);
}

TEST_CASE("LogLossTest.testLossWithSampleSpecificWeightsAllZero") {
  const auto loss =
      losses::log_loss(log_loss_labels(), log_loss_predictions(), tf::constant<"weights">(fixed<float, 2, 3>{}));
  check_almost_equal(0.0, evaluate(loss), 3);
}

// === HingeLossTest ==============================================================================

TEST_CASE("HingeLossTest.testAllOutsideMargin") {
  const auto logits = tf::constant<"logits">(fixed<float, 4>{1.2f, -1.4f, -1.0f, 2.1f});
  const auto labels = tf::constant<"labels">(fixed<float, 4>{1, 0, 0, 1});
  check_all_close(0.0, evaluate(losses::hinge_loss(labels, logits)), 1e-3);
}

TEST_CASE("HingeLossTest.testSomeInsideMargin") {
  // Examples 1 and 4 are on the right side of the hyperplane but within the margin.
  const auto logits = tf::constant<"logits">(fixed<float, 4, 1>{{-0.7f}, {-1.4f}, {1.4f}, {0.6f}});
  const auto labels = tf::constant<"labels">(fixed<float, 4, 1>{{0}, {0}, {1}, {1}});
  check_all_close(0.175, evaluate(losses::hinge_loss(labels, logits)), 1e-3);
}

TEST_CASE("HingeLossTest.testSomeMisclassified") {
  // Examples 2 and 4 are on the wrong side of the hyperplane.
  const auto logits = tf::constant<"logits">(fixed<float, 1, 4, 1>{{{1.2f}, {0.4f}, {-1.0f}, {-1.1f}}});
  const auto labels = tf::constant<"labels">(fixed<float, 1, 4, 1>{{{1}, {0}, {0}, {1}}});
  check_all_close(0.875, evaluate(losses::hinge_loss(labels, logits)), 1e-3);
}

// === HuberLossTest ==============================================================================

namespace {
template <double Delta = 1.0>
double huber(const fixed<float, 4>& predictions, const fixed<float, 4>& labels) {
  return evaluate(losses::huber_loss<Delta>(tf::constant<"labels">(labels), tf::constant<"predictions">(predictions)));
}
}  // namespace

TEST_CASE("HuberLossTest.testAllQuadratic") {
  check_all_close(0.5 * (0.25 + 0.16 + 1.0 + 0.25) / 4.0, huber({1.5f, -1.4f, -1.0f, 0.0f}, {1.0f, -1.0f, 0.0f, 0.5f}),
                  1e-5);
}

TEST_CASE("HuberLossTest.testAllLinear") {
  check_all_close((1.5 + 2.4 + 1.0 + 1.5) / 4.0 - 0.5, huber({1.5f, -1.4f, -1.0f, 0.0f}, {0.0f, 1.0f, 0.0f, 1.5f}),
                  1e-5);
}

TEST_CASE("HuberLossTest.testMixedQuadraticLinear") {
  const auto predictions =
      tf::constant<"predictions">(fixed<float, 2, 4>{{1.5f, -1.4f, -1.0f, 0.0f}, {1.5f, -1.4f, -1.0f, 0.0f}});
  const auto labels = tf::constant<"labels">(fixed<float, 2, 4>{{1.0f, -1.0f, 0.0f, 0.5f}, {0.0f, 1.0f, 0.0f, 1.5f}});
  const double quadratic = 0.5 * (0.25 + 0.16 + 1.0 + 0.25) / 4.0;
  const double linear = (1.5 + 2.4 + 1.0 + 1.5) / 4.0 - 0.5;
  check_all_close((quadratic + linear) / 2.0, evaluate(losses::huber_loss(labels, predictions)), 1e-5);
}

TEST_CASE("HuberLossTest.testAllQuadraticDelta") {
  const double expected = 0.5 * (0.5 * 0.5 + 0.4 * 0.4 + 0.5 * 0.5 + 0.5 * 0.5) / 4.0;
  check_all_close(expected, huber<0.5>({1.5f, -1.4f, -0.5f, 0.0f}, {1.0f, -1.0f, 0.0f, 0.5f}), 1e-5);
}

TEST_CASE("HuberLossTest.testAllLinearDelta") {
  const double expected = 0.5 * (1.5 + 2.4 + 1.0 + 1.5) / 4.0 - 0.5 * 0.5 * 0.5;
  check_all_close(expected, huber<0.5>({1.5f, -1.4f, -1.0f, 0.0f}, {0.0f, 1.0f, 0.0f, 1.5f}), 1e-5);
}

// === MeanSquaredErrorTest =======================================================================

namespace {
// setUp: the AbsoluteDifferenceLossTest's predictions and labels.
template <class W>
double mean_squared_error_with(const W& weights) {
  return evaluate(
      losses::mean_squared_error(absolute_difference_labels(), absolute_difference_predictions(), weights));
}
}  // namespace

TEST_CASE("MeanSquaredErrorTest.testScalar") {
  const auto predictions = tf::constant<"predictions">(0.0f);  // TensorFlow's is int32
  const auto labels = tf::constant<"labels">(0);
  CHECK(evaluate(losses::mean_squared_error(labels, predictions)) == 0.0f);
}

TEST_CASE("MeanSquaredErrorTest.testAllCorrectNoLossWeight") {
  const auto p = absolute_difference_predictions();
  check_almost_equal(0.0, evaluate(losses::mean_squared_error(p, p)), 3);
}

TEST_CASE("MeanSquaredErrorTest.testNonZeroLoss") {
  check_almost_equal(
      49.5, evaluate(losses::mean_squared_error(absolute_difference_labels(), absolute_difference_predictions())), 3);
}

TEST_CASE("MeanSquaredErrorTest.testNonZeroLossWithPythonScalarWeight") {
  check_almost_equal(49.5 * 2.3, mean_squared_error_with(tf::constant<2.3>()), 3);
}

TEST_CASE("MeanSquaredErrorTest.testNonZeroLossWithScalarTensorWeight") {
  check_almost_equal(49.5 * 2.3, mean_squared_error_with(tf::constant<"weights">(2.3f)), 3);
}

TEST_CASE("MeanSquaredErrorTest.testNonZeroLossWithOneDimBatchSpecificWeights") {
  check_almost_equal(767.8 / 6.0, mean_squared_error_with(tf::constant<"weights">(fixed<float, 2, 1>{{1.2f}, {3.4f}})),
                     3);
}

TEST_CASE("MeanSquaredErrorTest.testNonZeroLossWithTwoDimBatchSpecificWeights") {
  check_almost_equal(767.8 / 6.0, mean_squared_error_with(tf::constant<"weights">(fixed<float, 2, 1>{{1.2f}, {3.4f}})),
                     3);
}

TEST_CASE("MeanSquaredErrorTest.testNonZeroLossWithSampleSpecificWeights") {
  const auto w = tf::constant<"weights">(fixed<std::int32_t, 2, 3>{{3, 6, 5}, {0, 4, 2}});
  check_almost_equal(587 / 5.0, mean_squared_error_with(w), 3);
}

TEST_CASE("MeanSquaredErrorTest.testNonZeroLossWithSampleSpecificWeightsMostZero") {
  const auto w = tf::constant<"weights">(fixed<std::int32_t, 2, 3>{{0, 0, 0}, {0, 0, 2}});
  check_almost_equal(18.0, mean_squared_error_with(w), 3);
}

TEST_CASE("MeanSquaredErrorTest.testLossWithSampleSpecificWeightsAllZero") {
  check_almost_equal(0.0, mean_squared_error_with(tf::constant<"weights">(fixed<float, 2, 3>{})), 3);
}

// === MeanPairwiseSquaredErrorTest ===============================================================

namespace {
// setUp: labels [[1, 9, 2], [-5, -5, 7]], predictions [[4, 8, 12], [8, 1, 3]] (numpy int64);
// the expected loss of each batch entry is the sum over the pairs i < j of
// ((p_i - p_j) - (y_i - y_j))^2, divided by the 3 pairs: 186 / 3 and 438 / 3, summed.
const fixed<double, 2, 3> pairwise_labels{{1, 9, 2}, {-5, -5, 7}};
const fixed<double, 2, 3> pairwise_predictions{{4, 8, 12}, {8, 1, 3}};
double pairwise_expected_sum() {
  double sum = 0;
  for (std::size_t b = 0; b < 2; ++b) {
    double total = 0;
    for (std::size_t i = 0; i + 1 < 3; ++i)
      for (std::size_t j = i + 1; j < 3; ++j) {
        const double d = (pairwise_predictions(b, i) - pairwise_predictions(b, j)) -
                         (pairwise_labels(b, i) - pairwise_labels(b, j));
        total += d * d;
      }
    sum += total / 3.0;
  }
  return sum;
}
// test3d's inputs, [2, 3, 3].
const fixed<double, 2, 3, 3> pairwise_labels_3d{{{1, 9, 2}, {12, 11, 10}, {9, 8, 7}},
                                                {{-5, -5, 7}, {6, 5, 4}, {3, 2, 1}}};
const fixed<double, 2, 3, 3> pairwise_predictions_3d{{{4, 8, 12}, {1, 2, 3}, {4, 5, 6}},
                                                     {{8, 1, 3}, {7, 8, 9}, {10, 11, 12}}};

// _test_valid_weights(labels, predictions, expected_loss, weights): the loss of numpy inputs
// (named constants, the weights a literal or a named constant), then of placeholders
// (float32 predictions, int32 labels, float32 weights of the weights' shape) fed them, both
// to 3 places.
template <class Values, class Weights, class WeightsValue>
void check_valid_weights(const Values& labels, const Values& predictions, double expected, const Weights& weights,
                         const WeightsValue& weights_value) {
  using S = tf::shape_of<decltype(tf::constant<"x">(labels))>;
  using WS = tf::shape_of<Weights>;
  const auto static_loss = losses::mean_pairwise_squared_error(tf::constant<"labels">(labels),
                                                               tf::constant<"predictions">(predictions), weights);
  check_almost_equal(expected, evaluate(static_loss), 3);

  const auto p = tf::placeholder<"predictions_placeholder", float, S>();
  const auto y = tf::placeholder<"labels_placeholder", std::int32_t, S>();
  const auto w = tf::placeholder<"weights_placeholder", float, WS>();
  const auto dynamic_loss = losses::mean_pairwise_squared_error(y, p, w);
  const tf::storage_t<float, S> p_value = xt::cast<float>(predictions);
  const tf::storage_t<std::int32_t, S> y_value = xt::cast<std::int32_t>(labels);
  check_almost_equal(expected,
                     evaluate(dynamic_loss, tf::feed(p, p_value), tf::feed(y, y_value),
                              tf::feed(w, static_cast<tf::storage_t<float, WS>>(weights_value))),
                     3);
}
}  // namespace

TEST_CASE("MeanPairwiseSquaredErrorTest.testAllCorrectNoLossWeight") {
  check_valid_weights(pairwise_labels, pairwise_labels, 0.0, tf::constant<1.0>(), 1.0f);
}

TEST_CASE("MeanPairwiseSquaredErrorTest.testNonZeroLoss") {
  check_valid_weights(pairwise_labels, pairwise_predictions, pairwise_expected_sum(), tf::constant<1.0>(), 1.0f);
}

TEST_CASE("MeanPairwiseSquaredErrorTest.testGradientWithZeroWeight") {
  // predictions = matmul(ones([2, 3]), weights [3, 4]); a zero weight: no NaN in the gradient.
  const auto v = tf::variable<"weights", float, shape<3, 4>>(tf::init::truncated_normal());
  const auto predictions = tf::matmul(tf::constant<"inputs">(fixed<float, 2, 3>{{1, 1, 1}, {1, 1, 1}}), v);
  const auto loss = losses::mean_pairwise_squared_error(predictions, predictions, tf::constant<"zero">(0.0f));
  const auto [grad] = tf::gradients(loss, v);
  tf::session sess(loss, grad);
  sess.initialize_all();
  const auto g = sess.run(grad);
  for (float x : g) CHECK_FALSE(std::isnan(x));
}

TEST_CASE("MeanPairwiseSquaredErrorTest.testNonZeroLossWithPythonScalarWeight") {
  check_valid_weights(pairwise_labels, pairwise_predictions, 2.3 * pairwise_expected_sum(), tf::constant<2.3>(), 2.3f);
}

TEST_CASE("MeanPairwiseSquaredErrorTest.testNonZeroLossWithScalarTensorWeight") {
  const auto loss = losses::mean_pairwise_squared_error(tf::constant<"labels">(pairwise_labels),
                                                        tf::constant<"predictions">(pairwise_predictions),
                                                        tf::constant<"weights">(2.3f));
  check_almost_equal(2.3 * pairwise_expected_sum(), evaluate(loss), 3);
}

TEST_CASE("MeanPairwiseSquaredErrorTest.testNonZeroLossWithScalarZeroWeight") {
  check_valid_weights(pairwise_labels, pairwise_predictions, 0.0, tf::constant<0.0>(), 0.0f);
}

TEST_CASE("MeanPairwiseSquaredErrorTest.test3d") {
  check_valid_weights(pairwise_labels_3d, pairwise_predictions_3d, 137.5, tf::constant<1.0>(), 1.0f);
}

TEST_CASE("MeanPairwiseSquaredErrorTest.test3dWeightedScalar") {
  check_valid_weights(pairwise_labels_3d, pairwise_predictions_3d, 3.0 * 137.5, tf::constant<3.0>(), 3.0f);
}

TEST_CASE("MeanPairwiseSquaredErrorTest.test3dWeighted2x3x3") {
  // TensorFlow's "TODO(ptucker): This doesn't look right.": each batch entry's loss times 9
  // ones, summed.
  const fixed<double, 2, 3, 3> ones = xt::ones<double>({2, 3, 3});
  check_valid_weights(pairwise_labels_3d, pairwise_predictions_3d, 9 * 137.5, tf::constant<"weights">(ones), ones);
}

TEST_CASE("MeanPairwiseSquaredErrorTest.testLossWithAllZeroBatchSpecificWeights") {
  const fixed<double, 2, 1> zeros{{0}, {0}};
  check_valid_weights(pairwise_labels, pairwise_predictions, 0.0, tf::constant<"weights">(zeros), zeros);
}

TEST_CASE("MeanPairwiseSquaredErrorTest.testLossIsAssociativeAcrossBatchElements") {
  // Uniform [0, 1) inputs of shape [1, 3, 4, 1] (a fixed sequence here, TensorFlow's seeded
  // random_uniform there): the loss of both batch entries is the sum of their losses.
  using S = shape<1, 3, 4, 1>;
  const auto y0 = tf::placeholder<"labels0", float, S>();
  const auto p0 = tf::placeholder<"predictions0", float, S>();
  const auto y1 = tf::placeholder<"labels1", float, S>();
  const auto p1 = tf::placeholder<"predictions1", float, S>();
  const auto loss0 = losses::mean_pairwise_squared_error(y0, p0);
  const auto loss1 = losses::mean_pairwise_squared_error(y1, p1);
  const auto loss0_1 = losses::mean_pairwise_squared_error(tf::concat<0>(y0, y1), tf::concat<0>(p0, p1));
  std::array<tf::storage_t<float, S>, 4> v;
  for (std::size_t k = 0; k < 4; ++k)
    for (std::size_t i = 0; i < 12; ++i) v[k].flat(i) = static_cast<float>(((i * 7 + k * 5 + 3) % 17) / 17.0);
  tf::session sess(loss0, loss1, loss0_1);
  const auto [a, b, c] = sess.run(tf::fetch(loss0, loss1, loss0_1), tf::feed(y0, v[0]), tf::feed(p0, v[1]),
                                  tf::feed(y1, v[2]), tf::feed(p1, v[3]));
  CHECK(a > 0);
  CHECK(b > 0);
  check_almost_equal(a + b, c, 5);
}
