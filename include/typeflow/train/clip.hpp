// typeflow/train/clip.hpp — tf.clip_by_value, tf.clip_by_norm, tf.clip_by_global_norm,
// as graph nodes (so they are differentiable and fetchable).
#pragma once

#include <tuple>
#include <type_traits>

#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/math.hpp"
#include "typeflow/ops/reduce.hpp"

namespace typeflow {

/// In a diagnostic: clip_by_value's bounds broadcast t (shape T) to a larger shape (Result).
template <class T, class Result>
struct clip_by_value_bounds_must_not_change_the_shape {
  static constexpr bool value = false;
};

/// tf.clip_by_value(t, lo, hi): max(min(t, hi), lo), elementwise; the bounds broadcast to
/// t's shape and do not change it (TensorFlow's ValueError). The gradient is TensorFlow's:
/// to t where lo <= t <= hi (both ends included), to lo where t < lo, to hi where t > hi.
/// NaN stays NaN.
template <node T, node Lo, node Hi>
constexpr auto clip_by_value(T t, Lo lo, Hi hi) {
  auto clipped = maximum(minimum(t, hi), lo);
  using result = shape_of<decltype(clipped)>;
  if constexpr (!std::is_same_v<result, shape_of<T>> && result::is_static && shape_of<T>::is_static) {
    static_assert(clip_by_value_bounds_must_not_change_the_shape<shape_of<T>, result>::value,
                  "typeflow::clip_by_value(t, lo, hi): lo and hi must broadcast to t's shape without "
                  "changing it (as in TensorFlow, the result has t's shape)");
  }
  return clipped;
}

/// The L2 norm of t, a scalar.
template <node T>
constexpr auto global_l2_norm(T t) {
  return sqrt(reduce_sum(square(t)));
}

/// tf.clip_by_norm(t, clip_norm): t * clip_norm / max(l2norm(t), clip_norm).
template <node T, node C>
constexpr auto clip_by_norm(T t, C clip_norm) {
  return t * clip_norm / maximum(global_l2_norm(t), clip_norm);
}

/// tf.global_norm(ts): sqrt of the sum of the squares of every element of every t.
template <node... T>
constexpr auto global_norm(T... t) {
  return sqrt((reduce_sum(square(t)) + ...));
}

/// tf.clip_by_global_norm(ts, clip_norm): (clipped ts, global norm), each clipped t
/// being t * clip_norm / max(global_norm, clip_norm).
template <node C, node... T>
constexpr auto clip_by_global_norm(const std::tuple<T...>& ts, const C& clip_norm) {
  return std::apply(
      [&](const T&... t) {
        auto norm = global_norm(t...);
        auto scale = clip_norm / maximum(norm, clip_norm);
        return std::make_tuple(std::make_tuple(t * scale...), norm);
      },
      ts);
}

}  // namespace typeflow
