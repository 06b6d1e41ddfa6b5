// sequence_loss and sequence_loss_by_example (ops/sequence_loss.hpp), as
// tf.contrib.legacy_seq2seq defines them.
//
// Ported from TensorFlow's seq2seq_test.py: testSequenceLoss and testSequenceLossByExample
// (three steps of logits i + 0.5 everywhere in [2, 5], targets i, weights 1: every step costs
// log 5). Then weights that differ per example and step, with a zero step, against the
// formula computed here; a softmax_loss_function replacing the sparse cross-entropy; and the
// gradient with respect to the logits against central differences (tests/autodiff/fd_check.hpp).
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <tuple>

#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"
#include "ops_testing.hpp"
#include "sequence_loss_testing.hpp"

namespace tf = typeflow;
using tf::dyn;
using tf::shape;

namespace {
// TensorFlow's inputs, constant_op.constant(i + 0.5, shape=[2, 5]), constant(i, int32, [2])
// and constant(1.0, [2]) for i in range(3), here as placeholders fed those values.
template <class T>
struct tf_inputs {
  tf::placeholder_node<"sl_l0", float, shape<2, 5>> l0;
  tf::placeholder_node<"sl_l1", float, shape<2, 5>> l1;
  tf::placeholder_node<"sl_l2", float, shape<2, 5>> l2;
  tf::placeholder_node<"sl_y0", T, shape<2>> lab0;
  tf::placeholder_node<"sl_y1", T, shape<2>> lab1;
  tf::placeholder_node<"sl_y2", T, shape<2>> y2;
  tf::placeholder_node<"sl_w", float, shape<2>> w;
  auto logits() const { return std::tuple{l0, l1, l2}; }
  auto targets() const { return std::tuple{lab0, lab1, y2}; }
  auto weights() const { return std::tuple{w, w, w}; }
  template <class Session, class Fetch>
  auto run(Session& sess, Fetch f) const {
    const auto logit = [](float v) {
      tf::storage_t<float, shape<2, 5>> x;
      x.fill(v);
      return x;
    };
    const auto target = [](T v) { return tf::storage_t<T, shape<2>>{v, v}; };
    return sess.run(f, tf::feed(l0, logit(0.5f)), tf::feed(l1, logit(1.5f)), tf::feed(l2, logit(2.5f)),
                    tf::feed(lab0, target(0)), tf::feed(lab1, target(1)), tf::feed(y2, target(2)),
                    tf::feed(w, tf::storage_t<float, shape<2>>{1.0f, 1.0f}));
  }
};
}  // namespace

TEST_CASE("sequence_loss: TensorFlow's testSequenceLoss") {
  const tf_inputs<std::int32_t> in;
  auto average_loss_per_example = tf::sequence_loss<true, true>(in.logits(), in.targets(), in.weights());
  auto average_loss_per_sequence = tf::sequence_loss<false, true>(in.logits(), in.targets(), in.weights());
  auto total_loss = tf::sequence_loss<false, false>(in.logits(), in.targets(), in.weights());
  tf::session sess(average_loss_per_example, average_loss_per_sequence, total_loss);
  const auto [a, b, c] = in.run(sess, tf::fetch(average_loss_per_example, average_loss_per_sequence, total_loss));
  // TensorFlow: assertAllClose(1.60944, res), (4.828314, res), (9.656628, res).
  CHECK(a == doctest::Approx(1.60944).epsilon(1e-5));
  CHECK(b == doctest::Approx(4.828314).epsilon(1e-6));
  CHECK(c == doctest::Approx(9.656628).epsilon(1e-6));
}

TEST_CASE("sequence_loss_by_example: TensorFlow's testSequenceLossByExample") {
  const tf_inputs<std::int64_t> in;
  auto average_loss_per_example = tf::sequence_loss_by_example(in.logits(), in.targets(), in.weights());
  auto loss_per_sequence = tf::sequence_loss_by_example<false>(in.logits(), in.targets(), in.weights());
  tf::session sess(average_loss_per_example, loss_per_sequence);
  const auto [a, b] = in.run(sess, tf::fetch(average_loss_per_example, loss_per_sequence));
  // TensorFlow: assertAllClose([1.609438, 1.609438], res), ([4.828314, 4.828314], res).
  ops_testing::check_values(a, {2}, {1.609438, 1.609438}, 1e-6);
  ops_testing::check_values(b, {2}, {4.828314, 4.828314}, 1e-6);
}


// Two steps of [3, 4] logits, dynamic batch, double: the formulas computed by hand.
using namespace sequence_loss_testing;

