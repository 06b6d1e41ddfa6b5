// typeflow/ops/gather_nd.hpp — tf.gather_nd(params, indices) (op GatherNd) and
// tf.scatter_nd(indices, updates, shape) (op ScatterNd).
//
// indices is an int32 or int64 tensor whose last dim, the index depth d, is static: each of
// its rows indices[i..., :] names a slice params[j0, ..., j(d-1), ...] (d <= rank(params)).
//   gather_nd: shape indices.shape[:-1] + params.shape[d:], the slices stacked;
//   scatter_nd<shape<...>>(indices, updates), or scatter_nd(indices, updates, dims): zeros
//     of the shape, with updates[i..., ...] added at the slice indices[i..., :] names, so
//     duplicate indices sum (TensorFlow's semantics); updates must have the shape
//     indices.shape[:-1] + shape[d:].
// The shape is a template argument (every dim static) or a dims node (shape_op(x), a
// placeholder), as for fill (ops/fill.hpp); TensorFlow takes it as a tensor. Dims known at
// compile time are checked at compile time; dyn dims when a run computes the op. An index
// outside the shape fails the run with InvalidArgument naming it, before anything is written.
//
// Gradients (TensorFlow's _GatherNdGrad, _ScatterNdGrad): gather_nd's with respect to params is
// scatter_nd of the upstream gradient into params' shape (dense: TensorFlow's is dense too);
// scatter_nd's with respect to updates is gather_nd of the upstream gradient; none flows into
// indices or the dims.
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
#include "typeflow/ops/shape_ops.hpp"

