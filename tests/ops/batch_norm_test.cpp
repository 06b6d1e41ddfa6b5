// Batch normalization (ops/normalization.hpp): tf.nn.moments, tf.nn.batch_normalization,
// tf.nn.fused_batch_norm and tf.layers.batch_normalization.
//
// Ported from TensorFlow's tests: nn_batchnorm_test.py (_npBatchNorm: (x - m) / sqrt(v + eps)
// * gamma + beta, x [3, 5, 4, 2]), nn_fused_batchnorm_test.py (_training_ref: y from
// moments + batch_normalization, batch_variance = the moments' variance * n / (n - 1);
// _inference_ref; shapes [1, 1, 6, 1], [1, 1, 6, 2], [2, 2, 6, 2]; gradients checked here by
// central differences in double), and the layer's moving statistics after training steps,
// hand-computed; tensorflow/python/layers/normalization_test.py's BNTest cases for the last
// axis (test4DInputAxis3, testNegativeAxis, testBooleanLearningPhase, testFunctionalNoReuse,
// testFunctionalReuse, test3DInputAxis2) at the end.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/train/moving_average.hpp>
#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"
#include "../support/allocation_counter.hpp"

namespace tf = typeflow;
using tf::shape;
using typeflow_test::allocation_count;

namespace {

template <class S>
using value_t = tf::storage_t<double, S>;

// Per-channel mean and biased variance over all but the last axis, in double.
template <class V>
void channel_moments(const V& x, std::size_t c, std::vector<double>& mean, std::vector<double>& var) {
  const std::size_t rows = x.size() / c;
  mean.assign(c, 0.0);
  var.assign(c, 0.0);
  for (std::size_t i = 0; i < x.size(); ++i) mean[i % c] += x.data()[i] / static_cast<double>(rows);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double d = x.data()[i] - mean[i % c];
    var[i % c] += d * d / static_cast<double>(rows);
  }
}

}  // namespace

TEST_CASE("moments<0>(x) and moments<0>(x, keep_dims): mean and biased variance") {
  auto x = tf::placeholder<"mo_x", double, shape<4, 2>>();
  auto m = tf::moments<0>(x);
  auto k = tf::moments<0>(x, tf::keep_dims);
  static_assert(std::is_same_v<tf::shape_of<decltype(m.variance)>, shape<2>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(k.mean)>, shape<1, 2>>);
  tf::session sess(m.mean, m.variance, k.mean, k.variance);
  const value_t<shape<4, 2>> xv{{1, 2}, {3, 4}, {5, 6}, {7, 9}};
  const auto [mean, var, kmean, kvar] = sess.run(tf::fetch(m.mean, m.variance, k.mean, k.variance), tf::feed(x, xv));
  CHECK(mean(0) == doctest::Approx(4.0));
  CHECK(mean(1) == doctest::Approx(5.25));
  CHECK(var(0) == doctest::Approx(5.0));
  CHECK(var(1) == doctest::Approx(6.6875));
  CHECK(kmean(0, 1) == doctest::Approx(5.25));
  CHECK(kvar(0, 1) == doctest::Approx(6.6875));
}

TEST_CASE("batch_normalization matches _npBatchNorm on [3, 5, 4, 2] (nn_batchnorm_test)") {
  using X = shape<3, 5, 4, 2>;
  auto x = tf::placeholder<"bn_x", double, X>();
  auto m = tf::placeholder<"bn_m", double, shape<2>>();
  auto v = tf::placeholder<"bn_v", double, shape<2>>();
  auto beta = tf::placeholder<"bn_beta", double, shape<2>>();
  auto gamma = tf::placeholder<"bn_gamma", double, shape<2>>();
  auto y = tf::batch_normalization(x, m, v, beta, gamma, tf::constant<0.001>());
  tf::session sess(y);
  const auto xv = fd_check::uniform<X>(-3, 3);
  const value_t<shape<2>> mv{0.3, -0.7}, vv{0.5, 1.7}, bv{0.1, -0.2}, gv{1.5, 0.4};
  const value_t<X> got = sess.run(y, tf::feed(x, xv), tf::feed(m, mv), tf::feed(v, vv), tf::feed(beta, bv),
                                  tf::feed(gamma, gv));
  for (std::size_t i = 0; i < xv.size(); ++i) {
    const std::size_t j = i % 2;
    const double want = (xv.data()[i] - mv(j)) / std::sqrt(vv(j) + 0.001) * gv(j) + bv(j);
    CHECK(got.data()[i] == doctest::Approx(want).epsilon(1e-12));
  }
  // The gradients of the composed op (TF's own ops' rules), by central differences.
  auto loss = tf::reduce_sum(y * tf::constant<"bn_w">(fd_check::uniform<X>()));
  tf::session lsess(loss);
  fd_check::check_gradient(lsess, loss, x, xv, tf::feed(m, mv), tf::feed(v, vv), tf::feed(beta, bv),
                           tf::feed(gamma, gv));
  fd_check::check_gradient(lsess, loss, v, vv, tf::feed(x, xv), tf::feed(m, mv), tf::feed(beta, bv),
                           tf::feed(gamma, gv));
}

