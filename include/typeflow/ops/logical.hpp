// typeflow/ops/logical.hpp — logical_and, logical_or, logical_not: elementwise on bool
// tensors (with broadcasting), giving bool. No gradient flows through them, as in TensorFlow.
#pragma once

#include <type_traits>

#include "typeflow/ops/elementwise.hpp"

namespace typeflow {

namespace fn {
struct logical_and : op_info<"LogicalAnd"> {
  template <class T> constexpr bool operator()(T a, T b) const { return a && b; }
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = no_gradient;
};
struct logical_or : op_info<"LogicalOr"> {
  template <class T> constexpr bool operator()(T a, T b) const { return a || b; }
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = no_gradient;
};
struct logical_not : op_info<"LogicalNot"> {
  template <class T> constexpr bool operator()(T a) const { return !a; }
  template <std::size_t K, class G, class Self, class A>
  using gradient = no_gradient;
};
}  // namespace fn

/// In a diagnostic: the element type that is not bool.
template <class T>
struct logical_ops_need_bool_operands {
  static constexpr bool value = std::is_same_v<T, bool>;
};

/// tf.logical_and, tf.logical_or (broadcasting), tf.logical_not
template <node A, node B>
constexpr auto logical_and(A a, B b) {
  static_assert(logical_ops_need_bool_operands<value_type_of<A>>::value,
                "typeflow::logical_and(x, y) needs bool operands: compare first (x > 0), or cast<bool>(x)");
  return make_binary<fn::logical_and>(a, b);
}
template <node A, node B>
constexpr auto logical_or(A a, B b) {
  static_assert(logical_ops_need_bool_operands<value_type_of<A>>::value,
                "typeflow::logical_or(x, y) needs bool operands: compare first (x > 0), or cast<bool>(x)");
  return make_binary<fn::logical_or>(a, b);
}
template <node A>
constexpr auto logical_not(A a) {
  static_assert(logical_ops_need_bool_operands<value_type_of<A>>::value,
                "typeflow::logical_not(x) needs a bool x: compare first (x > 0), or cast<bool>(x)");
  return make_unary<fn::logical_not>(a);
}

}  // namespace typeflow
