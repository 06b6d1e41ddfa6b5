// typeflow/autodiff/gradients.hpp — tf.gradients, derived from the graph's type.
//
// The gradient of y with respect to a node n is the sum, over the consumers c of n on
// y's computation path, of c's gradient rule applied to the gradient of c. Each
// `gradient_of<Ctx, N>` is a class template instantiation, so the compiler memoizes it:
// every node's gradient is built once, and only for nodes on a path from a requested x
// to y. Consumers are found with builtin type identity over the path, never with
// per-node set unions (DESIGN, compile-time rules).
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/autodiff/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/graph/traverse.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/broadcast_gradient.hpp"
#include "typeflow/ops/constant.hpp"

namespace typeflow {

/// In a diagnostic: the op, on the path from x to y, that has no gradient rule.
template <fixed_string OpName>
struct op_has_no_gradient_rule {
  static constexpr bool value = false;
};

/// In a diagnostic: the initial gradient's shape differs from y's.
template <class YShape, class GradYShape>
struct initial_gradient_must_have_the_shape_of_y {
  static constexpr bool value = false;
};

/// `grad_ys(y, gy)`: differentiate y with gy as the initial gradient (TensorFlow's
/// grad_ys), for a non-scalar y. Pass it to gradients() in place of y.
template <class Y, class GY>
struct grad_ys_t {
  Y y;  // the nodes, for what they carry (core/definition.hpp)
  GY gy;
};

template <node Y, node GY>
constexpr grad_ys_t<Y, GY> grad_ys(const Y& y, const GY& gy) {
  if constexpr (!std::is_same_v<shape_of<Y>, shape_of<GY>>) {
    static_assert(initial_gradient_must_have_the_shape_of_y<shape_of<Y>, shape_of<GY>>::value,
                  "typeflow::grad_ys(y, gy): gy must have the shape of y");
  }
  static_assert(std::is_same_v<value_type_of<Y>, value_type_of<GY>>,
                "typeflow::grad_ys(y, gy): gy must have the element type of y");
  return {y, gy};
}

namespace autodiff {

namespace detail {

template <class Y, class Seed>
struct context {
  using y = Y;
  using seed = Seed;
  using order = graph::path_order<mp::mp_list<Y>, mp::mp_list<>>;
};

template <class Ctx, class N>
struct gradient_of;

template <class C>
inline constexpr bool has_gradient_rule = requires { requires bool(C::differentiable); };

// Consumers of N on the path: nodes having N among their inputs.
template <class N>
struct consumes {
  template <class C>
  using fn = std::bool_constant<contains_v<inputs_of<C>, N>>;
};

template <class A, class B>
struct add_gradients_impl {
  using type = elementwise_node<fn::add, A, B>;
};
template <class B>
struct add_gradients_impl<no_gradient, B> {
  using type = B;
};
template <class A>
struct add_gradients_impl<A, no_gradient> {
  using type = A;
};
template <>
struct add_gradients_impl<no_gradient, no_gradient> {
  using type = no_gradient;
};
template <class A, class B>
using add_gradients = typename add_gradients_impl<A, B>::type;

template <class C, class K, class G>
using input_gradient_q = input_gradient<C, K::value, G>;

// The contributions of consumer C to input N: one per input slot of C that holds N.
template <class Ctx, class C, class N>
struct contribution {
  template <class K>
  using one = mp::mp_eval_if_c<!std::is_same_v<mp::mp_at<inputs_of<C>, K>, N>, no_gradient,
                               input_gradient_q, C, K, typename gradient_of<Ctx, C>::type>;

  static auto pick() {
    // No gradient reaches C (a stop_gradient after it): C's rule is not needed.
    if constexpr (is_no_gradient<typename gradient_of<Ctx, C>::type>) {
      return mp::mp_identity<no_gradient>{};
    } else if constexpr (!has_gradient_rule<C>) {
      static_assert(op_has_no_gradient_rule<op_name_as_fixed<C>::value>::value,
                    "typeflow::gradients(y, x...): an op on the path from x to y has no gradient "
                    "rule; stop the gradient before it with typeflow::stop_gradient");
      return mp::mp_identity<no_gradient>{};
    } else {
      using parts = mp::mp_transform<one, mp::mp_iota<mp::mp_size<inputs_of<C>>>>;
      return mp::mp_identity<mp::mp_fold<parts, no_gradient, add_gradients>>{};
    }
  }
  using type = typename decltype(pick())::type;
};

template <class Ctx, class N>
struct gradient_of {
  template <class C>
  using contribution_of = typename contribution<Ctx, C, N>::type;
  using consumers = mp::mp_copy_if_q<typename Ctx::order, consumes<N>>;
  using type = mp::mp_fold<mp::mp_transform<contribution_of, consumers>, no_gradient, add_gradients>;
};

template <class Y, class Seed>
struct gradient_of<context<Y, Seed>, Y> {
  using type = Seed;
};

template <class Y>
struct seed_of {  // ones: the gradient of y with respect to itself (tf.ones_like(y))
  using type = mp::mp_if_c<shape_of<Y>::rank == 0, literal_node<1, value_type_of<Y>>,
                           elementwise_node<fn::one, Y>>;
};

template <class Y>
struct target {
  using y = Y;
  using seed = typename seed_of<Y>::type;
};
template <class Y, class GY>
struct target<grad_ys_t<Y, GY>> {
  using y = Y;
  using seed = GY;
};

// Zeros of x's shape; for a static shape without reading x (which need not be fed).
template <class X>
using zeros_for = mp::mp_if_c<shape_of<X>::is_static, zeros_node<value_type_of<X>, shape_of<X>>,
                              elementwise_node<fn::zero, X>>;
template <class G, class X>
using or_zeros = mp::mp_if_c<is_no_gradient<G>, zeros_for<X>, G>;

}  // namespace detail

/// The gradient node of y with respect to x (zeros of x's shape when no path joins them).
template <class Y, class X>
using gradient_t = detail::or_zeros<
    typename detail::gradient_of<detail::context<typename detail::target<Y>::y, typename detail::target<Y>::seed>,
                                 X>::type,
    X>;

}  // namespace autodiff

/// The gradient of y with respect to one x.
template <class Y, node X>
constexpr autodiff::gradient_t<Y, X> gradient(const Y& y, const X& x) {
  if constexpr (node<Y>) {
    return make_node<autodiff::gradient_t<Y, X>>(y, x);
  } else {
    return make_node<autodiff::gradient_t<Y, X>>(y.y, y.gy, x);
  }
}

/// `gradients(y, x1, x2)` is tf.gradients(y, [x1, x2]): a std::tuple of gradient nodes,
/// each of its x's shape. They are ordinary nodes: fetch them, use them in expressions,
/// differentiate them again. Where no path joins x to y the gradient is zeros of x's
/// shape (TensorFlow gives None). y may be grad_ys(y, gy) for a non-scalar y; a
/// non-scalar y alone is differentiated as the sum of its elements, like TensorFlow.
template <class Y, node... X>
constexpr auto gradients(const Y& y, const X&... x) {
  static_assert(node<Y> || requires { typename autodiff::detail::target<Y>::seed; },
                "typeflow::gradients(y, x...): y must be a node or typeflow::grad_ys(y, gy)");
  return std::tuple<autodiff::gradient_t<Y, X>...>{gradient(y, x)...};
}

}  // namespace typeflow
