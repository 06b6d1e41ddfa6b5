// typeflow/rnn/multi_rnn_cell.hpp — tf.nn.rnn_cell.MultiRNNCell: cells stacked, each in its own
// "cell_<i>" scope, the state the tuple of the cells' states. The cell protocol is in
// rnn/cell.hpp.
#pragma once

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/rnn/detail/cell_base.hpp"

namespace typeflow::rnn {

namespace detail {

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
