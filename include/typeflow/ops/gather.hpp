// typeflow/ops/gather.hpp — tf.gather(params, indices) along axis 0 (op GatherV2).
//
// The result has shape indices.shape + params.shape[1:]: row indices[i...] of params at
// [i..., :]. An index outside [0, params.shape[0]) fails the run before anything is written.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"

namespace typeflow {

/// In a diagnostic: the element type of gather's indices, which is not int32 or int64.
template <class IndicesType>
struct gather_indices_must_be_int32_or_int64 {
  static constexpr bool value = false;
};
/// In a diagnostic: the static shape of gather's params, a scalar (it has no rows).
template <class ParamsShape>
struct gather_params_must_have_rank_at_least_1 {
  static constexpr bool value = false;
};

namespace ops::detail {

template <class P, class I>
struct gather_shape {
  template <std::size_t... J>
  static auto make(std::index_sequence<J...>) -> shape<(J < I::rank ? I::dims[J < I::rank ? J : 0]
                                                                      : P::dims[J < I::rank ? 0 : J - I::rank + 1])...>;
  using type = decltype(make(std::make_index_sequence<I::rank + P::rank - 1>{}));
};

// Every index in [0, limit), or TensorFlow's InvalidArgument naming the first that is not.
template <std::size_t RI, class Ix>
void check_indices(const Ix* ix, const std::array<std::size_t, RI>& id, std::size_t limit) {
  const std::size_t n = dims_product(id, 0, RI);
  for (std::size_t k = 0; k < n; ++k)
    if (ix[k] < 0 || static_cast<std::size_t>(ix[k]) >= limit)
      throw invalid_argument_error("indices" + index_string(k, id) + " = " + std::to_string(ix[k]) +
                                   " is not in [0, " + std::to_string(limit) + ")");
}

}  // namespace ops::detail

template <class P, class I>
struct gather_node;

/// The gradient of gather with respect to params: the rows of g added into zeros of
/// params' shape at their indices (a dense scatter-add; TensorFlow gives IndexedSlices).
template <class G, class P, class I>
struct gather_gradient_node : node_facade<value_type_of<G>, shape_of<P>, node_kind::compute, G, P, I>,
                              op_info<"UnsortedSegmentSum"> {
  template <class... N>
  using rebind = gather_gradient_node<N...>;
  // Linear in g: its gradient gathers gg's rows again.
  template <std::size_t K, class GG>
  using gradient = mp::mp_if_c<K == 0, gather_node<GG, I>, no_gradient>;

  template <class Out, class VG, class VP, class VI>
  static void compute(Out& out, const VG& g, const VP& params, const VI& indices) {
    using T = value_type_of<G>;
    constexpr std::size_t rp = shape_of<P>::rank, ri = shape_of<I>::rank;
    const auto pd = ops::detail::dims_of<rp>(params);
    const auto id = ops::detail::dims_of<ri>(indices);
    const auto* ix = ops::detail::data_ptr(indices);
    ops::detail::check_indices(ix, id, pd[0]);  // this node may run without the gather
    ops::detail::resize_unless_static<shape_of<P>::is_static>(out, pd);
    std::fill(out.begin(), out.end(), T(0));
    const std::size_t row = ops::detail::dims_product(pd, 1, rp), n = ops::detail::dims_product(id, 0, ri);
    const T* gp = ops::detail::data_ptr(g);
    T* o = out.data();
    for (std::size_t k = 0; k < n; ++k) {
      T* dst = o + static_cast<std::size_t>(ix[k]) * row;
      for (std::size_t j = 0; j < row; ++j) dst[j] += gp[k * row + j];
    }
  }
};

template <class P, class I>
struct gather_node : node_facade<value_type_of<P>, typename ops::detail::gather_shape<shape_of<P>, shape_of<I>>::type,
                                 node_kind::compute, P, I>,
                     op_info<"GatherV2"> {
  template <class... N>
  using rebind = gather_node<N...>;
  // To params only: no gradient flows into indices.
  template <std::size_t K, class G>
  using gradient = mp::mp_if_c<K == 0, gather_gradient_node<G, P, I>, no_gradient>;

  template <class Out, class VP, class VI>
  static void compute(Out& out, const VP& params, const VI& indices) {
    using T = value_type_of<P>;
    using S = shape_of<gather_node>;
    constexpr std::size_t rp = shape_of<P>::rank, ri = shape_of<I>::rank;
    const auto pd = ops::detail::dims_of<rp>(params);
    const auto id = ops::detail::dims_of<ri>(indices);
    const auto* ix = ops::detail::data_ptr(indices);
    ops::detail::check_indices(ix, id, pd[0]);
    std::array<std::size_t, S::rank> od{};
    for (std::size_t j = 0; j < S::rank; ++j) od[j] = j < ri ? id[j] : pd[j - ri + 1];
    ops::detail::resize_unless_static<S::is_static>(out, od);
    T scalar{};
    T* o = ops::detail::out_ptr(out, scalar);
    const std::size_t row = ops::detail::dims_product(pd, 1, rp), n = ops::detail::dims_product(id, 0, ri);
    const T* p = ops::detail::data_ptr(params);
    for (std::size_t k = 0; k < n; ++k) o = std::copy_n(p + static_cast<std::size_t>(ix[k]) * row, row, o);
    ops::detail::store_scalar(out, scalar);
  }
};

/// `gather(params, indices)` is tf.gather(params, indices) (axis 0): indices (int32 or
/// int64, any rank) pick rows of params; shape indices.shape + params.shape[1:].
template <node P, node I>
constexpr auto gather(const P& params, const I& indices) {
  using IT = value_type_of<I>;
  if constexpr (!std::is_same_v<IT, std::int32_t> && !std::is_same_v<IT, std::int64_t>) {
    static_assert(gather_indices_must_be_int32_or_int64<IT>::value,
                  "typeflow::gather(params, indices): indices must be int32 or int64");
    return params;  // inert: the error above is the one to read
  } else if constexpr (shape_of<P>::rank == 0) {
    static_assert(gather_params_must_have_rank_at_least_1<shape_of<P>>::value,
                  "typeflow::gather(params, indices): params must have rank >= 1 (indices pick its rows)");
    return params;
  } else {
    return make_node<gather_node<P, I>>(params, indices);
  }
}

}  // namespace typeflow
