// typeflow/ops/concat.hpp — tf.concat (ConcatV2) and tf.stack (Pack) along a compile-time axis.
//
// Static dims are checked at compile time: the inputs of concat agree on every dim but
// the axis, those of stack on every dim. A `tf::dyn` dim takes the static size of another
// input there, and the fed sizes are checked when the op runs (TensorFlow's InvalidArgument).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <type_traits>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"
#include "typeflow/ops/elementwise.hpp"

namespace typeflow {

/// In a diagnostic: the axis and the two static shapes that differ on another dim (or in rank).
template <std::ptrdiff_t Axis, class S, class T>
struct concat_inputs_must_agree_except_on_the_axis {
  static constexpr bool value = false;
};
/// In a diagnostic: the axis and the first input's shape, of which it is no dim.
template <std::ptrdiff_t Axis, class S>
struct concat_axis_must_be_a_dim_of_the_inputs {
  static constexpr bool value = false;
};
/// In a diagnostic: two inputs of tf::stack whose static shapes differ.
template <class S, class T>
struct stack_inputs_must_have_the_same_shape {
  static constexpr bool value = false;
};
/// In a diagnostic: the axis and the first input's shape (the result has one dim more).
template <std::ptrdiff_t Axis, class S>
struct stack_axis_must_be_in_range_of_the_result {
  static constexpr bool value = false;
};

namespace ops::detail {


/// The static shapes S... joined: dims equal (or dyn) everywhere but at Skip (Skip >= rank:
/// everywhere). A class named by shapes alone, so its constants are cheap.
template <std::size_t Skip, class... S>
struct join_rule {
  static constexpr std::size_t n = sizeof...(S);
  static constexpr std::array<std::size_t, n> ranks{S::rank...};
  static constexpr std::size_t rank = ranks[0];
  static constexpr auto flat = [] {
    std::array<std::ptrdiff_t, (S::rank + ... + 0)> f{};
    std::size_t k = 0;
    auto put = [&](const auto& dims) {
      for (auto d : dims) f[k++] = d;
    };
    (put(S::dims), ...);
    return f;
  }();
  static constexpr std::ptrdiff_t dim(std::size_t input, std::size_t d) {
    std::size_t at = 0;
    for (std::size_t j = 0; j < input; ++j) at += ranks[j];
    return flat[at + d];
  }
  // The first pair of inputs that cannot agree ({0, 0}: none).
  static constexpr std::array<std::size_t, 2> conflict = [] {
    std::array<std::size_t, 2> none{0, 0};
    for (std::size_t j = 1; j < n; ++j)
      if (ranks[j] != rank) return std::array<std::size_t, 2>{0, j};
    for (std::size_t d = 0; d < rank; ++d) {
      if (d == Skip) continue;
      std::size_t known = n;
      for (std::size_t j = 0; j < n; ++j) {
        if (dim(j, d) == dyn) continue;
        if (known == n) {
          known = j;
        } else if (dim(j, d) != dim(known, d)) {
          return std::array<std::size_t, 2>{known, j};
        }
      }
    }
    return none;
  }();
  static constexpr bool ok = conflict[1] == 0;
  // Dim d of the result, d != Skip: the static size of any input, else dyn.
  static constexpr std::ptrdiff_t merged(std::size_t d) {
    for (std::size_t j = 0; j < n; ++j)
      if (dim(j, d) != dyn) return dim(j, d);
    return dyn;
  }
  // Along Skip (concat): the sum, dyn when one is dyn.
  static constexpr std::ptrdiff_t summed(std::size_t d) {
    std::ptrdiff_t s = 0;
    for (std::size_t j = 0; j < n; ++j) {
      if (dim(j, d) == dyn) return dyn;
      s += dim(j, d);
    }
    return s;
  }
  template <std::size_t... I>
  static auto concat_dims(std::index_sequence<I...>) -> shape<(I == Skip ? summed(I) : merged(I))...>;
  template <std::size_t I>
  using shape_at = mp::mp_at_c<mp::mp_list<S...>, I>;
};

template <std::size_t Axis, class... S>
using concat_shape_t = decltype(join_rule<Axis, S...>::concat_dims(std::make_index_sequence<join_rule<Axis, S...>::rank>{}));

template <std::size_t Axis, class... S>
struct stack_shape {
  using rule = join_rule<std::size_t(-1), S...>;
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>)
      -> shape<(I == Axis ? std::ptrdiff_t(sizeof...(S)) : rule::merged(I < Axis ? I : I - 1))...>;
  using type = decltype(make(std::make_index_sequence<rule::rank + 1>{}));
};

// The index of the first of T... that is not T0 (0: all are).
template <class T0, class... T>
constexpr std::size_t first_other_type() {
  constexpr bool same[] = {true, std::is_same_v<T0, T>...};
  for (std::size_t i = 0; i < sizeof...(T) + 1; ++i)
    if (!same[i]) return i;
  return 0;
}

// Copies the inputs, each viewed as [outer, len_j, inner], into out viewed as
// [outer, sum of len_j, inner]: concat (len_j the inputs' sizes along the axis) and stack
// (every len_j 1).
template <class T, std::size_t N>
void join_copy(T* o, const std::array<const T*, N>& src, const std::array<std::size_t, N>& chunk, std::size_t outer) {
  for (std::size_t p = 0; p < outer; ++p)
    for (std::size_t j = 0; j < N; ++j) o = std::copy_n(src[j] + p * chunk[j], chunk[j], o);
}

// The slice [offset, offset + len) along the middle dim of g viewed as [outer, total, inner].
template <class T>
void slice_copy(T* o, const T* g, std::size_t outer, std::size_t total, std::size_t offset, std::size_t len,
                std::size_t inner) {
  for (std::size_t p = 0; p < outer; ++p) o = std::copy_n(g + (p * total + offset) * inner, len * inner, o);
}

template <bool Stack>
using join_gradient_op = mp::mp_if_c<Stack, op_info<"Unpack", false>, op_info<"Slice", false>>;

}  // namespace ops::detail

