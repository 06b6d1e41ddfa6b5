// typeflow/ops/detail/conv_kernels.hpp — the internals of the convolutions over NHWC images
// (ops/conv.hpp): their options and static shape rule, and their loops: conv2d and its two
// gradients through im2col / col2im and gemm (over the batch, the forward pass's columns
// kept for the filter's gradient: ops/detail/conv_columns.hpp; or per chunk of images), or
// for 3x3 filters at stride 1 in Winograd's F(4x4, 3x3) form (ops/detail/conv_winograd.hpp),
// depthwise_conv2d and its gradients as direct loops.
//
// Layouts, all row-major: an image batch x [N, H, W, C]; a filter f [KH, KW, C, O] (for
// depthwise [KH, KW, C, M]); an output y [N, OH, OW, O] (depthwise: [N, OH, OW, C * M],
// channel c * M + m). im2col writes one row per output position (n, oh, ow) holding the
// KH * KW * C input values under the filter, in the filter's (kh, kw, c) order, zeros where
// the window hangs over the padding; so y = col * f, a [P, K] x [K, O] product.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "typeflow/core/shape.hpp"
#include "typeflow/ops/detail/conv_columns.hpp"
#include "typeflow/ops/detail/conv_winograd.hpp"
#include "typeflow/ops/detail/window.hpp"
#include "typeflow/ops/matmul.hpp"

