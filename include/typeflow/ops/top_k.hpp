// typeflow/ops/top_k.hpp — tf.nn.top_k(x, k, sorted=True) along the last axis (op TopKV2).
//
// `auto [values, indices] = top_k<k>(x)`: two nodes, as TensorFlow's TopKV2 has two
// outputs. The indices node (int32, x's shape with the last dim k) does the selection; the
// values node gathers x at them, so fetching both selects once. The k largest of each row,
// sorted descending, equal values lower index first (TensorFlow's order). NaN ranks below
// every number (TensorFlow's kernel skips NaN for k = 1, and leaves the order with NaN
// unspecified for k > 1): a row of NaN gives index 0 first.
//
// Gradient of the values: g scattered to the selected positions of x, zeros elsewhere
// (TensorFlow's _TopKGrad); none into the indices. The scatter's own gradient is the gather
// of gg at the same indices, so top_k is differentiable twice.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"

namespace typeflow {

/// In a diagnostic: top_k's k, larger than the static last dimension of x's shape.
template <std::ptrdiff_t K, class Shape>
struct top_k_k_must_be_at_most_the_last_dimension {
  static constexpr bool value = false;
};
/// In a diagnostic: top_k's k, which is negative.
template <std::ptrdiff_t K>
struct top_k_k_must_not_be_negative {
  static constexpr bool value = false;
};
/// In a diagnostic: top_k's x, a scalar, or of an element type that is not a number.
template <class ElementType, class Shape>
struct top_k_needs_a_number_input_of_rank_at_least_1 {
  static constexpr bool value = false;
};

namespace ops::detail {

/// S with its last dim replaced by K.
template <class S, std::ptrdiff_t K>
struct top_k_shape {
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>) -> shape<(I + 1 == S::rank ? K : S::dims[I])...>;
  using type = decltype(make(std::make_index_sequence<S::rank>{}));
};

/// Whether column a (value va) ranks before column b (value vb): larger first, NaN last,
/// the lower index first among equals.
template <class T>
constexpr bool top_k_before(T va, std::int32_t a, T vb, std::int32_t b) {
  if constexpr (std::is_floating_point_v<T>) {
    const bool na = std::isnan(va), nb = std::isnan(vb);
    if (na || nb) return na == nb ? a < b : nb;
  }
  if (va != vb) return va > vb;
  return a < b;
}

/// The k first columns of the row x[0, n) in top_k's order, into idx[0, k): a heap of the k
/// best seen so far, the worst on top, then sorted (TensorFlow's gtl::TopN). No scratch.
template <class T>
void top_k_row(const T* x, std::size_t n, std::size_t k, std::int32_t* idx) {
  if (k == 0) return;
  const auto worse_on_top = [x](std::int32_t a, std::int32_t b) { return top_k_before(x[a], a, x[b], b); };
  for (std::size_t c = 0; c < k; ++c) idx[c] = static_cast<std::int32_t>(c);
  std::make_heap(idx, idx + k, worse_on_top);
  for (std::size_t c = k; c < n; ++c) {
    const auto ci = static_cast<std::int32_t>(c);
    if (top_k_before(x[c], ci, x[idx[0]], idx[0])) {
      std::pop_heap(idx, idx + k, worse_on_top);
      idx[k - 1] = ci;
      std::push_heap(idx, idx + k, worse_on_top);
    }
  }
  std::sort_heap(idx, idx + k, worse_on_top);
}

}  // namespace ops::detail

template <class G, class I, class A>
struct top_k_gradient_node;

/// TopKV2's indices output: int32, x's shape with the last dim K. With a dynamic last dim
/// shorter than K the run fails with an InvalidArgument naming top_k and both sizes.
template <class A, std::ptrdiff_t K>
struct top_k_indices_node : node_facade<std::int32_t, typename ops::detail::top_k_shape<shape_of<A>, K>::type,
                                        node_kind::compute, A>,
                            op_info<"TopKV2"> {
  template <class... N>
  using rebind = top_k_indices_node<N..., K>;
  // Indices are not differentiable: no gradient flows from them.
  template <std::size_t J, class G>
  using gradient = no_gradient;

  template <class Out, class V>
  static void compute(Out& out, const V& a) {
    constexpr std::size_t r = shape_of<A>::rank;
    auto dims = ops::detail::dims_of<r>(a);
    const std::size_t n = dims[r - 1], k = static_cast<std::size_t>(K);
    if (n < k)
      throw invalid_argument_error("typeflow::top_k<" + std::to_string(K) + ">(x) (TopKV2): input must have last " +
                                   "dimension >= k = " + std::to_string(K) + " but is " + std::to_string(n) +
                                   " (x has shape " + shape_string(dims) + ")");
    const std::size_t rows = ops::detail::dims_product(dims, 0, r - 1);
    dims[r - 1] = k;
    ops::detail::resize_unless_static<shape_of<top_k_indices_node>::is_static>(out, dims);
    const auto* x = a.data();
    std::int32_t* o = out.data();
    for (std::size_t i = 0; i < rows; ++i) ops::detail::top_k_row(x + i * n, n, k, o + i * k);
  }
};

