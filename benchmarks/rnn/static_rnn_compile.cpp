// The compile-time budget case of rnn::static_rnn (budget: 30 s and 2 GB at -O2, g++):
// 8 steps of a 2-layer multi_rnn_cell(gru_cell<32>, gru_cell<32>) over inputs of depth 16,
// a dense layer on the last output, reduce_mean of its square, train::adam(1e-2).minimize,
// run in a session. Measure with
//   /usr/bin/time -v g++ -std=c++20 -O2 -DNDEBUG -ftemplate-depth=4096 -I include \
//       benchmarks/rnn/static_rnn_compile.cpp -o /tmp/static_rnn_compile -lopenblas
#include <cstdio>
#include <tuple>

#include <xtensor/xfixed.hpp>

#include <typeflow/rnn/static_rnn.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace rnn = typeflow::rnn;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<4, 8, 16>>();  // [batch, time, depth]
  auto y = tf::placeholder<"y", float, tf::shape<4, 1>>();
  auto cell = rnn::multi_rnn_cell(rnn::gru_cell<32>{}, rnn::gru_cell<32>{});
  auto [outputs, state] = rnn::static_rnn(cell, tf::unstack<1>(x));
  auto prediction = tf::layers::dense<1, "out">(std::get<7>(outputs));
  auto loss = tf::reduce_mean(tf::square(prediction - y));
  auto train_op = tf::train::adam(1e-2).minimize(loss);
  tf::session sess(train_op, loss);
  sess.run(tf::global_variables_initializer());
  xt::xtensor_fixed<float, xt::xshape<4, 8, 16>> xv{};
  for (std::size_t i = 0; i < xv.size(); ++i) xv.flat(i) = float(i % 7) / 7.0f - 0.5f;
  xt::xtensor_fixed<float, xt::xshape<4, 1>> yv{{0.5f}, {-0.5f}, {0.25f}, {0.0f}};
  float first = 0, last = 0;
  for (int i = 0; i < 50; ++i) {
    auto [l, done] = sess.run(tf::fetch(loss, train_op), tf::feed(x, xv), tf::feed(y, yv));
    (void)done;
    (i == 0 ? first : last) = l;
  }
  std::printf("loss %g -> %g\n", double(first), double(last));
  return last < first ? 0 : 1;
}
