// typeflow/rnn/seq2seq.hpp — the decoders of tf.contrib.legacy_seq2seq: rnn_decoder,
// basic_rnn_seq2seq and attention_decoder. rnn_decoder, and attention_decoder with a
// loop_function(prev, i) of the step i, unroll at compile time like static_rnn;
// attention_decoder without a loop_function, or with one of the previous output alone
// (feed_previous), is a loop in the graph (control::dynamic_loop), its step built once
// whatever the number of steps, the attention states read as loop constants.
//
// Inputs are std::tuples of [batch, depth] nodes, one per step (tf::unstack<1>(x) of a
// [batch, time, depth] x); every step calls the cell in one scope, so the steps share its
// variables (the same variable type is the same variable, DESIGN rule 1), as TensorFlow's
// reuse_variables() does. A loop_function (TensorFlow's feed_previous) is a callable
// (prev_output, i) -> next input used from step 1 on; i is a
// std::integral_constant<std::size_t, i>, which converts to std::size_t. attention_decoder
// also takes one callable as (prev_output) -> next input, and runs it in its loop.
//
// The variables, with TensorFlow 1.x's names (its core_rnn_cell _linear: "kernel", "bias"),
// for the default scopes; D the decoder inputs' depth, A attn_size, L attn_length, Q the
// sum of the cell's flat state widths, C the cell's output size, O output_size, a < heads:
//
//   rnn_decoder:        rnn_decoder/<cell>/...                    the cell's own
//   basic_rnn_seq2seq:  basic_rnn_seq2seq/rnn/<cell>/...          the encoder (static_rnn)
//                       basic_rnn_seq2seq/rnn_decoder/<cell>/...  the decoder
//   attention_decoder:  attention_decoder/AttnW_<a>               [1, 1, A, A]  glorot_uniform
//                       attention_decoder/AttnV_<a>               [A]           glorot_uniform
//                       attention_decoder/kernel                  [D + heads A, D] glorot_uniform
//                       attention_decoder/bias                    [D]           zeros
//                       attention_decoder/<cell>/...              the cell's own
//                       attention_decoder/Attention_<a>/kernel    [Q, A]        glorot_uniform
//                       attention_decoder/Attention_<a>/bias      [A]           zeros
//                       attention_decoder/AttnOutputProjection/kernel  [C + heads A, O]
//                       attention_decoder/AttnOutputProjection/bias    [O]      zeros
//
// TensorFlow computes AttnW_<a>'s features with a 1x1 conv2d over attention_states reshaped
// to [batch, L, 1, A]; here they are the same numbers as a matmul of [batch * L, A] by the
// kernel viewed as [A, A]. The attention length and size must be static, the batch may be
// dyn.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "typeflow/control/scan.hpp"
#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/core/shape.hpp"
#include "typeflow/ops/activation.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/concat.hpp"
#include "typeflow/ops/dense.hpp"
#include "typeflow/ops/expand.hpp"
#include "typeflow/ops/init.hpp"
#include "typeflow/ops/math.hpp"
#include "typeflow/ops/matmul.hpp"
#include "typeflow/ops/placeholder.hpp"
#include "typeflow/ops/reduce.hpp"
#include "typeflow/ops/reshape.hpp"
#include "typeflow/ops/softmax.hpp"
#include "typeflow/ops/split.hpp"
#include "typeflow/ops/variable.hpp"
#include "typeflow/rnn/cell.hpp"
#include "typeflow/rnn/detail/decoder_steps.hpp"
#include "typeflow/rnn/static_rnn.hpp"

