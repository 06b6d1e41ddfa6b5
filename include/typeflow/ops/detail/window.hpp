// typeflow/ops/detail/window.hpp — the spellings and the output-size rule shared by the
// windowed ops over NHWC images (conv2d, depthwise_conv2d, conv2d_transpose, max_pool,
// avg_pool): `strides<2, 2>`, `ksize<3, 3>`, `dilations<1, 1>`, `padding::same` and
// `padding::valid`, as TensorFlow's strides=[1, 2, 2, 1], ksize=[1, 3, 3, 1],
// dilations=[1, 1, 1, 1] and padding="SAME" / "VALID" over the two spatial dims.
#pragma once

#include <cstddef>

#include "typeflow/core/shape.hpp"

namespace typeflow {

/// The steps of a window over (height, width): tf's strides=[1, H, W, 1].
template <std::ptrdiff_t H, std::ptrdiff_t W = H>
struct strides {
  static constexpr std::ptrdiff_t height = H, width = W;
};
/// A pooling window's (height, width): tf's ksize=[1, H, W, 1].
template <std::ptrdiff_t H, std::ptrdiff_t W = H>
struct ksize {
  static constexpr std::ptrdiff_t height = H, width = W;
};
/// The spacing of a filter's taps over (height, width): tf's dilations=[1, H, W, 1].
template <std::ptrdiff_t H, std::ptrdiff_t W = H>
struct dilations {
  static constexpr std::ptrdiff_t height = H, width = W;
};

namespace padding {
/// padding="SAME": the output has ceil(in / stride) positions; the input is padded with
/// zeros, half of the padding before (rounded down), the rest after, as TensorFlow.
struct same {
  static constexpr bool is_same = true;
  static constexpr const char* name = "SAME";
};
/// padding="VALID": only windows wholly inside the input; ceil((in - extent + 1) / stride).
struct valid {
  static constexpr bool is_same = false;
  static constexpr const char* name = "VALID";
};
}  // namespace padding

namespace ops::detail {

template <class P>
inline constexpr bool is_padding = false;
template <>
inline constexpr bool is_padding<padding::same> = true;
template <>
inline constexpr bool is_padding<padding::valid> = true;

/// One spatial dimension of a windowed op: input size `in`, window `size` (taps), stride
/// and dilation. `extent` is the span the dilated window covers.
struct window_dim {
  std::ptrdiff_t in, size, stride, dilation;
  bool same;

  constexpr std::ptrdiff_t extent() const { return (size - 1) * dilation + 1; }
  /// TensorFlow's GetWindowedOutputSize: SAME ceil(in / stride); VALID
  /// ceil((in - extent + 1) / stride), 0 or less when the window does not fit.
  constexpr std::ptrdiff_t out() const {
    return same ? (in + stride - 1) / stride : (in - extent() + stride) / stride;
  }
  /// The padding before the first element (top or left): SAME splits the total padding
  /// max((out - 1) * stride + extent - in, 0) with the smaller half first.
  constexpr std::ptrdiff_t pad_before() const {
    if (!same) return 0;
    const std::ptrdiff_t total = (out() - 1) * stride + extent() - in;
    return total > 0 ? total / 2 : 0;
  }
};

/// The static output size of a dimension, `dyn` when the input's is `dyn`.
constexpr std::ptrdiff_t static_window_out(std::ptrdiff_t in, std::ptrdiff_t size, std::ptrdiff_t stride,
                                           std::ptrdiff_t dilation, bool same) {
  return in == dyn ? dyn : window_dim{in, size, stride, dilation, same}.out();
}

}  // namespace ops::detail
}  // namespace typeflow
