// The convolutional example (issue 15): the CNN of model.hpp (two conv/pool blocks, batch
// normalization, dropout, dense) trained on Fashion-MNIST with Adam in batches of 32 (the
// learning rate 1e-3, halved after each epoch), printing progress, and evaluated on the
// 10,000 test images after each epoch until it reaches 90% test accuracy, for at most
// `epochs` epochs; then saved, restored into an evaluation program's session and evaluated
// again. Fails (exit 1) when it does not reach 90% within the epochs, or when the restored
// model does not give the same accuracy.
//
//   ./example_cnn_fashion_mnist [epochs]      (3)
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <random>
#include <string>

#include <typeflow/typeflow.hpp>
#include <typeflow/train/saver.hpp>

#include "cnn/model.hpp"
#include "data/fashion_mnist.hpp"

namespace tf = typeflow;

namespace {

constexpr std::size_t batch = 32, chunk = 500;  // training batch, evaluation chunk

/// The accuracy over the test set, `chunk` images a run, of a session holding `accuracy`.
template <class Session, class Accuracy, class X, class Y>
double evaluate(Session& sess, const Accuracy& accuracy, const X& x, const Y& y, const fashion_mnist::split& test) {
  xt::xtensor_fixed<float, xt::xshape<chunk, 28, 28, 1>> xb;
  xt::xtensor_fixed<std::int64_t, xt::xshape<chunk>> yb;
  double correct = 0;
  for (std::size_t at = 0; at + chunk <= test.size(); at += chunk) {
    std::copy_n(test.images.data() + at * 784, chunk * 784, xb.data());
    std::copy_n(test.labels.data() + at, chunk, yb.data());
    correct += double(sess.run(accuracy, tf::feed(x, xb), tf::feed(y, yb))) * chunk;
  }
  return correct / double(test.size() / chunk * chunk);
}

}  // namespace

int main(int argc, char** argv) {
  const int epochs = argc > 1 ? std::atoi(argv[1]) : 3;
  const auto train = fashion_mnist::load("train");
  const auto test = fashion_mnist::load("t10k");
  std::printf("Fashion-MNIST: %zu training and %zu test images\n", train.size(), test.size());

  // [snippet training_graph]
  // The training graph: batch statistics and dropout (training is the constant true).
  auto x = tf::placeholder<"x", float, tf::shape<batch, 28, 28, 1>>();
  auto labels = tf::placeholder<"labels", std::int32_t, tf::shape<batch>>();
  auto net = cnn::model(x, tf::constant<true>());
  auto loss = tf::reduce_mean(tf::sparse_softmax_cross_entropy_with_logits(labels, net.logits));
  // learning_rate = tf.train.exponential_decay(1e-3, global_step, 1875, 0.5, staircase=True)
  // with tf.control_dependencies(UPDATE_OPS):
  //   train_op = tf.train.AdamOptimizer(learning_rate).minimize(loss, global_step)
  auto global_step = tf::train::global_step();
  const std::size_t steps_per_epoch = train.size() / batch;  // 1875
  auto learning_rate = tf::train::exponential_decay(1e-3, global_step, steps_per_epoch, 0.5, /*staircase=*/true);
  auto train_op = net.batch_norm.with_updates(tf::train::adam(learning_rate).minimize(loss, global_step));
  // [/snippet training_graph]

  // [snippet evaluation_graph]
  // The evaluation graph: the same variables, the moving statistics, no dropout.
  auto test_x = tf::placeholder<"test_x", float, tf::shape<chunk, 28, 28, 1>>();
  auto test_labels = tf::placeholder<"test_labels", std::int64_t, tf::shape<chunk>>();
  auto test_logits = cnn::model(test_x, tf::constant<false>()).logits;
  auto accuracy = tf::reduce_mean(tf::cast<float>(tf::equal(tf::argmax<1>(test_logits), test_labels)));
  // [/snippet evaluation_graph]

  tf::session sess(train_op, accuracy);
  sess.set_random_seed(42);  // tf.set_random_seed: initializers and dropout's masks
  sess.run(tf::global_variables_initializer());

  std::vector<std::size_t> order(train.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937 rng(7);
  xt::xtensor_fixed<float, xt::xshape<batch, 28, 28, 1>> xb;
  xt::xtensor_fixed<std::int32_t, xt::xshape<batch>> yb;
  std::size_t step = 0;
  auto window_start = std::chrono::steady_clock::now();
  const auto start = window_start;
  double acc = 0;
  for (int epoch = 0; epoch < epochs && acc < 0.90; ++epoch) {
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t s = 0; s < steps_per_epoch; ++s, ++step) {
      for (std::size_t i = 0; i < batch; ++i) {
        const std::size_t k = order[s * batch + i];
        std::copy_n(train.images.data() + k * 784, 784, xb.data() + i * 784);
        yb(i) = train.labels[k];
      }
      auto [loss_value, done] = sess.run(tf::fetch(loss, train_op), tf::feed(x, xb), tf::feed(labels, yb));
      if ((step + 1) % 500 == 0) {
        const auto now = std::chrono::steady_clock::now();
        const double secs = std::chrono::duration<double>(now - window_start).count();
        std::printf("epoch %d  step %4zu  loss %.4f  %.0f examples/s\n", epoch + 1, step + 1, loss_value,
                    500 * batch / secs);
        window_start = now;
      }
    }
    acc = evaluate(sess, accuracy, test_x, test_labels, test);
    std::printf("epoch %d: test accuracy %.2f%%\n", epoch + 1, 100 * acc);
  }
  const double train_secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("trained %zu steps in %.1f s; test accuracy %.2f%%\n", step, train_secs, 100 * acc);

  // [snippet serving]
  // Save every variable (Adam's slots too), then restore into a session of the evaluation
  // graph alone, as a separate serving program would: it gives the same accuracy.
  const auto dir = std::filesystem::temp_directory_path() / ("typeflow-cnn-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  tf::train::saver saver{};
  const std::string path = saver.save(sess, (dir / "model.ckpt").string(), long(step));
  tf::session serving(accuracy);
  tf::train::saver{}.restore(serving, path);
  const double restored_acc = evaluate(serving, accuracy, test_x, test_labels, test);
  // [/snippet serving]
  std::filesystem::remove_all(dir);
  std::printf("restored from %s: test accuracy %.2f%%\n", path.c_str(), 100 * restored_acc);

  if (restored_acc != acc) {
    std::printf("FAILED: the restored model's accuracy differs\n");
    return 1;
  }
  if (acc < 0.90) {
    std::printf("FAILED: test accuracy below 90%% after %d epochs\n", epochs);
    return 1;
  }
  return 0;
}
