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

// An embedding's sparse gradient (train/sparse_update.hpp): the summing of repeated rows
// reuses the session's scratch, so steps with other ids allocate nothing either.
template <class Opt>
void check_sparse_no_allocation(Opt opt) {
  auto table = tf::variable<"ta_table", float, tf::shape<10, 4>>(tf::init::random_uniform(-1, 1, 3));
  auto ids = tf::placeholder<"ta_ids", std::int32_t, tf::shape<6>>();
  auto target = tf::constant<"ta_target">(xt::xtensor_fixed<float, xt::xshape<6, 4>>(xt::ones<float>({6, 4})));
  auto loss = tf::reduce_mean(tf::square(tf::embedding_lookup(table, ids) - target));
  auto train_op = opt.minimize(loss);
  tf::session sess(train_op, loss);
  sess.initialize_all();
  xt::xtensor_fixed<std::int32_t, xt::xshape<6>> idv{0, 1, 2, 3, 4, 5};
  const float first = sess.run(loss, tf::feed(ids, idv));
  sess.run(train_op, tf::feed(ids, idv));  // the update's plan and the scratch are made here
  const long before = allocation_count();
  for (int i = 0; i < 100; ++i) {
    for (std::size_t k = 0; k < 6; ++k) idv(k) = static_cast<std::int32_t>((i + k * k) % 10);  // repeats some rows
    sess.run(train_op, tf::feed(ids, idv));
  }
  CHECK(allocation_count() == before);
  idv = {0, 1, 2, 3, 4, 5};
  CHECK(sess.run(loss, tf::feed(ids, idv)) < first);
}

TEST_CASE("sparse Adagrad steps allocate nothing after the first") {
  check_sparse_no_allocation(tf::train::adagrad<"TA_Adagrad">(0.5));
}
TEST_CASE("sparse Adam steps allocate nothing after the first") { check_sparse_no_allocation(tf::train::adam<"TA_Adam">(0.05)); }
