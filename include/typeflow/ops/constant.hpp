// typeflow/ops/constant.hpp — tf.constant: compile-time literals and named constant tensors.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include <xtensor/xadapt.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/node.hpp"

namespace typeflow {

namespace ops::detail {
template <class V>
using literal_element_t =
    std::conditional_t<std::is_same_v<V, bool>, bool,
                       std::conditional_t<std::is_floating_point_v<V>, V,
                                          std::conditional_t<(sizeof(V) > 4), std::int64_t, std::int32_t>>>;
}  // namespace ops::detail

/// A compile-time scalar. Anonymous: two literals of equal value and type are one node.
/// In an op with a node of another element type, a literal takes that type, as a Python
/// number does in TensorFlow (`x * constant<2>()` with float x multiplies by 2.0f).
template <auto V, element_type T>
struct literal_node : node_facade<T, scalar, node_kind::leaf>, op_info<"Const", false> {
  static constexpr T value = static_cast<T>(V);
  static constexpr auto value_as_written = V;
  static constexpr bool is_literal = true;
  template <element_type U>
  using as = literal_node<V, U>;
};

/// `constant<2.0>()` is `tf.constant(2.)`; `constant<2>()` is an int32 constant;
/// `constant<0.5, float>()` chooses the element type.
template <auto V, class T = ops::detail::literal_element_t<decltype(V)>>
  requires std::is_arithmetic_v<decltype(V)>
constexpr literal_node<V, T> constant() {
  return {};
}

/// A named constant tensor: `constant<"table">(values)`. Its values are its definition,
/// shared (immutable) by the node objects that reach it and the sessions that hold it.
///
/// Its name is the path Name (name_path_t<"table">, core/fixed_string.hpp); written
/// named_constant_node<"table", T, S>.
template <class Name, element_type T, shape_type S>
struct named_constant : node_facade<T, S, node_kind::leaf>, op_info<"Const", false> {
  static constexpr auto name = Name::value;
  static constexpr bool is_named_constant = true;
  using storage_type = storage_t<T, S>;
  using definition_type = std::shared_ptr<const storage_type>;
  definition_type definition{};

  /// The values, checked against the node's shape.
  template <class E>
  static definition_type make_definition(const E& values) {
    if constexpr (std::is_arithmetic_v<storage_type>) {
      return std::make_shared<const storage_type>(static_cast<T>(values));
    } else {
      if (!shape_matches<S>(runtime_shape(values)))
        throw invalid_argument_error("Constant " + std::string(name.view()) + " has shape " +
                                     shape_string<S>() + " but its values have shape " +
                                     shape_string(runtime_shape(values)));
      return std::make_shared<const storage_type>(values);
    }
  }
};
template <fixed_string Name, element_type T, shape_type S>
using named_constant_node = named_constant<name_path_t<Name>, T, S>;

namespace ops::detail {
template <class E>
struct constant_traits {  // xtensor containers: dims from the type when static
  using value_type = typename E::value_type;
  using shape_type = decltype([] {
    if constexpr (requires { E::rank; }) {
      return []<std::size_t... I>(std::index_sequence<I...>) { return shape<((void)I, dyn)...>{}; }(
          std::make_index_sequence<E::rank>{});
    } else {
      return scalar{};
    }
  }());
};
template <class T, std::size_t... D, xt::layout_type L, bool SH, class Tag>
struct constant_traits<xt::xfixed_container<T, xt::fixed_shape<D...>, L, SH, Tag>> {
  using value_type = T;
  using shape_type = shape<static_cast<std::ptrdiff_t>(D)...>;
};
template <class T>
  requires std::is_arithmetic_v<T>
struct constant_traits<T> {
  using value_type = detail::literal_element_t<T>;
  using shape_type = scalar;
};
}  // namespace ops::detail

/// `constant<"table">(values)`: a named constant whose element type and shape come from
/// `values` (an xtensor container, `xtensor_fixed` for static dims, or a scalar).
template <fixed_string Name, class E>
auto constant(const E& values) {
  using traits = ops::detail::constant_traits<E>;
  using N = named_constant_node<Name, typename traits::value_type, typename traits::shape_type>;
  N n;
  n.definition = N::make_definition(values);
  return n;
}

/// `constant<"table", float, shape<2, 3>>(values)`: element type and shape chosen.
template <fixed_string Name, element_type T, shape_type S, class E>
auto constant(const E& values) {
  using N = named_constant_node<Name, T, S>;
  N n;
  n.definition = N::make_definition(values);
  return n;
}

}  // namespace typeflow
