// sequence_loss(_by_example) with all_steps_at_once (ops/sequence_loss.hpp): the loss
// function called once over the stacked steps, as tf.contrib.seq2seq.sequence_loss calls it.
// For the row-wise default loss and a row-wise user loss the values equal the per-step
// form's (the same sums in the same order); the steps of a time-major tensor's unstack<0>
// are that tensor again (restack), and the gradient through it matches central differences
// and the per-step form's.
#include <doctest/doctest.h>

#include <cstdint>
#include <tuple>
#include <type_traits>

#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"
#include "sequence_loss_testing.hpp"

namespace tf = typeflow;
using tf::dyn;
using tf::shape;

using namespace sequence_loss_testing;

TEST_CASE("all_steps_at_once: the per-step values, with a dynamic batch, weights and a user's loss") {
  const two_steps in;
  const auto logits = in.logits();
  const auto targets = in.targets();
  const auto weights = in.weights();
  auto by_example = tf::sequence_loss_by_example(logits, targets, weights);
  auto by_example_once = tf::sequence_loss_by_example(logits, targets, weights, tf::all_steps_at_once());
  auto unaveraged = tf::sequence_loss_by_example<false>(logits, targets, weights, twice);
  auto unaveraged_once = tf::sequence_loss_by_example<false>(logits, targets, weights, tf::all_steps_at_once(twice));
  auto mean = tf::sequence_loss(logits, targets, weights);
  auto mean_once = tf::sequence_loss(logits, targets, weights, tf::all_steps_at_once());
  static_assert(std::is_same_v<tf::shape_of<decltype(by_example_once)>, shape<dyn>>);
  tf::session sess(by_example, by_example_once, unaveraged, unaveraged_once, mean, mean_once);
  const auto [e, eo, u, uo, m, mo] =
      in.run(sess, tf::fetch(by_example, by_example_once, unaveraged, unaveraged_once, mean, mean_once));
  REQUIRE(eo.size() == 3);
  for (std::size_t r = 0; r < 3; ++r) {
    INFO("example " << r);
    CHECK(eo(r) == doctest::Approx(e(r)).epsilon(1e-15));
    CHECK(uo(r) == doctest::Approx(u(r)).epsilon(1e-15));
  }
  CHECK(e(0) > 0.5);  // not a trivial equality of zeros
  CHECK(eo(2) == 0.0);  // all-zero weights: 0 / 1e-12, not NaN
  CHECK(mo == doctest::Approx(m).epsilon(1e-15));
}

TEST_CASE("all_steps_at_once over a time-major tensor's steps: the tensor itself, and its gradient") {
  auto x = tf::placeholder<"at_x", double, shape<2, 3, 4>>();  // [time, batch, classes]
  auto t0 = tf::placeholder<"at_y0", std::int32_t, shape<3>>();
  auto t1 = tf::placeholder<"at_y1", std::int32_t, shape<3>>();
  auto v0 = tf::placeholder<"at_w0", double, shape<3>>();
  auto v1 = tf::placeholder<"at_w1", double, shape<3>>();
  const auto steps = tf::unstack<0>(x);
  // Pack(Unpack(x)) is x: no slices, no stack.
  static_assert(std::is_same_v<decltype(std::apply([](const auto&... s) { return tf::ops::detail::restack(s...); },
                                                   steps)),
                               decltype(x)>);
  auto per_step = tf::sequence_loss(steps, std::tuple{t0, t1}, std::tuple{v0, v1});
  auto at_once = tf::sequence_loss(steps, std::tuple{t0, t1}, std::tuple{v0, v1}, tf::all_steps_at_once());
  auto grad_per_step = std::get<0>(tf::gradients(per_step, x));
  auto grad_at_once = std::get<0>(tf::gradients(at_once, x));
  tf::session sess(per_step, at_once, grad_per_step, grad_at_once);
  const tf::storage_t<std::int32_t, shape<3>> ty0 = {2, 0, 3}, ty1 = {1, 3, 0};
  const tf::storage_t<double, shape<3>> tw0 = {1.0, 0.5, 0.3}, tw1 = {0.25, 2.0, 0.7};
  const auto xv = fd_check::uniform<shape<2, 3, 4>>(-2.0, 2.0);
  const auto [p, o, gp, go] = sess.run(tf::fetch(per_step, at_once, grad_per_step, grad_at_once), tf::feed(x, xv),
                                       tf::feed(t0, ty0), tf::feed(t1, ty1), tf::feed(v0, tw0), tf::feed(v1, tw1));
  CHECK(o == doctest::Approx(p).epsilon(1e-15));
  CHECK(xt::allclose(go, gp, 1e-14, 1e-15));
  CHECK(xt::amax(xt::abs(go))() > 0.01);
  fd_check::check_gradient(sess, at_once, x, xv, tf::feed(t0, ty0), tf::feed(t1, ty1), tf::feed(v0, tw0),
                           tf::feed(v1, tw1));
}
