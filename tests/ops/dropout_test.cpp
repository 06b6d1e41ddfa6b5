// Dropout (ops/dropout.hpp): tf.nn.dropout with `rate` and tf.layers.dropout.
//
// Ported from TensorFlow's nn_test.py DropoutTest: testDropout (x of ones [100, 100], rate
// 0.9, 0.5, 0.2: the kept fraction within 0.1 of 1 - rate — here within 0.03 of it over
// 10000 elements, 4.5 standard deviations at rate 0.5 — and kept values exactly
// x * (1 / (1 - rate))), testShapedDropout (noise_shape [batch, 1]: whole rows kept or
// dropped), testDropoutPlaceholderRate, and the seed's reproducibility; and the session-owned
// random state: masks differ across runs, repeat from a seed, stay out of checkpoints. Also
// tensorflow/python/layers/core_test.py DropoutTest (testFunctionalDropout, testDynamicRate,
// testCustomNoiseShape, testDynamicNoiseShape), at the end.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/train/saver.hpp>
#include <typeflow/typeflow.hpp>

#include "../support/allocation_counter.hpp"
#include "../support/checkpoint_testing.hpp"

namespace tf = typeflow;
namespace train = typeflow::train;
using tf::dyn;
using tf::shape;
using typeflow_test::allocation_count;

namespace {
using X = shape<100, 100>;
tf::storage_t<float, X> ramp() {
  tf::storage_t<float, X> v;
  for (std::size_t i = 0; i < v.size(); ++i) v.data()[i] = 1.0f + static_cast<float>(i % 17);
  return v;
}
}  // namespace

TEST_CASE("dropout keeps about 1 - rate of the elements, each exactly x * (1 / (1 - rate)) (testDropout)") {
  auto x = tf::placeholder<"dr_x", float, X>();
  auto rate = tf::placeholder<"dr_rate", float>();
  auto y = tf::dropout<7>(x, rate);
  tf::session sess(y);
  const auto xv = ramp();
  for (const float r : {0.9f, 0.5f, 0.2f}) {
    const auto yv = sess.run(y, tf::feed(x, xv), tf::feed(rate, r));
    const float scale = 1.0f / (1.0f - r);
    std::size_t kept = 0;
    for (std::size_t i = 0; i < xv.size(); ++i) {
      if (yv.data()[i] != 0.0f) {
        ++kept;
        CHECK(yv.data()[i] == xv.data()[i] * scale);
      }
    }
    const double fraction = static_cast<double>(kept) / static_cast<double>(xv.size());
    INFO("rate " << r << ": kept " << fraction);
    CHECK(std::abs(fraction - (1.0 - r)) < 0.03);
  }
}

TEST_CASE("dropout with noise_shape [batch, 1] keeps or drops whole rows (testShapedDropout)") {
  auto x = tf::placeholder<"ds_x", double, shape<dyn, 10>>();
  auto y = tf::dropout<3, shape<dyn, 1>>(x, tf::constant<0.4>());
  tf::session sess(y);
  xt::xtensor<double, 2> xv = xt::ones<double>({400, 10});
  const auto yv = sess.run(y, tf::feed(x, xv));
  REQUIRE(yv.shape()[0] == 400);
  std::size_t kept_rows = 0;
  for (std::size_t r = 0; r < 400; ++r) {
    const double first = yv(r, 0);
    CHECK((first == 0.0 || first == 1.0 / (1.0 - 0.4)));
    for (std::size_t c = 1; c < 10; ++c) CHECK(yv(r, c) == first);
    kept_rows += first != 0.0;
  }
  CHECK(std::abs(static_cast<double>(kept_rows) / 400.0 - 0.6) < 0.1);
}

TEST_CASE("masks differ from run to run and repeat from the graph seed and the op seed") {
  auto x = tf::placeholder<"dp_x", float, X>();
  auto y = tf::dropout<11>(x, tf::constant<0.5>());
  auto z = tf::dropout<12>(x, tf::constant<0.5>());
  const auto xv = ramp();
  auto masks = [&](std::uint64_t graph_seed) {
    tf::session sess(y, z);
    sess.set_random_seed(graph_seed);
    auto a = sess.run(y, tf::feed(x, xv));
    auto b = sess.run(y, tf::feed(x, xv));
    auto c = sess.run(z, tf::feed(x, xv));
    return std::make_tuple(a, b, c);
  };
  const auto [a1, b1, c1] = masks(42);
  const auto [a2, b2, c2] = masks(42);
  const auto [a3, b3, c3] = masks(43);
  CHECK(a1 == a2);  // a new session with the same seeds draws the same masks
  CHECK(b1 == b2);
  CHECK(c1 == c2);
  CHECK(a1 != b1);  // each run draws a new mask
  CHECK(a1 != c1);  // another op seed, another stream
  CHECK(a1 != a3);  // another graph seed, other masks
}

