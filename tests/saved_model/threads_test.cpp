// Inference from 8 threads at once: through a const session, and through a servable by
// signature name and by tensor name. Every result must equal the single-threaded one
// exactly. scripts/test.sh also runs this test under ThreadSanitizer (label "threads"),
// where any data race between the runs fails it.
#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <thread>
#include <vector>

#include <typeflow/saved_model.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace sm = typeflow::saved_model;

namespace {

constexpr int num_threads = 8;
constexpr int runs_per_thread = 100;

// A dense classifier with a dynamic batch: its buffers are xarrays, so every run in flight
// needs a buffer set of its own from the plan's pool (no stack-only small plan).
auto x = tf::placeholder<"thr_x", float, tf::shape<tf::dyn, 6>>();
auto hidden = tf::layers::dense<32, "thr_hidden">(x, tf::activation::relu, tf::init::glorot_uniform(5));
auto logits = tf::layers::dense<4, "thr_logits">(hidden, tf::activation::linear, tf::init::glorot_uniform(6));
auto probs = tf::softmax(logits);
auto classes = tf::argmax<1>(logits);
auto serving = sm::signature<"serving_default">(sm::inputs<"features">(x), sm::outputs<"probs", "classes">(probs, classes));

// Batches of 1 to num_threads rows, different values each: a buffer set taken from a pool
// was last used for another batch size.
std::vector<xt::xtensor<float, 2>> batches() {
  std::vector<xt::xtensor<float, 2>> out;
  for (std::size_t k = 0; k < num_threads; ++k) {
    xt::xtensor<float, 2> v = xt::zeros<float>({k + 1, std::size_t{6}});
    for (std::size_t i = 0; i < v.size(); ++i)
      v.data()[i] = static_cast<float>(k) * 0.5f - 1.0f + static_cast<float>((i * 7 + k) % 13) * 0.2f;
    out.push_back(std::move(v));
  }
  return out;
}

// Runs body(thread, run) num_threads x runs_per_thread times, the threads all at once;
// body returns whether the result was right. The number of wrong results per thread.
template <class Body>
std::vector<int> in_threads(Body body) {
  std::vector<int> wrong(num_threads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < num_threads; ++t)
    threads.emplace_back([&, t] {
      for (int r = 0; r < runs_per_thread; ++r)
        if (!body(t, r)) ++wrong[static_cast<std::size_t>(t)];
    });
  for (auto& th : threads) th.join();
  return wrong;
}

}  // namespace

TEST_CASE("a const session run from 8 threads at once gives the single-threaded results") {
  tf::session sess(probs, classes);
  sess.initialize_all();
  const auto inputs = batches();
  // Computed through the non-const session, whose buffers are its own: the const session's
  // pools are first filled by the threads, concurrently.
  std::vector<xt::xtensor<float, 2>> expected_probs;
  std::vector<xt::xtensor<std::int64_t, 1>> expected_classes;
  for (const auto& in : inputs) {
    expected_probs.push_back(sess.run(probs, tf::feed(x, in)));
    expected_classes.push_back(sess.run(classes, tf::feed(x, in)));
  }

  const auto& csess = sess;
  const auto wrong = in_threads([&](int t, int r) {
    const auto k = static_cast<std::size_t>((t + r) % num_threads);
    if (r % 2 == 0) return csess.run(probs, tf::feed(x, inputs[k])) == expected_probs[k];
    // Another plan: both outputs in one run.
    const auto [p, c] = csess.run(tf::fetch(probs, classes), tf::feed(x, inputs[k]));
    return p == expected_probs[k] && c == expected_classes[k];
  });
  for (int t = 0; t < num_threads; ++t) CHECK(wrong[static_cast<std::size_t>(t)] == 0);
}

TEST_CASE("a servable run by signature name and by tensor name from 8 threads gives the single-threaded results") {
  tf::session sess(probs, classes);
  sess.initialize_all();
  const sm::servable model(sess, serving);  // runs through the const session
  const auto inputs = batches();
  const auto signature = model.signature_descriptions().at(0);
  const std::string x_name = signature.inputs.at(0).name;  // "thr_x:0"
  const std::string probs_name = signature.outputs.at(0).name;
  const std::string classes_name = signature.outputs.at(1).name;
  REQUIRE(x_name == "thr_x:0");

  // Single-threaded, through the session itself (the servable's plans stay unused).
  std::vector<tf::tensor> expected_probs, expected_classes;
  for (const auto& in : inputs) {
    expected_probs.emplace_back(sess.run(probs, tf::feed(x, in)));
    expected_classes.emplace_back(sess.run(classes, tf::feed(x, in)));
  }

  const auto wrong = in_threads([&](int t, int r) {
    const auto k = static_cast<std::size_t>((t + r) % num_threads);
    if (r % 2 == 0) {
      const auto out = model.run("serving_default", {{"features", inputs[k]}});
      return out.size() == 2 && out.at("probs") == expected_probs[k] && out.at("classes") == expected_classes[k];
    }
    // By tensor name: each fetch evaluates its own path.
    const auto out = model.run_by_name({probs_name, classes_name}, {{x_name, inputs[k]}});
    return out.size() == 2 && out[0] == expected_probs[k] && out[1] == expected_classes[k];
  });
  for (int t = 0; t < num_threads; ++t) CHECK(wrong[static_cast<std::size_t>(t)] == 0);
}
