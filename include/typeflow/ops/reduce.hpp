// typeflow/ops/reduce.hpp — tf.reduce_sum, tf.reduce_mean, tf.reduce_max and tf.reduce_min
// over all or given axes.
//
// Reductions are always materialized into a buffer, never fused lazily into another
// expression: xtensor 0.24.3 computes wrong values for a lazy keep_dims reducer inside a
// broadcasting expression (see tests/pitfall_keepdims_test.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <limits>
#include <type_traits>

#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/arithmetic.hpp"

namespace typeflow {

/// Pass as the last argument to keep reduced dimensions with size 1 (keepdims=True).
struct keep_dims_t {};
inline constexpr keep_dims_t keep_dims{};

namespace ops::detail {

template <std::size_t R, std::ptrdiff_t... Axes>
constexpr std::array<bool, R> reduced_mask() {
  std::array<bool, R> m{};
  if constexpr (sizeof...(Axes) == 0) {
    for (auto& b : m) b = true;
  } else {
    for (std::ptrdiff_t a : {Axes...}) {
      const std::ptrdiff_t n = a < 0 ? a + std::ptrdiff_t(R) : a;
      if (n >= 0 && n < std::ptrdiff_t(R)) m[static_cast<std::size_t>(n)] = true;  // else reported elsewhere
    }
  }
  return m;
}

template <std::size_t R, std::ptrdiff_t... Axes>
constexpr bool axes_valid() {
  std::array<bool, R> seen{};
  for (std::ptrdiff_t a : std::initializer_list<std::ptrdiff_t>{Axes...}) {
    const std::ptrdiff_t n = a < 0 ? a + std::ptrdiff_t(R) : a;
    if (n < 0 || n >= std::ptrdiff_t(R) || seen[std::size_t(n)]) return false;
    seen[std::size_t(n)] = true;
  }
  return true;
}

template <class S, bool Keep, std::ptrdiff_t... Axes>
struct reduced_shape {
  static constexpr auto mask = reduced_mask<S::rank, Axes...>();
  static constexpr std::size_t out_rank = [] {
    std::size_t n = 0;
    for (std::size_t i = 0; i < S::rank; ++i) n += Keep || !mask[i];
    return n;
  }();
  static constexpr auto dims = [] {
    std::array<std::ptrdiff_t, out_rank> d{};
    std::size_t j = 0;
    for (std::size_t i = 0; i < S::rank; ++i) {
      if (mask[i]) {
        if (Keep) d[j++] = 1;
      } else {
        d[j++] = S::dims[i];
      }
    }
    return d;
  }();
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>) -> shape<dims[I]...>;
  using type = decltype(make(std::make_index_sequence<out_rank>{}));
};

/// Where the elements of an array of shape `dims` go in its reduction over the axes of
/// `mask`: each axis's stride in the reduced buffer (0 along a reduced axis, whose elements
/// meet) and how many elements meet in each reduced one. A reduction and its gradient (a
/// broadcast back) walk the same layout, one gathering, the other scattering.
template <std::size_t R>
struct reduction_layout {
  std::array<std::size_t, R> stride;
  std::size_t count;
};
template <std::size_t R, class Dims>
reduction_layout<R> reduction_layout_of(const std::array<bool, R>& mask, const Dims& dims) {
  reduction_layout<R> layout{{}, 1};
  std::size_t s = 1;
  for (std::size_t i = R; i-- > 0;) {
    layout.stride[i] = mask[i] ? 0 : s;
    (mask[i] ? layout.count : s) *= dims[i];
  }
  return layout;
}

/// f(x, k) for each element x of [first, last), in the row-major order of shape `dims`,
/// with k the offset of its index in a buffer of strides `stride`.
template <std::size_t R, class It, class Dims, class F>
void for_each_strided(It first, It last, const Dims& dims, const std::array<std::size_t, R>& stride, F f) {
  std::array<std::size_t, R> idx{};
  std::size_t k = 0;
  for (; first != last; ++first) {
    f(*first, k);
    for (std::size_t d = R; d-- > 0;) {  // the next row-major index
      k += stride[d];
      if (++idx[d] < dims[d]) break;
      k -= stride[d] * idx[d];
      idx[d] = 0;
    }
  }
}

}  // namespace ops::detail

