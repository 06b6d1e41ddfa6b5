// The translation unit of saved_model.tu_local that includes <typeflow/tu_local.hpp>: its
// typeflow is its own. Built without the tests' precompiled header (which has the other).
#include <typeflow/tu_local.hpp>

#include "tu_local_model.hpp"
#include "tu_local_units.hpp"

namespace tu_local_unit {
namespace {
template <class Probs>
std::vector<float> probs_of(const Probs& p) {
  return {p.begin(), p.end()};
}
}  // namespace

bool is_tu_local() { return typeflow::is_tu_local; }

std::string probs_type_name() {
  auto [x, y, probs, loss, serving] = tu_local_model::build();
  return typeid(probs).name();
}

std::vector<std::string> fingerprints() { return tu_local_model::fingerprints(); }

std::vector<float> train_and_export(const std::filesystem::path& dir) {
  namespace tf = typeflow;
  namespace sm = typeflow::saved_model;
  auto [x, y, probs, loss, serving] = tu_local_model::build();
  auto train = tu_local_model::train(loss);
  (void)serving;
  tf::session sess(train, probs, loss);
  sess.set_random_seed(7);
  sess.initialize_all();
  const xt::xtensor<float, 2> labels = {{1.0f, 0.0f}, {0.0f, 1.0f}};
  for (int i = 0; i < 5; ++i) sess.run(train, tf::feed(x, tu_local_model::features()), tf::feed(y, labels));
  sm::simple_save(sess, dir, sm::inputs<"features">(x), sm::outputs<"probs">(probs));
  return probs_of(sess.run(probs, tf::feed(x, tu_local_model::features())));
}

std::vector<float> load_and_run(const std::filesystem::path& dir) {
  namespace tf = typeflow;
  namespace sm = typeflow::saved_model;
  auto [x, y, probs, loss, serving] = tu_local_model::build();
  auto train = tu_local_model::train(loss);
  tf::session sess(train, probs, loss);
  auto model = sm::load(sess, {"serve"}, dir, serving);
  return probs_of(model.run("serving_default", {{"features", tu_local_model::features()}}).at("probs").as<float>());
}
}  // namespace tu_local_unit
