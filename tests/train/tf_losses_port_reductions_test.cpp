// typeflow::losses (ops/weighted_losses.hpp), ported from TensorFlow 1.x's tf.losses tests,
// tensorflow/python/kernel_tests/losses_test.py, continued from tf_losses_port_test.cpp (the
// same conventions, two files for compile time): CosineDistanceLossTest and
// ComputeWeightedLossTest (weights of every shape the rule allows, under every reduction).
// Then the gradients of every loss against central differences (tests/autodiff/fd_check.hpp),
// in double.
//
// Not ported:
// - testValueErrorThrownWhenWeightIsNone (C++ has no None), AddLossTest (loss collections).
// - Static shape errors, a ValueError in TensorFlow, are compile errors here:
//   ComputeWeightedLossTest's testInvalidWeightTooManyDims, testInvalid3Weight,
//   testInvalid3x1Weight, testInvalid3x2Weight, testInvalid1x2Weight and
//   testInvalidScalar1DWeight. Their dynamic halves feed weights of unknown rank, which
//   typeflow has no placeholder for; the dynamic half of testInvalidWeightMismatchedDim (a
//   wrong dimension fed) is ported.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <typeflow/typeflow.hpp>

#include "tf_losses_testing.hpp"

#include "../autodiff/fd_check.hpp"

namespace tf = typeflow;
namespace losses = typeflow::losses;
namespace reduction = typeflow::losses::reduction;
using tf::dyn;
using tf::shape;

using namespace tf_losses_testing;  // fixed, check_almost_equal, check_all_close, evaluate

// === CosineDistanceLossTest =====================================================================

namespace {
// setUp: [3, 2, 3] unit vectors (numpy int64), the distance along axis 2.
const fixed<std::int64_t, 3, 2, 3> cosine_predictions{
    {{1, 0, 0}, {0, 0, -1}}, {{1, 0, 0}, {1, 0, 0}}, {{0, 0, -1}, {1, 0, 0}}};
const fixed<std::int64_t, 3, 2, 3> cosine_labels{
    {{1, 0, 0}, {0, 0, 1}}, {{0, 1, 0}, {1, 0, 0}}, {{0, 0, 1}, {0, 1, 0}}};
auto cosine_labels_node() { return tf::constant<"labels">(cosine_labels); }
auto cosine_predictions_node() {
  return tf::constant<"predictions">(fixed<float, 3, 2, 3>(xt::cast<float>(cosine_predictions)));
}
}  // namespace

TEST_CASE("CosineDistanceLossTest.testAllCorrectNoWeights") {
  const auto p = tf::constant<"predictions">(fixed<float, 3, 2, 3>(xt::cast<float>(cosine_labels)));
  check_almost_equal(0, evaluate(losses::cosine_distance<2>(cosine_labels_node(), p)), 5);
}

TEST_CASE("CosineDistanceLossTest.testPartiallyCorrectWithIntegerValues") {
  check_almost_equal(1, evaluate(losses::cosine_distance<2>(cosine_labels_node(), cosine_predictions_node())), 5);
}

TEST_CASE("CosineDistanceLossTest.testPartiallyCorrectFloatingPointValues") {
  const auto predictions = tf::constant<"predictions">(
      fixed<float, 3, 1, 3>{{{0.819031913261206f, 0.567041924552012f, 0.087465312324590f}},
                            {{-0.665139432070255f, -0.739487441769973f, -0.103671883216994f}},
                            {{0.707106781186548f, -0.707106781186548f, 0}}});
  const auto labels = tf::constant<"labels">(
      fixed<float, 3, 1, 3>{{{0.819031913261206f, 0.567041924552012f, 0.087465312324590f}},
                            {{0.665139432070255f, 0.739487441769973f, 0.103671883216994f}},
                            {{0.707106781186548f, 0.707106781186548f, 0}}});
  check_almost_equal(1.0, evaluate(losses::cosine_distance<2>(labels, predictions)), 5);
}

TEST_CASE("CosineDistanceLossTest.testSampleSpecificWeights") {
  const auto w = tf::constant<"weights">(fixed<std::int64_t, 3, 1, 1>{{{1}}, {{0}}, {{0}}});
  CHECK(evaluate(losses::cosine_distance<2>(cosine_labels_node(), cosine_predictions_node(), w)) == 1.0f);
}

