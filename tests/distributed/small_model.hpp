// tests/distributed/small_model.hpp — the model and batches of the fault, chief and restart
// tests: softmax regression over 4 features and 3 classes, and each rank's batch of a step
// drawn from (step, rank), so that a job restarted at step s feeds what an uninterrupted one
// would.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <tuple>

#include <typeflow/typeflow.hpp>

namespace typeflow_test {

inline auto small_model() {
  namespace tf = typeflow;
  auto x = tf::placeholder<"sx", float, tf::shape<tf::dyn, 4>>();
  auto y = tf::placeholder<"sy", float, tf::shape<tf::dyn, 3>>();
  auto w = tf::variable<"sw", float, tf::shape<4, 3>>(tf::init::glorot_uniform(11));
  auto b = tf::variable<"sb", float, tf::shape<3>>(tf::init::zeros());
  auto loss = tf::reduce_mean(tf::softmax_cross_entropy_with_logits(y, tf::matmul(x, w) + b));
  return std::make_tuple(x, y, w, b, loss);
}

/// Rank `rank`'s 16 rows of step `step`: features from a normal law, the label a function
/// of them.
inline std::pair<xt::xtensor<float, 2>, xt::xtensor<float, 2>> small_batch(std::int64_t step, int rank) {
  constexpr std::size_t rows = 16;
  std::mt19937_64 gen(static_cast<std::uint64_t>(step) * 1000003u + static_cast<std::uint64_t>(rank));
  std::normal_distribution<float> normal;
  xt::xtensor<float, 2> xs = xt::zeros<float>({rows, std::size_t{4}});
  xt::xtensor<float, 2> ys = xt::zeros<float>({rows, std::size_t{3}});
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < 4; ++c) xs(r, c) = normal(gen);
    const std::size_t label = static_cast<std::size_t>(xs(r, 0) + xs(r, 1) > 0) + static_cast<std::size_t>(xs(r, 2) > 0.5f);
    ys(r, label) = 1.0f;
  }
  return {xs, ys};
}

}  // namespace typeflow_test
