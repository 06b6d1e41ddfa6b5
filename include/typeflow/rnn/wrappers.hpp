// typeflow/rnn/wrappers.hpp — tf.contrib.rnn's EmbeddingWrapper and OutputProjectionWrapper,
// and tf.nn.rnn_cell.ResidualWrapper: cells around a cell, following the cell protocol of
// rnn/cell.hpp, so that the drivers and the seq2seq models drive them as any cell.
//
// As in TensorFlow, the embedding and projection wrappers are a scope of their own and the
// wrapped cell's variables are under it: "<scope>/embedding_wrapper/embedding",
// "<scope>/embedding_wrapper/gru_cell/...", "<scope>/output_projection_wrapper/kernel",
// "<scope>/output_projection_wrapper/gru_cell/..."; the residual wrapper adds no scope and no
// variable ("<scope>/gru_cell/..." as the cell alone).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/dense.hpp"
#include "typeflow/ops/embedding.hpp"
#include "typeflow/ops/expand.hpp"
#include "typeflow/ops/init.hpp"
#include "typeflow/ops/math.hpp"
#include "typeflow/ops/variable.hpp"
#include "typeflow/rnn/detail/cell_base.hpp"
#include "typeflow/rnn/state.hpp"

namespace typeflow::rnn {

/// In a diagnostic: an embedding wrapper's step input must be ids [batch], int32 or int64;
/// the scope, the ids' element type and shape.
template <fixed_string Scope, class IdsType, class IdsShape>
struct embedding_wrapper_input_must_be_int_ids_of_shape_batch {
  static constexpr bool value = false;
};

/// In a diagnostic: a residual wrapper adds a step's input to the cell's output, so the
/// input's depth must be the cell's output size; the scope, the depth and the output size.
template <fixed_string Scope, std::size_t InputDepth, std::size_t CellOutputSize>
struct residual_wrapper_input_depth_must_equal_the_cell_output_size {
  static constexpr bool value = false;
};

namespace detail {

// ResidualWrapper's default residual_fn: inputs + outputs.
struct residual_add {
  template <node X, node Out>
  constexpr auto operator()(const X& x, const Out& out) const {
    return x + out;
  }
};

// What every wrapper says of the structured state: the wrapped cell's.
template <class Wrapper, class Cell>
struct wrapper_base {
  static constexpr auto state_sizes = Cell::state_sizes;

  template <class... S>
  static constexpr auto unflatten(const std::tuple<S...>& flat) {
    return Cell::unflatten(flat);
  }
  /// `cell.call<"scope">(x, state)`: (output, new state), the state structured as the
  /// wrapped cell's.
  template <fixed_string Scope = "rnn", node X, class State>
  auto call(const X& x, const State& state) const {
    auto [out, flat] = static_cast<const Wrapper&>(*this).template step<Scope>(x, flatten_state(state));
    return pair_of(out, Cell::unflatten(flat));
  }
  template <node X, class State>
  auto operator()(const X& x, const State& state) const {
    return call<"rnn">(x, state);
  }
};

}  // namespace detail

/// tf.contrib.rnn.EmbeddingWrapper(cell, embedding_classes, embedding_size): a step's input
/// is ids [batch] (int32 or int64), looked up in "<scope>/embedding_wrapper/embedding"
/// [Classes, Size] (uniform on [-sqrt(3), sqrt(3)), TensorFlow's default) and given to the
/// cell. T is the state's element type, static_rnn's dtype in TensorFlow (float32). The
/// lookup's gradient is sparse (ops/embedding.hpp): an optimizer updates the rows looked up.
template <class Cell, std::size_t Classes, std::size_t Size, class T = float>
struct embedding_wrapper : detail::wrapper_base<embedding_wrapper<Cell, Classes, Size, T>, Cell> {
  static constexpr fixed_string name = "embedding_wrapper";
  static constexpr std::size_t output_size = Cell::output_size;
  static constexpr std::size_t embedding_classes = Classes;
  static constexpr std::size_t embedding_size = Size;
  static constexpr init::initializer default_initializer = init::random_uniform(-1.7320508075688772, 1.7320508075688772);

  constexpr embedding_wrapper() = default;
  constexpr explicit embedding_wrapper(const Cell&) {}

