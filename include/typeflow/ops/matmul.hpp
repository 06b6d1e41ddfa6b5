// typeflow/ops/matmul.hpp — tf.matmul: 2-D and batched matrix products through BLAS.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>

#include <cblas.h>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/node.hpp"

namespace typeflow {

namespace ops::detail {

template <std::ptrdiff_t A, std::ptrdiff_t B>
inline constexpr bool dims_agree = A == dyn || B == dyn || A == B;

template <class SA, class SB, bool TA, bool TB>
struct matmul_shape {
  static constexpr std::size_t rank = SA::rank;
  static constexpr bool ranks_ok = SA::rank >= 2 && SA::rank == SB::rank;
  static constexpr std::ptrdiff_t da(std::size_t i) { return SA::dims[i]; }
  static constexpr std::ptrdiff_t db(std::size_t i) { return SB::dims[i]; }
  static constexpr std::ptrdiff_t m = ranks_ok ? (TA ? da(rank - 1) : da(rank - 2)) : 0;
  static constexpr std::ptrdiff_t ka = ranks_ok ? (TA ? da(rank - 2) : da(rank - 1)) : 0;
  static constexpr std::ptrdiff_t kb = ranks_ok ? (TB ? db(rank - 1) : db(rank - 2)) : 0;
  static constexpr std::ptrdiff_t n = ranks_ok ? (TB ? db(rank - 2) : db(rank - 1)) : 0;
  static constexpr bool batch_ok = [] {
    if constexpr (!ranks_ok) {
      return false;
    } else {
      for (std::size_t i = 0; i + 2 < rank; ++i)
        if (!(da(i) == dyn || db(i) == dyn || da(i) == db(i))) return false;
      return true;
    }
  }();
  static constexpr bool ok = ranks_ok && batch_ok && (ka == dyn || kb == dyn || ka == kb);
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>) -> shape<(da(I) == dyn ? db(I) : da(I))..., m, n>;
  using type = mp::mp_if_c<ranks_ok, decltype(make(std::make_index_sequence<(ranks_ok ? rank - 2 : 0)>{})),
                           shape<0, 0>>;
};

// c = alpha * op(a) op(b) + beta * c
template <class T>
void gemm(bool ta, bool tb, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* a, std::size_t lda,
          const T* b, std::size_t ldb, T beta, T* c, std::size_t ldc) {
  if (m == 0 || n == 0) return;  // an empty product (a batch of 0): nothing to write, c may be null
  const auto op_a = ta ? CblasTrans : CblasNoTrans;
  const auto op_b = tb ? CblasTrans : CblasNoTrans;
  if (std::is_floating_point_v<T> && beta == T(0)) {
    // OpenBLAS zeroes c for beta = 0 in a loop of its own (sgemm_beta), slower than
    // memset: zeroed here, c is accumulated into with beta = 1, to the same values (0 + x
    // is x), 1.10-1.34x as fast for a GRU(10)'s products (`bench_rnn_sgemm beta`,
    // benchmarks/RESULTS.md, "Recurrent models").
    if (ldc == n) {
      std::memset(c, 0, m * n * sizeof(T));
    } else {
      for (std::size_t i = 0; i < m; ++i) std::memset(c + i * ldc, 0, n * sizeof(T));
    }
    beta = T(1);
  }
  if (std::is_floating_point_v<T> && k == 0) {  // an empty sum: c = beta c (BLAS rejects lda = 0)
    if (beta != T(1))
      for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) c[i * ldc + j] *= beta;
    return;
  }
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemm(CblasRowMajor, op_a, op_b, int(m), int(n), int(k), alpha, a, int(lda), b, int(ldb), beta, c, int(ldc));
  } else if constexpr (std::is_same_v<T, double>) {
    cblas_dgemm(CblasRowMajor, op_a, op_b, int(m), int(n), int(k), alpha, a, int(lda), b, int(ldb), beta, c, int(ldc));
  } else {  // integer types: a plain triple loop, as TensorFlow's CPU kernel for ints
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        T acc{};
        for (std::size_t p = 0; p < k; ++p)
          acc += (ta ? a[p * lda + i] : a[i * lda + p]) * (tb ? b[j * ldb + p] : b[p * ldb + j]);
        c[i * ldc + j] = alpha * acc + beta * c[i * ldc + j];
      }
  }
}

}  // namespace ops::detail

/// In a diagnostic: the two static shapes whose inner dimensions matmul cannot match.
template <class ShapeA, class ShapeB>
struct matmul_inner_dimensions_must_agree {
  static constexpr bool value = false;
};