namespace {

// nn_fused_batchnorm_test._test_training: y against moments + batch_normalization, the mean
// against the moments' mean, the variance against the moments' variance * n / (n - 1).
template <class X>
void check_fused_training() {
  constexpr std::size_t c = X::dims[3];
  auto x = tf::placeholder<"ft_x", float, X>();
  auto scale = tf::placeholder<"ft_scale", float, shape<c>>();
  auto offset = tf::placeholder<"ft_offset", float, shape<c>>();
  auto r = tf::fused_batch_norm(x, scale, offset, tf::constant<0.001>());
  tf::session sess(r.y, r.batch_mean, r.batch_variance);
  tf::storage_t<float, X> xv;
  for (std::size_t i = 0; i < xv.size(); ++i) xv.data()[i] = static_cast<float>(std::sin(1.3 * i) * 2 + 0.5);
  tf::storage_t<float, shape<c>> sv, ov;
  for (std::size_t j = 0; j < c; ++j) {
    sv(j) = 0.5f + static_cast<float>(j);
    ov(j) = 0.25f - static_cast<float>(j);
  }
  const auto [y, mean, var] = sess.run(tf::fetch(r.y, r.batch_mean, r.batch_variance), tf::feed(x, xv),
                                       tf::feed(scale, sv), tf::feed(offset, ov));
  std::vector<double> m, v;
  channel_moments(xv, c, m, v);
  const double n = static_cast<double>(xv.size() / c);
  for (std::size_t j = 0; j < c; ++j) {
    CHECK(mean(j) == doctest::Approx(m[j]).epsilon(1e-5));
    CHECK(var(j) == doctest::Approx(v[j] * n / std::max(n - 1.0, 1.0)).epsilon(1e-5));
  }
  for (std::size_t i = 0; i < xv.size(); ++i) {
    const std::size_t j = i % c;
    const double want = (xv.data()[i] - m[j]) / std::sqrt(v[j] + 0.001) * sv(j) + ov(j);
    CHECK(std::abs(y.data()[i] - want) <= 1e-3);
  }
}

}  // namespace

TEST_CASE("fused_batch_norm training [1, 1, 6, 1] (nn_fused_batchnorm_test)") { check_fused_training<shape<1, 1, 6, 1>>(); }
TEST_CASE("fused_batch_norm training [1, 1, 6, 2]") { check_fused_training<shape<1, 1, 6, 2>>(); }
TEST_CASE("fused_batch_norm training [2, 2, 6, 2]") { check_fused_training<shape<2, 2, 6, 2>>(); }

TEST_CASE("fused_batch_norm inference [2, 2, 6, 2] uses the given mean and variance (_inference_ref)") {
  auto x = tf::placeholder<"fi_x", float, shape<tf::dyn, 2, 6, 2>>();
  auto scale = tf::placeholder<"fi_scale", float, shape<2>>();
  auto offset = tf::placeholder<"fi_offset", float, shape<2>>();
  auto mean = tf::placeholder<"fi_mean", float, shape<2>>();
  auto var = tf::placeholder<"fi_var", float, shape<2>>();
  auto r = tf::fused_batch_norm(x, scale, offset, mean, var);
  tf::session sess(r.y);
  xt::xtensor<float, 4> xv = xt::xtensor<float, 4>::from_shape({2, 2, 6, 2});
  for (std::size_t i = 0; i < xv.size(); ++i) xv.data()[i] = static_cast<float>(std::cos(0.7 * i) * 3);
  const tf::storage_t<float, shape<2>> sv{1.5f, 0.5f}, ov{-1.0f, 2.0f}, mv{0.25f, -0.5f}, vv{2.0f, 0.75f};
  const auto y = sess.run(r.y, tf::feed(x, xv), tf::feed(scale, sv), tf::feed(offset, ov), tf::feed(mean, mv),
                          tf::feed(var, vv));
  REQUIRE(y.size() == xv.size());
  for (std::size_t i = 0; i < xv.size(); ++i) {
    const std::size_t j = i % 2;
    const double want = (xv.data()[i] - mv(j)) / std::sqrt(vv(j) + 0.001) * sv(j) + ov(j);
    CHECK(std::abs(y.data()[i] - want) <= 1e-5);
  }
}

