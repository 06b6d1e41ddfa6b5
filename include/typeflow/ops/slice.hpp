// typeflow/ops/slice.hpp — tf.slice and tf.strided_slice, and the node split and unstack
// (ops/split.hpp) build their outputs of.
//
// Each is one node kind: the input's elements at per-dimension ranges (python's
// begin:end:stride, or one index that removes the dimension), described by a value of
// ops::detail::ranges<rank> given as a template argument. The gradient is the incoming
// gradient scattered into zeros of the input's shape.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"

namespace typeflow {

/// Compile-time integers: the begin, size, end and strides of a slice, the sizes of a split.
template <std::ptrdiff_t... V>
struct ints {};

namespace ops::detail {

template <std::ptrdiff_t... V>
constexpr std::array<std::ptrdiff_t, sizeof...(V)> to_array(ints<V...>) {
  return {V...};
}

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

/// The kept dims of a view (the shrunk ones removed).
template <std::size_t OutRank, std::size_t R>
std::array<std::size_t, OutRank> kept_dims(const ranges<R>& rg, const view<R>& v) {
  std::array<std::size_t, OutRank> d{};
  for (std::size_t i = 0, j = 0; i < R; ++i)
    if (!rg.shrink[i]) d[j++] = v.count[i];
  return d;
}

// --- the kinds: op names, whether out-of-bounds is an error, the gradient's op name --------

struct pad_kind : op_info<"Pad"> {};
struct strided_slice_grad_kind : op_info<"StridedSliceGrad"> {};
template <fixed_string OpName, bool Checked, class Grad>
struct slicing_kind : op_info<OpName> {
  static constexpr bool checked = Checked;
  using grad = Grad;
};
struct slice_kind : slicing_kind<"Slice", true, pad_kind> {};
struct strided_slice_kind : slicing_kind<"StridedSlice", false, strided_slice_grad_kind> {};
struct split_kind : slicing_kind<"Split", true, pad_kind> {};
struct split_v_kind : slicing_kind<"SplitV", true, pad_kind> {};
struct unstack_kind : slicing_kind<"Unpack", false, strided_slice_grad_kind> {};

}  // namespace ops::detail

template <class Kind, class G, class A, auto Rg>
struct slice_grad_node;

/// The elements of A at the ranges Rg (ops::detail::ranges): tf.slice, tf.strided_slice and
/// each output of tf.split and tf.unstack, as Kind says.
template <class Kind, class A, auto Rg>
struct slice_node
    : node_facade<value_type_of<A>, typename ops::detail::sliced_shape<shape_of<A>, Kind::checked, Rg>::type,
                  node_kind::compute, A>,
      op_info_of<Kind> {
  template <class... N>
  using rebind = slice_node<Kind, N..., Rg>;
  template <std::size_t K, class G>
  using gradient = slice_grad_node<Kind, G, A, Rg>;

  template <class Out, class V>
  static void compute(Out& out, const V& a) {
    constexpr std::size_t r = shape_of<A>::rank;
    using S = shape_of<slice_node>;
    const auto v = ops::detail::view_of<Kind>(Rg, ops::detail::dims_of<r>(a));
    const auto* x = ops::detail::data_ptr(a);
    ops::detail::write_out<S>(out, ops::detail::kept_dims<S::rank>(Rg, v), [&](auto* o) {
      ops::detail::for_each_offset(v.count, v.base, v.step, [&](std::size_t k, std::ptrdiff_t off) { o[k] = x[off]; });
    });
  }
};

/// The gradient of a slice: G placed at the ranges Rg in zeros of A's (run-time) shape.
template <class Kind, class G, class A, auto Rg>
struct slice_grad_node : node_facade<value_type_of<G>, shape_of<A>, node_kind::compute, G, A>,
                         op_info_of<typename Kind::grad> {
  template <class... N>
  using rebind = slice_grad_node<Kind, N..., Rg>;
  // Its own gradient is the slice again; A gives only a shape.
  template <std::size_t K, class GG>
  using gradient = mp::mp_if_c<K == 0, slice_node<Kind, GG, Rg>, no_gradient>;

  template <class Out, class VG, class VA>
  static void compute(Out& out, const VG& g, const VA& a) {
    constexpr std::size_t r = shape_of<A>::rank;
    const auto in = ops::detail::dims_of<r>(a);
    const auto v = ops::detail::view_of<Kind>(Rg, in);
    const auto* gp = ops::detail::data_ptr(g);
    ops::detail::write_out<shape_of<A>>(out, in, [&](auto* o) {
      std::size_t total = 1;
      for (auto d : in) total *= d;
      for (std::size_t i = 0; i < total; ++i) o[i] = value_type_of<G>(0);
      ops::detail::for_each_offset(v.count, v.base, v.step, [&](std::size_t k, std::ptrdiff_t off) { o[off] = gp[k]; });
    });
  }
};

// --- diagnostics ------------------------------------------------------------------------------

/// In a diagnostic: tf.slice's begin and size lists need one entry per dimension of the input.
template <class Begin, class Size, class Shape>
struct slice_needs_one_begin_and_one_size_per_dimension {
  static constexpr bool value = false;
};
/// In a diagnostic: at axis Axis, begin and size do not fit in the input's static shape
/// (begin in [0, dim], size in [0, dim - begin] or -1).
template <std::size_t Axis, class Begin, class Size, class Shape>
struct slice_begin_and_size_must_fit_in_the_shape {
  static constexpr bool value = false;
};
/// In a diagnostic: strided_slice's begin, end and strides lists (strides may be empty).
template <class Begin, class End, class Strides, class Shape>
struct strided_slice_needs_begin_end_and_strides_of_one_length_at_most_the_rank {
  static constexpr bool value = false;
};
/// In a diagnostic: at axis Axis, a stride of 0, or a shrunk index outside the dimension.
template <std::size_t Axis, class Begin, class End, class Strides, class Shape>
struct strided_slice_is_invalid_at_axis {
  static constexpr bool value = false;
};
namespace ops::detail {

template <std::size_t R>
constexpr ranges<R> slice_ranges(const std::array<std::ptrdiff_t, R>& begin, const std::array<std::ptrdiff_t, R>& size) {
  ranges<R> r = full_ranges<R>();
  for (std::size_t i = 0; i < R; ++i) {
    r.begin[i] = begin[i];
    r.begin_open[i] = false;
    r.end_open[i] = size[i] == -1;
    r.end[i] = begin[i] + size[i];
  }
  return r;
}

template <std::size_t R, std::size_t M>
constexpr ranges<R> strided_ranges(const std::array<std::ptrdiff_t, M>& begin, const std::array<std::ptrdiff_t, M>& end,
                                   const auto& strides, unsigned begin_mask, unsigned end_mask, unsigned shrink_mask) {
  ranges<R> r = full_ranges<R>();
  for (std::size_t i = 0; i < M; ++i) {
    r.begin[i] = begin[i];
    r.end[i] = end[i];
    r.stride[i] = strides.size() == 0 ? 1 : strides[i];
    r.shrink[i] = (shrink_mask >> i) & 1u;
    r.begin_open[i] = !r.shrink[i] && ((begin_mask >> i) & 1u);
    r.end_open[i] = !r.shrink[i] && ((end_mask >> i) & 1u);
  }
  return r;
}

/// Elements [b, e) along axis, every element of the other dims; or index b, removed.
template <std::size_t R>
constexpr ranges<R> axis_range(std::size_t axis, std::ptrdiff_t b, std::ptrdiff_t e, bool shrink) {
  ranges<R> r = full_ranges<R>();
  r.begin[axis] = b;
  r.end[axis] = e;
  r.begin_open[axis] = r.end_open[axis] = false;
  r.shrink[axis] = shrink;
  return r;
}


}  // namespace ops::detail

/// tf.slice(x, begin, size): `slice<ints<b...>, ints<s...>>(x)`, one begin and one size per
/// dimension; size -1 takes the rest of the dimension. begin in [0, dim], size in
/// [0, dim - begin]: a compile error for a static dim, InvalidArgument for a dyn one.
template <class Begin, class Size, node A>
constexpr auto slice(const A& a) {
  using S = shape_of<A>;
  constexpr std::size_t r = S::rank;
  constexpr auto b = ops::detail::to_array(Begin{});
  constexpr auto s = ops::detail::to_array(Size{});
  if constexpr (b.size() != r || s.size() != r) {
    static_assert(slice_needs_one_begin_and_one_size_per_dimension<Begin, Size, S>::value,
                  "typeflow::slice<ints<begin...>, ints<size...>>(x): one begin and one size per dimension of x");
    return make_node<slice_node<ops::detail::slice_kind, A, ops::detail::full_ranges<r>()>>(a);
  } else {
    constexpr auto rg = ops::detail::slice_ranges<r>(b, s);
    constexpr std::size_t bad = ops::detail::first_bad_axis<S, true, rg>();
    if constexpr (bad < r) {
      static_assert(slice_begin_and_size_must_fit_in_the_shape<bad, Begin, Size, S>::value,
                    "typeflow::slice<ints<begin...>, ints<size...>>(x): begin must be in [0, dim] and size in "
                    "[0, dim - begin] (or -1, the rest)");
      return make_node<slice_node<ops::detail::slice_kind, A, ops::detail::full_ranges<r>()>>(a);
    } else {
      return make_node<slice_node<ops::detail::slice_kind, A, rg>>(a);
    }
  }
}

/// tf.strided_slice(x, begin, end, strides, begin_mask, end_mask, shrink_axis_mask), python's
/// x[b0:e0:s0, b1:e1:s1, ...]: `strided_slice<ints<b...>, ints<e...>, ints<s...>, bm, em, sm>(x)`.
/// Strides may be `ints<>` (all 1); dims past the lists are taken whole. Negative indices
/// count from the end, and begin and end are clamped into the dimension; bit i of
/// begin_mask/end_mask leaves begin/end i open, of shrink_axis_mask takes the index begin[i]
/// and removes the dimension (x[i]).
template <class Begin, class End, class Strides = ints<>, unsigned BeginMask = 0, unsigned EndMask = 0,
          unsigned ShrinkAxisMask = 0, node A>
constexpr auto strided_slice(const A& a) {
  using S = shape_of<A>;
  constexpr std::size_t r = S::rank;
  constexpr auto b = ops::detail::to_array(Begin{});
  constexpr auto e = ops::detail::to_array(End{});
  constexpr auto st = ops::detail::to_array(Strides{});
  if constexpr (b.size() != e.size() || b.size() > r || (st.size() != 0 && st.size() != b.size())) {
    static_assert(strided_slice_needs_begin_end_and_strides_of_one_length_at_most_the_rank<Begin, End, Strides, S>::value,
                  "typeflow::strided_slice<ints<begin...>, ints<end...>, ints<strides...>>(x): begin, end and strides "
                  "(or no strides) of one length, at most rank(x)");
    return make_node<slice_node<ops::detail::strided_slice_kind, A, ops::detail::full_ranges<r>()>>(a);
  } else {
    constexpr auto rg = ops::detail::strided_ranges<r>(b, e, st, BeginMask, EndMask, ShrinkAxisMask);
    constexpr std::size_t bad = ops::detail::first_bad_axis<S, false, rg>();
    if constexpr (bad < r) {
      static_assert(strided_slice_is_invalid_at_axis<bad, Begin, End, Strides, S>::value,
                    "typeflow::strided_slice: a stride is 0, or a shrunk index (shrink_axis_mask) is outside its "
                    "dimension");
      return make_node<slice_node<ops::detail::strided_slice_kind, A, ops::detail::full_ranges<r>()>>(a);
    } else {
      return make_node<slice_node<ops::detail::strided_slice_kind, A, rg>>(a);
    }
  }
}

}  // namespace typeflow