TEST_CASE("CosineDistanceLossTest.testMeasurementSpecificWeights") {
  const auto w = tf::constant<"weights">(fixed<std::int32_t, 3, 2, 1>{{{1}, {0}}, {{0}, {1}}, {{1}, {1}}});
  CHECK(evaluate(losses::cosine_distance<2>(cosine_labels_node(), cosine_predictions_node(), w)) == 3.0f / 4.0f);
}

TEST_CASE("CosineDistanceLossTest.testMeasurementSpecificWeightsWithPlaceholderWithShape") {
  const auto p = tf::placeholder<"tf_predictions", float, shape<3, 2, 3>>();
  const auto w = tf::constant<"weights">(fixed<std::int32_t, 3, 2, 1>{{{1}, {0}}, {{0}, {1}}, {{1}, {1}}});
  const fixed<float, 3, 2, 3> fed = xt::cast<float>(cosine_predictions);
  CHECK(evaluate(losses::cosine_distance<2>(cosine_labels_node(), p, w), tf::feed(p, fed)) == 3.0f / 4.0f);
}

TEST_CASE("CosineDistanceLossTest.testZeroLossWhenAllSampleSpecificWeightsAreZero") {
  const auto w = tf::constant<"weights">(fixed<float, 3, 1, 1>{});
  CHECK(evaluate(losses::cosine_distance<2>(cosine_labels_node(), cosine_predictions_node(), w)) == 0.0f);
}

TEST_CASE("CosineDistanceLossTest.testZeroLossWhenAllMeasurementSpecificWeightsAreZero") {
  const auto w = tf::constant<"weights">(fixed<float, 3, 2, 1>{});
  CHECK(evaluate(losses::cosine_distance<2>(cosine_labels_node(), cosine_predictions_node(), w)) == 0.0f);
}

// === ComputeWeightedLossTest ====================================================================

namespace {
// setUp: raw losses 0, 1, ..., 23 in a [3, 2, 4] array (numpy float64).
fixed<double, 3, 2, 4> raw_losses_value() {
  fixed<double, 3, 2, 4> v;
  for (std::size_t i = 0; i < 24; ++i) v.flat(i) = static_cast<double>(i);
  return v;
}
auto raw_losses() { return tf::constant<"raw_losses">(raw_losses_value()); }

// What _test_valid_weights expects of weights w (broadcast to [3, 2, 4]) for each reduction,
// as its numpy formulas compute it.
struct expected_reductions {
  fixed<double, 3, 2, 4> none;
  double sum = 0, mean = 0, sum_over_batch_size = 0, sum_by_nonzero_weights = 0;
};
template <class W>
expected_reductions reference(const W& w) {
  const auto raw = raw_losses_value();
  expected_reductions e;
  double weights_sum = 0, nonzero = 0;
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 2; ++j)
      for (std::size_t k = 0; k < 4; ++k) {
        const double wv = w(w.shape()[0] == 1 ? 0 : i, w.shape()[1] == 1 ? 0 : j, w.shape()[2] == 1 ? 0 : k);
        e.none(i, j, k) = wv * raw(i, j, k);
        e.sum += e.none(i, j, k);
        weights_sum += wv;
        nonzero += wv != 0;
      }
  e.mean = e.sum / weights_sum;
  e.sum_over_batch_size = e.sum / 24.0;
  e.sum_by_nonzero_weights = e.sum / nonzero;
  return e;
}

// compute_weighted_loss(raw_losses, weights, reduction) for every reduction, run together,
// against the reference (assertAllClose's default tolerances).
template <class Raw, class Weights, class... Feeds>
void check_all_reductions(const Raw& raw, const Weights& weights, const expected_reductions& want,
                          const Feeds&... feeds) {
  const auto none = losses::compute_weighted_loss(raw, weights, reduction::none);
  const auto sum = losses::compute_weighted_loss(raw, weights, reduction::sum);
  const auto mean = losses::compute_weighted_loss(raw, weights, reduction::mean);
  const auto by_batch = losses::compute_weighted_loss(raw, weights, reduction::sum_over_batch_size);
  const auto by_nonzero = losses::compute_weighted_loss(raw, weights, reduction::sum_by_nonzero_weights);
  const auto by_nonzero_too = losses::compute_weighted_loss(raw, weights, reduction::sum_over_nonzero_weights);
  tf::session sess(none, sum, mean, by_batch, by_nonzero);
  const auto [n, s, m, b, z, z2] = sess.run(tf::fetch(none, sum, mean, by_batch, by_nonzero, by_nonzero_too), feeds...);
  REQUIRE(n.size() == 24);
  for (std::size_t i = 0; i < 24; ++i) check_all_close(want.none.flat(i), n.flat(i));
  check_all_close(want.sum, s);
  check_all_close(want.mean, m);
  check_all_close(want.sum_over_batch_size, b);
  check_all_close(want.sum_by_nonzero_weights, z);
  check_all_close(want.sum_by_nonzero_weights, z2);
}

