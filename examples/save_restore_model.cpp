// "How to save/restore a model" (TensorFlow's classic question), ported: a dense
// classifier trained with Adam on synthetic data is saved with a global step, then a
// second session — as a second program would — restores the latest checkpoint and gets
// the same predictions, and can train on from where the first stopped.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

#include <typeflow/typeflow.hpp>
#include <typeflow/train/saver.hpp>

namespace tf = typeflow;

namespace {
constexpr std::size_t n = 256;

// Two Gaussian blobs in 2-D, labels 0 and 1.
void synthetic_data(xt::xtensor_fixed<float, xt::xshape<n, 2>>& x, xt::xtensor_fixed<std::int32_t, xt::xshape<n>>& y) {
  std::mt19937 rng(3);
  std::normal_distribution<float> noise(0.0f, 0.6f);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t label = static_cast<std::int32_t>(i % 2);
    x(i, 0) = (label ? 1.0f : -1.0f) + noise(rng);
    x(i, 1) = (label ? -0.5f : 0.5f) + noise(rng);
    y(i) = label;
  }
}

// The graph, as both "programs" build it: the same types, so the same variables.
auto model(tf::placeholder_node<"x", float, tf::shape<n, 2>> x) {
  auto hidden = tf::layers::dense<16, "hidden">(x, tf::activation::relu);
  return tf::layers::dense<2, "logits">(hidden);
}
}  // namespace

int main() {
  const auto dir = std::filesystem::temp_directory_path() / ("typeflow-save-restore-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  xt::xtensor_fixed<float, xt::xshape<n, 2>> xs;
  xt::xtensor_fixed<std::int32_t, xt::xshape<n>> ys;
  synthetic_data(xs, ys);

  auto x = tf::placeholder<"x", float, tf::shape<n, 2>>();
  auto labels = tf::placeholder<"labels", std::int32_t, tf::shape<n>>();
  auto logits = model(x);
  auto loss = tf::reduce_mean(tf::sparse_softmax_cross_entropy_with_logits(labels, logits));
  auto prediction = tf::argmax<1>(logits);
  auto accuracy = tf::reduce_mean(tf::cast<float>(tf::equal(prediction, tf::cast<std::int64_t>(labels))));
  auto step = tf::train::global_step();
  auto train_op = tf::train::adam(0.01).minimize(loss, step);

  // --- the first program: train, save ---------------------------------------------------
  xt::xtensor_fixed<std::int64_t, xt::xshape<n>> predicted;
  std::string path;
  {
    tf::session sess(train_op, accuracy);
    sess.run(tf::global_variables_initializer());
    for (int i = 0; i < 1000; ++i) sess.run(train_op, tf::feed(x, xs), tf::feed(labels, ys));
    const float acc = sess.run(accuracy, tf::feed(x, xs), tf::feed(labels, ys));
    std::printf("trained 1000 steps with Adam: accuracy %.3f\n", acc);
    if (acc < 0.85f) return 1;
    tf::train::saver saver{};  // every variable: weights, Adam's slots, beta powers, global step
    path = saver.save(sess, dir / "my_test_model", step);  // my_test_model-1000
    predicted = sess.run(prediction, tf::feed(x, xs));
    std::printf("saved %s\n", path.c_str());
  }

  // --- the second program: restore the latest checkpoint, predict, train on ---------------
  {
    tf::session sess(train_op, accuracy);  // nothing initialized
    tf::train::saver saver{};
    const auto latest = tf::train::latest_checkpoint(dir);
    if (!latest || *latest != path) return 1;
    saver.restore(sess, *latest);
    const bool same = sess.run(prediction, tf::feed(x, xs)) == predicted;
    std::printf("restored %s: global_step %lld, same predictions: %s\n", latest->c_str(),
                static_cast<long long>(sess.run(step)), same ? "yes" : "no");
    if (!same || sess.run(step) != 1000) return 1;
    sess.run(train_op, tf::feed(x, xs), tf::feed(labels, ys));  // Adam continues from its slots
    if (sess.run(step) != 1001) return 1;
  }
  std::filesystem::remove_all(dir);
  return 0;
}
