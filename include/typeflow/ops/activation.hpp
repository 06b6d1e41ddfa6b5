// typeflow/ops/activation.hpp — tanh, sigmoid, relu (elementwise activations).
#pragma once

#include <cmath>

#include "typeflow/ops/math.hpp"

namespace typeflow {

namespace fn {
struct tanh : op_info<"Tanh"> {
  template <class T> T operator()(T a) const { return std::tanh(a); }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, G, ew<sub, literal_node<1, value_type_of<A>>, ew<square, Self>>>;
};
struct sigmoid : op_info<"Sigmoid"> {
  // Stable for large |a|: never exponentiates a positive number.
  template <class T> T operator()(T a) const {
    if (a >= T(0)) return T(1) / (T(1) + std::exp(-a));
    const T e = std::exp(a);
    return e / (T(1) + e);
  }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, ew<mul, G, Self>, ew<sub, literal_node<1, value_type_of<A>>, Self>>;
};
/// g where the relu's output y is positive, else 0 (TensorFlow's ReluGrad).
struct relu_gradient : op_info<"ReluGrad"> {
  template <class T> constexpr T operator()(T g, T y) const { return y > T(0) ? g : T(0); }
  template <std::size_t K, class G, class Self, class GI, class Y>
  using gradient = mp::mp_if_c<K == 0, ew<relu_gradient, G, Y>, no_gradient>;
};
struct relu : op_info<"Relu"> {
  template <class T> constexpr T operator()(T a) const { return a > T(0) ? a : T(0); }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<relu_gradient, G, Self>;
};
}  // namespace fn

/// tf.tanh, tf.sigmoid (tf.nn.sigmoid)
template <node A>
constexpr auto tanh(A a) {
  static_assert(op_needs_a_floating_point_operand<value_type_of<A>>::value,
                "typeflow::tanh(x) needs a float or double x: use typeflow::cast<float>(x)");
  return make_unary<fn::tanh>(a);
}
template <node A>
constexpr auto sigmoid(A a) {
  static_assert(op_needs_a_floating_point_operand<value_type_of<A>>::value,
                "typeflow::sigmoid(x) needs a float or double x: use typeflow::cast<float>(x)");
  return make_unary<fn::sigmoid>(a);
}
/// tf.nn.relu
template <node A> constexpr auto relu(A a) { return make_unary<fn::relu>(a); }

}  // namespace typeflow