TEST_CASE("the gradient is the same mask times the gradient: g * x-independent mask, one draw per run") {
  auto x = tf::placeholder<"dg_x", double, shape<50>>();
  auto w = tf::placeholder<"dg_w", double, shape<50>>();
  auto y = tf::dropout<5>(x, tf::constant<0.25>());
  auto loss = tf::reduce_sum(y * w);
  auto g = tf::gradient(loss, x);
  tf::session sess(y, g);
  tf::storage_t<double, shape<50>> xv, wv;
  for (std::size_t i = 0; i < 50; ++i) {
    xv(i) = 1.0 + static_cast<double>(i);
    wv(i) = 0.5 - 0.03 * static_cast<double>(i);
  }
  for (int run = 0; run < 3; ++run) {
    const auto [yv, gv] = sess.run(tf::fetch(y, g), tf::feed(x, xv), tf::feed(w, wv));
    std::size_t dropped = 0;
    for (std::size_t i = 0; i < 50; ++i) {
      const double mask = yv(i) / xv(i);  // 0 or 1 / (1 - rate)
      CHECK((mask == 0.0 || mask == doctest::Approx(1.0 / 0.75)));
      CHECK(gv(i) == doctest::Approx(wv(i) * mask));
      dropped += mask == 0.0;
    }
    CHECK(dropped > 0);
    CHECK(dropped < 50);
  }
}

TEST_CASE("layers::dropout is x when training is false, and draws nothing then") {
  auto x = tf::placeholder<"dl_x", float, X>();
  auto training = tf::placeholder<"dl_training", bool>();
  auto y = tf::layers::dropout<9>(x, tf::constant<0.5>(), training);
  auto state = tf::dropout_state_node<9>{};
  tf::session sess(y, state);
  sess.initialize_all();
  const auto xv = ramp();
  CHECK(sess.run(y, tf::feed(x, xv), tf::feed(training, false)) == xv);
  CHECK(sess.run(state) == 0);
  const auto dropped = sess.run(y, tf::feed(x, xv), tf::feed(training, true));
  CHECK(dropped != xv);
  CHECK(sess.run(state) == 1);
}

TEST_CASE("rate outside [0, 1) is an InvalidArgument error; dropout of rate 0 is x") {
  auto x = tf::placeholder<"de_x", double, shape<4>>();
  auto rate = tf::placeholder<"de_rate", double>();
  auto y = tf::dropout(x, rate);
  tf::session sess(y);
  const tf::storage_t<double, shape<4>> xv{1, 2, 3, 4};
  CHECK_THROWS_AS(sess.run(y, tf::feed(x, xv), tf::feed(rate, 1.0)), tf::invalid_argument_error);
  CHECK_THROWS_AS(sess.run(y, tf::feed(x, xv), tf::feed(rate, -0.1)), tf::invalid_argument_error);
  CHECK(sess.run(y, tf::feed(x, xv), tf::feed(rate, 0.0)) == xv);
}

TEST_CASE("checkpoints leave the random state out: a checkpoint without it restores") {
  ckpt_testing::temp_dir dir;
  auto x = tf::placeholder<"dc_x", float, shape<8>>();
  auto w = tf::variable<"dc/w", float, shape<8>, tf::init::ones()>();
  auto y = tf::dropout<21>(x * w, tf::constant<0.5>());
  std::string path;
  {
    tf::session plain(w);  // a model without dropout
    plain.initialize_all();
    path = train::saver{}.save(plain, dir / "plain");
  }
  tf::session sess(y);
  train::saver{}.restore(sess, path);  // no key for the random state: not expected
  const tf::storage_t<float, shape<8>> xv{1, 2, 3, 4, 5, 6, 7, 8};
  const auto yv = sess.run(y, tf::feed(x, xv));  // an uninitialized counter counts as 0
  CHECK(yv.size() == 8);
  const auto saved = train::list_variables(train::saver{}.save(sess, dir / "with_dropout"));
  REQUIRE(saved.size() == 1);
  CHECK(saved[0].name == "dc/w");
}

