// typeflow/ops/reduce.hpp — tf.reduce_sum and tf.reduce_mean over all or given axes.
//
// Reductions are always materialized into a buffer, never fused lazily into another
// expression: xtensor 0.24.3 computes wrong values for a lazy keep_dims reducer inside a
// broadcasting expression (see tests/pitfall_keepdims_test.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <type_traits>

#include "typeflow/autodiff/gradient_rule.hpp"
#include "typeflow/core/node.hpp"

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

struct sum_tag : op_info<"Sum"> {
  static constexpr bool mean = false;
};
struct mean_tag : op_info<"Mean"> {
  static constexpr bool mean = true;
};

}  // namespace ops::detail

template <class Kind, class A, bool Keep, std::ptrdiff_t... Axes>
struct reduce_node;

/// The gradient of a reduction: g (the reduced shape) broadcast back to a's shape,
/// divided by the number of reduced elements for a mean.
template <class Kind, class G, class A, std::ptrdiff_t... Axes>
struct reduce_gradient_node : node_facade<value_type_of<G>, shape_of<A>, node_kind::compute, G, A>,
                              op_info<"BroadcastTo"> {
  static constexpr auto mask = ops::detail::reduced_mask<shape_of<A>::rank, Axes...>();
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
      const auto [gstride, count] = ops::detail::reduction_layout_of(mask, a.shape());
      const T* gp;
      T scalar{};
      if constexpr (std::is_arithmetic_v<VG>) {
        scalar = g;
        gp = &scalar;
      } else {
        gp = g.data();
      }
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
  static constexpr bool keep = Keep;
  static constexpr auto mask = ops::detail::reduced_mask<shape_of<A>::rank, Axes...>();
  template <class... N>
  using rebind = reduce_node<Kind, N..., Keep, Axes...>;

  template <std::size_t K, class G>
  using gradient = reduce_gradient_node<Kind, G, A, Axes...>;

  template <class Out, class V>
  static void compute(Out& out, const V& a) {
    using T = value_type_of<A>;
    constexpr std::size_t r = shape_of<A>::rank;
    if constexpr (r == 0) {
      out = a;
    } else {
      const auto& in_shape = a.shape();
      const auto [ostride, reduced_count] = ops::detail::reduction_layout_of(mask, in_shape);
      T* o;
      T scalar_acc{};
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
        std::fill(out.begin(), out.end(), T(0));
      }
      ops::detail::for_each_strided(a.begin(), a.end(), in_shape, ostride,
                                    [&](const auto& x, std::size_t k) { o[k] += x; });
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
/// `reduce_sum<1>(x, keep_dims)` keeps it with size 1. Likewise reduce_mean.
TYPEFLOW_REDUCTION(reduce_sum, sum_tag)
TYPEFLOW_REDUCTION(reduce_mean, mean_tag)
#undef TYPEFLOW_REDUCTION

}  // namespace typeflow
