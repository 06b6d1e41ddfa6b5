// typeflow/ops/losses.hpp — cross-entropy and regression losses (tf.nn.*, tf.losses.*).
//
// The cross-entropies are numerically stable for large logits: they go through
// log_softmax (row maximum subtracted) or log1p(exp(-|x|)).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/activation.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/broadcast_gradient.hpp"
#include "typeflow/ops/compare.hpp"
#include "typeflow/ops/math.hpp"
#include "typeflow/ops/math_functions.hpp"
#include "typeflow/ops/one_hot.hpp"
#include "typeflow/ops/reduce.hpp"
#include "typeflow/ops/select.hpp"
#include "typeflow/ops/softmax.hpp"

namespace typeflow {

/// In a diagnostic: labels and logits of a cross-entropy must have these shapes.
template <class LabelsShape, class LogitsShape>
struct labels_and_logits_shapes_must_match {
  static constexpr bool value = false;
};

/// tf.nn.softmax_cross_entropy_with_logits(labels, logits): per row (last axis),
/// -sum(labels * log_softmax(logits)); shape of logits without its last dimension.
template <node L, node X>
constexpr auto softmax_cross_entropy_with_logits(L labels, X logits) {
  static_assert(std::is_same_v<value_type_of<L>, value_type_of<X>>,
                "softmax_cross_entropy_with_logits(labels, logits): labels and logits need the same element type");
  if constexpr (!broadcast_compatible<shape_of<L>, shape_of<X>>) {
    static_assert(labels_and_logits_shapes_must_match<shape_of<L>, shape_of<X>>::value,
                  "softmax_cross_entropy_with_logits(labels, logits): labels must have the logits' shape");
  }
  return -reduce_sum<-1>(labels * log_softmax(logits));
}

// --- sparse labels --------------------------------------------------------------------------

namespace ops::detail {
template <class Labels>
void check_label(Labels label, std::size_t classes) {
  if (label < 0 || static_cast<std::size_t>(label) >= classes)
    throw invalid_argument_error("Received a label value of " + std::to_string(label) +
                                 " which is outside the valid range of [0, " + std::to_string(classes) + ")");
}
}  // namespace ops::detail

/// The gradient of the sparse cross-entropy with respect to the logits:
/// (softmax(logits) - one_hot(labels)) * g, g per row.
template <class G, class L, class X>
struct sparse_xent_gradient_node : node_facade<value_type_of<X>, shape_of<X>, node_kind::compute, G, L, X>,
                                   op_info<"SparseSoftmaxCrossEntropyWithLogitsGrad", false> {
  template <class... N>
  using rebind = sparse_xent_gradient_node<N...>;

  template <class Out, class VG, class VL, class VX>
  static void compute(Out& out, const VG& g, const VL& labels, const VX& logits) {
    using T = value_type_of<X>;
    if constexpr (!shape_of<X>::is_static) out.resize(logits.shape());
    const std::size_t classes = logits.shape()[1];
    const std::size_t rows = logits.shape()[0];
    for (std::size_t r = 0; r < rows; ++r) {
      const T* x = logits.data() + r * classes;
      T* o = out.data() + r * classes;
      T mx = x[0];
      for (std::size_t j = 1; j < classes; ++j) mx = std::max(mx, x[j]);
      T sum = 0;
      for (std::size_t j = 0; j < classes; ++j) sum += (o[j] = std::exp(x[j] - mx));
      const T gr = g.data()[r];
      const auto label = labels.data()[r];
      for (std::size_t j = 0; j < classes; ++j)
        o[j] = (o[j] / sum - (static_cast<std::size_t>(label) == j ? T(1) : T(0))) * gr;
    }
  }
};

template <class L, class X>
struct sparse_xent_node
    : node_facade<value_type_of<X>, shape<shape_of<X>::dims[0]>, node_kind::compute, L, X>,
      op_info<"SparseSoftmaxCrossEntropyWithLogits"> {
  template <class... N>
  using rebind = sparse_xent_node<N...>;
  template <std::size_t K, class G>
  using gradient = mp::mp_if_c<K == 1, sparse_xent_gradient_node<G, L, X>, no_gradient>;

  template <class Out, class VL, class VX>
  static void compute(Out& out, const VL& labels, const VX& logits) {
    using T = value_type_of<X>;
    const std::size_t rows = logits.shape()[0];
    const std::size_t classes = logits.shape()[1];
    if (labels.size() != rows)
      throw invalid_argument_error("logits and labels must have the same first dimension, got logits shape " +
                                   shape_string(logits.shape()) + " and labels shape " + shape_string(labels.shape()));
    for (std::size_t r = 0; r < rows; ++r) ops::detail::check_label(labels.data()[r], classes);  // before any write
    if constexpr (!shape_of<sparse_xent_node>::is_static) out.resize(std::array<std::size_t, 1>{rows});
    for (std::size_t r = 0; r < rows; ++r) {
      const T* x = logits.data() + r * classes;
      T mx = x[0];
      for (std::size_t j = 1; j < classes; ++j) mx = std::max(mx, x[j]);
      T sum = 0;
      for (std::size_t j = 0; j < classes; ++j) sum += std::exp(x[j] - mx);
      out.data()[r] = std::log(sum) + mx - x[static_cast<std::size_t>(labels.data()[r])];
    }
  }
};

/// tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits): labels are class
/// indices (int32 or int64) of shape [batch], logits [batch, classes]; a label outside
/// [0, classes) fails the run with invalid_argument_error.
template <node L, node X>
constexpr auto sparse_softmax_cross_entropy_with_logits(const L& labels, const X& logits) {
  static_assert(std::is_same_v<value_type_of<L>, std::int32_t> || std::is_same_v<value_type_of<L>, std::int64_t>,
                "sparse_softmax_cross_entropy_with_logits(labels, logits): labels must be int32 or int64 class indices");
  static_assert(floating_element<value_type_of<X>>,
                "sparse_softmax_cross_entropy_with_logits(labels, logits): logits must be float or double");
  if constexpr (shape_of<L>::rank != 1 || shape_of<X>::rank != 2 ||
                !(shape_of<L>::dims[0] == shape_of<X>::dims[0] || shape_of<L>::dims[0] == dyn ||
                  shape_of<X>::dims[0] == dyn)) {
    static_assert(labels_and_logits_shapes_must_match<shape_of<L>, shape_of<X>>::value,
                  "sparse_softmax_cross_entropy_with_logits(labels, logits): labels must be [batch] and "
                  "logits [batch, classes]");
    return logits;  // inert: the error above is the one to read
  } else {
    return make_node<sparse_xent_node<L, X>>(labels, logits);
  }
}

/// In a diagnostic: the labels (targets) and logits of sigmoid_cross_entropy_with_logits or
/// weighted_cross_entropy_with_logits must have the same shape (dyn matches any size).
template <class LabelsShape, class LogitsShape>
struct labels_and_logits_must_have_the_same_shape {
  static constexpr bool value = false;
};

namespace ops::detail {
template <class L, class X>
constexpr bool check_logits_shapes() {
  constexpr bool ok = same_shape_possible<shape_of<L>, shape_of<X>>();  // ops/select.hpp
  if constexpr (!ok) {
    static_assert(labels_and_logits_must_have_the_same_shape<shape_of<L>, shape_of<X>>::value,
                  "sigmoid_cross_entropy_with_logits / weighted_cross_entropy_with_logits: labels and logits "
                  "must have the same shape");
  }
  return ok;
}
}  // namespace ops::detail

/// tf.nn.sigmoid_cross_entropy_with_logits(labels, logits), elementwise, TensorFlow's form:
/// where(x >= 0, x, 0) - x * z + log1p(exp(where(x >= 0, -x, x))), stable for large |x|, and
/// with TensorFlow's gradient at x = 0 (sigmoid(0) - z, the x >= 0 branch's). Labels and
/// logits have one shape.
template <node L, node X>
constexpr auto sigmoid_cross_entropy_with_logits(L labels, X logits) {
  if constexpr (!ops::detail::check_logits_shapes<L, X>()) {
    return logits;  // inert: the error above is the one to read
  } else {
    auto zeros = zeros_like(logits);
    auto positive = logits >= zeros;
    return where(positive, logits, zeros) - logits * labels + log1p(exp(where(positive, -logits, logits)));
  }
}

/// tf.nn.weighted_cross_entropy_with_logits(targets, logits, pos_weight), elementwise:
/// sigmoid_cross_entropy_with_logits with the positive term weighed by pos_weight (a node,
/// broadcast), in TensorFlow's form (1 - z) x + (1 + (q - 1) z) (log1p(exp(-|x|)) + max(-x, 0)).
template <node L, node X, node Q>
constexpr auto weighted_cross_entropy_with_logits(L targets, X logits, Q pos_weight) {
  if constexpr (!ops::detail::check_logits_shapes<L, X>()) {
    return logits;  // inert: the error above is the one to read
  } else {
    using T = value_type_of<X>;
    auto one = literal_node<1, T>{};
    auto log_weight = one + (pos_weight - one) * targets;
    return (one - targets) * logits + log_weight * (log1p(exp(-abs(logits))) + relu(-logits));
  }
}

/// tf.losses.mean_squared_error(labels, predictions): the mean of the squared differences.
template <node L, node P>
constexpr auto mean_squared_error(L labels, P predictions) {
  return reduce_mean(square(predictions - labels));
}

/// tf.nn.l2_loss(t): sum(t ** 2) / 2.
template <node A>
constexpr auto l2_loss(A t) {
  return reduce_sum(square(t)) / literal_node<2, value_type_of<A>>{};
}

}  // namespace typeflow