template <std::size_t A, std::size_t B, std::size_t C>
void check_valid_weights(const fixed<double, A, B, C>& w) {
  check_all_reductions(raw_losses(), tf::constant<"weights">(w), reference(w));
}
template <std::size_t A, std::size_t B, std::size_t C>
fixed<double, A, B, C> ones() {
  return xt::ones<double>({A, B, C});
}
}  // namespace

TEST_CASE("ComputeWeightedLossTest.testUnweighted") {
  const auto want = reference(ones<1, 1, 1>());
  check_all_reductions(raw_losses(), tf::constant<1.0>(), want);
  check_valid_weights(ones<1, 1, 1>());
  check_valid_weights(ones<1, 1, 4>());
  check_valid_weights(ones<1, 2, 1>());
  check_valid_weights(ones<1, 2, 4>());
  check_valid_weights(ones<3, 1, 1>());
  check_valid_weights(ones<3, 1, 4>());
  check_valid_weights(ones<3, 2, 1>());
  check_valid_weights(ones<3, 2, 4>());
}

TEST_CASE("ComputeWeightedLossTest.testUnweightedFromPlaceholder") {
  // A float32 placeholder of unknown shape in TensorFlow: here double, of rank 3, fed [3, 2, 4].
  const auto raw = tf::placeholder<"raw_losses", double, shape<dyn, dyn, dyn>>();
  const xt::xtensor<double, 3> fed = raw_losses_value();
  const auto want = reference(ones<1, 1, 1>());
  check_all_reductions(raw, tf::constant<1.0>(), want, tf::feed(raw, fed));
  check_all_reductions(raw, tf::constant<"weights">(ones<1, 1, 1>()), want, tf::feed(raw, fed));
  check_all_reductions(raw, tf::constant<"weights">(ones<1, 1, 4>()), want, tf::feed(raw, fed));
}

TEST_CASE("ComputeWeightedLossTest.testScalarWeight") {
  const auto loss = losses::compute_weighted_loss(raw_losses(), tf::constant<17.0>());
  check_all_close(17.0 * 23.0 / 2.0, evaluate(loss));  // np.mean(17 * raw_losses)
}

TEST_CASE("ComputeWeightedLossTest.testInvalidWeightMismatchedDim") {
  // The static half is a compile error; the dynamic half, weights [3, 2, 4, 2] fed to a
  // placeholder of rank 4 for losses [3, 2, 4, 1], fails the run.
  const fixed<double, 3, 2, 4, 1> raw_value = xt::reshape_view(raw_losses_value(), {3, 2, 4, 1});
  const auto raw = tf::constant<"raw_losses">(raw_value);
  const auto w = tf::placeholder<"weights", double, shape<dyn, dyn, dyn, dyn>>();
  const auto loss = losses::compute_weighted_loss(raw, w);
  const xt::xtensor<double, 4> bad = xt::ones<double>({3, 2, 4, 2});
  CHECK_THROWS_WITH_AS(evaluate(loss, tf::feed(w, bad)),
                       "InvalidArgument: weights can not be broadcast to values. values.shape=[3, 2, 4, 1]. "
                       "weights.shape=[3, 2, 4, 2].",
                       tf::invalid_argument_error);
  const xt::xtensor<double, 4> good = xt::ones<double>({3, 1, 4, 1});
  check_all_close(11.5, evaluate(loss, tf::feed(w, good)));
}

TEST_CASE("ComputeWeightedLossTest.test1x1x1Weight") { check_valid_weights(fixed<double, 1, 1, 1>{{{17.0}}}); }

TEST_CASE("ComputeWeightedLossTest.test1x2x1Weight") { check_valid_weights(fixed<double, 1, 2, 1>{{{17.0}, {3.0}}}); }

TEST_CASE("ComputeWeightedLossTest.test1x1x4Weight") {
  check_valid_weights(fixed<double, 1, 1, 4>{{{17.0, 0.0, 2.0, 5.0}}});
}

