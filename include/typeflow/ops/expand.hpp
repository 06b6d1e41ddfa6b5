// typeflow/ops/expand.hpp — tf.expand_dims, tf.squeeze, tf.tile and tf.reverse.
//
// expand_dims and squeeze change only the shape (the elements are copied in order); their
// gradient is the gradient reshaped back. tile's gradient sums the gradient over the tiles;
// reverse's is the gradient reversed.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/reshape.hpp"
#include "typeflow/ops/slice.hpp"

namespace typeflow {

// --- diagnostics ------------------------------------------------------------------------------

/// In a diagnostic: expand_dims' axis must be in [-rank - 1, rank] of the input's shape.
template <std::ptrdiff_t Axis, class Shape>
struct expand_dims_axis_is_out_of_range_for_shape {
  static constexpr bool value = false;
};
/// In a diagnostic: squeeze<axes...> and reverse<axes...> take axes in [-rank, rank), once each.
template <class Axes, class Shape>
struct axes_must_be_in_range_and_distinct_for_shape {
  static constexpr bool value = false;
};
/// In a diagnostic: squeeze<axes...> of an axis whose static size is not 1.
template <std::ptrdiff_t Axis, class Shape>
struct squeeze_axis_is_not_of_size_1 {
  static constexpr bool value = false;
};
/// In a diagnostic: tile<multiples...> needs one multiple >= 0 per dimension.
template <class Multiples, class Shape>
struct tile_needs_one_multiple_of_at_least_0_per_dimension {
  static constexpr bool value = false;
};

namespace ops::detail {

template <class S, std::size_t Axis>
struct expanded_shape {
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>)
      -> shape<(I < Axis ? S::dims[I < S::rank ? I : 0] : I == Axis ? 1 : S::dims[I - 1 < S::rank ? I - 1 : 0])...>;
  using type = decltype(make(std::make_index_sequence<S::rank + 1>{}));
};

/// Whether axis i (of rank R) is among the normalized Axes.
template <std::size_t... Axes>
constexpr bool among(std::size_t i) {
  return ((i == Axes) || ... || false);
}

template <class S, std::size_t... Axes>
struct squeezed_shape {
  static constexpr auto dims = [] {
    std::array<std::ptrdiff_t, S::rank - sizeof...(Axes)> d{};
    for (std::size_t i = 0, j = 0; i < S::rank; ++i)
      if (!among<Axes...>(i)) d[j++] = S::dims[i];
    return d;
  }();
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>) -> shape<dims[I]...>;
  using type = decltype(make(std::make_index_sequence<S::rank - sizeof...(Axes)>{}));
};

template <class S, std::size_t... M>
struct tiled_shape {
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>)
      -> shape<(S::dims[I] == dyn ? (M == 0 ? 0 : dyn) : S::dims[I] * static_cast<std::ptrdiff_t>(M))...>;
  using type = decltype(make(std::make_index_sequence<S::rank>{}));
};

/// Copies a's elements, in order, into out of dims `dims`.
template <class S, class Out, class V, std::size_t N>
void copy_into(Out& out, const V& a, const std::array<std::size_t, N>& dims) {
  std::size_t total = 1;
  for (auto d : dims) total *= d;
  const auto* x = data_ptr(a);
  write_out<S>(out, dims, [&](auto* o) {
    for (std::size_t i = 0; i < total; ++i) o[i] = x[i];
  });
}

/// Calls f(k, idx) for every row-major index idx (flat position k) of dims.
template <std::size_t R, class F>
void for_each_index(const std::array<std::size_t, R>& dims, F f) {
  std::size_t total = 1;
  for (auto d : dims) total *= d;
  std::array<std::size_t, R> idx{};
  for (std::size_t k = 0; k < total; ++k) {
    f(k, idx);
    for (std::size_t d = R; d-- > 0;) {
      if (++idx[d] < dims[d]) break;
      idx[d] = 0;
    }
  }
}

