// examples/flagship_model.hpp — the flagship's model and hyperparameters, shared by the
// single-process example (flagship.cpp), its data-parallel version on MPI
// (flagship_mpi.cpp) and the benchmarks that time them. Not part of the library.
#pragma once

#include <cstddef>

#include <typeflow/typeflow.hpp>

namespace flagship {

/// The global batch: 64 images a step, split over the ranks when training on several.
inline constexpr std::size_t batch = 64;
/// Plain gradient descent's learning rate.
inline constexpr double learning_rate = 0.1;
/// The graph seed (tf.set_random_seed) of the variables' initializers.
inline constexpr unsigned graph_seed = 42;
/// The seed of the training set's shuffle.
inline constexpr unsigned shuffle_seed = 7;
/// The test accuracy one epoch must reach.
inline constexpr float target_accuracy = 0.81f;

/// The 784-128-10 MLP (ReLU), written once for any batch shape: the variables
/// "hidden/kernel", "hidden/bias", "logits/kernel" and "logits/bias" are the same nodes for
/// every batch.
template <class X>
auto model(X x) {
  namespace tf = typeflow;
  auto hidden = tf::layers::dense<128, "hidden">(x, tf::activation::relu);
  return tf::layers::dense<10, "logits">(hidden);
}

}  // namespace flagship
