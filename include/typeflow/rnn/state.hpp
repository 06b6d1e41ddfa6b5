// typeflow/rnn/state.hpp — a recurrent cell's state, structured and flat.
//
// A cell's state is structured as TensorFlow's (a node; an lstm_state_tuple (c, h); a
// std::tuple of its cells' states for a multi cell) and flat: a std::tuple of [batch, width]
// tensors, what loops carry. flatten_state, unflatten_state and zero_state go between them.
#pragma once

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "typeflow/core/node.hpp"

namespace typeflow::rnn {

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

}  // namespace typeflow::rnn
