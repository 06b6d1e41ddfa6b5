// benchmarks/rnn/static_rnn_compile.cpp — the compile-time subject of an unrolled recurrent
// training program: rnn::static_rnn of 8 steps over a 2-layer multi_rnn_cell(gru_cell<32>,
// gru_cell<32>), x [16, 8, 20] unstacked in time, the last output into dense<5>, softmax
// cross-entropy, Adam(1e-2). Every step's nodes (and their gradients) are types, so this
// is the heavy case for the compiler; run.sh times its compilation (/usr/bin/time -v;
// budget 30 s and 2 GB). Running it trains a few steps and prints the loss before and after.
#include <cstddef>
#include <cstdio>
#include <tuple>

#include <xtensor/xfixed.hpp>

// -DSTATIC_RNN_TU_LOCAL: typeflow local to this translation unit (<typeflow/tu_local.hpp>).
#ifdef STATIC_RNN_TU_LOCAL
#include <typeflow/tu_local.hpp>
#endif

#include <typeflow/rnn/cell.hpp>
#include <typeflow/rnn/static_rnn.hpp>
#include <typeflow/train/adam.hpp>
#include <typeflow/typeflow.hpp>

#include "common.hpp"

#ifndef STATIC_RNN_STEPS  // the number of unrolled steps (8: the budget's program)
#define STATIC_RNN_STEPS 8
#endif

namespace tf = typeflow;

int main(int argc, char** argv) {
  const int steps = rnn_bench::arg(argc, argv, 1, 50);
  constexpr std::size_t batch = 16, time = STATIC_RNN_STEPS, depth = 20, classes = 5;

  auto x = tf::placeholder<"x", float, tf::shape<batch, time, depth>>();
  auto y = tf::placeholder<"y", float, tf::shape<batch, classes>>();
  auto cell = tf::rnn::multi_rnn_cell(tf::rnn::gru_cell<32>{}, tf::rnn::gru_cell<32>{});
  auto [outputs, final_state] = tf::rnn::static_rnn(cell, tf::unstack<1>(x));
  (void)final_state;
  auto logits = tf::layers::dense<classes>(std::get<time - 1>(outputs));
  auto loss = tf::reduce_mean(tf::softmax_cross_entropy_with_logits(y, logits));
  auto train_op = tf::train::adam(1e-2).minimize(loss);
  tf::session sess(train_op, loss);
  sess.set_random_seed(42);
  sess.run(tf::global_variables_initializer());

  xt::xtensor_fixed<float, xt::xshape<batch, time, depth>> xb;
  xt::xtensor_fixed<float, xt::xshape<batch, classes>> yb;
  rnn_bench::fill_normal(xb, 1);
  rnn_bench::fill_one_hot(yb, batch, classes);
  for (std::size_t i = 0; i < batch; ++i)
    for (std::size_t t = 0; t < time; ++t)
      for (std::size_t f = i % classes; f < depth; f += classes) xb(i, t, f) += 0.8f;

  const float first = sess.run(loss, tf::feed(x, xb), tf::feed(y, yb));
  for (int s = 0; s < steps; ++s) sess.run(train_op, tf::feed(x, xb), tf::feed(y, yb));
  const float last = sess.run(loss, tf::feed(x, xb), tf::feed(y, yb));
  std::printf("{\"impl\": \"typeflow-static-rnn\", \"first_loss\": %.5f, \"last_loss\": %.5f}\n", double(first),
              double(last));
  return last < first ? 0 : 1;
}
