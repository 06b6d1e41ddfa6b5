// typeflow/ops/detail/batch_norm.hpp — the loops of FusedBatchNorm and FusedBatchNormGrad
// (ops/normalization.hpp) over x seen as [rows, channels] (NHWC: rows = N * H * W), the
// channel the fastest-varying index. Each loop walks x once per pass, row by row, so the
// inner loop runs over contiguous channels; per-channel factors are computed once per call
// into a scratch buffer that grows only when a call needs more channels than any before.
// Also: how a node's operands give the statistics it normalizes with (batch_norm_mode).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <tuple>
#include <utility>
#include <vector>

#include "typeflow/core/node.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"

namespace typeflow::ops::detail {

/// Per-channel statistics of x [rows, c] into out [3, c]: the mean, the variance (divided
/// by rows, as normalization uses it) and the variance with Bessel's correction (divided by
/// rows - 1; FusedBatchNorm's batch_variance output, TensorFlow's rest_size_adjust). Two
/// passes (mean, then squared deviations): no cancellation for data far from 0.
template <class T>
void batch_norm_statistics(const T* x, std::size_t rows, std::size_t c, T* out) {
  T* mean = out;
  T* var = out + c;
  T* corrected = out + 2 * c;
  std::fill(out, out + 3 * c, T(0));
  for (std::size_t r = 0; r < rows; ++r) {
    const T* xr = x + r * c;
    for (std::size_t j = 0; j < c; ++j) mean[j] += xr[j];
  }
  const T inv_rows = rows == 0 ? T(0) : T(1) / static_cast<T>(rows);
  for (std::size_t j = 0; j < c; ++j) mean[j] *= inv_rows;
  for (std::size_t r = 0; r < rows; ++r) {
    const T* xr = x + r * c;
    for (std::size_t j = 0; j < c; ++j) {
      const T d = xr[j] - mean[j];
      var[j] += d * d;
    }
  }
  const T adjust = rows > 1 ? static_cast<T>(rows) / static_cast<T>(rows - 1) : T(1);
  for (std::size_t j = 0; j < c; ++j) {
    var[j] *= inv_rows;
    corrected[j] = var[j] * adjust;
  }
}

/// A scratch buffer of at least n elements, per thread and element type; it allocates only
/// when a call needs more than any call before on this thread.
template <class T>
T* batch_norm_scratch(std::size_t n) {
  thread_local std::vector<T> buffer;
  if (buffer.size() < n) buffer.resize(n);
  return buffer.data();
}

/// The statistics a FusedBatchNorm step normalizes with: scale, offset, epsilon, the mean
/// and the variance (the batch's or the given ones, per channel).
template <class T>
struct batch_norm_params {
  const T* scale;
  const T* offset;
  double epsilon;
  const T* mean;
  const T* variance;
};

/// y = (x - mean) * scale / sqrt(variance + epsilon) + offset, per channel.
template <class T>
void batch_norm_forward(const T* x, std::size_t rows, std::size_t c, const batch_norm_params<T>& p, T* y) {
  T* a = batch_norm_scratch<T>(2 * c);
  T* b = a + c;
  for (std::size_t j = 0; j < c; ++j) {
    a[j] = p.scale[j] / std::sqrt(p.variance[j] + static_cast<T>(p.epsilon));
    b[j] = p.offset[j] - p.mean[j] * a[j];
  }
  for (std::size_t r = 0; r < rows; ++r) {
    const T* xr = x + r * c;
    T* yr = y + r * c;
    for (std::size_t j = 0; j < c; ++j) yr[j] = xr[j] * a[j] + b[j];
  }
}

/// The reductions of FusedBatchNormGrad into out [2, c]: sum(dy) (the gradient of offset)
/// and sum(dy * x_hat), x_hat = (x - mean) / sqrt(variance + epsilon) (the gradient of scale).
template <class T>
void batch_norm_gradient_sums(const T* dy, const T* x, std::size_t rows, std::size_t c,
                              const batch_norm_params<T>& p, T* out) {
  T* sum_dy = out;
  T* sum_dy_xhat = out + c;
  T* rstd = batch_norm_scratch<T>(c);
  for (std::size_t j = 0; j < c; ++j) rstd[j] = T(1) / std::sqrt(p.variance[j] + static_cast<T>(p.epsilon));
  std::fill(out, out + 2 * c, T(0));
  for (std::size_t r = 0; r < rows; ++r) {
    const T* gr = dy + r * c;
    const T* xr = x + r * c;
    for (std::size_t j = 0; j < c; ++j) {
      sum_dy[j] += gr[j];
      sum_dy_xhat[j] += gr[j] * (xr[j] - p.mean[j]);
    }
  }
  for (std::size_t j = 0; j < c; ++j) sum_dy_xhat[j] *= rstd[j];
}

/// The gradient with respect to x. With the batch's statistics (training):
///   dx = scale * rstd * (dy - sum(dy) / rows - x_hat * sum(dy * x_hat) / rows);
/// with given statistics (inference), a per-channel affine map: dx = dy * scale * rstd.
template <class T>
void batch_norm_gradient_x(const T* dy, const T* x, std::size_t rows, std::size_t c, const batch_norm_params<T>& p,
                           const T* sums, bool batch_statistics, T* dx) {
  T* k = batch_norm_scratch<T>(4 * c);
  T* rstd = k + c;
  T* mean_dy = k + 2 * c;
  T* mean_dy_xhat = k + 3 * c;
  const T inv_rows = rows == 0 ? T(0) : T(1) / static_cast<T>(rows);
  for (std::size_t j = 0; j < c; ++j) {
    rstd[j] = T(1) / std::sqrt(p.variance[j] + static_cast<T>(p.epsilon));
    k[j] = p.scale[j] * rstd[j];
    mean_dy[j] = batch_statistics ? sums[j] * inv_rows : T(0);
    mean_dy_xhat[j] = batch_statistics ? sums[c + j] * inv_rows : T(0);
  }
  for (std::size_t r = 0; r < rows; ++r) {
    const T* gr = dy + r * c;
    const T* xr = x + r * c;
    T* o = dx + r * c;
    if (batch_statistics) {
      for (std::size_t j = 0; j < c; ++j) {
        const T xhat = (xr[j] - p.mean[j]) * rstd[j];
        o[j] = k[j] * (gr[j] - mean_dy[j] - xhat * mean_dy_xhat[j]);
      }
    } else {
      for (std::size_t j = 0; j < c; ++j) o[j] = gr[j] * k[j];
    }
  }
}

/// Where the statistics a FusedBatchNorm node normalizes with come from; its inputs are
/// (x, scale, offset, epsilon) and then
///   training:  the batch statistics node,
///   inference: the given mean and variance,
///   by_flag:   the batch statistics, the given mean and variance, and a bool scalar choosing.
enum class batch_norm_mode { training, inference, by_flag };

template <class V>
double scalar_of(const V& v) {
  return static_cast<double>(*data_ptr(v));
}

/// Scale, offset, epsilon, mean and variance from a node's operands (after x), and
/// whether they are the batch's.
template <batch_norm_mode M, class T, class... V>
std::pair<batch_norm_params<T>, bool> batch_norm_params_of(std::size_t c, const V&... v) {
  const auto in = std::forward_as_tuple(v...);
  batch_norm_params<T> p{data_ptr(std::get<0>(in)), data_ptr(std::get<1>(in)), scalar_of(std::get<2>(in)), nullptr,
                         nullptr};
  bool batch = true;
  if constexpr (M == batch_norm_mode::training) {
    p.mean = data_ptr(std::get<3>(in));
  } else if constexpr (M == batch_norm_mode::inference) {
    batch = false;
    p.mean = data_ptr(std::get<3>(in));
    p.variance = data_ptr(std::get<4>(in));
  } else {
    batch = static_cast<bool>(*data_ptr(std::get<6>(in)));
    p.mean = batch ? data_ptr(std::get<3>(in)) : data_ptr(std::get<4>(in));
    p.variance = batch ? nullptr : data_ptr(std::get<5>(in));
  }
  if (batch) p.variance = p.mean + c;  // row 1 of the statistics: the variance divided by rows
  return {p, batch};
}

template <class X>
inline constexpr std::ptrdiff_t channels_of = shape_of<X>::dims[shape_of<X>::rank - 1];

template <class X>
std::size_t rows_of(const X& x, std::size_t c) {
  return c == 0 ? 0 : static_cast<std::size_t>(x.size()) / c;
}

}  // namespace typeflow::ops::detail
