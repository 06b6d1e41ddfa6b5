// Gradient rules of matmul (ops/matmul.hpp, TensorFlow's _MatMulGrad) for each input slot
// and each combination of transpose_a / transpose_b, on rank 2 and batched rank 3, static
// and dynamic dims, and with the same node in both slots.
#include <doctest/doctest.h>

#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "op_testing.hpp"
#include "fd_check.hpp"

namespace tf = typeflow;
using op_testing::check_binary;
using op_testing::fusion;
using tf::dyn;

namespace {
template <bool TA, bool TB>
constexpr auto matmul = [](auto a, auto b) { return tf::matmul<TA, TB>(a, b); };

// a (m x k, or k x m when transposed) times b (k x n, or n x k): m = 2, k = 3, n = 4.
template <bool TA, bool TB>
void check_matmul_2d() {
  using Sa = std::conditional_t<TA, tf::shape<3, 2>, tf::shape<2, 3>>;
  using Sb = std::conditional_t<TB, tf::shape<4, 3>, tf::shape<3, 4>>;
  check_binary<Sa, Sb, fusion::allowed>(matmul<TA, TB>, fd_check::uniform<Sa>(), fd_check::uniform<Sb>());
}

// Batched: a batch of 2 products.
template <bool TA, bool TB>
void check_matmul_batched() {
  using Sa = std::conditional_t<TA, tf::shape<2, 3, 2>, tf::shape<2, 2, 3>>;
  using Sb = std::conditional_t<TB, tf::shape<2, 4, 3>, tf::shape<2, 3, 4>>;
  check_binary<Sa, Sb, fusion::allowed>(matmul<TA, TB>, fd_check::uniform<Sa>(), fd_check::uniform<Sb>());
}
}  // namespace

TEST_CASE("matmul [2, 3] x [3, 4]") { check_matmul_2d<false, false>(); }
TEST_CASE("matmul transpose_a: [3, 2]^T x [3, 4]") { check_matmul_2d<true, false>(); }
TEST_CASE("matmul transpose_b: [2, 3] x [4, 3]^T") { check_matmul_2d<false, true>(); }
TEST_CASE("matmul transpose_a and transpose_b: [3, 2]^T x [4, 3]^T") { check_matmul_2d<true, true>(); }

TEST_CASE("batched matmul [2, 2, 3] x [2, 3, 4]") { check_matmul_batched<false, false>(); }
TEST_CASE("batched matmul transpose_a") { check_matmul_batched<true, false>(); }
TEST_CASE("batched matmul transpose_b") { check_matmul_batched<false, true>(); }
TEST_CASE("batched matmul transpose_a and transpose_b") { check_matmul_batched<true, true>(); }

TEST_CASE("matmul of vectors as [1, 3] x [3, 1] and [3, 1] x [1, 3] (outer product)") {
  check_binary<tf::shape<1, 3>, tf::shape<3, 1>, fusion::allowed>(
      matmul<false, false>, fd_check::uniform<tf::shape<1, 3>>(), fd_check::uniform<tf::shape<3, 1>>());
  check_binary<tf::shape<3, 1>, tf::shape<1, 3>, fusion::allowed>(
      matmul<false, false>, fd_check::uniform<tf::shape<3, 1>>(), fd_check::uniform<tf::shape<1, 3>>());
}

TEST_CASE("matmul with a dynamic batch of rows: [dyn, 3] (fed [5, 3]) x [3, 4], and transposed") {
  const auto a = fd_check::fill_uniform(xt::xtensor<double, 2>::from_shape({5, 3}));
  check_binary<tf::shape<dyn, 3>, tf::shape<3, 4>, fusion::allowed>(matmul<false, false>, a,
                                                                   fd_check::uniform<tf::shape<3, 4>>());
  check_binary<tf::shape<dyn, 3>, tf::shape<dyn, 3>, fusion::allowed>(matmul<false, true>, a, a);
  check_binary<tf::shape<dyn, 3>, tf::shape<dyn, 4>, fusion::allowed>(
      matmul<true, false>, a, fd_check::fill_uniform(xt::xtensor<double, 2>::from_shape({5, 4})));
}

TEST_CASE("the same node in both slots: matmul(x, x), matmul<true, false>(x, x)") {
  using S = tf::shape<3, 3>;
  auto x = tf::placeholder<"x", double, S>();
  auto w = tf::placeholder<"w", double, S>();
  auto loss = tf::reduce_sum(tf::matmul(x, x) * w);
  auto gram = tf::reduce_sum(tf::matmul<true, false>(x, x) * w);
  tf::session sess(loss, gram);
  const auto w0 = fd_check::uniform<S>();
  fd_check::check_gradient(sess, loss, x, fd_check::uniform<S>(), tf::feed(w, w0));
  fd_check::check_gradient(sess, gram, x, fd_check::uniform<S>(), tf::feed(w, w0));
}