TEST_CASE("fused_batch_norm gradients of x, scale and offset by central differences (double)") {
  using X = shape<2, 2, 3, 3>;
  auto x = tf::placeholder<"fg_x", double, X>();
  auto scale = tf::placeholder<"fg_scale", double, shape<3>>();
  auto offset = tf::placeholder<"fg_offset", double, shape<3>>();
  auto mean = tf::placeholder<"fg_mean", double, shape<3>>();
  auto var = tf::placeholder<"fg_var", double, shape<3>>();
  auto w = tf::constant<"fg_w">(fd_check::uniform<X>());
  const auto xv = fd_check::uniform<X>(-2, 2);
  const value_t<shape<3>> sv{1.5, 0.5, -0.8}, ov{0.1, -0.3, 0.7}, mv{0.2, -0.1, 0.4}, vv{0.9, 1.3, 0.6};
  {
    INFO("training: the batch's statistics depend on x");
    auto loss = tf::reduce_sum(tf::fused_batch_norm(x, scale, offset).y * w);
    tf::session sess(loss);
    fd_check::check_gradient(sess, loss, x, xv, tf::feed(scale, sv), tf::feed(offset, ov));
    fd_check::check_gradient(sess, loss, scale, sv, tf::feed(x, xv), tf::feed(offset, ov));
    fd_check::check_gradient(sess, loss, offset, ov, tf::feed(x, xv), tf::feed(scale, sv));
  }
  {
    INFO("inference: the given statistics");
    auto loss = tf::reduce_sum(tf::fused_batch_norm(x, scale, offset, mean, var).y * w);
    tf::session sess(loss);
    fd_check::check_gradient(sess, loss, x, xv, tf::feed(scale, sv), tf::feed(offset, ov), tf::feed(mean, mv),
                             tf::feed(var, vv));
    fd_check::check_gradient(sess, loss, scale, sv, tf::feed(x, xv), tf::feed(offset, ov), tf::feed(mean, mv),
                             tf::feed(var, vv));
    fd_check::check_gradient(sess, loss, offset, ov, tf::feed(x, xv), tf::feed(scale, sv), tf::feed(mean, mv),
                             tf::feed(var, vv));
  }
}