TEST_CASE("a steady dropout training step allocates nothing") {
  auto x = tf::placeholder<"da_x", float, shape<16, 8>>();
  auto h = tf::layers::dense<8, "da_dense">(x, tf::activation::relu);
  auto loss = tf::reduce_mean(tf::square(tf::dropout<1>(h, tf::constant<0.3>())));
  auto train_op = tf::train::gradient_descent<"DA_SGD">(0.01).minimize(loss);
  tf::session sess(train_op, loss);
  sess.initialize_all();
  tf::storage_t<float, shape<16, 8>> xv;
  for (std::size_t i = 0; i < xv.size(); ++i) xv.data()[i] = static_cast<float>(i % 5) * 0.25f;
  sess.run(tf::fetch(loss, train_op), tf::feed(x, xv));
  const long before = allocation_count();
  for (int i = 0; i < 20; ++i) sess.run(tf::fetch(loss, train_op), tf::feed(x, xv));
  CHECK(allocation_count() == before);
}

TEST_CASE("the mask is the sequential splitmix64 stream compared with rate as doubles, at any rate") {
  // The kernel draws element i as the mix of state + (i + 1) gamma and compares integers;
  // this is the sequential draw and the double compare it must equal, bit for bit.
  const auto reference = [](std::size_t n, double rate, std::uint64_t op_seed, std::uint64_t graph_seed,
                            std::uint64_t count) {
    using tf::ops::detail::splitmix64;
    std::uint64_t state = op_seed;
    state = splitmix64(state) ^ graph_seed;
    state = splitmix64(state) ^ count;
    state = splitmix64(state);
    std::vector<float> out(n);
    const float scale = 1.0f / (1.0f - static_cast<float>(rate));
    for (auto& o : out) o = static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53 >= rate ? scale : 0.0f;
    return out;
  };
  constexpr std::size_t n = 4099;
  for (const double rate : {0.25, 0.5, 0.1, 0.9, 1e-9, 0x1.0p-53, 3 * 0x1.0p-54, 1.0 - 0x1.0p-53}) {
    for (const std::uint64_t count : {0u, 1u, 77u}) {
      std::vector<float> mask(n);
      tf::ops::detail::dropout_mask(mask.data(), n, rate, 1, 42, count);
      const auto expected = reference(n, rate, 1, 42, count);
      std::size_t kept = 0, same = 0;
      for (std::size_t i = 0; i < n; ++i) {
        same += mask[i] == expected[i];
        kept += mask[i] != 0.0f;
      }
      INFO("rate " << rate << ", count " << count << ", kept " << kept);
      CHECK(same == n);
    }
  }
}

TEST_CASE("tensorflow/python/layers/core_test.py DropoutTest: functional, dynamic rate, custom and dynamic noise shapes") {
  // x = ones; with training true some element is dropped (np_output.min() == 0), with
  // training false or rate 0 the output is x; with noise_shape [5, 1, 2] on [5, 3, 2] the
  // mask is the same along axis 1 (np_output[:, 0, :] == np_output[:, 1, :]).
  auto x = tf::placeholder<"dt_x", float, shape<5, 3, 2>>();
  auto rate = tf::placeholder<"dt_rate", float>();
  auto training = tf::placeholder<"dt_training", bool>();
  auto plain = tf::layers::dropout<31>(x, rate, training);                           // testFunctionalDropout, testDynamicRate
  auto custom = tf::layers::dropout<32, shape<5, 1, 2>>(x, rate, training);          // testCustomNoiseShape
  auto dynamic = tf::layers::dropout<33, shape<dyn, 1, dyn>>(x, rate, training);     // testDynamicNoiseShape
  tf::session sess(plain, custom, dynamic);
  sess.initialize_all();
  tf::storage_t<float, shape<5, 3, 2>> ones;
  std::fill(ones.begin(), ones.end(), 1.0f);
  const auto [p, c, d] = sess.run(tf::fetch(plain, custom, dynamic), tf::feed(x, ones), tf::feed(rate, 0.5f),
                                  tf::feed(training, true));
  CHECK(*std::min_element(p.begin(), p.end()) == 0.0f);
  for (const auto& m : {c, d})
    for (std::size_t i = 0; i < 5; ++i)
      for (std::size_t k = 0; k < 2; ++k) {
        CHECK(m(i, 0, k) == m(i, 1, k));
        CHECK(m(i, 0, k) == m(i, 2, k));
        CHECK((m(i, 0, k) == 0.0f || m(i, 0, k) == 2.0f));
      }
  // training false: x itself (testFunctionalDropout); rate 0 with training true: x (testDynamicRate).
  CHECK(sess.run(plain, tf::feed(x, ones), tf::feed(rate, 0.5f), tf::feed(training, false)) == ones);
  CHECK(sess.run(plain, tf::feed(x, ones), tf::feed(rate, 0.0f), tf::feed(training, true)) == ones);
}
