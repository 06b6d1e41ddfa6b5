// typeflow/ops/matrix_ops.hpp — TensorFlow 1.x's batch-matrix and diagonal array ops:
// matrix_transpose, trace, matrix_diag, matrix_diag_part, matrix_set_diag, diag, diag_part,
// matrix_band_part, broadcast_to and invert_permutation.
//
// Shapes (the last two dims of x are the matrices, the dims before them a batch):
//   matrix_transpose(x)        [..., M, N] -> [..., N, M]           (op Transpose)
//   trace(x)                   [..., M, N] -> [...]                 (reduce_sum of the diagonal)
//   matrix_diag(v)             [..., N]    -> [..., N, N]           (op MatrixDiag)
//   matrix_diag_part(x)        [..., M, N] -> [..., min(M, N)]      (op MatrixDiagPart)
//   matrix_set_diag(x, v)      x [..., M, N], v [..., min(M, N)] -> x's shape (op MatrixSetDiag)
//   diag(v)                    [d1..dk] -> [d1..dk, d1..dk]         (op Diag)
//   diag_part(x)               [d1..dk, d1..dk] -> [d1..dk]         (op DiagPart)
//   matrix_band_part<lo, up>(x), matrix_band_part(x, lo, up)       (op MatrixBandPart)
//   broadcast_to<shape<...>>(x)                                    (op BroadcastTo)
//   invert_permutation(p)      int32/int64 [N] -> [N]               (op InvertPermutation)
// Static misuse (a rank, a static dim) is a compile error naming the shapes; dims known only
// at run time are checked when a run computes the op, with TensorFlow's InvalidArgument
// message, before anything is written.
//
// Gradients (array_grad.py, math_grad.py): MatrixDiag's is matrix_diag_part(g); MatrixDiagPart's
// matrix_set_diag(zeros_like(x), g); MatrixSetDiag's matrix_set_diag(g, 0) to x and
// matrix_diag_part(g) to the diagonal; Diag's diag_part(g) and DiagPart's diag(g);
// MatrixBandPart's the same band of g (none to the bounds); BroadcastTo's g summed back to x's
// shape; InvertPermutation has none (TensorFlow's None). matrix_transpose and trace are
// compositions (transpose, reduce_sum of matrix_diag_part) and differentiate as such.
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
#include "typeflow/ops/reduce.hpp"
#include "typeflow/ops/transpose.hpp"

namespace typeflow {

/// In a diagnostic: the static shape of matrix_transpose's input, of rank < 2.
template <class InputShape>
struct matrix_transpose_needs_rank_at_least_2 {
  static constexpr bool value = false;
};
/// In a diagnostic: the static shape of trace's input, of rank < 2.
template <class InputShape>
struct trace_needs_rank_at_least_2 {
  static constexpr bool value = false;
};
/// In a diagnostic: the static shape of matrix_diag's diagonal, a scalar.
template <class DiagonalShape>
struct matrix_diag_needs_rank_at_least_1 {
  static constexpr bool value = false;
};
/// In a diagnostic: the static shape of matrix_diag_part's input, of rank < 2.
template <class InputShape>
struct matrix_diag_part_needs_rank_at_least_2 {
  static constexpr bool value = false;
};
/// In a diagnostic: matrix_set_diag's diagonal and input shapes: the input has rank < 2, or
/// the diagonal is not input.shape[:-2] + [min(input.shape[-2:])].
template <class DiagonalShape, class InputShape>
struct matrix_set_diag_diagonal_must_have_shape_input_batch_dims_plus_min_of_its_last_two {
  static constexpr bool value = false;
};
/// In a diagnostic: the static shape of diag's diagonal, a scalar.
template <class DiagonalShape>
struct diag_needs_rank_at_least_1 {
  static constexpr bool value = false;
};
/// In a diagnostic: the static shape of diag_part's input: not of rank 2k >= 2 with dims
/// [d1..dk, d1..dk].
template <class InputShape>
struct diag_part_needs_shape_d1_to_dk_twice {
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

constexpr std::ptrdiff_t min_dim(std::ptrdiff_t a, std::ptrdiff_t b) {
  return a == dyn || b == dyn ? dyn : std::min(a, b);
}
constexpr bool dims_may_agree(std::ptrdiff_t a, std::ptrdiff_t b) { return a == dyn || b == dyn || a == b; }
constexpr std::ptrdiff_t merged_dim(std::ptrdiff_t a, std::ptrdiff_t b) { return a != dyn ? a : b; }

// [..., N] -> [..., N, N]
template <class S>
struct matrix_diag_shape {
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>) -> shape<S::dims[I]..., S::dims[S::rank - 1], S::dims[S::rank - 1]>;
  using type = decltype(make(std::make_index_sequence<S::rank - 1>{}));
};
// [..., M, N] -> [..., min(M, N)]
template <class S>
struct matrix_diag_part_shape {
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>) -> shape<S::dims[I]..., min_dim(S::dims[S::rank - 2], S::dims[S::rank - 1])>;
  using type = decltype(make(std::make_index_sequence<S::rank - 2>{}));
};
// [d...] -> [d..., d...]
template <class S>
struct diag_shape {
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>) -> shape<S::dims[I]..., S::dims[I]...>;
  using type = decltype(make(std::make_index_sequence<S::rank>{}));
};
// [d..., d...] -> [d...]
template <class S>
struct diag_part_shape {
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>) -> shape<merged_dim(S::dims[I], S::dims[I + S::rank / 2])...>;
  using type = decltype(make(std::make_index_sequence<S::rank / 2>{}));
};

