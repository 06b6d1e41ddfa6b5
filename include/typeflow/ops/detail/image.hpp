// typeflow/ops/detail/image.hpp — the kernels of pad (CONSTANT, REFLECT, SYMMETRIC) and
// of resize_nearest_neighbor, and of their gradients, on raw row-major buffers.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

namespace typeflow::ops::detail {

/// How pad fills the border: with a constant, or mirrored (REFLECT leaves the edge out,
/// SYMMETRIC repeats it).
enum class pad_fill { constant, reflect, symmetric };

/// The paddings of each dimension, as a structural value (a template argument).
template <std::size_t R>
struct pad_spec {
  std::array<std::ptrdiff_t, R> before{}, after{};
};

/// The input index that padded position o of a dimension of size n shows, or -1 for the
/// constant border.
constexpr std::ptrdiff_t pad_source(std::ptrdiff_t o, std::ptrdiff_t before, std::ptrdiff_t n, pad_fill fill) {
  const std::ptrdiff_t j = o - before;
  if (j >= 0 && j < n) return j;
  switch (fill) {
    case pad_fill::reflect:
      return j < 0 ? -j : 2 * (n - 1) - j;
    case pad_fill::symmetric:
      return j < 0 ? -j - 1 : 2 * n - 1 - j;
    default:
      return -1;
  }
}

/// Calls f(output index, input index or -1) for every element of the padded output, in
/// row-major order. `in` are the input's dims.
template <std::size_t R, class F>
void for_each_padded(const std::array<std::size_t, R>& in, const pad_spec<R>& p, pad_fill fill, F&& f) {
  std::array<std::size_t, R> out{}, idx{}, in_stride{};
  std::size_t total = 1;
  for (std::size_t d = R; d-- > 0;) {
    out[d] = in[d] + static_cast<std::size_t>(p.before[d] + p.after[d]);
    in_stride[d] = d + 1 < R ? in_stride[d + 1] * in[d + 1] : 1;
    total *= out[d];
  }
  for (std::size_t o = 0; o < total; ++o) {
    std::ptrdiff_t src = 0;
    for (std::size_t d = 0; d < R && src >= 0; ++d) {
      const std::ptrdiff_t s =
          pad_source(static_cast<std::ptrdiff_t>(idx[d]), p.before[d], static_cast<std::ptrdiff_t>(in[d]), fill);
      src = s < 0 ? -1 : src + s * static_cast<std::ptrdiff_t>(in_stride[d]);
    }
    f(o, src);
    for (std::size_t d = R; d-- > 0;) {
      if (++idx[d] < out[d]) break;
      idx[d] = 0;
    }
  }
}

/// tf.image.resize_nearest_neighbor's source row (or column) of output position o, TF 1.x
/// defaults (align_corners=False, half_pixel_centers=False): min(floor(o * in / out), in - 1)
/// with the scale in float, as TensorFlow computes it.
inline std::size_t nearest_source(std::size_t o, std::size_t in, std::size_t out) {
  const float scale = static_cast<float>(in) / static_cast<float>(out);
  const auto s = static_cast<std::size_t>(std::floor(static_cast<float>(o) * scale));
  return std::min(s, in == 0 ? 0 : in - 1);
}

/// Calls f(output offset, input offset) for the first channel of every output pixel of a
/// nearest-neighbour resize of [batch, in_h, in_w, depth] to [batch, out_h, out_w, depth].
template <class F>
void for_each_nearest(const std::array<std::size_t, 4>& in, std::size_t out_h, std::size_t out_w, F&& f) {
  const std::size_t c = in[3];
  for (std::size_t b = 0; b < in[0]; ++b)
    for (std::size_t y = 0; y < out_h; ++y) {
      const std::size_t sy = nearest_source(y, in[1], out_h);
      for (std::size_t x = 0; x < out_w; ++x) {
        const std::size_t sx = nearest_source(x, in[2], out_w);
        f(((b * out_h + y) * out_w + x) * c, ((b * in[1] + sy) * in[2] + sx) * c);
      }
    }
}

}  // namespace typeflow::ops::detail
