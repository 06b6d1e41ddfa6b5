// typeflow/ops/weighted_losses.hpp — TensorFlow 1.x's tf.losses (tf.compat.v1.losses), in
// namespace typeflow::losses: losses with weights and a reduction.
//
// Each loss builds TensorFlow's elementwise (or per-row) losses from existing ops, so its
// gradient comes from theirs, then weighs and reduces them as compute_weighted_loss does
// (ops/weighted_loss.hpp: the reductions, the weights rule). The weights and the reduction
// follow the two inputs: (w), (r) or (w, r).
//
// TensorFlow's keyword arguments given as Python numbers, which shape the graph, are template
// arguments: huber_loss<delta>, log_loss<epsilon>, sigmoid_cross_entropy<label_smoothing>,
// softmax_cross_entropy<label_smoothing>, cosine_distance<axis>.
#pragma once

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/activation.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/broadcast_gradient.hpp"
#include "typeflow/ops/compare.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"
#include "typeflow/ops/expand.hpp"
#include "typeflow/ops/losses.hpp"
#include "typeflow/ops/math.hpp"
#include "typeflow/ops/reduce.hpp"
#include "typeflow/ops/select.hpp"
#include "typeflow/ops/weighted_loss.hpp"

namespace typeflow::ops::detail {

// --- checks of the inputs ---------------------------------------------------------------------

/// What a loss whose inputs failed a check returns: the error is the one to read.
template <class P>
constexpr auto inert_loss() {
  if constexpr (floating_element<value_type_of<P>>) {
    return literal_node<0, value_type_of<P>>{};
  } else {
    return literal_node<0, float>{};
  }
}

/// Whether the loss Loss accepts labels L and predictions P: float or double predictions of
/// the labels' shape (TensorFlow's assert_is_compatible_with). Otherwise one error, and false.
template <fixed_string Loss, class L, class P>
constexpr bool loss_inputs_ok() {
  if constexpr (!floating_element<value_type_of<P>>) {
    static_assert(losses::loss_needs_float_or_double_predictions<Loss, value_type_of<P>>::value,
                  "typeflow::losses: the predictions (logits) must be float or double: use typeflow::cast<float>(x)");
    return false;
  } else if constexpr (!same_shape_possible<shape_of<L>, shape_of<P>>()) {
    static_assert(losses::labels_and_predictions_must_have_the_same_shape<Loss, shape_of<L>, shape_of<P>>::value,
                  "typeflow::losses: the labels and the predictions (logits) must have the same shape");
    return false;
  } else {
    return true;
  }
}

/// reduce_sum over every axis but the first, keeping them with size 1 ([batch, 1, ..., 1]).
template <class X, std::size_t... I>
constexpr auto reduce_sum_per_batch(const X& x, std::index_sequence<I...>) {
  return reduce_sum<static_cast<std::ptrdiff_t>(I + 1)...>(x, keep_dims);
}
template <class X>
constexpr auto reduce_sum_per_batch(const X& x) {
  return reduce_sum_per_batch(x, std::make_index_sequence<shape_of<X>::rank - 1>{});
}

/// The number of elements of each batch entry of v ([batch, ...]) where w is nonzero
/// (_num_present(v, w, per_batch=True)): [batch, 1, ..., 1], or a literal.
template <class T, class V, class W>
constexpr auto num_present_per_batch(const V& v, const W& w) {
  using S = shape_of<V>;
  if constexpr (literal_node_type<W>) {
    constexpr bool static_rows = [] {
      for (std::size_t i = 1; i < S::rank; ++i)
        if (S::dims[i] == dyn) return false;
      return true;
    }();
    if constexpr (static_cast<double>(W::value_as_written) == 0) {
      return literal_node<0.0, T>{};
    } else if constexpr (static_rows) {
      constexpr double n = [] {
        double p = 1;
        for (std::size_t i = 1; i < S::rank; ++i) p *= static_cast<double>(S::dims[i]);
        return p;
      }();
      return literal_node<n, T>{};
    } else {
      return reduce_sum_per_batch(ones_like(v));
    }
  } else {
    return reduce_sum_per_batch(broadcast_to_values(nonzero_indicator<T>(w), v));
  }
}

/// max(x, 0), for a literal when the graph is built.
template <class T, class X>
constexpr auto at_least_0(const X& x) {
  if constexpr (literal_node_type<X>) {
    return literal_node<std::max(static_cast<double>(X::value_as_written), 0.0), T>{};
  } else {
    return maximum(x, literal_node<0, T>{});
  }
}

/// n - 1 and n (n - 1), for a literal n when the graph is built.
template <class T, class N>
constexpr auto minus_1(const N& n) {
  if constexpr (literal_node_type<N>) {
    return literal_node<static_cast<double>(N::value_as_written) - 1, T>{};
  } else {
    return n - literal_node<1, T>{};
  }
}
template <class T, class N>
constexpr auto times_minus_1(const N& n) {
  if constexpr (literal_node_type<N>) {
    constexpr double v = static_cast<double>(N::value_as_written);
    return literal_node<v * (v - 1), T>{};
  } else {
    return n * (n - literal_node<1, T>{});
  }
}

/// The loss when sum(n) > 0, else 0 (mean_pairwise_squared_error's last step).
template <class T, class X, class N>
constexpr auto zero_unless_present(const X& loss, const N& n) {
  if constexpr (literal_node_type<N>) {
    if constexpr (static_cast<double>(N::value_as_written) > 0) {
      return loss;
    } else {
      return zeros_like(loss);
    }
  } else {
    return where(greater(reduce_sum(n), literal_node<0, T>{}), loss, zeros_like(loss));
  }
}

}  // namespace typeflow::ops::detail

