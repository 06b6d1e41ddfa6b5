// tests/rnn/rnn_testing.hpp — the reference setting of benchmarks/rnn/reference_cells.py
// (weights from the variables' names, inputs, initial states) and value comparisons.
#pragma once

#include <cmath>
#include <cstddef>
#include <string_view>

#include <boost/mp11/list.hpp>
#include <doctest/doctest.h>
#include <xtensor/xfixed.hpp>

#include <typeflow/typeflow.hpp>

#include "cells_reference.hpp"

namespace rnn_testing {

namespace tf = typeflow;

inline constexpr std::size_t B = 2, D = 3, H = 4, T = 3;
using x_value = xt::xtensor_fixed<double, xt::xshape<B, D>>;
using h_value = xt::xtensor_fixed<double, xt::xshape<B, H>>;

/// weight(name, k) of the script: element k (row-major, TensorFlow's layout) of variable name.
inline double weight(std::string_view name, std::size_t k) {
  unsigned s = 0;
  for (unsigned char c : name) s += c;
  s %= 100;
  return 0.5 * std::sin(0.37 * double(k) + 0.1 * double(s));
}

template <class V, class Sess>
void set_reference_weight(Sess& sess) {
  auto& slot = sess.template slot<V>();
  for (std::size_t k = 0; k < slot.value.size(); ++k) slot.value.flat(k) = weight(V::name.view(), k);
  slot.initialized = true;
}
/// Every variable of the session set to the script's weights.
template <class Sess>
void set_reference_weights(Sess& sess) {
  [&]<class... V>(boost::mp11::mp_list<V...>) { (set_reference_weight<V>(sess), ...); }(typename Sess::variables{});
}

/// x[t] of the script.
inline x_value input(std::size_t t) {
  x_value x{};
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t d = 0; d < D; ++d) x(b, d) = std::sin(0.9 * double(t * B * D + b * D + d) + 0.2);
  return x;
}
inline h_value h0() {
  h_value h{};
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t j = 0; j < H; ++j) h(b, j) = 0.3 * std::cos(double(b * H + j));
  return h;
}
inline h_value c0() {
  h_value c{};
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t j = 0; j < H; ++j) c(b, j) = 0.2 * std::sin(double(b * H + j + 1));
  return c;
}

/// Every element of v equals ref[offset + i] to within tol.
template <class V>
void check_close(const V& v, const double* ref, std::size_t offset = 0, double tol = 1e-5) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    CAPTURE(i);
    CHECK(std::abs(double(v.flat(i)) - ref[offset + i]) <= tol);
  }
}

}  // namespace rnn_testing
