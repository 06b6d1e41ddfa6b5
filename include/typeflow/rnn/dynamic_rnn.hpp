// typeflow/rnn/dynamic_rnn.hpp — tf.nn.dynamic_rnn and tf.nn.bidirectional_dynamic_rnn: a
// cell run over a sequence whose length is known only at run time, as a loop in the graph
// (control/scan.hpp): the cell's step is built once, its gradient derived once, whatever
// the number of steps.
//
// A cell is any type with the protocol of rnn/cell.hpp: `Cell::state_sizes` (the widths of
// its flat state tensors, each [batch, width]), `Cell::output_size`,
// `cell.template step<Scope>(x, std::tuple{states...})` returning
// `std::pair{output, std::tuple{new_states...}}`, and `Cell::unflatten(flat_state)`.
#pragma once

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "typeflow/control/scan.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/expand.hpp"
#include "typeflow/ops/sequence.hpp"
#include "typeflow/ops/transpose.hpp"
#include "typeflow/rnn/cell.hpp"

namespace typeflow {

/// In a diagnostic: dynamic_rnn's inputs must be [batch, time, depth] (or [time, batch,
/// depth] with time_major) with a static depth.
template <fixed_string Scope, class Shape>
struct dynamic_rnn_inputs_must_be_batch_time_depth_with_a_static_depth {
  static constexpr bool value = false;
};
/// In a diagnostic: an initial state tensor of dynamic_rnn has the wrong shape.
template <fixed_string Scope, std::size_t K, class Expected, class Got>
struct dynamic_rnn_initial_state_has_the_wrong_shape {
  static constexpr bool value = false;
};
/// In a diagnostic: sequence_length must be an integer vector.
template <fixed_string Scope, class Shape>
struct dynamic_rnn_sequence_length_must_be_an_integer_vector {
  static constexpr bool value = false;
};

namespace rnn {

namespace detail {

/// Zeros of shape [batch, Width] with the batch of a time-major sequence X ([time, batch,
/// ...]): the cell's zero state (TensorFlow's cell.zero_state(batch_size)).
template <class X, std::ptrdiff_t Width>
struct zero_state_node
    : node_facade<value_type_of<X>, shape<shape_of<X>::dims[1], Width>, node_kind::compute, X>, op_info<"zeros"> {
  template <class... N>
  using rebind = zero_state_node<N..., Width>;
  template <std::size_t K, class G>
  using gradient = no_gradient;  // constant in X's values
  template <class Out, class V>
  static void compute(Out& out, const V& x) {
    control::detail::resize_to(out, std::array<std::size_t, 2>{std::size_t(x.shape()[1]), std::size_t(Width)});
    std::fill(out.begin(), out.end(), value_type_of<X>(0));
  }
};

template <class Cell, class X, std::size_t... K>
auto zero_state(const X& x, std::index_sequence<K...>) {
  return std::tuple{make_node<zero_state_node<X, std::ptrdiff_t(Cell::state_sizes[K])>>(x)...};
}

/// The options of dynamic_rnn, given in any order.
template <class L>
struct sequence_length_t {
  L lengths;
};
template <class S>
struct initial_state_t {
  S state;  // a std::tuple of the cell's flat state tensors (rnn::flatten_state)
};
struct time_major_t {};

template <class T>
struct is_lengths : std::false_type {};
template <class L>
struct is_lengths<sequence_length_t<L>> : std::true_type {};
template <class T>
struct is_initial : std::false_type {};
template <class S>
struct is_initial<initial_state_t<S>> : std::true_type {};

template <template <class> class P, class... O>
constexpr std::size_t count_options() {
  return (std::size_t(P<O>::value) + ... + 0);
}
template <template <class> class P, class First, class... Rest>
const auto& find_option(const First& first, const Rest&... rest) {
  if constexpr (P<First>::value) {
    return first;
  } else {
    return find_option<P>(rest...);
  }
}

template <fixed_string Scope, class X>
constexpr bool check_inputs() {
  using S = shape_of<X>;
  if constexpr (S::rank != 3 || S::dims[2] == dyn) {
    static_assert(dynamic_rnn_inputs_must_be_batch_time_depth_with_a_static_depth<Scope, S>::value,
                  "rnn::dynamic_rnn(cell, inputs): inputs must be [batch, time, depth] ([time, batch, depth] "
                  "with rnn::time_major) with a static depth");
    return false;
  } else if constexpr (!floating_element<value_type_of<X>>) {
    static_assert(dynamic_rnn_inputs_must_be_batch_time_depth_with_a_static_depth<Scope, S>::value,
                  "rnn::dynamic_rnn(cell, inputs): inputs must be float or double");
    return false;
  } else {
    return true;
  }
}

template <fixed_string Scope, class Cell, class X, class... S, std::size_t... K>
constexpr bool check_initial_state(mp::mp_list<S...>, std::index_sequence<K...>) {
  if constexpr (sizeof...(S) != sizeof...(K)) {
    static_assert(dynamic_rnn_initial_state_has_the_wrong_shape<Scope, sizeof...(S), shape<>, shape<>>::value,
                  "rnn::initial_state(...): one tensor per state tensor of the cell");
    return false;
  } else {
    return ([] {
      using Want = shape<shape_of<X>::dims[1], std::ptrdiff_t(Cell::state_sizes[K])>;
      using Got = shape_of<S>;
      constexpr bool ok = Got::rank == 2 && Got::dims[1] == Want::dims[1] &&
                          (Got::dims[0] == Want::dims[0] || Got::dims[0] == dyn || Want::dims[0] == dyn);
      if constexpr (!ok) {
        static_assert(dynamic_rnn_initial_state_has_the_wrong_shape<Scope, K, Want, Got>::value,
                      "rnn::initial_state(...): each tensor must be [batch, width] of the cell's state");
      }
      return ok;
    }() && ...);
  }
}

/// The state placeholders of the loop have the initial states' shapes; a state given with
/// a static batch where the inputs' batch is dynamic keeps its own.
template <fixed_string Scope, class Cell, class XT, class Init, class Len>
auto run_time_major(const Cell& cell, const XT& xt, const Init& init, const Len& len) {
  return control::dynamic_loop<Scope>(
      [&](const auto& states, const auto& x) { return cell.template step<Scope>(x, states); }, xt, init, len);
}

}  // namespace detail

/// `rnn::sequence_length(lengths)`: the per-example lengths (an int32 or int64 vector).
template <node L>
detail::sequence_length_t<L> sequence_length(const L& lengths) {
  return {lengths};
}
/// `rnn::initial_state(state)`: the initial state, structured as the cell's state (a node
/// for a GRU, an lstm_state_tuple for an LSTM, a std::tuple of those for a multi_rnn_cell),
/// each tensor [batch, width].
template <class State>
auto initial_state(const State& state) {
  using flat = decltype(flatten_state(state));
  return detail::initial_state_t<flat>{flatten_state(state)};
}
/// `rnn::time_major`: inputs and outputs are [time, batch, ...].
inline constexpr detail::time_major_t time_major{};

/// `rnn::dynamic_rnn<"rnn">(cell, inputs, options...)` is tf.nn.dynamic_rnn(cell, inputs,
/// ..., scope="rnn"): the cell run over the time dimension of inputs ([batch, time, depth],
/// or [time, batch, depth] with rnn::time_major), as many steps as the fed value has.
/// Returns `std::pair{outputs, final_state}`: outputs [batch, time, output_size] (time-major
/// with rnn::time_major), final_state structured as the cell's state (a node for a GRU, an
/// lstm_state_tuple for an LSTM, a std::tuple of the cells' for a multi_rnn_cell).
///
/// Options: `rnn::sequence_length(lengths)`: past each example's length its outputs are
/// zero and its state is carried through unchanged, so the final state is the state at its
/// length; `rnn::initial_state(...)`: the initial state (zeros otherwise); `rnn::time_major`.
/// The cell's variables are named under the scope ("rnn/gru_cell/gates/kernel").
template <fixed_string Scope = "rnn", class Cell, node X, class... Options>
auto dynamic_rnn(const Cell& cell, const X& inputs, const Options&... options) {
  constexpr bool tm = (std::is_same_v<Options, detail::time_major_t> || ...);
  static_assert(detail::count_options<detail::is_lengths, Options...>() <= 1 &&
                    detail::count_options<detail::is_initial, Options...>() <= 1,
                "rnn::dynamic_rnn: each option at most once");
  if constexpr (!detail::check_inputs<Scope, X>()) {
    return std::pair{inputs, std::tuple{inputs}};  // inert: the error above is the one to read
  } else {
    auto xt = [&] {
      if constexpr (tm) {
        return inputs;
      } else {
        return transpose<1, 0, 2>(inputs);
      }
    }();
    using XT = decltype(xt);
    constexpr std::size_t K = Cell::state_sizes.size();
    auto init = [&] {
      if constexpr (detail::count_options<detail::is_initial, Options...>() == 1) {
        return detail::find_option<detail::is_initial>(options...).state;
      } else {
        return detail::zero_state<Cell>(xt, std::make_index_sequence<K>{});
      }
    }();
    constexpr bool init_ok = detail::check_initial_state<Scope, Cell, XT>(
        mp::mp_rename<decltype(init), mp::mp_list>{}, std::make_index_sequence<K>{});
    if constexpr (!init_ok) {
      return std::pair{inputs, init};
    } else {
      auto result = [&] {
        if constexpr (detail::count_options<detail::is_lengths, Options...>() == 1) {
          const auto& len = detail::find_option<detail::is_lengths>(options...).lengths;
          using L = std::remove_cvref_t<decltype(len)>;
          if constexpr (shape_of<L>::rank != 1 || !std::is_integral_v<value_type_of<L>>) {
            static_assert(dynamic_rnn_sequence_length_must_be_an_integer_vector<Scope, shape_of<L>>::value,
                          "rnn::sequence_length(lengths): lengths must be an int32 or int64 vector [batch]");
            return detail::run_time_major<Scope>(cell, xt, init, control::detail::no_lengths{});  // inert
          } else {
            return detail::run_time_major<Scope>(cell, xt, init, len);
          }
        } else {
          return detail::run_time_major<Scope>(cell, xt, init, control::detail::no_lengths{});
        }
      }();
      if constexpr (tm) {
        return std::pair{result.outputs, Cell::unflatten(result.final_state)};
      } else {
        return std::pair{transpose<1, 0, 2>(result.outputs), Cell::unflatten(result.final_state)};
      }
    }
  }
}

/// `rnn::bidirectional_dynamic_rnn<"bidirectional_rnn">(cell_fw, cell_bw, inputs,
/// options...)` is tf.nn.bidirectional_dynamic_rnn: the forward cell over inputs under
/// "<scope>/fw", the backward cell over inputs reversed in time under "<scope>/bw" (within
/// each example's length when rnn::sequence_length is given, as tf.reverse_sequence), its
/// outputs reversed back. Returns `std::pair{std::pair{output_fw, output_bw},
/// std::pair{state_fw, state_bw}}`. Options as dynamic_rnn's, except initial_state (both
/// directions start at zeros).
template <fixed_string Scope = "bidirectional_rnn", class CellFw, class CellBw, node X, class... Options>
auto bidirectional_dynamic_rnn(const CellFw& cell_fw, const CellBw& cell_bw, const X& inputs,
                               const Options&... options) {
  constexpr bool tm = (std::is_same_v<Options, detail::time_major_t> || ...);
  static_assert(detail::count_options<detail::is_initial, Options...>() == 0,
                "rnn::bidirectional_dynamic_rnn: give no initial_state (both directions start at zeros)");
  constexpr std::ptrdiff_t time_axis = tm ? 0 : 1;
  constexpr std::ptrdiff_t batch_axis = tm ? 1 : 0;
  auto fw = dynamic_rnn<join_names<Scope, "fw">()>(cell_fw, inputs, options...);
  auto reversed = [&](const auto& v) {
    if constexpr (detail::count_options<detail::is_lengths, Options...>() == 1) {
      return reverse_sequence<time_axis, batch_axis>(v, detail::find_option<detail::is_lengths>(options...).lengths);
    } else {
      return reverse<time_axis>(v);
    }
  };
  auto bw = dynamic_rnn<join_names<Scope, "bw">()>(cell_bw, reversed(inputs), options...);
  return std::pair{std::pair{fw.first, reversed(bw.first)}, std::pair{fw.second, bw.second}};
}

}  // namespace rnn
}  // namespace typeflow
