// Training through rnn::static_rnn: a GRU of 8 units over 3 steps learns the sum of its
// inputs with train::adam(1e-2).minimize; the loss falls below a fifth of its first value.
#include <doctest/doctest.h>

#include <cmath>
#include <tuple>

#include <xtensor/xfixed.hpp>

#include <typeflow/rnn/static_rnn.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace rnn = typeflow::rnn;

TEST_CASE("static_rnn + adam: a GRU learns the sum of a sequence") {
  auto x = tf::placeholder<"x", float, tf::shape<16, 3, 1>>();  // [batch, time, depth]
  auto y = tf::placeholder<"y", float, tf::shape<16, 1>>();
  auto [outputs, state] = rnn::static_rnn(rnn::gru_cell<8>{}, tf::unstack<1>(x));
  auto prediction = tf::layers::dense<1, "out">(state);
  auto loss = tf::reduce_mean(tf::square(prediction - y));
  auto train_op = tf::train::adam(1e-2).minimize(loss);
  tf::session sess(train_op, loss);
  sess.run(tf::global_variables_initializer());

  xt::xtensor_fixed<float, xt::xshape<16, 3, 1>> xv{};
  xt::xtensor_fixed<float, xt::xshape<16, 1>> yv{};
  for (std::size_t b = 0; b < 16; ++b) {
    float sum = 0;
    for (std::size_t t = 0; t < 3; ++t) {
      xv(b, t, 0) = 0.5f * std::sin(float(b * 3 + t) * 1.7f);
      sum += xv(b, t, 0);
    }
    yv(b, 0) = sum;
  }
  float first = 0, last = 0;
  for (int i = 0; i < 300; ++i) {
    auto [l, done] = sess.run(tf::fetch(loss, train_op), tf::feed(x, xv), tf::feed(y, yv));
    (void)done;
    (i == 0 ? first : last) = l;
  }
  CAPTURE(first);
  CAPTURE(last);
  CHECK(last < 0.2f * first);
}
