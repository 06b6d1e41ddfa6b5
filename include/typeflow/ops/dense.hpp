// typeflow/ops/dense.hpp — tf.layers.dense: a fully connected layer under a name scope.
#pragma once

#include "typeflow/ops/activation.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/matmul.hpp"
#include "typeflow/ops/scope.hpp"
#include "typeflow/ops/variable.hpp"

namespace typeflow {

/// Activation functions as values, for layers: `activation::relu`, ...
namespace activation {
struct linear_t {
  template <node A> constexpr A operator()(A a) const { return a; }
};
struct relu_t {
  template <node A> constexpr auto operator()(A a) const { return typeflow::relu(a); }
};
struct tanh_t {
  template <node A> constexpr auto operator()(A a) const { return typeflow::tanh(a); }
};
struct sigmoid_t {
  template <node A> constexpr auto operator()(A a) const { return typeflow::sigmoid(a); }
};
inline constexpr linear_t linear{};
inline constexpr relu_t relu{};
inline constexpr tanh_t tanh{};
inline constexpr sigmoid_t sigmoid{};
}  // namespace activation

namespace fn {
/// tf.nn.bias_add: x + bias, the bias along the last axis; an add that TensorFlow's graphs
/// call BiasAdd.
struct bias_add : ops::detail::add_op<"BiasAdd"> {};
}  // namespace fn

namespace ops::detail {
template <std::size_t Units, fixed_string Name, node X>
constexpr void check_dense_input() {
  static_assert(floating_element<value_type_of<X>>, "layers::dense(x): x must be float or double");
  static_assert(shape_of<X>::rank == 2 && shape_of<X>::dims[1] != dyn,
                "layers::dense(x): x must be [batch, features] with a static number of features");
}
template <std::size_t Units, node X>
using kernel_shape = shape<shape_of<X>::dims[1], std::ptrdiff_t(Units)>;

/// The op N placed in the scope Scope, itself only (its inputs keep their names), when it
/// is an anonymous op not in a scope yet; N otherwise.
template <fixed_string Scope, class N>
constexpr auto in_layer_scope(const N& n) {
  if constexpr (named_node<N> || N::kind == node_kind::leaf || scoped_op<N> ||
                mp::mp_empty<inputs_of<N>>::value) {
    return n;
  } else {
    return make_node<scoped_node<Scope, N>>(n);
  }
}

/// activation(bias_add(matmul(x, kernel), bias)), each op named in the layer's scope.
template <fixed_string Name, class X, class K, class B, class Activation>
auto dense_layer(const X& x, const K& kernel, const B& bias, Activation act) {
  auto product = in_layer_scope<Name>(matmul(x, kernel));
  auto biased = in_layer_scope<Name>(make_binary<fn::bias_add>(product, bias));
  return in_layer_scope<Name>(act(biased));
}
}  // namespace ops::detail

namespace layers {

/// `dense<128>(x, activation::relu)` is tf.layers.dense(x, 128, activation=tf.nn.relu):
/// activation(matmul(x, kernel) + bias) with variables "dense/kernel" [in, 128]
/// (glorot_uniform) and "dense/bias" [128] (zeros), their initializers in their types.
/// `dense<128, "hidden">(x)` names them "hidden/kernel" and "hidden/bias"; a scope's
/// full_name<"dense"> nests them.
///
/// Its ops are named as TensorFlow names them: "dense/MatMul", "dense/BiasAdd" (op
/// BiasAdd) and the activation's "dense/Relu", "dense/Tanh", "dense/Sigmoid", so that
/// get_tensor_by_name("dense/BiasAdd:0") finds the logits of an exported model. The input x
/// keeps its own names.
template <std::size_t Units, fixed_string Name = "dense", node X, class Activation = activation::linear_t>
auto dense(const X& x, Activation act = {}) {
  ops::detail::check_dense_input<Units, Name, X>();
  using T = value_type_of<X>;
  auto kernel = variable<join_names<Name, "kernel">(), T, ops::detail::kernel_shape<Units, X>, init::glorot_uniform()>();
  auto bias = variable<join_names<Name, "bias">(), T, shape<std::ptrdiff_t(Units)>, init::zeros()>();
  return ops::detail::dense_layer<Name>(x, kernel, bias, act);
}

/// The same with initializers known at run time (kernel_initializer, bias_initializer),
/// carried by the variables.
template <std::size_t Units, fixed_string Name = "dense", node X, class Activation>
auto dense(const X& x, Activation act, const init::initializer& kernel_init,
           const init::initializer& bias_init = init::zeros()) {
  ops::detail::check_dense_input<Units, Name, X>();
  using T = value_type_of<X>;
  auto kernel = variable<join_names<Name, "kernel">(), T, ops::detail::kernel_shape<Units, X>>(kernel_init);
  auto bias = variable<join_names<Name, "bias">(), T, shape<std::ptrdiff_t(Units)>>(bias_init);
  return ops::detail::dense_layer<Name>(x, kernel, bias, act);
}

}  // namespace layers
}  // namespace typeflow