TEST_CASE("ComputeWeightedLossTest.test3x1x1Weight") {
  check_valid_weights(fixed<double, 3, 1, 1>{{{17.0}}, {{5.0}}, {{2.0}}});
}

TEST_CASE("ComputeWeightedLossTest.test3x2x1Weight") {
  check_valid_weights(fixed<double, 3, 2, 1>{{{17.0}, {3.0}}, {{5.0}, {31.0}}, {{2.0}, {7.0}}});
}

TEST_CASE("ComputeWeightedLossTest.test3x1x4Weight") {
  check_valid_weights(
      fixed<double, 3, 1, 4>{{{17.0, 0.0, 2.0, 5.0}}, {{5.0, 31.0, 17.0, 5.0}}, {{7.0, 3.0, 11.0, 5.0}}});
}

TEST_CASE("ComputeWeightedLossTest.test1x2x4Weight") {
  check_valid_weights(fixed<double, 1, 2, 4>{{{17.0, 0.0, 2.0, 5.0}, {3.0, 13.0, 11.0, 2.0}}});
}

TEST_CASE("ComputeWeightedLossTest.test3x2x4Weight") {
  check_valid_weights(fixed<double, 3, 2, 4>{{{17.0, 0.0, 2.0, 5.0}, {3.0, 13.0, 11.0, 2.0}},
                                             {{5.0, 31.0, 17.0, 5.0}, {13.0, 3.0, 0.0, 11.0}},
                                             {{0.0, 3.0, 11.0, 5.0}, {13.0, 11.0, 1.0, 7.0}}});
}

// === Gradients ==================================================================================
// Each loss with respect to its predictions (or logits), and where a gradient flows to them,
// its labels and weights; compute_weighted_loss with respect to the losses and the weights
// under each reduction (reduction::mean divides by the weights' sum); all-zero weights
// (div_no_nan: a zero gradient, no NaN); and weights checked when fed (a dynamic
// dimension). Inputs stay away from the kinks of |x|, relu, minimum and the huber loss's delta.

namespace {
using S23 = shape<2, 3>;
using value23 = fd_check::value_t<S23>;

// Labels, and predictions away from them by 0.2 to 1.5 (|error| != 0).
struct regression_inputs {
  value23 y = fd_check::uniform<S23>();
  value23 p = y + fd_check::away_from_zero<S23>();
  fd_check::value_t<shape<2, 1>> w = fd_check::positive<shape<2, 1>>();
};
}  // namespace

TEST_CASE("absolute_difference: gradient to the predictions, the labels and [2, 1] weights") {
  const auto y = tf::placeholder<"labels", double, S23>();
  const auto p = tf::placeholder<"predictions", double, S23>();
  const auto w = tf::placeholder<"weights", double, shape<2, 1>>();
  const auto loss = losses::absolute_difference(y, p, w);
  tf::session sess(loss);
  const regression_inputs in;
  fd_check::check_gradient(sess, loss, p, in.p, tf::feed(y, in.y), tf::feed(w, in.w));
  fd_check::check_gradient(sess, loss, y, in.y, tf::feed(p, in.p), tf::feed(w, in.w));
  fd_check::check_gradient(sess, loss, w, in.w, tf::feed(p, in.p), tf::feed(y, in.y));
}

TEST_CASE("mean_squared_error: gradient to the predictions and the labels, reduction::sum") {
  const auto y = tf::placeholder<"labels", double, S23>();
  const auto p = tf::placeholder<"predictions", double, S23>();
  const auto w = tf::placeholder<"weights", double, shape<2, 1>>();
  const auto loss = losses::mean_squared_error(y, p, w, reduction::sum);
  tf::session sess(loss);
  const regression_inputs in;
  fd_check::check_gradient(sess, loss, p, in.p, tf::feed(y, in.y), tf::feed(w, in.w));
  fd_check::check_gradient(sess, loss, y, in.y, tf::feed(p, in.p), tf::feed(w, in.w));
}

TEST_CASE("huber_loss<0.5>: gradient to the predictions, errors on both sides of delta") {
  const auto y = tf::placeholder<"labels", double, S23>();
  const auto p = tf::placeholder<"predictions", double, S23>();
  const auto loss = losses::huber_loss<0.5>(y, p, tf::constant<1.5>());
  tf::session sess(loss);
  const value23 y0 = fd_check::uniform<S23>();
  const value23 errors{{0.2, -0.3, 0.9}, {-1.4, 0.45, -0.7}};
  const value23 p0 = y0 + errors;
  fd_check::check_gradient(sess, loss, p, p0, tf::feed(y, y0));
}

