// Steady-state training steps of a static-shape model perform no heap allocation.
#include <doctest/doctest.h>

#include <typeflow/typeflow.hpp>

#include "../support/allocation_counter.hpp"

using typeflow_test::allocation_count;

namespace tf = typeflow;

template <class Opt>
void check_no_allocation(Opt opt) {
  auto x = tf::placeholder<"ta_x", float, tf::shape<16, 8>>();
  auto y = tf::placeholder<"ta_y", std::int32_t, tf::shape<16>>();
  auto hidden = tf::layers::dense<12, "ta_hidden">(x, tf::activation::tanh);
  auto logits = tf::layers::dense<3, "ta_logits">(hidden);
  auto loss = tf::reduce_mean(tf::sparse_softmax_cross_entropy_with_logits(y, logits));
  auto step = tf::train::global_step();
  auto train_op = opt.minimize(loss, step);
  tf::session sess(train_op, loss);
  sess.initialize_all();
  xt::xtensor_fixed<float, xt::xshape<16, 8>> xv;
  xt::xtensor_fixed<std::int32_t, xt::xshape<16>> yv;
  for (std::size_t i = 0; i < xv.size(); ++i) xv.data()[i] = static_cast<float>((i * 7) % 11) / 11.0f;
  for (std::size_t i = 0; i < yv.size(); ++i) yv(i) = static_cast<std::int32_t>(i % 3);
  const long at_start = allocation_count();
  const float first = std::get<0>(sess.run(tf::fetch(loss, train_op), tf::feed(x, xv), tf::feed(y, yv)));
  const long before = allocation_count();
  CHECK(before > at_start);
  float last = 0;
  for (int i = 0; i < 200; ++i) last = std::get<0>(sess.run(tf::fetch(loss, train_op), tf::feed(x, xv), tf::feed(y, yv)));
  CHECK(allocation_count() == before);
  CHECK(last < first);  // it trains
  CHECK(sess.run(step) == 201);
}

TEST_CASE("SGD steps allocate nothing after the first") { check_no_allocation(tf::train::gradient_descent<"TA_SGD">(0.5)); }
TEST_CASE("Adam steps allocate nothing after the first") { check_no_allocation(tf::train::adam<"TA_Adam">(0.01)); }
TEST_CASE("Momentum steps allocate nothing after the first") { check_no_allocation(tf::train::momentum<"TA_M">(0.1, 0.9)); }