template <class Kind, class A, bool Keep, std::ptrdiff_t... Axes>
struct reduce_node;
template <class Kind, class G, class A, std::ptrdiff_t... Axes>
struct reduce_gradient_node;
template <class A, class Y, std::ptrdiff_t... Axes>
struct extremum_indicator_node;
template <class G, class I, class C, std::ptrdiff_t... Axes>
struct extremum_gradient_node;

namespace ops::detail {

// What a reduction does, named by the reduction alone: its op, where an accumulator starts,
// how an element joins it, whether the result is divided by the count (a mean), and its
// gradient rule given the reduction node Y over A. Self is the tag itself, so that the
// nodes its gradient builds name the same short tag as the user's.

/// Sum and mean: start at 0 and add; the gradient broadcasts g back (divided by the count
/// for a mean).
template <class Self, fixed_string OpName, bool Mean>
struct additive_reduction : op_info<OpName> {
  static constexpr bool mean = Mean;
  template <class T>
  static constexpr T start() { return T(0); }
  template <class T>
  static constexpr void join(T& acc, T x) { acc += x; }
  template <class G, class A, class Y, bool Keep, std::ptrdiff_t... Axes>
  using gradient = reduce_gradient_node<Self, G, A, Axes...>;
};
struct sum_tag : additive_reduction<sum_tag, "Sum", false> {};
struct mean_tag : additive_reduction<mean_tag, "Mean", true> {};

/// TensorFlow's gradient of reduce_max and reduce_min (_MinOrMaxGrad): g, divided evenly
/// among the elements equal to the extremum (ties share it), zero elsewhere.
template <class G, class A, class Y, bool Keep, std::ptrdiff_t... Axes>
struct extremum_gradient {
  using indicator = extremum_indicator_node<A, Y, Axes...>;
  using count = reduce_node<sum_tag, indicator, Keep, Axes...>;
  using type = extremum_gradient_node<G, indicator, count, Axes...>;
};

/// Max and min. The extremum of no elements is the identity of max (min): -inf (+inf) for
/// floating types, the lowest (highest) value for integers, as TensorFlow's. NaN propagates.
template <fixed_string OpName, bool Max>
struct extremum_reduction : op_info<OpName> {
  static constexpr bool mean = false;
  template <class T>
  static constexpr T start() {
    using limits = std::numeric_limits<T>;
    if constexpr (limits::has_infinity) return Max ? -limits::infinity() : limits::infinity();
    else return Max ? limits::lowest() : limits::max();
  }
  template <class T>
  static constexpr void join(T& acc, T x) {
    const bool better = Max ? !(x <= acc) : !(x >= acc);  // beyond acc, or x is NaN
    if (better && acc == acc) acc = x;                      // a NaN acc stays
  }
  template <class G, class A, class Y, bool Keep, std::ptrdiff_t... Axes>
  using gradient = typename extremum_gradient<G, A, Y, Keep, Axes...>::type;
};
struct max_tag : extremum_reduction<"Max", true> {};
struct min_tag : extremum_reduction<"Min", false> {};

/// The gradient buffer's scalar or element pointer: g's data, or the address of a scalar g.
template <class T, class VG>
const T* data_or_address(const VG& g) {
  if constexpr (std::is_arithmetic_v<VG>) {
    return &g;
  } else {
    return g.data();
  }
}

}  // namespace ops::detail

