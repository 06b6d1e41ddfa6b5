// Helpers of the saved model tests: a small classifier, an exported copy of it, file edits.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <typeflow/saved_model.hpp>
#include <typeflow/typeflow.hpp>

#include "../support/checkpoint_testing.hpp"

namespace serving_testing {

namespace tf = typeflow;
namespace sm = typeflow::saved_model;
using ckpt_testing::temp_dir;

inline auto x = tf::placeholder<"sv_x", float, tf::shape<tf::dyn, 3>>();
inline auto scale = tf::placeholder<"sv_scale", float, tf::shape<>>();
inline auto w = tf::variable<"sv_w", float, tf::shape<3, 2>>(tf::init::glorot_uniform(3));
inline auto b = tf::variable<"sv_b", float, tf::shape<2>>(tf::init::constant(0.25));
inline auto logits = tf::matmul(x, w) + b;
inline auto probs = tf::softmax(logits);
inline auto classes = tf::argmax<1>(logits);
inline auto scaled = logits * scale;
inline auto serving =
    sm::signature<"serving_default">(sm::inputs<"features">(x), sm::outputs<"probs", "classes">(probs, classes));
inline auto scaling = sm::signature<"scaled">(sm::inputs<"features", "scale">(x, scale), sm::outputs<"scaled">(scaled));

inline xt::xtensor<float, 2> features() { return {{1.0f, 2.0f, 3.0f}, {-1.0f, 0.5f, 0.0f}}; }

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}
inline void write_file(const std::filesystem::path& p, const std::string& s) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << s;
}
/// Replaces the first (or the last) `from` in the file with `to`.
inline void edit_file(const std::filesystem::path& p, const std::string& from, const std::string& to, bool last = false) {
  auto s = read_file(p);
  const auto at = last ? s.rfind(from) : s.find(from);
  if (at == std::string::npos) throw std::runtime_error("edit_file: '" + from + "' not in " + p.string());
  s.replace(at, from.size(), to);
  write_file(p, s);
}

}  // namespace serving_testing
