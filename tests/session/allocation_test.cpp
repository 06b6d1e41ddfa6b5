// A steady-state run of a static-shape graph performs no heap allocation (DESIGN,
// performance rules): buffers are planned on the first run of a (fetch, feed)
// combination and reused. Counted with a replaced global operator new.
#include <doctest/doctest.h>

#include <typeflow/typeflow.hpp>

#include "../support/allocation_counter.hpp"

using typeflow_test::allocation_count;

namespace tf = typeflow;

TEST_CASE("an MLP-shaped graph with an update step allocates nothing after its first run") {
  auto x = tf::placeholder<"alloc_x", float, tf::shape<8, 16>>();
  auto labels = tf::placeholder<"alloc_labels", float, tf::shape<8, 4>>();
  auto w1 = tf::variable<"alloc_w1", float, tf::shape<16, 32>>(tf::init::glorot_uniform(1));
  auto b1 = tf::variable<"alloc_b1", float, tf::shape<32>>(tf::init::zeros());
  auto w2 = tf::variable<"alloc_w2", float, tf::shape<32, 4>>(tf::init::glorot_uniform(2));
  auto hidden = tf::relu(tf::matmul(x, w1) + b1);
  auto logits = tf::matmul(hidden, w2);
  auto loss = tf::reduce_mean(-tf::reduce_sum<1>(labels * tf::log_softmax(logits)));
  auto probabilities = tf::softmax(logits);
  auto accuracy_like = tf::reduce_mean<0>(tf::cast<float>(tf::greater(probabilities, tf::constant<0.5f>())));
  auto decay = tf::assign_sub(w1, w1 * tf::constant<0.01f>());
  auto reshaped = tf::reduce_sum(tf::transpose(tf::reshape<tf::shape<4, 8>>(logits)));
  tf::session sess(loss, accuracy_like, decay, reshaped);
  sess.initialize_all();

  xt::xtensor_fixed<float, xt::xshape<8, 16>> xv;
  xt::xtensor_fixed<float, xt::xshape<8, 4>> lv;
  for (std::size_t i = 0; i < xv.size(); ++i) xv.data()[i] = static_cast<float>(i % 7) * 0.1f;
  lv.fill(0.25f);

  auto step = [&] {
    return sess.run(tf::fetch(loss, accuracy_like, decay, reshaped), tf::feed(x, xv), tf::feed(labels, lv));
  };
  const long at_start = allocation_count();
  auto first = step();  // plans and allocates the buffers
  const long before = allocation_count();
  CHECK(before - at_start > 0);  // the counter sees the plan's allocation
  float total = 0;
  for (int i = 0; i < 100; ++i) {
    auto [l, acc, w, r] = step();
    total += l + acc[0] + w(0, 0) + r;
  }
  CHECK(allocation_count() - before == 0);
  CHECK(std::isfinite(total));
  CHECK(std::get<0>(first) > 0.0f);
}

TEST_CASE("a scalar graph allocates nothing after its first run") {
  auto m = tf::variable<"alloc_m", double>(tf::init::constant(0.));
  auto b = tf::variable<"alloc_b", double>(tf::init::constant(0.));
  auto x = tf::placeholder<"alloc_sx", double>();
  auto y = tf::placeholder<"alloc_sy", double>();
  auto err = m * x + b - y;
  auto update = tf::group(tf::assign_sub(m, err * x * tf::constant<1e-3>()), tf::assign_sub(b, err * tf::constant<1e-3>()));
  tf::session sess(update);
  sess.initialize_all();
  sess.run(update, tf::feed(x, 1.0), tf::feed(y, 2.0));
  const long before = allocation_count();
  for (int i = 0; i < 1000; ++i) sess.run(update, tf::feed(x, double(i % 10)), tf::feed(y, 3.0 * (i % 10) + 1));
  CHECK(allocation_count() - before == 0);
  CHECK(sess.run(m) != 0.0);
}
