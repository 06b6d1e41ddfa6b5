// typeflow/ops/detail/conv_winograd.hpp — conv2d and its two gradients for 3x3 filters at
// stride 1 in Winograd's minimal filtering form F(4x4, 3x3) (Lavin and Gray, "Fast
// Algorithms for Convolutional Neural Networks", 2016): the choice of ops/detail/
// conv_kernels.hpp where it applies (winograd_applies), im2col elsewhere.
//
// The output is cut into 4x4 tiles, each computed from the 6x6 input tile under it:
//   Y = A^T [(G g G^T) . (B^T d B)] A
// The elementwise product over the 36 points of a tile, summed over the input channels, is
// for each point e one product V[e] U[e] of the tiles' transformed inputs [tiles, C] by the
// transformed filter [C, O]: 36 gemm calls of the same shapes as im2col's one, with 2.25x
// fewer multiply-adds. So the products stay sgemm calls (OpenBLAS's kernels), and only the
// transforms, a few additions per value, are loops (conv_winograd_transforms.hpp).
//   - The input's gradient is the same pass over dy with the filter rotated by 180 degrees
//     and its channels swapped, padded by 2 - pad (a 3x3 filter's full correlation).
//   - The filter's gradient is dU[e] = V[e]^T dM[e], dM the output gradient's tiles
//     transformed (A dY A^T), then dw = G^T dU G; V is the forward pass's, kept with a
//     copy of x as its key (conv_columns_cache) when it fits, else made again.
//
// Its error is larger than im2col's: the transforms' constants (1/6, 1/24, 8) round. For
// float, about 6e-6 of the largest output against 3e-7..7e-7 (benchmarks/RESULTS.md,
// "Convolutional models: the products of a Winograd form"); TensorFlow's CPU kernels
// (Eigen's spatial convolution) stay at the latter, its GPU (cuDNN) ones may take this form.
//
// Layouts as conv_kernels.hpp's: x [N, H, W, C], f [3, 3, C, O], y [N, OH, OW, O]; here
// U [36][C][O], V [36][tiles][C], M and dM [36][tiles][O], tile t = (image, row, column).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "typeflow/ops/detail/conv_columns.hpp"
#include "typeflow/ops/detail/conv_winograd_transforms.hpp"
#include "typeflow/ops/matmul.hpp"

