// Losses and the dense layer: values, numerical stability for large logits, names.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

TEST_CASE("softmax cross-entropy: per-row values, stable for logits of 1000") {
  auto logits = tf::placeholder<"xent_logits", double, tf::shape<2, 3>>();
  auto labels = tf::placeholder<"xent_labels", double, tf::shape<2, 3>>();
  auto xent = tf::softmax_cross_entropy_with_logits(labels, logits);
  tf::session sess(xent);
  const xt::xtensor_fixed<double, xt::xshape<2, 3>> l = {{1, 2, 3}, {1000, 0, -1000}};
  const xt::xtensor_fixed<double, xt::xshape<2, 3>> y = {{0, 0, 1}, {0.5, 0.5, 0}};
  const auto got = sess.run(xent, tf::feed(logits, l), tf::feed(labels, y));
  const double lse0 = std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0));
  CHECK(got(0) == doctest::Approx(lse0 - 3));
  CHECK(got(1) == doctest::Approx(0.5 * 0 + 0.5 * 1000));  // -0.5*log p0 - 0.5*log p1, p0 = 1, log p1 = -1000
  CHECK(std::isfinite(got(1)));
}

TEST_CASE("sparse softmax cross-entropy equals the dense one with one-hot labels, and its gradient") {
  auto logits = tf::placeholder<"sparse_logits", float, tf::shape<3, 4>>();
  auto classes = tf::placeholder<"sparse_classes", std::int32_t, tf::shape<3>>();
  auto sparse = tf::sparse_softmax_cross_entropy_with_logits(classes, logits);
  auto dense = tf::softmax_cross_entropy_with_logits(tf::one_hot<4>(classes), logits);
  auto [g_sparse] = tf::gradients(tf::reduce_mean(sparse), logits);
  auto [g_dense] = tf::gradients(tf::reduce_mean(dense), logits);
  tf::session sess(sparse, dense);
  const xt::xtensor_fixed<float, xt::xshape<3, 4>> l = {{1, 2, 3, 4}, {-1, 0, 500, 2}, {0.5, 0.25, 0, -3}};
  const xt::xtensor_fixed<std::int32_t, xt::xshape<3>> c = {3, 0, 2};
  auto [s, d, gs, gd] = sess.run(tf::fetch(sparse, dense, g_sparse, g_dense), tf::feed(logits, l), tf::feed(classes, c));
  for (std::size_t i = 0; i < 3; ++i) CHECK(s(i) == doctest::Approx(d(i)).epsilon(1e-5));
  CHECK(s(1) == doctest::Approx(501.0f));
  for (std::size_t i = 0; i < gs.size(); ++i) CHECK(gs.data()[i] == doctest::Approx(gd.data()[i]).epsilon(1e-5));
  const xt::xtensor_fixed<std::int32_t, xt::xshape<3>> bad = {3, 4, 0};
  CHECK_THROWS_WITH_AS(sess.run(sparse, tf::feed(logits, l), tf::feed(classes, bad)),
                       "InvalidArgument: Received a label value of 4 which is outside the valid range of [0, 4)",
                       tf::invalid_argument_error);
}

TEST_CASE("sigmoid cross-entropy matches the naive formula and stays finite for large logits") {
  auto x = tf::placeholder<"sig_x", double, tf::shape<4>>();
  auto z = tf::placeholder<"sig_z", double, tf::shape<4>>();
  auto loss = tf::sigmoid_cross_entropy_with_logits(z, x);
  tf::session sess(loss);
  const xt::xtensor_fixed<double, xt::xshape<4>> xv = {-2, 0.5, 3, 800}, zv = {1, 0, 0.25, 1};
  const auto got = sess.run(loss, tf::feed(x, xv), tf::feed(z, zv));
  for (std::size_t i = 0; i < 3; ++i) {
    const double s = 1 / (1 + std::exp(-xv(i)));
    CHECK(got(i) == doctest::Approx(-zv(i) * std::log(s) - (1 - zv(i)) * std::log(1 - s)));
  }
  CHECK(got(3) == doctest::Approx(0.0));
}

