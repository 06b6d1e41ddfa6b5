// typeflow/ops/shape_ops.hpp — tf.shape, tf.size and tf.rank as nodes, and the dims
// argument that tf.fill, tf.zeros, tf.ones and the random ops take as a tensor.
//
// shape_op(x) is TensorFlow's tf.shape(x) (`shape` itself names typeflow's static shapes):
// an int32 (or int64) vector of x's dims. size(x) is the number of x's elements, rank(x) its
// rank, int32 scalars. When x's shape is static the value is known at compile time and the
// node reads nothing: x is not on the run's path (its placeholders need no feed). Otherwise
// the node reads x's value and takes its dims. None of them has a gradient (TensorFlow
// registers none).
//
// A dims node is an int32 or int64 vector of static length R: the dims of a tensor of rank
// R, taken from its value when a run computes it; a negative dim fails the run with
// InvalidArgument, as TensorFlow's kernels do. The tensor's static shape is x's when the dims
// node is shape_op(x), else R dyn dims (TensorFlow's shape inference gives the same).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"

namespace typeflow {

/// In a diagnostic: the out_type of shape_op or size, which is not int32 or int64.
template <class OutType>
struct shape_out_type_must_be_int32_or_int64 {
  static constexpr bool value = false;
};
/// In a diagnostic: the dims argument of fill, zeros, ones or a random op, of this element
/// type and shape: not an int32 or int64 vector of static length.
template <class ElementType, class Shape>
struct dims_must_be_an_int32_or_int64_vector_of_static_length {
  static constexpr bool value = false;
};
/// In a diagnostic: a shape given as a template argument to fill, zeros, ones or a random op
/// with a dim that is negative or dyn (the tensor's dims would come from nowhere).
template <class Shape>
struct shape_argument_needs_static_dims_of_at_least_0 {
  static constexpr bool value = false;
};

namespace ops::detail {

template <class I>
constexpr bool is_shape_index_type = std::is_same_v<I, std::int32_t> || std::is_same_v<I, std::int64_t>;

/// The value `n` as I, or InvalidArgument when it does not fit (TensorFlow's int32 outputs).
template <class I>
I checked_index(std::size_t n, const char* op) {
  if (n > static_cast<std::size_t>(std::numeric_limits<I>::max()))
    throw invalid_argument_error(std::string(op) + ": the value " + std::to_string(n) +
                                 " does not fit in the out_type; use std::int64_t");
  return static_cast<I>(n);
}

/// The inputs of a shape, size or rank node of x: x when its value is needed.
template <class X>
using shape_inputs = mp::mp_if_c<shape_of<X>::is_static, mp::mp_list<>, mp::mp_list<X>>;

/// X's dims: from the type when static, else from x's value `in...`.
template <class X, class... V>
std::array<std::size_t, shape_of<X>::rank> dims_of_input(const V&... in) {
  using S = shape_of<X>;
  if constexpr (sizeof...(V) == 0) {
    std::array<std::size_t, S::rank> d{};
    for (std::size_t i = 0; i < S::rank; ++i) d[i] = static_cast<std::size_t>(S::dims[i]);
    return d;
  } else {
    return dims_of<S::rank>(in...);
  }
}

}  // namespace ops::detail

/// tf.shape(x, out_type=I): x's dims, an I vector of length rank(x). Inputs: x, or nothing
/// when x's shape is static.
template <class X, class I, class... In>
struct shape_op_node : node_facade<I, shape<std::ptrdiff_t(shape_of<X>::rank)>, node_kind::compute, In...>,
                       op_info<"Shape", false> {
  template <class... N>
  using rebind = shape_op_node<mp::mp_front<mp::mp_list<N..., X>>, I, N...>;
  template <std::size_t K, class G>
  using gradient = no_gradient;

  template <class Out, class... V>
  static void compute(Out& out, const V&... in) {
    const auto d = ops::detail::dims_of_input<X>(in...);
    for (std::size_t i = 0; i < d.size(); ++i) out.data()[i] = ops::detail::checked_index<I>(d[i], "Shape");
  }
};

/// tf.size(x, out_type=I): the number of x's elements, an I scalar.
template <class X, class I, class... In>
struct size_node : node_facade<I, scalar, node_kind::compute, In...>, op_info<"Size", false> {
  template <class... N>
  using rebind = size_node<mp::mp_front<mp::mp_list<N..., X>>, I, N...>;
  template <std::size_t K, class G>
  using gradient = no_gradient;

