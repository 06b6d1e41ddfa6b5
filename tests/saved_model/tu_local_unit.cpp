// The translation unit of saved_model.tu_local that includes <typeflow/tu_local.hpp>: its
// typeflow is its own. Built without the tests' precompiled header (which has the other).
#include <typeflow/tu_local.hpp>

#include "tu_local_model.hpp"
#include "tu_local_units.hpp"

namespace tu_local_unit {
bool is_tu_local() { return typeflow::is_tu_local; }

std::string probs_type_name() {
  auto [x, y, probs, loss, serving] = tu_local_model::build();
  return typeid(probs).name();
}

std::vector<std::string> fingerprints() { return tu_local_model::fingerprints(); }

std::vector<float> train_and_export(const std::filesystem::path& dir) {
  return tu_local_model::train_and_export(dir, 7, 5);
}

std::vector<float> load_and_run(const std::filesystem::path& dir) { return tu_local_model::load_and_run(dir); }
}  // namespace tu_local_unit