template <class V, class X>
constexpr bool set_diag_shapes_ok() {
  if constexpr (X::rank < 2 || V::rank + 1 != X::rank) {
    return false;
  } else {
    for (std::size_t i = 0; i + 2 < X::rank; ++i)
      if (!dims_may_agree(V::dims[i], X::dims[i])) return false;
    return dims_may_agree(V::dims[V::rank - 1], min_dim(X::dims[X::rank - 2], X::dims[X::rank - 1]));
  }
}

template <class S>
constexpr bool diag_part_shape_ok() {
  if constexpr (S::rank == 0 || S::rank % 2 != 0) {
    return false;
  } else {
    for (std::size_t i = 0; i < S::rank / 2; ++i)
      if (!dims_may_agree(S::dims[i], S::dims[i + S::rank / 2])) return false;
    return true;
  }
}

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

// The batch size, rows and columns of dims [..., M, N].
template <std::size_t R>
std::array<std::size_t, 3> batch_rows_cols(const std::array<std::size_t, R>& d) {
  return {dims_product(d, 0, R - 2), d[R - 2], d[R - 1]};
}

}  // namespace ops::detail

template <class X>
struct matrix_diag_part_node;
template <class X, class V>
struct matrix_set_diag_node;

/// matrix_diag(v): v on the diagonal of zero matrices.
template <class V>
struct matrix_diag_node : node_facade<value_type_of<V>, typename ops::detail::matrix_diag_shape<shape_of<V>>::type,
                                      node_kind::compute, V>,
                          op_info<"MatrixDiag"> {
  template <class... N>
  using rebind = matrix_diag_node<N...>;
  // _MatrixDiagGrad: matrix_diag_part(g).
  template <std::size_t K, class G>
  using gradient = matrix_diag_part_node<G>;

  template <class Out, class VV>
  static void compute(Out& out, const VV& v) {
    using T = value_type_of<V>;
    constexpr std::size_t r = shape_of<V>::rank;
    const auto vd = ops::detail::dims_of<r>(v);
    std::array<std::size_t, r + 1> od{};
    for (std::size_t i = 0; i < r; ++i) od[i] = vd[i];
    od[r] = vd[r - 1];
    ops::detail::resize_unless_static<shape_of<matrix_diag_node>::is_static>(out, od);
    const std::size_t n = vd[r - 1], batch = ops::detail::dims_product(vd, 0, r - 1);
    T* o = out.data();
    const T* p = ops::detail::data_ptr(v);
    std::fill(o, o + batch * n * n, T(0));
    for (std::size_t b = 0; b < batch; ++b)
      for (std::size_t i = 0; i < n; ++i) o[(b * n + i) * n + i] = p[b * n + i];
  }
};

/// matrix_diag_part(x): the main diagonal of each matrix.
template <class X>
struct matrix_diag_part_node
    : node_facade<value_type_of<X>, typename ops::detail::matrix_diag_part_shape<shape_of<X>>::type, node_kind::compute,
                  X>,
      op_info<"MatrixDiagPart"> {
  template <class... N>
  using rebind = matrix_diag_part_node<N...>;
  // _MatrixDiagPartGrad: matrix_set_diag(zeros_like(x), g).
  template <std::size_t K, class G>
  using gradient = matrix_set_diag_node<elementwise_node<fn::zero, X>, G>;

  template <class Out, class VX>
  static void compute(Out& out, const VX& x) {
    using T = value_type_of<X>;
    constexpr std::size_t r = shape_of<X>::rank;
    const auto xd = ops::detail::dims_of<r>(x);
    const auto [batch, m, n] = ops::detail::batch_rows_cols(xd);
    const std::size_t k = std::min(m, n);
    std::array<std::size_t, r - 1> od{};
    for (std::size_t i = 0; i + 2 < r; ++i) od[i] = xd[i];
    od[r - 2] = k;
    ops::detail::resize_unless_static<shape_of<matrix_diag_part_node>::is_static>(out, od);
    T* o = out.data();
    const T* p = ops::detail::data_ptr(x);
    for (std::size_t b = 0; b < batch; ++b)
      for (std::size_t i = 0; i < k; ++i) o[b * k + i] = p[(b * m + i) * n + i];
  }
};

