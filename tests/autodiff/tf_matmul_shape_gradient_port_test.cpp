// Gradient cases ported from TensorFlow 1.x's kernel tests matmul_op_test.py
// (MatMulGradientTest: the gradient with respect to a and to b, for each transpose_a /
// transpose_b), batch_matmul_op_test.py (BatchMatmulGradientTest), transpose_op_test.py (the
// gradient check of _compareCpu) and reshape_op_test.py (testFloatReshapeGradThreeDimensions).
// TensorFlow compares the symbolic Jacobian with a numeric one (compute_gradient_error <
// 1e-3); here each gradient is compared with central differences in double (fd_check.hpp,
// 1e-6 relative and absolute), the loss being reduce_sum(op(x) * w) for a fixed random w
// (the incoming gradient), which covers every column of the Jacobian.
#include <doctest/doctest.h>

#include <cstdint>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"

namespace tf = typeflow;
using tf::dyn;
using tf::shape;

namespace {
// The values of a node of static shape S (uniform in [-1, 1]).
template <class S>
auto uniform() {
  return fd_check::uniform<S>();
}

// MatMulGradientTest for one transpose combination: a [m, k] (or [k, m]) and b, static.
template <bool TA, bool TB>
void matmul_gradient_case() {
  using SA = std::conditional_t<TA, shape<3, 2>, shape<2, 3>>;
  using SB = std::conditional_t<TB, shape<4, 3>, shape<3, 4>>;
  auto a = tf::placeholder<"mg_a", double, SA>();
  auto b = tf::placeholder<"mg_b", double, SB>();
  auto w = tf::placeholder<"mg_w", double, shape<2, 4>>();
  auto loss = tf::reduce_sum(tf::matmul<TA, TB>(a, b) * w);
  tf::session sess(loss, tf::gradient(loss, a), tf::gradient(loss, b));
  const auto av = uniform<SA>();
  const auto bv = uniform<SB>();
  const auto wv = uniform<shape<2, 4>>();
  fd_check::check_gradient(sess, loss, a, av, tf::feed(b, bv), tf::feed(w, wv));
  fd_check::check_gradient(sess, loss, b, bv, tf::feed(a, av), tf::feed(w, wv));
}
}  // namespace

TEST_CASE("matmul gradient: MatMulGradientTest, transpose_a = False, transpose_b = False") {
  matmul_gradient_case<false, false>();
}
TEST_CASE("matmul gradient: MatMulGradientTest, transpose_a = True, transpose_b = False") {
  matmul_gradient_case<true, false>();
}
TEST_CASE("matmul gradient: MatMulGradientTest, transpose_a = False, transpose_b = True") {
  matmul_gradient_case<false, true>();
}
TEST_CASE("matmul gradient: MatMulGradientTest, transpose_a = True, transpose_b = True") {
  matmul_gradient_case<true, true>();
}

// BatchMatmulGradientTest (_compare with adjoint_a = adjoint_b = False and True): [2, 3, 2] x
// [2, 2, 4], a dynamic batch.
TEST_CASE("batch matmul gradient: BatchMatmulGradientTest, both adjoint settings") {
  auto a = tf::placeholder<"bmg_a", double, shape<2, 3, 2>>();
  auto b = tf::placeholder<"bmg_b", double, shape<2, 2, 4>>();
  auto w = tf::placeholder<"bmg_w", double, shape<2, 3, 4>>();
  auto loss = tf::reduce_sum(tf::matmul(a, b) * w);
  auto at = tf::placeholder<"bmg_at", double, shape<2, 2, 3>>();
  auto bt = tf::placeholder<"bmg_bt", double, shape<2, 4, 2>>();
  auto loss_t = tf::reduce_sum(tf::matmul<true, true>(at, bt) * w);
  tf::session sess(loss, loss_t, tf::gradient(loss, a), tf::gradient(loss, b), tf::gradient(loss_t, at),
                   tf::gradient(loss_t, bt));
  const auto av = uniform<shape<2, 3, 2>>();
  const auto bv = uniform<shape<2, 2, 4>>();
  const auto atv = uniform<shape<2, 2, 3>>();
  const auto btv = uniform<shape<2, 4, 2>>();
  const auto wv = uniform<shape<2, 3, 4>>();
  fd_check::check_gradient(sess, loss, a, av, tf::feed(b, bv), tf::feed(w, wv));
  fd_check::check_gradient(sess, loss, b, bv, tf::feed(a, av), tf::feed(w, wv));
  fd_check::check_gradient(sess, loss_t, at, atv, tf::feed(bt, btv), tf::feed(w, wv));
  fd_check::check_gradient(sess, loss_t, bt, btv, tf::feed(at, atv), tf::feed(w, wv));
}

// transpose_op_test.py _compareCpu's gradient check (float64, tolerance 1e-6): [3, 7] and
// [2, 3, 5, 7] with a permutation, and the default (reversed) one.
TEST_CASE("transpose gradient: _compareCpu's gradient check, testDouble shapes") {
  auto x = tf::placeholder<"tg_x", double, shape<3, 7>>();
  auto w = tf::placeholder<"tg_w", double, shape<7, 3>>();
  auto loss = tf::reduce_sum(tf::transpose(x) * w);
  auto y = tf::placeholder<"tg_y", double, shape<2, 3, 5, 7>>();
  auto v = tf::placeholder<"tg_v", double, shape<5, 7, 3, 2>>();
  auto loss4 = tf::reduce_sum(tf::transpose<2, 3, 1, 0>(y) * v);
  tf::session sess(loss, loss4, tf::gradient(loss, x), tf::gradient(loss4, y));
  fd_check::check_gradient(sess, loss, x, uniform<shape<3, 7>>(), tf::feed(w, uniform<shape<7, 3>>()));
  fd_check::check_gradient(sess, loss4, y, uniform<shape<2, 3, 5, 7>>(), tf::feed(v, uniform<shape<5, 7, 3, 2>>()));
}

// reshape_op_test.py testFloatReshapeGradThreeDimensions: [2, 3, 4] to [1, 8, 3] (in double),
// and the same through an inferred dimension of a dynamic batch.
TEST_CASE("reshape gradient: testFloatReshapeGradThreeDimensions") {
  auto x = tf::placeholder<"rg_x", double, shape<2, 3, 4>>();
  auto w = tf::placeholder<"rg_w", double, shape<1, 8, 3>>();
  auto loss = tf::reduce_sum(tf::reshape<shape<1, 8, 3>>(x) * w);
  auto wd = tf::placeholder<"rg_wd", double, shape<8, 3>>();
  auto loss_d = tf::reduce_sum(tf::reshape<shape<dyn, 3>>(x) * wd);
  tf::session sess(loss, loss_d, tf::gradient(loss, x), tf::gradient(loss_d, x));
  const auto xv = uniform<shape<2, 3, 4>>();
  fd_check::check_gradient(sess, loss, x, xv, tf::feed(w, uniform<shape<1, 8, 3>>()));
  fd_check::check_gradient(sess, loss_d, x, xv, tf::feed(wd, uniform<shape<8, 3>>()));
}