TEST_CASE("layers::batch_normalization: moving statistics after 3 training steps, hand-computed") {
  using X = shape<2, 1, 2, 2>;
  auto x = tf::placeholder<"lb_x", double, X>();
  auto training = tf::placeholder<"lb_training", bool>();
  auto bn = tf::layers::batch_normalization<"bn">(x, training, 0.9, 1e-3);
  auto loss = tf::reduce_sum(bn.output * tf::constant<"lb_w">(fd_check::uniform<X>()));
  auto train_op = bn.with_updates(tf::train::gradient_descent<"LB_SGD">(0.1).minimize(loss));
  auto moving_mean = tf::variable<"bn/moving_mean", double, shape<2>, tf::init::zeros()>(tf::not_trainable);
  auto moving_var = tf::variable<"bn/moving_variance", double, shape<2>, tf::init::ones()>(tf::not_trainable);
  auto gamma = tf::variable<"bn/gamma", double, shape<2>, tf::init::ones()>();
  auto beta = tf::variable<"bn/beta", double, shape<2>, tf::init::zeros()>();
  tf::session sess(train_op, loss, moving_mean, moving_var, gamma, beta);
  sess.initialize_all();

  std::vector<double> want_mean{0, 0}, want_var{1, 1}, m, v;
  for (int step = 0; step < 3; ++step) {
    value_t<X> xv;
    for (std::size_t i = 0; i < xv.size(); ++i) xv.data()[i] = std::sin(0.9 * i + step) * (1 + step) + step;
    sess.run(train_op, tf::feed(x, xv), tf::feed(training, true));
    channel_moments(xv, 2, m, v);
    for (std::size_t j = 0; j < 2; ++j) {  // rank 4: the fused layer's Bessel-corrected variance
      want_mean[j] -= (want_mean[j] - m[j]) * (1 - 0.9);
      want_var[j] -= (want_var[j] - v[j] * 4.0 / 3.0) * (1 - 0.9);
    }
  }
  const auto mm = sess.run(moving_mean);
  const auto mv = sess.run(moving_var);
  for (std::size_t j = 0; j < 2; ++j) {
    CHECK(mm(j) == doctest::Approx(want_mean[j]).epsilon(1e-12));
    CHECK(mv(j) == doctest::Approx(want_var[j]).epsilon(1e-12));
  }
  // gamma trains; the moving statistics are not the optimizer's (no gradient reaches them).
  CHECK(sess.run(gamma)(0) != 1.0);
  const value_t<X> xv = fd_check::uniform<X>();
  sess.run(tf::train::gradient_descent<"LB_SGD">(0.1).minimize(loss), tf::feed(x, xv), tf::feed(training, true));
  CHECK(sess.run(moving_mean) == mm);
  CHECK(sess.run(moving_var) == mv);

  SUBCASE("training false: the moving statistics normalize, and the update leaves them unchanged") {
    const auto before_mean = sess.run(moving_mean);
    const auto before_var = sess.run(moving_var);
    const auto out = sess.run(tf::fetch(bn.output, bn.update_ops), tf::feed(x, xv), tf::feed(training, false));
    CHECK(sess.run(moving_mean) == before_mean);
    CHECK(sess.run(moving_var) == before_var);
    const auto g = sess.run(gamma);
    const auto b = sess.run(beta);
    const auto& y = std::get<0>(out);
    for (std::size_t i = 0; i < xv.size(); ++i) {
      const std::size_t j = i % 2;
      const double want = (xv.data()[i] - before_mean(j)) / std::sqrt(before_var(j) + 1e-3) * g(j) + b(j);
      CHECK(y.data()[i] == doctest::Approx(want).epsilon(1e-12));
    }
  }
}

TEST_CASE("layers::batch_normalization: gradient of x by central differences, training true and false") {
  using X = shape<3, 2, 2, 2>;
  auto x = tf::placeholder<"lg_x", double, X>();
  auto training = tf::placeholder<"lg_training", bool>();
  auto bn = tf::layers::batch_normalization<"lg_bn">(x, training);
  auto loss = tf::reduce_sum(bn.output * tf::constant<"lg_w">(fd_check::uniform<X>()));
  auto moving_var = tf::variable<"lg_bn/moving_variance", double, shape<2>, tf::init::ones()>(tf::not_trainable);
  tf::session sess(loss, bn.update_ops, moving_var);
  sess.initialize_all();
  const auto xv = fd_check::uniform<X>(-2, 2);
  sess.run(bn.update_ops, tf::feed(x, xv), tf::feed(training, true));  // moving statistics not the defaults
  CHECK(sess.run(moving_var)(0) != 1.0);
  fd_check::check_gradient(sess, loss, x, xv, tf::feed(training, true));
  fd_check::check_gradient(sess, loss, x, xv, tf::feed(training, false));
}

TEST_CASE("layers::batch_normalization on [batch, features] (non-fused in TF: biased variance)") {
  auto x = tf::placeholder<"l2_x", float, shape<4, 3>>();
  auto bn = tf::layers::batch_normalization<"bn2">(x, tf::constant<true>(), 0.5);
  auto moving_var = tf::variable<"bn2/moving_variance", float, shape<3>, tf::init::ones()>(tf::not_trainable);
  tf::session sess(bn.output, bn.update_ops, moving_var);
  sess.initialize_all();
  const tf::storage_t<float, shape<4, 3>> xv{{1, 2, 3}, {3, 2, 1}, {5, 6, 7}, {7, 6, 5}};
  const auto y = sess.run(bn.output, tf::feed(x, xv));
  CHECK(y(0, 0) == doctest::Approx(-3.0 / std::sqrt(5.0 + 1e-3)).epsilon(1e-5));
  sess.run(bn.update_ops, tf::feed(x, xv));
  CHECK(sess.run(moving_var)(0) == doctest::Approx(1 - (1 - 5.0) * 0.5).epsilon(1e-6));  // 5, not 20/3
}

