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
#pragma once

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/core/shape.hpp"
#include "typeflow/ops/activation.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/broadcast_gradient.hpp"
#include "typeflow/ops/concat.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/dense.hpp"
#include "typeflow/ops/expand.hpp"
#include "typeflow/ops/init.hpp"
#include "typeflow/ops/matmul.hpp"
#include "typeflow/ops/slice.hpp"
#include "typeflow/ops/split.hpp"
#include "typeflow/ops/variable.hpp"

namespace typeflow::rnn {

/// In a diagnostic: the cell's step input must be [batch, depth], depth static; the cell's
/// name, its variable scope and the input's shape.
template <fixed_string Cell, fixed_string Scope, class InputShape>
struct rnn_cell_input_must_be_batch_by_static_depth {
  static constexpr bool value = false;
};
/// In a diagnostic: the cell takes Expected state tensors, it was given Got.
template <fixed_string Cell, fixed_string Scope, std::size_t Expected, std::size_t Got>
struct rnn_cell_state_count_mismatch {
  static constexpr bool value = false;
};
/// In a diagnostic: state tensor Index must be [batch, Expected]; its shape.
template <fixed_string Cell, fixed_string Scope, std::size_t Index, std::size_t Expected, class StateShape>
struct rnn_cell_state_width_mismatch {
  static constexpr bool value = false;
};
/// In a diagnostic: the input's element type and that of state tensor Index, which differ.
template <fixed_string Cell, fixed_string Scope, std::size_t Index, class InputType, class StateType>
struct rnn_cell_element_types_must_agree {
  static constexpr bool value = false;
};

/// The state of an LSTM (state_is_tuple=True): c then h, as tf.nn.rnn_cell.LSTMStateTuple.
template <class C, class H>
struct lstm_state_tuple {
  C c;
  H h;
};
template <class C, class H>
lstm_state_tuple(C, H) -> lstm_state_tuple<C, H>;

namespace detail {

template <class T>
struct is_lstm_state : std::false_type {};
template <class C, class H>
struct is_lstm_state<lstm_state_tuple<C, H>> : std::true_type {};
template <class T>
struct is_std_tuple : std::false_type {};
template <class... T>
struct is_std_tuple<std::tuple<T...>> : std::true_type {};

// Tuples and pairs of nodes are built empty, then assigned: g++ 12 resolving std::tuple's
// and std::pair's constructor templates (and tuple_cat's) with node arguments takes time
// exponential in the depth of a graph whose nodes share inputs (docs/ARCHITECTURE.md,
// "Compile time in large graphs"), which a recurrent cell's steps are: static_rnn of 8 GRU
// steps did not compile in 10 minutes before.

/// std::tuple<T...>{v...}, built empty and assigned.
template <class... T>
constexpr std::tuple<T...> tuple_of(const T&... v) {
  std::tuple<T...> t;
  [&]<std::size_t... I>(std::index_sequence<I...>) { ((std::get<I>(t) = v), ...); }(std::index_sequence_for<T...>{});
  return t;
}
/// std::tuple_cat(a, b), built empty and assigned.
template <class... A, class... B>
constexpr std::tuple<A..., B...> concat_tuples(const std::tuple<A...>& a, const std::tuple<B...>& b) {
  std::tuple<A..., B...> t;
  [&]<std::size_t... I>(std::index_sequence<I...>) { ((std::get<I>(t) = std::get<I>(a)), ...); }(std::index_sequence_for<A...>{});
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((std::get<sizeof...(A) + I>(t) = std::get<I>(b)), ...);
  }(std::index_sequence_for<B...>{});
  return t;
}
/// std::tuple_cat(t...), built empty and assigned.
inline constexpr std::tuple<> concat_all() { return {}; }
template <class T0, class... T>
constexpr auto concat_all(const T0& t0, const T&... t) {
  return concat_tuples(t0, concat_all(t...));
}
/// std::pair{first, second}, built empty and assigned (second a tuple: element by element).
template <class F, class... S>
constexpr std::pair<F, std::tuple<S...>> pair_of(const F& first, const std::tuple<S...>& second) {
  std::pair<F, std::tuple<S...>> p;
  p.first = first;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((std::get<I>(p.second) = std::get<I>(second)), ...);
  }(std::index_sequence_for<S...>{});
  return p;
}
template <class F, class S>
constexpr std::pair<F, S> pair_of(const F& first, const S& second) {
  std::pair<F, S> p;
  p.first = first;
  p.second = second;
  return p;
}

