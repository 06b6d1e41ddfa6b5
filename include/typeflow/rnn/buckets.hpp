// typeflow/rnn/buckets.hpp — tf.contrib.legacy_seq2seq.model_with_buckets: one model over
// sequences of several lengths, one graph per bucket, one set of variables.
//
// A bucket (encoder length, decoder length) is a type; the model function builds its graph
// over the first steps of the inputs, once per bucket. Its variables are the same types in
// every bucket (a variable is its name: DESIGN rule 1), so the buckets share them as
// TensorFlow's reuse=True does, and an optimizer applied to each bucket's loss shares its
// slots too. Each bucket's graph is compiled once, as its own type: the compile-time cost
// grows with the sum of the buckets' lengths.
#pragma once

#include <algorithm>
#include <cstddef>
#include <tuple>
#include <utility>

#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/sequence_loss.hpp"
#include "typeflow/rnn/state.hpp"

namespace typeflow::rnn {

/// A bucket: sequences of up to EncoderSize encoder steps and DecoderSize decoder steps
/// (TensorFlow's (encoder_size, decoder_size) pair).
template <std::size_t EncoderSize, std::size_t DecoderSize>
struct bucket {
  static constexpr std::size_t encoder_size = EncoderSize;
  static constexpr std::size_t decoder_size = DecoderSize;
};

/// The buckets of a model, in order: `buckets<bucket<4, 4>, bucket<8, 8>>`.
template <class... B>
struct buckets {
  static_assert(sizeof...(B) > 0, "typeflow::rnn::buckets needs at least one bucket");
  static constexpr std::size_t size = sizeof...(B);
  static constexpr std::size_t max_encoder_size = std::max({B::encoder_size...});
  static constexpr std::size_t max_decoder_size = std::max({B::decoder_size...});
};

/// In a diagnostic: model_with_buckets' Inputs ("encoder_inputs", "decoder_inputs",
/// "targets" or "weights") have Have steps; the largest bucket needs Need.
template <fixed_string Inputs, std::size_t Have, std::size_t Need>
struct model_with_buckets_inputs_are_shorter_than_the_largest_bucket {
  static constexpr bool value = false;
};

namespace detail {

template <fixed_string Inputs, std::size_t Have, std::size_t Need>
constexpr bool check_bucket_inputs() {
  if constexpr (Have < Need) {
    static_assert(rnn::model_with_buckets_inputs_are_shorter_than_the_largest_bucket<Inputs, Have, Need>::value,
                  "typeflow::rnn::model_with_buckets: the inputs must have at least as many steps as the largest bucket");
  }
  return Have >= Need;
}

// What model_with_buckets returns after a failed check: a loss and no outputs per bucket,
// so that only the check's error shows.
template <class... B>
auto inert_buckets(buckets<B...>) {
  return pair_of(tuple_of(((void)B{}, std::tuple<>{})...), tuple_of(((void)B{}, constant<0.0f>())...));
}

template <std::size_t N, class Tuple>
constexpr auto first_steps(const Tuple& t) {
  return tuple_slice<0, N>(t);
}

}  // namespace detail

/// `model_with_buckets<buckets<...>>(encoder_inputs, decoder_inputs, targets, weights,
/// seq2seq)` is tf.contrib.legacy_seq2seq.model_with_buckets: the inputs are std::tuples of
/// one node per step, at least as long as the largest bucket; `seq2seq(encoder, decoder)`
/// builds the model over a bucket's first steps and returns (outputs, state) as the
/// legacy_seq2seq models do. Returns std::pair{the buckets' outputs, the buckets' losses},
/// each a std::tuple with one entry per bucket; a bucket's loss is sequence_loss of its
/// outputs (sequence_loss_by_example with PerExampleLoss), with softmax_loss_function
/// (labels, logits) -> [batch] if given (sampled_softmax_loss, as TensorFlow's test).
template <class Buckets, bool PerExampleLoss = false, class... E, class... D, class... T, class... W, class Seq2Seq,
          class LossFunction = ops::detail::sparse_softmax_loss>
auto model_with_buckets(const std::tuple<E...>& encoder_inputs, const std::tuple<D...>& decoder_inputs,
                        const std::tuple<T...>& targets, const std::tuple<W...>& weights, const Seq2Seq& seq2seq,
                        LossFunction softmax_loss_function = {}) {
  constexpr bool ok = detail::check_bucket_inputs<"encoder_inputs", sizeof...(E), Buckets::max_encoder_size>() &&
                      detail::check_bucket_inputs<"decoder_inputs", sizeof...(D), Buckets::max_decoder_size>() &&
                      detail::check_bucket_inputs<"targets", sizeof...(T), Buckets::max_decoder_size>() &&
                      detail::check_bucket_inputs<"weights", sizeof...(W), Buckets::max_decoder_size>();
  if constexpr (!ok) {
    return detail::inert_buckets(Buckets{});  // inert: the error above is the one to read
  } else {
    auto build = [&]<class B>(B) {
      auto outputs = std::get<0>(seq2seq(detail::first_steps<B::encoder_size>(encoder_inputs),
                                         detail::first_steps<B::decoder_size>(decoder_inputs)));
      auto t = detail::first_steps<B::decoder_size>(targets);
      auto w = detail::first_steps<B::decoder_size>(weights);
      if constexpr (PerExampleLoss) {
        return detail::pair_of(outputs, sequence_loss_by_example(outputs, t, w, softmax_loss_function));
      } else {
        return detail::pair_of(outputs, sequence_loss(outputs, t, w, softmax_loss_function));
      }
    };
    // Tuples and pairs of graph nodes are built empty, then assigned (rnn/state.hpp).
    return [&]<class... B>(buckets<B...>) {
      const auto per_bucket = detail::tuple_of(build(B{})...);
      return [&]<std::size_t... I>(std::index_sequence<I...>) {
        return detail::pair_of(detail::tuple_of(std::get<I>(per_bucket).first...),
                               detail::tuple_of(std::get<I>(per_bucket).second...));
      }(std::index_sequence_for<B...>{});
    }(Buckets{});
  }
}

}  // namespace typeflow::rnn