template <std::size_t R>
std::array<std::size_t, R> row_major_strides(const std::array<std::size_t, R>& dims) {
  std::array<std::size_t, R> s{};
  std::size_t n = 1;
  for (std::size_t i = R; i-- > 0;) {
    s[i] = n;
    n *= dims[i];
  }
  return s;
}

struct tile_grad_kind : op_info<"Sum"> {};

}  // namespace ops::detail

/// x with a dimension of size 1 inserted at position Axis.
template <class A, std::size_t Axis>
struct expand_dims_node
    : node_facade<value_type_of<A>, typename ops::detail::expanded_shape<shape_of<A>, Axis>::type, node_kind::compute, A>,
      op_info<"ExpandDims"> {
  template <class... N>
  using rebind = expand_dims_node<N..., Axis>;
  template <std::size_t K, class G>
  using gradient = ops::detail::reshape_back_t<G, A>;

  template <class Out, class V>
  static void compute(Out& out, const V& a) {
    constexpr std::size_t r = shape_of<A>::rank;
    const auto in = ops::detail::dims_of<r>(a);
    std::array<std::size_t, r + 1> d{};
    for (std::size_t i = 0, j = 0; i <= r; ++i) d[i] = i == Axis ? 1 : in[j++];
    ops::detail::copy_into<shape_of<expand_dims_node>>(out, a, d);
  }
};

/// x without the dimensions Axes... (each of size 1).
template <class A, std::size_t... Axes>
struct squeeze_node
    : node_facade<value_type_of<A>, typename ops::detail::squeezed_shape<shape_of<A>, Axes...>::type,
                  node_kind::compute, A>,
      op_info<"Squeeze"> {
  template <class... N>
  using rebind = squeeze_node<N..., Axes...>;
  template <std::size_t K, class G>
  using gradient = ops::detail::reshape_back_t<G, A>;

  template <class Out, class V>
  static void compute(Out& out, const V& a) {
    constexpr std::size_t r = shape_of<A>::rank;
    const auto in = ops::detail::dims_of<r>(a);
    std::array<std::size_t, r - sizeof...(Axes)> d{};
    for (std::size_t i = 0, j = 0; i < r; ++i) {
      if (!ops::detail::among<Axes...>(i)) {
        d[j++] = in[i];
      } else if (in[i] != 1) {
        throw invalid_argument_error("Can not squeeze dim[" + std::to_string(i) + "], expected a dimension of 1, got " +
                                     std::to_string(in[i]));
      }
    }
    ops::detail::copy_into<shape_of<squeeze_node>>(out, a, d);
  }
};

template <class G, class A, std::size_t... M>
struct tile_grad_node;

/// x repeated M[i] times along each dimension i.
template <class A, std::size_t... M>
struct tile_node : node_facade<value_type_of<A>, typename ops::detail::tiled_shape<shape_of<A>, M...>::type,
                               node_kind::compute, A>,
                   op_info<"Tile"> {
  template <class... N>
  using rebind = tile_node<N..., M...>;
  template <std::size_t K, class G>
  using gradient = tile_grad_node<G, A, M...>;

  template <class Out, class V>
  static void compute(Out& out, const V& a) {
    constexpr std::size_t r = shape_of<A>::rank;
    const auto in = ops::detail::dims_of<r>(a);
    const auto stride = ops::detail::row_major_strides(in);
    constexpr std::array<std::size_t, r> m{M...};
    std::array<std::size_t, r> d{};
    for (std::size_t i = 0; i < r; ++i) d[i] = in[i] * m[i];
    const auto* x = ops::detail::data_ptr(a);
    ops::detail::write_out<shape_of<tile_node>>(out, d, [&](auto* o) {
      ops::detail::for_each_index(d, [&](std::size_t k, const auto& idx) {
        std::size_t off = 0;
        for (std::size_t i = 0; i < r; ++i) off += (idx[i] % in[i]) * stride[i];
        o[k] = x[off];
      });
    });
  }
};