TEST_CASE("a steady training step of a batch-normalized model allocates nothing") {
  auto x = tf::placeholder<"al_x", float, shape<4, 3, 3, 2>>();
  auto training = tf::placeholder<"al_training", bool>();
  auto bn = tf::layers::batch_normalization<"al_bn">(x, training);
  auto loss = tf::reduce_mean(tf::square(bn.output - tf::constant<0.5>()));
  auto train_op = bn.with_updates(tf::train::gradient_descent<"AL_SGD">(0.1).minimize(loss));
  tf::session sess(train_op, loss);
  sess.initialize_all();
  tf::storage_t<float, shape<4, 3, 3, 2>> xv;
  for (std::size_t i = 0; i < xv.size(); ++i) xv.data()[i] = static_cast<float>((i * 7) % 11);
  sess.run(tf::fetch(loss, train_op), tf::feed(x, xv), tf::feed(training, true));
  sess.run(loss, tf::feed(x, xv), tf::feed(training, false));
  const long before = allocation_count();
  for (int i = 0; i < 20; ++i) sess.run(tf::fetch(loss, train_op), tf::feed(x, xv), tf::feed(training, true));
  CHECK(allocation_count() == before);
}

// --- more of nn_fused_batchnorm_test.py: testTrainingShape3, testTrainingShape6, testInferenceShape5

TEST_CASE("fused_batch_norm training [1, 2, 1, 6] (testTrainingShape3) and [1, 1, 1, 1] (testTrainingShape6)") {
  check_fused_training<shape<1, 2, 1, 6>>();
  // One sample per channel: the corrected variance divides by max(n - 1, 1) = 1, so it is 0.
  check_fused_training<shape<1, 1, 1, 1>>();
}

TEST_CASE("fused_batch_norm inference of an empty batch [0, 131, 127, 6] (testInferenceShape5)") {
  auto x = tf::placeholder<"fe_x", float, shape<tf::dyn, 131, 127, 6>>();
  auto p = tf::placeholder<"fe_p", float, shape<6>>();
  auto r = tf::fused_batch_norm(x, p, p, p, p);
  tf::session sess(r.y);
  const auto y = sess.run(r.y, tf::feed(x, xt::xtensor<float, 4>::from_shape({0, 131, 127, 6})),
                          tf::feed(p, tf::storage_t<float, shape<6>>{1, 1, 1, 1, 1, 1}));
  CHECK(y.size() == 0);
  CHECK(y.shape()[0] == 0);
}

// --- tensorflow/python/layers/normalization_test.py (BNTest) ---------------------------------
//
// Its inputs are np.random.random(shape) + 100 (float32; testFunctionalReuse: without + 100):
// here pseudo-random values in [100, 101) ([0, 1)) from a fixed LCG. Its checks, redone on the fetched values in double:
// normed = (output - epsilon) * gamma + beta has mean 0 (places=1: |m| < 0.05) and std 1;
// after 100 steps with momentum 0.9 the moving statistics are np.mean and np.square(np.std)
// of the inputs over all but the normalized axis (atol 1e-2); with training false the
// output is normalized again.

