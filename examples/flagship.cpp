// The flagship example: a 784-128-10 MLP (ReLU, softmax cross-entropy, batches of 64,
// SGD at 0.1) trained on Fashion-MNIST for one epoch of 937 batches, then evaluated on the
// 10,000 test images. Fails (exit 1) below 81% test accuracy.
//
// The training images are read as a TensorFlow 1.x program reads them: a dataset of two
// placeholders, fed once to the iterator's initializer, shuffled, batched (the last partial
// batch dropped, so the batch dim is static) and repeated, with a background thread
// preparing the next batches; training ends on OutOfRange. A progress display shows on a
// terminal.
//
//   ./example_flagship [epochs]
#include <cstdio>
#include <cstdlib>

#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/debug/progress.hpp>
#include <typeflow/typeflow.hpp>

#include "data/fashion_mnist.hpp"
#include "flagship_model.hpp"

namespace tf = typeflow;
using flagship::model;

int main(int argc, char** argv) {
  const std::int64_t epochs = argc > 1 ? std::atoi(argv[1]) : 1;
  constexpr std::size_t batch = flagship::batch;
  const auto train = fashion_mnist::load("train");
  const auto test = fashion_mnist::load("t10k");
  std::printf("Fashion-MNIST: %zu training and %zu test images\n", train.size(), test.size());

  // tf.data.Dataset.from_tensor_slices((images, labels)).shuffle(60000, seed=7)
  //   .batch(64, drop_remainder=True).repeat(epochs).prefetch(2)
  auto images = tf::placeholder<"images", float, tf::shape<tf::dyn, 784>>();
  auto image_labels = tf::placeholder<"image_labels", std::int32_t, tf::shape<tf::dyn>>();
  auto epoch_count = tf::placeholder<"epochs", std::int64_t>();
  auto dataset = tf::data::from_tensor_slices(images, image_labels)
                     .shuffle<60000, flagship::shuffle_seed>()
                     .batch<batch>(tf::data::drop_remainder)
                     .repeat(epoch_count)
                     .prefetch<2>();
  auto iterator = tf::data::make_initializable_iterator<"train_iterator">(dataset);
  auto [x, labels] = iterator.get_next();  // float [64, 784], int32 [64]

  auto logits = model(x);
  auto loss = tf::reduce_mean(tf::sparse_softmax_cross_entropy_with_logits(labels, logits));
  auto train_op = tf::train::gradient_descent(flagship::learning_rate).minimize(loss);

  auto test_x = tf::placeholder<"test_x", float, tf::shape<tf::dyn, 784>>();
  auto test_labels = tf::placeholder<"test_labels", std::int64_t, tf::shape<tf::dyn>>();
  auto accuracy = tf::reduce_mean(tf::cast<float>(tf::equal(tf::argmax<1>(model(test_x)), test_labels)));

  tf::session sess(iterator.initializer(), train_op, accuracy);
  sess.set_random_seed(flagship::graph_seed);  // tf.set_random_seed: the graph seed of unseeded initializers
  sess.run(tf::global_variables_initializer());

  const xt::xtensor<float, 2> train_images =
      xt::adapt(train.images, std::array<std::size_t, 2>{train.size(), 784});
  const xt::xtensor<std::int32_t, 1> train_labels = xt::adapt(train.labels, std::array<std::size_t, 1>{train.size()});
  sess.run(iterator.initializer(), tf::feed(images, train_images), tf::feed(image_labels, train_labels),
           tf::feed(epoch_count, epochs));

  const std::int64_t steps_per_epoch = static_cast<std::int64_t>(train.size() / batch);  // 937
  tf::debug::progress display(epochs * steps_per_epoch, batch);
  std::int64_t step = 0;
  float last_loss = 0;
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    try {
      last_loss = std::get<0>(sess.run(tf::fetch(loss, train_op)));
    } catch (const tf::out_of_range_error&) {
      break;  // every epoch read
    }
    display.update(++step, last_loss);
    if (step % steps_per_epoch == 0 && !display.active())
      std::printf("epoch %lld: loss %.4f\n", static_cast<long long>(step / steps_per_epoch), last_loss);
  }
  display.finish();
  const double train_secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  xt::xtensor<float, 2> tx = xt::adapt(test.images, std::array<std::size_t, 2>{test.size(), 784});
  xt::xtensor<std::int64_t, 1> ty = xt::zeros<std::int64_t>({test.size()});
  std::copy(test.labels.begin(), test.labels.end(), ty.begin());
  const float acc = sess.run(accuracy, tf::feed(test_x, tx), tf::feed(test_labels, ty));
  std::printf("trained %lld steps in %.2f s; test accuracy %.2f%%\n", static_cast<long long>(step), train_secs,
              100 * acc);
  if (step != epochs * steps_per_epoch) {
    std::printf("FAILED: %lld steps, expected %lld\n", static_cast<long long>(step),
                static_cast<long long>(epochs * steps_per_epoch));
    return 1;
  }
  if (acc < flagship::target_accuracy) {
    std::printf("FAILED: test accuracy below 81%%\n");
    return 1;
  }
  return 0;
}
