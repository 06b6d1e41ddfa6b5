// examples/saved_model/classifier.hpp — the model of the saved-model example, shared by the
// program that trains and exports it (export.cpp) and the program that serves the export
// (serve.cpp). A saved model holds variables, not code: the graph is compiled into each
// program from this header, so both build the same node types, hence the same names and
// fingerprints, which the loader checks.
//
// A dense classifier, 4 features -> 16 (relu) -> 3 classes, with a dynamic batch size.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include <typeflow/saved_model/signature.hpp>
#include <typeflow/typeflow.hpp>

namespace classifier {

namespace tf = typeflow;
namespace sm = typeflow::saved_model;

inline constexpr std::size_t num_features = 4;
inline constexpr std::size_t num_classes = 3;

// [snippet model]
inline const auto x = tf::placeholder<"features", float, tf::shape<tf::dyn, num_features>>();
inline const auto hidden = tf::layers::dense<16, "hidden">(x, tf::activation::relu, tf::init::glorot_uniform(1));
inline const auto logits = tf::layers::dense<num_classes, "logits">(hidden, tf::activation::linear,
                                                                    tf::init::glorot_uniform(2));
inline const auto probs = tf::softmax(logits);
inline const auto classes = tf::argmax<1>(logits);

// What a caller of the export feeds and gets, under keys of its own choosing.
inline const auto serving = sm::signature<"serving_default">(sm::inputs<"features">(x),
                                                             sm::outputs<"probs", "classes">(probs, classes));
// [/snippet model]

/// The fixed batch both programs run: 8 rows spread over the three classes' regions,
/// computed by a formula (no random numbers), so that both programs make the same bytes.
inline xt::xtensor<float, 2> probe_batch() {
  constexpr std::size_t rows = 8;
  xt::xtensor<float, 2> v = xt::zeros<float>({rows, num_features});
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < num_features; ++j)
      v(i, j) = std::sin(static_cast<float>(3 * i + j)) * 1.5f + (j == i % num_classes ? 1.0f : 0.0f);
  return v;
}

/// The file in which the exporter leaves its own outputs for probe_batch(), next to the
/// export: "typeflow-example-outputs", the number of rows, then the bytes of probs
/// (float32, rows x num_classes) and of classes (int64, rows), as they are in memory.
struct outputs_file {
  std::uint64_t rows = 0;
  std::vector<unsigned char> probs;    // rows * num_classes floats
  std::vector<unsigned char> classes;  // rows int64s

  static constexpr char magic[] = "typeflow-example-outputs";

  void write(const std::filesystem::path& path) const {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(magic, sizeof magic);
    out.write(reinterpret_cast<const char*>(&rows), sizeof rows);
    out.write(reinterpret_cast<const char*>(probs.data()), static_cast<std::streamsize>(probs.size()));
    out.write(reinterpret_cast<const char*>(classes.data()), static_cast<std::streamsize>(classes.size()));
    if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
  }

  /// False when the file is absent or not a whole outputs file.
  bool read(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    char m[sizeof magic] = {};
    if (!in.read(m, sizeof m) || std::memcmp(m, magic, sizeof m) != 0) return false;
    if (!in.read(reinterpret_cast<char*>(&rows), sizeof rows) || rows > 1'000'000) return false;
    probs.resize(rows * num_classes * sizeof(float));
    classes.resize(rows * sizeof(std::int64_t));
    in.read(reinterpret_cast<char*>(probs.data()), static_cast<std::streamsize>(probs.size()));
    in.read(reinterpret_cast<char*>(classes.data()), static_cast<std::streamsize>(classes.size()));
    return in && in.peek() == std::char_traits<char>::eof();
  }
};

/// The bytes of a container's elements, in its (row-major) order.
template <class E>
std::vector<unsigned char> bytes_of(const E& e) {
  const auto* p = reinterpret_cast<const unsigned char*>(e.data());
  return {p, p + e.size() * sizeof(typename E::value_type)};
}

}  // namespace classifier
