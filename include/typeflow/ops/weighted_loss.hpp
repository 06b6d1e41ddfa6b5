// typeflow/ops/weighted_loss.hpp — how tf.losses weighs and reduces a loss
// (ops/weighted_losses.hpp, TensorFlow's compute_weighted_loss): the reduction tags, the
// trailing arguments (weights, reduction), TensorFlow's rule for weights
// (assert_broadcastable, statically where the shapes are static, when the values are fed
// otherwise), the counts, the safe division (div_no_nan) and the weighted reduction.
//
// compute_weighted_loss:
//
//   reduction::none                    losses * weights, in the losses' shape
//   reduction::sum                     S = sum(losses * weights)
//   reduction::mean                    S / sum(weights broadcast to the losses)
//   reduction::sum_over_batch_size     S / number of losses
//   reduction::sum_by_nonzero_weights  S / number of nonzero weights broadcast to the losses
//                                      (the default; also spelled sum_over_nonzero_weights)
//
// A division by 0 gives 0 with a zero gradient (TensorFlow's div_no_nan): all-zero weights
// give a loss of 0. The result has the predictions' (logits') element type.
//
// weights: a node of any element type (cast to the losses'), of rank 0, or of the losses'
// rank with each dimension 1 or the losses' (TensorFlow's assert_broadcastable). A static
// shape that breaks the rule is a compile error naming both shapes; a dynamic dimension is
// checked when the values are fed (invalid_argument_error, TensorFlow's message). A number
// is a literal, `constant<2.3>()` (TensorFlow's Python float); the default weight is 1.
// The weights and the reduction follow the two inputs: (w), (r) or (w, r).
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

namespace typeflow::losses {

/// tf.losses.Reduction, as tags: `losses::absolute_difference(y, p, w, losses::reduction::sum)`.
namespace reduction {
/// NONE: the weighted losses, unreduced.
struct none_t {
  explicit constexpr none_t() = default;
};
inline constexpr none_t none{};
/// SUM: the sum of the weighted losses.
struct sum_t {
  explicit constexpr sum_t() = default;
};
inline constexpr sum_t sum{};
/// MEAN: the sum divided by the sum of the weights (broadcast to the losses).
struct mean_t {
  explicit constexpr mean_t() = default;
};
inline constexpr mean_t mean{};
/// SUM_OVER_BATCH_SIZE: the sum divided by the number of losses.
struct sum_over_batch_size_t {
  explicit constexpr sum_over_batch_size_t() = default;
};
inline constexpr sum_over_batch_size_t sum_over_batch_size{};
/// SUM_BY_NONZERO_WEIGHTS (= SUM_OVER_NONZERO_WEIGHTS), TensorFlow 1.x's default: the sum
/// divided by the number of nonzero weights (broadcast to the losses).
struct sum_by_nonzero_weights_t {
  explicit constexpr sum_by_nonzero_weights_t() = default;
};
inline constexpr sum_by_nonzero_weights_t sum_by_nonzero_weights{};
inline constexpr sum_by_nonzero_weights_t sum_over_nonzero_weights{};
}  // namespace reduction

/// One of the reduction tags.
template <class R>
concept reduction_tag = std::same_as<R, reduction::none_t> || std::same_as<R, reduction::sum_t> ||
                        std::same_as<R, reduction::mean_t> || std::same_as<R, reduction::sum_over_batch_size_t> ||
                        std::same_as<R, reduction::sum_by_nonzero_weights_t>;

/// What may stand for the weights: a node, or a number (which is refused with the fix: a
/// literal node).
template <class W>
concept weights_argument = node<W> || std::is_arithmetic_v<W>;

// --- diagnostics ------------------------------------------------------------------------------

/// In a diagnostic: the loss, and the static shapes of weights that are neither a scalar nor
/// of the losses' rank with each dimension 1 or the losses' (TensorFlow: "weights can not be
/// broadcast to values").
template <fixed_string Loss, class WeightsShape, class LossesShape>
struct weights_can_not_be_broadcast_to_the_losses {
  static constexpr bool value = false;
};
/// In a diagnostic: the loss, and the static shapes of its labels and predictions (or
/// logits), which must be the same.
template <fixed_string Loss, class LabelsShape, class PredictionsShape>
struct labels_and_predictions_must_have_the_same_shape {
  static constexpr bool value = false;
};
/// In a diagnostic: the loss, and the element type of its predictions (or logits), which
/// must be float or double.
template <fixed_string Loss, class ElementType>
struct loss_needs_float_or_double_predictions {
  static constexpr bool value = false;
};
/// In a diagnostic: the loss, and the C++ type of the number given as weights.
template <fixed_string Loss, class Number>
struct weights_given_as_a_number_must_be_a_literal_node {
  static constexpr bool value = false;
};
/// In a diagnostic: the loss, and the static shape of predictions that are not [batch, ...].
template <fixed_string Loss, class PredictionsShape>
struct loss_needs_predictions_of_rank_2_or_more {
  static constexpr bool value = false;
};

}  // namespace typeflow::losses

