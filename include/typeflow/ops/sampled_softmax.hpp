// typeflow/ops/sampled_softmax.hpp — tf.nn.sampled_softmax_loss.
//
// Built from graph ops as TensorFlow's _compute_sampled_logits builds it, so the gradients
// to weights, biases and inputs are the rules of gather, matmul, the arithmetic and the
// cross-entropy; the sampled ids and expected counts (ops/candidate_sampler.hpp) carry none:
//   true_logits    = sum(inputs[:, None, :] * weights[labels], -1) + biases[labels]
//                    - log(true_expected_count)                         [batch, num_true]
//   sampled_logits = inputs @ weights[sampled]^T + biases[sampled]
//                    (+ -FLT_MAX where a sampled id is one of the row's labels, when
//                    remove_accidental_hits) - log(sampled_expected_count) [batch, num_sampled]
//   loss           = softmax_cross_entropy_with_logits(labels = 1/num_true on the true
//                    columns and 0 on the sampled ones, concat(true_logits, sampled_logits))
// TensorFlow looks the rows up with one embedding_lookup of concat(labels, sampled) and
// slices it; two gathers give the same rows and the same gradient sum.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>

#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/candidate_sampler.hpp"
#include "typeflow/ops/concat.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"
#include "typeflow/ops/expand.hpp"
#include "typeflow/ops/gather.hpp"
#include "typeflow/ops/losses.hpp"
#include "typeflow/ops/math.hpp"
#include "typeflow/ops/matmul.hpp"
#include "typeflow/ops/reduce.hpp"

