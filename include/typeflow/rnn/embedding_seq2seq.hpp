// typeflow/rnn/embedding_seq2seq.hpp — the seq2seq models of tf.contrib.legacy_seq2seq over
// symbols: embedding_rnn_decoder, embedding_rnn_seq2seq, embedding_attention_decoder and
// embedding_attention_seq2seq, built as TensorFlow builds them from the cell wrappers
// (rnn/wrappers.hpp) and the decoders of rnn/seq2seq.hpp. The encoder, TensorFlow's
// static_rnn over an EmbeddingWrapper, runs as one loop in the graph (rnn::dynamic_rnn over
// the stacked ids, looked up once) with the same variables and the same values.
//
// Inputs are std::tuples of ids [batch] (int32 or int64), one per step. TensorFlow's keyword
// arguments that change the graph (the symbol counts, the embedding size, num_heads,
// feed_previous, initial_state_attention, the scope) are template arguments; an output
// projection is `rnn::output_projection(w, b)` (TensorFlow's (w, b) pair) or none. The
// variables, with TensorFlow's names, for the default scope of embedding_attention_seq2seq
// (embedding_rnn_seq2seq's are the same with "embedding_rnn_decoder/rnn_decoder" for the
// decoder's and no attention):
//
//   embedding_attention_seq2seq/rnn/embedding_wrapper/embedding        [encoder symbols, E]
//   embedding_attention_seq2seq/rnn/embedding_wrapper/<cell>/...       the encoder cell's
//   embedding_attention_seq2seq/embedding_attention_decoder/embedding  [decoder symbols, E]
//   embedding_attention_seq2seq/embedding_attention_decoder/attention_decoder/...
//       the attention decoder's (rnn/seq2seq.hpp), its cell wrapped in an
//       output_projection_wrapper ("output_projection_wrapper/kernel", ".../<cell>/...")
//       unless an output projection is given
//
// The embeddings' gradients are sparse (ops/embedding.hpp): an optimizer updates only the
// rows of the symbols a batch holds.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/argmax.hpp"
#include "typeflow/ops/concat.hpp"
#include "typeflow/ops/embedding.hpp"
#include "typeflow/ops/expand.hpp"
#include "typeflow/ops/init.hpp"
#include "typeflow/ops/math.hpp"
#include "typeflow/ops/matmul.hpp"
#include "typeflow/ops/split.hpp"
#include "typeflow/ops/transpose.hpp"
#include "typeflow/ops/variable.hpp"
#include "typeflow/rnn/dynamic_rnn.hpp"
#include "typeflow/rnn/seq2seq.hpp"
#include "typeflow/rnn/wrappers.hpp"

namespace typeflow::rnn {

/// No output projection: the decoder's cell is wrapped in an output_projection_wrapper to
/// the decoder symbols.
struct no_output_projection_t {};
inline constexpr no_output_projection_t no_output_projection{};

/// TensorFlow's output_projection=(w, b): w [cell output, symbols], b [symbols]; the model
/// outputs the cell's outputs, and feed_previous projects them before its argmax.
template <class W, class B>
struct output_projection_t {
  W w;
  B b;
};
template <node W, node B>
constexpr output_projection_t<W, B> output_projection(const W& w, const B& b) {
  return {w, b};
}

namespace detail {

// The decoder's embedding: "<Scope>/embedding" [Symbols, Size], TensorFlow's get_variable
// default (glorot_uniform).
template <fixed_string Scope, std::size_t Symbols, std::size_t Size, class T>
constexpr auto decoder_embedding() {
  return variable<join_names<Scope, "embedding">(), T, shape<std::ptrdiff_t(Symbols), std::ptrdiff_t(Size)>,
                  init::glorot_uniform()>();
}

template <class Table, class... X>
auto embed_all(const Table& table, const std::tuple<X...>& ids) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return tuple_of(embedding_lookup(table, std::get<I>(ids))...);
  }(std::index_sequence_for<X...>{});
}

/// The decoder's inputs embedded: without feed_previous the ids of all steps stacked and
/// looked up once, then unstacked (the same rows; the decoder loop reads the lookup whole,
/// and the table's gradient is one IndexedSlices instead of a sum of one per step); with
/// it, one lookup per step, so that the ids after the first stay off the path.
template <bool FeedPrevious, class Table, class... X>
auto embed_decoder_inputs(const Table& table, const std::tuple<X...>& ids) {
  if constexpr (FeedPrevious) {
    return embed_all(table, ids);
  } else {
    return unstack<0>(embedding_lookup(table, std::apply([](const auto&... i) { return stack<0>(i...); }, ids)));
  }
}