/// Elements [Begin, Begin + N) of a tuple.
template <std::size_t Begin, std::size_t N, class Tuple>
constexpr auto tuple_slice(const Tuple& t) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return tuple_of(std::get<Begin + I>(t)...);
  }(std::make_index_sequence<N>{});
}

/// Piece K of N equal pieces of x along axis 1 (tf.split(x, N, 1)[K]), a slice of its own:
/// typeflow::split builds its std::tuple with the constructor (see above).
template <std::size_t K, std::ptrdiff_t Width, node X>
constexpr auto column_block(const X& x) {
  return slice<ints<0, std::ptrdiff_t(K) * Width>, ints<-1, Width>>(x);
}

/// Where a check of a step fails: 0 none, 1 the input, 2 the state count, 3 a state's
/// width (or rank), 4 a state's element type; and the state's index.
struct step_problem {
  int what = 0;
  std::size_t index = 0;
};
template <std::size_t K, class X, class... S>
constexpr step_problem find_step_problem(const std::array<std::size_t, K>& sizes) {
  using SX = shape_of<X>;
  if (SX::rank != 2 || SX::dims[1] == dyn) return {1, 0};
  if (sizeof...(S) != K) return {2, 0};
  constexpr std::size_t n = sizeof...(S);
  const std::array<std::size_t, n + 1> ranks{shape_of<S>::rank..., 0};
  const std::array<std::ptrdiff_t, n + 1> widths{(shape_of<S>::rank == 2 ? shape_of<S>::dims[1] : -2)..., 0};
  const std::array<bool, n + 1> same{std::is_same_v<value_type_of<S>, value_type_of<X>>..., true};
  for (std::size_t i = 0; i < n; ++i)
    if (ranks[i] != 2 || widths[i] != std::ptrdiff_t(sizes[i])) return {3, i};
  for (std::size_t i = 0; i < n; ++i)
    if (!same[i]) return {4, i};
  return {};
}

/// The checks of cell.step<Scope>(x, state), each failing with one static_assert that names
/// the cell and the scope. True when the step can be built.
template <fixed_string Cell, fixed_string Scope, auto Sizes, class X, class... S>
constexpr bool check_step() {
  constexpr step_problem p = find_step_problem<Sizes.size(), X, S...>(Sizes);
  if constexpr (p.what == 1) {
    static_assert(rnn_cell_input_must_be_batch_by_static_depth<Cell, Scope, shape_of<X>>::value,
                  "typeflow::rnn cell step(x, state): x must be [batch, depth] (rank 2) with a static depth");
  } else if constexpr (p.what == 2) {
    static_assert(rnn_cell_state_count_mismatch<Cell, Scope, Sizes.size(), sizeof...(S)>::value,
                  "typeflow::rnn cell step(x, state): the flat state must have one tensor per entry of the "
                  "cell's state_sizes");
  } else if constexpr (p.what == 3) {
    using SS = shape_of<std::tuple_element_t<p.index, std::tuple<S...>>>;
    static_assert(rnn_cell_state_width_mismatch<Cell, Scope, p.index, Sizes[p.index], SS>::value,
                  "typeflow::rnn cell step(x, state): each state tensor must be [batch, width] with the width "
                  "of the cell's state_sizes (an LSTM's state is (c, h), each [batch, num_units])");
  } else if constexpr (p.what == 4) {
    using ST = value_type_of<std::tuple_element_t<p.index, std::tuple<S...>>>;
    static_assert(rnn_cell_element_types_must_agree<Cell, Scope, p.index, value_type_of<X>, ST>::value,
                  "typeflow::rnn cell step(x, state): the input and the state must have one element type");
  }
  return p.what == 0;
}