namespace typeflow {

/// In a diagnostic: the element type of gather_nd's indices, which is not int32 or int64.
template <class IndicesType>
struct gather_nd_indices_must_be_int32_or_int64 {
  static constexpr bool value = false;
};
/// In a diagnostic: the static shape of gather_nd's indices: a scalar, or a last dim (the
/// index depth) that is dyn.
template <class IndicesShape>
struct gather_nd_indices_need_rank_at_least_1_and_a_static_last_dim {
  static constexpr bool value = false;
};
/// In a diagnostic: gather_nd's index depth (indices' last dim), larger than params' rank.
template <std::ptrdiff_t Depth, class ParamsShape>
struct gather_nd_index_depth_must_be_at_most_the_rank_of_params {
  static constexpr bool value = false;
};
/// In a diagnostic: the element type of scatter_nd's indices, which is not int32 or int64.
template <class IndicesType>
struct scatter_nd_indices_must_be_int32_or_int64 {
  static constexpr bool value = false;
};
/// In a diagnostic: the static shape of scatter_nd's indices: a scalar, or a dyn last dim.
template <class IndicesShape>
struct scatter_nd_indices_need_rank_at_least_1_and_a_static_last_dim {
  static constexpr bool value = false;
};
/// In a diagnostic: scatter_nd's index depth (indices' last dim), larger than the rank of
/// the output shape.
template <std::ptrdiff_t Depth, class Shape>
struct scatter_nd_index_depth_must_be_at_most_the_rank_of_shape {
  static constexpr bool value = false;
};
/// In a diagnostic: scatter_nd's updates, of shape UpdatesShape, which is not
/// indices.shape[:-1] + shape[depth:] (dyn dims match anything).
template <class UpdatesShape, class IndicesShape, class Shape>
struct scatter_nd_updates_must_have_shape_indices_outer_dims_plus_shape_inner_dims {
  static constexpr bool value = false;
};

namespace ops::detail {

/// indices' last dim, the index depth, if static and indices has rank >= 1; else -1.
template <class I>
constexpr std::ptrdiff_t nd_index_depth = I::rank == 0 ? -1 : I::dims[I::rank == 0 ? 0 : I::rank - 1];

/// The shape indices.shape[:-1] + params.shape[depth:] (I has a static depth <= P::rank).
template <class P, class I>
struct gather_nd_shape {
  static constexpr std::size_t depth = std::size_t(nd_index_depth<I>), outer = I::rank - 1;
  template <std::size_t... J>
  static auto make(std::index_sequence<J...>)
      -> shape<(J < outer ? I::dims[J < outer ? J : 0] : P::dims[J < outer ? 0 : J - outer + depth])...>;
  using type = decltype(make(std::make_index_sequence<outer + P::rank - depth>{}));
};

/// Whether shape A fits B, dim by dim (a dyn dim fits anything).
template <class A, class B>
constexpr bool shapes_compatible() {
  if constexpr (A::rank != B::rank) {
    return false;
  } else {
    for (std::size_t i = 0; i < A::rank; ++i)
      if (A::dims[i] >= 0 && B::dims[i] >= 0 && A::dims[i] != B::dims[i]) return false;
    return true;
  }
}

/// Row k (of depth d) of indices, each entry in [0, dims[j]), or TensorFlow's
/// InvalidArgument: "indices[0,1] = [7] does not index into param shape [3]".
template <std::size_t RI, class Ix, class Dims>
void check_nd_indices(const char* into, const Ix* ix, const std::array<std::size_t, RI>& id, const Dims& dims,
                      std::size_t rank) {
  constexpr std::size_t ro = RI - 1;
  const std::size_t d = id[RI - 1], n = dims_product(id, 0, ro);
  std::array<std::size_t, ro> od{};
  for (std::size_t j = 0; j < ro; ++j) od[j] = id[j];
  for (std::size_t k = 0; k < n; ++k) {
    const Ix* row = ix + k * d;
    for (std::size_t j = 0; j < d; ++j) {
      if (row[j] >= 0 && static_cast<std::size_t>(row[j]) < dims[j]) continue;
      std::string s = "indices" + index_string(k, od) + " = [";
      for (std::size_t t = 0; t < d; ++t) {
        if (t) s += ", ";
        s += std::to_string(row[t]);
      }
      throw invalid_argument_error(s + "] does not index into " + into + " " + dims_string(dims, 0, rank));
    }
  }
}

/// The flat position, in slices, of the slice that index row `row` (depth d) names in dims.
template <class Ix, class Dims>
std::size_t nd_slice_position(const Ix* row, std::size_t d, const Dims& dims) {
  std::size_t flat = 0;
  for (std::size_t j = 0; j < d; ++j) flat = flat * dims[j] + static_cast<std::size_t>(row[j]);
  return flat;
}

}  // namespace ops::detail

template <class P, class I, class S = typename ops::detail::gather_nd_shape<shape_of<P>, shape_of<I>>::type>
struct gather_nd_node;

/// tf.scatter_nd: zeros of shape S with the slices of updates U added where indices I say;
/// In... is (I, U) with a static S, or (I, U, D) with D a dims node.
template <class S, class... In>
struct scatter_nd_node : node_facade<value_type_of<mp::mp_at_c<mp::mp_list<In...>, 1>>, S, node_kind::compute, In...>,
                         op_info<"ScatterNd"> {
  using indices_node = mp::mp_front<mp::mp_list<In...>>;
  using updates_node = mp::mp_at_c<mp::mp_list<In...>, 1>;
  template <class... N>
  using rebind = scatter_nd_node<S, N...>;
  // To updates only (linear in them): the upstream gradient's slices at the indices, of
  // updates' shape (the factory checked that the two agree where both are static).
  template <std::size_t K, class G>
  using gradient = mp::mp_if_c<K == 1, gather_nd_node<G, indices_node, shape_of<updates_node>>, no_gradient>;

  template <class Out, class VI, class VU, class... VD>
  static void compute(Out& out, const VI& indices, const VU& updates, const VD&... dims) {
    using T = value_type_of<scatter_nd_node>;
    using U = updates_node;
    constexpr std::size_t ri = shape_of<indices_node>::rank, ru = shape_of<U>::rank, rs = S::rank;
    constexpr std::size_t depth = std::size_t(ops::detail::nd_index_depth<shape_of<indices_node>>), ro = ri - 1;
    const auto sd = ops::detail::dims_of_tensor<S>("ScatterNd", dims...);
    const auto id = ops::detail::dims_of<ri>(indices);
    const auto ud = ops::detail::dims_of<ru>(updates);
    std::array<std::size_t, ru> want{};
    for (std::size_t j = 0; j < ru; ++j) want[j] = j < ro ? id[j] : sd[j - ro + depth];
    if (ud != want)
      throw invalid_argument_error("ScatterNd: updates has shape " + ops::detail::dims_string(ud, 0, ru) +
                                   " but must have indices.shape[:-1] + shape[" + std::to_string(depth) +
                                   ":] = " + ops::detail::dims_string(want, 0, ru));
    const std::size_t n = ops::detail::dims_product(id, 0, ro), size = ops::detail::dims_product(sd, 0, rs);
    if (size == 0 && (n * depth > 0 || ops::detail::dims_product(ud, 0, ru) > 0))  // TensorFlow's condition
      throw invalid_argument_error("ScatterNd: Indices and updates specified for empty output shape " +
                                   ops::detail::dims_string(sd, 0, rs));
    const auto* ix = ops::detail::data_ptr(indices);
    ops::detail::check_nd_indices("shape", ix, id, sd, rs);
    ops::detail::resize_unless_static<S::is_static>(out, sd);
    T scalar{};
    T* o = ops::detail::out_ptr(out, scalar);
    std::fill(o, o + size, T(0));
    const std::size_t slice = ops::detail::dims_product(sd, depth, rs);
    const T* u = ops::detail::data_ptr(updates);
    for (std::size_t k = 0; k < n; ++k, u += slice) {
      T* dst = o + ops::detail::nd_slice_position(ix + k * depth, depth, sd) * slice;
      if constexpr (std::is_same_v<T, bool>) {
        for (std::size_t j = 0; j < slice; ++j) dst[j] = dst[j] || u[j];  // TensorFlow's bool sum
      } else {
        for (std::size_t j = 0; j < slice; ++j) dst[j] += u[j];
      }
    }
    ops::detail::store_scalar(out, scalar);
  }
};

namespace ops::detail {
// gather_nd's gradient with respect to params: scatter_nd of g into params' shape, whose
// dims come from params' value when they are not all static.
template <class G, class P, class I, bool Static = shape_of<P>::is_static>
struct gather_nd_params_gradient {
  using type = scatter_nd_node<shape_of<P>, I, G>;
};
template <class G, class P, class I>
struct gather_nd_params_gradient<G, P, I, false> {
  using type = scatter_nd_node<shape_of<P>, I, G, typename shape_op_of<P, std::int64_t, shape_inputs<P>>::type>;
};
}  // namespace ops::detail

/// tf.gather_nd: the slices of params P that indices I name. S is the output's static shape,
/// indices.shape[:-1] + params.shape[d:] (a gradient node states dims that its G leaves dyn).
template <class P, class I, class S>
struct gather_nd_node : node_facade<value_type_of<P>, S, node_kind::compute, P, I>, op_info<"GatherNd"> {
  template <class... N>
  using rebind = gather_nd_node<N..., S>;
  // To params only: no gradient flows into indices.
  template <std::size_t K, class G>
  using gradient =
      mp::mp_if_c<K == 0, typename ops::detail::gather_nd_params_gradient<G, P, I>::type, no_gradient>;