/// The gradient of a reduction: g (the reduced shape) broadcast back to a's shape,
/// divided by the number of reduced elements for a mean.
template <class Kind, class G, class A, std::ptrdiff_t... Axes>
struct reduce_gradient_node : node_facade<value_type_of<G>, shape_of<A>, node_kind::compute, G, A>,
                              op_info<"BroadcastTo"> {
  template <class... N>
  using rebind = reduce_gradient_node<Kind, N..., Axes...>;
  // Its own gradient is the reduction again (the transpose of a broadcast is a sum).
  template <std::size_t K, class GG>
  using gradient = mp::mp_if_c<K == 0, reduce_node<Kind, GG, shape_of<G>::rank == shape_of<A>::rank, Axes...>,
                               no_gradient>;

  template <class Out, class VG, class VA>
  static void compute(Out& out, const VG& g, const VA& a) {
    using T = value_type_of<G>;
    if constexpr (shape_of<A>::rank == 0) {
      out = g;
    } else {
      if constexpr (!shape_of<A>::is_static) out.resize(a.shape());
      constexpr auto mask = ops::detail::reduced_mask<shape_of<A>::rank, Axes...>();
      const auto [gstride, count] = ops::detail::reduction_layout_of(mask, a.shape());
      const T* gp = ops::detail::data_or_address<T>(g);
      const T scale = Kind::mean && count != 0 ? T(1) / static_cast<T>(count) : T(1);
      ops::detail::for_each_strided(out.begin(), out.end(), a.shape(), gstride,
                                    [&](auto& x, std::size_t k) { x = Kind::mean ? gp[k] * scale : gp[k]; });
    }
  }
};

template <class Kind, class A, bool Keep, std::ptrdiff_t... Axes>
struct reduce_node : node_facade<value_type_of<A>, typename ops::detail::reduced_shape<shape_of<A>, Keep, Axes...>::type,
                                 node_kind::compute, A>,
                     op_info_of<Kind> {
  template <class... N>
  using rebind = reduce_node<Kind, N..., Keep, Axes...>;

  template <std::size_t K, class G>
  using gradient = typename Kind::template gradient<G, A, reduce_node, Keep, Axes...>;

  template <class Out, class V>
  static void compute(Out& out, const V& a) {
    using T = value_type_of<A>;
    constexpr std::size_t r = shape_of<A>::rank;
    if constexpr (r == 0) {
      out = a;
    } else {
      const auto& in_shape = a.shape();
      constexpr auto mask = ops::detail::reduced_mask<r, Axes...>();
      const auto [ostride, reduced_count] = ops::detail::reduction_layout_of(mask, in_shape);
      T* o;
      T scalar_acc = Kind::template start<T>();
      if constexpr (std::is_arithmetic_v<Out>) {
        o = &scalar_acc;
      } else {
        if constexpr (!shape_of<reduce_node>::is_static) {
          std::array<std::size_t, shape_of<reduce_node>::rank> dims{};
          std::size_t j = 0;
          for (std::size_t i = 0; i < r; ++i)
            if (Keep || !mask[i]) dims[j++] = mask[i] ? 1 : in_shape[i];
          out.resize(dims);
        }
        o = out.data();
        std::fill(out.begin(), out.end(), Kind::template start<T>());
      }
      ops::detail::for_each_strided(a.begin(), a.end(), in_shape, ostride,
                                    [&](const auto& x, std::size_t k) { Kind::join(o[k], T(x)); });
      if constexpr (Kind::mean) {
        if (reduced_count != 0 || std::is_floating_point_v<T>) {  // 0 / 0 is NaN, as in TensorFlow
          if constexpr (std::is_arithmetic_v<Out>) {
            scalar_acc /= static_cast<T>(reduced_count);
          } else {
            for (auto& x : out) x /= static_cast<T>(reduced_count);
          }
        }
      }
      if constexpr (std::is_arithmetic_v<Out>) out = scalar_acc;
    }
  }
};

/// 1 where an element of A equals its reduction's extremum in Y, else 0 (TensorFlow's
/// cast(equal(y, x)) in _MinOrMaxGrad). Piecewise constant: no gradient flows through it.
template <class A, class Y, std::ptrdiff_t... Axes>
struct extremum_indicator_node : node_facade<value_type_of<A>, shape_of<A>, node_kind::compute, A, Y>,
                                 op_info<"Cast"> {
  template <class... N>
  using rebind = extremum_indicator_node<N..., Axes...>;
  template <std::size_t K, class G>
  using gradient = no_gradient;

  template <class Out, class VA, class VY>
  static void compute(Out& out, const VA& a, const VY& y) {
    using T = value_type_of<A>;
    if constexpr (shape_of<A>::rank == 0) {
      out = T(a == y);
    } else {
      if constexpr (!shape_of<A>::is_static) out.resize(a.shape());
      constexpr auto mask = ops::detail::reduced_mask<shape_of<A>::rank, Axes...>();
      const T* yp = ops::detail::data_or_address<T>(y);
      auto o = out.begin();
      ops::detail::for_each_strided(a.begin(), a.end(), a.shape(), ops::detail::reduction_layout_of(mask, a.shape()).stride,
                                    [&](const auto& x, std::size_t k) { *o++ = T(x == yp[k]); });
    }
  }
};