template <class A, class B, bool TA, bool TB>
struct matmul_node
    : node_facade<value_type_of<A>, typename ops::detail::matmul_shape<shape_of<A>, shape_of<B>, TA, TB>::type,
                  node_kind::compute, A, B>, op_info<"MatMul"> {
  static constexpr bool transpose_a = TA;
  static constexpr bool transpose_b = TB;
  template <class... N>
  using rebind = matmul_node<N..., TA, TB>;

  // TensorFlow's _MatMulGrad, for each combination of transposes.
  template <std::size_t K, class G>
  using gradient = mp::mp_if_c<
      K == 0,
      mp::mp_if_c<TA, mp::mp_if_c<TB, matmul_node<B, G, true, true>, matmul_node<B, G, false, true>>,
                  mp::mp_if_c<TB, matmul_node<G, B, false, false>, matmul_node<G, B, false, true>>>,
      mp::mp_if_c<TB, mp::mp_if_c<TA, matmul_node<G, A, true, true>, matmul_node<G, A, true, false>>,
                  mp::mp_if_c<TA, matmul_node<A, G, false, false>, matmul_node<A, G, true, false>>>>;

  template <class Out, class VA, class VB>
  static void compute(Out& out, const VA& a, const VB& b) {
    using T = value_type_of<A>;
    constexpr std::size_t r = shape_of<A>::rank;
    const auto& sa = a.shape();
    const auto& sb = b.shape();
    if constexpr (!shape_of<matmul_node>::is_static) {
      std::array<std::size_t, r> os{};
      for (std::size_t i = 0; i + 2 < r; ++i) os[i] = sa[i];
      os[r - 2] = TA ? sa[r - 1] : sa[r - 2];
      os[r - 1] = TB ? sb[r - 2] : sb[r - 1];
      out.resize(os);
    }
    accumulate(out.data(), T(1), T(0), a, b);
  }

  /// c = alpha * op(a) op(b) + beta * c, c holding the product's shape: the gradient
  /// descent update of a matmul gradient is one gemm with alpha = -learning_rate, beta = 1.
  template <class T, class VA, class VB>
  static void accumulate(T* c, T alpha, T beta, const VA& a, const VB& b) {
    constexpr std::size_t r = shape_of<A>::rank;
    const auto& sa = a.shape();
    const auto& sb = b.shape();
    const std::size_t m = TA ? sa[r - 1] : sa[r - 2];
    const std::size_t ka = TA ? sa[r - 2] : sa[r - 1];
    const std::size_t kb = TB ? sb[r - 1] : sb[r - 2];
    const std::size_t n = TB ? sb[r - 2] : sb[r - 1];
    std::size_t batch = 1;
    bool batch_ok = true;
    for (std::size_t i = 0; i + 2 < r; ++i) {
      batch *= sa[i];
      batch_ok = batch_ok && sa[i] == sb[i];
    }
    if (ka != kb || !batch_ok)
      throw invalid_argument_error("Matrix size-incompatible in MatMul: In[0]: " + shape_string(sa) +
                                   ", In[1]: " + shape_string(sb));
    const T* pa = a.data();
    const T* pb = b.data();
    const std::size_t lda = sa[r - 1], ldb = sb[r - 1];
    for (std::size_t i = 0; i < batch; ++i)
      ops::detail::gemm<T>(TA, TB, m, n, ka, alpha, pa + i * m * ka, lda, pb + i * kb * n, ldb, beta, c + i * m * n, n);
  }
};

/// `matmul(a, b)` is tf.matmul(a, b); `matmul<true, false>(a, b)` transposes a first
/// (transpose_a=True). Rank 2, or rank > 2 with equal leading (batch) dims.
template <bool TransposeA = false, bool TransposeB = false, node A, node B>
constexpr auto matmul(const A& a, const B& b) {
  using rule = ops::detail::matmul_shape<shape_of<A>, shape_of<B>, TransposeA, TransposeB>;
  static_assert(std::is_same_v<value_type_of<A>, value_type_of<B>>,
                "typeflow::matmul(a, b): a and b must have the same element type");
  static_assert(rule::ranks_ok, "typeflow::matmul(a, b): a and b must have the same rank, at least 2");
  if constexpr (!rule::ok && rule::ranks_ok) {
    static_assert(matmul_inner_dimensions_must_agree<shape_of<A>, shape_of<B>>::value,
                  "typeflow::matmul(a, b): the inner dimensions (columns of a, rows of b) and the "
                  "batch dimensions must agree");
  }
  return make_node<matmul_node<A, B, TransposeA, TransposeB>>(a, b);
}

}  // namespace typeflow
