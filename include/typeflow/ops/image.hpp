// typeflow/ops/image.hpp — tf.pad (CONSTANT, REFLECT, SYMMETRIC) and
// tf.image.resize_nearest_neighbor, with their gradients. Kernels: ops/detail/image.hpp.
//
// `pad<ints<1, 1>, ints<2, 2>>(x)` is tf.pad(x, [[1, 1], [2, 2]]): one ints<before, after>
// per dimension; a mode first, `pad<pad_mode::reflect, ints<1, 1>, ...>(x)`, is
// tf.pad(x, paddings, mode="REFLECT").
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <type_traits>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/detail/image.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"
#include "typeflow/ops/slice.hpp"

namespace typeflow {

/// tf.pad's modes: the first argument of pad<...> when it is not CONSTANT.
namespace pad_mode {
struct constant {};
struct reflect {};
struct symmetric {};
}  // namespace pad_mode

namespace ops::detail {
/// Pad with zeros (Pad), with a given scalar (PadV2), or mirrored (MirrorPad). The gradient
/// of a constant pad is a Slice of the upstream gradient; of a mirror pad, MirrorPadGrad
/// (the mirrored elements added back onto their sources).
template <fixed_string OpName, pad_fill Fill, fixed_string GradName>
struct pad_kind_of : op_info<OpName> {
  static constexpr pad_fill fill = Fill;
  using grad = op_info<GradName>;
};
struct zero_pad_kind : pad_kind_of<"Pad", pad_fill::constant, "Slice"> {};
struct value_pad_kind : pad_kind_of<"PadV2", pad_fill::constant, "Slice"> {};
struct reflect_pad_kind : pad_kind_of<"MirrorPad", pad_fill::reflect, "MirrorPadGrad"> {};
struct symmetric_pad_kind : pad_kind_of<"MirrorPad", pad_fill::symmetric, "MirrorPadGrad"> {};

/// The gradient of a pad's gradient pads again; that of a constant pad with zeros.
template <class Kind>
using adjoint_pad_kind = mp::mp_if_c<Kind::fill == pad_fill::constant, zero_pad_kind, Kind>;

template <class S, auto Pd>
struct padded_shape {
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>)
      -> shape<(S::dims[I] == dyn ? dyn : S::dims[I] + Pd.before[I] + Pd.after[I])...>;
  using type = decltype(make(std::make_index_sequence<S::rank>{}));
};

/// A mirrored pad of a dyn dimension must fit the fed size, as TensorFlow checks at run
/// time: REFLECT paddings < the dimension, SYMMETRIC ones <= it.
template <class Kind, std::size_t R, class S>
void check_mirror_fits(const std::array<std::size_t, R>& in, const pad_spec<R>& p) {
  if constexpr (Kind::fill != pad_fill::constant && !S::is_static) {
    const bool reflect = Kind::fill == pad_fill::reflect;
    for (std::size_t d = 0; d < R; ++d) {
      const auto n = static_cast<std::ptrdiff_t>(in[d]);
      const std::ptrdiff_t limit = reflect ? n - 1 : n;
      if (p.before[d] > limit || p.after[d] > limit)
        throw invalid_argument_error(std::string("paddings must be ") +
                                     (reflect ? "less than" : "no greater than") + " the dimension size: " +
                                     std::to_string(p.before[d]) + ", " + std::to_string(p.after[d]) + " " +
                                     (reflect ? "not less than " : "greater than ") + std::to_string(n));
    }
  }
}

template <class T, class V>
T scalar_value(const V& v) {
  if constexpr (std::is_arithmetic_v<V>) {
    return static_cast<T>(v);
  } else {
    return static_cast<T>(*v.data());
  }
}
}  // namespace ops::detail

template <class Kind, auto Pd, class G, class A>
struct pad_grad_node;

