// The model of saved_model.tu_local, built the same way by a translation unit that includes
// <typeflow/tu_local.hpp> (tu_local_unit.cpp) and by one that does not (tu_local_test.cpp).
// Its entities are in an unnamed namespace: no entity of external linkage here has a type
// of either unit's typeflow.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <typeflow/rnn/cell.hpp>
#include <typeflow/rnn/dynamic_rnn.hpp>
#include <typeflow/saved_model.hpp>
#include <typeflow/typeflow.hpp>

namespace tu_local_model {
namespace {

namespace tf = typeflow;
namespace sm = typeflow::saved_model;

/// The model's nodes: an aggregate, not a std::tuple, whose constructor templates are slow to
/// resolve with deep node types as arguments (docs/ARCHITECTURE.md, "Compile time in large graphs").
template <class X, class Y, class Probs, class Loss, class Serving>
struct model {
  X x;
  Y y;
  Probs probs;
  Loss loss;
  Serving serving;
};

/// A GRU over [batch, 3, 4] (a loop in the graph, whose body's types are lambdas') into dense(2) and softmax, its loss and its signature;
/// Adam's update is `train(loss)`.
inline auto build() {
  auto x = tf::placeholder<"tl_x", float, tf::shape<tf::dyn, 3, 4>>();
  auto y = tf::placeholder<"tl_y", float, tf::shape<tf::dyn, 2>>();
  auto [outputs, state] = tf::rnn::dynamic_rnn(tf::rnn::gru_cell<5>{}, x);
  (void)outputs;
  auto logits = tf::layers::dense<2>(state);
  auto probs = tf::softmax(logits);
  auto loss = tf::reduce_mean(tf::softmax_cross_entropy_with_logits(y, logits));
  auto serving = sm::signature<"serving_default">(sm::inputs<"features">(x), sm::outputs<"probs">(probs));
  return model<decltype(x), decltype(y), decltype(probs), decltype(loss), decltype(serving)>{x, y, probs, loss, serving};
}

template <class Loss>
auto train(const Loss& loss) {
  return tf::train::adam(1e-2).minimize(loss);
}

/// Each node's fingerprint in the session's graph of train and probs, in the graph's order.
inline std::vector<std::string> fingerprints() {
  auto [x, y, probs, loss, serving] = build();
  (void)x, (void)y, (void)serving;
  tf::session sess(train(loss), probs);
  std::vector<std::string> out;
  for (const auto& n : sm::describe_graph_nodes<typename decltype(sess)::graph_nodes>()) out.push_back(n.node.name + " " + n.fingerprint);
  return out;
}


inline xt::xtensor<float, 3> features() {
  xt::xtensor<float, 3> f = xt::zeros<float>({2, 3, 4});
  for (std::size_t i = 0; i < f.size(); ++i) f.data()[i] = 0.1f * float(i % 7) - 0.3f;
  return f;
}

template <class P>
std::vector<float> values_of(const P& p) {
  return {p.begin(), p.end()};
}

/// Trains the model `steps` steps from `seed`, exports it with simple_save to `dir`; returns
/// its probs on features().
inline std::vector<float> train_and_export(const std::filesystem::path& dir, int seed, int steps) {
  auto [x, y, probs, loss, serving] = build();
  (void)serving;
  auto update = train(loss);
  tf::session sess(update, probs, loss);
  sess.set_random_seed(seed);
  sess.initialize_all();
  const xt::xtensor<float, 2> labels = {{1.0f, 0.0f}, {0.0f, 1.0f}};
  for (int i = 0; i < steps; ++i) sess.run(update, tf::feed(x, features()), tf::feed(y, labels));
  sm::simple_save(sess, dir, sm::inputs<"features">(x), sm::outputs<"probs">(probs));
  return values_of(sess.run(probs, tf::feed(x, features())));
}

/// Loads `dir` into a session of the model with its typed signature; returns its probs on
/// features() through the signature.
inline std::vector<float> load_and_run(const std::filesystem::path& dir) {
  auto [x, y, probs, loss, serving] = build();
  tf::session sess(train(loss), probs, loss);
  auto model = sm::load(sess, {"serve"}, dir, serving);
  return values_of(model.run("serving_default", {{"features", features()}}).at("probs").as<float>());
}

}  // namespace
}  // namespace tu_local_model
