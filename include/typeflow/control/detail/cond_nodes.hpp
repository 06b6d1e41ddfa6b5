// typeflow/control/detail/cond_nodes.hpp — the nodes tf.cond (control/cond.hpp) adds to the
// branches' loops: cond_merge_node, TensorFlow's Merge, which takes the value of the loop that
// ran, and its gradient cond_switch_node, TensorFlow's Switch in the gradient graph, which
// hands the taken loop the gradient and the other zeros for no step. A result of static
// shape is a final state of its loop; one of a dynamic first dim (Stacked) is the one step of
// its loop's stacked outputs.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <type_traits>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/control/detail/loop_body.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"

namespace typeflow {


namespace control::detail {

/// out (of shape S) = v, resized to v's dims; or, Stacked, v's one step ([1, S's dims...],
/// a loop's stacked outputs).
template <bool Stacked, class S, class Out, class V>
void copy_result(Out& out, const V& v) {
  if constexpr (std::is_arithmetic_v<Out>) {
    out = *ops::detail::data_ptr(v);
  } else {
    const auto vd = ops::detail::dims_of<S::rank + (Stacked ? 1 : 0)>(v);
    std::array<std::size_t, S::rank> d{};
    for (std::size_t i = 0; i < S::rank; ++i) d[i] = vd[i + (Stacked ? 1 : 0)];
    ops::detail::resize_unless_static<S::is_static>(out, d);
    std::copy_n(ops::detail::data_ptr(v), out.size(), out.data());
  }
}

/// out (of shape S) = g; or, Stacked, g as one step ([1, g's dims...]).
template <bool Stacked, class S, class Out, class V>
void copy_gradient(Out& out, const V& g) {
  if constexpr (std::is_arithmetic_v<Out>) {
    out = g;
  } else {
    const auto gd = ops::detail::dims_of<S::rank - (Stacked ? 1 : 0)>(g);
    std::array<std::size_t, S::rank> d{};
    if constexpr (Stacked) d[0] = 1;
    for (std::size_t i = 0; i < gd.size(); ++i) d[i + (Stacked ? 1 : 0)] = gd[i];
    ops::detail::resize_unless_static<S::is_static>(out, d);
    std::copy_n(ops::detail::data_ptr(g), out.size(), out.data());
  }
}

/// out = zeros of like's dims.
template <class S, class Out, class V>
void zeros_like_value(Out& out, const V& like) {
  if constexpr (std::is_arithmetic_v<Out>) {
    out = Out(0);
  } else {
    ops::detail::resize_unless_static<S::is_static>(out, ops::detail::dims_of<S::rank>(like));
    std::fill(out.begin(), out.end(), typename Out::value_type(0));
  }
}

template <bool Stacked, class S>
struct merged_shape {
  using type = S;
};
template <class S>
struct merged_shape<true, S> {
  using type = typename step_shape<S>::type;
};

}  // namespace control::detail

template <bool Stacked, bool Then, class S, class C, class G, class X>
struct cond_switch_node;

namespace control::detail {
/// The gradient of a cond_switch_node with respect to its cotangent: the same selection (a
/// final state's), or none declared for a stacked output's (a loop's gradient, on every path
/// through it, is not differentiated again).
template <bool Stacked, bool Then, class C, class G>
struct switch_gradient {
  template <std::size_t K, class GG>
  using gradient = mp::mp_if_c<K == 1, cond_switch_node<false, Then, shape_of<G>, C, GG, G>, no_gradient>;
};
template <bool Then, class C, class G>
struct switch_gradient<true, Then, C, G> {};
}  // namespace control::detail

/// The gradient that a branch's loop receives for its final state, or (Stacked) for its
/// stacked outputs, X: G (as one step when Stacked) when pred C is Then, the branch ran; else
/// zeros of X's run-time dims (the loop ran no step). TensorFlow's Switch, in cond's gradient
/// graph.
template <bool Stacked, bool Then, class S, class C, class G, class X>
struct cond_switch_node : node_facade<value_type_of<G>, S, node_kind::compute, C, G, X>,
                          op_info<"Switch">,
                          control::detail::switch_gradient<Stacked, Then, C, G> {
  template <class... N>
  using rebind = cond_switch_node<Stacked, Then, S, N...>;

  template <class Out, class VC, class VG, class VX>
  static void compute(Out& out, const VC& c, const VG& g, const VX& x) {
    if (static_cast<bool>(c) == Then)
      control::detail::copy_gradient<Stacked, S>(out, g);
    else
      control::detail::zeros_like_value<S>(out, x);
  }
};

/// A result of cond: the final state A of the true branch's loop when pred C holds, B of the
/// false branch's otherwise; or (Stacked) the one step of the loop's stacked outputs A or B
/// (a result with a dynamic first dim). TensorFlow's Merge: the value of the branch that ran.
template <bool Stacked, class C, class A, class B>
struct cond_merge_node : node_facade<value_type_of<A>, typename control::detail::merged_shape<Stacked, shape_of<A>>::type,
                                     node_kind::compute, C, A, B>,
                         op_info<"Merge"> {
  template <class... N>
  using rebind = cond_merge_node<Stacked, N...>;
  template <std::size_t K, class G>
  using gradient =
      mp::mp_if_c<K == 0, no_gradient,
                  cond_switch_node<Stacked, K == 1, shape_of<A>, C, G, mp::mp_at_c<mp::mp_list<C, A, B>, K>>>;

  template <class Out, class VC, class VA, class VB>
  static void compute(Out& out, const VC& c, const VA& a, const VB& b) {
    using S = shape_of<cond_merge_node>;
    if (static_cast<bool>(c))
      control::detail::copy_result<Stacked, S>(out, a);
    else
      control::detail::copy_result<Stacked, S>(out, b);
  }
};

}  // namespace typeflow