/// The gradient of a tile: G summed over the tiles, in A's shape.
template <class G, class A, std::size_t... M>
struct tile_grad_node : node_facade<value_type_of<G>, shape_of<A>, node_kind::compute, G, A>,
                        op_info_of<ops::detail::tile_grad_kind> {
  template <class... N>
  using rebind = tile_grad_node<N..., M...>;
  template <std::size_t K, class GG>
  using gradient = mp::mp_if_c<K == 0, tile_node<GG, M...>, no_gradient>;

  template <class Out, class VG, class VA>
  static void compute(Out& out, const VG& g, const VA& a) {
    constexpr std::size_t r = shape_of<A>::rank;
    const auto in = ops::detail::dims_of<r>(a);
    const auto stride = ops::detail::row_major_strides(in);
    const auto gd = ops::detail::dims_of<r>(g);
    const auto* gp = ops::detail::data_ptr(g);
    ops::detail::write_out<shape_of<A>>(out, in, [&](auto* o) {
      std::size_t total = 1;
      for (auto d : in) total *= d;
      for (std::size_t i = 0; i < total; ++i) o[i] = value_type_of<G>(0);
      ops::detail::for_each_index(gd, [&](std::size_t k, const auto& idx) {
        std::size_t off = 0;
        for (std::size_t i = 0; i < r; ++i) off += (idx[i] % in[i]) * stride[i];
        o[off] += gp[k];
      });
    });
  }
};

/// x reversed along the dimensions Axes....
template <class A, std::size_t... Axes>
struct reverse_node : node_facade<value_type_of<A>, shape_of<A>, node_kind::compute, A>, op_info<"ReverseV2"> {
  template <class... N>
  using rebind = reverse_node<N..., Axes...>;
  template <std::size_t K, class G>
  using gradient = reverse_node<G, Axes...>;

  template <class Out, class V>
  static void compute(Out& out, const V& a) {
    constexpr std::size_t r = shape_of<A>::rank;
    const auto in = ops::detail::dims_of<r>(a);
    // A view of the input that walks the reversed axes backwards: rows of the innermost
    // dimension are copied as blocks unless it is itself reversed.
    const auto stride = ops::detail::row_major_strides(in);
    ops::detail::view<r> v;
    for (std::size_t i = 0; i < r; ++i) {
      const auto s = static_cast<std::ptrdiff_t>(stride[i]);
      v.count[i] = in[i];
      v.step[i] = ops::detail::among<Axes...>(i) ? -s : s;
      if (ops::detail::among<Axes...>(i) && in[i] > 0) v.base += static_cast<std::ptrdiff_t>(in[i] - 1) * s;
    }
    ops::detail::write_out<shape_of<A>>(
        out, in, [&](auto* o) { ops::detail::copy_view<false>(v, ops::detail::data_ptr(a), o); });
  }
};

namespace ops::detail {
template <std::size_t R, std::ptrdiff_t... Axes>
constexpr bool distinct_axes_in_range() {
  std::array<bool, R> seen{};
  for (std::ptrdiff_t a : std::initializer_list<std::ptrdiff_t>{Axes...}) {
    if (!axis_in_range(a, R) || seen[normalized_axis(a, R)]) return false;
    seen[normalized_axis(a, R)] = true;
  }
  return true;
}
// The first of Axes whose static size is neither 1 nor dyn, or R.
template <class S, std::ptrdiff_t... Axes>
constexpr std::ptrdiff_t first_not_1() {
  for (std::ptrdiff_t a : std::initializer_list<std::ptrdiff_t>{Axes...}) {
    const auto d = S::dims[normalized_axis(a, S::rank)];
    if (d != 1 && d != dyn) return a;
  }
  return static_cast<std::ptrdiff_t>(S::rank);
}
// The static 1-dims of S.
template <class S>
constexpr auto ones_of() {
  constexpr std::size_t n = [] {
    std::size_t c = 0;
    for (auto d : S::dims) c += d == 1;
    return c;
  }();
  std::array<std::size_t, n> axes{};
  for (std::size_t i = 0, j = 0; i < S::rank; ++i)
    if (S::dims[i] == 1) axes[j++] = i;
  return axes;
}
template <class A, auto Axes, std::size_t... I>
constexpr auto squeeze_all(const A& a, std::index_sequence<I...>) {
  return make_node<squeeze_node<A, Axes[I]...>>(a);
}
}  // namespace ops::detail