/// A padded to the paddings Pd (ops::detail::pad_spec) as Kind says; In is A, or A and the
/// scalar constant_values (PadV2).
template <class Kind, auto Pd, class A, class... C>
struct pad_node
    : node_facade<value_type_of<A>, typename ops::detail::padded_shape<shape_of<A>, Pd>::type, node_kind::compute, A, C...>,
      op_info_of<Kind> {
  template <class... N>
  using rebind = pad_node<Kind, Pd, N...>;
  // No gradient flows to constant_values, as in TensorFlow (None).
  template <std::size_t K, class G>
  using gradient = mp::mp_if_c<K == 0, pad_grad_node<Kind, Pd, G, A>, no_gradient>;

  template <class Out, class VA, class... VC>
  static void compute(Out& out, const VA& a, const VC&... c) {
    using T = value_type_of<A>;
    constexpr std::size_t r = shape_of<A>::rank;
    const auto in = ops::detail::dims_of<r>(a);
    ops::detail::check_mirror_fits<Kind, r, shape_of<A>>(in, Pd);
    if constexpr (!shape_of<pad_node>::is_static) {
      std::array<std::size_t, r> dims{};
      for (std::size_t d = 0; d < r; ++d) dims[d] = in[d] + static_cast<std::size_t>(Pd.before[d] + Pd.after[d]);
      out.resize(dims);
    }
    const T fill = (T(0) + ... + ops::detail::scalar_value<T>(c));
    const T* x = a.data();
    T* o = out.data();
    ops::detail::for_each_padded<r>(in, Pd, Kind::fill,
                                    [&](std::size_t k, std::ptrdiff_t i) { o[k] = i < 0 ? fill : x[i]; });
  }
};

/// The gradient of a pad of A: Slice (constant) or MirrorPadGrad, in A's shape.
template <class Kind, auto Pd, class G, class A>
struct pad_grad_node : node_facade<value_type_of<G>, shape_of<A>, node_kind::compute, G, A>,
                       op_info_of<typename Kind::grad> {
  template <class... N>
  using rebind = pad_grad_node<Kind, Pd, N...>;
  template <std::size_t K, class GG>
  using gradient = mp::mp_if_c<K == 0, pad_node<ops::detail::adjoint_pad_kind<Kind>, Pd, GG>, no_gradient>;

  template <class Out, class VG, class VA>
  static void compute(Out& out, const VG& g, const VA& a) {
    using T = value_type_of<G>;
    constexpr std::size_t r = shape_of<A>::rank;
    const auto in = ops::detail::dims_of<r>(a);
    if constexpr (!shape_of<A>::is_static) out.resize(in);
    T* o = out.data();
    const T* gp = g.data();
    std::fill(o, o + ops::detail::dims_product<r>(in, 0, r), T(0));
    ops::detail::for_each_padded<r>(in, Pd, Kind::fill, [&](std::size_t k, std::ptrdiff_t i) {
      if (i >= 0) o[i] += gp[k];
    });
  }
};

template <class G, class A>
struct resize_nearest_grad_node;

/// tf.image.resize_nearest_neighbor(A, [H, W]) (align_corners=False, half_pixel_centers=False).
template <class A, std::ptrdiff_t H, std::ptrdiff_t W>
struct resize_nearest_node
    : node_facade<value_type_of<A>, shape<shape_of<A>::dims[0], H, W, shape_of<A>::dims[3]>, node_kind::compute, A>,
      op_info<"ResizeNearestNeighbor"> {
  template <class... N>
  using rebind = resize_nearest_node<N..., H, W>;
  template <std::size_t K, class G>
  using gradient = resize_nearest_grad_node<G, A>;

  template <class Out, class V>
  static void compute(Out& out, const V& a) {
    const auto in = ops::detail::dims_of<4>(a);
    if (in[1] == 0 || in[2] == 0) throw invalid_argument_error("input image must be of non-zero size");
    if constexpr (!shape_of<resize_nearest_node>::is_static)
      out.resize(std::array<std::size_t, 4>{in[0], std::size_t(H), std::size_t(W), in[3]});
    const auto* x = a.data();
    auto* o = out.data();
    ops::detail::for_each_nearest(in, H, W, [&](std::size_t dst, std::size_t src) {
      for (std::size_t k = 0; k < in[3]; ++k) o[dst + k] = x[src + k];
    });
  }
};

