// typeflow/ops/pool.hpp — tf.nn.max_pool and tf.nn.avg_pool over NHWC images, their
// layers (tf.layers.max_pooling2d, average_pooling2d), tf.nn.bias_add and
// tf.layers.flatten: the ops between the convolutions of a CNN.
//
// `max_pool<ksize<2, 2>, strides<2, 2>, padding::valid>(x)` is tf.nn.max_pool(x,
// ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID"); the spellings and the
// output-size rule are those of ops/detail/window.hpp, the kernels ops/detail/pool.hpp.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <type_traits>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/dense.hpp"
#include "typeflow/ops/detail/pool.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"
#include "typeflow/ops/detail/window.hpp"
#include "typeflow/ops/math.hpp"
#include "typeflow/ops/reshape.hpp"

namespace typeflow {

namespace ops::detail {
struct max_pool_kind : op_info<"MaxPool"> {
  static constexpr bool is_max = true;
};
struct avg_pool_kind : op_info<"AvgPool"> {
  static constexpr bool is_max = false;
};

/// [N, out_h, out_w, C] of a pooling of S (`dyn` stays `dyn`).
template <class S, class KS, class ST, class P>
using pooled_shape = shape<S::dims[0], static_window_out(S::dims[1], KS::height, ST::height, 1, P::is_same),
                           static_window_out(S::dims[2], KS::width, ST::width, 1, P::is_same), S::dims[3]>;

/// The geometry of a pooling of the value x. With a dyn height or width the window may not
/// fit the fed image: TensorFlow's error, when the VALID output size would be negative.
template <class KS, class ST, class P, class V>
pool_geometry pool_geometry_of(const V& x) {
  const auto in = dims_of<4>(x);
  if constexpr (!P::is_same) {
    for (std::size_t d : {1, 2}) {
      const window_dim w{static_cast<std::ptrdiff_t>(in[d]), d == 1 ? KS::height : KS::width,
                         d == 1 ? ST::height : ST::width, 1, false};
      if (w.out() < 0)
        throw invalid_argument_error("Computed output size would be negative: " + std::to_string(w.out()) +
                                     " [input_size: " + std::to_string(w.in) +
                                     ", effective_filter_size: " + std::to_string(w.extent()) +
                                     ", stride: " + std::to_string(w.stride) + "]");
    }
  }
  return make_pool_geometry<KS, ST, P>(in);
}
/// The depth of S if static, else 0: the kernels' channel blocks are then compile-time.
template <class S>
inline constexpr std::size_t static_depth = S::dims[3] == dyn ? 0 : static_cast<std::size_t>(S::dims[3]);

template <class Out, class Shape>
void resize_pooled(Out& out, const pool_geometry& g) {
  if constexpr (!Shape::is_static) out.resize(std::array<std::size_t, 4>{g.batch, g.out_h, g.out_w, g.depth});
}
template <class Out, class Shape>
void resize_unpooled(Out& out, const pool_geometry& g) {
  if constexpr (!Shape::is_static) out.resize(std::array<std::size_t, 4>{g.batch, g.in_h, g.in_w, g.depth});
}
}  // namespace ops::detail

template <class Kind, class G, class A, class KS, class ST, class P>
struct pool_grad_node;
template <class G, class A, class KS, class ST, class P>
struct max_pool_grad_grad_node;

/// tf.nn.max_pool / tf.nn.avg_pool of A (NHWC), as Kind says.
template <class Kind, class A, class KS, class ST, class P>
struct pool_node : node_facade<value_type_of<A>, ops::detail::pooled_shape<shape_of<A>, KS, ST, P>, node_kind::compute, A>,
                   op_info_of<Kind> {
  template <class... N>
  using rebind = pool_node<Kind, N..., KS, ST, P>;
  template <std::size_t K, class G>
  using gradient = pool_grad_node<Kind, G, A, KS, ST, P>;

  template <class Out, class V>
  static void compute(Out& out, const V& a) {
    const auto g = ops::detail::pool_geometry_of<KS, ST, P>(a);
    ops::detail::resize_pooled<Out, shape_of<pool_node>>(out, g);
    if constexpr (Kind::is_max) {
      ops::detail::max_pool_forward<ops::detail::static_depth<shape_of<A>>>(a.data(), out.data(), g);
    } else {
      ops::detail::avg_pool_forward(a.data(), out.data(), g);
    }
  }
};

/// MaxPoolGrad / AvgPoolGrad: the gradient G of a pooling of A, in A's shape. A gives the
/// argmax positions (max) or only the shape (avg). Both are linear in G: the gradient with
/// respect to G of AvgPoolGrad is AvgPool, of MaxPoolGrad the gather at the argmax
/// (MaxPoolGradGrad); none flows to A (piecewise constant, as TensorFlow).
template <class Kind, class G, class A, class KS, class ST, class P>
struct pool_grad_node : node_facade<value_type_of<G>, shape_of<A>, node_kind::compute, G, A>,
                        std::conditional_t<Kind::is_max, op_info<"MaxPoolGrad">, op_info<"AvgPoolGrad">> {
  template <class... N>
  using rebind = pool_grad_node<Kind, N..., KS, ST, P>;
  template <std::size_t K, class GG>
  using gradient = mp::mp_if_c<K != 0, no_gradient,
                               mp::mp_if_c<Kind::is_max, max_pool_grad_grad_node<GG, A, KS, ST, P>,
                                           pool_node<Kind, GG, KS, ST, P>>>;

  template <class Out, class VG, class VA>
  static void compute(Out& out, const VG& dy, const VA& a) {
    const auto g = ops::detail::pool_geometry_of<KS, ST, P>(a);
    ops::detail::resize_unpooled<Out, shape_of<A>>(out, g);
    if constexpr (Kind::is_max) {
      ops::detail::max_pool_backward<ops::detail::static_depth<shape_of<A>>>(a.data(), dy.data(), out.data(), g);
    } else {
      ops::detail::avg_pool_backward(dy.data(), out.data(), g);
    }
  }
};

/// MaxPoolGradGrad with respect to the upstream gradient: GG (in A's shape) read at the
/// argmax of each window of A; its own gradient with respect to GG is MaxPoolGrad.
template <class G, class A, class KS, class ST, class P>
struct max_pool_grad_grad_node
    : node_facade<value_type_of<G>, ops::detail::pooled_shape<shape_of<A>, KS, ST, P>, node_kind::compute, G, A>,
      op_info<"MaxPoolGradGrad"> {
  template <class... N>
  using rebind = max_pool_grad_grad_node<N..., KS, ST, P>;
  template <std::size_t K, class GG>
  using gradient = mp::mp_if_c<K == 0, pool_grad_node<ops::detail::max_pool_kind, GG, A, KS, ST, P>, no_gradient>;

  template <class Out, class VG, class VA>
  static void compute(Out& out, const VG& ddx, const VA& a) {
    const auto g = ops::detail::pool_geometry_of<KS, ST, P>(a);
    ops::detail::resize_pooled<Out, shape_of<max_pool_grad_grad_node>>(out, g);
    ops::detail::max_pool_gather_argmax<ops::detail::static_depth<shape_of<A>>>(a.data(), ddx.data(), out.data(), g);
  }
};

// --- diagnostics ------------------------------------------------------------------------------

/// In a diagnostic: pooling takes an NHWC image, [batch, height, width, channels].
template <class Shape>
struct pool_input_must_have_rank_4 {
  static constexpr bool value = false;
};
/// In a diagnostic: every window and stride extent must be 1 or more.
template <class KSize, class Strides>
struct pool_ksize_and_strides_must_be_at_least_1 {
  static constexpr bool value = false;
};
/// In a diagnostic: with padding::valid the window is larger than the (static) image.
template <class KSize, class Strides, class Shape>
struct pool_window_leaves_no_output_with_valid_padding {
  static constexpr bool value = false;
};
/// In a diagnostic: the arguments are not ksize<h, w>, strides<h, w> and a padding.
template <class KSize, class Strides, class Padding>
struct pool_needs_ksize_strides_and_padding {
  static constexpr bool value = false;
};
/// In a diagnostic: bias_add's bias must be a vector as long as x's last dimension.
template <class BiasShape, class Shape>
struct bias_add_needs_a_bias_of_the_size_of_the_last_dim {
  static constexpr bool value = false;
};
/// In a diagnostic: flatten keeps the first (batch) dimension and needs the others static.
template <class Shape>
struct flatten_needs_static_dims_after_the_first {
  static constexpr bool value = false;
};

namespace ops::detail {
template <class T>
inline constexpr bool is_pool_ksize = false;
template <std::ptrdiff_t H, std::ptrdiff_t W>
inline constexpr bool is_pool_ksize<ksize<H, W>> = true;
template <class T>
inline constexpr bool is_pool_strides = false;
template <std::ptrdiff_t H, std::ptrdiff_t W>
inline constexpr bool is_pool_strides<strides<H, W>> = true;

template <class Kind, class KS, class ST, class P, class A>
constexpr auto make_pool(const A& a) {
  using S = shape_of<A>;
  static_assert(op_needs_a_floating_point_operand<value_type_of<A>>::value,
                "typeflow::max_pool / avg_pool(x) needs a float or double x");
  if constexpr (!is_pool_ksize<KS> || !is_pool_strides<ST> || !is_padding<P>) {
    static_assert(pool_needs_ksize_strides_and_padding<KS, ST, P>::value,
                  "typeflow::max_pool / avg_pool<ksize<h, w>, strides<h, w>, padding::same or "
                  "padding::valid>(x): give the window, the strides and the padding in this order");
    return a;
  } else if constexpr (S::rank != 4) {
    static_assert(pool_input_must_have_rank_4<S>::value,
                  "typeflow::max_pool / avg_pool(x): x must be an NHWC image [batch, height, width, channels]");
    return a;
  } else if constexpr (KS::height < 1 || KS::width < 1 || ST::height < 1 || ST::width < 1) {
    static_assert(pool_ksize_and_strides_must_be_at_least_1<KS, ST>::value,
                  "typeflow::max_pool / avg_pool<ksize, strides, padding>(x): the window and the strides must be >= 1");
    return a;
  } else if constexpr (!P::is_same &&
                       ((S::dims[1] != dyn && static_window_out(S::dims[1], KS::height, ST::height, 1, false) <= 0) ||
                        (S::dims[2] != dyn && static_window_out(S::dims[2], KS::width, ST::width, 1, false) <= 0))) {
    static_assert(pool_window_leaves_no_output_with_valid_padding<KS, ST, S>::value,
                  "typeflow::max_pool / avg_pool<ksize, strides, padding::valid>(x): the window is larger than "
                  "the image, so there is no output; use a smaller window or padding::same");
    return a;
  } else {
    return make_node<pool_node<Kind, A, KS, ST, P>>(a);
  }
}
}  // namespace ops::detail

/// tf.nn.max_pool(x, ksize=[1, kh, kw, 1], strides=[1, sh, sw, 1], padding): x is NHWC
/// [N, H, W, C] (N, H, W may be dyn), the result [N, out(H), out(W), C] with TensorFlow's
/// SAME / VALID output sizes. Gradient: MaxPoolGrad, to the first maximum of each window.
template <class KS, class ST, class P, node A>
constexpr auto max_pool(const A& a) {
  return ops::detail::make_pool<ops::detail::max_pool_kind, KS, ST, P>(a);
}

/// tf.nn.avg_pool(x, ksize, strides, padding): the mean of each window's in-bounds elements
/// (a SAME window over the border divides by fewer). Gradient: AvgPoolGrad.
template <class KS, class ST, class P, node A>
constexpr auto avg_pool(const A& a) {
  return ops::detail::make_pool<ops::detail::avg_pool_kind, KS, ST, P>(a);
}

/// tf.nn.bias_add(x, bias): x + bias along x's last dimension, the op TensorFlow's graphs
/// call BiasAdd. x has rank >= 2; bias is a vector of x's last dimension.
template <node X, node B>
constexpr auto bias_add(const X& x, const B& bias) {
  using SX = shape_of<X>;
  using SB = shape_of<B>;
  // A dyn last dim or bias length is checked when the values come (broadcasting).
  constexpr bool fits = [] {
    if (SX::rank < 2 || SB::rank != 1) return false;
    const auto last = SX::dims[SX::rank - 1], n = SB::dims[0];
    return last == n || last == dyn || n == dyn;
  }();
  if constexpr (!fits) {
    static_assert(bias_add_needs_a_bias_of_the_size_of_the_last_dim<SB, SX>::value,
                  "typeflow::bias_add(x, bias): x needs rank >= 2 and bias must be a vector as long as x's last "
                  "dimension");
    return x;
  } else {
    return make_binary<fn::bias_add>(x, bias);
  }
}

namespace ops::detail {
template <class S>
constexpr std::ptrdiff_t trailing_product() {
  std::ptrdiff_t p = 1;
  for (std::size_t i = 1; i < S::rank; ++i) p = S::dims[i] == dyn ? dyn : (p == dyn ? dyn : p * S::dims[i]);
  return p;
}
}  // namespace ops::detail

/// tf.layers.flatten(x): [N, d1, d2, ...] to [N, d1 * d2 * ...], a reshape; N may be dyn,
/// the other dims must be static. Gradient: the reshape back.
template <node A>
constexpr auto flatten(const A& a) {
  using S = shape_of<A>;
  if constexpr (S::rank < 1 || ops::detail::trailing_product<S>() == dyn) {
    static_assert(flatten_needs_static_dims_after_the_first<S>::value,
                  "typeflow::flatten(x): x needs rank >= 1 and static dimensions after the first (batch) one");
    return a;
  } else {
    return reshape<shape<S::dims[0], ops::detail::trailing_product<S>()>>(a);
  }
}

namespace layers {

/// tf.layers.max_pooling2d(x, pool_size, strides, padding="valid", name): max_pool with its
/// op named "<Name>/MaxPool" ("max_pooling2d/MaxPool"). No variables.
template <class Pool, class Strides, class Padding = padding::valid, fixed_string Name = "max_pooling2d", node X>
auto max_pooling2d(const X& x) {
  return ops::detail::in_layer_scope<Name>(max_pool<Pool, Strides, Padding>(x));
}

/// tf.layers.average_pooling2d(x, pool_size, strides, padding="valid", name): avg_pool named
/// "<Name>/AvgPool" ("average_pooling2d/AvgPool").
template <class Pool, class Strides, class Padding = padding::valid, fixed_string Name = "average_pooling2d", node X>
auto average_pooling2d(const X& x) {
  return ops::detail::in_layer_scope<Name>(avg_pool<Pool, Strides, Padding>(x));
}

/// tf.layers.max_pooling2d(x, pool_size=P, strides=S): square window and strides, as
/// TensorFlow's integer arguments; `max_pooling2d<2, 2>(x)`.
template <std::ptrdiff_t P, std::ptrdiff_t S, class Padding = padding::valid, fixed_string Name = "max_pooling2d", node X>
auto max_pooling2d(const X& x) {
  return max_pooling2d<ksize<P>, strides<S>, Padding, Name>(x);
}

/// tf.layers.average_pooling2d(x, pool_size=P, strides=S): `average_pooling2d<2, 2>(x)`.
template <std::ptrdiff_t P, std::ptrdiff_t S, class Padding = padding::valid, fixed_string Name = "average_pooling2d",
          node X>
auto average_pooling2d(const X& x) {
  return average_pooling2d<ksize<P>, strides<S>, Padding, Name>(x);
}

/// tf.layers.flatten(x, name): flatten with its op named "<Name>/Reshape" ("flatten/Reshape").
template <fixed_string Name = "flatten", node X>
auto flatten(const X& x) {
  return ops::detail::in_layer_scope<Name>(typeflow::flatten(x));
}

}  // namespace layers
}  // namespace typeflow
