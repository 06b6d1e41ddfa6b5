// typeflow/ops/transpose.hpp — tf.transpose with a compile-time permutation.
#pragma once

#include <array>
#include <cstddef>

#include <xtensor/xmanipulation.hpp>
#include <xtensor/xnoalias.hpp>

#include "typeflow/core/node.hpp"
#include "typeflow/ops/detail/slice_ranges.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"

namespace typeflow {

namespace ops::detail {
template <class S, std::size_t... P>
struct permuted_shape {
  using type = shape<S::dims[P]...>;
};
template <std::size_t R, std::size_t... P>
constexpr bool is_permutation() {
  std::array<std::size_t, sizeof...(P)> p{P...};
  if (p.size() != R) return false;
  std::array<bool, sizeof...(P)> seen{};
  for (auto v : p) {
    if (v >= R || seen[v]) return false;
    seen[v] = true;
  }
  return true;
}
}  // namespace ops::detail

template <class A, std::size_t... P>
struct transpose_node;

namespace ops::detail {
template <class G, class Perm>
struct inverse_transpose;
template <class G, std::size_t... P>
struct inverse_transpose<G, std::index_sequence<P...>> {
  static constexpr std::array<std::size_t, sizeof...(P)> perm{P...};
  static constexpr auto inverse = [] {
    std::array<std::size_t, sizeof...(P)> inv{};
    for (std::size_t i = 0; i < perm.size(); ++i) inv[perm[i]] = i;
    return inv;
  }();
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>) -> transpose_node<G, inverse[I]...>;
  using type = decltype(make(std::make_index_sequence<sizeof...(P)>{}));
};
}  // namespace ops::detail

template <class A, std::size_t... P>
struct transpose_node
    : node_facade<value_type_of<A>, typename ops::detail::permuted_shape<shape_of<A>, P...>::type,
                  node_kind::compute, A>, op_info<"transpose"> {
  template <class... N>
  using rebind = transpose_node<N..., P...>;

  template <std::size_t K, class G>
  using gradient = typename ops::detail::inverse_transpose<G, std::index_sequence<P...>>::type;

  template <class Out, class V>
  static void compute(Out& out, const V& a) {
    constexpr std::size_t r = sizeof...(P);
    constexpr std::array<std::size_t, r> perm{P...};
    if constexpr (r >= 2 && perm[r - 1] == r - 1) {
      // The last axis stays last (a batch-major sequence made time-major, [B, T, F] to
      // [T, B, F]): the output is a view of the input whose rows are contiguous in both,
      // copied as blocks (xtensor's strided assignment computed an index per element: a
      // tenth of the bidirectional GRU's training step).
      const auto in = ops::detail::dims_of<r>(a);
      ops::detail::view<r> v;
      std::array<std::ptrdiff_t, r> stride{};
      for (std::size_t i = r, n = 1; i-- > 0; n *= in[i]) stride[i] = static_cast<std::ptrdiff_t>(n);
      for (std::size_t i = 0; i < r; ++i) {
        v.count[i] = in[perm[i]];
        v.step[i] = stride[perm[i]];
      }
      ops::detail::write_out<shape_of<transpose_node>>(
          out, v.count, [&](auto* o) { ops::detail::copy_view<false>(v, ops::detail::data_ptr(a), o); });
    } else {
      xt::noalias(out) = xt::transpose(a, perm);
    }
  }
};

/// `transpose(x)` reverses the dimensions, as tf.transpose(x);
/// `transpose<1, 0, 2>(x)` applies the permutation perm=[1, 0, 2].
template <std::size_t... P, node A>
constexpr auto transpose(const A& a) {
  constexpr std::size_t r = shape_of<A>::rank;
  if constexpr (sizeof...(P) == 0) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return make_node<transpose_node<A, (r - 1 - I)...>>(a);
    }(std::make_index_sequence<r>{});
  } else {
    static_assert(ops::detail::is_permutation<r, P...>(),
                  "typeflow::transpose<perm...>(x): perm must be a permutation of 0 .. rank(x)-1");
    return make_node<transpose_node<A, P...>>(a);
  }
}

}  // namespace typeflow