namespace typeflow::ops::detail {

// --- at compile time: the options and the shape rule ------------------------------------

/// Dim i of S, or `fallback` when S has no dim i (a wrong rank, diagnosed elsewhere).
template <class S>
constexpr std::ptrdiff_t dim_or(std::size_t i, std::ptrdiff_t fallback = 1) {
  return S::rank > i ? S::dims[i] : fallback;
}

template <class T>
inline constexpr int conv_option_kind = 0;  // 1 strides, 2 padding, 3 dilations
template <std::ptrdiff_t H, std::ptrdiff_t W>
inline constexpr int conv_option_kind<strides<H, W>> = 1;
template <>
inline constexpr int conv_option_kind<padding::same> = 2;
template <>
inline constexpr int conv_option_kind<padding::valid> = 2;
template <std::ptrdiff_t H, std::ptrdiff_t W>
inline constexpr int conv_option_kind<dilations<H, W>> = 3;

template <int Kind, class Default, class... Options>
struct pick_conv_option {
  using type = Default;
};
template <int Kind, class Default, class O, class... Options>
struct pick_conv_option<Kind, Default, O, Options...>
    : std::conditional_t<conv_option_kind<O> == Kind, std::type_identity<O>,
                         pick_conv_option<Kind, Default, Options...>> {};

/// A convolution's options, and whether it is depthwise.
template <class Strides, class Padding, class Dilations, bool Depthwise>
struct conv_spec {
  using strides_type = Strides;
  using padding_type = Padding;
  using dilations_type = Dilations;
  static constexpr bool depthwise = Depthwise, same = Padding::is_same;
  static constexpr std::ptrdiff_t sh = Strides::height, sw = Strides::width;
  static constexpr std::ptrdiff_t dh = Dilations::height, dw = Dilations::width;
  static constexpr bool steps_ok = sh >= 1 && sw >= 1 && dh >= 1 && dw >= 1;
};

template <bool Depthwise, class... Options>
struct conv_options {
  static constexpr bool ok = ((conv_option_kind<Options> != 0) && ...) &&
                             ((conv_option_kind<Options> == 1) + ... + 0) <= 1 &&
                             ((conv_option_kind<Options> == 2) + ... + 0) <= 1 &&
                             ((conv_option_kind<Options> == 3) + ... + 0) <= 1;
  using spec = conv_spec<typename pick_conv_option<1, strides<1, 1>, Options...>::type,
                         typename pick_conv_option<2, padding::valid, Options...>::type,
                         typename pick_conv_option<3, dilations<1, 1>, Options...>::type, Depthwise>;
};

/// The shape rule: input SX [N, H, W, C], filter SF [KH, KW, C, O or M].
template <class Spec, class SX, class SF>
struct conv_rule {
  static constexpr bool ranks_ok = SX::rank == 4 && SF::rank == 4 && dim_or<SX>(3) != dyn;
  static constexpr std::ptrdiff_t x(std::size_t i) { return ranks_ok ? dim_or<SX>(i) : 1; }
  static constexpr std::ptrdiff_t f(std::size_t i) { return ranks_ok ? dim_or<SF>(i) : 1; }
  static constexpr bool steps_ok = Spec::steps_ok;
  static constexpr std::ptrdiff_t oh = steps_ok ? static_window_out(x(1), f(0), Spec::sh, Spec::dh, Spec::same) : 1;
  static constexpr std::ptrdiff_t ow = steps_ok ? static_window_out(x(2), f(1), Spec::sw, Spec::dw, Spec::same) : 1;
  static constexpr std::ptrdiff_t channels = Spec::depthwise ? x(3) * f(3) : f(3);
  static constexpr bool channels_ok = f(2) == x(3);
  static constexpr bool fits = (oh == dyn || oh > 0) && (ow == dyn || ow > 0);
  using type = shape<x(0), oh, ow, channels>;
};

// --- at run time: the geometry and the loops ---------------------------------------------

/// A grow-only scratch buffer per thread and element type: only the first runs (and a
/// run with a bigger convolution) allocate.
template <class T>
T* conv_scratch(std::size_t size) {
  thread_local std::vector<T> buffer;
  if (buffer.size() < size) buffer.resize(size);
  return buffer.data();
}

/// How many images one im2col buffer holds: about 2^16 elements, at least one image.
inline std::size_t conv_chunk(const conv_geometry& g) {
  const std::size_t per_image = std::max<std::size_t>(1, g.positions() * g.k());
  return std::max<std::size_t>(1, (std::size_t{1} << 16) / per_image);
}

/// Calls f(input offset of pixel (ih, iw), offset of the tap (i, j) in a row of K) for each
/// tap of output position (oh, ow) inside the image; taps in the padding are skipped.
template <class F>
void conv_for_taps(const conv_geometry& g, std::size_t oh, std::size_t ow, F&& f) {
  for (std::size_t i = 0; i < g.kh; ++i) {
    const std::ptrdiff_t ih = std::ptrdiff_t(oh * g.sh + i * g.dh) - g.pad_top;
    if (ih < 0 || ih >= std::ptrdiff_t(g.h)) continue;
    for (std::size_t j = 0; j < g.kw; ++j) {
      const std::ptrdiff_t iw = std::ptrdiff_t(ow * g.sw + j * g.dw) - g.pad_left;
      if (iw < 0 || iw >= std::ptrdiff_t(g.w)) continue;
      f((std::size_t(ih) * g.w + std::size_t(iw)) * g.c, (i * g.kw + j) * g.c);
    }
  }
}

/// The taps of a filter row at output column ow: [j0, j1) read the image, tap j at column
/// offset `in` + (j - j0) dw c of the input row; the others read the padding. They depend on
/// ow alone, so im2col finds them once per call, not once per position and row.
struct conv_col_span {
  std::size_t j0, j1, in;
};
inline conv_col_span conv_col(const conv_geometry& g, std::size_t ow) {
  const std::ptrdiff_t iw0 = std::ptrdiff_t(ow * g.sw) - g.pad_left, dw = std::ptrdiff_t(g.dw);
  std::ptrdiff_t j0 = 0, j1 = std::ptrdiff_t(g.kw);
  while (j0 < j1 && iw0 + j0 * dw < 0) ++j0;
  while (j1 > j0 && iw0 + (j1 - 1) * dw >= std::ptrdiff_t(g.w)) --j1;
  if (j0 == j1) return {0, 0, 0};
  return {std::size_t(j0), std::size_t(j1), std::size_t(iw0 + j0 * dw) * g.c};
}

/// col [images * OH * OW, K] from `images` images starting at x: per filter row, one copy
/// of the taps inside the image (contiguous for dilation 1), zeros for the others. Rows of
/// at most 8 values (few channels: an image model's first convolution) are copied element
/// by element rather than by three library calls for a few values.
template <class T>
void im2col(const conv_geometry& g, const T* x, std::size_t images, T* col) {
  const std::size_t k = g.k(), c = g.c, rowlen = g.kw * c, step = g.dw * c;
  thread_local std::vector<conv_col_span> spans;  // grow-only: no allocation when steady
  if (spans.size() < g.ow) spans.resize(g.ow);
  for (std::size_t ow = 0; ow < g.ow; ++ow) spans[ow] = conv_col(g, ow);
  const bool short_rows = g.dw == 1 && rowlen <= 8;
  for (std::size_t b = 0; b < images; ++b)
    for (std::size_t oh = 0; oh < g.oh; ++oh) {
      T* const rows = col + (b * g.oh + oh) * g.ow * k;  // output row oh's positions
      for (std::size_t i = 0; i < g.kh; ++i) {
        const std::ptrdiff_t ih = std::ptrdiff_t(oh * g.sh + i * g.dh) - g.pad_top;
        if (ih < 0 || ih >= std::ptrdiff_t(g.h)) {
          for (std::size_t ow = 0; ow < g.ow; ++ow) std::fill_n(rows + ow * k + i * rowlen, rowlen, T(0));
          continue;
        }
        const T* const xr = x + ((b * g.h + std::size_t(ih)) * g.w) * c;  // input row ih
        for (std::size_t ow = 0; ow < g.ow; ++ow) {
          T* const row = rows + ow * k + i * rowlen;
          const conv_col_span& r = spans[ow];
          const std::size_t lo = r.j0 * c, hi = r.j1 * c;
          if (short_rows) {
            for (std::size_t q = 0; q < rowlen; ++q) row[q] = q >= lo && q < hi ? xr[r.in + q - lo] : T(0);
            continue;
          }
          std::fill(row, row + lo, T(0));
          if (g.dw == 1) {
            std::copy(xr + r.in, xr + r.in + (hi - lo), row + lo);
          } else {
            for (std::size_t j = r.j0; j < r.j1; ++j)
              std::copy(xr + r.in + (j - r.j0) * step, xr + r.in + (j - r.j0) * step + c, row + j * c);
          }
          std::fill(row + hi, row + rowlen, T(0));
        }
      }
    }
}

/// For each input coordinate 0 <= in < size along one dim, the (filter tap, output position)
/// pairs whose window reads it: out * stride + tap * dilation - pad == in. Pairs of input
/// coordinate `in` are at list[in * taps, in * taps + count[in]).
inline void conv_readers(std::size_t size, std::size_t taps, std::size_t stride, std::size_t dilation,
                         std::ptrdiff_t pad, std::size_t outs, std::size_t* count, std::array<std::size_t, 2>* list) {
  for (std::size_t in = 0; in < size; ++in) {
    count[in] = 0;
    for (std::size_t t = 0; t < taps; ++t) {
      const std::ptrdiff_t at = std::ptrdiff_t(in) + pad - std::ptrdiff_t(t * dilation);
      if (at < 0 || std::size_t(at) % stride != 0 || std::size_t(at) / stride >= outs) continue;
      list[in * taps + count[in]++] = {t, std::size_t(at) / stride};
    }
  }
}

/// dx = col2im(col) for `images` images starting at dx, as a gather: each input pixel sums
/// the column entries of the taps that read it, so every element of dx is written once (no
/// zeroing pass over dx, no scattered read-modify-writes across the whole buffer).
template <class T>
void col2im(const conv_geometry& g, const T* col, std::size_t images, T* dx) {
  const std::size_t k = g.k(), c = g.c;
  // Who reads each input row and column: computed once per call, not per pixel.
  thread_local std::vector<std::size_t> counts;
  thread_local std::vector<std::array<std::size_t, 2>> pairs;
  if (counts.size() < g.h + g.w) counts.resize(g.h + g.w);
  if (pairs.size() < g.h * g.kh + g.w * g.kw) pairs.resize(g.h * g.kh + g.w * g.kw);
  std::size_t *count_h = counts.data(), *count_w = count_h + g.h;
  std::array<std::size_t, 2>* rows = pairs.data();
  std::array<std::size_t, 2>* cols = rows + g.h * g.kh;
  conv_readers(g.h, g.kh, g.sh, g.dh, g.pad_top, g.oh, count_h, rows);
  conv_readers(g.w, g.kw, g.sw, g.dw, g.pad_left, g.ow, count_w, cols);
  // Channels in blocks of 8 summed in registers (fixed-length loops that vectorize), then
  // the rest one by one.
  constexpr std::size_t block = 8;
  for (std::size_t b = 0; b < images; ++b) {
    const T* cb = col + b * g.positions() * k;
    for (std::size_t ih = 0; ih < g.h; ++ih)
      for (std::size_t iw = 0; iw < g.w; ++iw) {
        T* d = dx + ((b * g.h + ih) * g.w + iw) * c;
        const auto reader = [&](std::size_t r, std::size_t q) {
          const auto [i, oh] = rows[ih * g.kh + r];
          const auto [j, ow] = cols[iw * g.kw + q];
          return cb + (oh * g.ow + ow) * k + (i * g.kw + j) * c;
        };
        std::size_t ch = 0;
        for (; ch + block <= c; ch += block) {
          T acc[block] = {};
          for (std::size_t r = 0; r < count_h[ih]; ++r)
            for (std::size_t q = 0; q < count_w[iw]; ++q) {
              const T* src = reader(r, q) + ch;
              for (std::size_t e = 0; e < block; ++e) acc[e] += src[e];
            }
          for (std::size_t e = 0; e < block; ++e) d[ch + e] = acc[e];
        }
        for (; ch < c; ++ch) {
          T acc(0);
          for (std::size_t r = 0; r < count_h[ih]; ++r)
            for (std::size_t q = 0; q < count_w[iw]; ++q) acc += reader(r, q)[ch];
          d[ch] = acc;
        }
      }
  }
}

/// Whether a convolution of g in T takes Winograd's form (floating point only: its
/// transforms divide).
template <class T>
bool conv_winograd(const conv_geometry& g) {
  return std::is_floating_point_v<T> && winograd_applies(g);
}

/// y = conv2d(x, f): in Winograd's form where it applies, else y = im2col(x) f, the columns
/// kept for the filter's gradient (conv_columns_cache) when they fit, else per chunk of
/// images, y_chunk = im2col(x_chunk) f.
template <class T>
void conv2d_forward(const conv_geometry& g, const T* x, const T* f, T* y) {
  const std::size_t k = g.k(), p = g.positions();
  if (g.pointwise()) {
    gemm<T>(false, false, g.n * p, g.o, k, T(1), x, k, f, g.o, T(0), y, g.o);
    return;
  }
  if (conv_winograd<T>(g)) {
    winograd_conv(g, x, f, y, true);
    return;
  }
  if (conv_columns_cache<T>::fits(g)) {
    T* col = conv_columns_cache<T>::local().store(g, x);
    im2col(g, x, g.n, col);
    gemm<T>(false, false, g.n * p, g.o, k, T(1), col, k, f, g.o, T(0), y, g.o);
    return;
  }
  const std::size_t chunk = conv_chunk(g);
  T* col = conv_scratch<T>(std::min(chunk, g.n) * p * k);
  for (std::size_t b = 0; b < g.n; b += chunk) {
    const std::size_t images = std::min(chunk, g.n - b);
    im2col(g, x + b * g.h * g.w * g.c, images, col);
    gemm<T>(false, false, images * p, g.o, k, T(1), col, k, f, g.o, T(0), y + b * p * g.o, g.o);
  }
}

/// dx = Conv2DBackpropInput(f, dy): per chunk, col2im(dy_chunk f^T), which writes all of dx.
template <class T>
void conv2d_backprop_input(const conv_geometry& g, const T* f, const T* dy, T* dx) {
  const std::size_t k = g.k(), p = g.positions();
  if (g.pointwise()) {
    gemm<T>(false, true, g.n * p, k, g.o, T(1), dy, g.o, f, g.o, T(0), dx, k);
    return;
  }
  if (conv_winograd<T>(g)) {
    winograd_backprop_input(g, f, dy, dx);
    return;
  }
  const std::size_t chunk = conv_chunk(g);
  T* col = conv_scratch<T>(std::min(chunk, g.n) * p * k);
  for (std::size_t b = 0; b < g.n; b += chunk) {
    const std::size_t images = std::min(chunk, g.n - b);
    gemm<T>(false, true, images * p, k, g.o, T(1), dy + b * p * g.o, g.o, f, g.o, T(0), col, k);
    col2im(g, col, images, dx + b * g.h * g.w * g.c);
  }
}

/// df = Conv2DBackpropFilter(x, dy) = im2col(x)^T dy, with the forward pass's columns of
/// this x when it left them (conv_columns_cache), else summed over chunks of images.
template <class T>
void conv2d_backprop_filter(const conv_geometry& g, const T* x, const T* dy, T* df) {
  const std::size_t k = g.k(), p = g.positions();
  if (g.n == 0) {
    std::fill(df, df + k * g.o, T(0));
    return;
  }
  if (g.pointwise()) {
    gemm<T>(true, false, k, g.o, g.n * p, T(1), x, k, dy, g.o, T(0), df, g.o);
    return;
  }
  if (conv_winograd<T>(g)) {
    winograd_backprop_filter(g, x, dy, df);
    return;
  }
  if (conv_columns_cache<T>::fits(g))
    if (const T* col = conv_columns_cache<T>::local().find(g, x)) {
      gemm<T>(true, false, k, g.o, g.n * p, T(1), col, k, dy, g.o, T(0), df, g.o);
      return;
    }
  const std::size_t chunk = conv_chunk(g);
  T* col = conv_scratch<T>(std::min(chunk, g.n) * p * k);
  for (std::size_t b = 0; b < g.n; b += chunk) {
    const std::size_t images = std::min(chunk, g.n - b);
    im2col(g, x + b * g.h * g.w * g.c, images, col);
    gemm<T>(true, false, k, g.o, images * p, T(1), col, k, dy + b * p * g.o, g.o, b == 0 ? T(0) : T(1), df, g.o);
  }
}

/// Calls f(x offset of the pixel, filter offset of the tap, y offset of the position) for
/// every (image, output position, tap inside the image) of a depthwise convolution; each
/// offset is that of channel 0 (the filter's and y's hold C * M values there).
template <class F>
void depthwise_for_each(const conv_geometry& g, F&& f) {
  const std::size_t cm = g.c * g.o;
  for (std::size_t b = 0; b < g.n; ++b)
    for (std::size_t oh = 0; oh < g.oh; ++oh)
      for (std::size_t ow = 0; ow < g.ow; ++ow) {
        const std::size_t y = ((b * g.oh + oh) * g.ow + ow) * cm;
        conv_for_taps(g, oh, ow, [&](std::size_t in, std::size_t tap) { f(b * g.h * g.w * g.c + in, tap * g.o, y); });
      }
}

/// y[.., c * M + m] = sum over taps of x[.., c] f[tap, c, m].
template <class T>
void depthwise_forward(const conv_geometry& g, const T* x, const T* f, T* y) {
  std::fill(y, y + g.n * g.positions() * g.c * g.o, T(0));
  depthwise_for_each(g, [&](std::size_t xi, std::size_t fi, std::size_t yi) {
    for (std::size_t ch = 0; ch < g.c; ++ch)
      for (std::size_t m = 0; m < g.o; ++m) y[yi + ch * g.o + m] += x[xi + ch] * f[fi + ch * g.o + m];
  });
}

template <class T>
void depthwise_backprop_input(const conv_geometry& g, const T* f, const T* dy, T* dx) {
  std::fill(dx, dx + g.n * g.h * g.w * g.c, T(0));
  depthwise_for_each(g, [&](std::size_t xi, std::size_t fi, std::size_t yi) {
    for (std::size_t ch = 0; ch < g.c; ++ch) {
      T acc(0);
      for (std::size_t m = 0; m < g.o; ++m) acc += dy[yi + ch * g.o + m] * f[fi + ch * g.o + m];
      dx[xi + ch] += acc;
    }
  });
}

template <class T>
void depthwise_backprop_filter(const conv_geometry& g, const T* x, const T* dy, T* df) {
  std::fill(df, df + g.k() * g.o, T(0));
  depthwise_for_each(g, [&](std::size_t xi, std::size_t fi, std::size_t yi) {
    for (std::size_t ch = 0; ch < g.c; ++ch)
      for (std::size_t m = 0; m < g.o; ++m) df[fi + ch * g.o + m] += x[xi + ch] * dy[yi + ch * g.o + m];
  });
}

}  // namespace typeflow::ops::detail