/// What a step returns after a failed check, so that only the check's error shows.
template <class X, class... S>
auto inert_step(const X& x, const std::tuple<S...>& state) {
  return pair_of(x, state);
}

/// Zeros of shape [batch of x, W] and x's element type: ZerosLike of x's first column
/// tiled W times (the gradient stops at ZerosLike). x is [batch, D], D >= 1.
template <std::size_t W, node X>
constexpr auto zeros_for_batch(const X& x) {
  return zeros_like(tile<1, std::ptrdiff_t(W)>(slice<ints<0, 0>, ints<-1, 1>>(x)));
}

template <class Cell, class X, std::size_t... I>
constexpr auto zero_flat_state(const X& x, std::index_sequence<I...>) {
  return tuple_of(zeros_for_batch<Cell::state_sizes[I]>(x)...);
}

template <std::ptrdiff_t D, std::ptrdiff_t Rows, std::ptrdiff_t Cols>
using kernel_shape = shape<D + Rows, Cols>;

/// "cell_<I>", MultiRNNCell's scope of its cell I.
template <std::size_t I>
constexpr auto cell_index_name() {
  constexpr std::size_t digits = [] {
    std::size_t d = 1;
    for (std::size_t v = I; v >= 10; v /= 10) ++d;
    return d;
  }();
  fixed_string<5 + digits + 1> out{};
  const char prefix[] = "cell_";
  for (std::size_t i = 0; i < 5; ++i) out.data[i] = prefix[i];
  std::size_t v = I;
  for (std::size_t i = 0; i < digits; ++i) {
    out.data[5 + digits - 1 - i] = char('0' + v % 10);
    v /= 10;
  }
  return out;
}

/// The base of the cells whose state is one tensor (basic RNN, GRU).
template <class Cell, std::size_t H>
struct single_state_cell {
  static constexpr std::size_t output_size = H;
  static constexpr std::array<std::size_t, 1> state_sizes{H};

  template <class S>
  static constexpr auto unflatten(const std::tuple<S>& flat) {
    return std::get<0>(flat);
  }
  template <node X>
  static constexpr auto zero_flat_state(const X& x) {
    return detail::zero_flat_state<Cell>(x, std::make_index_sequence<1>{});
  }
  /// `cell.call<"scope">(x, h)`: (output, new h).
  template <fixed_string Scope = "rnn", node X, node S>
  auto call(const X& x, const S& state) const {
    auto [out, flat] = static_cast<const Cell&>(*this).template step<Scope>(x, tuple_of(state));
    return pair_of(out, std::get<0>(flat));
  }
  template <node X, node S>
  auto operator()(const X& x, const S& state) const {
    return call<"rnn">(x, state);
  }
};

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

template <class... Cells>
constexpr auto concat_state_sizes() {
  std::array<std::size_t, (Cells::state_sizes.size() + ... + 0)> out{};
  std::size_t k = 0;
  auto put = [&](const auto& sizes) {
    for (auto s : sizes) out[k++] = s;
  };
  (put(Cells::state_sizes), ...);
  return out;
}
template <class... Cells>
constexpr auto state_offsets() {
  std::array<std::size_t, sizeof...(Cells) + 1> out{};
  const std::array<std::size_t, sizeof...(Cells) + 1> counts{Cells::state_sizes.size()..., 0};
  for (std::size_t i = 0; i < sizeof...(Cells); ++i) out[i + 1] = out[i] + counts[i];
  return out;
}

}  // namespace detail

/// The flat state (a std::tuple of [batch, width] tensors) of a structured one: a node is
/// itself, an lstm_state_tuple (c, h), a std::tuple its elements' flat states in order.
template <class State>
constexpr auto flatten_state(const State& s) {
  if constexpr (detail::is_lstm_state<State>::value) {
    return detail::tuple_of(s.c, s.h);
  } else if constexpr (detail::is_std_tuple<State>::value) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return detail::concat_all(flatten_state(std::get<I>(s))...);
    }(std::make_index_sequence<std::tuple_size_v<State>>{});
  } else {
    static_assert(node<State>, "typeflow::rnn::flatten_state(state): a node, an lstm_state_tuple, or a std::tuple of them");
    return detail::tuple_of(s);
  }
}

