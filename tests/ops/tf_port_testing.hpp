// Helpers of the ports of TensorFlow's array-op kernel tests (tf_array_ops_port_test.cpp,
// tf_slicing_ops_port_test.cpp, tf_sequence_ops_port_test.cpp, tf_gather_nd_port_test.cpp,
// tf_segment_mask_port_test.cpp): numpy's arange, empty tensors, tensors of literal values,
// comparisons with expected elements computed by the test, and the message of an error.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "ops_testing.hpp"

namespace tf_port_testing {

template <class N, class S>
constexpr bool has_shape = std::is_same_v<typeflow::shape_of<N>, S>;

// `from`, from + 1, ... in a fixed-size tensor (np.arange(from, from + size).reshape(D...)).
template <class T, std::size_t... D>
xt::xtensor_fixed<T, xt::xshape<D...>> arange(T from = 0) {
  xt::xtensor_fixed<T, xt::xshape<D...>> v{};
  for (std::size_t i = 0; i < v.size(); ++i) v.flat(i) = static_cast<T>(from + static_cast<T>(i));
  return v;
}

// An empty tensor of a run-time shape with zero-size dimensions.
template <class T, std::size_t R>
xt::xtensor<T, R> empty_of(std::array<std::size_t, R> dims) {
  return xt::xtensor<T, R>::from_shape(dims);
}

// check_values with the expected elements in a vector (computed by the test).
template <class Tensor>
void check_all(const Tensor& got, const std::vector<std::size_t>& dims, const std::vector<double>& want) {
  if constexpr (std::is_arithmetic_v<Tensor>) {  // a scalar fetch
    REQUIRE(dims.empty());
    REQUIRE(want.size() == 1);
    CHECK(static_cast<double>(got) == want[0]);
    return;
  } else {
    REQUIRE(ops_testing::shape_vector(got) == dims);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      INFO("element " << i);
      CHECK(static_cast<double>(got.flat(i)) == want[i]);
    }
  }
}

// The elements of `v` in row-major order, as doubles.
template <class Tensor>
std::vector<double> elements(const Tensor& v) {
  std::vector<double> out;
  for (std::size_t i = 0; i < v.size(); ++i) out.push_back(static_cast<double>(v.flat(i)));
  return out;
}

// A fixed-size tensor holding `v` in row-major order.
template <class T, std::size_t... D>
xt::xtensor_fixed<T, xt::xshape<D...>> fixed(std::initializer_list<double> v) {
  xt::xtensor_fixed<T, xt::xshape<D...>> t{};
  REQUIRE(t.size() == v.size());
  std::size_t i = 0;
  for (double x : v) t.flat(i++) = static_cast<T>(x);
  return t;
}

// A tensor of run-time dims holding `v` in row-major order.
template <class T, std::size_t R>
xt::xtensor<T, R> dynamic(std::array<std::size_t, R> dims, const std::vector<double>& v) {
  auto t = xt::xtensor<T, R>::from_shape(dims);
  REQUIRE(t.size() == v.size());
  for (std::size_t i = 0; i < v.size(); ++i) t.flat(i) = static_cast<T>(v[i]);
  return t;
}

// The message of the invalid_argument_error that f throws ("" if it throws none).
template <class F>
std::string invalid_argument_message(F f) {
  try {
    f();
  } catch (const typeflow::invalid_argument_error& e) {
    return e.message();
  }
  return "";
}

}  // namespace tf_port_testing
