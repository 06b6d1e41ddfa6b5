// typeflow/ops/fill.hpp — tf.fill, tf.zeros and tf.ones: a tensor of one value.
//
// The shape is a template argument (`zeros<shape<2, 3>>()`, every dim static) or a dims
// node (`zeros(shape_op(x))`, ops/shape_ops.hpp), whose value gives the dims when a run
// computes the op. fill's value is a scalar node; zeros and ones fill with the literal 0 or
// 1 of their dtype, so `zeros<shape<2, 3>>()` is one node wherever it is written. Gradient:
// the value's is the sum of the gradient (TensorFlow's _FillGrad); the dims get none.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>

#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/broadcast_gradient.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"
#include "typeflow/ops/shape_ops.hpp"

namespace typeflow {

/// In a diagnostic: fill's value, of this element type and shape, which is not a scalar.
template <class ElementType, class Shape>
struct fill_value_must_be_a_scalar {
  static constexpr bool value = false;
};

/// tf.fill: a tensor of shape S holding the scalar value of V, the last input; In... is
/// (V) with a static S, or (D, V) with D a dims node.
template <class S, class... In>
struct fill_node : node_facade<value_type_of<mp::mp_back<mp::mp_list<In...>>>, S, node_kind::compute, In...>,
                   op_info<"Fill"> {
  using value_node = mp::mp_back<mp::mp_list<In...>>;
  template <class... N>
  using rebind = fill_node<S, N...>;
  template <std::size_t K, class G>
  using gradient = mp::mp_if_c<K + 1 == sizeof...(In), sum_to_t<G, value_node>, no_gradient>;

  template <class Out, class... V>
  static void compute(Out& out, const V&... in) {
    using T = value_type_of<fill_node>;
    const auto& v = std::get<sizeof...(V) - 1>(std::tie(in...));
    const T value = *ops::detail::data_ptr(v);
    if constexpr (sizeof...(V) == 1) {
      const auto dims = ops::detail::dims_of_tensor<S>("Fill");
      ops::detail::resize_unless_static<S::is_static>(out, dims);
    } else {
      const auto dims = ops::detail::dims_of_tensor<S>("Fill", std::get<0>(std::tie(in...)));
      ops::detail::resize_unless_static<S::is_static>(out, dims);
    }
    if constexpr (std::is_arithmetic_v<Out>) {
      out = value;
    } else {
      std::fill(out.begin(), out.end(), value);
    }
  }
};

namespace ops::detail {
template <class S, class V>
constexpr auto make_fill_static(const V& value) {
  if constexpr (shape_of<V>::rank != 0) {
    static_assert(fill_value_must_be_a_scalar<value_type_of<V>, shape_of<V>>::value,
                  "typeflow::fill<shape>(value): value must be a scalar node, e.g. typeflow::constant<7>()");
    return value;
  } else if constexpr (!S::is_static) {
    static_assert(shape_argument_needs_static_dims_of_at_least_0<S>::value,
                  "typeflow::fill<shape>, zeros<shape>, ones<shape>: every dim of the shape must be >= 0 "
                  "(TensorFlow: ValueError); for dims known at run time pass a dims node, e.g. shape_op(x)");
    return value;
  } else {
    return make_node<fill_node<S, V>>(value);
  }
}
template <class D, class V>
constexpr auto make_fill_dynamic(const D& dims, const V& value) {
  if constexpr (!is_dims_node<D>) {
    static_assert(dims_must_be_an_int32_or_int64_vector_of_static_length<value_type_of<D>, shape_of<D>>::value,
                  "typeflow::fill(dims, value), zeros(dims), ones(dims): dims must be an int32 or int64 vector "
                  "of static length, e.g. typeflow::shape_op(x)");
    return value;
  } else if constexpr (shape_of<V>::rank != 0) {
    static_assert(fill_value_must_be_a_scalar<value_type_of<V>, shape_of<V>>::value,
                  "typeflow::fill(dims, value): value must be a scalar node, e.g. typeflow::constant<7>()");
    return value;
  } else {
    return make_node<fill_node<shape_from_dims_t<D>, D, V>>(dims, value);
  }
}
}  // namespace ops::detail

/// `fill<shape<2, 3>>(value)` is tf.fill([2, 3], value): value a scalar node
/// (`constant<9>()`, a placeholder); the result has its element type.
template <shape_type S, node V>
constexpr auto fill(const V& value) {
  return ops::detail::make_fill_static<S>(value);
}
/// `fill(dims, value)` is tf.fill(dims, value) with dims a tensor: an int32 or int64 vector
/// node of static length (`shape_op(x)`, a placeholder).
template <node D, node V>
constexpr auto fill(const D& dims, const V& value) {
  return ops::detail::make_fill_dynamic(dims, value);
}

/// `zeros<shape<2, 3>>()` is tf.zeros([2, 3]) (float32); `zeros<shape<2, 3>, T>()` chooses
/// the dtype.
template <shape_type S, element_type T = float>
constexpr auto zeros() {
  return ops::detail::make_fill_static<S>(literal_node<0, T>{});
}
/// `zeros(dims)` is tf.zeros(dims) with dims a tensor (`zeros(shape_op(x))`); `zeros<T>(dims)`.
template <element_type T = float, node D>
constexpr auto zeros(const D& dims) {
  return ops::detail::make_fill_dynamic(dims, literal_node<0, T>{});
}
/// `ones<shape<2, 3>>()` is tf.ones([2, 3]); `ones<shape<2, 3>, T>()` chooses the dtype.
template <shape_type S, element_type T = float>
constexpr auto ones() {
  return ops::detail::make_fill_static<S>(literal_node<1, T>{});
}
/// `ones(dims)` is tf.ones(dims) with dims a tensor; `ones<T>(dims)`.
template <element_type T = float, node D>
constexpr auto ones(const D& dims) {
  return ops::detail::make_fill_dynamic(dims, literal_node<1, T>{});
}

}  // namespace typeflow
