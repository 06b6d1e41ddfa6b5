// benchmarks/rnn/gru128_typeflow.cpp — model 2, one training step of a GRU(128):
// dynamic_rnn(gru_cell<128>) over x [64, T, 64] (T = GRU128_TIME, 50 by default), the last
// state into dense<10>, softmax cross-entropy, Adam(1e-3). Peer: pytorch_rnn.py gru128.
// Prints one line of JSON (CPU and wall milliseconds per step, per repetition).
//
//   bench_rnn_gru128_typeflow [train|forward] [REPS [STEPS [WARMUP]]]
//
// `forward` times sess.run(loss) instead of sess.run(train_op): the forward pass alone, to
// say where the training step's time goes. run.sh compiles this TU with GRU128_TIME=10 and
// 50: a dynamic_rnn's compile time must not depend on the sequence length.
#include <cstddef>
#include <cstring>

#include <xtensor/xfixed.hpp>

#include <typeflow/rnn/cell.hpp>
#include <typeflow/rnn/dynamic_rnn.hpp>
#include <typeflow/train/adam.hpp>
#include <typeflow/typeflow.hpp>

#include "common.hpp"

#ifndef GRU128_TIME
#define GRU128_TIME 50
#endif

namespace tf = typeflow;

int main(int argc, char** argv) {
  const bool forward_only = argc > 1 && std::strcmp(argv[1], "forward") == 0;
  const int reps = rnn_bench::arg(argc, argv, 2, 5), steps = rnn_bench::arg(argc, argv, 3, 10),
            warmup = rnn_bench::arg(argc, argv, 4, 3);
  constexpr std::size_t batch = 64, time = GRU128_TIME, depth = 64, units = 128, classes = 10;

  auto x = tf::placeholder<"x", float, tf::shape<batch, time, depth>>();
  auto y = tf::placeholder<"y", float, tf::shape<batch, classes>>();
  auto [outputs, final_state] = tf::rnn::dynamic_rnn(tf::rnn::gru_cell<units>{}, x);
  (void)outputs;
  auto logits = tf::layers::dense<classes>(final_state);  // a GRU's state is one node, h
  auto loss = tf::reduce_mean(tf::softmax_cross_entropy_with_logits(y, logits));
  auto train_op = tf::train::adam(1e-3).minimize(loss);
  tf::session sess(train_op, loss);
  sess.set_random_seed(42);
  sess.run(tf::global_variables_initializer());

  xt::xtensor_fixed<float, xt::xshape<batch, time, depth>> xb;
  xt::xtensor_fixed<float, xt::xshape<batch, classes>> yb;
  rnn_bench::fill_normal(xb, 1);
  rnn_bench::fill_one_hot(yb, batch, classes);

  auto loss_value = [&] { return double(sess.run(loss, tf::feed(x, xb), tf::feed(y, yb))); };
  if (forward_only) {
    rnn_bench::time_steps("typeflow-forward", "gru128", warmup, reps, steps, loss_value, loss_value);
  } else {
    rnn_bench::time_steps(
        "typeflow", "gru128", warmup, reps, steps, [&] { sess.run(train_op, tf::feed(x, xb), tf::feed(y, yb)); },
        loss_value);
  }
  return 0;
}
