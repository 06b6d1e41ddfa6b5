// typeflow/rnn/lstm_cell.hpp — tf.nn.rnn_cell.BasicLSTMCell and LSTMCell (no peepholes, no projection):
// one kernel in TensorFlow's i, j, f, o gate order, forget_bias, state (c, h). The cell
// protocol is in rnn/cell.hpp.
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
#include "typeflow/ops/concat.hpp"
#include "typeflow/ops/dense.hpp"
#include "typeflow/ops/init.hpp"
#include "typeflow/ops/matmul.hpp"
#include "typeflow/ops/variable.hpp"
#include "typeflow/rnn/detail/cell_base.hpp"

namespace typeflow::rnn {

namespace detail {

/// BasicLSTMCell and LSTMCell without peepholes and projection: one math, two names.
template <fixed_string Name, std::size_t H, double ForgetBias, class Activation>
struct lstm_base {
  static constexpr std::size_t output_size = H;
  static constexpr std::array<std::size_t, 2> state_sizes{H, H};
  static constexpr double forget_bias = ForgetBias;

  /// The step on the flat state (c, h).
  template <fixed_string Scope, node X, class... S>
  auto step(const X& x, const std::tuple<S...>& state) const {
    constexpr auto scope = join_names<Scope, Name>();
    if constexpr (!check_step<Name, Scope, state_sizes, X, S...>()) {
      return inert_step(x, state);
    } else {
      using T = value_type_of<X>;
      constexpr std::ptrdiff_t d = shape_of<X>::dims[1], h = std::ptrdiff_t(H);
      const auto& c_prev = std::get<0>(state);
      const auto& h_prev = std::get<1>(state);
      auto kernel = variable<join_names<scope, "kernel">(), T, kernel_shape<d, h, 4 * h>, init::glorot_uniform()>();
      auto bias = variable<join_names<scope, "bias">(), T, shape<4 * h>, init::zeros()>();
      auto xh = ops::detail::in_layer_scope<scope>(concat<1>(x, h_prev));
      auto lstm_matrix = ops::detail::dense_layer<scope>(xh, kernel, bias, activation::linear);
      auto i = column_block<0, h>(lstm_matrix);
      auto j = column_block<1, h>(lstm_matrix);
      auto f = column_block<2, h>(lstm_matrix);
      auto o = column_block<3, h>(lstm_matrix);
      Activation act{};
      auto new_c = c_prev * sigmoid(f + constant<ForgetBias, T>()) + sigmoid(i) * act(j);
      auto new_h = act(new_c) * sigmoid(o);
      return pair_of(new_h, tuple_of(new_c, new_h));
    }
  }

  template <class C, class Hs>
  static constexpr auto unflatten(const std::tuple<C, Hs>& flat) {
    return lstm_state_tuple<C, Hs>{std::get<0>(flat), std::get<1>(flat)};
  }
  template <node X>
  static constexpr auto zero_flat_state(const X& x) {
    return detail::zero_flat_state<lstm_base>(x, std::make_index_sequence<2>{});
  }
  /// `cell.call<"scope">(x, lstm_state_tuple{c, h})`: (output h, new lstm_state_tuple).
  template <fixed_string Scope = "rnn", node X, class C, class Hs>
  auto call(const X& x, const lstm_state_tuple<C, Hs>& state) const {
    auto [out, flat] = step<Scope>(x, tuple_of(state.c, state.h));
    return pair_of(out, unflatten(flat));
  }
  template <node X, class C, class Hs>
  auto operator()(const X& x, const lstm_state_tuple<C, Hs>& state) const {
    return call<"rnn">(x, state);
  }
};

}  // namespace detail

/// tf.nn.rnn_cell.BasicLSTMCell(num_units, forget_bias, state_is_tuple=True, activation):
/// with i, j, f, o = split(concat([x, h], 1) @ kernel + bias, 4, axis=1),
///   new_c = c * sigmoid(f + forget_bias) + sigmoid(i) * activation(j)
///   new_h = activation(new_c) * sigmoid(o)
/// state (c, h) as rnn::lstm_state_tuple, output new_h. Variables
/// "<scope>/basic_lstm_cell/kernel" [D + H, 4H] (glorot_uniform), ".../bias" [4H] (zeros).
template <std::size_t NumUnits, double ForgetBias = 1.0, class Activation = activation::tanh_t>
struct basic_lstm_cell : detail::lstm_base<"basic_lstm_cell", NumUnits, ForgetBias, Activation> {
  static constexpr fixed_string name = "basic_lstm_cell";
};

/// tf.nn.rnn_cell.LSTMCell(num_units, forget_bias, state_is_tuple=True, activation) without
/// use_peepholes, cell_clip, num_proj and proj_clip (not offered): BasicLSTMCell's math and
/// variables under the name "lstm_cell" ("<scope>/lstm_cell/kernel", ".../bias").
template <std::size_t NumUnits, double ForgetBias = 1.0, class Activation = activation::tanh_t>
struct lstm_cell : detail::lstm_base<"lstm_cell", NumUnits, ForgetBias, Activation> {
  static constexpr fixed_string name = "lstm_cell";
};

}  // namespace typeflow::rnn