  template <class Out, class... V>
  static void compute(Out& out, const V&... in) {
    const auto d = ops::detail::dims_of_input<X>(in...);
    out = ops::detail::checked_index<I>(ops::detail::dims_product(d, 0, d.size()), "Size");
  }
};

/// tf.rank(x): x's rank, an int32 scalar; static, so the node reads nothing.
template <class X>
struct rank_node : node_facade<std::int32_t, scalar, node_kind::compute>, op_info<"Rank", false> {
  template <class... N>
  using rebind = rank_node;
  template <std::size_t K, class G>
  using gradient = no_gradient;

  template <class Out>
  static void compute(Out& out) {
    out = static_cast<std::int32_t>(shape_of<X>::rank);
  }
};

namespace ops::detail {
template <class X, class I, class In>
struct shape_op_of;
template <class X, class I, class... In>
struct shape_op_of<X, I, mp::mp_list<In...>> {
  using type = shape_op_node<X, I, In...>;
  using size_type = size_node<X, I, In...>;
};
}  // namespace ops::detail

/// `shape_op(x)` is tf.shape(x); `shape_op<std::int64_t>(x)` is tf.shape(x, out_type=tf.int64).
template <class I = std::int32_t, node X>
constexpr auto shape_op(const X& x) {
  if constexpr (!ops::detail::is_shape_index_type<I>) {
    static_assert(shape_out_type_must_be_int32_or_int64<I>::value,
                  "typeflow::shape_op<I>(x): I (out_type) must be std::int32_t or std::int64_t");
    return shape_op<std::int32_t>(x);
  } else {
    return make_node<typename ops::detail::shape_op_of<X, I, ops::detail::shape_inputs<X>>::type>(x);
  }
}

/// `size(x)` is tf.size(x); `size<std::int64_t>(x)` is tf.size(x, out_type=tf.int64).
template <class I = std::int32_t, node X>
constexpr auto size(const X& x) {
  if constexpr (!ops::detail::is_shape_index_type<I>) {
    static_assert(shape_out_type_must_be_int32_or_int64<I>::value,
                  "typeflow::size<I>(x): I (out_type) must be std::int32_t or std::int64_t");
    return size<std::int32_t>(x);
  } else {
    return make_node<typename ops::detail::shape_op_of<X, I, ops::detail::shape_inputs<X>>::size_type>(x);
  }
}

/// `rank(x)` is tf.rank(x): an int32 scalar, known at compile time.
template <node X>
constexpr rank_node<X> rank(const X&) {
  return {};
}

// --- dims arguments ---------------------------------------------------------------------------

namespace ops::detail {

/// Whether D is a dims node: an int32 or int64 vector of static length.
template <class D>
constexpr bool is_dims_node = is_shape_index_type<value_type_of<D>> && shape_of<D>::rank == 1 && shape_of<D>::dims[0] >= 0;

/// The static shape of a tensor whose dims are the value of dims node D.
template <class D>
struct shape_from_dims {
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>) -> shape<((void)I, dyn)...>;
  using type = decltype(make(std::make_index_sequence<std::size_t(shape_of<D>::dims[0])>{}));
};
template <class X, class I, class... In>
struct shape_from_dims<shape_op_node<X, I, In...>> {
  using type = shape_of<X>;
};
template <class D>
using shape_from_dims_t = typename shape_from_dims<D>::type;

/// The dims of a tensor of shape S: S's when static, else the value `dims` of a dims node,
/// each checked >= 0 (InvalidArgument, as TensorFlow's kernel of op `op`).
template <class S, class... V>
std::array<std::size_t, S::rank> dims_of_tensor(const char* op, const V&... dims) {
  std::array<std::size_t, S::rank> d{};
  if constexpr (sizeof...(V) == 0) {
    for (std::size_t i = 0; i < S::rank; ++i) d[i] = static_cast<std::size_t>(S::dims[i]);
  } else {
    const auto* p = data_ptr(dims...);
    for (std::size_t i = 0; i < S::rank; ++i) {
      if (p[i] < 0)
        throw invalid_argument_error(std::string(op) + ": dims must be >= 0, got dims[" + std::to_string(i) +
                                     "] = " + std::to_string(p[i]));
      d[i] = static_cast<std::size_t>(p[i]);
    }
  }
  return d;
}

}  // namespace ops::detail

}  // namespace typeflow
