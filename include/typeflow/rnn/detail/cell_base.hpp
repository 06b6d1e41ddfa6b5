// typeflow/rnn/detail/cell_base.hpp — what every cell shares: the checks of a step's input and state, with
// their diagnostics, the zero state, the variables' naming, and the base of the cells whose
// state is one tensor (basic RNN, GRU). The protocol the cells follow is in rnn/cell.hpp.
#pragma once

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/core/shape.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/expand.hpp"
#include "typeflow/ops/slice.hpp"
#include "typeflow/rnn/state.hpp"

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

namespace detail {

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

}  // namespace detail

}  // namespace typeflow::rnn