namespace {

template <class S>
tf::storage_t<float, S> random_plus(std::uint32_t seed, float offset = 100.0f) {
  tf::storage_t<float, S> v{};
  for (std::size_t i = 0; i < v.size(); ++i) {
    seed = seed * 1664525u + 1013904223u;
    v.data()[i] = offset + static_cast<float>(seed >> 8) / 16777216.0f;
  }
  return v;
}

/// assertAlmostEqual(np.mean(normed), 0, places) and assertAlmostEqual(np.std(normed), 1, places=1)
/// with gamma ones and beta zeros, as the layer creates them.
template <class V>
void check_normalized(const V& out, double epsilon, double mean_tolerance) {
  double sum = 0, sq = 0;
  const double n = static_cast<double>(out.size());
  for (std::size_t i = 0; i < out.size(); ++i) sum += out.data()[i] - epsilon;
  const double mean = sum / n;
  for (std::size_t i = 0; i < out.size(); ++i) sq += std::pow(out.data()[i] - epsilon - mean, 2);
  CHECK(std::abs(mean) < mean_tolerance);
  CHECK(std::abs(std::sqrt(sq / n) - 1.0) < 0.05);
}

/// np.mean and np.square(np.std) of x over every axis but the last.
template <class V, class M>
void check_moving_statistics(const V& x, std::size_t c, const M& moving_mean, const M& moving_var) {
  std::vector<double> m, v;
  channel_moments(x, c, m, v);
  for (std::size_t j = 0; j < c; ++j) {
    INFO("channel " << j);
    CHECK(std::abs(moving_mean(j) - m[j]) <= 1e-2);
    CHECK(std::abs(moving_var(j) - v[j]) <= 1e-2);
  }
}

}  // namespace

TEST_CASE("normalization_test.py BNTest on [5, 4, 3, 6] over the last axis, momentum 0.9, epsilon 1e-3") {
  using X = shape<5, 4, 3, 6>;
  auto x1 = tf::placeholder<"bt_x1", float, X>();
  auto x2 = tf::placeholder<"bt_x2", float, X>();
  auto training = tf::placeholder<"bt_training", bool>();
  auto bn1 = tf::layers::batch_normalization<"bn">(x1, training, 0.9, 1e-3);
  auto bn2 = tf::layers::batch_normalization<"bn">(x2, training, 0.9, 1e-3);  // the same name: reuse=True
  auto on = tf::layers::batch_normalization<"bn">(x1, tf::constant<true>(), 0.9, 1e-3);
  auto off = tf::layers::batch_normalization<"bn">(x1, tf::constant<false>(), 0.9, 1e-3);
  static_assert(std::is_same_v<tf::shape_of<decltype(bn1.output)>, X>);
  auto moving_mean = tf::variable<"bn/moving_mean", float, shape<6>, tf::init::zeros()>(tf::not_trainable);
  auto moving_var = tf::variable<"bn/moving_variance", float, shape<6>, tf::init::ones()>(tf::not_trainable);
  // testCreateBN: tf.trainable_variables() == [gamma, beta]; the moving statistics are
  // trainable=False.
  static_assert(tf::is_trainable_v<decltype(tf::variable<"bn/gamma", float, shape<6>, tf::init::ones()>())> &&
                tf::is_trainable_v<decltype(tf::variable<"bn/beta", float, shape<6>, tf::init::zeros()>())>);
  static_assert(!tf::is_trainable_v<decltype(moving_mean)> && !tf::is_trainable_v<decltype(moving_var)>);
  tf::session sess(bn1.output, bn1.update_ops, bn2.output, bn2.update_ops, on.output, on.update_ops, off.output,
                   moving_mean, moving_var);
  sess.initialize_all();
  // An evaluation program's ema.variables_to_restore(sess) (TensorFlow's default: the
  // averages of the trainable variables) restores gamma and beta from their averages and
  // the moving statistics under their own names.
  {
    auto ema = tf::train::exponential_moving_average<"EMA">(0.99);
    using entries = boost::mp11::mp_rename<decltype(ema.variables_to_restore(sess)), boost::mp11::mp_list>;
    using gamma_t = decltype(tf::variable<"bn/gamma", float, shape<6>, tf::init::ones()>());
    static_assert(boost::mp11::mp_contains<entries, tf::train::saved_as_t<"bn/gamma/EMA", gamma_t>>::value);
    static_assert(boost::mp11::mp_contains<entries, tf::train::saved_as_t<"bn/moving_mean", decltype(moving_mean)>>::value);
    static_assert(boost::mp11::mp_contains<entries, tf::train::saved_as_t<"bn/moving_variance", decltype(moving_var)>>::value);
    static_assert(boost::mp11::mp_size<entries>::value == 4);
  }

  SUBCASE("test4DInputAxis3, testNegativeAxis, testFunctionalNoReuse: a bool placeholder") {
    // testFunctionalNoReuse / testCreateBN: the variables bn/gamma, bn/beta, bn/moving_mean,
    // bn/moving_variance, and two updates (bn.updates, UPDATE_OPS) of the moving statistics.
    const auto g = tf::describe_graph(bn1.output, bn1.update_ops);
    std::vector<std::string> variables, written;
    for (const auto& n : g.nodes) {
      if (n.op == "VariableV2") variables.push_back(n.name + " " + n.shape);
      for (const auto& w : n.writes) written.push_back(w);
    }
    std::sort(variables.begin(), variables.end());
    std::sort(written.begin(), written.end());
    CHECK(variables ==
          std::vector<std::string>{"bn/beta [6]", "bn/gamma [6]", "bn/moving_mean [6]", "bn/moving_variance [6]"});
    CHECK(written == std::vector<std::string>{"bn/moving_mean", "bn/moving_variance"});

    const auto xv = random_plus<X>(1);
    for (int step = 0; step < 100; ++step) {
      const auto out =
          std::get<0>(sess.run(tf::fetch(bn1.output, bn1.update_ops), tf::feed(x1, xv), tf::feed(training, true)));
      if (step % 33 == 0) check_normalized(out, 1e-3, 0.05);
    }
    check_moving_statistics(xv, 6, sess.run(moving_mean), sess.run(moving_var));
    check_normalized(sess.run(bn1.output, tf::feed(x1, xv), tf::feed(training, false)), 1e-3, 0.05);
  }
  SUBCASE("testBooleanLearningPhase: training=True and training=False layers sharing the variables") {
    const auto xv = random_plus<X>(2);
    for (int step = 0; step < 100; ++step) {
      const auto out = std::get<0>(sess.run(tf::fetch(on.output, on.update_ops), tf::feed(x1, xv)));
      if (step % 33 == 0) check_normalized(out, 1e-3, 0.005);  // places=2
    }
    check_moving_statistics(xv, 6, sess.run(moving_mean), sess.run(moving_var));
    check_normalized(sess.run(off.output, tf::feed(x1, xv)), 1e-3, 0.05);
  }
  SUBCASE("testFunctionalReuse: the second call's updates move the shared statistics") {
    const auto xv = random_plus<X>(3, 0.0f);  // np.random.random((5, 4, 3, 6)), no + 100 here
    tf::storage_t<float, X> out{};
    for (int step = 0; step < 100; ++step)
      out = std::get<0>(sess.run(tf::fetch(bn2.output, bn2.update_ops), tf::feed(x2, xv), tf::feed(training, true)));
    check_moving_statistics(xv, 6, sess.run(moving_mean), sess.run(moving_var));
    check_normalized(out, 1e-3, 0.005);
    check_normalized(sess.run(bn2.output, tf::feed(x2, xv), tf::feed(training, false)), 1e-3, 0.005);
    // The first call normalizes with the same moving statistics.
    CHECK(sess.run(bn1.output, tf::feed(x1, xv), tf::feed(training, false)) ==
          sess.run(bn2.output, tf::feed(x2, xv), tf::feed(training, false)));
  }
}

