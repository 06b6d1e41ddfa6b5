// typeflow/core/tensor.hpp — a tensor whose dtype and shape are known at run time.
//
// The door between a compiled graph and code that knows names, dtypes and shapes only at
// run time (a program reading a saved model's signatures from its configuration): a
// typeflow::tensor holds one xt::xarray of float, double, int32, int64 or bool. It is made
// from any xtensor expression or scalar of those types and read back with as<T>(), which
// names both dtypes when they differ.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <xtensor/xarray.hpp>

#include "typeflow/core/dtype.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/core/shape.hpp"

namespace typeflow {

class tensor {
 public:
  using storage = std::variant<xt::xarray<float>, xt::xarray<double>, xt::xarray<std::int32_t>,
                               xt::xarray<std::int64_t>, xt::xarray<bool>>;

  /// An empty float32 tensor of shape [0].
  tensor() : data_(xt::xarray<float>::from_shape({0})) {}

  /// A rank-0 tensor.
  template <element_type T>
  tensor(T scalar) : data_(xt::xarray<T>(scalar)) {}  // NOLINT: implicit, as a feed value

  /// A copy of any xtensor container or expression of an element type (row-major).
  template <class E>
    requires xt::is_xexpression<std::decay_t<E>>::value && element_type<typename std::decay_t<E>::value_type>
  tensor(E&& e) : data_(xt::xarray<typename std::decay_t<E>::value_type>(std::forward<E>(e))) {}  // NOLINT

  typeflow::dtype dtype() const noexcept {
    return std::visit([](const auto& a) { return dtype_of<typename std::decay_t<decltype(a)>::value_type>; }, data_);
  }
  std::vector<std::size_t> shape() const {
    return std::visit([](const auto& a) { return std::vector<std::size_t>(a.shape().begin(), a.shape().end()); },
                      data_);
  }
  std::size_t rank() const noexcept {
    return std::visit([](const auto& a) { return a.dimension(); }, data_);
  }
  std::size_t size() const noexcept {
    return std::visit([](const auto& a) { return a.size(); }, data_);
  }
  /// "float32 [2, 3]"
  std::string description() const { return std::string(dtype_name(dtype())) + " " + shape_string(shape()); }

  template <element_type T>
  bool holds() const noexcept {
    return std::holds_alternative<xt::xarray<T>>(data_);
  }

  /// The values as an xarray of T; InvalidArgument naming both dtypes when the tensor
  /// holds another.
  template <element_type T>
  const xt::xarray<T>& as() const {
    if (const auto* p = std::get_if<xt::xarray<T>>(&data_)) return *p;
    throw invalid_argument_error("The tensor holds " + std::string(dtype_name(dtype())) + " values, not " +
                                 std::string(dtype_name_of<T>));
  }
  template <element_type T>
  xt::xarray<T>& as() {
    return const_cast<xt::xarray<T>&>(std::as_const(*this).template as<T>());
  }

  /// Equal dtypes, shapes and values (bit patterns aside: NaN differs from NaN).
  friend bool operator==(const tensor& a, const tensor& b) { return a.data_ == b.data_; }

  const storage& variant() const noexcept { return data_; }

 private:
  storage data_;
};

}  // namespace typeflow
