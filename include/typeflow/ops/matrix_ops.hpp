// typeflow/ops/matrix_ops.hpp — TensorFlow 1.x's other batch-matrix array ops:
// matrix_transpose, matrix_band_part, broadcast_to and invert_permutation (the diagonal ops
// are in ops/diagonal.hpp).
//
// Shapes (the last two dims of x are the matrices, the dims before them a batch):
//   matrix_transpose(x)        [..., M, N] -> [..., N, M]           (transpose)
//   matrix_band_part<lo, up>(x), matrix_band_part(x, lo, up)       (op MatrixBandPart)
//   broadcast_to<shape<...>>(x)                                    (op BroadcastTo)
//   invert_permutation(p)      int32/int64 [N] -> [N]               (op InvertPermutation)
// Static misuse (a rank, a static dim) is a compile error naming the shapes; dims known only
// at run time are checked when a run computes the op, with TensorFlow's InvalidArgument
// message, before anything is written.
//
// Gradients (array_grad.py): MatrixBandPart's the same band of g (none to the bounds);
// BroadcastTo's g summed back to x's shape; InvertPermutation has none (TensorFlow's None).
// matrix_transpose is transpose of the last two dims and differentiates as such.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/broadcast_gradient.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"
#include "typeflow/ops/diagonal.hpp"
#include "typeflow/ops/reduce.hpp"
#include "typeflow/ops/transpose.hpp"

namespace typeflow {

/// In a diagnostic: the static shape of matrix_transpose's input, of rank < 2.
template <class InputShape>
struct matrix_transpose_needs_rank_at_least_2 {
  static constexpr bool value = false;
};
/// In a diagnostic: matrix_band_part's input shape and its bounds: the input has rank < 2, or
/// a static bound exceeds the rows (num_lower) or columns (num_upper).
template <class InputShape, std::ptrdiff_t NumLower, std::ptrdiff_t NumUpper>
struct matrix_band_part_needs_rank_2_and_bounds_negative_or_within_the_matrix {
  static constexpr bool value = false;
};
/// In a diagnostic: the element types and shapes of matrix_band_part's bound nodes, which are
/// not int32 or int64 scalars.
template <class NumLowerType, class NumLowerShape, class NumUpperType, class NumUpperShape>
struct matrix_band_part_bounds_must_be_int32_or_int64_scalars {
  static constexpr bool value = false;
};
/// In a diagnostic: x's static shape and the target shape of broadcast_to, which numpy's
/// broadcasting cannot turn one into the other (or the target has a dyn dim).
template <class InputShape, class TargetShape>
struct broadcast_to_cannot_broadcast_the_input_to_the_target_shape {
  static constexpr bool value = false;
};
/// In a diagnostic: invert_permutation's element type and shape: not an int32 or int64 vector.
template <class ElementType, class InputShape>
struct invert_permutation_needs_an_int32_or_int64_vector {
  static constexpr bool value = false;
};

namespace ops::detail {

template <class S, std::ptrdiff_t Lo, std::ptrdiff_t Up>
constexpr bool band_part_ok() {
  if constexpr (S::rank < 2) {
    return false;
  } else {
    const auto m = S::dims[S::rank - 2], n = S::dims[S::rank - 1];
    return (m == dyn || Lo <= m) && (n == dyn || Up <= n);
  }
}

// Numpy's broadcasting of x's shape X to exactly the target T (every dim of T static).
template <class X, class T>
constexpr bool broadcast_to_ok() {
  if constexpr (!T::is_static || X::rank > T::rank) {
    return false;
  } else {
    for (std::size_t i = 0; i < X::rank; ++i) {
      const auto x = X::dims[i], t = T::dims[T::rank - X::rank + i];
      if (x != dyn && x != 1 && x != t) return false;
    }
    return true;
  }
}

template <class T>
constexpr bool is_int_index = std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t>;
}  // namespace ops::detail

template <std::ptrdiff_t Lo, std::ptrdiff_t Up, class... In>
struct matrix_band_part_node;

namespace ops::detail {
template <std::ptrdiff_t Lo, std::ptrdiff_t Up>
struct band_part_rebind {
  template <class... N>
  using fn = matrix_band_part_node<Lo, Up, N...>;
};
}  // namespace ops::detail

/// matrix_band_part(x, num_lower, num_upper): x's elements within num_lower subdiagonals and
/// num_upper superdiagonals, zeros elsewhere (a negative bound keeps the whole triangle). The
/// bounds are Lo and Up, or (with In = X, L, U) the scalar int32/int64 nodes L and U.
template <std::ptrdiff_t Lo, std::ptrdiff_t Up, class... In>
struct matrix_band_part_node
    : node_facade<value_type_of<mp::mp_front<mp::mp_list<In...>>>, shape_of<mp::mp_front<mp::mp_list<In...>>>,
                  node_kind::compute, In...>,
      op_info<"MatrixBandPart"> {
  template <class... N>
  using rebind = matrix_band_part_node<Lo, Up, N...>;
  // _MatrixBandPartGrad: the same band of g; none to the bounds.
  template <std::size_t K, class G>
  using gradient = mp::mp_if_c<K == 0, mp::mp_rename<mp::mp_replace_front<mp::mp_list<In...>, G>,
                                                     ops::detail::band_part_rebind<Lo, Up>::template fn>,
                               no_gradient>;

  template <class Out, class VX, class... VB>
  static void compute(Out& out, const VX& x, const VB&... bounds) {
    using T = value_type_of<mp::mp_front<mp::mp_list<In...>>>;
    using S = shape_of<matrix_band_part_node>;
    constexpr std::size_t r = S::rank;
    const auto xd = ops::detail::dims_of<r>(x);
    const auto [batch, m, n] = ops::detail::batch_rows_cols(xd);
    std::int64_t lo = Lo, up = Up;
    if constexpr (sizeof...(VB) == 2) {
      const std::int64_t b[] = {static_cast<std::int64_t>(bounds)...};
      lo = b[0];
      up = b[1];
    }
    if (lo > static_cast<std::int64_t>(m))
      throw invalid_argument_error("num_lower must be negative or less or equal to number of rows (" +
                                   std::to_string(m) + ") got: " + std::to_string(lo));
    if (up > static_cast<std::int64_t>(n))
      throw invalid_argument_error("num_upper must be negative or less or equal to number of columns (" +
                                   std::to_string(n) + ") got: " + std::to_string(up));
    ops::detail::resize_unless_static<S::is_static>(out, xd);
    T* o = out.data();
    const T* p = ops::detail::data_ptr(x);
    for (std::size_t b = 0; b < batch; ++b)
      for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) {
          const std::int64_t d = static_cast<std::int64_t>(i) - static_cast<std::int64_t>(j);
          const bool in = (lo < 0 || d <= lo) && (up < 0 || -d <= up);
          const std::size_t at = (b * m + i) * n + j;
          o[at] = in ? p[at] : T(0);
        }
  }
};