TEST_CASE("log_loss: gradient to the predictions and the labels") {
  const auto y = tf::placeholder<"labels", double, S23>();
  const auto p = tf::placeholder<"predictions", double, S23>();
  const auto loss = losses::log_loss(y, p, reduction::mean);
  tf::session sess(loss);
  const value23 y0{{1, 0, 1}, {1, 0, 0}};
  const value23 p0 = fd_check::uniform<S23>(0.2, 0.8);
  fd_check::check_gradient(sess, loss, p, p0, tf::feed(y, y0));
  fd_check::check_gradient(sess, loss, y, y0, tf::feed(p, p0));
}

TEST_CASE("hinge_loss: gradient to the logits, inside and outside the margin") {
  const auto y = tf::placeholder<"labels", double, shape<4, 1>>();
  const auto x = tf::placeholder<"logits", double, shape<4, 1>>();
  const auto loss = losses::hinge_loss(y, x);
  tf::session sess(loss);
  const fd_check::value_t<shape<4, 1>> y0{{0}, {0}, {1}, {1}}, x0{{-0.7}, {0.4}, {1.4}, {0.6}};
  fd_check::check_gradient(sess, loss, x, x0, tf::feed(y, y0));
}

TEST_CASE("cosine_distance<1>: gradient to the predictions, [2, 1] weights") {
  const auto y = tf::placeholder<"labels", double, S23>();
  const auto p = tf::placeholder<"predictions", double, S23>();
  const auto w = tf::placeholder<"weights", double, shape<2, 1>>();
  const auto loss = losses::cosine_distance<1>(y, p, w);
  tf::session sess(loss);
  const regression_inputs in;
  fd_check::check_gradient(sess, loss, p, in.p, tf::feed(y, in.y), tf::feed(w, in.w));
  fd_check::check_gradient(sess, loss, w, in.w, tf::feed(p, in.p), tf::feed(y, in.y));
}

TEST_CASE("sigmoid_cross_entropy<0.1>: gradient to the logits and the labels") {
  const auto y = tf::placeholder<"labels", double, S23>();
  const auto x = tf::placeholder<"logits", double, S23>();
  const auto loss = losses::sigmoid_cross_entropy<0.1>(y, x, tf::constant<2.0>());
  tf::session sess(loss);
  const value23 y0{{1, 0, 1}, {0, 0, 1}};
  const value23 x0 = fd_check::uniform<S23>(-3, 3);
  fd_check::check_gradient(sess, loss, x, x0, tf::feed(y, y0));
  fd_check::check_gradient(sess, loss, y, y0, tf::feed(x, x0));
}

TEST_CASE("softmax_cross_entropy<0.1>: gradient to the logits; none to the labels") {
  const auto y = tf::placeholder<"labels", double, S23>();
  const auto x = tf::placeholder<"logits", double, S23>();
  const auto w = tf::placeholder<"weights", double, shape<2>>();
  const auto loss = losses::softmax_cross_entropy<0.1>(y, x, w);
  tf::session sess(loss);
  const value23 y0{{0, 1, 0}, {0, 0, 1}};
  const value23 x0 = fd_check::uniform<S23>(-3, 3);
  const fd_check::value_t<shape<2>> w0{0.5, 2.0};
  fd_check::check_gradient(sess, loss, x, x0, tf::feed(y, y0), tf::feed(w, w0));
  fd_check::check_gradient(sess, loss, w, w0, tf::feed(x, x0), tf::feed(y, y0));
  // TensorFlow stops the gradient at the (smoothed) labels.
  const value23 gy = sess.run(tf::gradient(loss, y), tf::feed(x, x0), tf::feed(y, y0), tf::feed(w, w0));
  for (double g : gy) CHECK(g == 0.0);
}

TEST_CASE("sparse_softmax_cross_entropy: gradient to the logits, [batch, 1] labels and weights") {
  const auto y = tf::placeholder<"labels", std::int32_t, shape<3, 1>>();
  const auto x = tf::placeholder<"logits", double, shape<3, 4>>();
  const auto w = tf::placeholder<"weights", double, shape<3, 1>>();
  const auto loss = losses::sparse_softmax_cross_entropy(y, x, w);
  tf::session sess(loss);
  const tf::storage_t<std::int32_t, shape<3, 1>> y0{{2}, {0}, {3}};
  const auto x0 = fd_check::uniform<shape<3, 4>>(-2, 2);
  const auto w0 = fd_check::positive<shape<3, 1>>();
  fd_check::check_gradient(sess, loss, x, x0, tf::feed(y, y0), tf::feed(w, w0));
  fd_check::check_gradient(sess, loss, w, w0, tf::feed(x, x0), tf::feed(y, y0));
}

