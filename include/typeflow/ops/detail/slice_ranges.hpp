// typeflow/ops/detail/slice_ranges.hpp — where a slice's elements are: the per-dimension
// ranges of tf.slice and tf.strided_slice (python's begin:end:stride, or one index), their
// resolution against a shape (statically for the output shape and the diagnostics, at run
// time for tf::dyn dims, with TensorFlow's messages), the view they make of an input, and
// the strided walk over it that the slicing and reshaping kernels (ops/slice.hpp,
// ops/expand.hpp) share.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/shape.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"

namespace typeflow::ops::detail {

/// What a slice takes of each input dimension i: python's begin[i]:end[i]:stride[i], the
/// begin or end left open (begin_mask, end_mask, tf.slice's size -1), or with shrink[i] the
/// single index begin[i], the dimension removed (shrink_axis_mask).
template <std::size_t R>
struct ranges {
  std::array<std::ptrdiff_t, R> begin{}, end{}, stride{};
  std::array<bool, R> begin_open{}, end_open{}, shrink{};
};

/// Every element: all ranges open.
template <std::size_t R>
constexpr ranges<R> full_ranges() {
  ranges<R> r{};
  for (std::size_t i = 0; i < R; ++i) {
    r.stride[i] = 1;
    r.begin_open[i] = r.end_open[i] = true;
  }
  return r;
}

/// One dimension's range against its size n: the first index, the count and the step;
/// ok false when the range is an error (tf.slice out of bounds, a shrunk index out of
/// bounds, a stride of 0).
struct dim_range {
  std::ptrdiff_t start = 0, count = 0, step = 1;
  bool ok = true;
};

constexpr std::ptrdiff_t clamp(std::ptrdiff_t v, std::ptrdiff_t lo, std::ptrdiff_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/// Checked (tf.slice): begin in [0, n] and end in [begin, n], no clamping. Otherwise python's
/// rules (tf.strided_slice): negative indices count from the end, then begin and end are
/// clamped into the dimension.
template <std::size_t R>
constexpr dim_range resolve(const ranges<R>& r, std::size_t i, std::ptrdiff_t n, bool checked) {
  const auto from_end = [n](std::ptrdiff_t v) { return v < 0 ? v + n : v; };
  if (r.shrink[i]) {
    const std::ptrdiff_t b = from_end(r.begin[i]);
    return {b, 1, 1, b >= 0 && b < n};
  }
  if (checked) {
    const std::ptrdiff_t b = r.begin[i], e = r.end_open[i] ? n : r.end[i];
    return {b, e - b, 1, b >= 0 && b <= n && e >= b && e <= n};
  }
  const std::ptrdiff_t s = r.stride[i];
  if (s > 0) {
    const std::ptrdiff_t b = r.begin_open[i] ? 0 : clamp(from_end(r.begin[i]), 0, n);
    const std::ptrdiff_t e = r.end_open[i] ? n : clamp(from_end(r.end[i]), 0, n);
    return {b, e > b ? (e - b + s - 1) / s : 0, s, true};
  }
  if (s < 0) {
    const std::ptrdiff_t b = r.begin_open[i] ? n - 1 : clamp(from_end(r.begin[i]), -1, n - 1);
    const std::ptrdiff_t e = r.end_open[i] ? -1 : clamp(from_end(r.end[i]), -1, n - 1);
    return {b, b > e ? (b - e - s - 1) / -s : 0, s, true};
  }
  return {0, 0, 0, false};
}

/// The first input dimension whose range is an error, or R.
template <class S, bool Checked, auto Rg>
constexpr std::size_t first_bad_axis() {
  for (std::size_t i = 0; i < S::rank; ++i) {
    if (Rg.stride[i] == 0 && !Rg.shrink[i]) return i;
    if (S::dims[i] != dyn && !resolve(Rg, i, S::dims[i], Checked).ok) return i;
  }
  return S::rank;
}

/// The output shape: the kept dimensions' counts; tf.slice's static size also on a dyn one.
template <class S, bool Checked, auto Rg>
struct sliced_shape {
  static constexpr std::size_t out_rank = [] {
    std::size_t n = 0;
    for (std::size_t i = 0; i < S::rank; ++i) n += !Rg.shrink[i];
    return n;
  }();
  static constexpr auto dims = [] {
    std::array<std::ptrdiff_t, out_rank> d{};
    for (std::size_t i = 0, j = 0; i < S::rank; ++i) {
      if (Rg.shrink[i]) continue;
      if (S::dims[i] != dyn) {
        const auto rr = resolve(Rg, i, S::dims[i], Checked);
        d[j++] = rr.ok ? rr.count : 0;
      } else {
        d[j++] = Checked && !Rg.end_open[i] ? Rg.end[i] - Rg.begin[i] : dyn;
      }
    }
    return d;
  }();
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>) -> shape<dims[I]...>;
  using type = decltype(make(std::make_index_sequence<out_rank>{}));
};

// --- kernels shared with ops/expand.hpp -------------------------------------------------------

/// Writes out's elements through f(T* data): sized to dims first when its shape is dynamic;
/// a rank-0 out through a local.
template <class S, class Out, std::size_t N, class F>
void write_out(Out& out, const std::array<std::size_t, N>& dims, F f) {
  if constexpr (std::is_arithmetic_v<Out>) {
    Out v{};
    f(&v);
    out = v;
  } else {
    if constexpr (!S::is_static) out.resize(dims);
    f(out.data());
  }
}

/// Calls f(k, offset) for the k-th element, row-major, of the view of counts `count` whose
/// element idx is at offset base + sum(idx[d] * step[d]) of the input.
template <std::size_t R, class F>
void for_each_offset(const std::array<std::size_t, R>& count, std::ptrdiff_t base,
                     const std::array<std::ptrdiff_t, R>& step, F f) {
  std::size_t total = 1;
  for (auto c : count) total *= c;
  std::array<std::size_t, R> idx{};
  std::ptrdiff_t off = base;
  for (std::size_t k = 0; k < total; ++k) {
    f(k, off);
    for (std::size_t d = R; d-- > 0;) {
      off += step[d];
      if (++idx[d] < count[d]) break;
      off -= step[d] * static_cast<std::ptrdiff_t>(count[d]);
      idx[d] = 0;
    }
  }
}

/// Where the elements of a slice are in its input: per dimension the count and the step
/// (in elements of the input), and the offset of the first element.
template <std::size_t R>
struct view {
  std::array<std::size_t, R> count{};
  std::array<std::ptrdiff_t, R> step{};
  std::ptrdiff_t base = 0;
};
/// The view of `rg` over an input of dims `in`. A range that does not fit (only possible in
/// a dim whose size was not known at compile time) throws TensorFlow's message.
template <class Kind, std::size_t R>
view<R> view_of(const ranges<R>& rg, const std::array<std::size_t, R>& in) {
  std::array<dim_range, R> d{};
  for (std::size_t i = 0; i < R; ++i) {  // the first bad axis is reported, as TensorFlow does
    const auto n = static_cast<std::ptrdiff_t>(in[i]);
    d[i] = resolve(rg, i, n, Kind::checked);
    if (!d[i].ok) {
      const std::string axis = std::to_string(i);
      if (rg.shrink[i])
        throw invalid_argument_error("slice index " + std::to_string(rg.begin[i]) + " of dimension " + axis +
                                     " out of bounds.");
      if (rg.begin[i] < 0 || rg.begin[i] > n)
        throw invalid_argument_error("Expected begin[" + axis + "] in [0, " + std::to_string(n) + "], but got " +
                                     std::to_string(rg.begin[i]));
      throw invalid_argument_error("Expected size[" + axis + "] in [0, " + std::to_string(n - rg.begin[i]) +
                                   "], but got " + std::to_string(rg.end[i] - rg.begin[i]));
    }
  }
  view<R> v;
  std::ptrdiff_t stride = 1;
  for (std::size_t i = R; i-- > 0;) {
    v.count[i] = static_cast<std::size_t>(d[i].count);
    v.step[i] = d[i].step * stride;
    v.base += d[i].start * stride;
    stride *= static_cast<std::ptrdiff_t>(in[i]);
  }
  return v;
}

/// Copies the elements of the view v of an input between the input and a row-major array of
/// the view's counts: from the input to the array (a slice), or IntoView from the array into
/// the input (a slice's gradient). Rows of count[R - 1] elements are copied as blocks when the
/// innermost step is 1 (contiguous in both), element by element otherwise. A function of R
/// and T only, shared by every slice of that rank and type (a copy per node made each
/// slice's compile cost grow).
template <bool IntoView, std::size_t R, class T>
void copy_view(const view<R>& v, const T* src, T* dst) {
  std::size_t n = 1;
  auto count = v.count;
  if constexpr (R > 0) {
    if (v.step[R - 1] == 1) {
      n = count[R - 1];
      count[R - 1] = 1;
      if (n == 0) return;
    }
  }
  for_each_offset(count, v.base, v.step, [&](std::size_t k, std::ptrdiff_t off) {
    if constexpr (IntoView) {
      std::copy_n(src + k * n, n, dst + off);
    } else {
      std::copy_n(src + off, n, dst + k * n);
    }
  });
}

/// The kept dims of a view (the shrunk ones removed).
template <std::size_t OutRank, std::size_t R>
std::array<std::size_t, OutRank> kept_dims(const ranges<R>& rg, const view<R>& v) {
  std::array<std::size_t, OutRank> d{};
  for (std::size_t i = 0, j = 0; i < R; ++i)
    if (!rg.shrink[i]) d[j++] = v.count[i];
  return d;
}

}  // namespace typeflow::ops::detail