TEST_CASE("normalization_test.py test3DInputAxis2: [5, 4, 3] over the last axis (TF's non-fused layer)") {
  using X = shape<5, 4, 3>;
  auto x = tf::placeholder<"b3_x", float, X>();
  auto training = tf::placeholder<"b3_training", bool>();
  auto bn = tf::layers::batch_normalization<"b3">(x, training, 0.9, 1e-3);
  auto moving_mean = tf::variable<"b3/moving_mean", float, shape<3>, tf::init::zeros()>(tf::not_trainable);
  auto moving_var = tf::variable<"b3/moving_variance", float, shape<3>, tf::init::ones()>(tf::not_trainable);
  tf::session sess(bn.output, bn.update_ops, moving_mean, moving_var);
  sess.initialize_all();
  const auto xv = random_plus<X>(4);
  for (int step = 0; step < 100; ++step) {
    const auto out = std::get<0>(sess.run(tf::fetch(bn.output, bn.update_ops), tf::feed(x, xv), tf::feed(training, true)));
    if (step % 33 == 0) check_normalized(out, 1e-3, 0.05);
  }
  check_moving_statistics(xv, 3, sess.run(moving_mean), sess.run(moving_var));
  check_normalized(sess.run(bn.output, tf::feed(x, xv), tf::feed(training, false)), 1e-3, 0.05);
}
