// The flagship example: a 784-128-10 MLP (ReLU, softmax cross-entropy, batches of 64,
// SGD at 0.1) trained on Fashion-MNIST for one epoch of 937 batches, printing progress,
// then evaluated on the 10,000 test images. Fails (exit 1) below 81% test accuracy.
//
//   ./example_flagship [epochs]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>

#include <typeflow/typeflow.hpp>

#include "data/fashion_mnist.hpp"

namespace tf = typeflow;

// The model, written once for any batch shape: the variables "hidden/kernel",
// "hidden/bias", "logits/kernel" and "logits/bias" are the same nodes for every batch.
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
  std::printf("Fashion-MNIST: %zu training and %zu test images\n", train.size(), test.size());

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

  std::vector<std::size_t> order(train.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937 rng(7);
  xt::xtensor_fixed<float, xt::xshape<batch, 784>> xb;
  xt::xtensor_fixed<std::int32_t, xt::xshape<batch>> yb;
  const std::size_t steps_per_epoch = train.size() / batch;  // 937
  std::size_t step = 0;
  auto window_start = std::chrono::steady_clock::now();
  const auto start = window_start;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t s = 0; s < steps_per_epoch; ++s, ++step) {
      for (std::size_t i = 0; i < batch; ++i) {
        const std::size_t k = order[s * batch + i];
        std::copy_n(train.images.data() + k * 784, 784, xb.data() + i * 784);
        yb(i) = train.labels[k];
      }
      auto [loss_value, done] = sess.run(tf::fetch(loss, train_op), tf::feed(x, xb), tf::feed(labels, yb));
      if ((step + 1) % 100 == 0) {
        const auto now = std::chrono::steady_clock::now();
        const double secs = std::chrono::duration<double>(now - window_start).count();
        std::printf("step %4zu  loss %.4f  %.0f examples/s\n", step + 1, loss_value, 100 * batch / secs);
        window_start = now;
      }
    }
  }
  const double train_secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  xt::xtensor<float, 2> tx = xt::adapt(test.images, std::array<std::size_t, 2>{test.size(), 784});
  xt::xtensor<std::int64_t, 1> ty = xt::zeros<std::int64_t>({test.size()});
  std::copy(test.labels.begin(), test.labels.end(), ty.begin());
  const float acc = sess.run(accuracy, tf::feed(test_x, tx), tf::feed(test_labels, ty));
  std::printf("trained %zu steps in %.2f s; test accuracy %.2f%%\n", step, train_secs, 100 * acc);
  if (acc < 0.81f) {
    std::printf("FAILED: test accuracy below 81%%\n");
    return 1;
  }
  return 0;
}