TEST_CASE("weights per example and step, a zero total weight, a softmax_loss_function") {
  const two_steps in;
  const auto logits = in.logits();
  const auto targets = in.targets();
  const auto weights = in.weights();
  auto by_example = tf::sequence_loss_by_example(logits, targets, weights);
  auto unaveraged = tf::sequence_loss_by_example<false>(logits, targets, weights);
  auto mean = tf::sequence_loss(logits, targets, weights);
  auto custom = tf::sequence_loss_by_example<false>(logits, targets, weights, twice);
  tf::session sess(by_example, unaveraged, mean, custom);
  const auto [e, u, m, c] = in.run(sess, tf::fetch(by_example, unaveraged, mean, custom));
  double total = 0;
  for (std::size_t r = 0; r < 3; ++r) {
    const double lp = xent(l0, r, std::size_t(lab0(r))) * w0(r) + xent(l1, r, std::size_t(lab1(r))) * w1(r);
    const double per = lp / (w0(r) + w1(r) + 1e-12);
    INFO("example " << r);
    CHECK(u(r) == doctest::Approx(lp).epsilon(1e-12));
    CHECK(e(r) == doctest::Approx(per).epsilon(1e-12));
    CHECK(c(r) == doctest::Approx(2 * lp).epsilon(1e-12));
    total += per;
  }
  CHECK(e(2) == 0.0);  // all-zero weights: 0 / 1e-12, not NaN
  CHECK(m == doctest::Approx(total / 3).epsilon(1e-12));
}

TEST_CASE("the gradient of sequence_loss with respect to each step's logits (central differences)") {
  auto x0 = tf::placeholder<"sg_l0", double, shape<3, 4>>();
  auto x1 = tf::placeholder<"sg_l1", double, shape<3, 4>>();
  auto t0 = tf::placeholder<"sg_y0", std::int32_t, shape<3>>();
  auto t1 = tf::placeholder<"sg_y1", std::int32_t, shape<3>>();
  auto v0 = tf::placeholder<"sg_w0", double, shape<3>>();
  auto v1 = tf::placeholder<"sg_w1", double, shape<3>>();
  auto loss = tf::sequence_loss(std::tuple{x0, x1}, std::tuple{t0, t1}, std::tuple{v0, v1});
  tf::session sess(loss);
  const tf::storage_t<std::int32_t, shape<3>> ty0 = {2, 0, 3}, ty1 = {1, 3, 0};
  const tf::storage_t<double, shape<3>> tw0 = {1.0, 0.5, 0.3}, tw1 = {0.25, 2.0, 0.7};
  const auto a = fd_check::uniform<shape<3, 4>>(-2.0, 2.0);
  const auto b = fd_check::uniform<shape<3, 4>>(-2.0, 2.0);
  {
    INFO("step 0");
    fd_check::check_gradient(sess, loss, x0, a, tf::feed(x1, b), tf::feed(t0, ty0), tf::feed(t1, ty1),
                             tf::feed(v0, tw0), tf::feed(v1, tw1));
  }
  {
    INFO("step 1");
    fd_check::check_gradient(sess, loss, x1, b, tf::feed(x0, a), tf::feed(t0, ty0), tf::feed(t1, ty1),
                             tf::feed(v0, tw0), tf::feed(v1, tw1));
  }
  {
    INFO("the weights");
    fd_check::check_gradient(sess, loss, v1, tw1, tf::feed(x0, a), tf::feed(x1, b), tf::feed(t0, ty0),
                             tf::feed(t1, ty1), tf::feed(v0, tw0));
  }
}

TEST_CASE("sequence_loss over tf::unstack's steps of [batch, time, classes] logits") {
  // The steps as a static_rnn's outputs and a model's per-step placeholders arrive: the
  // tuples of unstack<1>, equal to the loss over the steps fed one by one.
  auto x = tf::placeholder<"su_l", double, shape<dyn, 2, 4>>();
  auto y = tf::placeholder<"su_y", std::int32_t, shape<dyn, 2>>();
  auto v = tf::placeholder<"su_w", double, shape<dyn, 2>>();
  auto loss = tf::sequence_loss(tf::unstack<1>(x), tf::unstack<1>(y), tf::unstack<1>(v));
  tf::session sess(loss);
  xt::xtensor<double, 3> xv = xt::zeros<double>({3, 2, 4});
  xt::xtensor<std::int32_t, 2> yv = xt::zeros<std::int32_t>({3, 2});
  xt::xtensor<double, 2> wv = xt::zeros<double>({3, 2});
  for (std::size_t r = 0; r < 3; ++r)
    for (std::size_t t = 0; t < 2; ++t) {
      for (std::size_t j = 0; j < 4; ++j) xv(r, t, j) = (t == 0 ? l0 : l1)(r, j);
      yv(r, t) = (t == 0 ? lab0 : lab1)(r);
      wv(r, t) = (t == 0 ? w0 : w1)(r);
    }
  double total = 0;
  for (std::size_t r = 0; r < 3; ++r)
    total += (xent(l0, r, std::size_t(lab0(r))) * w0(r) + xent(l1, r, std::size_t(lab1(r))) * w1(r)) /
             (w0(r) + w1(r) + 1e-12);
  CHECK(sess.run(loss, tf::feed(x, xv), tf::feed(y, yv), tf::feed(v, wv)) == doctest::Approx(total / 3).epsilon(1e-12));
}