namespace typeflow {

/// In a diagnostic: sampled_softmax_loss's operands, which are not weights [num_classes,
/// dim], biases [num_classes], inputs [batch, dim] of one floating element type.
template <class WeightsShape, class BiasesShape, class InputsShape>
struct sampled_softmax_loss_needs_weights_classes_by_dim_biases_classes_and_inputs_batch_by_dim {
  static constexpr bool value = false;
};
/// In a diagnostic: the sampled values given to sampled_softmax_loss, which are not
/// (int64 [num_sampled], [batch, num_true], [num_sampled]) with the inputs' element type.
template <std::size_t NumSampled, class SampledShape, class TrueCountShape, class SampledCountShape>
struct sampled_values_must_be_ids_num_sampled_true_counts_and_sampled_counts {
  static constexpr bool value = false;
};

/// The labels of the sampled cross-entropy, [batch, num_true + num_sampled] of T: 1/num_true
/// on the first num_true columns, 0 on the others (the batch taken from TrueCount, [batch,
/// num_true]).
template <class T, std::size_t NumSampled, class TrueCount>
struct sampled_softmax_labels_node
    : node_facade<T, shape<shape_of<TrueCount>::dims[0], shape_of<TrueCount>::dims[1] + std::ptrdiff_t(NumSampled)>,
                  node_kind::compute, TrueCount>,
      op_info<"SampledSoftmaxLabels"> {
  template <class... N>
  using rebind = sampled_softmax_labels_node<T, NumSampled, N...>;
  template <std::size_t K, class G>
  using gradient = no_gradient;

  template <class Out, class VC>
  static void compute(Out& out, const VC& true_count) {
    const auto d = ops::detail::dims_of<2>(true_count);
    const std::size_t cols = d[1] + NumSampled;
    ops::detail::resize_unless_static<shape_of<sampled_softmax_labels_node>::is_static>(
        out, std::array<std::size_t, 2>{d[0], cols});
    for (std::size_t i = 0; i < d[0]; ++i)
      for (std::size_t j = 0; j < cols; ++j) out.data()[i * cols + j] = j < d[1] ? T(1) / T(d[1]) : T(0);
  }
};

namespace ops::detail {

template <class W, class B, class L, class X>
constexpr bool sampled_softmax_operands_fit() {
  using SW = shape_of<W>;
  using SB = shape_of<B>;
  using SX = shape_of<X>;
  if constexpr (SW::rank != 2 || SB::rank != 1 || SX::rank != 2) {
    return false;
  } else {
    const auto agree = [](std::ptrdiff_t a, std::ptrdiff_t b) { return a == b || a == dyn || b == dyn; };
    return floating_element<value_type_of<X>> && std::is_same_v<value_type_of<W>, value_type_of<X>> &&
           std::is_same_v<value_type_of<B>, value_type_of<X>> && agree(SW::dims[0], SB::dims[0]) &&
           agree(SW::dims[1], SX::dims[1]) && agree(SX::dims[0], shape_of<L>::dims[0]);
  }
}

template <std::size_t NumSampled, class T, class L, class S, class TC, class SC>
constexpr bool sampled_values_fit() {
  if constexpr (shape_of<S>::rank != 1 || shape_of<TC>::rank != 2 || shape_of<SC>::rank != 1) {
    return false;
  } else {
    const auto fits = [](std::ptrdiff_t d) { return d == std::ptrdiff_t(NumSampled) || d == dyn; };
    return (std::is_same_v<value_type_of<S>, std::int64_t> || std::is_same_v<value_type_of<S>, std::int32_t>) &&
           std::is_same_v<value_type_of<TC>, T> && std::is_same_v<value_type_of<SC>, T> && fits(shape_of<S>::dims[0]) &&
           fits(shape_of<SC>::dims[0]) && shape_of<TC>::dims[1] == shape_of<L>::dims[1] &&
           (shape_of<TC>::dims[0] == shape_of<L>::dims[0] || shape_of<TC>::dims[0] == dyn ||
            shape_of<L>::dims[0] == dyn);
  }
}

}  // namespace ops::detail

/// `sampled_softmax_loss<num_sampled, num_classes>(weights, biases, labels, inputs,
/// sampled_values)` is tf.nn.sampled_softmax_loss(weights, biases, labels, inputs,
/// num_sampled, num_classes, num_true, sampled_values, remove_accidental_hits): weights
/// [num_classes, dim], biases [num_classes], labels int32 or int64 [batch, num_true] (num_true
/// static), inputs [batch, dim]; sampled_values the tuple (sampled ids [num_sampled], true
/// expected counts [batch, num_true], sampled expected counts [num_sampled]) of
/// log_uniform_candidate_sampler, or of nodes that hold such values (placeholders fed with
/// a draw, to fix the samples). The loss per row, [batch]. `<num_sampled, num_classes,
/// false>` keeps accidental hits (remove_accidental_hits=False).
template <std::size_t NumSampled, std::size_t NumClasses, bool RemoveAccidentalHits = true, std::uint64_t Seed = 0,
          node W, node B, node L, node X, node S, node TC, node SC>
auto sampled_softmax_loss(const W& weights, const B& biases, const L& labels, const X& inputs,
                          const std::tuple<S, TC, SC>& sampled_values) {
  using T = value_type_of<X>;
  using LT = value_type_of<L>;
  if constexpr (!std::is_same_v<LT, std::int32_t> && !std::is_same_v<LT, std::int64_t>) {
    static_assert(sampled_labels_must_be_int32_or_int64<LT>::value,
                  "typeflow::sampled_softmax_loss(weights, biases, labels, inputs): labels must be int32 or int64 "
                  "class ids");
    return inputs;  // inert: the error above is the one to read
  } else if constexpr (shape_of<L>::rank != 2 || (shape_of<L>::rank == 2 && shape_of<L>::dims[1] == dyn)) {
    static_assert(sampled_labels_must_be_batch_by_num_true<shape_of<L>>::value,
                  "typeflow::sampled_softmax_loss(weights, biases, labels, inputs): labels must be [batch, "
                  "num_true] with a static num_true");
    return inputs;
  } else if constexpr (!ops::detail::sampled_softmax_operands_fit<W, B, L, X>()) {
    static_assert(sampled_softmax_loss_needs_weights_classes_by_dim_biases_classes_and_inputs_batch_by_dim<
                      shape_of<W>, shape_of<B>, shape_of<X>>::value,
                  "typeflow::sampled_softmax_loss(weights, biases, labels, inputs): weights must be [num_classes, "
                  "dim], biases [num_classes], inputs [batch, dim], all of one float or double type");
    return inputs;
  } else if constexpr (!ops::detail::sampled_values_fit<NumSampled, T, L, S, TC, SC>()) {
    static_assert(sampled_values_must_be_ids_num_sampled_true_counts_and_sampled_counts<
                      NumSampled, shape_of<S>, shape_of<TC>, shape_of<SC>>::value,
                  "typeflow::sampled_softmax_loss(..., sampled_values): sampled_values must be (int64 ids "
                  "[num_sampled], true expected counts of labels' shape [batch, num_true], sampled expected "
                  "counts [num_sampled]) in the inputs' element type");
    return inputs;
  } else {
    static_assert(shape_of<W>::dims[0] == dyn || shape_of<W>::dims[0] == std::ptrdiff_t(NumClasses),
                  "typeflow::sampled_softmax_loss<num_sampled, num_classes>: weights must have num_classes rows");
    const S& sampled = std::get<0>(sampled_values);
    const TC& true_count = std::get<1>(sampled_values);
    const SC& sampled_count = std::get<2>(sampled_values);
    auto true_logits = reduce_sum<2>(expand_dims<1>(inputs) * gather(weights, labels)) + gather(biases, labels);
    auto sampled_logits = matmul<false, true>(inputs, gather(weights, sampled)) + gather(biases, sampled);
    auto logits = [&] {
      if constexpr (RemoveAccidentalHits) {
        auto hits = make_node<accidental_hits_node<T, L, S>>(labels, sampled);
        return concat<1>(true_logits - log(true_count), (sampled_logits + hits) - log(sampled_count));
      } else {
        return concat<1>(true_logits - log(true_count), sampled_logits - log(sampled_count));
      }
    }();
    return softmax_cross_entropy_with_logits(make_node<sampled_softmax_labels_node<T, NumSampled, TC>>(true_count),
                                             logits);
  }
}

/// `sampled_softmax_loss<num_sampled, num_classes, remove_accidental_hits, seed>(weights,
/// biases, labels, inputs)`: the samples drawn by log_uniform_candidate_sampler<num_sampled,
/// num_classes, unique = true, seed>(labels), as TensorFlow draws them when sampled_values
/// is None; new samples on each run.
template <std::size_t NumSampled, std::size_t NumClasses, bool RemoveAccidentalHits = true, std::uint64_t Seed = 0,
          node W, node B, node L, node X>
auto sampled_softmax_loss(const W& weights, const B& biases, const L& labels, const X& inputs) {
  using LT = value_type_of<L>;
  if constexpr (!std::is_same_v<LT, std::int32_t> && !std::is_same_v<LT, std::int64_t>) {
    static_assert(sampled_labels_must_be_int32_or_int64<LT>::value,
                  "typeflow::sampled_softmax_loss(weights, biases, labels, inputs): labels must be int32 or int64 "
                  "class ids");
    return inputs;  // inert: the error above is the one to read
  } else if constexpr (shape_of<L>::rank != 2) {
    static_assert(sampled_labels_must_be_batch_by_num_true<shape_of<L>>::value,
                  "typeflow::sampled_softmax_loss(weights, biases, labels, inputs): labels must be [batch, "
                  "num_true] with a static num_true");
    return inputs;
  } else if constexpr (NumSampled > NumClasses) {
    static_assert(unique_sampling_needs_num_sampled_at_most_range_max<NumSampled, NumClasses>::value,
                  "typeflow::sampled_softmax_loss<num_sampled, num_classes>: the unique sampler needs num_sampled <= "
                  "num_classes");
    return inputs;
  } else {
    using T = std::conditional_t<floating_element<value_type_of<X>>, value_type_of<X>, float>;
    return sampled_softmax_loss<NumSampled, NumClasses, RemoveAccidentalHits, Seed>(
        weights, biases, labels, inputs,
        log_uniform_candidate_sampler<NumSampled, NumClasses, true, Seed, T>(labels));
  }
}

}  // namespace typeflow