TEST_CASE("mean_pairwise_squared_error: gradient to the predictions, [2, 1] weights") {
  const auto y = tf::placeholder<"labels", double, S23>();
  const auto p = tf::placeholder<"predictions", double, S23>();
  const auto w = tf::placeholder<"weights", double, shape<2, 1>>();
  const auto loss = losses::mean_pairwise_squared_error(y, p, w);
  tf::session sess(loss);
  const regression_inputs in;
  fd_check::check_gradient(sess, loss, p, in.p, tf::feed(y, in.y), tf::feed(w, in.w));
  fd_check::check_gradient(sess, loss, w, in.w, tf::feed(p, in.p), tf::feed(y, in.y));
}

namespace {
// compute_weighted_loss(values, w, R) (summed for reduction::none): the gradient to the
// values and to the [2, 1] weights.
template <class R>
void check_reduction(R r) {
  const auto v = tf::placeholder<"values", double, S23>();
  const auto w = tf::placeholder<"weights", double, shape<2, 1>>();
  const auto loss = [&] {
    if constexpr (std::is_same_v<R, reduction::none_t>) {
      return tf::reduce_sum(losses::compute_weighted_loss(v, w, r));
    } else {
      return losses::compute_weighted_loss(v, w, r);
    }
  }();
  tf::session sess(loss);
  const auto v0 = fd_check::uniform<S23>();
  const auto w0 = fd_check::positive<shape<2, 1>>();
  fd_check::check_gradient(sess, loss, v, v0, tf::feed(w, w0));
  fd_check::check_gradient(sess, loss, w, w0, tf::feed(v, v0));
}
}  // namespace

TEST_CASE("compute_weighted_loss: gradients under every reduction") {
  check_reduction(reduction::none);
  check_reduction(reduction::sum);
  check_reduction(reduction::mean);
  check_reduction(reduction::sum_over_batch_size);
  check_reduction(reduction::sum_by_nonzero_weights);
}

TEST_CASE("all-zero weights: a loss of 0 and a zero gradient (div_no_nan), for the mean too") {
  const auto y = tf::placeholder<"labels", double, S23>();
  const auto p = tf::placeholder<"predictions", double, S23>();
  const auto w = tf::placeholder<"weights", double, shape<2, 1>>();
  const auto by_nonzero = losses::mean_squared_error(y, p, w);
  const auto mean = losses::mean_squared_error(y, p, w, reduction::mean);
  tf::session sess(by_nonzero, mean);
  const regression_inputs in;
  const fd_check::value_t<shape<2, 1>> zeros{{0}, {0}};
  const auto [a, b, ga, gb, gwa, gwb] =
      sess.run(tf::fetch(by_nonzero, mean, tf::gradient(by_nonzero, p), tf::gradient(mean, p),
                         tf::gradient(by_nonzero, w), tf::gradient(mean, w)),
               tf::feed(y, in.y), tf::feed(p, in.p), tf::feed(w, zeros));
  CHECK(a == 0.0);
  CHECK(b == 0.0);
  for (double g : ga) CHECK(g == 0.0);
  for (double g : gb) CHECK(g == 0.0);
  for (double g : gwa) CHECK(g == 0.0);  // the numerator's gradient, divided by no weight: 0
  for (double g : gwb) CHECK(g == 0.0);
}

TEST_CASE("weights checked when fed (a dynamic dimension): the gradient passes to them") {
  const auto v = tf::placeholder<"values", double, shape<dyn, 3>>();
  const auto w = tf::placeholder<"weights", double, shape<dyn, 1>>();
  const auto loss = losses::compute_weighted_loss(v, w, reduction::mean);
  tf::session sess(loss);
  const xt::xtensor<double, 2> v0 = fd_check::uniform<S23>();
  const xt::xtensor<double, 2> w0 = fd_check::positive<shape<2, 1>>();
  fd_check::check_gradient(sess, loss, w, w0, tf::feed(v, v0));
  fd_check::check_gradient(sess, loss, v, v0, tf::feed(w, w0));
}