/// broadcast_to<S>(x): x broadcast (numpy's rules) to the static shape S.
template <class S, class X>
struct broadcast_to_node : node_facade<value_type_of<X>, S, node_kind::compute, X>, op_info<"BroadcastTo"> {
  template <class... N>
  using rebind = broadcast_to_node<S, N...>;
  // _BroadcastToGrad: g summed over the broadcast dims, back to x's shape.
  template <std::size_t K, class G>
  using gradient = typename ops::detail::sum_to_impl<G, X>::type;

  template <class Out, class VX>
  static void compute(Out& out, const VX& x) {
    using T = value_type_of<X>;
    constexpr std::size_t r = S::rank, rx = shape_of<X>::rank;
    const auto xd = ops::detail::dims_of<rx>(x);
    std::array<std::size_t, r> td{};
    for (std::size_t i = 0; i < r; ++i) td[i] = static_cast<std::size_t>(S::dims[i]);
    // The run-time check of x's dyn dims, as TensorFlow's BroadcastTo kernel.
    for (std::size_t i = 0; i < rx; ++i) {
      const std::size_t a = xd[i], t = td[r - rx + i];
      if (a == t || a == 1) continue;
      if (t == 1)
        throw invalid_argument_error("Unable to broadcast tensor of shape " + ops::detail::dims_string(xd) +
                                     " to tensor of shape " + ops::detail::dims_string(td));
      throw invalid_argument_error("Incompatible shapes: " + ops::detail::dims_string(xd) + " vs. " +
                                   ops::detail::dims_string(td));
    }
    T scalar{};
    T* o = ops::detail::out_ptr(out, scalar);
    const T* p = ops::detail::data_ptr(x);
    if constexpr (r == 0) {
      o[0] = p[0];
    } else {
      // The stride of x along each output dim (0 where x is broadcast), and an odometer.
      std::array<std::size_t, r> stride{};
      for (std::size_t d = r, s = 1; d-- > r - rx;) {
        const std::size_t a = xd[d - (r - rx)];
        stride[d] = a == 1 ? 0 : s;
        s *= a;
      }
      const std::size_t size = ops::detail::dims_product(td, 0, r);
      std::array<std::size_t, r> idx{};
      std::size_t xi = 0;
      for (std::size_t i = 0; i < size; ++i) {
        o[i] = p[xi];
        for (std::size_t d = r; d-- > 0;) {
          xi += stride[d];
          if (++idx[d] < td[d]) break;
          xi -= stride[d] * idx[d];
          idx[d] = 0;
        }
      }
    }
    ops::detail::store_scalar(out, scalar);
  }
};

