// typeflow/ops/elementwise.hpp — the machinery shared by elementwise ops.
//
// An elementwise op is a scalar function object `Fn` (with `op_name`) applied with numpy
// broadcasting. The session fuses chains of them into one lazy xtensor expression
// (xt::make_lambda_xfunction), or calls Fn directly on scalars.
#pragma once

#include <type_traits>
#include <utility>

#include <xtensor/xmath.hpp>

#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"

namespace typeflow {

namespace ops::detail {
template <class Fn, class... T>
using fn_result_t = std::remove_cvref_t<decltype(std::declval<Fn>()(std::declval<T>()...))>;

template <class... S>
struct broadcast_all;
template <class S>
struct broadcast_all<S> {
  using type = S;
};
template <class A, class B, class... R>
struct broadcast_all<A, B, R...> {
  using type = typename broadcast_all<broadcast_shape<A, B>, R...>::type;
};
}  // namespace ops::detail

namespace ops::detail {
/// Fn on scalars, or a lazy broadcasting expression on tensors.
template <class Fn, class... A>
auto apply_elementwise(A&&... a) {
  if constexpr ((std::is_arithmetic_v<std::remove_cvref_t<A>> && ...)) {
    return Fn{}(a...);
  } else {
    return xt::make_lambda_xfunction(Fn{}, std::forward<A>(a)...);
  }
}
}  // namespace ops::detail

namespace ops::detail {
/// x itself under the op name OpName: tf.identity passes the gradient back, tf.stop_gradient
/// (PassesGradient false) stops it.
template <fixed_string OpName, bool PassesGradient>
struct forward_op : op_info<OpName> {
  template <class T> constexpr T operator()(T a) const { return a; }
  template <std::size_t K, class G, class Self, class A>
  using gradient = mp::mp_if_c<PassesGradient, G, no_gradient>;
};

// What an elementwise node's op says of itself, in a base named by Fn alone (see
// kind_tag in core/node.hpp: no static data member in a class that spells the inputs).
template <class Fn>
struct elementwise_op {
  static constexpr std::string_view op_name = Fn::op_name;
  // The gradient rule lives with the scalar function: Fn::gradient<K, G, Self, In...>.
  static constexpr bool differentiable = typeflow::differentiable<Fn>;
};
}  // namespace ops::detail

template <class Fn, class... In>
struct elementwise_node
    : node_facade<ops::detail::fn_result_t<Fn, value_type_of<In>...>,
                  typename ops::detail::broadcast_all<shape_of<In>...>::type, node_kind::elementwise, In...>,
      ops::detail::elementwise_op<Fn> {
  using function = Fn;
  template <class... N>
  using rebind = elementwise_node<Fn, N...>;

  template <std::size_t K, class G>
  using gradient = typename Fn::template gradient<K, G, elementwise_node, In...>;

  /// The op on scalars, or a lazy broadcasting expression on tensors.
  template <class... A>
  static auto apply(A&&... a) {
    return ops::detail::apply_elementwise<Fn>(std::forward<A>(a)...);
  }
};

/// Shorthand for gradient rules: the elementwise op Fn over nodes N...
template <class Fn, class... N>
using ew = elementwise_node<Fn, N...>;

// --- checks with readable diagnostics ----------------------------------------------------

/// In a diagnostic, names the two static shapes numpy broadcasting rejects.
template <class A, class B>
struct shapes_must_be_broadcast_compatible {
  static constexpr bool value = broadcast_compatible<A, B>;
};

template <class A, class B>
struct operands_must_have_the_same_element_type {
  static constexpr bool value = std::is_same_v<A, B>;
};

/// In a diagnostic: the literal and the element type it cannot convert to exactly.
template <auto Literal, class ElementType>
struct literal_must_convert_exactly {
  // Rounding 0.1 to float is fine, as in TensorFlow; dropping a fraction or overflowing is not.
  static constexpr bool value =
      std::is_floating_point_v<ElementType> ||
      static_cast<decltype(Literal)>(static_cast<ElementType>(Literal)) == Literal;
};

namespace ops::detail {
template <class A, class B>
inline constexpr bool is_literal_v = literal_node_type<A>;

// A literal takes the element type of the other operand (Python-number semantics).
template <class A, class B>
struct adapt_literal {
  using type = A;
};
template <class A, class B>
  requires(literal_node_type<A> && !literal_node_type<B> &&
           element_type<value_type_of<B>> && !std::is_same_v<value_type_of<A>, value_type_of<B>>)
struct adapt_literal<A, B> {
  // As TensorFlow refuses `int_tensor + 2.5`, a literal must convert exactly.
  static_assert(literal_must_convert_exactly<A::value_as_written, value_type_of<B>>::value,
                "a literal operand must convert exactly to the other operand's element type "
                "(TensorFlow refuses int + 2.5): write it in that type, or cast the node");
  using type = typename A::template as<value_type_of<B>>;
};
}  // namespace ops::detail

/// Builds the node of a binary elementwise op, checking element types and shapes.
/// After a failed check it returns a node of a valid type, so only one error shows.
template <class Fn, class A, class B>
constexpr auto make_binary(const A& a, const B& b) {
  using LA = typename ops::detail::adapt_literal<A, B>::type;
  using LB = typename ops::detail::adapt_literal<B, A>::type;
  constexpr bool same_type = operands_must_have_the_same_element_type<value_type_of<LA>, value_type_of<LB>>::value;
  static_assert(operands_must_have_the_same_element_type<value_type_of<LA>, value_type_of<LB>>::value,
                "the operands of an elementwise op must have the same element type: convert one "
                "with typeflow::cast<T>(x)");
  constexpr bool shapes_ok = shapes_must_be_broadcast_compatible<shape_of<LA>, shape_of<LB>>::value;
  static_assert(shapes_must_be_broadcast_compatible<shape_of<LA>, shape_of<LB>>::value,
                "the operands' static shapes are not compatible for broadcasting (numpy rules: "
                "trailing dimensions must be equal or 1)");
  if constexpr (same_type && shapes_ok) {
    return make_node<elementwise_node<Fn, LA, LB>>(a, b);
  } else {
    return elementwise_node<Fn, LA, LA>{};  // inert: the error above is the one to read
  }
}

template <class Fn, class A>
constexpr auto make_unary(const A& a) {
  return make_node<elementwise_node<Fn, A>>(a);
}

}  // namespace typeflow