namespace typeflow::losses {

/// The trailing arguments of a loss: (), (weights), (reduction) or (weights, reduction).
template <class... Options>
concept weights_then_reduction = ops::detail::loss_options<Options...>::valid;

/// tf.losses.compute_weighted_loss(losses, weights=1.0, reduction=SUM_BY_NONZERO_WEIGHTS):
/// `compute_weighted_loss(values[, weights][, reduction])`. values are float or double.
template <node V, class... Options>
  requires weights_then_reduction<Options...>
constexpr auto compute_weighted_loss(const V& values, const Options&... options) {
  if constexpr (!floating_element<value_type_of<V>>) {
    static_assert(loss_needs_float_or_double_predictions<"compute_weighted_loss", value_type_of<V>>::value,
                  "typeflow::losses::compute_weighted_loss(losses, ...): the losses must be float or double: use "
                  "typeflow::cast<float>(x)");
    return literal_node<0, float>{};  // inert
  } else {
    return ops::detail::weighted_loss<"compute_weighted_loss">(values, options...);
  }
}

/// tf.losses.absolute_difference(labels, predictions, ...): |predictions - labels|, weighed and
/// reduced.
template <node L, node P, class... Options>
  requires weights_then_reduction<Options...>
constexpr auto absolute_difference(const L& labels, const P& predictions, const Options&... options) {
  if constexpr (!ops::detail::loss_inputs_ok<"absolute_difference", L, P>()) {
    return ops::detail::inert_loss<P>();
  } else {
    const auto error = predictions - ops::detail::as_element<value_type_of<P>>(labels);
    return ops::detail::weighted_loss<"absolute_difference">(typeflow::abs(error), options...);
  }
}

/// tf.losses.mean_squared_error(labels, predictions, ...): (predictions - labels)^2, weighed
/// and reduced. (typeflow::mean_squared_error, without weights, is the plain mean.)
template <node L, node P, class... Options>
  requires weights_then_reduction<Options...>
constexpr auto mean_squared_error(const L& labels, const P& predictions, const Options&... options) {
  if constexpr (!ops::detail::loss_inputs_ok<"mean_squared_error", L, P>()) {
    return ops::detail::inert_loss<P>();
  } else {
    const auto error = predictions - ops::detail::as_element<value_type_of<P>>(labels);
    return ops::detail::weighted_loss<"mean_squared_error">(typeflow::square(error), options...);
  }
}

/// tf.losses.huber_loss(labels, predictions, weights, delta=Delta, ...): with e =
/// |predictions - labels| and q = min(e, delta), 0.5 q^2 + delta (e - q), weighed and reduced.
/// `huber_loss(y, p)`, `huber_loss<0.5>(y, p, w, reduction::sum)`.
template <double Delta = 1.0, node L, node P, class... Options>
  requires weights_then_reduction<Options...>
constexpr auto huber_loss(const L& labels, const P& predictions, const Options&... options) {
  if constexpr (!ops::detail::loss_inputs_ok<"huber_loss", L, P>()) {
    return ops::detail::inert_loss<P>();
  } else {
    using T = value_type_of<P>;
    const auto abs_error = typeflow::abs(predictions - ops::detail::as_element<T>(labels));
    const auto quadratic = minimum(abs_error, literal_node<Delta, T>{});
    // Not maximum(e - delta, 0): at e == delta its gradient would add to the quadratic's.
    const auto linear = abs_error - quadratic;
    const auto values = literal_node<0.5, T>{} * (quadratic * quadratic) + literal_node<Delta, T>{} * linear;
    return ops::detail::weighted_loss<"huber_loss">(values, options...);
  }
}

/// tf.losses.log_loss(labels, predictions, weights, epsilon=Epsilon, ...):
/// -labels log(predictions + eps) - (1 - labels) log(1 - predictions + eps), weighed and reduced.
template <double Epsilon = 1e-7, node L, node P, class... Options>
  requires weights_then_reduction<Options...>
constexpr auto log_loss(const L& labels, const P& predictions, const Options&... options) {
  if constexpr (!ops::detail::loss_inputs_ok<"log_loss", L, P>()) {
    return ops::detail::inert_loss<P>();
  } else {
    using T = value_type_of<P>;
    const auto y = ops::detail::as_element<T>(labels);
    const literal_node<1, T> one;
    const literal_node<Epsilon, T> eps;
    const auto values = -(y * typeflow::log(predictions + eps)) - (one - y) * typeflow::log(one - predictions + eps);
    return ops::detail::weighted_loss<"log_loss">(values, options...);
  }
}

/// tf.losses.hinge_loss(labels, logits, ...): labels in {0, 1} become -1 and 1;
/// relu(1 - labels * logits), weighed and reduced.
template <node L, node P, class... Options>
  requires weights_then_reduction<Options...>
constexpr auto hinge_loss(const L& labels, const P& logits, const Options&... options) {
  if constexpr (!ops::detail::loss_inputs_ok<"hinge_loss", L, P>()) {
    return ops::detail::inert_loss<P>();
  } else {
    using T = value_type_of<P>;
    const literal_node<1, T> one;
    const auto signs = literal_node<2, T>{} * ops::detail::as_element<T>(labels) - one;
    return ops::detail::weighted_loss<"hinge_loss">(relu(one - signs * logits), options...);
  }
}

/// tf.losses.cosine_distance(labels, predictions, axis=Axis, ...): 1 - sum(predictions *
/// labels) along the axis, kept with size 1 (the inputs are taken as unit-normalized),
/// weighed and reduced. The axis has no default, as in TensorFlow: `cosine_distance<1>(y, p)`.
template <std::ptrdiff_t Axis, node L, node P, class... Options>
  requires weights_then_reduction<Options...>
constexpr auto cosine_distance(const L& labels, const P& predictions, const Options&... options) {
  if constexpr (!ops::detail::loss_inputs_ok<"cosine_distance", L, P>()) {
    return ops::detail::inert_loss<P>();
  } else {
    using T = value_type_of<P>;
    const auto radial = predictions * ops::detail::as_element<T>(labels);
    const auto values = literal_node<1, T>{} - reduce_sum<Axis>(radial, keep_dims);
    return ops::detail::weighted_loss<"cosine_distance">(values, options...);
  }
}

/// tf.losses.sigmoid_cross_entropy(multi_class_labels, logits, weights,
/// label_smoothing=LabelSmoothing, ...): labels (of any element type, cast to the logits')
/// smoothed towards 1/2 when LabelSmoothing > 0, z (1 - s) + s / 2, then
/// sigmoid_cross_entropy_with_logits, weighed and reduced.
template <double LabelSmoothing = 0.0, node L, node X, class... Options>
  requires weights_then_reduction<Options...>
constexpr auto sigmoid_cross_entropy(const L& multi_class_labels, const X& logits, const Options&... options) {
  if constexpr (!ops::detail::loss_inputs_ok<"sigmoid_cross_entropy", L, X>()) {
    return ops::detail::inert_loss<X>();
  } else {
    using T = value_type_of<X>;
    const auto z = ops::detail::as_element<T>(multi_class_labels);
    if constexpr (LabelSmoothing > 0) {
      const auto smoothed = z * literal_node<1.0 - LabelSmoothing, T>{} + literal_node<0.5 * LabelSmoothing, T>{};
      return ops::detail::weighted_loss<"sigmoid_cross_entropy">(
          sigmoid_cross_entropy_with_logits(smoothed, logits), options...);
    } else {
      return ops::detail::weighted_loss<"sigmoid_cross_entropy">(sigmoid_cross_entropy_with_logits(z, logits),
                                                                 options...);
    }
  }
}

/// tf.losses.softmax_cross_entropy(onehot_labels, logits, weights,
/// label_smoothing=LabelSmoothing, ...): labels (cast to the logits' type) smoothed towards
/// 1/classes when LabelSmoothing > 0, z (1 - s) + s / classes (classes: the last dimension),
/// no gradient to them, then softmax_cross_entropy_with_logits per row: the losses are the
/// logits' shape without its last dimension; weighed and reduced.
template <double LabelSmoothing = 0.0, node L, node X, class... Options>
  requires weights_then_reduction<Options...>
constexpr auto softmax_cross_entropy(const L& onehot_labels, const X& logits, const Options&... options) {
  if constexpr (!ops::detail::loss_inputs_ok<"softmax_cross_entropy", L, X>()) {
    return ops::detail::inert_loss<X>();
  } else {
    using T = value_type_of<X>;
    using S = shape_of<X>;
    const auto z = ops::detail::as_element<T>(onehot_labels);
    const auto smoothed = [&] {
      if constexpr (LabelSmoothing <= 0) {
        return z;
      } else if constexpr (S::rank > 0 && S::dims[S::rank - 1] != dyn) {
        constexpr double classes = static_cast<double>(S::dims[S::rank - 1]);
        return z * literal_node<1.0 - LabelSmoothing, T>{} + literal_node<LabelSmoothing / classes, T>{};
      } else {
        return z * literal_node<1.0 - LabelSmoothing, T>{} +
               literal_node<LabelSmoothing, T>{} / reduce_sum<-1>(ones_like(z), keep_dims);
      }
    }();
    return ops::detail::weighted_loss<"softmax_cross_entropy">(
        softmax_cross_entropy_with_logits(stop_gradient(smoothed), logits), options...);
  }
}

/// tf.losses.sparse_softmax_cross_entropy(labels, logits, ...): labels int32 or int64 class
/// indices [batch] (or [batch, 1], squeezed), logits [batch, classes]; the losses are [batch]
/// (sparse_softmax_cross_entropy_with_logits). Weights of rank 2 ([batch, 1]) are squeezed to
/// rank 1 first, as TensorFlow's _remove_squeezable_dimensions does.
template <node L, node X, class... Options>
  requires weights_then_reduction<Options...>
constexpr auto sparse_softmax_cross_entropy(const L& labels, const X& logits, const Options&... options) {
  using LS = shape_of<L>;
  using XS = shape_of<X>;
  if constexpr (LS::rank == XS::rank && LS::rank > 0) {
    // [batch, 1] labels: the last dimension squeezed.
    if constexpr (LS::dims[LS::rank - 1] != 1 && LS::dims[LS::rank - 1] != dyn) {
      static_assert(labels_and_logits_shapes_must_match<LS, XS>::value,
                    "typeflow::losses::sparse_softmax_cross_entropy(labels, logits): labels must be [batch] (or "
                    "[batch, 1]) class indices and logits [batch, classes]");
      return ops::detail::inert_loss<X>();
    } else {
      return sparse_softmax_cross_entropy(squeeze<-1>(labels), logits, options...);
    }
  } else {
    const auto values = sparse_softmax_cross_entropy_with_logits(labels, logits);
    using V = std::remove_const_t<decltype(values)>;
    const auto w = ops::detail::weights_of(options...);
    using W = std::remove_const_t<decltype(w)>;
    if constexpr (!std::is_same_v<value_type_of<V>, value_type_of<X>> || shape_of<V>::rank != 1) {
      return values;  // inert: sparse_softmax_cross_entropy_with_logits' error is the one to read
    } else if constexpr (ops::detail::rank_of_weights<W>() == 2) {
      // [batch, 1] weights of [batch] losses: squeezed.
      using WS = shape_of<W>;
      if constexpr (WS::dims[1] != 1 && WS::dims[1] != dyn) {
        static_assert(
            weights_can_not_be_broadcast_to_the_losses<"sparse_softmax_cross_entropy", WS, shape_of<V>>::value,
            "typeflow::losses: weights can not be broadcast to the losses: give a scalar, or weights of the losses' "
            "rank with each dimension 1 or the losses' (TensorFlow's assert_broadcastable)");
        return values;  // inert
      } else {
        return ops::detail::reduce_weighted(
            values, ops::detail::checked_weights<"sparse_softmax_cross_entropy">(values, squeeze<-1>(w)),
            typename ops::detail::loss_options<Options...>::reduction{});
      }
    } else {
      return ops::detail::weighted_loss<"sparse_softmax_cross_entropy">(values, options...);
    }
  }
}

/// tf.losses.mean_pairwise_squared_error(labels, predictions, weights=1.0): for each batch
/// entry ([batch, d0, ...]) with n present elements (nonzero weights), the mean over the
/// pairs i < j of ((p_i - p_j) - (y_i - y_j))^2, computed as TensorFlow does, as
/// 2 sum(d^2) / (n - 1) - 2 (sum d)^2 / (n (n - 1)) with d = p - y and div_no_nan; times
/// the weights (checked against the labels' shape), summed. A scalar; no reduction argument,
/// as in TensorFlow.
template <node L, node P, weights_argument W = ops::detail::unit_weight>
constexpr auto mean_pairwise_squared_error(const L& labels, const P& predictions, const W& weights = {}) {
  if constexpr (!ops::detail::loss_inputs_ok<"mean_pairwise_squared_error", L, P>()) {
    return ops::detail::inert_loss<P>();
  } else if constexpr (shape_of<P>::rank < 2) {
    static_assert(loss_needs_predictions_of_rank_2_or_more<"mean_pairwise_squared_error", shape_of<P>>::value,
                  "typeflow::losses::mean_pairwise_squared_error(labels, predictions): the inputs must be "
                  "[batch, d0, ...], of rank 2 or more");
    return ops::detail::inert_loss<P>();
  } else {
    using T = value_type_of<P>;
    const auto diffs = predictions - ops::detail::as_element<T>(labels);
    const auto w = ops::detail::checked_weights<"mean_pairwise_squared_error">(diffs, weights);
    const auto n = ops::detail::num_present_per_batch<T>(diffs, w);
    const literal_node<2, T> two;
    const auto term1 = two * ops::detail::div_no_nan(ops::detail::reduce_sum_per_batch(typeflow::square(diffs)),
                                                     ops::detail::at_least_0<T>(ops::detail::minus_1<T>(n)));
    const auto term2 = two * ops::detail::div_no_nan(typeflow::square(ops::detail::reduce_sum_per_batch(diffs)),
                                                     ops::detail::at_least_0<T>(ops::detail::times_minus_1<T>(n)));
    return ops::detail::zero_unless_present<T>(reduce_sum(ops::detail::weigh(term1 - term2, w)), n);
  }
}

}  // namespace typeflow::losses
