// typeflow/ops/local_response_normalization.hpp — tf.nn.local_response_normalization
// (tf.nn.lrn, op LRN) over the last (channel) axis of an NHWC input.
//
//   sqr_sum[a, b, c, d] = sum(x[a, b, c, d - depth_radius : d + depth_radius + 1] ** 2)
//   y = x / (bias + alpha * sqr_sum) ** beta
//
// depth_radius, bias, alpha and beta are attributes of TensorFlow's op, so, as leaky_relu's
// alpha, part of the node's type: `local_response_normalization<2, 1.0, 1e-4, 0.75>(x)`.
// The gradient is TensorFlow's LRNGrad, from g, x and y:
//   dx[k] = sum over j with |j - k| <= depth_radius of
//           g[j] * ([j == k] norm[j] ** -beta - 2 alpha beta x[k] y[j] / norm[j]),
// norm[j] = bias + alpha * sqr_sum[j]. LRNGrad has no gradient (as in TensorFlow).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <type_traits>

#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"

namespace typeflow {

/// In a diagnostic: the input of a local_response_normalization, which is not a rank-4 NHWC
/// tensor of float or double.
template <class ElementType, class Shape>
struct local_response_normalization_needs_a_rank_4_float_or_double_input {
  static constexpr bool value = false;
};
/// In a diagnostic: local_response_normalization's depth_radius, which is negative.
template <std::ptrdiff_t DepthRadius>
struct local_response_normalization_depth_radius_must_not_be_negative {
  static constexpr bool value = false;
};

namespace ops::detail {

/// bias + alpha * the sum of the squares of x[d - radius, d + radius] (clipped to the row),
/// for each channel d of the row x[0, depth), into norm.
template <class T>
void lrn_norms(const T* x, std::size_t depth, std::size_t radius, T bias, T alpha, T* norm) {
  for (std::size_t d = 0; d < depth; ++d) {
    const std::size_t begin = d > radius ? d - radius : 0, end = std::min(depth, d + radius + 1);
    T sum(0);
    for (std::size_t j = begin; j < end; ++j) sum += x[j] * x[j];
    norm[d] = bias + alpha * sum;
  }
}

/// The rows of the last axis of an NHWC value: its element count over its channel count.
template <class V>
std::size_t lrn_rows(const V& v, std::size_t depth) {
  return depth == 0 ? 0 : v.size() / depth;
}

}  // namespace ops::detail

/// LRNGrad: the gradient of x from g, x and y. Not differentiable again.
template <class G, class X, class Y, std::ptrdiff_t R, double Bias, double Alpha, double Beta>
struct lrn_gradient_node : node_facade<value_type_of<X>, shape_of<X>, node_kind::compute, G, X, Y>,
                           op_info<"LRNGrad", false> {
  template <class... N>
  using rebind = lrn_gradient_node<N..., R, Bias, Alpha, Beta>;

  template <class Out, class VG, class VX, class VY>
  static void compute(Out& out, const VG& g, const VX& x, const VY& y) {
    using T = value_type_of<X>;
    const auto dims = ops::detail::dims_of<4>(x);
    ops::detail::resize_unless_static<shape_of<X>::is_static>(out, dims);
    const std::size_t depth = dims[3], rows = ops::detail::lrn_rows(x, depth), radius = std::size_t(R);
    const T bias = static_cast<T>(Bias), alpha = static_cast<T>(Alpha), beta = static_cast<T>(Beta);
    const T* gp = g.data();
    const T* xp = x.data();
    const T* yp = y.data();
    T* o = out.data();
    std::fill(out.begin(), out.end(), T(0));
    for (std::size_t i = 0; i < rows; ++i) {
      const std::size_t row = i * depth;
      for (std::size_t j = 0; j < depth; ++j) {
        const std::size_t begin = j > radius ? j - radius : 0, end = std::min(depth, j + radius + 1);
        T norm(0);
        for (std::size_t k = begin; k < end; ++k) norm += xp[row + k] * xp[row + k];
        norm = alpha * norm + bias;
        const T scaled = T(-2) * alpha * beta * yp[row + j] / norm;
        for (std::size_t k = begin; k < end; ++k) {
          T dyi = scaled * xp[row + k];
          if (k == j) dyi += std::pow(norm, -beta);
          o[row + k] += dyi * gp[row + j];
        }
      }
    }
  }
};

/// LRN: y = x / (bias + alpha * sqr_sum) ** beta over the last axis.
template <class X, std::ptrdiff_t R, double Bias, double Alpha, double Beta>
struct lrn_node : node_facade<value_type_of<X>, shape_of<X>, node_kind::compute, X>, op_info<"LRN"> {
  template <class... N>
  using rebind = lrn_node<N..., R, Bias, Alpha, Beta>;
  template <std::size_t K, class G>
  using gradient = lrn_gradient_node<G, X, lrn_node, R, Bias, Alpha, Beta>;

