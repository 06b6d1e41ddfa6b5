// examples/bidirectional_gru/model.hpp — the model of the TensorFlow 1.x save/restore
// question, shared by the program that trains and exports it (train.cpp) and the program
// that loads the export and runs it by tensor name (serve.cpp). A saved model holds
// variables, not code: both programs compile the graph from this header.
//
// TensorFlow 1.x:
//   x = tf.placeholder(tf.float32, [None, None, 30], name="x")
//   seq_len = tf.placeholder(tf.int32, [None], name="seq_len")
//   (fw, bw), _ = tf.nn.bidirectional_dynamic_rnn(GRUCell(10), GRUCell(10), x,
//                                                 sequence_length=seq_len, dtype=tf.float32)
//   logits = tf.layers.dense(tf.reduce_mean(tf.concat([fw, bw], 2), 1), 5)  # dense/BiasAdd:0
// The trainer builds the same model a second time on a dataset iterator's batches
// (train.cpp); the variables are shared by name.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <stdexcept>
#include <vector>

#include <xtensor/xtensor.hpp>

#include <typeflow/rnn/cell.hpp>
#include <typeflow/rnn/dynamic_rnn.hpp>
#include <typeflow/saved_model/signature.hpp>
#include <typeflow/typeflow.hpp>

namespace bigru {

namespace tf = typeflow;
namespace sm = typeflow::saved_model;

inline constexpr std::size_t num_features = 30;
inline constexpr std::size_t num_classes = 5;
inline constexpr std::size_t num_units = 10;

// [snippet model]
// The model as a function of its input nodes, built once on the iterator's batches for
// training and once on the placeholders "x" and "seq_len" for serving. Its variables
// ("bidirectional_rnn/fw/gru_cell/gates/kernel", ..., "dense/kernel", "dense/bias") are
// types: both graphs read the same variables, as TensorFlow's variable_scope reuse.
template <tf::node X, tf::node L>
auto model(const X& x, const L& lengths) {
  auto rnn = tf::rnn::bidirectional_dynamic_rnn(tf::rnn::gru_cell<num_units>{}, tf::rnn::gru_cell<num_units>{}, x,
                                                tf::rnn::sequence_length(lengths));
  auto outputs = tf::concat<2>(rnn.first.first, rnn.first.second);  // [batch, time, 20]
  return tf::layers::dense<num_classes>(tf::reduce_mean<1>(outputs));  // "dense/BiasAdd"
}

inline const auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, tf::dyn, num_features>>();
inline const auto seq_len = tf::placeholder<"seq_len", std::int32_t, tf::shape<tf::dyn>>();
inline const auto logits = model(x, seq_len);
// [/snippet model]

inline const auto serving = sm::signature<"serving_default">(sm::inputs<"x", "seq_len">(x, seq_len),
                                                             sm::outputs<"logits">(logits));

/// The question's synthetic data: 64 sequences of 10 steps of 30 features, 5 classes; the
/// class shifts the mean of a few features. With `varying`, each sequence has a length in
/// [3, 10] and its steps past the length are zero (padding).
struct dataset {
  xt::xtensor<float, 3> features;   // [64, 10, 30]
  xt::xtensor<float, 2> labels;     // [64, 5], one-hot
  xt::xtensor<std::int32_t, 1> lengths;  // [64]
};
inline dataset make_dataset(bool varying, unsigned seed = 5) {
  constexpr std::size_t n = 64, steps = 10;
  std::mt19937 rng(seed);
  std::normal_distribution<float> noise(0.0f, 1.0f);
  std::uniform_int_distribution<int> length(3, int(steps));
  dataset d{xt::zeros<float>({n, steps, num_features}), xt::zeros<float>({n, num_classes}),
            xt::zeros<std::int32_t>({n})};
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = i % num_classes;
    d.labels(i, c) = 1.0f;
    d.lengths(i) = varying ? length(rng) : std::int32_t(steps);
    for (std::size_t t = 0; t < std::size_t(d.lengths(i)); ++t)
      for (std::size_t f = 0; f < num_features; ++f)
        d.features(i, t, f) = noise(rng) * 0.5f + (f % num_classes == c ? 0.8f : 0.0f);
  }
  return d;
}

/// Both programs' arguments: DIR [--varying-lengths]. Empty when they are wrong (the usage
/// is printed).
struct arguments {
  std::filesystem::path dir;
  bool varying = false;
};
inline std::optional<arguments> parse_arguments(int argc, char** argv) {
  if (argc < 2 || argc > 3 || (argc == 3 && std::strcmp(argv[2], "--varying-lengths") != 0)) {
    std::fprintf(stderr, "usage: %s DIR [--varying-lengths]\n", argv[0]);
    return std::nullopt;
  }
  return arguments{argv[1], argc == 3};
}

/// The bytes of a container, as they are in memory.
template <class V>
std::vector<unsigned char> bytes_of(const V& v) {
  std::vector<unsigned char> b(v.size() * sizeof(*v.data()));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

/// The exporter's logits for the probe batch, left next to the export for serve.cpp.
inline void write_bytes(const std::filesystem::path& path, const std::vector<unsigned char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
}
inline std::vector<unsigned char> read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string() + ": run the training program first");
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace bigru