/// ResizeNearestNeighborGrad: each pixel of G added onto the source pixel it was read from,
/// in A's shape. Its gradient with respect to G is the resize again.
template <class G, class A>
struct resize_nearest_grad_node : node_facade<value_type_of<G>, shape_of<A>, node_kind::compute, G, A>,
                                  op_info<"ResizeNearestNeighborGrad"> {
  template <class... N>
  using rebind = resize_nearest_grad_node<N...>;
  template <std::size_t K, class GG>
  using gradient =
      mp::mp_if_c<K == 0, resize_nearest_node<GG, shape_of<G>::dims[1], shape_of<G>::dims[2]>, no_gradient>;

  template <class Out, class VG, class VA>
  static void compute(Out& out, const VG& g, const VA& a) {
    using T = value_type_of<G>;
    const auto in = ops::detail::dims_of<4>(a);
    if constexpr (!shape_of<A>::is_static) out.resize(in);
    T* o = out.data();
    const T* gp = g.data();
    std::fill(o, o + ops::detail::dims_product<4>(in, 0, 4), T(0));
    constexpr auto h = static_cast<std::size_t>(shape_of<G>::dims[1]), w = static_cast<std::size_t>(shape_of<G>::dims[2]);
    ops::detail::for_each_nearest(in, h, w, [&](std::size_t dst, std::size_t src) {
      for (std::size_t k = 0; k < in[3]; ++k) o[src + k] += gp[dst + k];
    });
  }
};

// --- diagnostics ------------------------------------------------------------------------------

/// In a diagnostic: pad needs one ints<before, after> per dimension of x, each >= 0.
template <class Shape, class... Paddings>
struct pad_needs_one_ints_before_after_of_at_least_0_per_dimension {
  static constexpr bool value = false;
};
/// In a diagnostic: REFLECT paddings must be < the dimension, SYMMETRIC ones <= it.
template <class Mode, class Shape, class... Paddings>
struct mirror_pad_paddings_must_fit_in_the_dimension {
  static constexpr bool value = false;
};
/// In a diagnostic: constant_values must be a scalar node of x's element type, and the
/// mode CONSTANT.
template <class Mode, class ValueType, class ValueShape>
struct pad_constant_values_must_be_a_scalar_of_the_element_type {
  static constexpr bool value = false;
};
/// In a diagnostic: resize_nearest_neighbor<H, W>(x) takes an NHWC image and H, W >= 1.
template <class Size, class Shape>
struct resize_nearest_neighbor_needs_an_nhwc_image_and_a_size_of_at_least_1 {
  static constexpr bool value = false;
};

namespace ops::detail {
template <class T>
inline constexpr bool is_pad_pair = false;
template <std::ptrdiff_t B, std::ptrdiff_t A>
inline constexpr bool is_pad_pair<ints<B, A>> = B >= 0 && A >= 0;

template <class T>
inline constexpr bool is_pad_mode = std::is_same_v<T, pad_mode::constant> || std::is_same_v<T, pad_mode::reflect> ||
                                    std::is_same_v<T, pad_mode::symmetric>;

template <std::ptrdiff_t B, std::ptrdiff_t A>
constexpr std::array<std::ptrdiff_t, 2> pad_pair(ints<B, A>) {
  return {B, A};
}
template <class... P>
constexpr pad_spec<sizeof...(P)> make_pad_spec() {
  pad_spec<sizeof...(P)> s{};
  std::size_t d = 0;
  ((s.before[d] = pad_pair(P{})[0], s.after[d] = pad_pair(P{})[1], ++d), ...);
  return s;
}
template <class Mode, bool WithValue>
using pad_kind_for =
    mp::mp_if_c<std::is_same_v<Mode, pad_mode::reflect>, reflect_pad_kind,
                mp::mp_if_c<std::is_same_v<Mode, pad_mode::symmetric>, symmetric_pad_kind,
                            mp::mp_if_c<WithValue, value_pad_kind, zero_pad_kind>>>;

/// Whether mirrored paddings fit the static dims: < dim (reflect), <= dim (symmetric).
template <class Mode, class S, class... P>
constexpr bool mirror_fits() {
  if constexpr (std::is_same_v<Mode, pad_mode::constant>) {
    return true;
  } else {
    constexpr auto spec = make_pad_spec<P...>();
    constexpr std::ptrdiff_t slack = std::is_same_v<Mode, pad_mode::reflect> ? 1 : 0;
    for (std::size_t d = 0; d < S::rank; ++d)
      if (S::dims[d] != dyn && (spec.before[d] > S::dims[d] - slack || spec.after[d] > S::dims[d] - slack))
        return false;
    return true;
  }
}

template <class Mode, class... P, class A, class... C>
constexpr auto make_pad(const A& a, const C&... c) {
  using S = shape_of<A>;
  if constexpr (sizeof...(P) != S::rank || S::rank == 0 || !(is_pad_pair<P> && ...)) {
    static_assert(pad_needs_one_ints_before_after_of_at_least_0_per_dimension<S, P...>::value,
                  "typeflow::pad<ints<before, after>...>(x): one pair of paddings >= 0 per dimension of x");
    return a;
  } else if constexpr (!mirror_fits<Mode, S, P...>()) {
    static_assert(mirror_pad_paddings_must_fit_in_the_dimension<Mode, S, P...>::value,
                  "typeflow::pad<pad_mode::reflect or symmetric, ints<before, after>...>(x): REFLECT paddings must "
                  "be smaller than the dimension, SYMMETRIC ones at most the dimension");
    return a;
  } else {
    return make_node<pad_node<pad_kind_for<Mode, sizeof...(C) != 0>, make_pad_spec<P...>(), A, C...>>(a, c...);
  }
}
}  // namespace ops::detail

