// typeflow/ops/placeholder_with_default.hpp — tf.placeholder_with_default: a named node
// whose value is fed, or else its input's.
//
// `placeholder_with_default<"p", S>(input)` has input's element type and the static shape S
// (input's shape when S is left out), which may relax input's static dims to `dyn` or fix
// input's dyn dims: same rank, and where both dims are static they are equal, or it is the
// compile error `placeholder_with_default_shape_must_be_compatible_with_the_input<"p", S,
// input's shape>`. A run that feeds it (`feed(p, value)`) takes the value, checked against S
// as a placeholder's feed is, and evaluates nothing behind it (a placeholder under input then
// needs no feed); a run that does not feed it computes input, each run, and copies it.
// Unlike a placeholder, leaving it unfed is no error.
//
// TensorFlow's kernel is its Identity kernel (the op differs only in its shape function) and
// its gradient, array_grad.py's _IdGrad, passes the gradient to the input: so here, reshaped
// back to input's static shape when S differs from it. Where S fixes a dim that input leaves
// dyn, a run whose input has another size fails with InvalidArgument (TensorFlow's Identity
// kernel passes such a value on; a typeflow node's value always has the node's shape).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"
#include "typeflow/ops/reshape.hpp"

namespace typeflow {

/// In a diagnostic: the node named Name, whose shape S has not the rank of its input's
/// static shape, or a static dim that differs from the input's.
template <fixed_string Name, class Shape, class InputShape>
struct placeholder_with_default_shape_must_be_compatible_with_the_input {
  static constexpr bool value = false;
};

namespace ops::detail {

/// Whether a node of shape S may hold the values of a node of shape In: same rank, and equal
/// dims where both are static (TensorFlow's is_compatible_with).
template <class S, class In>
constexpr bool placeholder_shape_fits() {
  if constexpr (S::rank != In::rank) {
    return false;
  } else {
    for (std::size_t i = 0; i < S::rank; ++i)
      if (S::dims[i] != dyn && In::dims[i] != dyn && S::dims[i] != In::dims[i]) return false;
    return true;
  }
}

/// Whether S fixes a dim that In leaves dyn: then input's run-time dims need a check.
template <class S, class In>
constexpr bool shape_fixes_a_dyn_dim() {
  for (std::size_t i = 0; i < S::rank; ++i)
    if (S::dims[i] != dyn && In::dims[i] == dyn) return true;
  return false;
}

/// A run's default value of run-time dims `got` that do not fit the shape S of the node Name.
template <fixed_string Name, class S, class Dims>
[[noreturn, gnu::cold, gnu::noinline]] void throw_default_shape(const Dims& got) {
  std::string message("PlaceholderWithDefault '");
  message.append(Name.view()).append("': the default value has shape ").append(shape_string(got));
  message.append(", which is not compatible with the node's shape ").append(shape_string<S>());
  throw invalid_argument_error(message);
}

/// The gradient G (of shape S) as the input X's: G itself when the shapes are one type,
/// else reshaped back to X's shape (ops/reshape.hpp).
template <class G, class X>
using to_input_shape_t = mp::mp_eval_if_c<std::is_same_v<shape_of<G>, shape_of<X>>, G, reshape_back_t, G, X>;

}  // namespace ops::detail

/// tf.placeholder_with_default(input, shape, name): the node named Name, of X's element type
/// and shape S; its value is its feed, or X's.
template <fixed_string Name, class S, class X>
struct placeholder_with_default_node : node_facade<value_type_of<X>, S, node_kind::compute, X>,
                                       op_info<"PlaceholderWithDefault"> {
  static constexpr auto name = Name;
  template <class... N>
  using rebind = placeholder_with_default_node<Name, S, N...>;
  /// Identity's gradient (TensorFlow's _IdGrad), in X's shape.
  template <std::size_t K, class G>
  using gradient = ops::detail::to_input_shape_t<G, X>;

  template <class Out, class V>
  static void compute(Out& out, const V& in) {
    if constexpr (std::is_arithmetic_v<Out>) {
      out = in;
    } else {
      const auto dims = ops::detail::dims_of<S::rank>(in);
      if constexpr (ops::detail::shape_fixes_a_dyn_dim<S, shape_of<X>>()) {
        if (!shape_matches<S>(dims))
          ops::detail::throw_default_shape<Name, S>(dims);
      }
      ops::detail::resize_unless_static<S::is_static>(out, dims);
      std::copy_n(ops::detail::data_ptr(in), ops::detail::dims_product(dims, 0, S::rank), out.data());
    }
  }
};

namespace ops::detail {
template <fixed_string Name, class S, class X>
constexpr auto make_placeholder_with_default(const X& input) {
  if constexpr (!placeholder_shape_fits<S, shape_of<X>>()) {
    static_assert(placeholder_with_default_shape_must_be_compatible_with_the_input<Name, S, shape_of<X>>::value,
                  "typeflow::placeholder_with_default<name, shape>(input): the shape must be compatible with the "
                  "input's static shape: the same rank, equal dims where both are static (tf::dyn matches any size)");
    return placeholder_with_default_node<Name, shape_of<X>, X>{};  // inert: the error above is the one to read
  } else {
    return make_node<placeholder_with_default_node<Name, S, X>>(input);
  }
}
}  // namespace ops::detail

/// `placeholder_with_default<"p">(input)` is tf.placeholder_with_default(input, input.shape,
/// name="p"): a node named "p" whose value is fed (`feed(p, value)`), or else input's.
template <fixed_string Name, node X>
  requires element_type<value_type_of<X>>
constexpr auto placeholder_with_default(const X& input) {
  return ops::detail::make_placeholder_with_default<Name, shape_of<X>>(input);
}

/// `placeholder_with_default<"p", shape<dyn>>(input)` is tf.placeholder_with_default(input,
/// [None], name="p"): S may relax input's static dims to dyn (a feed then takes any size
/// there) or fix its dyn ones.
template <fixed_string Name, shape_type S, node X>
  requires element_type<value_type_of<X>>
constexpr auto placeholder_with_default(const X& input) {
  return ops::detail::make_placeholder_with_default<Name, S>(input);
}

}  // namespace typeflow