/// TopKV2's values output: x at the indices of each row (a gather along the last axis).
/// Gradient to x: g scattered back to the indices; none to the indices.
template <class A, class I>
struct top_k_values_node : node_facade<value_type_of<A>, shape_of<I>, node_kind::compute, A, I>,
                           op_info<"TopKV2"> {
  template <class... N>
  using rebind = top_k_values_node<N...>;
  template <std::size_t J, class G>
  using gradient = mp::mp_if_c<J == 0, top_k_gradient_node<G, I, A>, no_gradient>;

  template <class Out, class VA, class VI>
  static void compute(Out& out, const VA& a, const VI& indices) {
    constexpr std::size_t r = shape_of<A>::rank;
    const auto ad = ops::detail::dims_of<r>(a);
    const auto id = ops::detail::dims_of<r>(indices);
    ops::detail::resize_unless_static<shape_of<I>::is_static>(out, id);
    const std::size_t rows = ops::detail::dims_product(id, 0, r - 1), n = ad[r - 1], k = id[r - 1];
    const auto* x = a.data();
    const std::int32_t* ix = indices.data();
    auto* o = out.data();
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < k; ++j) o[i * k + j] = x[i * n + static_cast<std::size_t>(ix[i * k + j])];
  }
};

/// _TopKGrad: zeros of x's shape with g's rows added at their indices. Linear in g: its
/// gradient is gg gathered at the same indices; none to the indices or to x (its shape only).
template <class G, class I, class A>
struct top_k_gradient_node : node_facade<value_type_of<G>, shape_of<A>, node_kind::compute, G, I, A>,
                             op_info<"ScatterNd"> {
  template <class... N>
  using rebind = top_k_gradient_node<N...>;
  template <std::size_t J, class GG>
  using gradient = mp::mp_if_c<J == 0, top_k_values_node<GG, I>, no_gradient>;

  template <class Out, class VG, class VI, class VA>
  static void compute(Out& out, const VG& g, const VI& indices, const VA& a) {
    using T = value_type_of<G>;
    constexpr std::size_t r = shape_of<A>::rank;
    const auto ad = ops::detail::dims_of<r>(a);
    const auto id = ops::detail::dims_of<r>(indices);
    ops::detail::resize_unless_static<shape_of<A>::is_static>(out, ad);
    std::fill(out.begin(), out.end(), T(0));
    const std::size_t rows = ops::detail::dims_product(id, 0, r - 1), n = ad[r - 1], k = id[r - 1];
    const T* gp = g.data();
    const std::int32_t* ix = indices.data();
    T* o = out.data();
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < k; ++j) o[i * n + static_cast<std::size_t>(ix[i * k + j])] += gp[i * k + j];
  }
};

/// What top_k returns (TensorFlow's TopKV2(values, indices)); also
/// `auto [values, indices] = top_k<k>(x)`.
template <class Values, class Indices>
struct top_k_result {
  Values values;
  Indices indices;
};

/// `top_k<k>(x)` is tf.nn.top_k(x, k, sorted=True): {values, indices} of the k largest
/// entries of each row of x's last axis, sorted descending (equal values: lower index
/// first); values of x's element type, indices int32, both of x's shape with the last dim
/// k. k is a template argument; k above a static last dimension, or negative, is a compile
/// error; above a dynamic one, an InvalidArgument when the run computes it.
template <std::ptrdiff_t K, node A>
constexpr auto top_k(const A& x) {
  using S = shape_of<A>;
  using T = value_type_of<A>;
  if constexpr (S::rank == 0 || !std::is_arithmetic_v<T> || std::is_same_v<T, bool>) {
    static_assert(top_k_needs_a_number_input_of_rank_at_least_1<T, S>::value,
                  "typeflow::top_k<k>(x) needs x of rank >= 1 and a number element type (not bool)");
    return top_k_result<A, A>{x, x};  // inert: the error above is the one to read
  } else if constexpr (K < 0) {
    static_assert(top_k_k_must_not_be_negative<K>::value, "typeflow::top_k<k>(x): need k >= 0");
    return top_k_result<A, A>{x, x};
  } else if constexpr (S::dims[S::rank - 1] != dyn && S::dims[S::rank - 1] < K) {
    static_assert(top_k_k_must_be_at_most_the_last_dimension<K, S>::value,
                  "typeflow::top_k<k>(x): x must have last dimension >= k");
    return top_k_result<A, A>{x, x};
  } else {
    auto indices = make_node<top_k_indices_node<A, K>>(x);
    auto values = make_node<top_k_values_node<A, decltype(indices)>>(x, indices);
    return top_k_result<decltype(values), decltype(indices)>{values, indices};
  }
}

}  // namespace typeflow
