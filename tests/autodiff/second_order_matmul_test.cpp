// Second derivatives through matmul's gradient rules (matmuls of the gradient with the
// other operand), for each combination of transposes and batched: Hessian-vector products
// against finite differences of the gradient (second_order_testing.hpp).
#include <doctest/doctest.h>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"
#include "second_order_testing.hpp"

namespace tf = typeflow;
namespace so = second_order_testing;
using tf::shape;

namespace {
template <bool TA, bool TB>
constexpr auto matmul = [](auto a, auto b) { return tf::tanh(tf::matmul<TA, TB>(a, b)); };

// tanh(a b) with a m x k (k x m transposed), b k x n (n x k transposed): m = 2, k = 3, n = 4.
template <bool TA, bool TB>
void check_matmul() {
  using Sa = std::conditional_t<TA, shape<3, 2>, shape<2, 3>>;
  using Sb = std::conditional_t<TB, shape<4, 3>, shape<3, 4>>;
  so::check_binary<Sa, Sb>(matmul<TA, TB>, fd_check::uniform<Sa>(), fd_check::uniform<Sb>());
}
}  // namespace

TEST_CASE("second derivatives of tanh(matmul(a, b))") { check_matmul<false, false>(); }
TEST_CASE("second derivatives of tanh(matmul<true, false>(a, b))") { check_matmul<true, false>(); }
TEST_CASE("second derivatives of tanh(matmul<false, true>(a, b))") { check_matmul<false, true>(); }
TEST_CASE("second derivatives of tanh(matmul<true, true>(a, b))") { check_matmul<true, true>(); }
TEST_CASE("second derivatives of a batched tanh(matmul(a, b)), [2, 2, 3] x [2, 3, 4]") {
  so::check_binary<shape<2, 2, 3>, shape<2, 3, 4>>(matmul<false, false>, fd_check::uniform<shape<2, 2, 3>>(),
                                                   fd_check::uniform<shape<2, 3, 4>>());
}
