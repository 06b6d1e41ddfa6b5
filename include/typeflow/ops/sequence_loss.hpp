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
//
// `all_steps_at_once(f)` calls f once, over the rows of every step stacked ([time * batch]
// labels, [time * batch, classes] logits), as tf.contrib.seq2seq.sequence_loss calls its
// softmax_loss_function, instead of once per step: the graph holds one loss where it held
// one per step, and so does its gradient. The steps' logits are stacked with stack<0>, or
// are the node they were unstacked from (a decoder loop's outputs). For a loss computed row
// by row (the default, sparse_softmax_cross_entropy_with_logits) the values are the same;
// sampled_softmax_loss draws one set of candidates for all steps instead of one per step.
#pragma once

#include <cstddef>
#include <tuple>
#include <utility>

#include "typeflow/core/node.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/concat.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/losses.hpp"
#include "typeflow/ops/reduce.hpp"
#include "typeflow/ops/reshape.hpp"
#include "typeflow/ops/split.hpp"  // restack

namespace typeflow {

/// In a diagnostic: the numbers of logits, targets and weights nodes given to
/// sequence_loss(_by_example), which must be one each per time step (and at least one).
template <std::size_t Logits, std::size_t Targets, std::size_t Weights>
struct sequence_loss_needs_one_logits_targets_and_weights_node_per_time_step {
  static constexpr bool value = false;
};

/// In a diagnostic: sequence_loss with all_steps_at_once was given steps of logits of shape
/// Shape; each must be [batch, classes].
template <class Shape>
struct sequence_loss_all_steps_at_once_needs_logits_of_batch_by_classes {
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

/// A softmax_loss_function for sequence_loss(_by_example) and model_with_buckets, called
/// once over all the steps' rows (see the top of this header). `all_steps_at_once()` is
/// the default loss so called.
template <class F>
struct all_steps_at_once_t {
  F f;
};
template <class F = ops::detail::sparse_softmax_loss>
constexpr all_steps_at_once_t<F> all_steps_at_once(F f = {}) {
  return {f};
}

namespace ops::detail {
template <class F>
inline constexpr bool is_all_steps_at_once = false;
template <class F>
inline constexpr bool is_all_steps_at_once<all_steps_at_once_t<F>> = true;

// sequence_loss_by_example with all_steps_at_once: one call of the loss over the stacked steps.
template <bool AverageAcrossTimesteps, class... Logits, class... Targets, class... Weights, class F>
auto sequence_loss_at_once(const std::tuple<Logits...>& logits, const std::tuple<Targets...>& targets,
                           const std::tuple<Weights...>& weights, const F& f) {
  using L0 = shape_of<std::tuple_element_t<0, std::tuple<Logits...>>>;
  if constexpr (L0::rank != 2) {
    static_assert(sequence_loss_all_steps_at_once_needs_logits_of_batch_by_classes<L0>::value,
                  "typeflow::sequence_loss(logits, targets, weights, all_steps_at_once(f)): each step's logits "
                  "must be [batch, classes]");
    return constant<0.0>();  // inert: the error above is the one to read
  } else {
    constexpr std::ptrdiff_t steps = sizeof...(Logits);
    auto stacked = std::apply([](const auto&... l) { return restack(l...); }, logits);  // [time, batch, classes]
    auto ids = std::apply([](const auto&... t) { return stack<0>(t...); }, targets);    // [time, batch]
    auto w = std::apply([](const auto&... x) { return stack<0>(x...); }, weights);      // [time, batch]
    using S = shape_of<decltype(stacked)>;
    if constexpr (S::rank != 3 || shape_of<decltype(ids)>::rank != 2 || shape_of<decltype(w)>::rank != 2) {
      return constant<0.0>();  // inert: stack's error (the steps differ in shape) is the one to read
    } else {
      constexpr std::ptrdiff_t batch = S::dims[1], rows = batch == dyn ? dyn : steps * batch;
      auto flat = reshape<shape<rows, S::dims[2]>>(stacked);
      auto log_perps = reduce_sum<0>(reshape<shape<steps, batch>>(f(reshape<shape<rows>>(ids), flat)) * w);
      if constexpr (AverageAcrossTimesteps) {
        return log_perps / (reduce_sum<0>(w) + constant<1e-12>());
      } else {
        return log_perps;
      }
    }
  }
}
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
  } else if constexpr (ops::detail::is_all_steps_at_once<LossFunction>) {
    return ops::detail::sequence_loss_at_once<AverageAcrossTimesteps>(logits, targets, weights,
                                                                      softmax_loss_function.f);
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
