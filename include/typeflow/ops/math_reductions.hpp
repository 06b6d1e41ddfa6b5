// typeflow/ops/math_reductions.hpp — tf.add_n, tf.reduce_logsumexp, tf.reduce_prod,
// tf.reduce_all, tf.reduce_any, tf.count_nonzero and tf.nn.l2_normalize.
//
// add_n is an elementwise node of any arity. reduce_logsumexp, count_nonzero and
// l2_normalize are composed from existing nodes the way TensorFlow 1.x composes them
// (math_ops.py, nn_impl.py), so their gradients are those of the parts. reduce_prod,
// reduce_all and reduce_any are reductions of ops/reduce.hpp with their own kind tags;
// reduce_prod's gradient is TensorFlow's _ProdGrad (g times the product of the other
// elements of the slice, zeros included), reduce_all's and reduce_any's is none.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/broadcast_gradient.hpp"
#include "typeflow/ops/compare.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/elementwise.hpp"
#include "typeflow/ops/math.hpp"
#include "typeflow/ops/math_functions.hpp"
#include "typeflow/ops/reduce.hpp"
#include "typeflow/ops/select.hpp"

namespace typeflow {

// --- add_n ------------------------------------------------------------------------------

namespace fn {
/// a + b + ... of equal shapes (TensorFlow's AddN): the gradient is g for each input.
struct add_n : op_info<"AddN"> {
  template <class T, class... U> constexpr T operator()(T a, U... b) const { return (a + ... + b); }
  template <std::size_t K, class G, class Self, class... In>
  using gradient = sum_to_t<G, mp::mp_at_c<mp::mp_list<In...>, K>>;
};
}  // namespace fn

/// In a diagnostic: the static shapes of the inputs of an add_n, which are not all one shape.
template <class... Shapes>
struct add_n_inputs_must_have_the_same_shape {
  static constexpr bool value = false;
};
/// In a diagnostic: the element types of the inputs of an add_n, not all one number type.
template <class... ElementTypes>
struct add_n_inputs_must_have_one_number_element_type {
  static constexpr bool value = false;
};

/// tf.add_n([a, b, ...]) (op AddN): the sum of inputs of one shape and one number element
/// type, without broadcasting. One input is returned as it is, as TensorFlow does.
template <node A, node... B>
constexpr auto add_n(const A& a, const B&... b) {
  using T = value_type_of<A>;
  if constexpr (!((std::is_same_v<T, value_type_of<B>> && ...) && op_needs_a_number_operand<T>::value)) {
    static_assert(add_n_inputs_must_have_one_number_element_type<value_type_of<A>, value_type_of<B>...>::value,
                  "typeflow::add_n(a, b, ...): the inputs must have one element type, a number (not bool): "
                  "convert with typeflow::cast<T>(x)");
    return a;  // inert: the error above is the one to read
  } else if constexpr (!(ops::detail::same_shape_possible<shape_of<A>, shape_of<B>>() && ...)) {
    static_assert(add_n_inputs_must_have_the_same_shape<shape_of<A>, shape_of<B>...>::value,
                  "typeflow::add_n(a, b, ...): the inputs must have the same shape (AddN does not broadcast)");
    return a;
  } else if constexpr (sizeof...(B) == 0) {
    return a;
  } else {
    return make_node<elementwise_node<fn::add_n, A, B...>>(a, b...);
  }
}

// --- reduce_prod, reduce_all, reduce_any ------------------------------------------------

template <class A, std::ptrdiff_t... Axes>
struct prod_others_node;

namespace ops::detail {
/// Product: starts at 1. Its gradient (TensorFlow's _ProdGrad): g broadcast back, times the
/// product of the other elements of each element's slice.
struct prod_tag : op_info<"Prod"> {
  static constexpr bool mean = false;
  template <class T>
  static constexpr T start() { return T(1); }
  template <class T>
  static constexpr void join(T& acc, T x) { acc *= x; }
  template <class G, class A, class Y, bool Keep, std::ptrdiff_t... Axes>
  using gradient = ew<fn::mul, reduce_gradient_node<sum_tag, G, A, Axes...>, prod_others_node<A, Axes...>>;
};

/// All and any of bool: no gradient flows, as TensorFlow registers none.
template <fixed_string OpName, bool All>
struct logical_reduction : op_info<OpName> {
  static constexpr bool mean = false;
  template <class T>
  static constexpr T start() { return T(All); }
  template <class T>
  static constexpr void join(T& acc, T x) { acc = All ? (acc && x) : (acc || x); }
  template <class G, class A, class Y, bool Keep, std::ptrdiff_t... Axes>
  using gradient = no_gradient;
};
struct all_tag : logical_reduction<"All", true> {};
struct any_tag : logical_reduction<"Any", false> {};

/// Per-slice running products of a reduction's layout: a buffer of the reduced size, on the
/// stack when that size is static.
template <class T, class S, bool Static = S::is_static>
struct slice_scratch {
  std::vector<T> v;
  T* data(std::size_t n) { v.assign(n, T(1)); return v.data(); }
};
template <class T, class S>
struct slice_scratch<T, S, true> {
  static constexpr std::size_t size = [] {
    std::size_t n = 1;
    for (std::size_t i = 0; i < S::rank; ++i) n *= std::size_t(S::dims[i]);
    return n == 0 ? 1 : n;
  }();
  std::array<T, size> v;
  T* data(std::size_t n) { for (std::size_t i = 0; i < n; ++i) v[i] = T(1); return v.data(); }
};
}  // namespace ops::detail

/// The product of the other elements of each element's slice of a reduce_prod over Axes,
/// computed as TensorFlow's _ProdGrad does, as the product of the exclusive cumulative
/// products from the left and from the right (in row-major order within the slice): one zero
/// in a slice gives the product of the others there and 0 elsewhere; two give 0 everywhere.
/// It has no gradient rule: reduce_prod is differentiable once (a second derivative is a
/// compile error naming "ProdGrad").
template <class A, std::ptrdiff_t... Axes>
struct prod_others_node : node_facade<value_type_of<A>, shape_of<A>, node_kind::compute, A>,
                          op_info<"ProdGrad", false> {
  template <class... N>
  using rebind = prod_others_node<N..., Axes...>;

  template <class Out, class VA>
  static void compute(Out& out, const VA& a) {
    using T = value_type_of<A>;
    constexpr std::size_t r = shape_of<A>::rank;
    if constexpr (r == 0) {
      out = T(1);
    } else {
      if constexpr (!shape_of<A>::is_static) out.resize(a.shape());
      constexpr auto mask = ops::detail::reduced_mask<r, Axes...>();
      const auto& dims = a.shape();
      const auto [stride, count] = ops::detail::reduction_layout_of(mask, dims);
      std::size_t slices = 1;
      for (std::size_t i = 0; i < r; ++i) slices *= mask[i] ? 1 : std::size_t(dims[i]);
      using reduced = typename ops::detail::reduced_shape<shape_of<A>, true, Axes...>::type;
      ops::detail::slice_scratch<T, reduced> scratch;
      T* acc = scratch.data(slices);
      // From the left: each element gets the product of those before it in its slice.
      auto o = out.begin();
      ops::detail::for_each_strided(a.begin(), a.end(), dims, stride, [&](const auto& x, std::size_t k) {
        *o++ = acc[k];
        acc[k] *= T(x);
      });
      // From the right: times the product of those after it, walking the indices backwards.
      for (std::size_t k = 0; k < slices; ++k) acc[k] = T(1);
      const std::size_t n = a.size();
      if (n == 0) return;
      std::array<std::size_t, r> idx{};
      std::size_t k = 0;
      for (std::size_t d = 0; d < r; ++d) {
        idx[d] = std::size_t(dims[d]) - 1;
        k += idx[d] * stride[d];
      }
      T* op = out.data();
      const auto* ap = a.data();
      for (std::size_t i = n; i-- > 0;) {
        op[i] *= acc[k];
        acc[k] *= T(ap[i]);
        for (std::size_t d = r; d-- > 0;) {  // the previous row-major index
          if (idx[d] > 0) {
            --idx[d];
            k -= stride[d];
            break;
          }
          idx[d] = std::size_t(dims[d]) - 1;
          k += stride[d] * idx[d];
        }
      }
      (void)count;
    }
  }
};

/// In a diagnostic: the element type of a reduce_all or reduce_any input, which is not bool.
template <class T>
struct reduce_all_and_reduce_any_need_a_bool_input {
  static constexpr bool value = std::is_same_v<T, bool>;
};

#define TYPEFLOW_MATH_REDUCTION(name, tag, check, message)                                     \
  template <std::ptrdiff_t... Axes, node A>                                                     \
  constexpr auto name(const A& a) {                                                             \
    static_assert(check<value_type_of<A>>::value, message);                                     \
    static_assert(ops::detail::axes_valid<shape_of<A>::rank, Axes...>(),                        \
                  "typeflow::" #name "<axes...>(x): each axis must be in [-rank, rank), once");  \
    return make_node<reduce_node<ops::detail::tag, A, false, Axes...>>(a);                      \
  }                                                                                             \
  template <std::ptrdiff_t... Axes, node A>                                                     \
  constexpr auto name(const A& a, keep_dims_t) {                                                \
    static_assert(check<value_type_of<A>>::value, message);                                     \
    static_assert(ops::detail::axes_valid<shape_of<A>::rank, Axes...>(),                        \
                  "typeflow::" #name "<axes...>(x): each axis must be in [-rank, rank), once");  \
    return make_node<reduce_node<ops::detail::tag, A, true, Axes...>>(a);                       \
  }

/// `reduce_prod(x)`, `reduce_prod<axes...>(x)`, `reduce_prod<axes...>(x, keep_dims)`: tf.reduce_prod
/// (op Prod), as reduce_sum. The product of no elements is 1.
TYPEFLOW_MATH_REDUCTION(reduce_prod, prod_tag, op_needs_a_number_operand,
                        "typeflow::reduce_prod(x) needs a number x (float, double, int32 or int64)")
/// tf.reduce_all, tf.reduce_any (ops All, Any) of a bool x. Of no elements: true, false.
TYPEFLOW_MATH_REDUCTION(reduce_all, all_tag, reduce_all_and_reduce_any_need_a_bool_input,
                        "typeflow::reduce_all(x) needs a bool x: compare first (x > 0)")
TYPEFLOW_MATH_REDUCTION(reduce_any, any_tag, reduce_all_and_reduce_any_need_a_bool_input,
                        "typeflow::reduce_any(x) needs a bool x: compare first (x > 0)")
#undef TYPEFLOW_MATH_REDUCTION

// --- count_nonzero ----------------------------------------------------------------------

/// tf.count_nonzero(x, axis, keepdims) with its default dtype int64: reduce_sum of
/// cast<int64>(x != 0), as TensorFlow composes it (ops NotEqual, Cast, Sum). No gradient.
template <std::ptrdiff_t... Axes, node A>
constexpr auto count_nonzero(const A& a) {
  return reduce_sum<Axes...>(cast<std::int64_t>(not_equal(a, constant<0>())));
}
template <std::ptrdiff_t... Axes, node A>
constexpr auto count_nonzero(const A& a, keep_dims_t) {
  return reduce_sum<Axes...>(cast<std::int64_t>(not_equal(a, constant<0>())), keep_dims);
}

// --- reduce_logsumexp -------------------------------------------------------------------

namespace fn {
/// x where it is finite, else 0 (TensorFlow's where(is_finite(m), m, zeros_like(m)) in
/// reduce_logsumexp, whose outer op is a Select). Used under stop_gradient only.
struct finite_or_zero : op_info<"Select"> {
  template <class T> T operator()(T a) const { return std::isfinite(a) ? a : T(0); }
  template <std::size_t K, class G, class Self, class A>
  using gradient = no_gradient;
};
}  // namespace fn

namespace ops::detail {
/// TensorFlow 1.x's reduce_logsumexp: m = stop_gradient(where(is_finite(max), max, 0)),
/// log(reduce_sum(exp(x - m))) + m. The gradient, through the parts, is g softmax(x).
template <bool Keep, std::ptrdiff_t... Axes, class A>
constexpr auto logsumexp(const A& x) {
  const auto m = stop_gradient(make_unary<fn::finite_or_zero>(reduce_max<Axes...>(x, keep_dims)));
  if constexpr (Keep) {
    return log(reduce_sum<Axes...>(exp(x - m), keep_dims)) + m;
  } else {
    // m without the reduced dims (of size 1): summing over them drops them.
    return log(reduce_sum<Axes...>(exp(x - m))) + reduce_sum<Axes...>(m);
  }
}
}  // namespace ops::detail

/// `reduce_logsumexp(x)`, `reduce_logsumexp<axes...>(x)`, `reduce_logsumexp<axes...>(x, keep_dims)`:
/// tf.reduce_logsumexp, log(sum(exp(x))) computed stably (the largest finite element
/// subtracted first). Float or double.
template <std::ptrdiff_t... Axes, node A>
constexpr auto reduce_logsumexp(const A& a) {
  static_assert(op_needs_a_floating_point_operand<value_type_of<A>>::value,
                "typeflow::reduce_logsumexp(x) needs a float or double x: use typeflow::cast<float>(x)");
  static_assert(ops::detail::axes_valid<shape_of<A>::rank, Axes...>(),
                "typeflow::reduce_logsumexp<axes...>(x): each axis must be in [-rank, rank), once");
  return ops::detail::logsumexp<false, Axes...>(a);
}
template <std::ptrdiff_t... Axes, node A>
constexpr auto reduce_logsumexp(const A& a, keep_dims_t) {
  static_assert(op_needs_a_floating_point_operand<value_type_of<A>>::value,
                "typeflow::reduce_logsumexp(x) needs a float or double x: use typeflow::cast<float>(x)");
  static_assert(ops::detail::axes_valid<shape_of<A>::rank, Axes...>(),
                "typeflow::reduce_logsumexp<axes...>(x): each axis must be in [-rank, rank), once");
  return ops::detail::logsumexp<true, Axes...>(a);
}

// --- l2_normalize -----------------------------------------------------------------------

/// tf.nn.l2_normalize(x, axis, epsilon): x * rsqrt(maximum(reduce_sum(square(x), axis,
/// keepdims=True), epsilon)), as TensorFlow composes it. `l2_normalize<axes...>(x)` uses
/// TensorFlow's epsilon 1e-12; `l2_normalize<axes...>(x, eps)` takes a scalar node
/// (`typeflow::constant<1e-6>()`, or a placeholder). Without axes: over every axis
/// (TensorFlow's axis=None). Float or double.
template <std::ptrdiff_t... Axes, node A, node E>
constexpr auto l2_normalize(const A& x, const E& epsilon) {
  static_assert(op_needs_a_floating_point_operand<value_type_of<A>>::value,
                "typeflow::l2_normalize(x) needs a float or double x: use typeflow::cast<float>(x)");
  static_assert(ops::detail::axes_valid<shape_of<A>::rank, Axes...>(),
                "typeflow::l2_normalize<axes...>(x): each axis must be in [-rank, rank), once");
  static_assert(shape_of<E>::rank == 0, "typeflow::l2_normalize<axes...>(x, epsilon): epsilon must be a scalar");
  return x * rsqrt(maximum(reduce_sum<Axes...>(square(x), keep_dims), epsilon));
}
template <std::ptrdiff_t... Axes, node A>
constexpr auto l2_normalize(const A& x) {
  return l2_normalize<Axes...>(x, constant<1e-12>());
}

}  // namespace typeflow