/// tf.pad(x, [[b0, a0], [b1, a1], ...]) as `pad<ints<b0, a0>, ints<b1, a1>, ...>(x)`, mode
/// CONSTANT with zeros; `pad<pad_mode::reflect, ints<...>...>(x)` (or pad_mode::symmetric)
/// is mode="REFLECT" ("SYMMETRIC"). Each dimension grows by before + after (dyn stays dyn).
/// Gradient: the slice of the upstream gradient (MirrorPadGrad for the mirrored modes).
template <class First, class... Rest, node A>
constexpr auto pad(const A& a) {
  if constexpr (ops::detail::is_pad_mode<First>) {
    return ops::detail::make_pad<First, Rest...>(a);
  } else {
    return ops::detail::make_pad<pad_mode::constant, First, Rest...>(a);
  }
}

/// tf.pad(x, paddings, constant_values=c) as `pad<ints<b, a>...>(x, c)`: c is a scalar node
/// of x's element type (op PadV2). No gradient flows to c, as in TensorFlow.
template <class First, class... Rest, node A, node C>
constexpr auto pad(const A& a, const C& c) {
  using Mode = mp::mp_if_c<ops::detail::is_pad_mode<First>, First, pad_mode::constant>;
  if constexpr (!std::is_same_v<Mode, pad_mode::constant> || shape_of<C>::rank != 0 ||
                !std::is_same_v<value_type_of<C>, value_type_of<A>>) {
    static_assert(pad_constant_values_must_be_a_scalar_of_the_element_type<Mode, value_type_of<C>, shape_of<C>>::value,
                  "typeflow::pad<ints<before, after>...>(x, constant_values): constant_values must be a scalar "
                  "node of x's element type, and the mode CONSTANT");
    return a;
  } else if constexpr (ops::detail::is_pad_mode<First>) {
    return ops::detail::make_pad<Mode, Rest...>(a, c);
  } else {
    return ops::detail::make_pad<Mode, First, Rest...>(a, c);
  }
}

/// tf.image.resize_nearest_neighbor(x, [H, W]) with TensorFlow 1.x's defaults
/// (align_corners=False, half_pixel_centers=False): output pixel (y, x) is input pixel
/// (min(floor(y * in_h / H), in_h - 1), likewise for x). x is NHWC; N, in_h and in_w may be
/// dyn. Gradient: ResizeNearestNeighborGrad, each output pixel's gradient summed into its source.
template <std::ptrdiff_t H, std::ptrdiff_t W, node A>
constexpr auto resize_nearest_neighbor(const A& a) {
  using S = shape_of<A>;
  if constexpr (S::rank != 4 || H < 1 || W < 1) {
    static_assert(resize_nearest_neighbor_needs_an_nhwc_image_and_a_size_of_at_least_1<ints<H, W>, S>::value,
                  "typeflow::resize_nearest_neighbor<H, W>(x): x must be an NHWC image [batch, height, width, "
                  "channels] and H, W >= 1");
    return a;
  } else {
    return make_node<resize_nearest_node<A, H, W>>(a);
  }
}

}  // namespace typeflow
