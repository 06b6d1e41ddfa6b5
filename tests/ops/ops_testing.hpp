// Helpers shared by the op tests: compare a fetched value with hand-computed numbers.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

namespace ops_testing {

/// The run-time shape of a fetched tensor, as a vector (so doctest can print it).
template <class Tensor>
std::vector<std::size_t> shape_vector(const Tensor& t) {
  return std::vector<std::size_t>(t.shape().begin(), t.shape().end());
}

/// Checks that `got` has shape `shape` and holds `want` in row-major order: exactly for
/// integer and bool elements, within a relative `eps` for floating-point ones (exactly
/// when `eps` is 0).
template <class Tensor>
void check_values(const Tensor& got, std::vector<std::size_t> shape, std::initializer_list<double> want,
                  double eps = 1e-6) {
  using T = typename Tensor::value_type;
  REQUIRE(shape_vector(got) == shape);
  REQUIRE(got.size() == want.size());
  std::size_t i = 0;
  for (double w : want) {
    const auto v = got.flat(i);
    INFO("element " << i);
    if constexpr (std::is_floating_point_v<T>) {
      if (eps == 0) {
        CHECK(static_cast<double>(v) == w);
      } else {
        CHECK(static_cast<double>(v) == doctest::Approx(w).epsilon(eps));
      }
    } else {
      CHECK(static_cast<double>(v) == w);
    }
    ++i;
  }
}

}  // namespace ops_testing
