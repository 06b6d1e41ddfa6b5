// typeflow/ops/slice.hpp — tf.slice and tf.strided_slice, and the node split and unstack
// (ops/split.hpp) build their outputs of. Where the elements are (ranges, views, the walk):
// ops/detail/slice_ranges.hpp.
//
// Each is one node kind: the input's elements at per-dimension ranges (python's
// begin:end:stride, or one index that removes the dimension), described by a value of
// ops::detail::ranges<rank> given as a template argument. The gradient is the incoming
// gradient scattered into zeros of the input's shape.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/detail/slice_ranges.hpp"
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
      ops::detail::copy_view<false>(v, x, o);
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
      ops::detail::copy_view<true>(v, gp, o);
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