/// matrix_set_diag(x, v): x with its matrices' main diagonals replaced by v.
template <class X, class V>
struct matrix_set_diag_node : node_facade<value_type_of<X>, shape_of<X>, node_kind::compute, X, V>,
                              op_info<"MatrixSetDiag"> {
  template <class... N>
  using rebind = matrix_set_diag_node<N...>;
  // _MatrixSetDiagGrad: matrix_set_diag(g, zeros) to x, matrix_diag_part(g) to the diagonal.
  template <std::size_t K, class G>
  using gradient = mp::mp_if_c<K == 0, matrix_set_diag_node<G, elementwise_node<fn::zero, matrix_diag_part_node<G>>>,
                               matrix_diag_part_node<G>>;

  template <class Out, class VX, class VV>
  static void compute(Out& out, const VX& x, const VV& v) {
    using T = value_type_of<X>;
    constexpr std::size_t r = shape_of<X>::rank;
    const auto xd = ops::detail::dims_of<r>(x);
    const auto vd = ops::detail::dims_of<r - 1>(v);
    const auto [batch, m, n] = ops::detail::batch_rows_cols(xd);
    const std::size_t k = std::min(m, n);
    bool ok = vd[r - 2] == k;
    for (std::size_t i = 0; i + 2 < r; ++i) ok = ok && vd[i] == xd[i];
    if (!ok)
      throw invalid_argument_error(
          "must have diagonal.shape == input.shape[:-2] + min(input.shape[-2:]), but received input shape: " +
          ops::detail::dims_string(xd) + " and diagonal shape: " + ops::detail::dims_string(vd));
    ops::detail::resize_unless_static<shape_of<X>::is_static>(out, xd);
    T* o = out.data();
    const T* px = ops::detail::data_ptr(x);
    const T* pv = ops::detail::data_ptr(v);
    if (o != px) std::copy(px, px + batch * m * n, o);
    for (std::size_t b = 0; b < batch; ++b)
      for (std::size_t i = 0; i < k; ++i) o[(b * m + i) * n + i] = pv[b * k + i];
  }
};

template <class X>
struct diag_part_node;

/// diag(v): rank k -> rank 2k, v's elements on the diagonal.
template <class V>
struct diag_node
    : node_facade<value_type_of<V>, typename ops::detail::diag_shape<shape_of<V>>::type, node_kind::compute, V>,
      op_info<"Diag"> {
  template <class... N>
  using rebind = diag_node<N...>;
  // _DiagGrad: diag_part(g).
  template <std::size_t K, class G>
  using gradient = diag_part_node<G>;

  template <class Out, class VV>
  static void compute(Out& out, const VV& v) {
    using T = value_type_of<V>;
    constexpr std::size_t r = shape_of<V>::rank;
    const auto vd = ops::detail::dims_of<r>(v);
    std::array<std::size_t, 2 * r> od{};
    for (std::size_t i = 0; i < r; ++i) od[i] = od[i + r] = vd[i];
    ops::detail::resize_unless_static<shape_of<diag_node>::is_static>(out, od);
    const std::size_t n = ops::detail::dims_product(vd, 0, r);
    T* o = out.data();
    const T* p = ops::detail::data_ptr(v);
    std::fill(o, o + n * n, T(0));
    for (std::size_t i = 0; i < n; ++i) o[i * n + i] = p[i];
  }
};

