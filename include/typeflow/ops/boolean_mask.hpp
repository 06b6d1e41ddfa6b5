// typeflow/ops/boolean_mask.hpp — tf.boolean_mask(tensor, mask) (axis 0).
//
// mask is bool of rank k >= 1, k <= tensor's rank, its dims those of tensor.shape[:k]; the
// result has shape [dyn] + tensor.shape[k:]: the slices tensor[i..., :] where mask[i...] is
// true, in row-major order. TensorFlow builds it as gather(reshape(tensor), where(mask)) (its
// graph's last op, GatherV2, names it here); the gradient scatters g back into the masked
// positions, zeros elsewhere. Static dims that differ are a compile error; dyn dims that
// differ fail the run before anything is written.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <type_traits>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"

namespace typeflow {

/// In a diagnostic: the element type of boolean_mask's mask, which is not bool.
template <class MaskType>
struct boolean_mask_mask_must_be_bool {
  static constexpr bool value = false;
};
/// In a diagnostic: the static shape of boolean_mask's mask, a scalar (TensorFlow: "mask
/// cannot be scalar").
template <class MaskShape>
struct boolean_mask_mask_cannot_be_scalar {
  static constexpr bool value = false;
};
/// In a diagnostic: the static shapes of mask and tensor; mask has the higher rank.
template <class MaskShape, class TensorShape>
struct boolean_mask_mask_rank_must_be_at_most_tensor_rank {
  static constexpr bool value = false;
};
/// In a diagnostic: the static shapes of mask and tensor; mask's dims differ from tensor's
/// leading dims.
template <class MaskShape, class TensorShape>
struct boolean_mask_mask_shape_must_match_leading_dims_of_tensor {
  static constexpr bool value = false;
};

namespace ops::detail {

template <class T, std::size_t K>
struct boolean_mask_shape {
  template <std::size_t... J>
  static auto make(std::index_sequence<J...>) -> shape<dyn, T::dims[J + K]...>;
  using type = decltype(make(std::make_index_sequence<T::rank - K>{}));
};

template <class M, class T>
constexpr bool mask_dims_match() {
  for (std::size_t j = 0; j < M::rank; ++j)
    if (M::dims[j] >= 0 && T::dims[j] >= 0 && M::dims[j] != T::dims[j]) return false;
  return true;
}

// The mask's dims against tensor's leading dims; the size of a slice.
template <std::size_t RT, std::size_t RM>
std::size_t check_mask_dims(const std::array<std::size_t, RT>& td, const std::array<std::size_t, RM>& md) {
  for (std::size_t j = 0; j < RM; ++j)
    if (md[j] != td[j])
      throw invalid_argument_error("boolean_mask: mask.shape = " + dims_string(md) +
                                   " does not match the leading dims of tensor.shape = " + dims_string(td));
  return dims_product(td, RM, RT);
}

}  // namespace ops::detail

template <class T, class M>
struct boolean_mask_node;

/// The gradient of boolean_mask with respect to tensor: the rows of g put back at the masked
/// positions of zeros of tensor's shape.
template <class G, class T, class M>
struct boolean_mask_gradient_node : node_facade<value_type_of<G>, shape_of<T>, node_kind::compute, G, T, M>,
                                    op_info<"UnsortedSegmentSum"> {
  template <class... N>
  using rebind = boolean_mask_gradient_node<N...>;
  // Linear in g: its gradient masks gg again.
  template <std::size_t K, class GG>
  using gradient = mp::mp_if_c<K == 0, boolean_mask_node<GG, M>, no_gradient>;

  template <class Out, class VG, class VT, class VM>
  static void compute(Out& out, const VG& g, const VT& tensor, const VM& mask) {
    using E = value_type_of<G>;
    constexpr std::size_t rt = shape_of<T>::rank, rm = shape_of<M>::rank;
    const auto td = ops::detail::dims_of<rt>(tensor);
    const auto md = ops::detail::dims_of<rm>(mask);
    const std::size_t row = ops::detail::check_mask_dims(td, md), n = ops::detail::dims_product(md, 0, rm);
    ops::detail::resize_unless_static<shape_of<T>::is_static>(out, td);
    std::fill(out.begin(), out.end(), E(0));
    const bool* mp = ops::detail::data_ptr(mask);
    const E* gp = ops::detail::data_ptr(g);
    E* o = out.data();
    for (std::size_t k = 0; k < n; ++k)
      if (mp[k]) {
        std::copy_n(gp, row, o + k * row);
        gp += row;
      }
  }
};

template <class T, class M>
struct boolean_mask_node
    : node_facade<value_type_of<T>, typename ops::detail::boolean_mask_shape<shape_of<T>, shape_of<M>::rank>::type,
                  node_kind::compute, T, M>,
      op_info<"GatherV2"> {
  template <class... N>
  using rebind = boolean_mask_node<N...>;
  // To tensor only: no gradient flows into mask.
  template <std::size_t K, class G>
  using gradient = mp::mp_if_c<K == 0, boolean_mask_gradient_node<G, T, M>, no_gradient>;

  template <class Out, class VT, class VM>
  static void compute(Out& out, const VT& tensor, const VM& mask) {
    using S = shape_of<boolean_mask_node>;
    constexpr std::size_t rt = shape_of<T>::rank, rm = shape_of<M>::rank;
    const auto td = ops::detail::dims_of<rt>(tensor);
    const auto md = ops::detail::dims_of<rm>(mask);
    const std::size_t row = ops::detail::check_mask_dims(td, md), n = ops::detail::dims_product(md, 0, rm);
    const bool* mp = ops::detail::data_ptr(mask);
    std::array<std::size_t, S::rank> od{};
    od[0] = static_cast<std::size_t>(std::count(mp, mp + n, true));
    for (std::size_t j = 1; j < S::rank; ++j) od[j] = td[j - 1 + rm];
    ops::detail::resize_unless_static<S::is_static>(out, od);
    const auto* p = ops::detail::data_ptr(tensor);
    auto* o = out.data();
    for (std::size_t k = 0; k < n; ++k)
      if (mp[k]) o = std::copy_n(p + k * row, row, o);
  }
};

/// `boolean_mask(tensor, mask)` is tf.boolean_mask(tensor, mask): mask (bool, rank k with
/// 1 <= k <= tensor's rank, dims those of tensor.shape[:k]) picks slices of tensor; shape
/// [dyn] + tensor.shape[k:].
template <node T, node M>
constexpr auto boolean_mask(const T& tensor, const M& mask) {
  using MS = shape_of<M>;
  using TS = shape_of<T>;
  if constexpr (!std::is_same_v<value_type_of<M>, bool>) {
    static_assert(boolean_mask_mask_must_be_bool<value_type_of<M>>::value,
                  "typeflow::boolean_mask(tensor, mask): mask must be bool");
    return tensor;  // inert: the error above is the one to read
  } else if constexpr (MS::rank == 0) {
    static_assert(boolean_mask_mask_cannot_be_scalar<MS>::value,
                  "typeflow::boolean_mask(tensor, mask): mask cannot be scalar");
    return tensor;
  } else if constexpr (MS::rank > TS::rank) {
    static_assert(boolean_mask_mask_rank_must_be_at_most_tensor_rank<MS, TS>::value,
                  "typeflow::boolean_mask(tensor, mask): mask's rank must be <= tensor's rank");
    return tensor;
  } else if constexpr (!ops::detail::mask_dims_match<MS, TS>()) {
    static_assert(boolean_mask_mask_shape_must_match_leading_dims_of_tensor<MS, TS>::value,
                  "typeflow::boolean_mask(tensor, mask): mask's shape must match the first dims of tensor's shape");
    return tensor;
  } else {
    return make_node<boolean_mask_node<T, M>>(tensor, mask);
  }
}

}  // namespace typeflow
