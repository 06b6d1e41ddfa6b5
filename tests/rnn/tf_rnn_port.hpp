// tests/rnn/tf_rnn_port.hpp — what the ports of TensorFlow's RNN tests share
// (tf_rnn_port*_test.cpp): rnn_test.py's Plus1RNNCell, deterministic inputs and weights,
// TF's "kernels 0.5" setting, assertAllClose against one value.
#pragma once

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include <boost/mp11/list.hpp>
#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>

#include <typeflow/rnn/cell.hpp>
#include <typeflow/rnn/dynamic_rnn.hpp>
#include <typeflow/rnn/static_rnn.hpp>
#include <typeflow/typeflow.hpp>

namespace tf_rnn_port {

namespace tf = typeflow;
namespace rnn = typeflow::rnn;

/// rnn_test.py's Plus1RNNCell: (output, new_state) = (input + 1, state + 1), state size 5.
struct plus1_cell : rnn::detail::single_state_cell<plus1_cell, 5> {
  template <tf::fixed_string Scope, tf::node X, class S>
  auto step(const X& x, const std::tuple<S>& state) const {
    using T = tf::value_type_of<X>;
    return std::pair{x + tf::constant<1, T>(), std::tuple{std::get<0>(state) + tf::constant<1, T>()}};
  }
};

using mat = xt::xtensor<double, 2>;
using seq3 = xt::xtensor<double, 3>;

/// np.random.randn stand-in: deterministic values in (-1, 1).
inline mat input_value(std::size_t batch, std::size_t depth, double phase = 0.3) {
  mat v(std::array<std::size_t, 2>{batch, depth});
  for (std::size_t i = 0; i < v.size(); ++i) v.flat(i) = std::sin(1.7 * double(i) + phase);
  return v;
}

/// A value per variable element from the variable's name with "/bw/" read as "/fw/": the
/// two directions of a bidirectional RNN get the same weights (TF's tests give both cells
/// one seeded initializer).
inline double weight(std::string_view name, std::size_t k) {
  std::string n(name);
  if (auto p = n.find("/bw/"); p != std::string::npos) n.replace(p, 4, "/fw/");
  unsigned s = 0;
  for (unsigned char c : n) s += c;
  return 0.4 * std::sin(0.61 * double(k) + 0.01 * double(s % 997));
}
template <class Sess>
void set_weights(Sess& sess) {
  [&]<class... V>(boost::mp11::mp_list<V...>) {
    (
        [&] {
          auto& slot = sess.template slot<V>();
          for (std::size_t k = 0; k < slot.value.size(); ++k) slot.value.flat(k) = weight(V::name.view(), k);
          slot.initialized = true;
        }(),
        ...);
  }(typename Sess::variables{});
}

/// global_variables_initializer(), then every kernel and embedding set to 0.5.
template <class Sess>
void kernels_to_half(Sess& sess) {
  sess.run(tf::global_variables_initializer());
  [&]<class... V>(boost::mp11::mp_list<V...>) {
    ((V::name.view().ends_with("/kernel") || V::name.view().ends_with("/embedding")
          ? sess.template slot<V>().value.fill(0.5f)
          : void()),
     ...);
  }(typename Sess::variables{});
}

/// assertAllClose (rtol = atol = 1e-6) of every element against one expected value.
template <class V>
void check_all(const V& v, double expected, double tol = 1e-6) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    CAPTURE(i);
    CHECK(std::abs(double(v.flat(i)) - expected) <= tol + tol * std::abs(expected));
  }
}

template <class Sess>
std::vector<std::string> names_of(Sess& sess) {
  return sess.uninitialized_names();
}

inline bool all_start_with(const std::vector<std::string>& names, std::string_view prefix) {
  for (const auto& n : names)
    if (!std::string_view(n).starts_with(prefix)) return false;
  return !names.empty();
}

}  // namespace tf_rnn_port