namespace typeflow::ops::detail {

/// Below this many input or output channels the 36 products are too thin for sgemm, and
/// im2col's one product is faster (the CNN's first convolution, C = 1).
inline constexpr std::size_t winograd_min_channels = 16;

/// A 3x3 filter at stride 1, undilated, with enough channels both ways.
inline bool winograd_applies(const conv_geometry& g) {
  return g.kh == 3 && g.kw == 3 && g.sh == 1 && g.sw == 1 && g.dh == 1 && g.dw == 1 && g.pad_top >= 0 &&
         g.pad_top <= 2 && g.pad_left >= 0 && g.pad_left <= 2 && g.c >= winograd_min_channels &&
         g.o >= winograd_min_channels && g.n * g.positions() > 0;
}

// --- the passes ---------------------------------------------------------------------------

/// The tiles of one image: ceil(OH / 4) rows of ceil(OW / 4).
inline std::size_t winograd_tiles(const conv_geometry& g) { return g.tile_rows() * g.tile_cols(); }

/// Per thread and element type, grow-only: steady runs allocate nothing.
template <class T>
struct winograd_scratch {
  std::vector<T> u, v, m, rows, zeros, flipped;
  static winograd_scratch& local() {
    thread_local winograd_scratch s;
    return s;
  }
  static T* sized(std::vector<T>& b, std::size_t n) {
    if (b.size() < n) b.resize(n);
    return b.data();
  }
};

/// How many images one pass over V and M takes: about 2^19 elements of both (2 MB of
/// float), at least one image. The products' output M is written, read back by the output
/// transform, and written again by the next chunk: the CNN's step ran about 5% faster with
/// chunks of 9 images (144 tiles) than with the whole batch at once (benchmarks/RESULTS.md,
/// "Convolutional models: Winograd's form in typeflow"). A kept V still holds the whole
/// batch, each chunk's tiles at their offset.
inline constexpr std::size_t winograd_chunk_elements = std::size_t{1} << 19;
inline std::size_t winograd_chunk(const conv_geometry& g) {
  const std::size_t per_image = std::max<std::size_t>(1, 36 * winograd_tiles(g) * (g.c + g.o));
  return std::max<std::size_t>(1, winograd_chunk_elements / per_image);
}

/// U = G f G^T for each (input channel, output channel): f [3, 3, C, O] to U [36][C][O].
template <class T>
void winograd_filter_transform(const conv_geometry& g, const T* f, T* u) {
  const std::size_t c = g.c, o = g.o;
  T* t = winograd_scratch<T>::sized(winograd_scratch<T>::local().rows, 18 * o);  // G g, [6][3][O]
  for (std::size_t ch = 0; ch < c; ++ch) {
    for (std::size_t s = 0; s < 3; ++s)
      winograd_rows<winograd_g_op, T>(
          {f + (s * c + ch) * o, f + ((3 + s) * c + ch) * o, f + ((6 + s) * c + ch) * o},
          {t + s * o, t + (3 + s) * o, t + (6 + s) * o, t + (9 + s) * o, t + (12 + s) * o, t + (15 + s) * o}, o);
    for (std::size_t a = 0; a < 6; ++a) {
      T* dst = u + (a * 6 * c + ch) * o;
      const std::size_t e = c * o;  // from one transform point to the next
      winograd_rows<winograd_g_op, T>({t + (a * 3) * o, t + (a * 3 + 1) * o, t + (a * 3 + 2) * o},
                                      {dst, dst + e, dst + 2 * e, dst + 3 * e, dst + 4 * e, dst + 5 * e}, o);
    }
  }
}

/// V = B^T d B for each tile of `images` images from x, into V [36][stride][C] (v at the
/// first image's first tile; `stride` tiles from one transform point to the next).
template <class T>
void winograd_input_transform(const conv_geometry& g, const T* x, std::size_t images, T* v, std::size_t stride) {
  auto& s = winograd_scratch<T>::local();
  const std::size_t c = g.c, rows = g.tile_rows(), cols = g.tile_cols();
  T* tmp = winograd_scratch<T>::sized(s.rows, 36 * c);  // B^T d, [6][6][C]
  if (s.zeros.size() < c) s.zeros.assign(c, T(0));
  const T* zero = s.zeros.data();
  for (std::size_t b = 0; b < images; ++b)
    for (std::size_t ty = 0; ty < rows; ++ty)
      for (std::size_t tx = 0; tx < cols; ++tx) {
        const std::size_t t = (b * rows + ty) * cols + tx;
        // The tile's pixels are read in place; those in the padding from a row of zeros.
        const auto pixel = [&](std::size_t i, std::size_t j) {
          const std::ptrdiff_t ii = std::ptrdiff_t(4 * ty + i) - g.pad_top,
                               jj = std::ptrdiff_t(4 * tx + j) - g.pad_left;
          if (ii < 0 || jj < 0 || ii >= std::ptrdiff_t(g.h) || jj >= std::ptrdiff_t(g.w)) return zero;
          return x + ((b * g.h + std::size_t(ii)) * g.w + std::size_t(jj)) * c;
        };
        for (std::size_t j = 0; j < 6; ++j)
          winograd_rows<winograd_bt_op, T>(
              {pixel(0, j), pixel(1, j), pixel(2, j), pixel(3, j), pixel(4, j), pixel(5, j)},
              {tmp + j * c, tmp + (6 + j) * c, tmp + (12 + j) * c, tmp + (18 + j) * c, tmp + (24 + j) * c,
               tmp + (30 + j) * c},
              c);
        for (std::size_t a = 0; a < 6; ++a) {
          const T* r = tmp + a * 6 * c;
          T* dst = v + (a * 6 * stride + t) * c;
          const std::size_t e = stride * c;
          winograd_rows<winograd_bt_op, T>({r, r + c, r + 2 * c, r + 3 * c, r + 4 * c, r + 5 * c},
                                           {dst, dst + e, dst + 2 * e, dst + 3 * e, dst + 4 * e, dst + 5 * e}, c);
        }
      }
}

/// y = A^T M A for each tile of `images` images, from M [36][tiles][O]; the tiles' rows and
/// columns past the output's edge are computed into discarded rows (one per column).
template <class T>
void winograd_output_transform(const conv_geometry& g, const T* m, std::size_t images, T* y) {
  auto& s = winograd_scratch<T>::local();
  const std::size_t o = g.o, rows = g.tile_rows(), cols = g.tile_cols();
  const std::size_t tiles = images * rows * cols;
  T* tmp = winograd_scratch<T>::sized(s.rows, 28 * o);  // A^T M, [4][6][O], and 4 discarded rows
  T* discard = tmp + 24 * o;
  for (std::size_t b = 0; b < images; ++b)
    for (std::size_t ty = 0; ty < rows; ++ty)
      for (std::size_t tx = 0; tx < cols; ++tx) {
        const std::size_t t = (b * rows + ty) * cols + tx;
        for (std::size_t e = 0; e < 6; ++e) {
          const T* src = m + (e * tiles + t) * o;
          const std::size_t step = 6 * tiles * o;
          winograd_rows<winograd_at_op, T>(
              {src, src + step, src + 2 * step, src + 3 * step, src + 4 * step, src + 5 * step},
              {tmp + e * o, tmp + (6 + e) * o, tmp + (12 + e) * o, tmp + (18 + e) * o}, o);
        }
        for (std::size_t a = 0; a < 4; ++a) {
          const std::size_t i = 4 * ty + a;
          const auto out = [&](std::size_t q) {
            const std::size_t j = 4 * tx + q;
            return i < g.oh && j < g.ow ? y + ((b * g.oh + i) * g.ow + j) * o : discard + q * o;
          };
          const T* r = tmp + a * 6 * o;
          winograd_rows<winograd_at_op, T>({r, r + o, r + 2 * o, r + 3 * o, r + 4 * o, r + 5 * o},
                                           {out(0), out(1), out(2), out(3)}, o);
        }
      }
}

/// y = conv2d(x, f) where winograd_applies(g): the filter transformed into U, then per
/// chunk of images V, M[e] = V[e] U[e] and y. With keep, V of the whole batch is left in
/// conv_columns_cache for the filter's gradient (when it fits).
template <class T>
void winograd_conv(const conv_geometry& g, const T* x, const T* f, T* y, bool keep) {
  auto& s = winograd_scratch<T>::local();
  const std::size_t c = g.c, o = g.o, per_image = winograd_tiles(g);
  T* u = winograd_scratch<T>::sized(s.u, 36 * c * o);
  winograd_filter_transform(g, f, u);
  const bool kept = keep && conv_columns_cache<T>::fits(g, conv_form::winograd);
  const std::size_t chunk = std::min(g.n, winograd_chunk(g));
  // Kept, V holds the whole batch (the chunks' tiles at their offsets); else one chunk.
  const std::size_t stride = (kept ? g.n : chunk) * per_image;
  T* v = kept ? conv_columns_cache<T>::local().store(g, x, conv_form::winograd)
              : winograd_scratch<T>::sized(s.v, 36 * stride * c);
  T* m = winograd_scratch<T>::sized(s.m, 36 * chunk * per_image * o);
  for (std::size_t b = 0; b < g.n; b += chunk) {
    const std::size_t images = std::min(chunk, g.n - b), tiles = images * per_image;
    T* vb = kept ? v + b * per_image * c : v;
    winograd_input_transform(g, x + b * g.h * g.w * c, images, vb, stride);
    for (std::size_t e = 0; e < 36; ++e)
      gemm<T>(false, false, tiles, o, c, T(1), vb + e * stride * c, c, u + e * c * o, o, T(0), m + e * tiles * o, o);
    winograd_output_transform(g, m, images, y + b * g.positions() * o);
  }
}

/// dx = Conv2DBackpropInput(f, dy): the convolution of dy by f rotated by 180 degrees with
/// its channels swapped ([3, 3, O, C]), padded by 2 - pad before, cut to the input's size.
template <class T>
void winograd_backprop_input(const conv_geometry& g, const T* f, const T* dy, T* dx) {
  const std::size_t c = g.c, o = g.o;
  T* flipped = winograd_scratch<T>::sized(winograd_scratch<T>::local().flipped, 9 * c * o);
  for (std::size_t tap = 0; tap < 9; ++tap)
    for (std::size_t ch = 0; ch < c; ++ch)
      for (std::size_t k = 0; k < o; ++k) flipped[((8 - tap) * o + k) * c + ch] = f[(tap * c + ch) * o + k];
  conv_geometry back = g;
  back.h = g.oh, back.w = g.ow, back.c = o, back.o = c, back.oh = g.h, back.ow = g.w;
  back.pad_top = 2 - g.pad_top, back.pad_left = 2 - g.pad_left;
  winograd_conv(back, dy, flipped, dx, false);
}

/// df = Conv2DBackpropFilter(x, dy): dU[e] = V[e]^T dM[e] summed over the chunks, V the
/// forward pass's when conv_columns_cache kept it for this x, then df = G^T dU G.
template <class T>
void winograd_backprop_filter(const conv_geometry& g, const T* x, const T* dy, T* df) {
  auto& s = winograd_scratch<T>::local();
  const std::size_t c = g.c, o = g.o, rows = g.tile_rows(), cols = g.tile_cols();
  const std::size_t per_image = rows * cols;
  const T* kept = conv_columns_cache<T>::fits(g, conv_form::winograd)
                      ? conv_columns_cache<T>::local().find(g, x, conv_form::winograd)
                      : nullptr;
  const std::size_t chunk = std::min(g.n, winograd_chunk(g));
  const std::size_t stride = (kept ? g.n : chunk) * per_image;  // as winograd_conv's
  T* du = winograd_scratch<T>::sized(s.u, 36 * c * o);
  T* v = kept ? nullptr : winograd_scratch<T>::sized(s.v, 36 * stride * c);
  T* dm = winograd_scratch<T>::sized(s.m, 36 * chunk * per_image * o);
  for (std::size_t b0 = 0; b0 < g.n; b0 += chunk) {
    const std::size_t images = std::min(chunk, g.n - b0), tiles = images * per_image;
    if (!kept) winograd_input_transform(g, x + b0 * g.h * g.w * c, images, v, stride);
    const T* vc = kept ? kept + b0 * per_image * c : v;
    // After the input transform, which sizes the same scratch rows for itself.
    T* tmp = winograd_scratch<T>::sized(s.rows, 24 * o);  // A dY, [6][4][O]
    if (s.zeros.size() < o) s.zeros.assign(o, T(0));
    const T* zero = s.zeros.data();
    for (std::size_t b = 0; b < images; ++b)
      for (std::size_t ty = 0; ty < rows; ++ty)
        for (std::size_t tx = 0; tx < cols; ++tx) {
          const std::size_t t = (b * rows + ty) * cols + tx;
          const auto grad = [&](std::size_t p, std::size_t q) {
            const std::size_t i = 4 * ty + p, j = 4 * tx + q;
            return i < g.oh && j < g.ow ? dy + (((b0 + b) * g.oh + i) * g.ow + j) * o : zero;
          };
          for (std::size_t q = 0; q < 4; ++q)
            winograd_rows<winograd_a_op, T>({grad(0, q), grad(1, q), grad(2, q), grad(3, q)},
                                            {tmp + q * o, tmp + (4 + q) * o, tmp + (8 + q) * o, tmp + (12 + q) * o,
                                             tmp + (16 + q) * o, tmp + (20 + q) * o},
                                            o);
          for (std::size_t i = 0; i < 6; ++i) {
            const T* r = tmp + i * 4 * o;
            T* dst = dm + (i * 6 * tiles + t) * o;
            const std::size_t e = tiles * o;
            winograd_rows<winograd_a_op, T>({r, r + o, r + 2 * o, r + 3 * o},
                                            {dst, dst + e, dst + 2 * e, dst + 3 * e, dst + 4 * e, dst + 5 * e}, o);
          }
        }
    for (std::size_t e = 0; e < 36; ++e)
      gemm<T>(true, false, c, o, tiles, T(1), vc + e * stride * c, c, dm + e * tiles * o, o, b0 == 0 ? T(0) : T(1),
              du + e * c * o, o);
  }
  // df = G^T dU G, per input channel over the output channels' rows: t = G^T dU, [3][6][O].
  T* t = winograd_scratch<T>::sized(s.rows, 18 * o);
  for (std::size_t ch = 0; ch < c; ++ch) {
    for (std::size_t e = 0; e < 6; ++e) {
      const T* src = du + (e * c + ch) * o;
      const std::size_t step = 6 * c * o;  // from transform row a to a + 1
      winograd_rows<winograd_gt_op, T>(
          {src, src + step, src + 2 * step, src + 3 * step, src + 4 * step, src + 5 * step},
          {t + e * o, t + (6 + e) * o, t + (12 + e) * o}, o);
    }
    for (std::size_t r = 0; r < 3; ++r) {
      const T* row = t + r * 6 * o;
      winograd_rows<winograd_gt_op, T>(
          {row, row + o, row + 2 * o, row + 3 * o, row + 4 * o, row + 5 * o},
          {df + ((r * 3) * c + ch) * o, df + ((r * 3 + 1) * c + ch) * o, df + ((r * 3 + 2) * c + ch) * o}, o);
    }
  }
}

}  // namespace typeflow::ops::detail
