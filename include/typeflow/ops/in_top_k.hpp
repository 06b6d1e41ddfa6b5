// typeflow/ops/in_top_k.hpp — tf.nn.in_top_k(predictions, targets, k) (ops InTopK, InTopKV2).
//
// out[b] holds when fewer than k classes of row b have a prediction strictly larger than
// the target's, so classes that tie with the target count as in (TensorFlow's kernel). It is
// false when the target is outside [0, classes) or any prediction of the row is not finite
// (TensorFlow cannot say then); a k of 0 or less gives false everywhere. No gradient flows,
// as TensorFlow registers none.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"

namespace typeflow {

/// In a diagnostic: in_top_k's predictions, which are not [batch, classes] of float or double.
template <class ElementType, class Shape>
struct in_top_k_predictions_must_be_float_or_double_of_batch_by_classes {
  static constexpr bool value = false;
};
/// In a diagnostic: the element type of in_top_k's targets, which is not int32 or int64.
template <class ElementType>
struct in_top_k_targets_must_be_int32_or_int64 {
  static constexpr bool value = false;
};
/// In a diagnostic: in_top_k's targets, which are not a vector of one target per row of the
/// predictions.
template <class TargetsShape, class PredictionsShape>
struct in_top_k_targets_must_be_a_vector_over_the_batch {
  static constexpr bool value = false;
};

/// InTopK: bool [batch]. Differentiable, but no gradient flows.
template <class P, class T, std::ptrdiff_t K>
struct in_top_k_node : node_facade<bool, shape<(shape_of<P>::dims[0] != dyn ? shape_of<P>::dims[0] : shape_of<T>::dims[0])>,
                                   node_kind::compute, P, T>,
                       op_info<"InTopKV2"> {
  template <class... N>
  using rebind = in_top_k_node<N..., K>;
  template <std::size_t J, class G>
  using gradient = no_gradient;

  template <class Out, class VP, class VT>
  static void compute(Out& out, const VP& predictions, const VT& targets) {
    using V = value_type_of<P>;
    const auto pd = ops::detail::dims_of<2>(predictions);
    const auto td = ops::detail::dims_of<1>(targets);
    if (pd[0] != td[0])
      throw invalid_argument_error("typeflow::in_top_k<" + std::to_string(K) + ">(predictions, targets) (InTopKV2): " +
                                   "First dimension of predictions " + std::to_string(pd[0]) +
                                   " must match length of targets " + std::to_string(td[0]));
    ops::detail::resize_unless_static<shape_of<in_top_k_node>::is_static>(out, td);
    const std::size_t batch = pd[0], classes = pd[1];
    const V* p = predictions.data();
    const auto* t = targets.data();
    auto* o = out.data();
    for (std::size_t b = 0; b < batch; ++b) {
      const V* row = p + b * classes;
      const auto target = t[b];
      bool cannot_say = target < 0 || static_cast<std::size_t>(target) >= classes ||
                        !std::isfinite(row[static_cast<std::size_t>(target)]);
      std::ptrdiff_t larger = 0;
      if (!cannot_say) {
        const V target_prediction = row[static_cast<std::size_t>(target)];
        for (std::size_t c = 0; c < classes; ++c) {
          if (!std::isfinite(row[c])) {
            cannot_say = true;
            break;
          }
          if (row[c] > target_prediction && ++larger > K) break;
        }
      }
      o[b] = !cannot_say && larger < K;
    }
  }
};

/// `in_top_k<k>(predictions, targets)` is tf.nn.in_top_k(predictions, targets, k):
/// predictions [batch, classes] of float or double, targets [batch] of int32 or int64;
/// bool [batch], whether each target is among the k largest predictions of its row
/// (ties with the target count as in). Static batch sizes must agree; dynamic ones are
/// checked by the run (InvalidArgument).
template <std::ptrdiff_t K, node P, node T>
constexpr auto in_top_k(const P& predictions, const T& targets) {
  using PS = shape_of<P>;
  using TS = shape_of<T>;
  using TT = value_type_of<T>;
  if constexpr (PS::rank != 2 || !std::is_floating_point_v<value_type_of<P>>) {
    static_assert(in_top_k_predictions_must_be_float_or_double_of_batch_by_classes<value_type_of<P>, PS>::value,
                  "typeflow::in_top_k<k>(predictions, targets): predictions must be [batch, classes] of float or "
                  "double");
    return predictions;  // inert: the error above is the one to read
  } else if constexpr (!std::is_same_v<TT, std::int32_t> && !std::is_same_v<TT, std::int64_t>) {
    static_assert(in_top_k_targets_must_be_int32_or_int64<TT>::value,
                  "typeflow::in_top_k<k>(predictions, targets): targets must be int32 or int64 class ids");
    return predictions;
  } else if constexpr (TS::rank != 1 || (PS::dims[0] != dyn && TS::dims[0] != dyn && PS::dims[0] != TS::dims[0])) {
    static_assert(in_top_k_targets_must_be_a_vector_over_the_batch<TS, PS>::value,
                  "typeflow::in_top_k<k>(predictions, targets): targets must be a vector with one class id per row "
                  "of predictions");
    return predictions;
  } else {
    return make_node<in_top_k_node<P, T, K>>(predictions, targets);
  }
}

}  // namespace typeflow