namespace typeflow::ops::detail {

/// The default weights: TensorFlow's weights=1.0.
using unit_weight = literal_node<1.0, double>;

/// x as a node of element type T: a literal takes T, another type is cast.
template <class T, class X>
constexpr auto as_element(const X& x) {
  if constexpr (literal_node_type<X>) {
    return typename X::template as<T>{};
  } else if constexpr (std::is_same_v<value_type_of<X>, T>) {
    return x;
  } else {
    return typeflow::cast<T>(x);
  }
}

/// Whether W is a literal of value v.
template <class W>
constexpr bool is_literal_of(double v) {
  if constexpr (literal_node_type<W>) {
    return static_cast<double>(W::value_as_written) == v;
  } else {
    return false;
  }
}

// --- the trailing arguments: (), (weights), (reduction), (weights, reduction) -----------------

template <class... O>
struct loss_options {
  static constexpr bool valid = false;
};
template <>
struct loss_options<> {
  static constexpr bool valid = true;
  using reduction = losses::reduction::sum_by_nonzero_weights_t;
};
template <class A>
struct loss_options<A> {
  static constexpr bool valid = losses::weights_argument<A> || losses::reduction_tag<A>;
  using reduction = std::conditional_t<losses::reduction_tag<A>, A, losses::reduction::sum_by_nonzero_weights_t>;
};
template <class A, class B>
struct loss_options<A, B> {
  static constexpr bool valid = losses::weights_argument<A> && losses::reduction_tag<B>;
  using reduction = B;
};

/// The weights among the trailing arguments, or the default.
inline constexpr unit_weight weights_of() { return {}; }
template <class A, class... Rest>
constexpr auto weights_of(const A& a, const Rest&...) {
  if constexpr (losses::reduction_tag<A>) {
    return unit_weight{};
  } else {
    return a;
  }
}

/// The rank of the weights: a node's, or 0 for a number (refused later, with the fix).
template <class W>
constexpr std::size_t rank_of_weights() {
  if constexpr (node<W>) {
    return shape_of<W>::rank;
  } else {
    return 0;
  }
}

// --- TensorFlow's rule for weights (weights_broadcast_ops.assert_broadcastable) ---------------

enum class weights_fit { yes, when_fed, no };

/// Whether weights of static shape W fit losses of static shape L: yes, no, or only if the
/// values fed agree (a dynamic dimension that is not a static 1 in W).
template <class W, class L>
constexpr weights_fit weights_fit_of() {
  if constexpr (W::rank == 0) {
    return weights_fit::yes;
  } else if constexpr (W::rank != L::rank) {
    return weights_fit::no;
  } else {
    weights_fit fit = weights_fit::yes;
    for (std::size_t i = 0; i < W::rank; ++i) {
      const std::ptrdiff_t w = W::dims[i], l = L::dims[i];
      if (w == 1) continue;
      if (w == dyn || l == dyn) {
        fit = weights_fit::when_fed;
      } else if (w != l) {
        return weights_fit::no;
      }
    }
    return fit;
  }
}

/// The weights W, checked when the graph runs against the shape of the values V they weigh:
/// each dimension 1 or the values'. Its gradient passes to the weights.
template <class W, class V>
struct weights_check_node : node_facade<value_type_of<W>, shape_of<W>, node_kind::compute, W, V>,
                            op_info<"Assert"> {
  template <class... N>
  using rebind = weights_check_node<N...>;
  template <std::size_t K, class G>
  using gradient = mp::mp_if_c<K == 0, G, no_gradient>;

  template <class Out, class VW, class VV>
  static void compute(Out& out, const VW& w, const VV& values) {
    constexpr std::size_t r = shape_of<W>::rank;
    const auto wd = dims_of<r>(w);
    const auto vd = dims_of<r>(values);
    for (std::size_t i = 0; i < r; ++i)
      if (wd[i] != 1 && wd[i] != vd[i])
        throw invalid_argument_error("weights can not be broadcast to values. values.shape=" + shape_string(vd) +
                                     ". weights.shape=" + shape_string(wd) + ".");
    resize_unless_static<shape_of<W>::is_static>(out, wd);
    std::copy(w.begin(), w.end(), out.begin());
  }
};

/// The weights of the loss Loss in the values' element type, checked against the values'
/// shape: the weights themselves, the weights checked when fed, or one compile error naming
/// the loss and both shapes.
template <fixed_string Loss, class V, class W>
constexpr auto checked_weights(const V& values, const W& weights) {
  using T = value_type_of<V>;
  if constexpr (!node<W>) {
    static_assert(losses::weights_given_as_a_number_must_be_a_literal_node<Loss, W>::value,
                  "typeflow::losses: weights given as a C++ number: write a literal, typeflow::constant<2.3>() "
                  "(a number known when the graph is built), or pass a node (a placeholder, a named constant)");
    return literal_node<0, T>{};  // inert: the error above is the one to read
  } else {
    const auto w = as_element<T>(weights);
    using WS = shape_of<std::remove_const_t<decltype(w)>>;
    constexpr weights_fit fit = weights_fit_of<WS, shape_of<V>>();
    if constexpr (fit == weights_fit::no) {
      static_assert(losses::weights_can_not_be_broadcast_to_the_losses<Loss, WS, shape_of<V>>::value,
                    "typeflow::losses: weights can not be broadcast to the losses: give a scalar, or weights of the "
                    "losses' rank with each dimension 1 or the losses' (TensorFlow's assert_broadcastable)");
      return literal_node<0, T>{};  // inert
    } else if constexpr (fit == weights_fit::when_fed) {
      return make_node<weights_check_node<std::remove_const_t<decltype(w)>, V>>(w, values);
    } else {
      return w;
    }
  }
}

// --- counts and the safe division -------------------------------------------------------------

/// The number of elements of v, in T: a literal for a static shape.
template <class T, class V>
constexpr auto element_count(const V& v) {
  if constexpr (shape_of<V>::is_static) {
    return literal_node<static_cast<double>(shape_of<V>::size), T>{};
  } else {
    return reduce_sum(ones_like(v));
  }
}

/// x broadcast to v's shape (TensorFlow's broadcast_weights: x * ones_like(v)).
template <class X, class V>
constexpr auto broadcast_to_values(const X& x, const V& v) {
  if constexpr (std::is_same_v<shape_of<X>, shape_of<V>> && shape_of<V>::is_static) {
    return x;
  } else {
    return x * ones_like(v);
  }
}

/// 1 where w is nonzero, else 0, in T.
template <class T, class W>
constexpr auto nonzero_indicator(const W& w) {
  return typeflow::cast<T>(not_equal(w, literal_node<0, T>{}));
}

/// a / b, or 0 where b is 0, with a zero gradient there (TensorFlow's div_no_nan). b has a's
/// shape or is a scalar; a literal b is resolved when the graph is built.
template <class A, class B>
constexpr auto div_no_nan(const A& a, const B& b) {
  if constexpr (literal_node_type<B>) {
    if constexpr (static_cast<double>(B::value_as_written) == 0) {
      return zeros_like(a);
    } else {
      return a / b;
    }
  } else {
    const auto is_zero = equal(b, literal_node<0, value_type_of<B>>{});
    return where(is_zero, zeros_like(a), a / where(is_zero, ones_like(b), b));
  }
}

// --- compute_weighted_loss --------------------------------------------------------------------

/// The values weighed: values * w, or the values for a weight of literal 1.
template <class V, class W>
constexpr auto weigh(const V& values, const W& w) {
  if constexpr (is_literal_of<W>(1.0)) {
    return values;
  } else {
    return values * w;
  }
}

/// The denominator of reduction::mean: the sum of the weights broadcast to the values.
template <class T, class V, class W>
constexpr auto sum_of_weights(const V& values, const W& w) {
  if constexpr (literal_node_type<W> && shape_of<V>::is_static) {
    return literal_node<static_cast<double>(W::value_as_written) * static_cast<double>(shape_of<V>::size), T>{};
  } else {
    return reduce_sum(broadcast_to_values(w, values));
  }
}

/// The denominator of reduction::sum_by_nonzero_weights: the number of nonzero weights
/// broadcast to the values (TensorFlow's _num_present).
template <class T, class V, class W>
constexpr auto num_present(const V& values, const W& w) {
  if constexpr (literal_node_type<W>) {
    if constexpr (static_cast<double>(W::value_as_written) != 0) {
      return element_count<T>(values);
    } else {
      return literal_node<0.0, T>{};
    }
  } else {
    return reduce_sum(broadcast_to_values(nonzero_indicator<T>(w), values));
  }
}

/// The values weighed by w (checked) and reduced as R says.
template <class V, class W, class R>
constexpr auto reduce_weighted(const V& values, const W& w, R) {
  using T = value_type_of<V>;
  const auto weighted = weigh(values, w);
  if constexpr (std::is_same_v<R, losses::reduction::none_t>) {
    return weighted;
  } else {
    const auto total = reduce_sum(weighted);
    if constexpr (std::is_same_v<R, losses::reduction::sum_t>) {
      return total;
    } else if constexpr (std::is_same_v<R, losses::reduction::mean_t>) {
      return div_no_nan(total, sum_of_weights<T>(values, w));
    } else if constexpr (std::is_same_v<R, losses::reduction::sum_over_batch_size_t>) {
      return div_no_nan(total, element_count<T>(values));
    } else {
      return div_no_nan(total, num_present<T>(values, w));
    }
  }
}

/// compute_weighted_loss(values, options...) for the loss Loss.
template <fixed_string Loss, class V, class... Options>
constexpr auto weighted_loss(const V& values, const Options&... options) {
  const auto w = checked_weights<Loss>(values, weights_of(options...));
  return reduce_weighted(values, w, typename loss_options<Options...>::reduction{});
}

}  // namespace typeflow::ops::detail
