// Issue 3, part 2: one epoch of the 784-128-10 MLP (ReLU, softmax cross-entropy, batch
// 64, SGD 0.1, 937 steps) on Fashion-MNIST, in typeflow: the model of
// examples/flagship.cpp. Prints one line of JSON: epoch seconds, test accuracy.
// The epoch's order is training_bench::permutation (the same in every implementation);
// the time covers the 937 steps, batch gathering included, from a fresh session.
//
//   bench_training_mlp_typeflow [epochs]     (threads: OPENBLAS_NUM_THREADS)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include <typeflow/typeflow.hpp>

#include "common.hpp"
#include "data/fashion_mnist.hpp"

namespace tf = typeflow;

template <class X>
auto model(X x) {
  auto hidden = tf::layers::dense<128, "hidden">(x, tf::activation::relu);
  return tf::layers::dense<10, "logits">(hidden);
}

int main(int argc, char** argv) {
  const int epochs = argc > 1 ? std::atoi(argv[1]) : 1;
  constexpr std::size_t batch = 64;
  const auto train = fashion_mnist::load("train");
  const auto test = fashion_mnist::load("t10k");

  auto x = tf::placeholder<"x", float, tf::shape<batch, 784>>();
  auto labels = tf::placeholder<"labels", std::int32_t, tf::shape<batch>>();
  auto logits = model(x);
  auto loss = tf::reduce_mean(tf::sparse_softmax_cross_entropy_with_logits(labels, logits));
  auto train_op = tf::train::gradient_descent(0.1).minimize(loss);

  auto test_x = tf::placeholder<"test_x", float, tf::shape<tf::dyn, 784>>();
  auto test_labels = tf::placeholder<"test_labels", std::int64_t, tf::shape<tf::dyn>>();
  auto accuracy = tf::reduce_mean(tf::cast<float>(tf::equal(tf::argmax<1>(model(test_x)), test_labels)));

  tf::session sess(train_op, accuracy);
  sess.set_random_seed(42);  // tf.set_random_seed: the graph seed of unseeded initializers
  sess.run(tf::global_variables_initializer());

  const auto order = training_bench::permutation(train.size());
  xt::xtensor_fixed<float, xt::xshape<batch, 784>> xb;
  xt::xtensor_fixed<std::int32_t, xt::xshape<batch>> yb;
  const std::size_t steps = train.size() / batch;  // 937
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
      auto [loss_value, done] = sess.run(tf::fetch(loss, train_op), tf::feed(x, xb), tf::feed(labels, yb));
      (void)done;
      last_loss = loss_value;
    }
    timer.stop();
  }

  xt::xtensor<float, 2> tx = xt::adapt(test.images, std::array<std::size_t, 2>{test.size(), 784});
  xt::xtensor<std::int64_t, 1> ty = xt::zeros<std::int64_t>({test.size()});
  std::copy(test.labels.begin(), test.labels.end(), ty.begin());
  const float acc = sess.run(accuracy, tf::feed(test_x, tx), tf::feed(test_labels, ty));
  timer.report("typeflow", last_loss, acc);
  return acc > 0.5f ? 0 : 1;
}