  template <fixed_string Scope, node X, class... S>
  auto step(const X& ids, const std::tuple<S...>& state) const {
    constexpr auto scope = join_names<Scope, name>();
    using IT = value_type_of<X>;
    if constexpr ((!std::is_same_v<IT, std::int32_t> && !std::is_same_v<IT, std::int64_t>) || shape_of<X>::rank != 1) {
      static_assert(embedding_wrapper_input_must_be_int_ids_of_shape_batch<Scope, IT, shape_of<X>>::value,
                    "typeflow::rnn::embedding_wrapper: a step's input must be ids [batch], int32 or int64");
      return detail::pair_of(constant<0, T>(), state);  // inert: the error above is the one to read
    } else {
      auto table = variable<join_names<scope, "embedding">(), T, shape<std::ptrdiff_t(Classes), std::ptrdiff_t(Size)>,
                            default_initializer>();
      return Cell{}.template step<scope>(embedding_lookup(table, ids), state);
    }
  }

  /// Zeros of the cell's state for the batch of ids [batch].
  template <node X>
  static constexpr auto zero_flat_state(const X& ids) {
    return Cell::zero_flat_state(cast<T>(expand_dims<1>(ids)));
  }
};

/// tf.contrib.rnn.OutputProjectionWrapper(cell, output_size, activation): the cell's output
/// projected to OutputSize, "<scope>/output_projection_wrapper/kernel" [cell output,
/// OutputSize] (glorot_uniform) and ".../bias" [OutputSize] (zeros), then Activation (none by
/// default); the state is the cell's.
template <class Cell, std::size_t OutputSize, class Activation = activation::linear_t>
struct output_projection_wrapper : detail::wrapper_base<output_projection_wrapper<Cell, OutputSize, Activation>, Cell> {
  static constexpr fixed_string name = "output_projection_wrapper";
  static constexpr std::size_t output_size = OutputSize;

  constexpr output_projection_wrapper() = default;
  constexpr explicit output_projection_wrapper(const Cell&, Activation = {}) {}

  template <fixed_string Scope, node X, class... S>
  auto step(const X& x, const std::tuple<S...>& state) const {
    constexpr auto scope = join_names<Scope, name>();
    auto [out, flat] = Cell{}.template step<scope>(x, state);
    using T = value_type_of<decltype(out)>;
    constexpr std::ptrdiff_t in = std::ptrdiff_t(Cell::output_size), o = std::ptrdiff_t(OutputSize);
    auto kernel = variable<join_names<scope, "kernel">(), T, shape<in, o>, init::glorot_uniform()>();
    auto bias = variable<join_names<scope, "bias">(), T, shape<o>, init::zeros()>();
    return detail::pair_of(ops::detail::dense_layer<scope>(out, kernel, bias, Activation{}), flat);
  }

  template <node X>
  static constexpr auto zero_flat_state(const X& x) {
    return Cell::zero_flat_state(x);
  }
};

/// tf.nn.rnn_cell.ResidualWrapper(cell, residual_fn): the cell's output plus the step's input
/// (`ResidualFn{}(input, output)`, `input + output` by default), the state the cell's. It
/// adds no scope and no variable: the cell's are "<scope>/gru_cell/..." as without it. With
/// the default function the input's depth must be the cell's output size (a compile error
/// naming the scope otherwise); a `ResidualFn` (a default-constructible callable, such as a
/// lambda without captures) makes its own rule, and its result is the output.
template <class Cell, class ResidualFn = detail::residual_add>
struct residual_wrapper : detail::wrapper_base<residual_wrapper<Cell, ResidualFn>, Cell> {
  static constexpr std::size_t output_size = Cell::output_size;

  constexpr residual_wrapper() = default;
  constexpr explicit residual_wrapper(const Cell&, ResidualFn = {}) {}

  template <fixed_string Scope, node X, class... S>
  auto step(const X& x, const std::tuple<S...>& state) const {
    auto [out, flat] = Cell{}.template step<Scope>(x, state);
    if constexpr (std::is_same_v<ResidualFn, detail::residual_add> && shape_of<X>::rank == 2) {
      constexpr auto depth = shape_of<X>::dims[1];
      if constexpr (depth >= 0 && depth != std::ptrdiff_t(Cell::output_size)) {  // a dyn depth: the cell's error
        static_assert(rnn::residual_wrapper_input_depth_must_equal_the_cell_output_size<Scope, std::size_t(depth),
                                                                                       Cell::output_size>::value,
                      "typeflow::rnn::residual_wrapper: a step's input must have the depth of the cell's output");
        return detail::pair_of(out, flat);  // inert: the error above is the one to read
      } else {
        return detail::pair_of(ResidualFn{}(x, out), flat);
      }
    } else {
      return detail::pair_of(ResidualFn{}(x, out), flat);
    }
  }

  template <node X>
  static constexpr auto zero_flat_state(const X& x) {
    return Cell::zero_flat_state(x);
  }
};

}  // namespace typeflow::rnn