/// The structured state of Cell from its flat state: `unflatten_state<Cell>(flat)`.
template <class Cell, class... S>
constexpr auto unflatten_state(const std::tuple<S...>& flat) {
  return Cell::unflatten(flat);
}

/// The cell's zero state for a batch like x's ([batch, D]), structured: cell.zero_state(batch,
/// dtype) of TensorFlow, the batch taken from x (static or dyn).
template <class Cell, node X>
constexpr auto zero_state(const Cell&, const X& x) {
  return Cell::unflatten(Cell::zero_flat_state(x));
}

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

/// tf.nn.rnn_cell.MultiRNNCell([cells...], state_is_tuple=True): cell i's input is cell
/// i - 1's output, its variables are under "<scope>/multi_rnn_cell/cell_<i>/<cell name>/";
/// the output is the last cell's; the state is the std::tuple of the cells' states, flat the
/// concatenation of their flat states.
template <class... Cells>
struct multi_rnn_cell {
  static_assert(sizeof...(Cells) > 0, "typeflow::rnn::multi_rnn_cell needs at least one cell");
  static constexpr fixed_string name = "multi_rnn_cell";
  static constexpr std::size_t output_size = std::tuple_element_t<sizeof...(Cells) - 1, std::tuple<Cells...>>::output_size;
  static constexpr auto state_sizes = detail::concat_state_sizes<Cells...>();
  static constexpr auto offsets = detail::state_offsets<Cells...>();

  constexpr multi_rnn_cell() = default;
  constexpr explicit multi_rnn_cell(const Cells&...) {}

  template <fixed_string Scope, node X, class... S>
  auto step(const X& x, const std::tuple<S...>& state) const {
    constexpr auto scope = join_names<Scope, name>();
    if constexpr (!detail::check_step<name, Scope, state_sizes, X, S...>()) {
      return detail::inert_step(x, state);
    } else {
      return step_from<0, scope>(x, state);
    }
  }

  template <class... S>
  static constexpr auto unflatten(const std::tuple<S...>& flat) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return detail::tuple_of(Cells::unflatten(detail::tuple_slice<offsets[I], Cells::state_sizes.size()>(flat))...);
    }(std::index_sequence_for<Cells...>{});
  }
  template <node X>
  static constexpr auto zero_flat_state(const X& x) {
    return detail::zero_flat_state<multi_rnn_cell>(x, std::make_index_sequence<state_sizes.size()>{});
  }
  /// `cell.call<"scope">(x, std::tuple{state_0, state_1, ...})`: (output, new tuple of states).
  template <fixed_string Scope = "rnn", node X, class... S>
  auto call(const X& x, const std::tuple<S...>& state) const {
    auto [out, flat] = step<Scope>(x, flatten_state(state));
    return detail::pair_of(out, unflatten(flat));
  }
  template <node X, class... S>
  auto operator()(const X& x, const std::tuple<S...>& state) const {
    return call<"rnn">(x, state);
  }

 private:
  template <std::size_t I, fixed_string Scope, class X, class State>
  auto step_from(const X& x, const State& state) const {
    if constexpr (I == sizeof...(Cells)) {
      return detail::pair_of(x, std::tuple<>{});
    } else {
      using C = std::tuple_element_t<I, std::tuple<Cells...>>;
      constexpr auto cell_scope = join_names<Scope, detail::cell_index_name<I>()>();
      auto [out, flat] = C{}.template step<cell_scope>(x, detail::tuple_slice<offsets[I], C::state_sizes.size()>(state));
      auto [last, rest] = step_from<I + 1, Scope>(out, state);
      return detail::pair_of(last, detail::concat_tuples(flat, rest));
    }
  }
};

}  // namespace typeflow::rnn
