// typeflow/train/clip.hpp — tf.clip_by_value, tf.clip_by_norm, tf.clip_by_average_norm,
// tf.clip_by_global_norm, as graph nodes (so they are differentiable and fetchable).
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/node.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/broadcast_gradient.hpp"
#include "typeflow/ops/compare.hpp"
#include "typeflow/ops/elementwise.hpp"
#include "typeflow/ops/embedding.hpp"
#include "typeflow/ops/math.hpp"
#include "typeflow/ops/math_functions.hpp"
#include "typeflow/ops/reduce.hpp"
#include "typeflow/ops/select.hpp"

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

/// In a diagnostic: the clip norm of clip_by_norm, clip_by_average_norm or
/// clip_by_global_norm must be a scalar; its shape.
template <class ClipNormShape>
struct clip_norm_must_be_a_scalar {
  static constexpr bool value = false;
};

namespace train::detail {
template <class C>
constexpr bool check_clip_norm() {
  if constexpr (shape_of<C>::rank != 0) {
    static_assert(clip_norm_must_be_a_scalar<shape_of<C>>::value,
                  "clip_by_norm / clip_by_average_norm / clip_by_global_norm: clip_norm must be a scalar (0-D) node");
    return false;
  } else {
    return true;
  }
}
}  // namespace train::detail

/// The L2 norm of t, a scalar.
template <node T>
constexpr auto global_l2_norm(T t) {
  return sqrt(reduce_sum(square(t)));
}

/// tf.clip_by_norm(t, clip_norm, axes): t * clip_norm / max(l2norm(t), clip_norm), the L2
/// norm over every axis, or over Axes... (`clip_by_norm<1>(t, c)`: each row's own). The norm
/// is TensorFlow's safe one: sqrt of the sum of squares where that sum is positive, the sum
/// (0) elsewhere, so that the gradient at t = 0 is clip_norm / clip_norm, not sqrt's 0 * inf.
template <std::ptrdiff_t... Axes, node T, node C>
constexpr auto clip_by_norm(T t, C clip_norm) {
  if constexpr (!train::detail::check_clip_norm<C>()) {
    return t;  // inert: the error above is the one to read
  } else {
    auto l2sum = [&] {
      if constexpr (sizeof...(Axes) == 0) {
        return reduce_sum(t * t);
      } else {
        return reduce_sum<Axes...>(t * t, keep_dims);
      }
    }();
    auto positive = l2sum > zeros_like(l2sum);
    auto l2norm = where(positive, sqrt(where(positive, l2sum, ones_like(l2sum))), l2sum);
    return t * clip_norm / maximum(l2norm, clip_norm);
  }
}

/// tf.clip_by_average_norm(t, clip_norm): t * clip_norm * min(n / l2norm(t), 1 / clip_norm),
/// n the number of elements of t: t scaled so that its L2 norm divided by n is at most
/// clip_norm.
template <node T, node C>
constexpr auto clip_by_average_norm(T t, C clip_norm) {
  using V = value_type_of<T>;
  static_assert(shape_of<T>::is_static, "clip_by_average_norm(t, clip_norm): t must have a static shape");
  if constexpr (!train::detail::check_clip_norm<C>()) {
    return t;  // inert: the error above is the one to read
  } else {
    auto n = literal_node<static_cast<double>(shape_of<T>::size), V>{};
    return t * clip_norm * minimum(rsqrt(reduce_sum(t * t)) * n, literal_node<1, V>{} / clip_norm);
  }
}

namespace train::detail {

// The sum of the squares of t's elements; of its values when t is sparse (an embedding's
// gradient, ops/embedding.hpp), as TensorFlow's global_norm takes an IndexedSlices' values:
// a row looked up twice counts twice.
template <class T>
constexpr auto sum_of_squares(const T& t) {
  if constexpr (indexed_slices<T>) {
    return [&]<class... Term>(mp::mp_list<Term...>) {
      return (reduce_sum(square(make_node<indexed_slices_values<Term>>(t))) + ...);
    }(indexed_slices_terms<T>{});
  } else {
    return reduce_sum(square(t));
  }
}

template <class T>
struct is_gather_gradient : std::false_type {};
template <class G, class P, class I>
struct is_gather_gradient<gather_gradient_node<G, P, I>> : std::true_type {};

// t * scale; a sparse t stays sparse, its values scaled (TensorFlow's
// IndexedSlices(values * scale, indices)).
template <class T, class S>
constexpr auto scaled(const T& t, const S& scale) {
  if constexpr (is_gather_gradient<T>::value) {
    auto values = make_node<indexed_slices_values<T>>(t) * scale;
    return make_node<gather_gradient_node<decltype(values), mp::mp_at_c<inputs_of<T>, 1>, indexed_slices_indices<T>>>(
        values, t);
  } else if constexpr (indexed_slices<T>) {  // a sum of sparse gradients
    auto a = scaled(make_node<mp::mp_at_c<inputs_of<T>, 0>>(t), scale);
    auto b = scaled(make_node<mp::mp_at_c<inputs_of<T>, 1>>(t), scale);
    return make_node<elementwise_node<fn::add, decltype(a), decltype(b)>>(a, b);
  } else {
    return t * scale;
  }
}

}  // namespace train::detail

/// tf.global_norm(ts): sqrt of the sum of the squares of every element of every t (of its
/// values for an embedding's sparse gradient, as TensorFlow's).
template <node... T>
constexpr auto global_norm(T... t) {
  return sqrt((train::detail::sum_of_squares(t) + ...));
}

/// tf.clip_by_global_norm(ts, clip_norm): (clipped ts, global norm), each clipped t
/// being t * clip_norm / max(global_norm, clip_norm) (TensorFlow's clip_norm * min(1 /
/// global_norm, 1 / clip_norm)); NaN everywhere when the global norm is infinite or NaN. Dense and sparse gradients mix: a
/// sparse one (ops/embedding.hpp) counts its values in the norm and stays sparse, its
/// values scaled, so an optimizer still applies it to the touched rows only.
template <node C, node... T>
constexpr auto clip_by_global_norm(const std::tuple<T...>& ts, const C& clip_norm) {
  static_assert(train::detail::check_clip_norm<C>() || true);  // one error, from the check
  // Tuples of gradient nodes are built empty, then assigned: g++ 12 resolving std::tuple's
  // constructor templates with arguments of deep node types takes time exponential in the
  // graph's depth (docs/ARCHITECTURE.md, "Compile time in large graphs").
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    auto norm = global_norm(std::get<I>(ts)...);
    // TensorFlow's scale, in its order: clip_norm * min(1 / norm, 1 / clip_norm), plus
    // norm - norm, which is 0 for a finite norm and NaN for an infinite or NaN one, so that
    // every clipped value is NaN then (clip_ops_test.py, testClipByGlobalNormInf).
    using V = value_type_of<decltype(norm)>;
    auto one = literal_node<1, V>{};
    auto scale = clip_norm * minimum(one / norm, one / clip_norm) + (norm - norm);
    std::pair<std::tuple<decltype(train::detail::scaled(std::get<I>(ts), scale))...>, decltype(norm)> out{};
    ((std::get<I>(out.first) = train::detail::scaled(std::get<I>(ts), scale)), ...);
    out.second = norm;
    return out;
  }(std::index_sequence_for<T...>{});
}

}  // namespace typeflow