/// diag_part(x): x of rank 2k with dims [d1..dk, d1..dk] -> its diagonal, [d1..dk].
template <class X>
struct diag_part_node
    : node_facade<value_type_of<X>, typename ops::detail::diag_part_shape<shape_of<X>>::type, node_kind::compute, X>,
      op_info<"DiagPart"> {
  template <class... N>
  using rebind = diag_part_node<N...>;
  // _DiagPartGrad: diag(g).
  template <std::size_t K, class G>
  using gradient = diag_node<G>;

  template <class Out, class VX>
  static void compute(Out& out, const VX& x) {
    using T = value_type_of<X>;
    constexpr std::size_t r = shape_of<X>::rank, k = r / 2;
    const auto xd = ops::detail::dims_of<r>(x);
    for (std::size_t i = 0; i < k; ++i)
      if (xd[i] != xd[i + k])
        throw invalid_argument_error("Invalid shape " + ops::detail::dims_string(xd) + ": dimensions " +
                                     std::to_string(i) + " and " + std::to_string(i + k) + " do not match.");
    std::array<std::size_t, k> od{};
    for (std::size_t i = 0; i < k; ++i) od[i] = xd[i];
    ops::detail::resize_unless_static<shape_of<diag_part_node>::is_static>(out, od);
    const std::size_t n = ops::detail::dims_product(od, 0, k);
    T scalar{};
    T* o = ops::detail::out_ptr(out, scalar);
    const T* p = ops::detail::data_ptr(x);
    for (std::size_t i = 0; i < n; ++i) o[i] = p[i * n + i];
    ops::detail::store_scalar(out, scalar);
  }
};

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
template <node A>
constexpr auto matrix_diag_part(const A& a) {
  if constexpr (shape_of<A>::rank < 2) {
    static_assert(matrix_diag_part_needs_rank_at_least_2<shape_of<A>>::value,
                  "typeflow::matrix_diag_part(x): x must be at least rank 2 (a batch of matrices)");
    return a;
  } else {
    return make_node<matrix_diag_part_node<A>>(a);
  }
}

/// `trace(x)` is tf.trace: the sum of each matrix's main diagonal, [..., M, N] -> [...].
template <node A>
constexpr auto trace(const A& a) {
  if constexpr (shape_of<A>::rank < 2) {
    static_assert(trace_needs_rank_at_least_2<shape_of<A>>::value,
                  "typeflow::trace(x): x must be at least rank 2 (a batch of matrices)");
    return a;
  } else {
    return reduce_sum<-1>(make_node<matrix_diag_part_node<A>>(a));
  }
}

/// `matrix_diag(v)` is tf.matrix_diag: [..., N] -> [..., N, N], v on the diagonals.
template <node V>
constexpr auto matrix_diag(const V& v) {
  if constexpr (shape_of<V>::rank < 1) {
    static_assert(matrix_diag_needs_rank_at_least_1<shape_of<V>>::value,
                  "typeflow::matrix_diag(v): v must be at least rank 1");
    return v;
  } else {
    return make_node<matrix_diag_node<V>>(v);
  }
}

/// `matrix_set_diag(x, v)` is tf.matrix_set_diag: x with its main diagonals replaced by v,
/// of shape x.shape[:-2] + [min(x.shape[-2:])].
template <node X, node V>
constexpr auto matrix_set_diag(const X& x, const V& v) {
  if constexpr (!std::is_same_v<value_type_of<X>, value_type_of<V>>) {
    static_assert(operands_must_have_the_same_element_type<value_type_of<X>, value_type_of<V>>::value,
                  "typeflow::matrix_set_diag(x, v): x and v must have the same element type");
    return x;
  } else if constexpr (!ops::detail::set_diag_shapes_ok<shape_of<V>, shape_of<X>>()) {
    static_assert(
        matrix_set_diag_diagonal_must_have_shape_input_batch_dims_plus_min_of_its_last_two<shape_of<V>,
                                                                                            shape_of<X>>::value,
        "typeflow::matrix_set_diag(x, v): x must be at least rank 2 and v of shape x.shape[:-2] + "
        "[min(x.shape[-2:])]");
    return x;
  } else {
    return make_node<matrix_set_diag_node<X, V>>(x, v);
  }
}

/// `diag(v)` is tf.diag: rank k -> rank 2k, out[i1..ik, i1..ik] = v[i1..ik], zeros elsewhere.
template <node V>
constexpr auto diag(const V& v) {
  if constexpr (shape_of<V>::rank < 1) {
    static_assert(diag_needs_rank_at_least_1<shape_of<V>>::value, "typeflow::diag(v): v must be at least rank 1");
    return v;
  } else {
    return make_node<diag_node<V>>(v);
  }
}

/// `diag_part(x)` is tf.diag_part: x of shape [d1..dk, d1..dk] -> [d1..dk].
template <node X>
constexpr auto diag_part(const X& x) {
  if constexpr (!ops::detail::diag_part_shape_ok<shape_of<X>>()) {
    static_assert(diag_part_needs_shape_d1_to_dk_twice<shape_of<X>>::value,
                  "typeflow::diag_part(x): x must have an even rank 2k >= 2 and dims [d1..dk, d1..dk]");
    return x;
  } else {
    return make_node<diag_part_node<X>>(x);
  }
}

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
