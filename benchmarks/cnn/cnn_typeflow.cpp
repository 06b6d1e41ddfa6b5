// Issue 15: the Fashion-MNIST CNN of examples/cnn/model.hpp trained by typeflow, timed as
// cnn_handwritten.cpp and cnn_pytorch.py are: batch 32, the epoch order of
// training_bench::permutation, Adam (1e-3), the data fed from a pre-loaded array. Prints
// one line of JSON: epoch seconds (wall and CPU), the last loss, test accuracy.
//
//   bench_cnn_typeflow [epochs] [steps]     (threads: OPENBLAS_NUM_THREADS)
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <typeflow/typeflow.hpp>

#include "../training/common.hpp"
#include "cnn/model.hpp"
#include "data/fashion_mnist.hpp"

namespace tf = typeflow;

int main(int argc, char** argv) {
  constexpr std::size_t batch = 32, chunk = 500;
  const int epochs = argc > 1 ? std::atoi(argv[1]) : 1;
  const auto train = fashion_mnist::load("train");
  const auto test = fashion_mnist::load("t10k");
  const std::size_t steps = argc > 2 ? std::size_t(std::atoi(argv[2])) : train.size() / batch;  // 1875

  auto x = tf::placeholder<"x", float, tf::shape<batch, 28, 28, 1>>();
  auto labels = tf::placeholder<"labels", std::int32_t, tf::shape<batch>>();
  auto net = cnn::model(x, tf::constant<true>());
  auto loss = tf::reduce_mean(tf::sparse_softmax_cross_entropy_with_logits(labels, net.logits));
  auto train_op = net.batch_norm.with_updates(tf::train::adam(1e-3).minimize(loss));
  auto test_x = tf::placeholder<"test_x", float, tf::shape<chunk, 28, 28, 1>>();
  auto test_labels = tf::placeholder<"test_labels", std::int64_t, tf::shape<chunk>>();
  auto correct = tf::reduce_sum(tf::cast<float>(
      tf::equal(tf::argmax<1>(cnn::model(test_x, tf::constant<false>()).logits), test_labels)));

  tf::session sess(train_op, correct);
  sess.set_random_seed(42);
  sess.run(tf::global_variables_initializer());

  const auto order = training_bench::permutation(train.size());
  xt::xtensor_fixed<float, xt::xshape<batch, 28, 28, 1>> xb;
  xt::xtensor_fixed<std::int32_t, xt::xshape<batch>> yb;
  float last_loss = 0;
  training_bench::epoch_timer timer;
  for (int e = 0; e < epochs; ++e) {
    timer.start();
    for (std::size_t s = 0; s < steps; ++s) {
      for (std::size_t i = 0; i < batch; ++i) {
        const std::size_t k = order[s * batch + i];
        std::copy_n(train.images.data() + k * 784, 784, xb.data() + i * 784);
        yb(i) = train.labels[k];
      }
      last_loss = std::get<0>(sess.run(tf::fetch(loss, train_op), tf::feed(x, xb), tf::feed(labels, yb)));
    }
    timer.stop();
  }

  xt::xtensor_fixed<float, xt::xshape<chunk, 28, 28, 1>> tx;
  xt::xtensor_fixed<std::int64_t, xt::xshape<chunk>> ty;
  double hits = 0;
  for (std::size_t at = 0; at + chunk <= test.size(); at += chunk) {
    std::copy_n(test.images.data() + at * 784, chunk * 784, tx.data());
    std::copy_n(test.labels.data() + at, chunk, ty.data());
    hits += double(sess.run(correct, tf::feed(test_x, tx), tf::feed(test_labels, ty)));
  }
  const double acc = hits / double(test.size());
  timer.report("typeflow", last_loss, acc);
  return acc > 0.5 ? 0 : 1;
}
