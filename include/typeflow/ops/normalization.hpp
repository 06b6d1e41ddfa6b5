// typeflow/ops/normalization.hpp — batch normalization: tf.nn.moments,
// tf.nn.batch_normalization, tf.nn.fused_batch_norm and tf.layers.batch_normalization.
//
// x is seen as [rows, channels], channels its last axis (NHWC: rows = N * H * W). The fused
// op is three nodes, each one loop over x: the per-channel statistics (mean, variance,
// Bessel-corrected variance, [3, C]), the normalization (op FusedBatchNorm), and for the
// gradient the per-channel sums of dy and dy * x_hat ([2, C], FusedBatchNormGrad) that give
// scale's and offset's gradients and feed the one loop that computes x's.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>

#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/dense.hpp"
#include "typeflow/ops/detail/batch_norm.hpp"
#include "typeflow/ops/math.hpp"
#include "typeflow/ops/reduce.hpp"
#include "typeflow/ops/scope.hpp"
#include "typeflow/ops/select.hpp"
#include "typeflow/ops/state.hpp"
#include "typeflow/ops/variable.hpp"

namespace typeflow {

/// In a diagnostic: batch normalization of x of this element type, which is not float or double.
template <class ElementType>
struct batch_norm_needs_a_float_or_double_input {
  static constexpr bool value = false;
};
/// In a diagnostic: fused_batch_norm's x, which is not [N, H, W, C] with a static C.
template <class XShape>
struct fused_batch_norm_needs_a_rank_4_nhwc_input_with_static_channels {
  static constexpr bool value = false;
};
/// In a diagnostic: the channel count of x, and the shapes of scale and offset, which are
/// not [channels] (or not of x's element type).
template <std::ptrdiff_t Channels, class ScaleShape, class OffsetShape>
struct batch_norm_scale_and_offset_must_be_vectors_of_the_channel_count {
  static constexpr bool value = false;
};


/// Row Row of the [K, C] node S as a [C] node: FusedBatchNorm's batch_mean and
/// batch_variance, FusedBatchNormGrad's scale and offset gradients. TensorFlow's gradient of
/// FusedBatchNorm uses only the gradient of y, so none flows back through the statistics;
/// the gradient rows have no gradient rule (no second order through FusedBatchNormGrad).
template <std::size_t Row, bool Differentiable, class S>
struct batch_norm_row_node
    : node_facade<value_type_of<S>, shape<shape_of<S>::dims[1]>, node_kind::compute, S>,
      std::conditional_t<Differentiable, op_info<"FusedBatchNorm">, op_info<"FusedBatchNormGrad", false>> {
  template <class... N>
  using rebind = batch_norm_row_node<Row, Differentiable, N...>;
  template <std::size_t K, class G>
  using gradient = no_gradient;

  template <class Out, class V>
  static void compute(Out& out, const V& s) {
    constexpr std::size_t c = shape_of<S>::dims[1];
    const auto* p = s.data() + Row * c;
    for (std::size_t j = 0; j < c; ++j) out.data()[j] = p[j];
  }
};

/// The batch statistics of x over all axes but the last, [3, C]: mean, variance, variance
/// with Bessel's correction. With a bool Flag... input, computed only when it holds (zeros
/// otherwise): a layer in inference mode does not pay for them.
template <class X, class... Flag>
struct batch_norm_statistics_node
    : node_facade<value_type_of<X>, shape<3, ops::detail::channels_of<X>>, node_kind::compute, X, Flag...>,
      op_info<"FusedBatchNorm"> {
  template <class... N>
  using rebind = batch_norm_statistics_node<N...>;
  template <std::size_t K, class G>
  using gradient = no_gradient;

  template <class Out, class VX, class... VF>
  static void compute(Out& out, const VX& x, const VF&... flag) {
    using T = value_type_of<X>;
    constexpr std::size_t c = ops::detail::channels_of<X>;
    if ((static_cast<bool>(*ops::detail::data_ptr(flag)) && ... && true)) {
      ops::detail::batch_norm_statistics<c>(x.data(), ops::detail::rows_of(x, c), c, out.data());
    } else {
      for (std::size_t i = 0; i < 3 * c; ++i) out.data()[i] = T(0);
    }
  }
};

/// FusedBatchNormGrad's reductions, [2, C]: sum(dy) and sum(dy * x_hat) per channel.
template <ops::detail::batch_norm_mode M, class G, class X, class... P>
struct batch_norm_gradient_sums_node
    : node_facade<value_type_of<X>, shape<2, ops::detail::channels_of<X>>, node_kind::compute, G, X, P...>,
      op_info<"FusedBatchNormGrad", false> {
  template <class... N>
  using rebind = batch_norm_gradient_sums_node<M, N...>;

  template <class Out, class VG, class VX, class... VP>
  static void compute(Out& out, const VG& g, const VX& x, const VP&... p) {
    using T = value_type_of<X>;
    constexpr std::size_t c = ops::detail::channels_of<X>;
    const auto [params, batch] = ops::detail::batch_norm_params_of<M, T>(c, p...);
    (void)batch;
    ops::detail::batch_norm_gradient_sums<c>(g.data(), x.data(), ops::detail::rows_of(x, c), c, params, out.data());
  }
};

/// FusedBatchNormGrad's gradient of x, from dy, x, the sums and the statistics.
template <ops::detail::batch_norm_mode M, class G, class Sums, class X, class... P>
struct batch_norm_gradient_x_node
    : node_facade<value_type_of<X>, shape_of<X>, node_kind::compute, G, Sums, X, P...>,
      op_info<"FusedBatchNormGrad", false> {
  template <class... N>
  using rebind = batch_norm_gradient_x_node<M, N...>;

  template <class Out, class VG, class VS, class VX, class... VP>
  static void compute(Out& out, const VG& g, const VS& sums, const VX& x, const VP&... p) {
    using T = value_type_of<X>;
    constexpr std::size_t c = ops::detail::channels_of<X>;
    if constexpr (!shape_of<X>::is_static) out.resize(x.shape());
    const auto [params, batch] = ops::detail::batch_norm_params_of<M, T>(c, p...);
    ops::detail::batch_norm_gradient_x<c>(g.data(), x.data(), ops::detail::rows_of(x, c), c, params, sums.data(),
                                          batch, out.data());
  }
};

/// FusedBatchNorm's y: x normalized per channel with the statistics the mode names, then
/// scaled and offset. Gradients: x (FusedBatchNormGrad), scale (sum(dy * x_hat)) and offset
/// (sum(dy)); none for epsilon, the statistics, a given mean and variance, or the flag, as
/// TensorFlow's _FusedBatchNormGrad returns None for them.
template <ops::detail::batch_norm_mode M, class X, class... P>
struct fused_batch_norm_node : node_facade<value_type_of<X>, shape_of<X>, node_kind::compute, X, P...>,
                               op_info<"FusedBatchNorm"> {
  template <class... N>
  using rebind = fused_batch_norm_node<M, N...>;

  template <class G>
  using sums = batch_norm_gradient_sums_node<M, G, X, P...>;
  template <std::size_t K, class G>
  using gradient = mp::mp_if_c<
      K == 0, batch_norm_gradient_x_node<M, G, sums<G>, X, P...>,
      mp::mp_if_c<K == 1, batch_norm_row_node<1, false, sums<G>>,
                  mp::mp_if_c<K == 2, batch_norm_row_node<0, false, sums<G>>, no_gradient>>>;

  template <class Out, class VX, class... VP>
  static void compute(Out& out, const VX& x, const VP&... p) {
    using T = value_type_of<X>;
    constexpr std::size_t c = ops::detail::channels_of<X>;
    if constexpr (!shape_of<X>::is_static) out.resize(x.shape());
    const auto [params, batch] = ops::detail::batch_norm_params_of<M, T>(c, p...);
    (void)batch;
    ops::detail::batch_norm_forward<c>(x.data(), ops::detail::rows_of(x, c), c, params, out.data());
  }
};

/// What fused_batch_norm returns (TensorFlow's (y, batch_mean, batch_variance)); also
/// `auto [y, mean, variance] = fused_batch_norm(...)`.
template <class Y, class Mean, class Variance>
struct fused_batch_norm_result {
  Y y;
  Mean batch_mean;
  Variance batch_variance;
};

/// What moments returns (TensorFlow's (mean, variance)); also `auto [m, v] = moments<0>(x)`.
template <class Mean, class Variance>
struct moments_result {
  Mean mean;
  Variance variance;
};

namespace ops::detail {

/// Checks x of a batch normalization over its last axis; false after the one error it reports.
template <bool Fused, class X>
constexpr bool check_batch_norm_input() {
  using S = shape_of<X>;
  if constexpr (!floating_element<value_type_of<X>>) {
    static_assert(batch_norm_needs_a_float_or_double_input<value_type_of<X>>::value,
                  "batch normalization of x needs a float or double x: use typeflow::cast<float>(x)");
    return false;
  } else if constexpr (Fused && (S::rank != 4 || S::dims[S::rank - 1] == dyn)) {
    static_assert(fused_batch_norm_needs_a_rank_4_nhwc_input_with_static_channels<S>::value,
                  "typeflow::fused_batch_norm(x, scale, offset) needs x of rank 4, [N, H, W, C] (NHWC), "
                  "with a static C");
    return false;
  } else if constexpr (!Fused && (S::rank < 1 || S::dims[S::rank - 1] == dyn)) {
    static_assert(fused_batch_norm_needs_a_rank_4_nhwc_input_with_static_channels<S>::value,
                  "layers::batch_normalization(x, training) needs x with a static last (channel) axis");
    return false;
  } else {
    return true;
  }
}

/// Checks scale and offset (or mean and variance): [C] vectors of x's element type.
template <class X, class Scale, class Offset>
constexpr bool check_batch_norm_params() {
  if constexpr (!std::is_same_v<shape_of<Scale>, shape<channels_of<X>>> ||
                !std::is_same_v<shape_of<Offset>, shape<channels_of<X>>> ||
                !std::is_same_v<value_type_of<Scale>, value_type_of<X>> ||
                !std::is_same_v<value_type_of<Offset>, value_type_of<X>>) {
    static_assert(batch_norm_scale_and_offset_must_be_vectors_of_the_channel_count<
                      channels_of<X>, shape_of<Scale>, shape_of<Offset>>::value,
                  "typeflow::fused_batch_norm(x, scale, offset): scale and offset (and a given mean and "
                  "variance) must be vectors of x's element type with one element per channel (x's last "
                  "dimension)");
    return false;
  } else {
    return true;
  }
}

template <class X, class E>
constexpr bool check_epsilon() {
  static_assert(shape_of<E>::rank == 0 && std::is_arithmetic_v<value_type_of<E>>,
                "batch normalization: epsilon must be a scalar node, e.g. typeflow::constant<0.001>()");
  return shape_of<E>::rank == 0;
}

}  // namespace ops::detail

/// `moments<0, 1, 2>(x)` is tf.nn.moments(x, axes=[0, 1, 2]): {mean, variance} over the
/// axes, the variance E[(x - stop_gradient(mean))^2] as TensorFlow computes it;
/// `moments<axes...>(x, keep_dims)` keeps the reduced axes with size 1.
template <std::ptrdiff_t... Axes, node X>
constexpr auto moments(const X& x) {
  auto mean_kept = reduce_mean<Axes...>(x, keep_dims);
  auto mean = reduce_mean<Axes...>(x);
  auto variance = reduce_mean<Axes...>(square(x - stop_gradient(mean_kept)));
  return moments_result<decltype(mean), decltype(variance)>{mean, variance};
}
template <std::ptrdiff_t... Axes, node X>
constexpr auto moments(const X& x, keep_dims_t) {
  auto mean = reduce_mean<Axes...>(x, keep_dims);
  auto variance = reduce_mean<Axes...>(square(x - stop_gradient(mean)), keep_dims);
  return moments_result<decltype(mean), decltype(variance)>{mean, variance};
}

/// `batch_normalization(x, mean, variance, offset, scale, epsilon)` is
/// tf.nn.batch_normalization: (x - mean) * scale / sqrt(variance + epsilon) + offset, every
/// operand broadcasting against x; epsilon a scalar node (`constant<0.001>()`). Composed as
/// TensorFlow composes it: inv = scale / sqrt(variance + epsilon); x * inv + (offset - mean * inv).
template <node X, node Mean, node Variance, node Offset, node Scale, node Epsilon>
constexpr auto batch_normalization(const X& x, const Mean& mean, const Variance& variance, const Offset& offset,
                                   const Scale& scale, const Epsilon& epsilon) {
  static_assert(floating_element<value_type_of<X>>,
                "typeflow::batch_normalization(x, ...) needs a float or double x: use typeflow::cast<float>(x)");
  auto inv = scale / sqrt(variance + epsilon);
  return x * inv + (offset - mean * inv);
}

/// `fused_batch_norm(x, scale, offset)` is tf.nn.fused_batch_norm(x, scale, offset,
/// is_training=True) for NHWC x [N, H, W, C]: {y, batch_mean, batch_variance}, y normalized
/// with the batch's mean and variance (divided by N*H*W), batch_variance with Bessel's
/// correction (divided by N*H*W - 1), as TensorFlow's kernel returns it for the moving
/// statistics. epsilon is a scalar node, 0.001 by default.
template <node X, node Scale, node Offset, node Epsilon = literal_node<0.001, double>>
auto fused_batch_norm(const X& x, const Scale& scale, const Offset& offset, const Epsilon& epsilon = {}) {
  if constexpr (!ops::detail::check_batch_norm_input<true, X>()) {
    return fused_batch_norm_result<X, X, X>{x, x, x};  // inert: the error above is the one to read
  } else if constexpr (!ops::detail::check_batch_norm_params<X, Scale, Offset>()) {
    return fused_batch_norm_result<X, X, X>{x, x, x};
  } else if constexpr (!ops::detail::check_epsilon<X, Epsilon>()) {
    return fused_batch_norm_result<X, X, X>{x, x, x};
  } else {
    auto stats = make_node<batch_norm_statistics_node<X>>(x);
    auto y = make_node<fused_batch_norm_node<ops::detail::batch_norm_mode::training, X, Scale, Offset, Epsilon,
                                             decltype(stats)>>(x, scale, offset, epsilon, stats);
    auto mean = make_node<batch_norm_row_node<0, true, decltype(stats)>>(stats);
    auto variance = make_node<batch_norm_row_node<2, true, decltype(stats)>>(stats);
    return fused_batch_norm_result<decltype(y), decltype(mean), decltype(variance)>{y, mean, variance};
  }
}

/// `fused_batch_norm(x, scale, offset, mean, variance)` is tf.nn.fused_batch_norm(x, scale,
/// offset, mean, variance, is_training=False): y normalized with the given [C] mean and
/// variance; {y, mean, variance}.
template <node X, node Scale, node Offset, node Mean, node Variance, node Epsilon = literal_node<0.001, double>>
auto fused_batch_norm(const X& x, const Scale& scale, const Offset& offset, const Mean& mean, const Variance& variance,
                      const Epsilon& epsilon = {}) {
  if constexpr (!ops::detail::check_batch_norm_input<true, X>()) {
    return fused_batch_norm_result<X, X, X>{x, x, x};  // inert: the error above is the one to read
  } else if constexpr (!ops::detail::check_batch_norm_params<X, Scale, Offset>()) {
    return fused_batch_norm_result<X, X, X>{x, x, x};
  } else if constexpr (!ops::detail::check_batch_norm_params<X, Mean, Variance>() ||
                       !ops::detail::check_epsilon<X, Epsilon>()) {
    return fused_batch_norm_result<X, X, X>{x, x, x};
  } else {
    auto y = make_node<fused_batch_norm_node<ops::detail::batch_norm_mode::inference, X, Scale, Offset, Epsilon, Mean,
                                             Variance>>(x, scale, offset, epsilon, mean, variance);
    return fused_batch_norm_result<decltype(y), Mean, Variance>{y, mean, variance};
  }
}

/// In a diagnostic: layers::batch_normalization's training argument, which is not a bool scalar.
template <class ElementType, class Shape>
struct batch_normalization_training_must_be_a_bool_scalar {
  static constexpr bool value = false;
};

namespace layers {

/// What layers::batch_normalization returns: the normalized output, and the update of the
/// moving statistics, which the caller must run with its train op (TensorFlow's UPDATE_OPS
/// collection). typeflow keeps no program-wide collection, so the update travels with the
/// output; [[nodiscard]] and the `.output` a caller must spell make a dropped update visible.
///
///   auto bn = layers::batch_normalization<"bn">(x, training);
///   auto train_op = bn.with_updates(opt.minimize(loss));  // tf.group(update_ops, train_op)
template <class Output, class Updates>
struct [[nodiscard]] batch_normalization_result {
  Output output;
  Updates update_ops;
  /// The train op run after the moving statistics' updates, as
  /// `with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)): train_op = ...`.
  template <node Train>
  constexpr auto with_updates(const Train& train_op) const {
    return group(update_ops, train_op);
  }
};

/// `batch_normalization<"bn">(x, training)` is tf.layers.batch_normalization(x, training=
/// training, momentum=0.99, epsilon=0.001, name="bn") over x's last axis (channels):
/// variables "bn/gamma" (ones), "bn/beta" (zeros), "bn/moving_mean" (zeros) and
/// "bn/moving_variance" (ones), of shape [C]; momentum and epsilon become the scalar
/// constants "bn/momentum" and "bn/epsilon". `training` is a bool scalar node (a placeholder
/// fed per run, or `constant<true>()`). When it holds, x is normalized with the batch's
/// statistics (computed in one pass, over every axis but the last) and the update sets
/// moving = moving - (moving - batch) * (1 - momentum) (TensorFlow's assign_moving_average);
/// when not, the moving statistics normalize x and the update leaves them unchanged. As in
/// TensorFlow's fused layer (rank 4), the batch variance that updates moving_variance has
/// Bessel's correction; for other ranks (TensorFlow's non-fused layer) it has not.
/// The moving statistics are TensorFlow's trainable=False variables (`not_trainable`,
/// ops/variable.hpp; a program reads them as
/// variable<"bn/moving_mean", T, shape<C>, init::zeros()>(not_trainable)), and get no
/// gradient (FusedBatchNormGrad has none for them): no optimizer updates them.
template <fixed_string Name = "batch_normalization", node X, node Training>
auto batch_normalization(const X& x, const Training& training, double momentum = 0.99, double epsilon = 1e-3) {
  using T = value_type_of<X>;
  if constexpr (!ops::detail::check_batch_norm_input<false, X>()) {
    return batch_normalization_result<X, X>{x, x};  // inert: the error above is the one to read
  } else if constexpr (!std::is_same_v<value_type_of<Training>, bool> || shape_of<Training>::rank != 0) {
    static_assert(batch_normalization_training_must_be_a_bool_scalar<value_type_of<Training>,
                                                                     shape_of<Training>>::value,
                  "layers::batch_normalization(x, training): training must be a bool scalar node "
                  "(a placeholder<\"training\", bool>() or typeflow::constant<true>())");
    return batch_normalization_result<X, X>{x, x};
  } else {
    using vec = shape<ops::detail::channels_of<X>>;
    auto gamma = variable<join_names<Name, "gamma">(), T, vec, init::ones()>();
    auto beta = variable<join_names<Name, "beta">(), T, vec, init::zeros()>();
    auto moving_mean = variable<join_names<Name, "moving_mean">(), T, vec, init::zeros()>(not_trainable);
    auto moving_variance = variable<join_names<Name, "moving_variance">(), T, vec, init::ones()>(not_trainable);
    auto eps = constant<join_names<Name, "epsilon">(), T, scalar>(epsilon);
    auto mom = constant<join_names<Name, "momentum">(), T, scalar>(momentum);
    auto stats = make_node<batch_norm_statistics_node<X, Training>>(x, training);
    auto y = make_node<fused_batch_norm_node<ops::detail::batch_norm_mode::by_flag, X, decltype(gamma), decltype(beta),
                                             decltype(eps), decltype(stats), decltype(moving_mean),
                                             decltype(moving_variance), Training>>(
        x, gamma, beta, eps, stats, moving_mean, moving_variance, training);
    auto batch_mean = make_node<batch_norm_row_node<0, true, decltype(stats)>>(stats);
    auto batch_variance = make_node<batch_norm_row_node<shape_of<X>::rank == 4 ? 2 : 1, true, decltype(stats)>>(stats);
    auto decay = where(training, constant<1.0>() - mom, constant<0.0, T>());
    auto updates = group(assign_sub(moving_mean, (moving_mean - batch_mean) * decay),
                         assign_sub(moving_variance, (moving_variance - batch_variance) * decay));
    auto output = ops::detail::in_layer_scope<Name>(y);  // "bn/FusedBatchNorm", as TensorFlow names it
    return batch_normalization_result<decltype(output), decltype(updates)>{output, updates};
  }
}

}  // namespace layers
}  // namespace typeflow