/// The gradient of concat (Stack false) or stack (Stack true) for input K, of shape S: the
/// K-th slice of g along Axis. For concat, its offset is the sizes along Axis of the
/// inputs before K, read at run time from In... (all the inputs); stack's is K, squeezed.
template <bool Stack, std::size_t Axis, std::size_t K, class S, class G, class... In>
struct join_gradient_node : node_facade<value_type_of<G>, S, node_kind::compute, G, In...>,
                            ops::detail::join_gradient_op<Stack> {
  template <class... N>
  using rebind = join_gradient_node<Stack, Axis, K, S, N...>;

  template <class Out, class VG, class... V>
  static void compute(Out& out, const VG& g, const V&... in) {
    using T = value_type_of<G>;
    constexpr std::size_t rg = shape_of<G>::rank;
    const auto gd = ops::detail::dims_of<rg>(g);
    std::array<std::size_t, S::rank> od{};
    std::size_t offset = K, len = 1;
    if constexpr (Stack) {
      for (std::size_t i = 0, j = 0; i < rg; ++i)
        if (i != Axis) od[j++] = gd[i];
    } else {
      const std::array<std::array<std::size_t, S::rank>, sizeof...(V)> dims{ops::detail::dims_of<S::rank>(in)...};
      offset = 0;
      for (std::size_t j = 0; j < K; ++j) offset += dims[j][Axis];
      od = dims[K];
      len = od[Axis];
    }
    ops::detail::resize_unless_static<S::is_static>(out, od);
    T scalar{};
    T* o = ops::detail::out_ptr(out, scalar);
    ops::detail::slice_copy(o, ops::detail::data_ptr(g), ops::detail::dims_product(gd, 0, Axis), gd[Axis], offset, len,
                            ops::detail::dims_product(gd, Axis + 1, rg));
    ops::detail::store_scalar(out, scalar);
  }
};

/// tf.concat([in...], axis) with Axis in [0, rank).
template <std::size_t Axis, class... In>
struct concat_node : node_facade<value_type_of<mp::mp_front<mp::mp_list<In...>>>,
                                 ops::detail::concat_shape_t<Axis, shape_of<In>...>, node_kind::compute, In...>,
                     op_info<"ConcatV2"> {
  template <class... N>
  using rebind = concat_node<Axis, N...>;

  template <std::size_t K, class G>
  using gradient = join_gradient_node<false, Axis, K, shape_of<mp::mp_at_c<mp::mp_list<In...>, K>>, G, In...>;

  template <class Out, class... V>
  static void compute(Out& out, const V&... in) {
    using T = value_type_of<concat_node>;
    using S = shape_of<concat_node>;
    constexpr std::size_t r = S::rank, n = sizeof...(In);
    const std::array<std::array<std::size_t, r>, n> dims{ops::detail::dims_of<r>(in)...};
    auto od = dims[0];
    for (std::size_t j = 1; j < n; ++j) {
      for (std::size_t d = 0; d < r; ++d)
        if (d != Axis && dims[j][d] != dims[0][d])
          throw invalid_argument_error("ConcatOp : Dimensions of inputs should match: shape[0] = " +
                                       shape_string(dims[0]) + " vs. shape[" + std::to_string(j) +
                                       "] = " + shape_string(dims[j]));
      od[Axis] += dims[j][Axis];
    }
    ops::detail::resize_unless_static<S::is_static>(out, od);
    const std::size_t inner = ops::detail::dims_product(od, Axis + 1, r);
    std::array<std::size_t, n> chunk{};
    for (std::size_t j = 0; j < n; ++j) chunk[j] = dims[j][Axis] * inner;
    ops::detail::join_copy(out.data(), std::array<const T*, n>{ops::detail::data_ptr(in)...}, chunk,
                           ops::detail::dims_product(od, 0, Axis));
  }
};

