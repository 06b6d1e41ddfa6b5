// typeflow/ops/compare.hpp — equal, not_equal, less, less_equal, greater, greater_equal.
// Each gives bool, elementwise with broadcasting.
#pragma once

#include "typeflow/ops/elementwise.hpp"

namespace typeflow {

namespace fn {
#define TYPEFLOW_COMPARE_FN(name, tf_name, op)                                            \
  struct name : op_info<tf_name> { /* differentiable, but no gradient flows */            \
    template <class T> constexpr bool operator()(T a, T b) const { return a op b; }       \
    template <std::size_t K, class G, class Self, class A, class B>                       \
    using gradient = no_gradient;                                                         \
  };
TYPEFLOW_COMPARE_FN(equal, "Equal", ==)
TYPEFLOW_COMPARE_FN(not_equal, "NotEqual", !=)
TYPEFLOW_COMPARE_FN(less, "Less", <)
TYPEFLOW_COMPARE_FN(less_equal, "LessEqual", <=)
TYPEFLOW_COMPARE_FN(greater, "Greater", >)
TYPEFLOW_COMPARE_FN(greater_equal, "GreaterEqual", >=)
#undef TYPEFLOW_COMPARE_FN
}  // namespace fn

/// tf.equal, tf.not_equal, tf.less, tf.less_equal, tf.greater, tf.greater_equal
template <node A, node B> constexpr auto equal(A a, B b) { return make_binary<fn::equal>(a, b); }
template <node A, node B> constexpr auto not_equal(A a, B b) { return make_binary<fn::not_equal>(a, b); }
template <node A, node B> constexpr auto less(A a, B b) { return make_binary<fn::less>(a, b); }
template <node A, node B> constexpr auto less_equal(A a, B b) { return make_binary<fn::less_equal>(a, b); }
template <node A, node B> constexpr auto greater(A a, B b) { return make_binary<fn::greater>(a, b); }
template <node A, node B> constexpr auto greater_equal(A a, B b) { return make_binary<fn::greater_equal>(a, b); }

/// The same as operators (`a < b`), which TensorFlow also overloads (except ==, !=).
template <node A, node B> constexpr auto operator<(A a, B b) { return less(a, b); }
template <node A, node B> constexpr auto operator<=(A a, B b) { return less_equal(a, b); }
template <node A, node B> constexpr auto operator>(A a, B b) { return greater(a, b); }
template <node A, node B> constexpr auto operator>=(A a, B b) { return greater_equal(a, b); }

}  // namespace typeflow
