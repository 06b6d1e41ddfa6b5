// typeflow/ops/diagonal.hpp — TensorFlow 1.x's diagonal ops: matrix_diag, matrix_diag_part,
// matrix_set_diag, diag, diag_part, and trace.
//
// Shapes (the last two dims of x are the matrices, the dims before them a batch):
//   trace(x)                   [..., M, N] -> [...]                 (reduce_sum of the diagonal)
//   matrix_diag(v)             [..., N]    -> [..., N, N]           (op MatrixDiag)
//   matrix_diag_part(x)        [..., M, N] -> [..., min(M, N)]      (op MatrixDiagPart)
//   matrix_set_diag(x, v)      x [..., M, N], v [..., min(M, N)] -> x's shape (op MatrixSetDiag)
//   diag(v)                    [d1..dk] -> [d1..dk, d1..dk]         (op Diag)
//   diag_part(x)               [d1..dk, d1..dk] -> [d1..dk]         (op DiagPart)
// Static misuse (a rank, a static dim) is a compile error naming the shapes; dims known only
// at run time are checked when a run computes the op, with TensorFlow's InvalidArgument
// message, before anything is written.
//
// Gradients (array_grad.py): MatrixDiag's is matrix_diag_part(g); MatrixDiagPart's
// matrix_set_diag(zeros_like(x), g); MatrixSetDiag's matrix_set_diag(g, 0) to x and
// matrix_diag_part(g) to the diagonal; Diag's diag_part(g) and DiagPart's diag(g). trace is
// reduce_sum of matrix_diag_part and differentiates as such.
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
#include "typeflow/ops/detail/tensor_access.hpp"
#include "typeflow/ops/reduce.hpp"

namespace typeflow {

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

}  // namespace typeflow
