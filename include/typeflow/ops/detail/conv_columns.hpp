// typeflow/ops/detail/conv_columns.hpp — the im2col columns a convolution's forward pass
// made, kept for its filter gradient (ops/detail/conv_kernels.hpp).
//
// Conv2DBackpropFilter(x, dy) needs im2col(x), which Conv2D(x, f) made in the same training
// step (or, for a convolution in Winograd's form, the tiles' transformed input V: ops/detail/
// conv_winograd.hpp; each entry says which form it holds). The forward pass leaves the
// columns of its whole batch here with a copy of x; the
// filter gradient takes them when the geometry is the same and its x equals the copy bit
// for bit (columns are a function of x's bits and the geometry, so they are then exactly
// the ones it would make), else it makes its own. A copy and a compare of x are much
// cheaper than im2col, whose output is K = KH * KW * C times larger.
//
// Per thread and element type, a few entries (the convolutions of one model), each at most
// max_elements columns: larger convolutions are not kept and run in chunks as before. The
// buffers only grow, so steady runs allocate nothing.
#pragma once

#include <array>
#include <cstddef>
#include <cstring>
#include <vector>

namespace typeflow::ops::detail {

/// One convolution's sizes at run time (see conv_kernels.hpp). pad_top / pad_left are
/// TensorFlow's SAME split (window_dim::pad_before), 0 for VALID.
struct conv_geometry {
  std::size_t n, h, w, c;  // the input
  std::size_t kh, kw, o;   // the filter: taps, and its last dim (O, or M for depthwise)
  std::size_t oh, ow;      // the output positions
  std::size_t sh, sw, dh, dw;
  std::ptrdiff_t pad_top, pad_left;

  std::size_t k() const { return kh * kw * c; }
  std::size_t positions() const { return oh * ow; }
  std::size_t input_size() const { return n * h * w * c; }
  /// A 1x1 filter at stride 1 reads each pixel once, unpadded: x itself is the im2col matrix.
  bool pointwise() const { return kh == 1 && kw == 1 && sh == 1 && sw == 1 && oh == h && ow == w; }
  /// The same columns for the same input: all but the filter's output channels agree.
  /// The output tiles of Winograd's F(4x4, 3x3) form: 4x4 positions each.
  std::size_t tile_rows() const { return (oh + 3) / 4; }
  std::size_t tile_cols() const { return (ow + 3) / 4; }
  bool same_columns(const conv_geometry& g) const {
    return n == g.n && h == g.h && w == g.w && c == g.c && kh == g.kh && kw == g.kw && oh == g.oh && ow == g.ow &&
           sh == g.sh && sw == g.sw && dh == g.dh && dw == g.dw && pad_top == g.pad_top && pad_left == g.pad_left;
  }
};

/// What a forward pass keeps for its filter's gradient: im2col's columns [N * OH * OW, K],
/// or Winograd's transformed input V [36][N * tiles][C].
enum class conv_form { columns, winograd };

inline std::size_t conv_kept_elements(const conv_geometry& g, conv_form form) {
  return form == conv_form::columns ? g.n * g.positions() * g.k() : 36 * g.n * g.tile_rows() * g.tile_cols() * g.c;
}

template <class T>
class conv_columns_cache {
 public:
  static constexpr std::size_t ways = 4;
  static constexpr std::size_t max_elements = std::size_t{1} << 21;

  static conv_columns_cache& local() {
    thread_local conv_columns_cache cache;
    return cache;
  }

  /// Whether the columns (or V) of g's whole batch are small enough to keep.
  static bool fits(const conv_geometry& g, conv_form form = conv_form::columns) {
    return g.input_size() > 0 && conv_kept_elements(g, form) <= max_elements;
  }

  /// The buffer for the columns of x under g, to be filled by the caller; x is copied as
  /// their key. Replaces the entry of the same geometry, else the least recently used one.
  T* store(const conv_geometry& g, const T* x, conv_form form = conv_form::columns) {
    entry* e = nullptr;
    for (auto& c : entries_)
      if (c.valid && c.form == form && c.g.same_columns(g)) e = &c;
    if (!e) {
      e = &entries_[0];
      for (auto& c : entries_)
        if (!c.valid || c.used < e->used) e = &c;
    }
    e->valid = false;
    e->g = g;
    e->form = form;
    grow(e->input, g.input_size());
    grow(e->columns, conv_kept_elements(g, form));
    if (g.input_size() != 0) std::memcpy(e->input.data(), x, g.input_size() * sizeof(T));  // x may be null
    e->valid = true;
    e->used = ++clock_;
    return e->columns.data();
  }

  /// The kept columns of x under g, or nullptr.
  const T* find(const conv_geometry& g, const T* x, conv_form form = conv_form::columns) {
    for (auto& e : entries_)
      if (e.valid && e.form == form && e.g.same_columns(g) &&
          (g.input_size() == 0 || std::memcmp(e.input.data(), x, g.input_size() * sizeof(T)) == 0)) {
        e.used = ++clock_;
        return e.columns.data();
      }
    return nullptr;
  }

 private:
  struct entry {
    conv_geometry g{};
    conv_form form = conv_form::columns;
    std::vector<T> input, columns;
    std::size_t used = 0;
    bool valid = false;
  };
  static void grow(std::vector<T>& v, std::size_t n) {
    if (v.size() < n) v.resize(n);
  }
  std::array<entry, ways> entries_{};
  std::size_t clock_ = 0;
};

}  // namespace typeflow::ops::detail