/// invert_permutation(p): y with y[p[i]] = i.
template <class P>
struct invert_permutation_node : node_facade<value_type_of<P>, shape_of<P>, node_kind::compute, P>,
                                 op_info<"InvertPermutation", false> {
  template <class... N>
  using rebind = invert_permutation_node<N...>;
  // TensorFlow's None: a permutation is not differentiable.
  template <std::size_t K, class G>
  using gradient = no_gradient;

  template <class Out, class VP>
  static void compute(Out& out, const VP& p) {
    using T = value_type_of<P>;
    const auto pd = ops::detail::dims_of<1>(p);
    ops::detail::resize_unless_static<shape_of<P>::is_static>(out, pd);
    const std::size_t n = pd[0];
    T* o = out.data();
    const T* x = ops::detail::data_ptr(p);
    std::fill(o, o + n, T(-1));
    for (std::size_t i = 0; i < n; ++i) {
      const T d = x[i];
      if (d < 0 || static_cast<std::size_t>(d) >= n)
        throw invalid_argument_error(std::to_string(d) + " is not between 0 and " + std::to_string(n));
      if (o[d] != T(-1)) throw invalid_argument_error(std::to_string(d) + " is duplicated in the input.");
      o[d] = static_cast<T>(i);
    }
  }
};

/// `matrix_transpose(x)` is tf.linalg.matrix_transpose: the last two dims swapped.
template <node A>
constexpr auto matrix_transpose(const A& a) {
  constexpr std::size_t r = shape_of<A>::rank;
  if constexpr (r < 2) {
    static_assert(matrix_transpose_needs_rank_at_least_2<shape_of<A>>::value,
                  "typeflow::matrix_transpose(x): x should be a (batch) matrix, of rank >= 2");
    return a;  // inert: the error above is the one to read
  } else {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return transpose<I..., r - 1, r - 2>(a);
    }(std::make_index_sequence<r - 2>{});
  }
}

/// `matrix_diag_part(x)` is tf.matrix_diag_part: [..., M, N] -> [..., min(M, N)].
/// `matrix_band_part<num_lower, num_upper>(x)` is tf.matrix_band_part (tf.linalg.band_part)
/// with compile-time bounds: elements (i, j) with (num_lower < 0 || i - j <= num_lower) and
/// (num_upper < 0 || j - i <= num_upper) kept, others zero.
template <std::ptrdiff_t NumLower, std::ptrdiff_t NumUpper, node X>
constexpr auto matrix_band_part(const X& x) {
  if constexpr (!ops::detail::band_part_ok<shape_of<X>, NumLower, NumUpper>()) {
    static_assert(
        matrix_band_part_needs_rank_2_and_bounds_negative_or_within_the_matrix<shape_of<X>, NumLower, NumUpper>::value,
        "typeflow::matrix_band_part<num_lower, num_upper>(x): x must be at least rank 2, num_lower negative or "
        "<= its rows, num_upper negative or <= its columns");
    return x;
  } else {
    return make_node<matrix_band_part_node<NumLower, NumUpper, X>>(x);
  }
}

/// `matrix_band_part(x, num_lower, num_upper)`: the bounds are scalar int32/int64 nodes.
template <node X, node L, node U>
constexpr auto matrix_band_part(const X& x, const L& num_lower, const U& num_upper) {
  if constexpr (!ops::detail::is_int_index<value_type_of<L>> || !ops::detail::is_int_index<value_type_of<U>> ||
                shape_of<L>::rank != 0 || shape_of<U>::rank != 0) {
    static_assert(matrix_band_part_bounds_must_be_int32_or_int64_scalars<value_type_of<L>, shape_of<L>,
                                                                          value_type_of<U>, shape_of<U>>::value,
                  "typeflow::matrix_band_part(x, num_lower, num_upper): the bounds must be int32 or int64 scalars");
    return x;
  } else if constexpr (!ops::detail::band_part_ok<shape_of<X>, -1, -1>()) {
    static_assert(matrix_band_part_needs_rank_2_and_bounds_negative_or_within_the_matrix<shape_of<X>, -1, -1>::value,
                  "typeflow::matrix_band_part(x, num_lower, num_upper): x must be at least rank 2");
    return x;
  } else {
    return make_node<matrix_band_part_node<0, 0, X, L, U>>(x, num_lower, num_upper);
  }
}

/// `broadcast_to<shape<...>>(x)` is tf.broadcast_to with a static target shape.
template <class S, node X>
constexpr auto broadcast_to(const X& x) {
  if constexpr (!ops::detail::broadcast_to_ok<shape_of<X>, S>()) {
    static_assert(broadcast_to_cannot_broadcast_the_input_to_the_target_shape<shape_of<X>, S>::value,
                  "typeflow::broadcast_to<shape<...>>(x): the shape must be static and x broadcastable to it "
                  "(numpy rules: x's trailing dims equal to the shape's, or 1)");
    return x;
  } else {
    return make_node<broadcast_to_node<S, X>>(x);
  }
}

/// `invert_permutation(p)` is tf.invert_permutation: y[p[i]] = i for a permutation p of 0..N-1.
template <node P>
constexpr auto invert_permutation(const P& p) {
  if constexpr (!ops::detail::is_int_index<value_type_of<P>> || shape_of<P>::rank != 1) {
    static_assert(invert_permutation_needs_an_int32_or_int64_vector<value_type_of<P>, shape_of<P>>::value,
                  "typeflow::invert_permutation(p): p must be an int32 or int64 vector");
    return p;
  } else {
    return make_node<invert_permutation_node<P>>(p);
  }
}

}  // namespace typeflow
