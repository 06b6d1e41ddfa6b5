// benchmarks/rnn/bigru_typeflow.cpp — model 1, the TensorFlow 1.x question's model, one
// training step: bidirectional_dynamic_rnn of gru_cell<10> (fw, bw) over x [32, 10, 30],
// concat of both directions, mean over time, dense<5>, softmax cross-entropy, Adam(1e-2);
// a step is sess.run(train_op, feeds...), without sequence_length. Peer: pytorch_rnn.py
// bigru. Prints one line of JSON (CPU and wall milliseconds per step, per repetition).
// run.sh also times the compilation of this TU (the question's training program).
//
//   bench_rnn_bigru_typeflow [REPS [STEPS [WARMUP]]]
#include <cstddef>

#include <xtensor/xfixed.hpp>

#include <typeflow/rnn/cell.hpp>
#include <typeflow/rnn/dynamic_rnn.hpp>
#include <typeflow/train/adam.hpp>
#include <typeflow/typeflow.hpp>

#include "common.hpp"

namespace tf = typeflow;

int main(int argc, char** argv) {
  const int reps = rnn_bench::arg(argc, argv, 1, 5), steps = rnn_bench::arg(argc, argv, 2, 500),
            warmup = rnn_bench::arg(argc, argv, 3, 50);
  constexpr std::size_t batch = 32, time = 10, features = 30, classes = 5;

  auto x = tf::placeholder<"x", float, tf::shape<batch, time, features>>();
  auto y = tf::placeholder<"y", float, tf::shape<batch, classes>>();
  auto rnn = tf::rnn::bidirectional_dynamic_rnn(tf::rnn::gru_cell<10>{}, tf::rnn::gru_cell<10>{}, x);
  auto outputs = tf::concat<2>(rnn.first.first, rnn.first.second);  // [32, 10, 20]
  auto logits = tf::layers::dense<classes>(tf::reduce_mean<1>(outputs));
  auto loss = tf::reduce_mean(tf::softmax_cross_entropy_with_logits(y, logits));
  auto train_op = tf::train::adam(1e-2).minimize(loss);
  tf::session sess(train_op, loss);
  sess.set_random_seed(42);
  sess.run(tf::global_variables_initializer());

  xt::xtensor_fixed<float, xt::xshape<batch, time, features>> xb;
  xt::xtensor_fixed<float, xt::xshape<batch, classes>> yb;
  rnn_bench::fill_normal(xb, 1);
  rnn_bench::fill_one_hot(yb, batch, classes);
  for (std::size_t i = 0; i < batch; ++i)  // the class shifts a few features, so that it learns
    for (std::size_t t = 0; t < time; ++t)
      for (std::size_t f = i % classes; f < features; f += classes) xb(i, t, f) += 0.8f;

  rnn_bench::time_steps(
      "typeflow", "bigru", warmup, reps, steps, [&] { sess.run(train_op, tf::feed(x, xb), tf::feed(y, yb)); },
      [&] { return double(sess.run(loss, tf::feed(x, xb), tf::feed(y, yb))); });
  return 0;
}
