// Issue 13's target: the flagship's epoch read through a dataset
// (from_tensor_slices -> shuffle(60000) -> batch(64, drop_remainder) -> repeat -> prefetch(2))
// against the same MLP fed batches gathered by hand, as examples/flagship.cpp did before.
// Prints one line of JSON per epoch: {"mode", "epoch", "seconds" (wall), "cpu_seconds",
// "loss"}. The wall time covers everything an epoch needs: the hand-gathered mode's shuffle
// and copies, the pipeline's initializer run (its copy of the data, first epoch only) and
// its shuffle buffer's fill; the pipeline's thread works on the second core.
//
//   bench_data_flagship_epoch gathered|pipeline|pipeline_no_prefetch [epochs]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <numeric>
#include <random>
#include <string>

#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/typeflow.hpp>

#include "data/fashion_mnist.hpp"

namespace tf = typeflow;

namespace {
constexpr std::size_t batch = 64;

template <class X>
auto model(X x) {
  auto hidden = tf::layers::dense<128, "hidden">(x, tf::activation::relu);
  return tf::layers::dense<10, "logits">(hidden);
}

struct clocks {
  std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
  std::clock_t cpu = std::clock();
  void report(const char* mode, int epoch, float loss) {
    const auto now = std::chrono::steady_clock::now();
    const std::clock_t c = std::clock();
    std::printf("{\"mode\": \"%s\", \"epoch\": %d, \"seconds\": %.4f, \"cpu_seconds\": %.4f, \"loss\": %.4f}\n", mode,
                epoch, std::chrono::duration<double>(now - wall).count(), double(c - cpu) / CLOCKS_PER_SEC,
                double(loss));
    std::fflush(stdout);
    wall = now;
    cpu = c;
  }
};

int gathered(const fashion_mnist::split& train, int epochs) {
  auto x = tf::placeholder<"x", float, tf::shape<batch, 784>>();
  auto labels = tf::placeholder<"labels", std::int32_t, tf::shape<batch>>();
  auto loss = tf::reduce_mean(tf::sparse_softmax_cross_entropy_with_logits(labels, model(x)));
  auto train_op = tf::train::gradient_descent(0.1).minimize(loss);
  tf::session sess(train_op);
  sess.set_random_seed(42);
  sess.run(tf::global_variables_initializer());
  std::vector<std::size_t> order(train.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937 rng(7);
  xt::xtensor_fixed<float, xt::xshape<batch, 784>> xb;
  xt::xtensor_fixed<std::int32_t, xt::xshape<batch>> yb;
  clocks t;
  float last = 0;
  for (int e = 0; e < epochs; ++e) {
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t s = 0; s < train.size() / batch; ++s) {
      for (std::size_t i = 0; i < batch; ++i) {
        const std::size_t k = order[s * batch + i];
        std::copy_n(train.images.data() + k * 784, 784, xb.data() + i * 784);
        yb(i) = train.labels[k];
      }
      last = std::get<0>(sess.run(tf::fetch(loss, train_op), tf::feed(x, xb), tf::feed(labels, yb)));
    }
    t.report("gathered", e, last);
  }
  return 0;
}

template <bool Prefetch>
int pipeline(const fashion_mnist::split& train, int epochs) {
  auto images = tf::placeholder<"images", float, tf::shape<tf::dyn, 784>>();
  auto image_labels = tf::placeholder<"image_labels", std::int32_t, tf::shape<tf::dyn>>();
  auto epoch_count = tf::placeholder<"epochs", std::int64_t>();
  auto batches =
      tf::data::from_tensor_slices(images, image_labels).shuffle<60000, 7>().batch<batch>(tf::data::drop_remainder).repeat(epoch_count);
  auto run = [&](const auto& dataset, const char* mode) {
    auto iterator = tf::data::make_initializable_iterator<"train_iterator">(dataset);
    auto [x, labels] = iterator.get_next();
    auto loss = tf::reduce_mean(tf::sparse_softmax_cross_entropy_with_logits(labels, model(x)));
    auto train_op = tf::train::gradient_descent(0.1).minimize(loss);
    tf::session sess(iterator.initializer(), train_op);
    sess.set_random_seed(42);
    sess.run(tf::global_variables_initializer());
    const xt::xtensor<float, 2> all_images = xt::adapt(train.images, std::array<std::size_t, 2>{train.size(), 784});
    const xt::xtensor<std::int32_t, 1> all_labels = xt::adapt(train.labels, std::array<std::size_t, 1>{train.size()});
    clocks t;
    sess.run(iterator.initializer(), tf::feed(images, all_images), tf::feed(image_labels, all_labels),
             tf::feed(epoch_count, std::int64_t{epochs}));
    float last = 0;
    const std::size_t steps = train.size() / batch;
    for (int e = 0; e < epochs; ++e) {
      for (std::size_t s = 0; s < steps; ++s) last = std::get<0>(sess.run(tf::fetch(loss, train_op)));
      t.report(mode, e, last);
    }
    return 0;
  };
  if constexpr (Prefetch) {
    return run(batches.template prefetch<2>(), "pipeline");
  } else {
    return run(batches, "pipeline_no_prefetch");
  }
}
}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "pipeline";
  const int epochs = argc > 2 ? std::atoi(argv[2]) : 3;
  const auto train = fashion_mnist::load("train");
  if (mode == "gathered") return gathered(train, epochs);
  if (mode == "pipeline") return pipeline<true>(train, epochs);
  if (mode == "pipeline_no_prefetch") return pipeline<false>(train, epochs);
  std::fprintf(stderr, "usage: %s gathered|pipeline|pipeline_no_prefetch [epochs]\n", argv[0]);
  return 2;
}
