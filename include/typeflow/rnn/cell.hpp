// typeflow/rnn/cell.hpp — TensorFlow 1.x's recurrent cells: BasicRNNCell, GRUCell,
// BasicLSTMCell, LSTMCell (no peepholes, no projection) and MultiRNNCell.
//
// A cell is an empty value: its units, forget bias and activation are in its type. One step
// of a cell is a graph expression over the step's input and the previous state; its
// variables are made by the step, with TensorFlow's names, shapes, gate order and
// initializers in their types, so that the steps of an unrolled sequence (static_rnn) share
// them: the same variable type is the same variable (DESIGN rule 1).
//
// The protocol every cell follows (rnn/static_rnn.hpp and the loop drivers build on it):
//
//   C::output_size                        the width of the output
//   C::state_sizes                        std::array of the widths of the flat state tensors,
//                                         each [batch, width]: {H}, LSTM {H, H} as (c, h),
//                                         a multi cell its cells' lists in order
//   cell.step<Scope>(x, flat_state)       x [batch, D] (D static), flat_state a std::tuple of
//                                         the state tensors; returns std::pair{output,
//                                         std::tuple{new state tensors...}}
//   cell.call<Scope>(x, state), cell(x, state)   the same on the structured state: a node
//                                         (basic RNN, GRU), rnn::lstm_state_tuple (LSTMs),
//                                         a std::tuple of the cells' states (multi)
//   C::unflatten(flat), rnn::flatten_state(state)   between the two forms
//   rnn::zero_state(cell, x)              the zero state of x's batch (C::zero_flat_state)
//
// Scope is the variable scope the cell is in ("rnn" in static_rnn): the GRU's variables are
// "<Scope>/gru_cell/gates/kernel", ..., and "gru_cell/gates/kernel" for Scope "".
//
// This header defines the cells whose state is one tensor (basic RNN, GRU) and includes the
// others: rnn/lstm_cell.hpp, rnn/multi_rnn_cell.hpp, the wrappers of rnn/wrappers.hpp
// (EmbeddingWrapper, OutputProjectionWrapper); the state's two forms are in
// rnn/state.hpp, what the cells share in rnn/detail/cell_base.hpp.
#pragma once

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/activation.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/broadcast_gradient.hpp"
#include "typeflow/ops/concat.hpp"
#include "typeflow/ops/dense.hpp"
#include "typeflow/ops/init.hpp"
#include "typeflow/ops/matmul.hpp"
#include "typeflow/ops/split.hpp"
#include "typeflow/ops/variable.hpp"
#include "typeflow/rnn/detail/cell_base.hpp"
#include "typeflow/rnn/lstm_cell.hpp"
#include "typeflow/rnn/multi_rnn_cell.hpp"
#include "typeflow/rnn/state.hpp"
#include "typeflow/rnn/wrappers.hpp"

namespace typeflow::rnn {

/// tf.nn.rnn_cell.BasicRNNCell(num_units, activation): output = new state =
/// activation(concat([x, h], 1) @ kernel + bias), variables "<scope>/basic_rnn_cell/kernel"
/// [D + H, H] (glorot_uniform) and ".../bias" [H] (zeros).
template <std::size_t NumUnits, class Activation = activation::tanh_t>
struct basic_rnn_cell : detail::single_state_cell<basic_rnn_cell<NumUnits, Activation>, NumUnits> {
  static constexpr fixed_string name = "basic_rnn_cell";

  template <fixed_string Scope, node X, class... S>
  auto step(const X& x, const std::tuple<S...>& state) const {
    constexpr auto scope = join_names<Scope, name>();
    if constexpr (!detail::check_step<name, Scope, basic_rnn_cell::state_sizes, X, S...>()) {
      return detail::inert_step(x, state);
    } else {
      using T = value_type_of<X>;
      constexpr std::ptrdiff_t d = shape_of<X>::dims[1], h = std::ptrdiff_t(NumUnits);
      auto kernel = variable<join_names<scope, "kernel">(), T, detail::kernel_shape<d, h, h>, init::glorot_uniform()>();
      auto bias = variable<join_names<scope, "bias">(), T, shape<h>, init::zeros()>();
      auto xh = ops::detail::in_layer_scope<scope>(concat<1>(x, std::get<0>(state)));
      auto out = ops::detail::dense_layer<scope>(xh, kernel, bias, Activation{});
      return detail::pair_of(out, detail::tuple_of(out));
    }
  }
};

/// tf.nn.rnn_cell.GRUCell(num_units, activation): with xh = concat([x, h], 1),
///   r, u = split(sigmoid(xh @ gates/kernel + gates/bias), 2, axis=1)
///   c = activation(concat([x, r * h], 1) @ candidate/kernel + candidate/bias)
///   new_h = u * h + (1 - u) * c
/// output = new state = new_h. Variables "<scope>/gru_cell/gates/kernel" [D + H, 2H]
/// (glorot_uniform), "gates/bias" [2H] (constant 1.0), "candidate/kernel" [D + H, H]
/// (glorot_uniform), "candidate/bias" [H] (zeros).
template <std::size_t NumUnits, class Activation = activation::tanh_t>
struct gru_cell : detail::single_state_cell<gru_cell<NumUnits, Activation>, NumUnits> {
  static constexpr fixed_string name = "gru_cell";

  template <fixed_string Scope, node X, class... S>
  auto step(const X& x, const std::tuple<S...>& state) const {
    constexpr auto scope = join_names<Scope, name>();
    if constexpr (!detail::check_step<name, Scope, gru_cell::state_sizes, X, S...>()) {
      return detail::inert_step(x, state);
    } else {
      using T = value_type_of<X>;
      constexpr std::ptrdiff_t d = shape_of<X>::dims[1], h = std::ptrdiff_t(NumUnits);
      constexpr auto gates = join_names<scope, "gates">();
      constexpr auto candidate = join_names<scope, "candidate">();
      const auto& h_prev = std::get<0>(state);
      auto gate_kernel = variable<join_names<gates, "kernel">(), T, detail::kernel_shape<d, h, 2 * h>, init::glorot_uniform()>();
      auto gate_bias = variable<join_names<gates, "bias">(), T, shape<2 * h>, init::constant(1.0)>();
      auto cand_kernel = variable<join_names<candidate, "kernel">(), T, detail::kernel_shape<d, h, h>, init::glorot_uniform()>();
      auto cand_bias = variable<join_names<candidate, "bias">(), T, shape<h>, init::zeros()>();
      auto xh = ops::detail::in_layer_scope<gates>(concat<1>(x, h_prev));
      auto value = ops::detail::dense_layer<gates>(xh, gate_kernel, gate_bias, activation::sigmoid);
      auto r = detail::column_block<0, h>(value);
      auto u = detail::column_block<1, h>(value);
      auto r_state = ops::detail::in_layer_scope<scope>(r * h_prev);
      auto xrh = ops::detail::in_layer_scope<candidate>(concat<1>(x, r_state));
      auto c = ops::detail::dense_layer<candidate>(xrh, cand_kernel, cand_bias, Activation{});
      auto new_h = u * h_prev + (constant<1, T>() - u) * c;
      return detail::pair_of(new_h, detail::tuple_of(new_h));
    }
  }
};

}  // namespace typeflow::rnn