/// tf.expand_dims(x, axis): a dimension of size 1 inserted at axis, in [-rank - 1, rank].
template <std::ptrdiff_t Axis, node A>
constexpr auto expand_dims(const A& a) {
  using S = shape_of<A>;
  constexpr auto r = static_cast<std::ptrdiff_t>(S::rank);
  if constexpr (Axis < -r - 1 || Axis > r) {
    static_assert(expand_dims_axis_is_out_of_range_for_shape<Axis, S>::value,
                  "typeflow::expand_dims<axis>(x): axis must be in [-rank(x) - 1, rank(x)]");
    return make_node<expand_dims_node<A, 0>>(a);
  } else {
    return make_node<expand_dims_node<A, static_cast<std::size_t>(Axis < 0 ? Axis + r + 1 : Axis)>>(a);
  }
}

/// tf.squeeze(x, axis=[axes...]): the axes removed, each of size 1 (a compile error for a
/// static size, InvalidArgument for a dyn one). `squeeze(x)`: every static dimension of size 1.
template <std::ptrdiff_t... Axes, node A>
constexpr auto squeeze(const A& a) {
  using S = shape_of<A>;
  if constexpr (sizeof...(Axes) == 0) {
    constexpr auto ones = ops::detail::ones_of<S>();
    return ops::detail::squeeze_all<A, ones>(a, std::make_index_sequence<ones.size()>{});
  } else if constexpr (!ops::detail::distinct_axes_in_range<S::rank, Axes...>()) {
    static_assert(axes_must_be_in_range_and_distinct_for_shape<ints<Axes...>, S>::value,
                  "typeflow::squeeze<axes...>(x): each axis in [-rank(x), rank(x)), once");
    return make_node<squeeze_node<A>>(a);
  } else if constexpr (constexpr auto bad = ops::detail::first_not_1<S, Axes...>(); bad != std::ptrdiff_t(S::rank)) {
    static_assert(squeeze_axis_is_not_of_size_1<bad, S>::value,
                  "typeflow::squeeze<axes...>(x): a squeezed dimension must have size 1");
    return make_node<squeeze_node<A>>(a);
  } else {
    return make_node<squeeze_node<A, ops::detail::normalized_axis(Axes, S::rank)...>>(a);
  }
}

/// tf.tile(x, multiples): x repeated multiples[i] times along dimension i.
template <std::ptrdiff_t... M, node A>
constexpr auto tile(const A& a) {
  using S = shape_of<A>;
  if constexpr (sizeof...(M) != S::rank || ((M < 0) || ... || false)) {
    static_assert(tile_needs_one_multiple_of_at_least_0_per_dimension<ints<M...>, S>::value,
                  "typeflow::tile<multiples...>(x): one multiple >= 0 per dimension of x");
    return make_node<reverse_node<A>>(a);
  } else {
    return make_node<tile_node<A, static_cast<std::size_t>(M)...>>(a);
  }
}

/// tf.reverse(x, axis=[axes...]): x reversed along each of the axes.
template <std::ptrdiff_t... Axes, node A>
constexpr auto reverse(const A& a) {
  using S = shape_of<A>;
  if constexpr (!ops::detail::distinct_axes_in_range<S::rank, Axes...>()) {
    static_assert(axes_must_be_in_range_and_distinct_for_shape<ints<Axes...>, S>::value,
                  "typeflow::reverse<axes...>(x): each axis in [-rank(x), rank(x)), once");
    return make_node<reverse_node<A>>(a);
  } else {
    return make_node<reverse_node<A, ops::detail::normalized_axis(Axes, S::rank)...>>(a);
  }
}

}  // namespace typeflow
