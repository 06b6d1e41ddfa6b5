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
#include <limits>

#include "typeflow/ops/detail/window.hpp"

namespace typeflow::ops::detail {

/// The sizes of one pooling: input [batch, in_h, in_w, depth], output [batch, out_h, out_w,
/// depth], window, strides and the padding before the first row and column.
struct pool_geometry {
  std::size_t batch, in_h, in_w, depth, out_h, out_w;
  std::ptrdiff_t k_h, k_w, s_h, s_w, pad_top, pad_left;

  /// [lo, hi): the input rows (or columns) that output position o reads (lo == hi when none).
  static constexpr std::array<std::size_t, 2> span(std::size_t o, std::ptrdiff_t stride, std::ptrdiff_t pad,
                                                   std::ptrdiff_t k, std::size_t in) {
    const std::ptrdiff_t start = static_cast<std::ptrdiff_t>(o) * stride - pad;
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(in);
    const std::ptrdiff_t lo = std::clamp<std::ptrdiff_t>(start, 0, n);
    return {static_cast<std::size_t>(lo), static_cast<std::size_t>(std::clamp<std::ptrdiff_t>(start + k, lo, n))};
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

// --- max pooling ----------------------------------------------------------------------------
//
// The max-pool kernels work on blocks of N channels with N a compile-time constant: the
// channel loops then vectorize (GCC at -O2 vectorizes a loop only when its trip count is a
// known multiple of the vector width) and a window's running maxima and argmaxes are small
// local arrays, with no scratch buffer. C is the depth when the op knows it at compile time
// (the usual static shapes), 0 otherwise. The argmax is the window position (row-major in
// the in-bounds part of the window) held as T, so that its selects have the width of the
// data's; exact for windows of fewer than 2^24 elements.

/// The widest channel block, 64 bytes: 16 float or 8 double running maxima and argmaxes
/// stay in registers.
template <class T>
inline constexpr std::size_t pool_block = 64 / sizeof(T);

/// Calls f.template operator()<N>(k0) for channel blocks [k0, k0 + N) covering [0, depth)
/// (depth == C when C != 0).
template <class T, std::size_t C, class F>
void for_each_channel_block(std::size_t depth, F&& f) {
  constexpr std::size_t B = pool_block<T>;
  if constexpr (C != 0) {
    for (std::size_t k0 = 0; k0 + B <= C; k0 += B) f.template operator()<B>(k0);
    if constexpr (C % B != 0) f.template operator()<C % B>(C - C % B);
  } else {
    std::size_t k0 = 0;
    for (; k0 + B <= depth; k0 += B) f.template operator()<B>(k0);
    for (; k0 < depth; ++k0) f.template operator()<1>(k0);
  }
}

/// The in-bounds part of one window: its first element's offset and its rows and columns.
struct pool_window {
  std::size_t first, rows, cols;
};
inline pool_window window_at(const pool_geometry& g, std::size_t b, std::size_t oh, std::size_t ow) {
  const auto [h0, h1] = g.rows(oh);
  const auto [w0, w1] = g.cols(ow);
  return {g.in_offset(b, h0, w0), h1 - h0, w1 - w0};
}

/// The maximum (best) and the position of the first maximum in row-major window order
/// (arg) of N channels of a window, x at its first element: a later element replaces the
/// maximum only when strictly greater, as TensorFlow's CPU kernel. Local arrays, so that the
/// channel loops of the caller, into which it is inlined, vectorize with selects.
template <std::size_t N, class T>
struct window_argmax {
  T best[N], arg[N];

  [[gnu::always_inline]] inline window_argmax(const T* x, const pool_window& w, std::size_t row_step,
                                               std::size_t depth) {
    for (std::size_t k = 0; k < N; ++k) {
      best[k] = x[k];
      arg[k] = T(0);
    }
    T p(0);
    for (std::size_t r = 0; r < w.rows; ++r)
      for (std::size_t c = 0; c < w.cols; ++c, p += T(1)) {
        const T* xi = x + r * row_step + c * depth;
        // Two loops of one select each: GCC vectorizes neither as one loop of two selects.
        for (std::size_t k = 0; k < N; ++k) arg[k] = xi[k] > best[k] ? p : arg[k];
        for (std::size_t k = 0; k < N; ++k) best[k] = xi[k] > best[k] ? xi[k] : best[k];
      }
  }
};

/// y = max over each window's in-bounds elements (TensorFlow's lowest() for a window with
/// none, which no SAME or VALID pooling has).
template <std::size_t C = 0, class T>
void max_pool_forward(const T* x, T* y, const pool_geometry& g) {
  const std::size_t depth = g.depth, row_step = g.in_w * depth;
  for (std::size_t b = 0; b < g.batch; ++b)
    for (std::size_t oh = 0; oh < g.out_h; ++oh)
      for (std::size_t ow = 0; ow < g.out_w; ++ow) {
        const pool_window w = window_at(g, b, oh, ow);
        T* yo = y + g.out_offset(b, oh, ow);
        if (w.rows == 0 || w.cols == 0) {
          std::fill(yo, yo + depth, std::numeric_limits<T>::lowest());
          continue;
        }
        for_each_channel_block<T, C>(depth, [&]<std::size_t N>(std::size_t k0) {
          const T* x0 = x + w.first + k0;
          T best[N];
          for (std::size_t k = 0; k < N; ++k) best[k] = x0[k];
          for (std::size_t r = 0; r < w.rows; ++r)
            for (std::size_t c = 0; c < w.cols; ++c) {
              const T* xi = x0 + r * row_step + c * depth;
              for (std::size_t k = 0; k < N; ++k) best[k] = xi[k] > best[k] ? xi[k] : best[k];
            }
          for (std::size_t k = 0; k < N; ++k) yo[k0 + k] = best[k];
        });
      }
}

/// MaxPoolGrad where no two windows overlap (strides >= window in both dims, as the usual
/// 2x2 / 2): every element of dx is written once, dy at its window's argmax and 0 elsewhere
/// (also where no window reaches), with no zeroing pass and no scatter.
template <std::size_t C, class T>
void max_pool_backward_disjoint(const T* x, const T* dy, T* dx, const pool_geometry& g) {
  const std::size_t depth = g.depth, row_step = g.in_w * depth;
  // Zeros for columns [w0, w1) of rows [h0, h1) of image b.
  const auto zero = [&](std::size_t b, std::size_t h0, std::size_t h1, std::size_t w0, std::size_t w1) {
    if (w0 >= w1) return;
    for (std::size_t h = h0; h < h1; ++h) std::fill(dx + g.in_offset(b, h, w0), dx + g.in_offset(b, h, w1), T(0));
  };
  for (std::size_t b = 0; b < g.batch; ++b) {
    std::size_t h_next = 0;  // the first row not written yet
    for (std::size_t oh = 0; oh < g.out_h; ++oh) {
      const auto [h0, h1] = g.rows(oh);
      zero(b, h_next, h0, 0, g.in_w);
      std::size_t w_next = 0;
      for (std::size_t ow = 0; ow < g.out_w; ++ow) {
        const auto [w0, w1] = g.cols(ow);
        zero(b, h0, h1, w_next, w0);
        w_next = w1;
        const pool_window w{g.in_offset(b, h0, w0), h1 - h0, w1 - w0};
        if (w.rows == 0 || w.cols == 0) continue;
        const T* go = dy + g.out_offset(b, oh, ow);
        for_each_channel_block<T, C>(depth, [&]<std::size_t N>(std::size_t k0) {
          const window_argmax<N, T> m(x + w.first + k0, w, row_step, depth);
          T up[N];
          for (std::size_t k = 0; k < N; ++k) up[k] = go[k0 + k];
          T p(0);
          for (std::size_t r = 0; r < w.rows; ++r)
            for (std::size_t c = 0; c < w.cols; ++c, p += T(1)) {
              T* di = dx + w.first + k0 + r * row_step + c * depth;
              for (std::size_t k = 0; k < N; ++k) di[k] = m.arg[k] == p ? up[k] : T(0);
            }
        });
      }
      zero(b, h0, h1, w_next, g.in_w);
      h_next = std::max(h_next, h1);
    }
    zero(b, h_next, g.in_h, 0, g.in_w);
  }
}

/// MaxPoolGrad: dx = each upstream gradient at its window's argmax, summed where windows
/// overlap. C: the depth if known at compile time, else 0.
template <std::size_t C = 0, class T>
void max_pool_backward(const T* x, const T* dy, T* dx, const pool_geometry& g) {
  if (g.s_h >= g.k_h && g.s_w >= g.k_w) {
    max_pool_backward_disjoint<C>(x, dy, dx, g);
    return;
  }
  // Overlapping windows: zeros, then each window adds its gradient at its argmax, with
  // selects over the window's positions rather than a scatter, so that it vectorizes.
  const std::size_t depth = g.depth, row_step = g.in_w * depth;
  std::fill(dx, dx + g.in_size(), T(0));
  for (std::size_t b = 0; b < g.batch; ++b)
    for (std::size_t oh = 0; oh < g.out_h; ++oh)
      for (std::size_t ow = 0; ow < g.out_w; ++ow) {
        const pool_window w = window_at(g, b, oh, ow);
        if (w.rows == 0 || w.cols == 0) continue;
        const T* go = dy + g.out_offset(b, oh, ow);
        for_each_channel_block<T, C>(depth, [&]<std::size_t N>(std::size_t k0) {
          const window_argmax<N, T> m(x + w.first + k0, w, row_step, depth);
          T up[N];
          for (std::size_t k = 0; k < N; ++k) up[k] = go[k0 + k];
          T p(0);
          for (std::size_t r = 0; r < w.rows; ++r)
            for (std::size_t c = 0; c < w.cols; ++c, p += T(1)) {
              T* di = dx + w.first + k0 + r * row_step + c * depth;
              for (std::size_t k = 0; k < N; ++k) di[k] += m.arg[k] == p ? up[k] : T(0);
            }
        });
      }
}

/// MaxPoolGradGrad with respect to the upstream gradient: out = ddx at each window's argmax
/// (0 for a window with no in-bounds element).
template <std::size_t C = 0, class T>
void max_pool_gather_argmax(const T* x, const T* ddx, T* out, const pool_geometry& g) {
  const std::size_t depth = g.depth, row_step = g.in_w * depth;
  for (std::size_t b = 0; b < g.batch; ++b)
    for (std::size_t oh = 0; oh < g.out_h; ++oh)
      for (std::size_t ow = 0; ow < g.out_w; ++ow) {
        const pool_window w = window_at(g, b, oh, ow);
        T* o = out + g.out_offset(b, oh, ow);
        if (w.rows == 0 || w.cols == 0) {
          std::fill(o, o + depth, T(0));
          continue;
        }
        for_each_channel_block<T, C>(depth, [&]<std::size_t N>(std::size_t k0) {
          const window_argmax<N, T> m(x + w.first + k0, w, row_step, depth);
          T picked[N];
          T p(0);
          for (std::size_t k = 0; k < N; ++k) picked[k] = T(0);
          for (std::size_t r = 0; r < w.rows; ++r)
            for (std::size_t c = 0; c < w.cols; ++c, p += T(1)) {
              const T* di = ddx + w.first + k0 + r * row_step + c * depth;
              for (std::size_t k = 0; k < N; ++k) {
                const T v = di[k];
                picked[k] = m.arg[k] == p ? v : picked[k];
              }
            }
          for (std::size_t k = 0; k < N; ++k) o[k0 + k] = picked[k];
        });
      }
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
