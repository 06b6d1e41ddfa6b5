// typeflow/autodiff/gradients.hpp — tf.gradients, derived from the graph's type.
//
// The gradient of y with respect to a node n is the sum, over the consumers c of n on
// y's computation path, of c's gradient rule applied to the gradient of c. Each
// `gradient_of<Ctx, N>` is a class template instantiation, so the compiler memoizes it:
// every node's gradient is built once, and only for nodes on a path from a requested x
// to y. The consumers of every node of y's path are found at once, in one pass over the
// path's edges (graph::path_structure::consumers), so building all gradients costs the size of
// the graph, not its square; never with per-node set unions (DESIGN, compile-time rules).
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/gradient_rule.hpp"
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
  using path = graph::path_structure<mp::mp_list<Y>, mp::mp_list<>>;
};

template <class Ctx, class N>
struct gradient_of;

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

// The sum of gradients G..., left to right (((G1 + G2) + G3) ...), no_gradient left out;
// no_gradient if none flows. A node's few consumers or input slots, never a graph's nodes.
//
// Here and below, pack expansions over a node's inputs and consumers, not mp11's
// algorithms: mp_at, mp_fold and mp_transform over lists that hold node types cost g++ 12
// about 100 KB each (mp_at builds a map of the list), 0.4 GB for the N = 800 chain.
template <class... G>
struct sum_of {
  using type = no_gradient;
};
template <class A>
struct sum_of<A> {
  using type = A;
};
template <class A, class B, class... R>
struct sum_of<A, B, R...> : sum_of<add_gradients<A, B>, R...> {};

// C's gradient rule for its input slot K, if that slot holds the input differentiated.
template <class C, std::size_t K, class G, bool Holds>
struct slot_gradient {
  using type = no_gradient;
};
template <class C, std::size_t K, class G>
struct slot_gradient<C, K, G, true> {
  using type = input_gradient<C, K, G>;
};

// The contributions of consumer C, whose gradient is G, to input N: one per input slot of
// C that holds N.
template <class C, class N, class G, class In = inputs_of<C>,
          class K = std::make_index_sequence<mp::mp_size<In>::value>>
struct slot_gradients;
template <class C, class N, class G, class... In, std::size_t... K>
struct slot_gradients<C, N, G, mp::mp_list<In...>, std::index_sequence<K...>> {
  using type = typename sum_of<typename slot_gradient<C, K, G, __is_same(In, N)>::type...>::type;
};

template <class C, class N, class G,
          int Case = __is_same(G, no_gradient) ? 0 : !differentiable<C> ? 1 : 2>
struct contribution_impl : slot_gradients<C, N, G> {};
// No gradient reaches C (a stop_gradient after it): C's rule is not needed.
template <class C, class N, class G>
struct contribution_impl<C, N, G, 0> {
  using type = no_gradient;
};
template <class C, class N, class G>
struct contribution_impl<C, N, G, 1> {
  static_assert(op_has_no_gradient_rule<op_name_as_fixed<C>::value>::value,
                "typeflow::gradients(y, x...): an op on the path from x to y has no gradient "
                "rule; stop the gradient before it with typeflow::stop_gradient");
  using type = no_gradient;
};
template <class Ctx, class C, class N>
using contribution = typename contribution_impl<C, N, typename gradient_of<Ctx, C>::type>::type;

// The gradient of N: the sum of its consumers' contributions, in the order of the path.
template <class Ctx, class N, class Consumers = typename Ctx::path::template consumers<N>>
struct gradient_sum;
template <class Ctx, class N, class... C>
struct gradient_sum<Ctx, N, mp::mp_list<C...>> {
  using type = typename sum_of<contribution<Ctx, C, N>...>::type;
};
template <class Ctx, class N>
struct gradient_of : gradient_sum<Ctx, N> {};

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

namespace detail {
// An integer (or bool) x gets no gradient, as in TensorFlow, whose backpropagation reaches
// only floating tensors from the xs (gradients_util._MarkReachedOps): zeros of x's shape
// where TensorFlow gives None, and y's graph is not differentiated at all.
template <class Y, class X, bool Floating = floating_element<value_type_of<X>>>
struct gradient_impl {
  using type = zeros_for<X>;
};
template <class Y, class X>
struct gradient_impl<Y, X, true> {
  using type =
      or_zeros<typename gradient_of<context<typename target<Y>::y, typename target<Y>::seed>, X>::type, X>;
};
}  // namespace detail

/// The gradient node of y with respect to x (zeros of x's shape when no path joins them,
/// or when x is not of a floating type).
template <class Y, class X>
using gradient_t = typename detail::gradient_impl<Y, X>::type;

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
/// differentiate them again. Where no path joins x to y, and for an integer or bool x, the
/// gradient is zeros of x's shape (TensorFlow gives None). y may be grad_ys(y, gy) for a non-scalar y; a
/// non-scalar y alone is differentiated as the sum of its elements, like TensorFlow.
template <class Y, node... X>
constexpr auto gradients(const Y& y, const X&... x) {
  static_assert(node<Y> || requires { typename autodiff::detail::target<Y>::seed; },
                "typeflow::gradients(y, x...): y must be a node or typeflow::grad_ys(y, gy)");
  // Built empty, then assigned: g++ 12 resolving std::tuple's constructor templates with
  // arguments of gradient node types takes time exponential in the graph's depth (20 s for
  // a 20-node chain, hours for 200); the default constructor and the assignments do not.
  std::tuple<autodiff::gradient_t<Y, X>...> g{};
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((std::get<I>(g) = gradient(y, x)), ...);
  }(std::index_sequence_for<X...>{});
  return g;
}

}  // namespace typeflow
