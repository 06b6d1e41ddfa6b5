// typeflow/data/detail/padded_spec.hpp — the element structure of a graph dataset's
// padded_batch (data/graph_dataset.hpp): TensorFlow's padded_shapes as compile-time shapes,
// and the checks that they fit the components.
#pragma once

#include <cstddef>
#include <cstdint>

#include "typeflow/core/shape.hpp"
#include "typeflow/data/detail/iterator_resource.hpp"

namespace typeflow::data {

/// padded_batch's padded shapes, one per component (TensorFlow's padded_shapes): a static
/// dim pads to that size, `dyn` to the batch's longest.
template <class... S>
struct pad_to {};

/// In a diagnostic: padded_batch's padded shape for component K does not fit the
/// component's shape (another rank, or a static dim larger than the padded one).
template <std::size_t K, class ComponentShape, class PaddedShape>
struct padded_shape_must_fit_the_component {
  static constexpr bool value = false;
};
/// In a diagnostic: padded_batch got Given padded shapes for Components components.
template <std::size_t Given, std::size_t Components>
struct padded_batch_needs_one_padded_shape_per_component {
  static constexpr bool value = false;
};

namespace detail {

template <class S, std::ptrdiff_t B>
struct prepend_dim;
template <std::ptrdiff_t... D, std::ptrdiff_t B>
struct prepend_dim<shape<D...>, B> {
  using type = shape<B, D...>;
};

/// A padded batch's component: P's static dims, C's where P has `dyn`.
template <class C, class P>
struct padded_dims;
template <std::ptrdiff_t... D, std::ptrdiff_t... P>
struct padded_dims<shape<D...>, shape<P...>> {
  using type = shape<(P == dyn ? D : P)...>;
};
template <class Spec, std::ptrdiff_t B, class Pad>
struct padded_spec;
template <class... C, std::ptrdiff_t B, class... P>
struct padded_spec<element_spec<C...>, B, pad_to<P...>> {
  using type = element_spec<component<
      typename C::value_type,
      typename prepend_dim<typename padded_dims<typename C::shape_type, P>::type, B>::type>...>;
};
/// Whether padded shape P fits component shape C: one rank, each static dim of C at most P's.
template <class C, class P>
constexpr bool pad_fits() {
  if constexpr (C::rank != P::rank) {
    return false;
  } else {
    for (std::size_t i = 0; i < C::rank; ++i)
      if (P::dims[i] != dyn && C::dims[i] != dyn && C::dims[i] > P::dims[i]) return false;
    return true;
  }
}
/// pad_to<shape<dyn...>...>: every dim to the batch's longest.
template <class Spec>
struct pad_longest;
template <class... C>
struct pad_longest<element_spec<C...>> {
  template <std::ptrdiff_t>
  static constexpr std::ptrdiff_t any = dyn;
  template <class S>
  struct all_dyn;
  template <std::ptrdiff_t... D>
  struct all_dyn<shape<D...>> {
    using type = shape<any<D>...>;
  };
  using type = pad_to<typename all_dyn<typename C::shape_type>::type...>;
};

}  // namespace detail
}  // namespace typeflow::data
