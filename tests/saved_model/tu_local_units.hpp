// What saved_model.tu_local's two translation units call across: only standard types cross,
// since each unit has its own typeflow.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace tu_local_unit {
/// Whether `typeflow` is the unit's own (the unit includes <typeflow/tu_local.hpp>).
bool is_tu_local();
/// typeid(...).name() of the model's probs node in the unit.
std::string probs_type_name();
/// The fingerprints of tu_local_model::fingerprints(), computed in the unit.
std::vector<std::string> fingerprints();
/// Trains the model 5 steps, exports it with simple_save to `dir`; returns its probs on
/// tu_local_model::features().
std::vector<float> train_and_export(const std::filesystem::path& dir);
/// Loads `dir` into a session of the model with its signature; returns its probs on
/// tu_local_model::features() through the signature.
std::vector<float> load_and_run(const std::filesystem::path& dir);
}  // namespace tu_local_unit