/// legacy_seq2seq's _extract_argmax_and_embed: the previous output (projected, if there is
/// a projection), its argmax looked up in the embedding; the gradient stops there unless
/// UpdateEmbedding.
template <bool UpdateEmbedding, class Table, class Projection>
struct argmax_and_embed {
  Table table;
  Projection projection;
  template <node Prev>
  auto operator()(const Prev& prev) const {
    auto logits = [&] {
      if constexpr (std::is_same_v<Projection, no_output_projection_t>) {
        return prev;
      } else {
        return matmul(prev, projection.w) + projection.b;
      }
    }();
    auto embedded = embedding_lookup(table, argmax<1>(logits));
    if constexpr (UpdateEmbedding) {
      return embedded;
    } else {
      return stop_gradient(embedded);
    }
  }
};

template <bool FeedPrevious, bool UpdateEmbedding, class Table, class Projection>
auto loop_function_for(const Table& table, const Projection& projection) {
  if constexpr (FeedPrevious) {
    return argmax_and_embed<UpdateEmbedding, Table, Projection>{table, projection};
  } else {
    return no_loop_function;
  }
}

// The decoder's cell: wrapped to the symbols unless there is an output projection.
template <std::size_t Symbols, class Projection, class Cell>
constexpr auto decoder_cell(const Cell&) {
  if constexpr (std::is_same_v<Projection, no_output_projection_t>) {
    return output_projection_wrapper<Cell, Symbols>{};
  } else {
    return Cell{};
  }
}

/// The encoder of embedding_rnn_seq2seq and embedding_attention_seq2seq: TensorFlow's
/// static_rnn of an embedding_wrapper around the cell in "<Scope>", run as one loop in the
/// graph (rnn::dynamic_rnn, time-major): the ids of the steps stacked [time, batch], looked
/// up once in the wrapper's table "<Scope>/embedding_wrapper/embedding" (its initializer),
/// the cell's step the loop's body, its variables "<Scope>/embedding_wrapper/<cell>/..." as
/// the wrapper names them. The same ops on the same values as static_rnn's steps, in the
/// same order. Returns std::pair{outputs [time, batch, output_size], the final state}.
template <fixed_string Scope, std::size_t Classes, std::size_t Size, class T, class Cell, class... E>
auto embedding_encoder(const Cell&, const std::tuple<E...>& ids) {
  using wrapper = embedding_wrapper<Cell, Classes, Size, T>;
  constexpr auto scope = join_names<Scope, wrapper::name>();
  auto table = variable<join_names<scope, "embedding">(), T, shape<std::ptrdiff_t(Classes), std::ptrdiff_t(Size)>,
                        wrapper::default_initializer>();
  auto stacked = std::apply([](const auto&... x) { return stack<0>(x...); }, ids);  // [time, batch]
  return dynamic_rnn<scope>(Cell{}, embedding_lookup(table, stacked), time_major);
}

}  // namespace detail

/// `embedding_rnn_decoder<num_symbols, embedding_size, feed_previous, ...>(decoder_inputs,
/// initial_state, cell, output_projection)` is legacy_seq2seq.embedding_rnn_decoder: the ids
/// looked up in "<Scope>/embedding", then rnn_decoder ("<Scope>/rnn_decoder/..."); with
/// FeedPrevious, from step 1 on the input is the previous output's argmax embedded.
template <std::size_t NumSymbols, std::size_t EmbeddingSize, bool FeedPrevious = false,
          bool UpdateEmbeddingForPrevious = true, fixed_string Scope = "embedding_rnn_decoder", class T = float,
          class... X, class State, class Cell, class Projection = no_output_projection_t>
auto embedding_rnn_decoder(const std::tuple<X...>& decoder_inputs, const State& initial_state, const Cell& cell,
                           const Projection& projection = {}) {
  auto table = detail::decoder_embedding<Scope, NumSymbols, EmbeddingSize, T>();
  return rnn_decoder<join_names<Scope, "rnn_decoder">()>(
      detail::embed_all(table, decoder_inputs), initial_state, cell,
      detail::loop_function_for<FeedPrevious, UpdateEmbeddingForPrevious>(table, projection));
}

/// `embedding_rnn_seq2seq<num_encoder_symbols, num_decoder_symbols, embedding_size,
/// feed_previous, ...>(encoder_inputs, decoder_inputs, cell, output_projection)` is
/// legacy_seq2seq.embedding_rnn_seq2seq: the cell over the encoder ids (an embedding_wrapper
/// in "<Scope>/rnn", as one loop: detail::embedding_encoder), then embedding_rnn_decoder from its final state, its cell
/// wrapped to the decoder symbols unless there is a projection. Returns std::pair{the
/// decoder outputs, the final state}.
template <std::size_t NumEncoderSymbols, std::size_t NumDecoderSymbols, std::size_t EmbeddingSize,
          bool FeedPrevious = false, fixed_string Scope = "embedding_rnn_seq2seq", class T = float, class... E,
          class... X, class Cell, class Projection = no_output_projection_t>
