// typeflow/ops/detail/pool.hpp — the kernels of max_pool and avg_pool over NHWC images
// and of their gradients, on raw row-major buffers. Channels are the innermost loop, so
// every window step is a contiguous run of `depth` elements.
//
// The window of output (oh, ow) covers input rows [oh * stride - pad_top, + ksize) and
// columns likewise, clipped to the image (TensorFlow's SpatialMaxPoolWithArgMaxHelper and
// SpatialAvgPool): padded positions take no part, so a SAME average divides by the number
// of in-bounds elements, and a maximum is that of in-bounds elements only.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

#include "typeflow/ops/detail/window.hpp"

namespace typeflow::ops::detail {

/// The sizes of one pooling: input [batch, in_h, in_w, depth], output [batch, out_h, out_w,
/// depth], window, strides and the padding before the first row and column.
struct pool_geometry {
  std::size_t batch, in_h, in_w, depth, out_h, out_w;
  std::ptrdiff_t k_h, k_w, s_h, s_w, pad_top, pad_left;

  /// [lo, hi): the input rows (or columns) that output position o reads.
  static constexpr std::array<std::size_t, 2> span(std::size_t o, std::ptrdiff_t stride, std::ptrdiff_t pad,
                                                   std::ptrdiff_t k, std::size_t in) {
    const std::ptrdiff_t start = static_cast<std::ptrdiff_t>(o) * stride - pad;
    const std::ptrdiff_t end = std::min(start + k, static_cast<std::ptrdiff_t>(in));
    return {static_cast<std::size_t>(std::max<std::ptrdiff_t>(start, 0)), static_cast<std::size_t>(std::max<std::ptrdiff_t>(end, 0))};
  }
  std::array<std::size_t, 2> rows(std::size_t oh) const { return span(oh, s_h, pad_top, k_h, in_h); }
  std::array<std::size_t, 2> cols(std::size_t ow) const { return span(ow, s_w, pad_left, k_w, in_w); }
  std::size_t in_offset(std::size_t b, std::size_t h, std::size_t w) const { return ((b * in_h + h) * in_w + w) * depth; }
  std::size_t out_offset(std::size_t b, std::size_t oh, std::size_t ow) const {
    return ((b * out_h + oh) * out_w + ow) * depth;
  }
  std::size_t in_size() const { return batch * in_h * in_w * depth; }
  std::size_t out_size() const { return batch * out_h * out_w * depth; }
};

/// The geometry of a pooling with window KS, strides ST and padding P of an input whose
/// run-time dims are `in` (NHWC).
template <class KS, class ST, class P>
pool_geometry make_pool_geometry(const std::array<std::size_t, 4>& in) {
  const window_dim h{static_cast<std::ptrdiff_t>(in[1]), KS::height, ST::height, 1, P::is_same};
  const window_dim w{static_cast<std::ptrdiff_t>(in[2]), KS::width, ST::width, 1, P::is_same};
  const auto size = [](std::ptrdiff_t n) { return static_cast<std::size_t>(std::max<std::ptrdiff_t>(n, 0)); };
  return {in[0], in[1], in[2], in[3], size(h.out()), size(w.out()), KS::height, KS::width,
          ST::height, ST::width, h.pad_before(), w.pad_before()};
}

/// y = max over each window (the first in-bounds element starts the maximum).
template <class T>
void max_pool_forward(const T* x, T* y, const pool_geometry& g) {
  const std::size_t c = g.depth;
  for (std::size_t b = 0; b < g.batch; ++b)
    for (std::size_t oh = 0; oh < g.out_h; ++oh)
      for (std::size_t ow = 0; ow < g.out_w; ++ow) {
        T* yo = y + g.out_offset(b, oh, ow);
        const auto [h0, h1] = g.rows(oh);
        const auto [w0, w1] = g.cols(ow);
        bool first = true;
        for (std::size_t h = h0; h < h1; ++h)
          for (std::size_t w = w0; w < w1; ++w) {
            const T* xi = x + g.in_offset(b, h, w);
            if (first) {
              std::copy(xi, xi + c, yo);
              first = false;
            } else {
              for (std::size_t k = 0; k < c; ++k) yo[k] = xi[k] > yo[k] ? xi[k] : yo[k];
            }
          }
      }
}

/// Calls f(output index, input index of its window's maximum) for every output element.
/// Ties go to the first maximum in row-major window order, as TensorFlow's CPU kernel
/// (a later element replaces the maximum only when strictly greater). The running maxima
/// live in a thread_local buffer that grows only when a deeper input comes.
template <class T, class F>
void for_each_max_pool_argmax(const T* x, const pool_geometry& g, F&& f) {
  thread_local std::vector<T> best;
  thread_local std::vector<std::size_t> arg;
  const std::size_t c = g.depth;
  if (best.size() < c) {
    best.resize(c);
    arg.resize(c);
  }
  for (std::size_t b = 0; b < g.batch; ++b)
    for (std::size_t oh = 0; oh < g.out_h; ++oh)
      for (std::size_t ow = 0; ow < g.out_w; ++ow) {
        const auto [h0, h1] = g.rows(oh);
        const auto [w0, w1] = g.cols(ow);
        if (h0 == h1 || w0 == w1) continue;
        T* bp = best.data();
        std::size_t* ap = arg.data();
        // Selects rather than branches, so that the channel loops vectorize.
        const std::size_t first = g.in_offset(b, h0, w0);
        for (std::size_t k = 0; k < c; ++k) {
          bp[k] = x[first + k];
          ap[k] = first + k;
        }
        for (std::size_t h = h0; h < h1; ++h)
          for (std::size_t w = (h == h0 ? w0 + 1 : w0); w < w1; ++w) {
            const std::size_t at = g.in_offset(b, h, w);
            const T* xi = x + at;
            for (std::size_t k = 0; k < c; ++k) {
              const bool greater = xi[k] > bp[k];
              bp[k] = greater ? xi[k] : bp[k];
              ap[k] = greater ? at + k : ap[k];
            }
          }
        const std::size_t o = g.out_offset(b, oh, ow);
        for (std::size_t k = 0; k < c; ++k) f(o + k, ap[k]);
      }
}

/// MaxPoolGrad: dx = zeros, then each upstream gradient added at its window's argmax.
template <class T>
void max_pool_backward(const T* x, const T* dy, T* dx, const pool_geometry& g) {
  std::fill(dx, dx + g.in_size(), T(0));
  for_each_max_pool_argmax(x, g, [&](std::size_t o, std::size_t i) { dx[i] += dy[o]; });
}

/// MaxPoolGradGrad with respect to the upstream gradient: out = ddx at each window's argmax.
template <class T>
void max_pool_gather_argmax(const T* x, const T* ddx, T* out, const pool_geometry& g) {
  std::fill(out, out + g.out_size(), T(0));
  for_each_max_pool_argmax(x, g, [&](std::size_t o, std::size_t i) { out[o] = ddx[i]; });
}

/// y = mean over the in-bounds elements of each window.
template <class T>
void avg_pool_forward(const T* x, T* y, const pool_geometry& g) {
  const std::size_t c = g.depth;
  for (std::size_t b = 0; b < g.batch; ++b)
    for (std::size_t oh = 0; oh < g.out_h; ++oh)
      for (std::size_t ow = 0; ow < g.out_w; ++ow) {
        T* yo = y + g.out_offset(b, oh, ow);
        const auto [h0, h1] = g.rows(oh);
        const auto [w0, w1] = g.cols(ow);
        std::fill(yo, yo + c, T(0));
        for (std::size_t h = h0; h < h1; ++h)
          for (std::size_t w = w0; w < w1; ++w) {
            const T* xi = x + g.in_offset(b, h, w);
            for (std::size_t k = 0; k < c; ++k) yo[k] += xi[k];
          }
        const std::size_t count = (h1 - h0) * (w1 - w0);
        if (count == 0) continue;
        const T n = static_cast<T>(count);
        for (std::size_t k = 0; k < c; ++k) yo[k] /= n;
      }
}

/// AvgPoolGrad: each upstream gradient, divided by its window's in-bounds count, added to
/// every element of the window.
template <class T>
void avg_pool_backward(const T* dy, T* dx, const pool_geometry& g) {
  const std::size_t c = g.depth;
  std::fill(dx, dx + g.in_size(), T(0));
  for (std::size_t b = 0; b < g.batch; ++b)
    for (std::size_t oh = 0; oh < g.out_h; ++oh)
      for (std::size_t ow = 0; ow < g.out_w; ++ow) {
        const T* go = dy + g.out_offset(b, oh, ow);
        const auto [h0, h1] = g.rows(oh);
        const auto [w0, w1] = g.cols(ow);
        const std::size_t count = (h1 - h0) * (w1 - w0);
        if (count == 0) continue;
        const T n = static_cast<T>(count);
        for (std::size_t h = h0; h < h1; ++h)
          for (std::size_t w = w0; w < w1; ++w) {
            T* xi = dx + g.in_offset(b, h, w);
            for (std::size_t k = 0; k < c; ++k) xi[k] += go[k] / n;
          }
      }
}

}  // namespace typeflow::ops::detail
