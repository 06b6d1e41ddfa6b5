// A dynamic_rnn training step allocates nothing once it has run at its longest length:
// neither at that length nor at shorter ones (DESIGN: steady runs allocate nothing; the
// loop keeps its per-step storage, and buffers of dynamic shape keep their capacity).
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>

#include <typeflow/rnn/dynamic_rnn.hpp>
#include <typeflow/typeflow.hpp>

#include "../support/allocation_counter.hpp"
#include "toy_cell.hpp"

namespace tf = typeflow;
using typeflow_test::allocation_count;

TEST_CASE("a dynamic_rnn training step allocates nothing after its first run at the longest length") {
  auto x = tf::placeholder<"x", float, tf::shape<8, tf::dyn, 6>>();
  auto len = tf::placeholder<"len", std::int32_t, tf::shape<8>>();
  auto labels = tf::placeholder<"labels", float, tf::shape<8, 3>>();
  auto [outputs, state] = tf::rnn::dynamic_rnn(toy_cell<5>{}, x, tf::rnn::sequence_length(len));
  auto logits = tf::layers::dense<3>(tf::reduce_mean<1>(outputs) + std::get<0>(state));
  auto loss = tf::reduce_mean(-tf::reduce_sum<1>(labels * tf::log_softmax(logits)));
  auto train = tf::train::adam(1e-2).minimize(loss);
  tf::session sess(train, loss);
  sess.initialize_all();

  auto batch = [](std::size_t steps) {
    xt::xtensor<float, 3> v(std::array<std::size_t, 3>{8, steps, 6});
    for (std::size_t i = 0; i < v.size(); ++i) v.data()[i] = float(std::sin(0.37 * double(i)));
    return v;
  };
  const xt::xtensor<float, 3> x10 = batch(10), x7 = batch(7), x3 = batch(3);
  xt::xtensor_fixed<float, xt::xshape<8, 3>> lv;
  lv.fill(0.0f);
  for (std::size_t b = 0; b < 8; ++b) lv(b, b % 3) = 1.0f;
  xt::xtensor_fixed<std::int32_t, xt::xshape<8>> l10, l7, l3;
  for (std::size_t b = 0; b < 8; ++b) {
    l10(b) = std::int32_t(10 - b);
    l7(b) = std::int32_t(7 - b % 7);
    l3(b) = std::int32_t(1 + b % 3);
  }
  auto step = [&](const xt::xtensor<float, 3>& xv, const auto& lengths) {
    return sess.run(tf::fetch(train, loss), tf::feed(x, xv), tf::feed(len, lengths), tf::feed(labels, lv));
  };
  const long at_start = allocation_count();
  const float first = std::get<1>(step(x10, l10));
  const long before = allocation_count();
  CHECK(before - at_start > 0);  // the counter sees the plans being made
  float total = 0;
  for (int i = 0; i < 20; ++i) {
    total += std::get<1>(step(x10, l10));
    total += std::get<1>(step(x7, l7));
    total += std::get<1>(step(x3, l3));
  }
  CHECK(allocation_count() - before == 0);
  CHECK(std::isfinite(total));
  CHECK(std::get<1>(step(x10, l10)) < first);  // and it trains
}
