// tests/ops/sequence_loss_testing.hpp — what the sequence_loss tests share: two steps of
// [3, 4] logits with a dynamic batch, in double, their targets and weights (one example
// weighs nothing), placeholders for them, the loss function `twice` a user might write, and
// the cross-entropy computed by hand.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <tuple>

#include <typeflow/typeflow.hpp>

namespace sequence_loss_testing {

namespace tf = typeflow;

inline const xt::xtensor<double, 2> l0 = {{0.1, -0.4, 1.2, 0.3}, {2.0, 0.5, -1.0, 0.0}, {-0.3, -0.2, 0.7, 0.9}};
inline const xt::xtensor<double, 2> l1 = {{1.5, 0.2, 0.0, -0.6}, {0.4, 0.4, 0.3, -2.0}, {0.8, -1.1, 0.2, 0.6}};
inline const xt::xtensor<std::int32_t, 1> lab0 = {2, 0, 3};
inline const xt::xtensor<std::int32_t, 1> lab1 = {1, 3, 0};
inline const xt::xtensor<double, 1> w0 = {1.0, 0.5, 0.0};
inline const xt::xtensor<double, 1> w1 = {0.25, 2.0, 0.0};  // example 2 weighs nothing: 0 / 1e-12

/// The two steps' placeholders, [dyn, 4] logits, int32 [dyn] targets, [dyn] weights.
struct two_steps {
  tf::placeholder_node<"ts_l0", double, tf::shape<tf::dyn, 4>> x0;
  tf::placeholder_node<"ts_l1", double, tf::shape<tf::dyn, 4>> x1;
  tf::placeholder_node<"ts_y0", std::int32_t, tf::shape<tf::dyn>> t0;
  tf::placeholder_node<"ts_y1", std::int32_t, tf::shape<tf::dyn>> t1;
  tf::placeholder_node<"ts_w0", double, tf::shape<tf::dyn>> v0;
  tf::placeholder_node<"ts_w1", double, tf::shape<tf::dyn>> v1;
  auto logits() const { return std::tuple{x0, x1}; }
  auto targets() const { return std::tuple{t0, t1}; }
  auto weights() const { return std::tuple{v0, v1}; }
  /// sess.run(fetch) fed the values above.
  template <class Session, class Fetch>
  auto run(Session& sess, const Fetch& fetch) const {
    return sess.run(fetch, tf::feed(x0, l0), tf::feed(x1, l1), tf::feed(t0, lab0), tf::feed(t1, lab1),
                    tf::feed(v0, w0), tf::feed(v1, w1));
  }
};

/// A loss function: twice the sparse cross-entropy, as a user's callable (labels, logits).
inline constexpr auto twice = [](auto labels, auto l) {
  return tf::sparse_softmax_cross_entropy_with_logits(labels, l) * tf::constant<2.0>();
};

/// The cross-entropy of row r of logits l with class y.
inline double xent(const xt::xtensor<double, 2>& l, std::size_t r, std::size_t y) {
  double s = 0;
  for (std::size_t j = 0; j < 4; ++j) s += std::exp(l(r, j));
  return std::log(s) - l(r, y);
}

}  // namespace sequence_loss_testing
