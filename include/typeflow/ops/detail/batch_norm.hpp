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

/// Calls f(j) for the channels j < c of one row; with C (the channel count when known at
/// compile time, else 0) the loop has a fixed trip count, and the kernels' __restrict
/// pointers tell the compiler that their rows do not overlap: the loops vectorize.
template <std::size_t C, class F>
inline void batch_norm_row(std::size_t c, F&& f) {
  if constexpr (C != 0) {
    for (std::size_t j = 0; j < C; ++j) f(j);
  } else {
    for (std::size_t j = 0; j < c; ++j) f(j);
  }
}

/// Per-channel statistics of x [rows, c] into out [3, c]: the mean, the variance (divided
/// by rows, as normalization uses it) and the variance with Bessel's correction (divided by
/// rows - 1; FusedBatchNorm's batch_variance output, TensorFlow's rest_size_adjust). Two
/// passes (mean, then squared deviations): no cancellation for data far from 0.
template <std::size_t C = 0, class T>
void batch_norm_statistics(const T* __restrict x, std::size_t rows, std::size_t c, T* __restrict out) {
  c = C ? C : c;
  T* mean = out;
  T* var = out + c;
  T* corrected = out + 2 * c;
  std::fill(out, out + 3 * c, T(0));
  for (std::size_t r = 0; r < rows; ++r) batch_norm_row<C>(c, [&](std::size_t j) { mean[j] += x[r * c + j]; });
  const T inv_rows = rows == 0 ? T(0) : T(1) / static_cast<T>(rows);
  for (std::size_t j = 0; j < c; ++j) mean[j] *= inv_rows;
  for (std::size_t r = 0; r < rows; ++r)
    batch_norm_row<C>(c, [&](std::size_t j) {
      const T d = x[r * c + j] - mean[j];
      var[j] += d * d;
    });
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
template <std::size_t C = 0, class T>
void batch_norm_forward(const T* __restrict x, std::size_t rows, std::size_t c, const batch_norm_params<T>& p,
                        T* __restrict y) {
  c = C ? C : c;
  T* __restrict a = batch_norm_scratch<T>(2 * c);
  T* __restrict b = a + c;
  for (std::size_t j = 0; j < c; ++j) {
    a[j] = p.scale[j] / std::sqrt(p.variance[j] + static_cast<T>(p.epsilon));
    b[j] = p.offset[j] - p.mean[j] * a[j];
  }
  for (std::size_t r = 0; r < rows; ++r)
    batch_norm_row<C>(c, [&](std::size_t j) { y[r * c + j] = x[r * c + j] * a[j] + b[j]; });
}

/// The reductions of FusedBatchNormGrad into out [2, c]: sum(dy) (the gradient of offset)
/// and sum(dy * x_hat), x_hat = (x - mean) / sqrt(variance + epsilon) (the gradient of scale).
template <std::size_t C = 0, class T>
void batch_norm_gradient_sums(const T* __restrict dy, const T* __restrict x, std::size_t rows, std::size_t c,
                              const batch_norm_params<T>& p, T* __restrict out) {
  c = C ? C : c;
  T* sum_dy = out;
  T* sum_dy_xhat = out + c;
  T* __restrict rstd = batch_norm_scratch<T>(2 * c);
  T* __restrict mean = rstd + c;  // a copy: p.mean may be any buffer
  for (std::size_t j = 0; j < c; ++j) {
    rstd[j] = T(1) / std::sqrt(p.variance[j] + static_cast<T>(p.epsilon));
    mean[j] = p.mean[j];
  }
  std::fill(out, out + 2 * c, T(0));
  for (std::size_t r = 0; r < rows; ++r)
    batch_norm_row<C>(c, [&](std::size_t j) {
      const T g = dy[r * c + j];
      sum_dy[j] += g;
      sum_dy_xhat[j] += g * (x[r * c + j] - mean[j]);
    });
  for (std::size_t j = 0; j < c; ++j) sum_dy_xhat[j] *= rstd[j];
}

/// The gradient with respect to x. With the batch's statistics (training):
///   dx = scale * rstd * (dy - sum(dy) / rows - x_hat * sum(dy * x_hat) / rows);
/// with given statistics (inference), a per-channel affine map: dx = dy * scale * rstd.
template <std::size_t C = 0, class T>
void batch_norm_gradient_x(const T* __restrict dy, const T* __restrict x, std::size_t rows, std::size_t c,
                           const batch_norm_params<T>& p, const T* sums, bool batch_statistics, T* __restrict dx) {
  c = C ? C : c;
  T* __restrict k = batch_norm_scratch<T>(5 * c);
  T* __restrict rstd = k + c;
  T* __restrict mean_dy = k + 2 * c;
  T* __restrict mean_dy_xhat = k + 3 * c;
  T* __restrict mean = k + 4 * c;  // a copy: p.mean may be any buffer
  const T inv_rows = rows == 0 ? T(0) : T(1) / static_cast<T>(rows);
  for (std::size_t j = 0; j < c; ++j) {
    rstd[j] = T(1) / std::sqrt(p.variance[j] + static_cast<T>(p.epsilon));
    k[j] = p.scale[j] * rstd[j];
    mean_dy[j] = batch_statistics ? sums[j] * inv_rows : T(0);
    mean_dy_xhat[j] = batch_statistics ? sums[c + j] * inv_rows : T(0);
    mean[j] = p.mean[j];
  }
  for (std::size_t r = 0; r < rows; ++r) {
    if (batch_statistics) {
      batch_norm_row<C>(c, [&](std::size_t j) {
        const T xhat = (x[r * c + j] - mean[j]) * rstd[j];
        dx[r * c + j] = k[j] * (dy[r * c + j] - mean_dy[j] - xhat * mean_dy_xhat[j]);
      });
    } else {
      batch_norm_row<C>(c, [&](std::size_t j) { dx[r * c + j] = dy[r * c + j] * k[j]; });
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