namespace typeflow::rnn {

namespace detail {

/// The batch dim a decoder's loop carries its states with: the first static one among the
/// decoder inputs', the initial state's and the attention states' (dyn when none is).
template <class... N>
constexpr std::ptrdiff_t common_batch() {
  std::ptrdiff_t b = dyn;
  ((b = b == dyn ? shape_of<N>::dims[0] : b), ...);
  return b;
}

/// n as [B, width]: itself when it is, a reshape of its dynamic batch to B otherwise.
template <std::ptrdiff_t B, node N>
auto with_batch(const N& n) {
  using S = shape<B, shape_of<N>::dims[1]>;
  if constexpr (std::is_same_v<shape_of<N>, S>) {
    return n;
  } else {
    return reshape<S>(n);
  }
}

/// attention_decoder without a loop_function, as one loop in the graph (control::
/// dynamic_loop): one step of the decoder is the loop's body, built once whatever the
/// number of steps, its gradient derived once. The loop carries the cell's flat state and
/// the attention reads; the attention states and their features are the loop's constants;
/// the decoder inputs are its sequence, stacked along time. The same ops on the same values
/// as unroll_attention, in the same order.
template <fixed_string Scope, std::size_t OutputSize, std::size_t NumHeads, class Cell, class... X, class H,
          class Features, class V, class... S, class... Attn>
auto attention_loop(const Cell& cell, const std::tuple<X...>& inputs, const H& hidden, const Features& features,
                    const V& v, const std::tuple<S...>& flat, const std::tuple<Attn...>& attns) {
  constexpr std::ptrdiff_t b = common_batch<X..., S..., H>();
  constexpr std::size_t K = sizeof...(S);
  constexpr auto heads = std::make_index_sequence<NumHeads>{};
  using X0 = std::tuple_element_t<0, std::tuple<X...>>;
  constexpr std::ptrdiff_t d = shape_of<X0>::dims[1];
  // [time, batch, depth]: the node the inputs were unstacked from, if they were
  auto xs = std::apply([](const auto&... x) { return ops::detail::restack(x...); }, inputs);
  auto states = std::apply([](const auto&... n) { return tuple_of(with_batch<b>(n)...); },
                           std::tuple_cat(flat, attns));
  auto consts = std::apply([&](const auto&... f) { return control::constants{hidden, f...}; }, features);
  auto loop = control::dynamic_loop<Scope>(
      [&](const auto& st, const auto& x, const auto& c) {
        auto state = tuple_slice<0, K>(st);
        auto attn = tuple_slice<K, NumHeads>(st);
        auto feats = tuple_slice<1, NumHeads>(c);
        auto xin = std::apply([&](const auto&... a) { return linear<Scope, d>(x, a...); }, attn);
        auto [cell_output, new_state] = cell.template step<Scope>(xin, state);
        auto new_attns = attention_reads<Scope>(std::get<0>(c), feats, v, attention_query(new_state), heads);
        constexpr auto projection = join_names<Scope, "AttnOutputProjection">();
        auto output = std::apply(
            [&](const auto&... a) { return linear<projection, std::ptrdiff_t(OutputSize)>(cell_output, a...); },
            new_attns);
        auto next = std::apply([](const auto&... n) { return tuple_of(with_batch<b>(n)...); },
                               std::tuple_cat(new_state, new_attns));
        return std::pair{output, next};
      },
      xs, states, consts);
  auto outputs = unstack<0>(loop.outputs);
  auto final_flat = tuple_slice<0, K>(loop.final_state);
  return pair_of(outputs, Cell::unflatten(final_flat));
}

/// attention_decoder with a loop_function of the previous output alone (TensorFlow's
/// feed_previous, as embedding_attention_decoder's; see feeds_back_in_a_loop) as a loop in
/// the graph: step 0, which reads decoder_inputs[0], built as unroll_attention builds it;
/// steps 1 to T - 1 one loop (control::dynamic_loop) whose body's input is
/// loop_function(previous output), the previous output a state the loop carries, so that the
/// decoder's size does not grow with its steps. The inputs after the first stay off the
/// path, as in TensorFlow: the loop's sequence, of which no step reads a value, is the first
/// input repeated (its length is the loop's). The same ops on the same values as
/// unroll_attention, in the same order.
template <fixed_string Scope, std::size_t OutputSize, std::size_t NumHeads, class Cell, class... X, class Loop,
          class H, class Features, class V, class... S, class... Attn>
auto attention_loop_feeding_back(const Cell& cell, const std::tuple<X...>& inputs, const Loop& loop_function,
                                 const H& hidden, const Features& features, const V& v, const std::tuple<S...>& flat,
                                 const std::tuple<Attn...>& attns) {
  constexpr std::size_t steps = sizeof...(X);
  constexpr std::ptrdiff_t b = common_batch<X..., S..., H>();
  constexpr std::size_t K = sizeof...(S);
  constexpr auto heads = std::make_index_sequence<NumHeads>{};
  using X0 = std::tuple_element_t<0, std::tuple<X...>>;
  constexpr std::ptrdiff_t d = shape_of<X0>::dims[1];
  constexpr auto projection = join_names<Scope, "AttnOutputProjection">();
  // One decoder step: its output, the cell's new flat state and the new attention reads.
  auto step = [&](const auto& inp, const auto& state, const auto& attn, const auto& hid, const auto& feats) {
    auto xin = std::apply([&](const auto&... a) { return linear<Scope, d>(inp, a...); }, attn);
    auto [cell_output, new_state] = cell.template step<Scope>(xin, state);
    auto new_attns = attention_reads<Scope>(hid, feats, v, attention_query(new_state), heads);
    auto output = std::apply(
        [&](const auto&... a) { return linear<projection, std::ptrdiff_t(OutputSize)>(cell_output, a...); },
        new_attns);
    return std::tuple{output, new_state, new_attns};
  };
  auto [output0, state0, attns0] = step(std::get<0>(inputs), flat, attns, hidden, features);
  if constexpr (steps == 1) {
    return pair_of(tuple_of(output0), Cell::unflatten(state0));
  } else {
    auto xs = tile<std::ptrdiff_t(steps - 1), 1, 1>(expand_dims<0>(std::get<0>(inputs)));
    auto states = std::apply([](const auto&... n) { return tuple_of(with_batch<b>(n)...); },
                             std::tuple_cat(state0, attns0, tuple_of(output0)));
    auto consts = std::apply([&](const auto&... f) { return control::constants{hidden, f...}; }, features);
    auto loop = control::dynamic_loop<Scope>(
        [&](const auto& st, const auto&, const auto& c) {
          auto state = tuple_slice<0, K>(st);
          auto attn = tuple_slice<K, NumHeads>(st);
          auto feats = tuple_slice<1, NumHeads>(c);
          auto [output, new_state, new_attns] =
              step(loop_function(std::get<K + NumHeads>(st)), state, attn, std::get<0>(c), feats);
          auto next = std::apply([](const auto&... n) { return tuple_of(with_batch<b>(n)...); },
                                 std::tuple_cat(new_state, new_attns, tuple_of(output)));
          return std::pair{output, next};
        },
        xs, states, consts);
    auto final_flat = tuple_slice<0, K>(loop.final_state);
    return pair_of(concat_tuples(tuple_of(output0), unstack<0>(loop.outputs)), Cell::unflatten(final_flat));
  }
}

/// Whether attention_decoder runs loop_function in a loop in the graph: when it is a
/// function of the previous output alone (a node of the outputs' shape, B the batch, O the
/// output size), as TensorFlow's feed_previous is. A loop_function(prev, i), which may use
/// the step i, is called per step of an unrolled decoder.
template <class Loop, class T, std::ptrdiff_t B, std::ptrdiff_t O>
inline constexpr bool feeds_back_in_a_loop =
    std::is_invocable_v<const Loop&, const placeholder_node<"loop_function_argument", T, shape<B, O>>&>;

template <fixed_string Scope, class H>
constexpr bool check_attention_states() {
  using S = shape_of<H>;
  constexpr bool ok = S::rank == 3 && S::dims[1] != dyn && S::dims[2] != dyn;
  if constexpr (!ok) {
    static_assert(rnn::attention_decoder_attention_states_must_be_batch_length_size<Scope, S>::value,
                  "typeflow::rnn::attention_decoder(decoder_inputs, initial_state, attention_states, cell): "
                  "attention_states must be [batch, attn_length, attn_size] with a static length and size");
  }
  return ok;
}

}  // namespace detail

/// `rnn::rnn_decoder(decoder_inputs, initial_state, cell)` is
/// tf.contrib.legacy_seq2seq.rnn_decoder: the cell run over the decoder inputs from
/// initial_state (structured as the cell's state), its variables under Scope
/// ("rnn_decoder/<cell>/..."). `rnn_decoder(..., cell, loop_function)`: from step 1 on, the
/// input is loop_function(previous output, i). Returns std::pair{std::tuple of the outputs,
/// the final state}.
template <fixed_string Scope = "rnn_decoder", class... X, class State, class Cell, class Loop = no_loop_function_t>
auto rnn_decoder(const std::tuple<X...>& decoder_inputs, const State& initial_state, const Cell& cell,
                 const Loop& loop_function = {}) {
  if constexpr (!detail::check_decoder_inputs<Scope, X...>()) {
    return detail::pair_of(decoder_inputs, initial_state);
  } else {
    auto flat = flatten_state(initial_state);
    auto [outputs, final_flat] =
        detail::unroll_decoder<Scope, 0>(cell, decoder_inputs, loop_function, std::get<0>(decoder_inputs), flat,
                                         std::tuple<>{});
    return detail::pair_of(outputs, Cell::unflatten(final_flat));
  }
}

/// `rnn::basic_rnn_seq2seq(encoder_inputs, decoder_inputs, cell)` is
/// tf.contrib.legacy_seq2seq.basic_rnn_seq2seq: static_rnn of the cell over the encoder
/// inputs from the zero state ("basic_rnn_seq2seq/rnn/<cell>/..."), then rnn_decoder from its
/// final state ("basic_rnn_seq2seq/rnn_decoder/<cell>/...": a copy of the cell, its own
/// variables). Returns std::pair{std::tuple of the decoder outputs, the final state}.
template <fixed_string Scope = "basic_rnn_seq2seq", class... E, class... X, class Cell>
auto basic_rnn_seq2seq(const std::tuple<E...>& encoder_inputs, const std::tuple<X...>& decoder_inputs,
                       const Cell& cell) {
  auto [enc_outputs, enc_state] = static_rnn<join_names<Scope, "rnn">()>(cell, encoder_inputs);
  (void)enc_outputs;
  return rnn_decoder<join_names<Scope, "rnn_decoder">()>(decoder_inputs, enc_state, cell);
}

/// `rnn::attention_decoder<OutputSize, NumHeads, InitialStateAttention, Scope>(decoder_inputs,
/// initial_state, attention_states, cell, loop_function)` is
/// tf.contrib.legacy_seq2seq.attention_decoder(decoder_inputs, initial_state,
/// attention_states, cell, output_size, num_heads, loop_function, scope=Scope,
/// initial_state_attention). attention_states [batch, attn_length, attn_size]; OutputSize
/// rnn::cell_output_size (0) for the cell's. Per step, as TensorFlow:
///   x = linear([input] + attns, depth);  cell_output, state = cell(x, state)
///   attns = attention(state)  (each head: softmax(v^T tanh(W h_t + U state)) read of the states)
///   output = linear([cell_output] + attns, output_size)  in "AttnOutputProjection"
/// The first attns are zeros, or attention(initial_state) with InitialStateAttention.
/// Returns std::pair{std::tuple of the outputs [batch, output_size], the final state}.
/// The variables are listed at the top of this header.
template <std::size_t OutputSize = cell_output_size, std::size_t NumHeads = 1, bool InitialStateAttention = false,
          fixed_string Scope = "attention_decoder", class... X, class State, node H, class Cell,
          class Loop = no_loop_function_t>
auto attention_decoder(const std::tuple<X...>& decoder_inputs, const State& initial_state, const H& attention_states,
                       const Cell& cell, const Loop& loop_function = {}) {
  if constexpr (NumHeads == 0) {
    static_assert(rnn::attention_decoder_needs_at_least_one_head<Scope, NumHeads>::value,
                  "typeflow::rnn::attention_decoder<output_size, num_heads>: num_heads must be at least 1 (with "
                  "none, use rnn_decoder)");
    return detail::pair_of(decoder_inputs, initial_state);
  } else if constexpr (!detail::check_decoder_inputs<Scope, X...>() || !detail::check_attention_states<Scope, H>()) {
    return detail::pair_of(decoder_inputs, initial_state);
  } else {
    constexpr std::size_t out_size = OutputSize == cell_output_size ? Cell::output_size : OutputSize;
    constexpr std::ptrdiff_t a = shape_of<H>::dims[2];
    constexpr auto heads = std::make_index_sequence<NumHeads>{};
    auto features = [&]<std::size_t... K>(std::index_sequence<K...>) {
      return detail::tuple_of(detail::attention_features<Scope, K>(attention_states)...);
    }(heads);
    auto v = [&]<std::size_t... K>(std::index_sequence<K...>) {
      return detail::tuple_of(detail::attention_vector<Scope, K>(attention_states)...);
    }(heads);
    auto flat = flatten_state(initial_state);
    auto attns = [&] {
      if constexpr (InitialStateAttention) {
        return detail::attention_reads<Scope>(attention_states, features, v, detail::attention_query(flat), heads);
      } else {
        auto zero = detail::zeros_for_batch<std::size_t(a)>(std::get<0>(decoder_inputs));
        return [&]<std::size_t... K>(std::index_sequence<K...>) {
          return detail::tuple_of((void(K), zero)...);
        }(heads);
      }
    }();
    using X0 = std::tuple_element_t<0, std::tuple<X...>>;
    if constexpr (std::is_same_v<Loop, no_loop_function_t>) {
      return detail::attention_loop<Scope, out_size, NumHeads>(cell, decoder_inputs, attention_states, features, v,
                                                               flat, attns);
    } else if constexpr (detail::feeds_back_in_a_loop<Loop, value_type_of<X0>,
                                                      detail::common_batch<X0, H>(), std::ptrdiff_t(out_size)>) {
      return detail::attention_loop_feeding_back<Scope, out_size, NumHeads>(
          cell, decoder_inputs, loop_function, attention_states, features, v, flat, attns);
    } else {
      auto [outputs, final_flat] = detail::unroll_attention<Scope, 0, out_size>(
          cell, decoder_inputs, loop_function, attention_states, features, v, std::get<0>(decoder_inputs), flat,
          attns, std::tuple<>{});
      return detail::pair_of(outputs, Cell::unflatten(final_flat));
    }
  }
}

}  // namespace typeflow::rnn