  template <class Out, class VX>
  static void compute(Out& out, const VX& x) {
    using T = value_type_of<X>;
    const auto dims = ops::detail::dims_of<4>(x);
    ops::detail::resize_unless_static<shape_of<X>::is_static>(out, dims);
    const std::size_t depth = dims[3], rows = ops::detail::lrn_rows(x, depth), radius = std::size_t(R);
    const T bias = static_cast<T>(Bias), alpha = static_cast<T>(Alpha), beta = static_cast<T>(Beta);
    const T* xp = x.data();
    T* o = out.data();
    for (std::size_t i = 0; i < rows; ++i) {
      // The row's norms go into its output, which then divides x.
      ops::detail::lrn_norms(xp + i * depth, depth, radius, bias, alpha, o + i * depth);
      for (std::size_t d = 0; d < depth; ++d) {
        T& y = o[i * depth + d];
        y = xp[i * depth + d] / std::pow(y, beta);
      }
    }
  }
};

/// `local_response_normalization<depth_radius = 5, bias = 1.0, alpha = 1.0, beta = 0.5>(x)`
/// is tf.nn.local_response_normalization(x, depth_radius, bias, alpha, beta) (tf.nn.lrn, op
/// LRN), for x [batch, height, width, channels] (NHWC) of float or double, with TensorFlow's
/// defaults. The hyperparameters are template arguments (attributes of the op, in its type).
template <std::ptrdiff_t DepthRadius = 5, double Bias = 1.0, double Alpha = 1.0, double Beta = 0.5, node X>
constexpr auto local_response_normalization(const X& x) {
  using S = shape_of<X>;
  if constexpr (S::rank != 4 || !std::is_floating_point_v<value_type_of<X>>) {
    static_assert(local_response_normalization_needs_a_rank_4_float_or_double_input<value_type_of<X>, S>::value,
                  "typeflow::local_response_normalization(x) needs x of rank 4, [batch, height, width, channels] "
                  "(NHWC), of float or double");
    return x;  // inert: the error above is the one to read
  } else if constexpr (DepthRadius < 0) {
    static_assert(local_response_normalization_depth_radius_must_not_be_negative<DepthRadius>::value,
                  "typeflow::local_response_normalization<depth_radius, bias, alpha, beta>(x): depth_radius must be "
                  ">= 0");
    return x;
  } else {
    return make_node<lrn_node<X, DepthRadius, Bias, Alpha, Beta>>(x);
  }
}

/// `lrn<depth_radius, bias, alpha, beta>(x)`: tf.nn.lrn, the same op as local_response_normalization.
template <std::ptrdiff_t DepthRadius = 5, double Bias = 1.0, double Alpha = 1.0, double Beta = 0.5, node X>
constexpr auto lrn(const X& x) {
  return local_response_normalization<DepthRadius, Bias, Alpha, Beta>(x);
}

}  // namespace typeflow
