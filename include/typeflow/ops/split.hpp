// typeflow/ops/split.hpp — tf.split and tf.unstack: a std::tuple of slices (ops/slice.hpp).
//
// TensorFlow's Split, SplitV and Unpack are one op with several outputs ("split:0",
// "split:1", ...); here each output is its own node, a slice_node of its piece whose op name
// is the TensorFlow op's. The gradient of each piece is a scatter into zeros of the input's
// shape, and the gradients of the pieces a loss uses add up (TensorFlow concatenates them).
#pragma once

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "typeflow/core/node.hpp"
#include "typeflow/ops/concat.hpp"
#include "typeflow/ops/slice.hpp"

namespace typeflow {

/// In a diagnostic: an axis outside [-rank, rank) of the input's shape.
template <std::ptrdiff_t Axis, class Shape>
struct axis_is_out_of_range_for_shape {
  static constexpr bool value = false;
};

/// In a diagnostic: split and unstack need a static size along the axis they cut.
template <std::ptrdiff_t Axis, class Shape>
struct split_or_unstack_needs_a_static_size_along_axis {
  static constexpr bool value = false;
};
/// In a diagnostic: split<num, axis> needs num to divide the axis' size.
template <std::size_t Num, std::ptrdiff_t Axis, class Shape>
struct split_count_must_divide_the_dimension {
  static constexpr bool value = false;
};
/// In a diagnostic: split<ints<sizes...>, axis> needs sizes (at most one -1) summing to the
/// axis' size.
template <class Sizes, std::ptrdiff_t Axis, class Shape>
struct split_sizes_must_add_up_to_the_dimension {
  static constexpr bool value = false;
};
namespace ops::detail {

/// SplitV's sizes with the one -1 resolved, and whether they add up to the dimension's size.
template <std::size_t M>
struct resolved_split_sizes {
  std::array<std::ptrdiff_t, M> sizes{};
  bool ok = true;
};
template <std::size_t M>
constexpr resolved_split_sizes<M> resolve_split_sizes(std::array<std::ptrdiff_t, M> s, std::ptrdiff_t n) {
  std::ptrdiff_t sum = 0;
  std::size_t holes = 0, hole = 0;
  bool ok = true;
  for (std::size_t i = 0; i < M; ++i) {
    if (s[i] == -1) {
      ++holes;
      hole = i;
    } else if (s[i] < 0) {
      ok = false;
    } else {
      sum += s[i];
    }
  }
  if (holes == 1 && sum <= n) s[hole] = n - sum;
  ok = ok && holes <= 1 && M > 0 && (holes == 1 ? sum <= n : sum == n);
  return {ok ? s : std::array<std::ptrdiff_t, M>{}, ok};
}

}  // namespace ops::detail

namespace ops::detail {
// The tuples of pieces are built empty, then assigned: g++ 12 resolving std::tuple's
// constructor templates with arguments of deep node types takes time exponential in the
// graph's depth (docs/ARCHITECTURE.md, "Compile time in large graphs").
template <class Kind, std::size_t Axis, auto Starts, class A, std::size_t... I>
constexpr auto split_pieces(const A& a, std::index_sequence<I...>) {
  std::tuple<slice_node<Kind, A, axis_range<shape_of<A>::rank>(Axis, Starts[I], Starts[I + 1], false)>...> pieces{};
  ((std::get<I>(pieces) = make_node<std::tuple_element_t<I, decltype(pieces)>>(a)), ...);
  return pieces;
}
template <std::size_t Axis, class A, std::size_t... I>
constexpr auto unstack_pieces(const A& a, std::index_sequence<I...>) {
  std::tuple<slice_node<unstack_kind, A, axis_range<shape_of<A>::rank>(Axis, I, I + 1, true)>...> pieces{};
  ((std::get<I>(pieces) = make_node<std::tuple_element_t<I, decltype(pieces)>>(a)), ...);
  return pieces;
}
/// stack<0>(x...), or the node A when x... are all of unstack<0>(A)'s pieces in order
/// (TensorFlow's Pack of an Unpack's outputs): then the graph holds neither the slices nor
/// the stack, and the gradient reaches A whole instead of as one zero-padded slice per step.
template <class X0, class... X>
constexpr auto restack(const X0& x0, const X&... x) {
  if constexpr (requires { typename X0::inputs; } && mp::mp_size<inputs_of<X0>>::value == 1) {
    using A = mp::mp_front<inputs_of<X0>>;
    if constexpr (shape_of<A>::rank >= 1 && shape_of<A>::dims[0] == std::ptrdiff_t(1 + sizeof...(X)) &&
                  std::is_same_v<std::tuple<X0, X...>,
                                 decltype(unstack_pieces<0>(std::declval<const A&>(),
                                                            std::make_index_sequence<1 + sizeof...(X)>{}))>) {
      return make_node<A>(x0);
    } else {
      return stack<0>(x0, x...);
    }
  } else {
    return stack<0>(x0, x...);
  }
}
// The starts of the pieces of the given sizes, and the end.
template <std::size_t M>
constexpr std::array<std::ptrdiff_t, M + 1> starts_of(const std::array<std::ptrdiff_t, M>& sizes) {
  std::array<std::ptrdiff_t, M + 1> s{};
  for (std::size_t i = 0; i < M; ++i) s[i + 1] = s[i] + sizes[i];
  return s;
}
template <class A>
constexpr auto inert_pieces(const A& a) {
  return std::tuple{make_node<slice_node<strided_slice_kind, A, full_ranges<shape_of<A>::rank>()>>(a)};
}

/// Whether split and unstack can cut shape S along Axis: in range, of static size. When not,
/// the one error names the axis and the shape, and the caller returns inert_pieces.
template <std::ptrdiff_t Axis, class S>
constexpr bool cuttable_axis() {
  if constexpr (!axis_in_range(Axis, S::rank)) {
    static_assert(axis_is_out_of_range_for_shape<Axis, S>::value,
                  "typeflow::split and unstack: the axis must be in [-rank, rank)");
    return false;
  } else if constexpr (S::dims[normalized_axis(Axis, S::rank)] == dyn) {
    static_assert(split_or_unstack_needs_a_static_size_along_axis<Axis, S>::value,
                  "typeflow::split and unstack cut a dimension of static size into a number of nodes known at "
                  "compile time");
    return false;
  } else {
    return true;
  }
}
}  // namespace ops::detail

/// tf.split(x, num, axis): `split<num, axis>(x)`, a std::tuple of num nodes, equal pieces
/// along axis (whose size must be static and a multiple of num). Op "Split".
template <std::size_t Num, std::ptrdiff_t Axis, node A>
constexpr auto split(const A& a) {
  using S = shape_of<A>;
  if constexpr (!ops::detail::cuttable_axis<Axis, S>()) {
    return ops::detail::inert_pieces(a);
  } else if constexpr (Num == 0 || S::dims[ops::detail::normalized_axis(Axis, S::rank)] % Num != 0) {
    static_assert(split_count_must_divide_the_dimension<Num, Axis, S>::value,
                  "typeflow::split<num, axis>(x): num must divide the size of x along axis");
    return ops::detail::inert_pieces(a);
  } else {
    constexpr std::size_t axis = ops::detail::normalized_axis(Axis, S::rank);
    constexpr std::array<std::ptrdiff_t, Num> sizes = [] {
      std::array<std::ptrdiff_t, Num> s{};
      for (auto& v : s) v = S::dims[axis] / static_cast<std::ptrdiff_t>(Num);
      return s;
    }();
    return ops::detail::split_pieces<ops::detail::split_kind, axis, ops::detail::starts_of(sizes)>(
        a, std::make_index_sequence<Num>{});
  }
}

/// tf.split(x, [sizes...], axis): `split<ints<sizes...>, axis>(x)`, a std::tuple of one node
/// per size; one size may be -1 (the rest). Op "SplitV".
template <class Sizes, std::ptrdiff_t Axis, node A>
constexpr auto split(const A& a) {
  using S = shape_of<A>;
  if constexpr (!ops::detail::cuttable_axis<Axis, S>()) {
    return ops::detail::inert_pieces(a);
  } else {
    constexpr std::size_t axis = ops::detail::normalized_axis(Axis, S::rank);
    constexpr auto resolved = ops::detail::resolve_split_sizes(ops::detail::to_array(Sizes{}), S::dims[axis]);
    if constexpr (!resolved.ok) {
      static_assert(split_sizes_must_add_up_to_the_dimension<Sizes, Axis, S>::value,
                    "typeflow::split<ints<sizes...>, axis>(x): the sizes (at most one -1) must add up to the size "
                    "of x along axis");
      return ops::detail::inert_pieces(a);
    } else {
      return ops::detail::split_pieces<ops::detail::split_v_kind, axis, ops::detail::starts_of(resolved.sizes)>(
          a, std::make_index_sequence<resolved.sizes.size()>{});
    }
  }
}

/// tf.unstack(x, axis=axis): a std::tuple of the dim(axis) slices x[..., i, ...], the axis
/// removed; its size must be static (TensorFlow needs `num` otherwise). Op "Unpack".
template <std::ptrdiff_t Axis = 0, node A>
constexpr auto unstack(const A& a) {
  using S = shape_of<A>;
  if constexpr (!ops::detail::cuttable_axis<Axis, S>()) {
    return ops::detail::inert_pieces(a);
  } else {
    constexpr std::size_t axis = ops::detail::normalized_axis(Axis, S::rank);
    return ops::detail::unstack_pieces<axis>(a, std::make_index_sequence<static_cast<std::size_t>(S::dims[axis])>{});
  }
}

}  // namespace typeflow
