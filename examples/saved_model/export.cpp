// saved_model_export: "how to save a model" for serving. Trains the classifier of
// classifier.hpp with Adam on a synthetic, seeded dataset, exports it with simple_save to
// DIR/export, and writes its own outputs for the probe batch to DIR/expected_outputs.bin,
// which saved_model_serve (serve.cpp, another program) must reproduce bit for bit.
//
//   saved_model_export DIR
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <random>

#include <typeflow/saved_model.hpp>
#include <typeflow/train/adam.hpp>

#include "classifier.hpp"

namespace tf = typeflow;
namespace sm = typeflow::saved_model;

namespace {

constexpr std::size_t n = 384;

// Three blobs in 4-D: class c is centred on 2 along feature c.
void synthetic_data(xt::xtensor<float, 2>& xs, xt::xtensor<std::int32_t, 1>& ys) {
  std::mt19937 rng(11);
  std::normal_distribution<float> noise(0.0f, 0.8f);
  xs = xt::zeros<float>({n, classifier::num_features});
  ys = xt::zeros<std::int32_t>({n});
  for (std::size_t i = 0; i < n; ++i) {
    const auto label = static_cast<std::int32_t>(i % classifier::num_classes);
    for (std::size_t j = 0; j < classifier::num_features; ++j)
      xs(i, j) = (j == static_cast<std::size_t>(label) ? 2.0f : 0.0f) + noise(rng);
    ys(i) = label;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR (writes DIR/export and DIR/expected_outputs.bin)\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const auto export_dir = dir / "export";
  std::filesystem::create_directories(dir);
  std::filesystem::remove_all(export_dir);  // an export directory must be new, or empty
  std::filesystem::remove(dir / "expected_outputs.bin");

  xt::xtensor<float, 2> xs;
  xt::xtensor<std::int32_t, 1> ys;
  synthetic_data(xs, ys);

  using classifier::x;
  auto labels = tf::placeholder<"labels", std::int32_t, tf::shape<tf::dyn>>();
  auto loss = tf::reduce_mean(tf::sparse_softmax_cross_entropy_with_logits(labels, classifier::logits));
  auto accuracy = tf::reduce_mean(tf::cast<float>(tf::equal(classifier::classes, tf::cast<std::int64_t>(labels))));
  auto train_op = tf::train::adam(0.01).minimize(loss);

  // [snippet export]
  // The training program: its session holds the training graph and the serving outputs.
  tf::session sess(train_op, accuracy, classifier::probs, classifier::classes);
  sess.run(tf::global_variables_initializer());
  for (int step = 0; step < 300; ++step) sess.run(train_op, tf::feed(x, xs), tf::feed(labels, ys));

  // One meta graph tagged "serve", the signature "serving_default", every variable.
  sm::simple_save(sess, export_dir, sm::inputs<"features">(x),
                  sm::outputs<"probs", "classes">(classifier::probs, classifier::classes));
  // [/snippet export]

  const float acc = sess.run(accuracy, tf::feed(x, xs), tf::feed(labels, ys));
  std::printf("trained 300 steps with Adam: accuracy %.3f\n", static_cast<double>(acc));
  if (acc < 0.9f) return 1;

  // The outputs the export must give, computed here as the serving program will compute
  // them: through a const session, fetching both outputs of the signature in one run.
  const auto& csess = sess;
  const auto [probs, classes] =
      csess.run(tf::fetch(classifier::probs, classifier::classes), tf::feed(x, classifier::probe_batch()));
  classifier::outputs_file expected;
  expected.rows = probs.shape()[0];
  expected.probs = classifier::bytes_of(probs);
  expected.classes = classifier::bytes_of(classes);
  expected.write(dir / "expected_outputs.bin");
  std::printf("exported %s; outputs for %llu probe rows in %s\n", export_dir.c_str(),
              static_cast<unsigned long long>(expected.rows), (dir / "expected_outputs.bin").c_str());
  return 0;
}