/// tf.stack([in...], axis) with Axis in [0, rank + 1).
template <std::size_t Axis, class... In>
struct stack_node : node_facade<value_type_of<mp::mp_front<mp::mp_list<In...>>>,
                                typename ops::detail::stack_shape<Axis, shape_of<In>...>::type, node_kind::compute, In...>,
                    op_info<"Pack"> {
  template <class... N>
  using rebind = stack_node<Axis, N...>;

  template <std::size_t K, class G>
  using gradient = join_gradient_node<true, Axis, K, shape_of<mp::mp_at_c<mp::mp_list<In...>, K>>, G>;

  template <class Out, class... V>
  static void compute(Out& out, const V&... in) {
    using T = value_type_of<stack_node>;
    constexpr std::size_t r = shape_of<mp::mp_front<mp::mp_list<In...>>>::rank, n = sizeof...(In);
    const std::array<std::array<std::size_t, r>, n> dims{ops::detail::dims_of<r>(in)...};
    for (std::size_t j = 1; j < n; ++j)
      if (dims[j] != dims[0])
        throw invalid_argument_error("Shapes of all inputs must match: values[0].shape = " + shape_string(dims[0]) +
                                     " != values[" + std::to_string(j) + "].shape = " + shape_string(dims[j]));
    std::array<std::size_t, r + 1> od{};
    for (std::size_t i = 0, j = 0; i <= r; ++i) od[i] = i == Axis ? n : dims[0][j++];
    ops::detail::resize_unless_static<shape_of<stack_node>::is_static>(out, od);
    std::array<std::size_t, n> chunk{};
    chunk.fill(ops::detail::dims_product(dims[0], Axis, r));
    ops::detail::join_copy(out.data(), std::array<const T*, n>{ops::detail::data_ptr(in)...}, chunk,
                           ops::detail::dims_product(dims[0], 0, Axis));
  }
};

namespace ops::detail {
// The checks concat and stack share: one element type; then the shapes (Skip: the dim
// exempt, rank for none).
template <class A, class... B>
constexpr bool same_element_types() {
  using types = mp::mp_list<value_type_of<A>, value_type_of<B>...>;
  constexpr std::size_t i = first_other_type<value_type_of<A>, value_type_of<B>...>();
  static_assert(operands_must_have_the_same_element_type<value_type_of<A>, mp::mp_at_c<types, i>>::value,
                "typeflow::concat / typeflow::stack: every input must have the same element type; "
                "convert with typeflow::cast<T>(x)");
  return i == 0;
}
}  // namespace ops::detail

/// `concat<axis>(a, b, ...)` is tf.concat([a, b, ...], axis): the inputs (of one rank ≥ 1
/// and one element type) joined along axis, in [-rank, rank); their other dims agree.
template <std::ptrdiff_t Axis, node A, node... B>
constexpr auto concat(const A& a, const B&... b) {
  constexpr std::size_t r = shape_of<A>::rank;
  if constexpr (!ops::detail::axis_in_range(Axis, r)) {
    static_assert(concat_axis_must_be_a_dim_of_the_inputs<Axis, shape_of<A>>::value,
                  "typeflow::concat<axis>(a, b, ...): axis must be in [-rank, rank) of the inputs "
                  "(a scalar cannot be concatenated: use typeflow::stack)");
    return a;  // inert: the error above is the one to read
  } else if constexpr (!ops::detail::same_element_types<A, B...>()) {
    return a;
  } else {
    constexpr std::size_t axis = ops::detail::normalized_axis(Axis, r);
    using rule = ops::detail::join_rule<axis, shape_of<A>, shape_of<B>...>;
    if constexpr (!rule::ok) {
      static_assert(concat_inputs_must_agree_except_on_the_axis<Axis, typename rule::template shape_at<rule::conflict[0]>,
                                                                typename rule::template shape_at<rule::conflict[1]>>::value,
                    "typeflow::concat<axis>(a, b, ...): the inputs must have one rank and the same "
                    "dims except along the axis");
      return a;
    } else {
      return make_node<concat_node<axis, A, B...>>(a, b...);
    }
  }
}

/// `stack<axis>(a, b, ...)` is tf.stack([a, b, ...], axis): K inputs of one shape and
/// element type become one tensor with a new dim of size K at axis, in [-(rank + 1), rank + 1).
template <std::ptrdiff_t Axis = 0, node A, node... B>
constexpr auto stack(const A& a, const B&... b) {
  constexpr std::size_t r = shape_of<A>::rank;
  if constexpr (!ops::detail::axis_in_range(Axis, r + 1)) {
    static_assert(stack_axis_must_be_in_range_of_the_result<Axis, shape_of<A>>::value,
                  "typeflow::stack<axis>(a, b, ...): axis must be in [-(rank + 1), rank + 1) of the inputs");
    return a;
  } else if constexpr (!ops::detail::same_element_types<A, B...>()) {
    return a;
  } else {
    using rule = ops::detail::join_rule<std::size_t(-1), shape_of<A>, shape_of<B>...>;
    if constexpr (!rule::ok) {
      static_assert(stack_inputs_must_have_the_same_shape<typename rule::template shape_at<rule::conflict[0]>,
                                                          typename rule::template shape_at<rule::conflict[1]>>::value,
                    "typeflow::stack<axis>(a, b, ...): the inputs must have the same shape");
      return a;
    } else {
      return make_node<stack_node<ops::detail::normalized_axis(Axis, r + 1), A, B...>>(a, b...);
    }
  }
}

}  // namespace typeflow