auto embedding_rnn_seq2seq(const std::tuple<E...>& encoder_inputs, const std::tuple<X...>& decoder_inputs,
                           const Cell& cell, const Projection& projection = {}) {
  auto [encoder_outputs, encoder_state] =
      detail::embedding_encoder<join_names<Scope, "rnn">(), NumEncoderSymbols, EmbeddingSize, T>(cell, encoder_inputs);
  (void)encoder_outputs;
  return embedding_rnn_decoder<NumDecoderSymbols, EmbeddingSize, FeedPrevious, true,
                               join_names<Scope, "embedding_rnn_decoder">(), T>(
      decoder_inputs, encoder_state, detail::decoder_cell<NumDecoderSymbols, Projection>(cell), projection);
}

/// `embedding_attention_decoder<num_symbols, embedding_size, num_heads, output_size,
/// feed_previous, initial_state_attention, ...>(decoder_inputs, initial_state,
/// attention_states, cell, output_projection)` is legacy_seq2seq.embedding_attention_decoder:
/// the ids looked up in "<Scope>/embedding", then attention_decoder
/// ("<Scope>/attention_decoder/...").
template <std::size_t NumSymbols, std::size_t EmbeddingSize, std::size_t NumHeads = 1,
          std::size_t OutputSize = cell_output_size, bool FeedPrevious = false, bool InitialStateAttention = false,
          bool UpdateEmbeddingForPrevious = true, fixed_string Scope = "embedding_attention_decoder", class T = float,
          class... X, class State, node H, class Cell, class Projection = no_output_projection_t>
auto embedding_attention_decoder(const std::tuple<X...>& decoder_inputs, const State& initial_state,
                                 const H& attention_states, const Cell& cell, const Projection& projection = {}) {
  auto table = detail::decoder_embedding<Scope, NumSymbols, EmbeddingSize, T>();
  return attention_decoder<OutputSize, NumHeads, InitialStateAttention, join_names<Scope, "attention_decoder">()>(
      detail::embed_decoder_inputs<FeedPrevious>(table, decoder_inputs), initial_state, attention_states, cell,
      detail::loop_function_for<FeedPrevious, UpdateEmbeddingForPrevious>(table, projection));
}

/// `embedding_attention_seq2seq<num_encoder_symbols, num_decoder_symbols, embedding_size,
/// num_heads, feed_previous, initial_state_attention, ...>(encoder_inputs, decoder_inputs,
/// cell, output_projection)` is legacy_seq2seq.embedding_attention_seq2seq: the encoder as
/// embedding_rnn_seq2seq's, its outputs the attention states, then
/// embedding_attention_decoder from its final state. Without a projection the decoder's cell
/// is wrapped to the decoder symbols and the outputs are [batch, num_decoder_symbols]; with
/// one they are the cell's. Returns std::pair{the decoder outputs, the final state}.
template <std::size_t NumEncoderSymbols, std::size_t NumDecoderSymbols, std::size_t EmbeddingSize,
          std::size_t NumHeads = 1, bool FeedPrevious = false, bool InitialStateAttention = false,
          fixed_string Scope = "embedding_attention_seq2seq", class T = float, class... E, class... X, class Cell,
          class Projection = no_output_projection_t>
auto embedding_attention_seq2seq(const std::tuple<E...>& encoder_inputs, const std::tuple<X...>& decoder_inputs,
                                 const Cell& cell, const Projection& projection = {}) {
  auto [encoder_outputs, encoder_state] =
      detail::embedding_encoder<join_names<Scope, "rnn">(), NumEncoderSymbols, EmbeddingSize, T>(cell, encoder_inputs);
  constexpr std::size_t output_size =
      std::is_same_v<Projection, no_output_projection_t> ? NumDecoderSymbols : cell_output_size;
  return embedding_attention_decoder<NumDecoderSymbols, EmbeddingSize, NumHeads, output_size, FeedPrevious,
                                     InitialStateAttention, true, join_names<Scope, "embedding_attention_decoder">(), T>(
      decoder_inputs, encoder_state, transpose<1, 0, 2>(encoder_outputs),
      detail::decoder_cell<NumDecoderSymbols, Projection>(cell), projection);
}

}  // namespace typeflow::rnn
