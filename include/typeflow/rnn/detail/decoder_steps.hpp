// typeflow/rnn/detail/decoder_steps.hpp — the pieces of the legacy_seq2seq decoders
// (rnn/seq2seq.hpp): the checks of their inputs, TensorFlow's _linear, the attention reads,
// and the decoders unrolled at compile time. rnn/seq2seq.hpp builds the decoders' loops and
// the public functions from them, and lists the variables they make.
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
#include "typeflow/rnn/static_rnn.hpp"

namespace typeflow::rnn {

/// In a diagnostic: a decoder needs at least one decoder input.
template <fixed_string Scope>
struct seq2seq_decoder_needs_at_least_one_decoder_input {
  static constexpr bool value = false;
};
/// In a diagnostic: every decoder input must be [batch, depth] with a static depth, all of
/// one shape and element type; the index of the first one that is not, and its shape
/// beside the first input's.
template <fixed_string Scope, std::size_t Index, class FirstShape, class Shape>
struct seq2seq_decoder_inputs_must_be_batch_by_depth_of_one_shape {
  static constexpr bool value = false;
};
/// In a diagnostic: attention_states must be [batch, attn_length, attn_size], length and
/// size static; its shape.
template <fixed_string Scope, class Shape>
struct attention_decoder_attention_states_must_be_batch_length_size {
  static constexpr bool value = false;
};
/// In a diagnostic: attention_decoder needs num_heads >= 1.
template <fixed_string Scope, std::size_t NumHeads>
struct attention_decoder_needs_at_least_one_head {
  static constexpr bool value = false;
};

/// Stands for TensorFlow's loop_function=None: every step reads its decoder input.
struct no_loop_function_t {};
inline constexpr no_loop_function_t no_loop_function{};

/// attention_decoder's output_size=None: the cell's output size.
inline constexpr std::size_t cell_output_size = 0;

namespace detail {

/// The checks of the decoder inputs, one static_assert naming the scope. True when they pass.
template <fixed_string Scope, class... X>
constexpr bool check_decoder_inputs() {
  if constexpr (sizeof...(X) == 0) {
    static_assert(rnn::seq2seq_decoder_needs_at_least_one_decoder_input<Scope>::value,
                  "typeflow::rnn seq2seq decoder: decoder_inputs must be a std::tuple of at least one [batch, depth] "
                  "node");
    return false;
  } else {
    using X0 = std::tuple_element_t<0, std::tuple<X...>>;
    constexpr std::size_t bad = [] {
      const bool ok[] = {(shape_of<X>::rank == 2 && shape_of<X>::dims[1] != dyn &&
                          std::is_same_v<shape_of<X>, shape_of<X0>> &&
                          std::is_same_v<value_type_of<X>, value_type_of<X0>>)...};
      for (std::size_t i = 0; i < sizeof...(X); ++i)
        if (!ok[i]) return i;
      return sizeof...(X);
    }();
    if constexpr (bad != sizeof...(X)) {
      using XB = std::tuple_element_t<bad, std::tuple<X...>>;
      static_assert(
          rnn::seq2seq_decoder_inputs_must_be_batch_by_depth_of_one_shape<Scope, bad, shape_of<X0>, shape_of<XB>>::value,
          "typeflow::rnn seq2seq decoder: decoder_inputs must all be [batch, depth] (rank 2, static depth) of one "
          "shape and element type");
    }
    return bad == sizeof...(X);
  }
}

/// The step input: decoder_inputs[I], or loop_function(prev, I) from step 1 on.
template <std::size_t I, class Inputs, class Prev, class Loop>
auto step_input(const Inputs& inputs, const Prev& prev, const Loop& loop_function) {
  if constexpr (I == 0 || std::is_same_v<Loop, no_loop_function_t>) {
    return std::get<I>(inputs);
  } else if constexpr (std::is_invocable_v<const Loop&, const Prev&, std::integral_constant<std::size_t, I>>) {
    return loop_function(prev, std::integral_constant<std::size_t, I>{});
  } else {
    return loop_function(prev);
  }
}

/// TensorFlow's core_rnn_cell _linear(args, Out, bias=True) in Scope: concat(args, 1) @
/// "<Scope>/kernel" + "<Scope>/bias" (glorot_uniform, zeros); one argument is not concatenated.
template <fixed_string Scope, std::ptrdiff_t Out, node A0, node... A>
auto linear(const A0& a0, const A&... a) {
  using T = value_type_of<A0>;
  constexpr std::ptrdiff_t total = shape_of<A0>::dims[1] + (std::ptrdiff_t(0) + ... + shape_of<A>::dims[1]);
  auto kernel = variable<join_names<Scope, "kernel">(), T, shape<total, Out>, init::glorot_uniform()>();
  auto bias = variable<join_names<Scope, "bias">(), T, shape<Out>, init::zeros()>();
  if constexpr (sizeof...(A) == 0) {
    return ops::detail::dense_layer<Scope>(a0, kernel, bias, activation::linear);
  } else {
    return ops::detail::dense_layer<Scope>(ops::detail::in_layer_scope<Scope>(concat<1>(a0, a...)), kernel, bias,
                                           activation::linear);
  }
}

/// The query of the attention: the flat state, concatenated when it has several tensors.
template <class... S>
auto attention_query(const std::tuple<S...>& flat) {
  if constexpr (sizeof...(S) == 1) {
    return std::get<0>(flat);
  } else {
    return std::apply([](const auto&... s) { return concat<1>(s...); }, flat);
  }
}

/// "<prefix><I>": AttnW_0, AttnV_1, Attention_0, ...
template <fixed_string Prefix, std::size_t I>
constexpr auto indexed_name() {
  constexpr auto suffix = cell_index_name<I>();  // "cell_<I>"
  constexpr std::size_t n = Prefix.size(), digits = suffix.size() - 5;
  fixed_string<n + digits + 1> out{};
  for (std::size_t i = 0; i < n; ++i) out.data[i] = Prefix.data[i];
  for (std::size_t i = 0; i < digits; ++i) out.data[n + i] = suffix.data[5 + i];
  return out;
}

/// The attention reads of every head for one query, as TensorFlow's attention(query):
///   y = linear(query, A) in "Attention_<a>";  s = sum_A(v_a * tanh(features_a + y[:, None, :]))
///   p = softmax(s) [batch, L];  d = sum_L(p[:, :, None] * attention_states) [batch, A].
template <fixed_string Scope, class H, class Features, class V, class Q, std::size_t... I>
auto attention_reads(const H& hidden, const Features& features, const V& v, const Q& query, std::index_sequence<I...>) {
  constexpr std::ptrdiff_t a = shape_of<H>::dims[2];
  auto head = [&]<std::size_t K>(std::integral_constant<std::size_t, K>) {
    constexpr auto scope = join_names<Scope, indexed_name<"Attention_", K>()>();
    auto y = expand_dims<1>(linear<scope, a>(query));
    auto s = reduce_sum<2>(std::get<K>(v) * tanh(std::get<K>(features) + y));
    auto p = softmax(s);
    return reduce_sum<1>(expand_dims<2>(p) * hidden);
  };
  return tuple_of(head(std::integral_constant<std::size_t, I>{})...);
}

/// AttnW_<a>'s features of the attention states, [batch, L, A]: the 1x1 convolution as a
/// matmul over the last axis.
template <fixed_string Scope, std::size_t K, class H>
auto attention_features(const H& hidden) {
  using T = value_type_of<H>;
  using S = shape_of<H>;
  constexpr std::ptrdiff_t b = S::dims[0], l = S::dims[1], a = S::dims[2];
  auto w = variable<join_names<Scope, indexed_name<"AttnW_", K>()>(), T, shape<1, 1, a, a>, init::glorot_uniform()>();
  auto rows = reshape<shape<b == dyn ? dyn : b * l, a>>(hidden);
  return reshape<shape<b, l, a>>(matmul(rows, reshape<shape<a, a>>(w)));
}

template <fixed_string Scope, std::size_t K, class H>
auto attention_vector(const H&) {
  constexpr std::ptrdiff_t a = shape_of<H>::dims[2];
  return variable<join_names<Scope, indexed_name<"AttnV_", K>()>(), value_type_of<H>, shape<a>, init::glorot_uniform()>();
}

template <fixed_string Scope, std::size_t I, class Cell, class Inputs, class Loop, class Prev, class State, class... O>
auto unroll_decoder(const Cell& cell, const Inputs& inputs, const Loop& loop_function, const Prev& prev,
                    const State& state, const std::tuple<O...>& outputs) {
  if constexpr (I == std::tuple_size_v<Inputs>) {
    return pair_of(outputs, state);
  } else {
    auto x = step_input<I>(inputs, prev, loop_function);
    auto [out, new_state] = cell.template step<Scope>(x, state);
    return unroll_decoder<Scope, I + 1>(cell, inputs, loop_function, out, new_state,
                                        concat_tuples(outputs, tuple_of(out)));
  }
}

template <fixed_string Scope, std::size_t I, std::size_t OutputSize, class Cell, class Inputs, class Loop, class H,
          class Features, class V, class Prev, class State, class Attns, class... O>
auto unroll_attention(const Cell& cell, const Inputs& inputs, const Loop& loop_function, const H& hidden,
                      const Features& features, const V& v, const Prev& prev, const State& state, const Attns& attns,
                      const std::tuple<O...>& outputs) {
  if constexpr (I == std::tuple_size_v<Inputs>) {
    return pair_of(outputs, state);
  } else {
    constexpr auto heads = std::make_index_sequence<std::tuple_size_v<Attns>>{};
    auto inp = step_input<I>(inputs, prev, loop_function);
    constexpr std::ptrdiff_t d = shape_of<decltype(inp)>::dims[1];
    auto x = std::apply([&](const auto&... a) { return linear<Scope, d>(inp, a...); }, attns);
    auto [cell_output, new_state] = cell.template step<Scope>(x, state);
    auto new_attns = attention_reads<Scope>(hidden, features, v, attention_query(new_state), heads);
    constexpr auto projection = join_names<Scope, "AttnOutputProjection">();
    auto output = std::apply(
        [&](const auto&... a) { return linear<projection, std::ptrdiff_t(OutputSize)>(cell_output, a...); }, new_attns);
    return unroll_attention<Scope, I + 1, OutputSize>(cell, inputs, loop_function, hidden, features, v, output,
                                                      new_state, new_attns, concat_tuples(outputs, tuple_of(output)));
  }
}

}  // namespace detail

}  // namespace typeflow::rnn
