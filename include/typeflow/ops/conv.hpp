// typeflow/ops/conv.hpp — tf.nn.conv2d, tf.nn.depthwise_conv2d and tf.nn.conv2d_transpose
// over NHWC images, their gradients (Conv2DBackpropInput, Conv2DBackpropFilter and the
// depthwise ones), and tf.layers.conv2d. Options are types in any order, each at most once:
// `conv2d<strides<2, 2>, padding::same, dilations<1, 1>>(x, filter)`; the defaults are
// strides<1, 1>, padding::valid and dilations<1, 1> (ops/detail/window.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/dense.hpp"
#include "typeflow/ops/detail/conv_kernels.hpp"
#include "typeflow/ops/detail/window.hpp"

namespace typeflow {

// --- diagnostics: each names the user's values ------------------------------------------

/// In a diagnostic: an option of conv2d<...> that is not strides<>, padding:: or dilations<>,
/// or one of them given twice.
template <class... Options>
struct conv_options_must_be_strides_padding_and_dilations_at_most_once_each {
  static constexpr bool value = false;
};
template <class InputShape>
struct conv_input_must_be_rank_4_nhwc_with_static_channels {
  static constexpr bool value = false;
};
template <class FilterShape>
struct conv_filter_must_be_rank_4_with_a_static_shape {
  static constexpr bool value = false;
};
template <class Strides, class Dilations>
struct conv_strides_and_dilations_must_be_at_least_1 {
  static constexpr bool value = false;
};
/// The filter's in-channels (dim 2) and the input's channels (dim 3), then both shapes.
template <std::ptrdiff_t FilterChannels, std::ptrdiff_t InputChannels, class FilterShape, class InputShape>
struct conv2d_filter_input_channels_must_match_the_input {
  static constexpr bool value = false;
};
template <class InputShape, class FilterShape, class Padding, class Strides, class Dilations>
struct conv_window_leaves_no_output {
  static constexpr bool value = false;
};
/// conv2d_transpose: conv2d of output_shape with the filter must give the value's shape.
template <class OutputShape, class FilterShape, class ValueShape, class Padding, class Strides, class Dilations>
struct conv2d_transpose_output_shape_must_convolve_to_the_value_shape {
  static constexpr bool value = false;
};
/// layers::conv2d: the layer's name and its input's shape.
template <fixed_string Layer, class InputShape>
struct conv2d_layer_input_must_be_rank_4_nhwc_with_static_channels {
  static constexpr bool value = false;
};
/// layers::conv2d: the layer's name, its input's and kernel's shapes and its options.
template <fixed_string Layer, class InputShape, class KernelShape, class Padding, class Strides, class Dilations>
struct conv2d_layer_leaves_no_output {
  static constexpr bool value = false;
};

namespace ops::detail {

/// The run-time geometry of a convolution of an [n, h, w, c] input with filter shape SF.
template <class Spec, class SF>
conv_geometry make_conv_geometry(std::size_t n, std::size_t h, std::size_t w, std::size_t c, std::string_view op) {
  constexpr auto kh = SF::dims[0], kw = SF::dims[1];
  const window_dim dh{std::ptrdiff_t(h), kh, Spec::sh, Spec::dh, Spec::same};
  const window_dim dw{std::ptrdiff_t(w), kw, Spec::sw, Spec::dw, Spec::same};
  if (dh.out() <= 0 || dw.out() <= 0)
    throw invalid_argument_error(std::string(op) + ": the filter (" + std::to_string(kh) + "x" +
                                 std::to_string(kw) + ", dilated) does not fit in the " + std::to_string(h) + "x" +
                                 std::to_string(w) + " input with padding " + Spec::padding_type::name);
  return {n, h, w, c, std::size_t(kh), std::size_t(kw), std::size_t(SF::dims[3]), std::size_t(dh.out()),
          std::size_t(dw.out()), std::size_t(Spec::sh), std::size_t(Spec::sw), std::size_t(Spec::dh),
          std::size_t(Spec::dw), dh.pad_before(), dw.pad_before()};
}

template <class Spec>
struct conv_ops {
  using forward = op_info<"Conv2D">;
  using input = op_info<"Conv2DBackpropInput">;
  using filter = op_info<"Conv2DBackpropFilter">;
};
template <class S, class P, class D>
struct conv_ops<conv_spec<S, P, D, true>> {
  using forward = op_info<"DepthwiseConv2dNative">;
  using input = op_info<"DepthwiseConv2dNativeBackpropInput">;
  using filter = op_info<"DepthwiseConv2dNativeBackpropFilter">;
};

}  // namespace ops::detail

template <class Spec, class X, class F>
struct conv2d_node;
template <class Spec, class S, class F, class G, class... Like>
struct conv_backprop_input_node;
template <class Spec, class SF, class X, class G>
struct conv_backprop_filter_node;

namespace ops::detail {
/// The gradient of a convolution of X with respect to X, given the filter F and dy G: it
/// reads X's run-time height and width when they are dynamic.
template <class Spec, class X, class F, class G>
using conv_input_gradient =
    mp::mp_if_c<shape_of<X>::dims[1] != dyn && shape_of<X>::dims[2] != dyn,
                conv_backprop_input_node<Spec, shape_of<X>, F, G>, conv_backprop_input_node<Spec, shape_of<X>, F, G, X>>;
}  // namespace ops::detail

/// y = conv2d(x, f) (depthwise_conv2d with a depthwise Spec).
template <class Spec, class X, class F>
struct conv2d_node : node_facade<value_type_of<X>, typename ops::detail::conv_rule<Spec, shape_of<X>, shape_of<F>>::type,
                                 node_kind::compute, X, F>,
                     ops::detail::conv_ops<Spec>::forward {
  template <class... N>
  using rebind = conv2d_node<Spec, N...>;

  // TensorFlow's _Conv2DGrad: Conv2DBackpropInput(shape(x), f, dy), Conv2DBackpropFilter(x, shape(f), dy).
  template <std::size_t K, class G>
  using gradient = mp::mp_if_c<K == 0, ops::detail::conv_input_gradient<Spec, X, F, G>,
                               conv_backprop_filter_node<Spec, shape_of<F>, X, G>>;

  template <class Out, class VX, class VF>
  static void compute(Out& out, const VX& x, const VF& f) {
    const auto& s = x.shape();
    const auto g = ops::detail::make_conv_geometry<Spec, shape_of<F>>(s[0], s[1], s[2], s[3], op_info_of<conv2d_node>::op_name);
    if constexpr (!shape_of<conv2d_node>::is_static)
      out.resize(std::array<std::size_t, 4>{g.n, g.oh, g.ow, Spec::depthwise ? g.c * g.o : g.o});
    if constexpr (Spec::depthwise)
      ops::detail::depthwise_forward(g, x.data(), f.data(), out.data());
    else
      ops::detail::conv2d_forward(g, x.data(), f.data(), out.data());
  }
};

/// dx of shape S (its dyn dims from dy's batch and, when given, Like's height and width)
/// from the filter F and dy G: Conv2DBackpropInput, also conv2d_transpose.
template <class Spec, class S, class F, class G, class... Like>
struct conv_backprop_input_node : node_facade<value_type_of<F>, S, node_kind::compute, F, G, Like...>,
                                  ops::detail::conv_ops<Spec>::input {
  template <class... N>
  using rebind = conv_backprop_input_node<Spec, S, N...>;

  // Linear in f and in dy: <gg, dx(f, dy)> = <conv2d(gg, f), dy> = <gg, dx>, so the filter's
  // gradient is Conv2DBackpropFilter(gg, dy) and dy's is conv2d(gg, f); Like is only a shape.
  template <std::size_t K, class GG>
  using gradient = mp::mp_if_c<K == 0, conv_backprop_filter_node<Spec, shape_of<F>, GG, G>,
                               mp::mp_if_c<K == 1, conv2d_node<Spec, GG, F>, no_gradient>>;

  template <class Out, class VF, class VG, class... VL>
  static void compute(Out& out, const VF& f, const VG& dy, const VL&... like) {
    const auto& sg = dy.shape();
    std::array<std::size_t, 4> dims{S::dims[0] == dyn ? std::size_t(sg[0]) : std::size_t(S::dims[0]), std::size_t(S::dims[1]),
                                     std::size_t(S::dims[2]), std::size_t(S::dims[3])};
    ((dims[1] = like.shape()[1], dims[2] = like.shape()[2]), ...);
    constexpr std::string_view op = op_info_of<conv_backprop_input_node>::op_name;
    const auto g = ops::detail::make_conv_geometry<Spec, shape_of<F>>(dims[0], dims[1], dims[2], dims[3], op);
    if (sg[0] != g.n || sg[1] != g.oh || sg[2] != g.ow || sg[3] != (Spec::depthwise ? g.c * g.o : g.o))
      throw invalid_argument_error(std::string(op) + ": out_backprop has shape " + shape_string(sg) +
                                   ", the convolution of an input of shape " + shape_string(dims) +
                                   " has another");
    if constexpr (!S::is_static) out.resize(dims);
    if constexpr (Spec::depthwise)
      ops::detail::depthwise_backprop_input(g, f.data(), dy.data(), out.data());
    else
      ops::detail::conv2d_backprop_input(g, f.data(), dy.data(), out.data());
  }
};

/// df of the filter's shape SF from the input X and dy G: Conv2DBackpropFilter.
template <class Spec, class SF, class X, class G>
struct conv_backprop_filter_node : node_facade<value_type_of<X>, SF, node_kind::compute, X, G>,
                                   ops::detail::conv_ops<Spec>::filter {
  template <class... N>
  using rebind = conv_backprop_filter_node<Spec, SF, N...>;

  // Linear in x and in dy: <gg, df(x, dy)> = <conv2d(x, gg), dy> = <Conv2DBackpropInput(gg, dy), x>.
  template <std::size_t K, class GG>
  using gradient = mp::mp_if_c<K == 0, ops::detail::conv_input_gradient<Spec, X, GG, G>, conv2d_node<Spec, X, GG>>;

  template <class Out, class VX, class VG>
  static void compute(Out& out, const VX& x, const VG& dy) {
    const auto& s = x.shape();
    const auto& sg = dy.shape();
    constexpr std::string_view op = op_info_of<conv_backprop_filter_node>::op_name;
    const auto g = ops::detail::make_conv_geometry<Spec, SF>(s[0], s[1], s[2], s[3], op);
    if (sg[0] != g.n || sg[1] != g.oh || sg[2] != g.ow || sg[3] != (Spec::depthwise ? g.c * g.o : g.o))
      throw invalid_argument_error(std::string(op) + ": out_backprop has shape " + shape_string(sg) +
                                   ", the convolution of the input " + shape_string(s) + " has another");
    if constexpr (Spec::depthwise)
      ops::detail::depthwise_backprop_filter(g, x.data(), dy.data(), out.data());
    else
      ops::detail::conv2d_backprop_filter(g, x.data(), dy.data(), out.data());
  }
};

namespace ops::detail {
/// The checks of a convolution of SX with SF, each failure one static_assert naming the
/// user's values; true when all pass.
template <class Opts, class SX, class SF, class... Options>
constexpr bool check_conv() {
  using spec = typename Opts::spec;
  using rule = conv_rule<spec, SX, SF>;
  if constexpr (!Opts::ok) {
    static_assert(conv_options_must_be_strides_padding_and_dilations_at_most_once_each<Options...>::value,
                  "typeflow::conv2d<options...>: each option is a typeflow::strides<h, w>, a "
                  "typeflow::padding::same or ::valid, or a typeflow::dilations<h, w>, at most once");
    return false;
  } else if constexpr (SX::rank != 4 || dim_or<SX>(3) == dyn) {
    static_assert(conv_input_must_be_rank_4_nhwc_with_static_channels<SX>::value,
                  "typeflow::conv2d(x, filter): x must be [batch, height, width, channels] (NHWC) "
                  "with a static number of channels");
    return false;
  } else if constexpr (SF::rank != 4 || !SF::is_static) {
    static_assert(conv_filter_must_be_rank_4_with_a_static_shape<SF>::value,
                  "typeflow::conv2d(x, filter): filter must be [height, width, in_channels, "
                  "out_channels] (depthwise: channel_multiplier) with a static shape");
    return false;
  } else if constexpr (!spec::steps_ok) {
    static_assert(conv_strides_and_dilations_must_be_at_least_1<typename spec::strides_type,
                                                                typename spec::dilations_type>::value,
                  "typeflow::conv2d<strides<h, w>, dilations<h, w>>: strides and dilations must be >= 1");
    return false;
  } else if constexpr (!rule::channels_ok) {
    static_assert(conv2d_filter_input_channels_must_match_the_input<SF::dims[2], SX::dims[3], SF, SX>::value,
                  "typeflow::conv2d(x, filter): filter's in_channels (dim 2) must equal x's channels (dim 3)");
    return false;
  } else if constexpr (!rule::fits) {
    static_assert(conv_window_leaves_no_output<SX, SF, typename spec::padding_type, typename spec::strides_type,
                                               typename spec::dilations_type>::value,
                  "typeflow::conv2d(x, filter): the (dilated) filter is larger than the input, so "
                  "padding::valid leaves no output; use a smaller filter or padding::same");
    return false;
  } else {
    return true;
  }
}
}  // namespace ops::detail

/// `conv2d<options...>(x, filter)` is tf.nn.conv2d(x, filter, strides=[1, sh, sw, 1],
/// padding, dilations=[1, dh, dw, 1]) with x [N, H, W, C] and filter [KH, KW, C, O]: y
/// [N, OH, OW, O], OH = ceil(H / sh) (SAME) or ceil((H - (KH - 1) dh) / sh) (VALID).
template <class... Options, node X, node F>
constexpr auto conv2d(const X& x, const F& f) {
  static_assert(std::is_same_v<value_type_of<X>, value_type_of<F>> && floating_element<value_type_of<X>>,
                "typeflow::conv2d(x, filter): x and filter must both be float or both double");
  using opts = ops::detail::conv_options<false, Options...>;
  if constexpr (ops::detail::check_conv<opts, shape_of<X>, shape_of<F>, Options...>())
    return make_node<conv2d_node<typename opts::spec, X, F>>(x, f);
  else
    return x;
}

/// `depthwise_conv2d<options...>(x, filter)` is tf.nn.depthwise_conv2d(x, filter, strides,
/// padding, dilations=rate) with filter [KH, KW, C, M]: y [N, OH, OW, C * M], channel c * M + m
/// the convolution of x's channel c with filter[:, :, c, m].
template <class... Options, node X, node F>
constexpr auto depthwise_conv2d(const X& x, const F& f) {
  static_assert(std::is_same_v<value_type_of<X>, value_type_of<F>> && floating_element<value_type_of<X>>,
                "typeflow::depthwise_conv2d(x, filter): x and filter must both be float or both double");
  using opts = ops::detail::conv_options<true, Options...>;
  if constexpr (ops::detail::check_conv<opts, shape_of<X>, shape_of<F>, Options...>())
    return make_node<conv2d_node<typename opts::spec, X, F>>(x, f);
  else
    return x;
}

/// `conv2d_transpose<shape<N, H, W, O>, options...>(value, filter)` is
/// tf.nn.conv2d_transpose(value, filter, output_shape=[N, H, W, O], strides, padding,
/// dilations) with value [N, H', W', C] and filter [KH, KW, O, C]: Conv2DBackpropInput, the
/// gradient of conv2d with respect to its input. output_shape is static (N may be dyn: the
/// value's batch); conv2d of it with the filter must give the value's shape.
template <class OutputShape, class... Options, node V, node F>
constexpr auto conv2d_transpose(const V& value, const F& f) {
  static_assert(std::is_same_v<value_type_of<V>, value_type_of<F>> && floating_element<value_type_of<V>>,
                "typeflow::conv2d_transpose(value, filter): value and filter must both be float or both double");
  using opts = ops::detail::conv_options<false, Options...>;
  using spec = typename opts::spec;
  using SV = shape_of<V>;
  using SF = shape_of<F>;
  using ops::detail::dim_or;
  if constexpr (OutputShape::rank != 4 || dim_or<OutputShape>(1) == dyn || dim_or<OutputShape>(2) == dyn) {
    static_assert(conv_input_must_be_rank_4_nhwc_with_static_channels<OutputShape>::value,
                  "typeflow::conv2d_transpose<output_shape>: output_shape is shape<N, H, W, C> with static H, W, C");
    return value;
  } else if constexpr (!ops::detail::check_conv<opts, OutputShape, SF, Options...>()) {
    return value;
  } else {
    using rule = ops::detail::conv_rule<spec, OutputShape, SF>;
    constexpr auto agree = [](std::ptrdiff_t a, std::ptrdiff_t b) { return a == dyn || b == dyn || a == b; };
    if constexpr (SV::rank != 4 || !agree(rule::type::dims[0], dim_or<SV>(0)) || !agree(rule::oh, dim_or<SV>(1)) ||
                  !agree(rule::ow, dim_or<SV>(2)) || rule::channels != dim_or<SV>(3)) {
      static_assert(conv2d_transpose_output_shape_must_convolve_to_the_value_shape<
                        OutputShape, SF, SV, typename spec::padding_type, typename spec::strides_type,
                        typename spec::dilations_type>::value,
                    "typeflow::conv2d_transpose<output_shape>(value, filter): conv2d of output_shape with "
                    "filter [KH, KW, O, C] must give value's shape [N, H', W', C]");
      return value;
    } else {
      using S = shape<OutputShape::dims[0] == dyn ? SV::dims[0] : OutputShape::dims[0], OutputShape::dims[1],
                      OutputShape::dims[2], OutputShape::dims[3]>;
      return make_node<conv_backprop_input_node<spec, S, F, V>>(f, value);
    }
  }
}

namespace ops::detail {
/// The checks of layers::conv2d: those that name the layer, then the op's; true when all pass.
template <std::size_t Filters, std::ptrdiff_t KH, std::ptrdiff_t KW, fixed_string Name, class SX, class... Options>
constexpr bool check_conv2d_layer() {
  using opts = conv_options<false, Options...>;
  using spec = typename opts::spec;
  using kernel_shape = shape<KH, KW, dim_or<SX>(3), std::ptrdiff_t(Filters)>;
  if constexpr (SX::rank != 4 || dim_or<SX>(3) == dyn) {
    static_assert(conv2d_layer_input_must_be_rank_4_nhwc_with_static_channels<Name, SX>::value,
                  "layers::conv2d<filters, kh, kw, name>(x): x must be [batch, height, width, channels] "
                  "with a static number of channels");
    return false;
  } else if constexpr (opts::ok && spec::steps_ok && KH >= 1 && KW >= 1 &&
                       !conv_rule<spec, SX, kernel_shape>::fits) {
    static_assert(conv2d_layer_leaves_no_output<Name, SX, kernel_shape, typename spec::padding_type,
                                                typename spec::strides_type, typename spec::dilations_type>::value,
                  "layers::conv2d<filters, kh, kw, name>(x): the (dilated) kernel is larger than x, so "
                  "padding::valid leaves no output; use a smaller kernel or padding::same");
    return false;
  } else {
    return check_conv<opts, SX, kernel_shape, Options...>();
  }
}
}  // namespace ops::detail

namespace layers {

/// `conv2d<filters, kh, kw, "name">(x, activation, options...)` is tf.layers.conv2d(x,
/// filters, (kh, kw), strides, padding, dilation_rate, activation, name): activation(
/// bias_add(conv2d(x, kernel), bias)) with variables "name/kernel" [kh, kw, C, filters]
/// (glorot_uniform) and "name/bias" [filters] (zeros), and ops "name/Conv2D",
/// "name/BiasAdd", "name/Relu". Options are values: `padding::same{}`, `strides<2>{}`.
template <std::size_t Filters, std::ptrdiff_t KH, std::ptrdiff_t KW = KH, fixed_string Name = "conv2d", node X,
          class Activation = activation::linear_t, class... Options>
auto conv2d(const X& x, Activation act = {}, Options...) {
  using SX = shape_of<X>;
  if constexpr (!ops::detail::check_conv2d_layer<Filters, KH, KW, Name, SX, Options...>()) {
    return x;
  } else {
    using T = value_type_of<X>;
    using kernel_shape = shape<KH, KW, SX::dims[3], std::ptrdiff_t(Filters)>;
    auto kernel = variable<join_names<Name, "kernel">(), T, kernel_shape, init::glorot_uniform()>();
    auto bias = variable<join_names<Name, "bias">(), T, shape<std::ptrdiff_t(Filters)>, init::zeros()>();
    auto conv = ops::detail::in_layer_scope<Name>(typeflow::conv2d<Options...>(x, kernel));
    auto biased = ops::detail::in_layer_scope<Name>(make_binary<fn::bias_add>(conv, bias));
    return ops::detail::in_layer_scope<Name>(act(biased));
  }
}

}  // namespace layers
}  // namespace typeflow
