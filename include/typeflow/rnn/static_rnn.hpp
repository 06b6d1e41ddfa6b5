// typeflow/rnn/static_rnn.hpp — tf.nn.static_rnn (tf.contrib.rnn.static_rnn): a cell
// unrolled over a std::tuple of step inputs at compile time.
//
// Every step calls cell.step<Scope> on the same scope, so every step's variables are the same
// types: the variables are shared across the steps, as TensorFlow's reuse does. The graph
// grows with the number of steps (each step's nodes are types); for long or run-time
// lengths use a loop driver.
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "typeflow/core/dtype.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/compare.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/select.hpp"
#include "typeflow/rnn/cell.hpp"

namespace typeflow::rnn {

/// In a diagnostic: static_rnn's inputs must be a non-empty std::tuple of nodes.
template <std::size_t Steps>
struct static_rnn_needs_a_nonempty_tuple_of_step_inputs {
  static constexpr bool value = false;
};
/// In a diagnostic: sequence_length must be an int32 or int64 vector [batch]; its type and shape.
template <class Type, class Shape>
struct static_rnn_sequence_length_must_be_an_int32_or_int64_vector {
  static constexpr bool value = false;
};

/// Stands for the cell's zero state where static_rnn takes an initial state.
struct zero_initial_state_t {};
inline constexpr zero_initial_state_t zero_initial_state{};

namespace detail {

/// No sequence_length.
struct no_lengths {};

/// Step T's output and state, masked by sequence_length as TensorFlow's _rnn_step does: past
/// an example's length, the output is zero and the state the previous one.
template <std::size_t T, class L, class O, class Z, class... S, class... N>
auto mask_step(const L& lengths, const O& out, const Z& zero_out, const std::tuple<S...>& old_state,
               const std::tuple<N...>& new_state) {
  if constexpr (std::is_same_v<L, no_lengths>) {
    return pair_of(out, new_state);
  } else {
    auto copy_cond = greater_equal(constant<static_cast<int>(T)>(), lengths);
    auto masked_out = where(copy_cond, zero_out, out);
    auto masked_state = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return tuple_of(where(copy_cond, std::get<I>(old_state), std::get<I>(new_state))...);
    }(std::index_sequence_for<S...>{});
    return pair_of(masked_out, masked_state);
  }
}

template <fixed_string Scope, std::size_t T, class Cell, class Inputs, class L, class Z, class State, class... O>
auto unroll(const Cell& cell, const Inputs& inputs, const L& lengths, const Z& zero_out, const State& state,
            const std::tuple<O...>& outputs) {
  if constexpr (T == std::tuple_size_v<Inputs>) {
    return pair_of(outputs, state);
  } else {
    auto [out, new_state] = cell.template step<Scope>(std::get<T>(inputs), state);
    auto [o, s] = mask_step<T>(lengths, out, zero_out, state, new_state);
    return unroll<Scope, T + 1>(cell, inputs, lengths, zero_out, s, concat_tuples(outputs, tuple_of(o)));
  }
}

template <fixed_string Scope, class Cell, class... X, class State, class L>
auto static_rnn(const Cell& cell, const std::tuple<X...>& inputs, const State& initial_state, const L& lengths) {
  if constexpr (sizeof...(X) == 0) {
    static_assert(static_rnn_needs_a_nonempty_tuple_of_step_inputs<sizeof...(X)>::value,
                  "typeflow::rnn::static_rnn(cell, inputs): inputs must be a std::tuple of at least one [batch, depth] "
                  "node (typeflow::unstack<1>(x) of a [batch, time, depth] x)");
    return pair_of(inputs, initial_state);
  } else {
    const auto& x0 = std::get<0>(inputs);
    auto flat = [&] {
      if constexpr (std::is_same_v<State, zero_initial_state_t>) {
        return Cell::zero_flat_state(x0);
      } else {
        return flatten_state(initial_state);
      }
    }();
    auto zero_out = [&] {
      if constexpr (std::is_same_v<L, no_lengths>) {
        return lengths;
      } else {
        return zeros_for_batch<Cell::output_size>(x0);
      }
    }();
    auto [outputs, final_flat] = unroll<Scope, 0>(cell, inputs, lengths, zero_out, flat, std::tuple<>{});
    return pair_of(outputs, Cell::unflatten(final_flat));
  }
}

template <class L>
constexpr bool check_lengths() {
  using T = value_type_of<L>;
  constexpr bool ok = (std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t>) && shape_of<L>::rank == 1;
  static_assert(ok || static_rnn_sequence_length_must_be_an_int32_or_int64_vector<T, shape_of<L>>::value,
                "typeflow::rnn::static_rnn(cell, inputs, initial_state, sequence_length): sequence_length must be an "
                "int32 or int64 vector [batch]");
  return ok;
}

}  // namespace detail

/// `rnn::static_rnn(cell, inputs)` is tf.nn.static_rnn(cell, inputs, dtype=...): inputs a
/// std::tuple of [batch, depth] nodes, one per step (tf::unstack<1>(x) of [batch, time,
/// depth]); the state starts at zeros. Returns std::pair{std::tuple of the outputs, the
/// final state (structured as the cell's state)}. Variables under Scope ("rnn/...").
template <fixed_string Scope = "rnn", class Cell, class... X>
auto static_rnn(const Cell& cell, const std::tuple<X...>& inputs) {
  return detail::static_rnn<Scope>(cell, inputs, zero_initial_state, detail::no_lengths{});
}

/// `rnn::static_rnn(cell, inputs, initial_state)`: the state starts at initial_state,
/// structured as the cell's (rnn::zero_initial_state for zeros).
template <fixed_string Scope = "rnn", class Cell, class... X, class State>
auto static_rnn(const Cell& cell, const std::tuple<X...>& inputs, const State& initial_state) {
  return detail::static_rnn<Scope>(cell, inputs, initial_state, detail::no_lengths{});
}

/// `rnn::static_rnn(cell, inputs, initial_state, sequence_length)`: sequence_length an int32
/// or int64 vector [batch]; at step t >= sequence_length[b], example b's output is zero and
/// its state is carried through unchanged, so the final state is the state at its length.
template <fixed_string Scope = "rnn", class Cell, class... X, class State, node L>
auto static_rnn(const Cell& cell, const std::tuple<X...>& inputs, const State& initial_state, const L& sequence_length) {
  if constexpr (!detail::check_lengths<L>()) {
    return detail::static_rnn<Scope>(cell, inputs, initial_state, detail::no_lengths{});
  } else {
    return detail::static_rnn<Scope>(cell, inputs, initial_state, sequence_length);
  }
}

}  // namespace typeflow::rnn
