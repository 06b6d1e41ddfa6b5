// tests/rnn/toy_cell.hpp — the smallest cell of the protocol of rnn/cell.hpp, for the tests
// of the drivers that must not depend on a library cell: h' = tanh([x, h] W + b), with a
// second state tensor c' = c + h' so that multi-tensor states are exercised.
#pragma once

#include <array>
#include <cstddef>
#include <tuple>
#include <utility>

#include <typeflow/typeflow.hpp>

template <std::size_t H>
struct toy_cell {
  static constexpr std::size_t output_size = H;
  static constexpr std::array<std::size_t, 2> state_sizes{H, H};
  // Its structured state is the flat one.
  template <class... S>
  static constexpr auto unflatten(const std::tuple<S...>& flat) {
    return flat;
  }
  template <typeflow::fixed_string Scope, class X, class S0, class S1>
  auto step(const X& x, const std::tuple<S0, S1>& state) const {
    namespace tf = typeflow;
    using T = tf::value_type_of<X>;
    constexpr auto D = tf::shape_of<X>::dims[1];
    auto w = tf::variable<tf::join_names<Scope, "toy_cell/kernel">(), T, tf::shape<D + std::ptrdiff_t(H), std::ptrdiff_t(H)>,
                          tf::init::glorot_uniform(7)>();
    auto b = tf::variable<tf::join_names<Scope, "toy_cell/bias">(), T, tf::shape<std::ptrdiff_t(H)>,
                          tf::init::constant(0.1)>();
    auto h = tf::tanh(tf::matmul(tf::concat<1>(x, std::get<0>(state)), w) + b);
    auto c = std::get<1>(state) + h;
    return std::pair{h * tf::constant<2.0>(), std::tuple{h, c}};
  }
};