TEST_CASE("mean_squared_error and l2_loss") {
  auto p = tf::placeholder<"mse_p", double, tf::shape<3>>();
  auto t = tf::placeholder<"mse_t", double, tf::shape<3>>();
  tf::session sess(tf::mean_squared_error(t, p), tf::l2_loss(p));
  const xt::xtensor_fixed<double, xt::xshape<3>> pv = {1, 2, 3}, tv = {1, 0, 0};
  CHECK(sess.run(tf::mean_squared_error(t, p), tf::feed(p, pv), tf::feed(t, tv)) == doctest::Approx(13.0 / 3));
  CHECK(sess.run(tf::l2_loss(p), tf::feed(p, pv)) == doctest::Approx(7.0));
}

TEST_CASE("dense layer: variables named as TensorFlow names them, activation applied") {
  auto x = tf::placeholder<"dense_x", float, tf::shape<tf::dyn, 3>>();
  auto out = tf::layers::dense<2>(x, tf::activation::relu, tf::init::ones(), tf::init::constant(-1.0));
  auto other = tf::layers::dense<4, "layer1/dense">(x);
  const auto g = tf::describe_graph(out, other);
  CHECK(g.find("dense/kernel") != nullptr);
  CHECK(g.find("dense/kernel")->shape == "[3, 2]");
  CHECK(g.find("dense/bias") != nullptr);
  CHECK(g.find("layer1/dense/kernel")->shape == "[3, 4]");
  CHECK(g.find("dense/Relu") != nullptr);  // named as tf.layers.dense names it
  tf::session sess(out);
  sess.initialize_all();
  const xt::xtensor<float, 2> xv = {{1, 2, 3}, {-1, -1, 0.5}};
  CHECK(sess.run(out, tf::feed(x, xv)) == xt::xtensor<float, 2>{{5, 5}, {0, 0}});
}

// clip_ops_test.py: testClipByValue, testClipByValueNonFinite, and lo > hi (TensorFlow
// applies the minimum with hi first, then the maximum with lo, so lo wins).
TEST_CASE("clip_by_value as TensorFlow's clip_ops_test") {
  auto x = tf::placeholder<"clip_x", double, tf::shape<2, 3>>();
  tf::session sess(x);
  const xt::xtensor_fixed<double, xt::xshape<2, 3>> v{{-5, 2, 3}, {4, 5, 6}};
  const auto got = sess.run(tf::clip_by_value(x, tf::constant<-4.4>(), tf::constant<4.4>()), tf::feed(x, v));
  CHECK(got == xt::xtensor_fixed<double, xt::xshape<2, 3>>{{-4.4, 2, 3}, {4, 4.4, 4.4}});
  const double inf = std::numeric_limits<double>::infinity();
  const xt::xtensor_fixed<double, xt::xshape<2, 3>> nonfinite{{std::nan(""), inf, -inf}, {0, 1, -1}};
  const auto nf = sess.run(tf::clip_by_value(x, tf::constant<-4.0>(), tf::constant<4.0>()), tf::feed(x, nonfinite));
  CHECK(std::isnan(nf(0, 0)));
  CHECK(nf(0, 1) == 4.0);
  CHECK(nf(0, 2) == -4.0);
  const auto crossed = sess.run(tf::clip_by_value(x, tf::constant<2.0>(), tf::constant<1.0>()), tf::feed(x, v));
  CHECK(crossed == xt::xtensor_fixed<double, xt::xshape<2, 3>>{{2, 2, 2}, {2, 2, 2}});
}

TEST_CASE("clip_by_value and clip_by_norm") {
  auto t = tf::placeholder<"clip_t", double, tf::shape<2>>();
  tf::session sess(t);
  const xt::xtensor_fixed<double, xt::xshape<2>> v = {3, -4};
  CHECK(sess.run(tf::clip_by_value(t, tf::constant<-1.0>(), tf::constant<2.0>()), tf::feed(t, v)) ==
        xt::xtensor_fixed<double, xt::xshape<2>>{2, -1});
  const auto n = sess.run(tf::clip_by_norm(t, tf::constant<1.0>()), tf::feed(t, v));
  CHECK(n(0) == doctest::Approx(0.6));
  CHECK(n(1) == doctest::Approx(-0.8));
  const auto unchanged = sess.run(tf::clip_by_norm(t, tf::constant<10.0>()), tf::feed(t, v));
  CHECK(unchanged(0) == doctest::Approx(3.0));
}