  template <class Out, class VP, class VI>
  static void compute(Out& out, const VP& params, const VI& indices) {
    using T = value_type_of<P>;
    constexpr std::size_t rp = shape_of<P>::rank, ri = shape_of<I>::rank, ro = ri - 1;
    constexpr std::size_t depth = std::size_t(ops::detail::nd_index_depth<shape_of<I>>);
    const auto pd = ops::detail::dims_of<rp>(params);
    const auto id = ops::detail::dims_of<ri>(indices);
    const std::size_t n = ops::detail::dims_product(id, 0, ro);
    if (n > 0 && ops::detail::dims_product(pd, 0, rp) == 0)
      throw invalid_argument_error("GatherNd: Requested more than 0 entries, but params is empty. Params shape: " +
                                   ops::detail::dims_string(pd, 0, rp));
    const auto* ix = ops::detail::data_ptr(indices);
    ops::detail::check_nd_indices("param shape", ix, id, pd, rp);
    std::array<std::size_t, S::rank> od{};
    for (std::size_t j = 0; j < S::rank; ++j) od[j] = j < ro ? id[j] : pd[j - ro + depth];
    ops::detail::resize_unless_static<S::is_static>(out, od);
    T scalar{};
    T* o = ops::detail::out_ptr(out, scalar);
    const std::size_t slice = ops::detail::dims_product(pd, depth, rp);
    const T* p = ops::detail::data_ptr(params);
    for (std::size_t k = 0; k < n; ++k)
      o = std::copy_n(p + ops::detail::nd_slice_position(ix + k * depth, depth, pd) * slice, slice, o);
    ops::detail::store_scalar(out, scalar);
  }
};

namespace ops::detail {
template <class IT>
constexpr bool is_nd_index_type = std::is_same_v<IT, std::int32_t> || std::is_same_v<IT, std::int64_t>;

// scatter_nd's checks, then the node; S the output's static shape, Dims... the dims node.
template <class S, class I, class U, class... D>
constexpr auto make_scatter_nd(const I& indices, const U& updates, const D&... dims) {
  using IS = shape_of<I>;
  constexpr std::ptrdiff_t depth = nd_index_depth<IS>;
  if constexpr (!is_nd_index_type<value_type_of<I>>) {
    static_assert(scatter_nd_indices_must_be_int32_or_int64<value_type_of<I>>::value,
                  "typeflow::scatter_nd(indices, updates, shape): indices must be int32 or int64");
    return updates;  // inert: the error above is the one to read
  } else if constexpr (depth < 0) {
    static_assert(scatter_nd_indices_need_rank_at_least_1_and_a_static_last_dim<IS>::value,
                  "typeflow::scatter_nd(indices, updates, shape): indices must have rank >= 1 and a static last "
                  "dim (the index depth)");
    return updates;
  } else if constexpr (std::size_t(depth) > S::rank) {
    static_assert(scatter_nd_index_depth_must_be_at_most_the_rank_of_shape<depth, S>::value,
                  "typeflow::scatter_nd(indices, updates, shape): indices' last dim (the index depth) must be "
                  "<= the rank of shape");
    return updates;
  } else if constexpr (!shapes_compatible<shape_of<U>, typename gather_nd_shape<S, IS>::type>()) {
    static_assert(scatter_nd_updates_must_have_shape_indices_outer_dims_plus_shape_inner_dims<shape_of<U>, IS,
                                                                                                 S>::value,
                  "typeflow::scatter_nd(indices, updates, shape): updates must have the shape "
                  "indices.shape[:-1] + shape[depth:]");
    return updates;
  } else {
    return make_node<scatter_nd_node<S, I, U, D...>>(indices, updates, dims...);
  }
}
}  // namespace ops::detail

/// `gather_nd(params, indices)` is tf.gather_nd(params, indices): indices (int32 or int64,
/// rank >= 1, static last dim d <= rank(params)) name slices of params; shape
/// indices.shape[:-1] + params.shape[d:].
template <node P, node I>
constexpr auto gather_nd(const P& params, const I& indices) {
  using IS = shape_of<I>;
  constexpr std::ptrdiff_t depth = ops::detail::nd_index_depth<IS>;
  if constexpr (!ops::detail::is_nd_index_type<value_type_of<I>>) {
    static_assert(gather_nd_indices_must_be_int32_or_int64<value_type_of<I>>::value,
                  "typeflow::gather_nd(params, indices): indices must be int32 or int64");
    return params;  // inert: the error above is the one to read
  } else if constexpr (depth < 0) {
    static_assert(gather_nd_indices_need_rank_at_least_1_and_a_static_last_dim<IS>::value,
                  "typeflow::gather_nd(params, indices): indices must have rank >= 1 and a static last dim (the "
                  "index depth)");
    return params;
  } else if constexpr (std::size_t(depth) > shape_of<P>::rank) {
    static_assert(gather_nd_index_depth_must_be_at_most_the_rank_of_params<depth, shape_of<P>>::value,
                  "typeflow::gather_nd(params, indices): indices' last dim (the index depth) must be <= the rank "
                  "of params");
    return params;
  } else {
    return make_node<gather_nd_node<P, I>>(params, indices);
  }
}

/// `scatter_nd<shape<4, 2>>(indices, updates)` is tf.scatter_nd(indices, updates, [4, 2]):
/// every dim of the shape static; updates of shape indices.shape[:-1] + shape[d:].
template <shape_type S, node I, node U>
constexpr auto scatter_nd(const I& indices, const U& updates) {
  if constexpr (!S::is_static) {
    static_assert(shape_argument_needs_static_dims_of_at_least_0<S>::value,
                  "typeflow::scatter_nd<shape>(indices, updates): every dim of the shape must be >= 0; for dims "
                  "known at run time pass a dims node, scatter_nd(indices, updates, shape_op(x))");
    return updates;
  } else {
    return ops::detail::make_scatter_nd<S>(indices, updates);
  }
}
/// `scatter_nd(indices, updates, dims)` is tf.scatter_nd(indices, updates, shape) with the
/// shape a tensor: an int32 or int64 vector node of static length (`shape_op(x)`, a placeholder).
template <node I, node U, node D>
constexpr auto scatter_nd(const I& indices, const U& updates, const D& dims) {
  if constexpr (!ops::detail::is_dims_node<D>) {
    static_assert(dims_must_be_an_int32_or_int64_vector_of_static_length<value_type_of<D>, shape_of<D>>::value,
                  "typeflow::scatter_nd(indices, updates, shape): shape must be an int32 or int64 vector of "
                  "static length, e.g. typeflow::shape_op(x)");
    return updates;
  } else {
    return ops::detail::make_scatter_nd<ops::detail::shape_from_dims_t<D>>(indices, updates, dims);
  }
}

}  // namespace typeflow