/// The gradient of reduce_max / reduce_min: I / C * g, with I the indicator of the extrema
/// (A's shape) and g and C (the number of extrema) broadcast back from the reduced shape;
/// TensorFlow's formula and order, so a slice whose extremum is NaN (no element equals it,
/// C = 0) gets NaN, as TensorFlow's 0 / 0.
template <class G, class I, class C, std::ptrdiff_t... Axes>
struct extremum_gradient_node : node_facade<value_type_of<G>, shape_of<I>, node_kind::compute, G, I, C>,
                                op_info<"Mul"> {
  template <class... N>
  using rebind = extremum_gradient_node<N..., Axes...>;
  // Linear in g: its transpose sums I * gg over the reduced axes and divides by C. The
  // indicator and the count are piecewise constant.
  template <std::size_t K, class GG>
  using gradient =
      mp::mp_if_c<K == 0,
                  ew<fn::div, reduce_node<ops::detail::sum_tag, ew<fn::mul, I, GG>, shape_of<G>::rank == shape_of<I>::rank, Axes...>, C>,
                  no_gradient>;

  template <class Out, class VG, class VI, class VC>
  static void compute(Out& out, const VG& g, const VI& ind, const VC& c) {
    using T = value_type_of<G>;
    if constexpr (shape_of<I>::rank == 0) {
      out = ind / c * g;
    } else {
      if constexpr (!shape_of<I>::is_static) out.resize(ind.shape());
      constexpr auto mask = ops::detail::reduced_mask<shape_of<I>::rank, Axes...>();
      const T* gp = ops::detail::data_or_address<T>(g);
      const T* cp = ops::detail::data_or_address<T>(c);
      auto o = out.begin();
      ops::detail::for_each_strided(ind.begin(), ind.end(), ind.shape(),
                                    ops::detail::reduction_layout_of(mask, ind.shape()).stride,
                                    [&](const auto& i, std::size_t k) { *o++ = i / cp[k] * gp[k]; });
    }
  }
};

#define TYPEFLOW_REDUCTION(name, tag)                                                         \
  template <std::ptrdiff_t... Axes, node A>                                                    \
  constexpr auto name(const A& a) {                                                            \
    static_assert(ops::detail::axes_valid<shape_of<A>::rank, Axes...>(),                       \
                  "typeflow::" #name "<axes...>(x): each axis must be in [-rank, rank), once"); \
    return make_node<reduce_node<ops::detail::tag, A, false, Axes...>>(a);                     \
  }                                                                                            \
  template <std::ptrdiff_t... Axes, node A>                                                    \
  constexpr auto name(const A& a, keep_dims_t) {                                               \
    static_assert(ops::detail::axes_valid<shape_of<A>::rank, Axes...>(),                       \
                  "typeflow::" #name "<axes...>(x): each axis must be in [-rank, rank), once"); \
    return make_node<reduce_node<ops::detail::tag, A, true, Axes...>>(a);                      \
  }

/// `reduce_sum(x)` sums every element; `reduce_sum<1>(x)` over axis 1;
/// `reduce_sum<1>(x, keep_dims)` keeps it with size 1. Likewise reduce_mean, reduce_max
/// and reduce_min.
TYPEFLOW_REDUCTION(reduce_sum, sum_tag)
TYPEFLOW_REDUCTION(reduce_mean, mean_tag)
TYPEFLOW_REDUCTION(reduce_max, max_tag)
TYPEFLOW_REDUCTION(reduce_min, min_tag)
#undef TYPEFLOW_REDUCTION

}  // namespace typeflow
