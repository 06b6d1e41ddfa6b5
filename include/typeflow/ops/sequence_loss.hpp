// typeflow/ops/sequence_loss.hpp — tf.contrib.legacy_seq2seq.sequence_loss_by_example and
// sequence_loss: weighted cross-entropy over a sequence given as one node per time step.
//
// With logits l_t [batch, classes], targets y_t [batch] and weights w_t [batch], t < T:
//   log_perps = sum_t loss(y_t, l_t) * w_t                                     [batch]
//   by example, average_across_timesteps: log_perps / (sum_t w_t + 1e-12)
//   sequence_loss = sum(by example), / batch when average_across_batch
// loss is sparse_softmax_cross_entropy_with_logits unless a softmax_loss_function (a callable
// (labels, logits) -> [batch]) is given. TensorFlow's keyword arguments that change the graph
// (average_across_timesteps, average_across_batch) are template arguments.
#pragma once

#include <cstddef>
#include <tuple>
#include <utility>

#include "typeflow/core/node.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/losses.hpp"
#include "typeflow/ops/reduce.hpp"

namespace typeflow {

/// In a diagnostic: the numbers of logits, targets and weights nodes given to
/// sequence_loss(_by_example), which must be one each per time step (and at least one).
template <std::size_t Logits, std::size_t Targets, std::size_t Weights>
struct sequence_loss_needs_one_logits_targets_and_weights_node_per_time_step {
  static constexpr bool value = false;
};

namespace ops::detail {
/// The default softmax_loss_function: sparse_softmax_cross_entropy_with_logits.
struct sparse_softmax_loss {
  template <class L, class X>
  constexpr auto operator()(const L& labels, const X& logits) const {
    return sparse_softmax_cross_entropy_with_logits(labels, logits);
  }
};
}  // namespace ops::detail

/// `sequence_loss_by_example<average_across_timesteps>(logits, targets, weights,
/// softmax_loss_function)` is tf.contrib.legacy_seq2seq.sequence_loss_by_example: logits,
/// targets and weights are std::tuples of one node per time step ([batch, classes], int32 or
/// int64 [batch], [batch] in the logits' type); the weighted log-perplexity per example,
/// [batch]. average_across_timesteps defaults to true, the loss function to
/// sparse_softmax_cross_entropy_with_logits.
template <bool AverageAcrossTimesteps = true, class... Logits, class... Targets, class... Weights,
          class LossFunction = ops::detail::sparse_softmax_loss>
auto sequence_loss_by_example(const std::tuple<Logits...>& logits, const std::tuple<Targets...>& targets,
                              const std::tuple<Weights...>& weights, LossFunction softmax_loss_function = {}) {
  constexpr std::size_t steps = sizeof...(Logits);
  if constexpr (steps == 0 || sizeof...(Targets) != steps || sizeof...(Weights) != steps) {
    static_assert(sequence_loss_needs_one_logits_targets_and_weights_node_per_time_step<
                      sizeof...(Logits), sizeof...(Targets), sizeof...(Weights)>::value,
                  "typeflow::sequence_loss(logits, targets, weights): one logits, one targets and one weights node "
                  "per time step");
    return constant<0.0>();  // inert: the error above is the one to read
  } else {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      auto log_perps =
          (... + (softmax_loss_function(std::get<I>(targets), std::get<I>(logits)) * std::get<I>(weights)));
      if constexpr (AverageAcrossTimesteps) {
        // TensorFlow's 1e-12, "to avoid division by 0 for all-0 weights".
        return log_perps / ((... + std::get<I>(weights)) + constant<1e-12>());
      } else {
        return log_perps;
      }
    }(std::make_index_sequence<steps>{});
  }
}

/// `sequence_loss<average_across_timesteps, average_across_batch>(logits, targets, weights,
/// softmax_loss_function)` is tf.contrib.legacy_seq2seq.sequence_loss: the sum of
/// sequence_loss_by_example over the batch, divided by the batch size when
/// average_across_batch (both default to true); a scalar.
template <bool AverageAcrossTimesteps = true, bool AverageAcrossBatch = true, class... Logits, class... Targets,
          class... Weights, class LossFunction = ops::detail::sparse_softmax_loss>
auto sequence_loss(const std::tuple<Logits...>& logits, const std::tuple<Targets...>& targets,
                   const std::tuple<Weights...>& weights, LossFunction softmax_loss_function = {}) {
  auto by_example = sequence_loss_by_example<AverageAcrossTimesteps>(logits, targets, weights, softmax_loss_function);
  if constexpr (AverageAcrossBatch) {
    return reduce_mean(by_example);  // reduce_sum(cost) / batch_size, batch_size taken at run time
  } else {
    return reduce_sum(by_example);
  }
}

}  // namespace typeflow
