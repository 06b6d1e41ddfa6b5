// Second derivatives through the binary ops' gradient rules when an operand is broadcast:
// the gradients go through sum_to and its own rule (a broadcast, fn::first). Dynamic dims,
// fused as written (static shapes would meet xtensor 0.24.3's fused-broadcast bug, see
// broadcast_gradient_test.cpp). Hessian-vector products against finite differences of
// the gradient (second_order_testing.hpp).
#include <doctest/doctest.h>

#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"
#include "op_testing.hpp"
#include "second_order_testing.hpp"

namespace tf = typeflow;
namespace so = second_order_testing;
using tf::dyn;
using tf::shape;

namespace {
// mul and div are nonlinear in their operands together, so the Hessian-vector product
// differentiates the broadcast operand's gradient sum_to(...) through its rule; add under a
// tanh adds curvature in each operand.
template <class Sx, class Sy, class X0, class Y0>
void check_ops(const X0& x_values, const Y0& y_values) {
  namespace ot = op_testing;
  {
    INFO("mul");
    so::check_binary<Sx, Sy>(ot::mul, fd_check::fill_uniform(x_values), fd_check::fill_uniform(y_values));
  }
  {
    INFO("div");
    so::check_binary<Sx, Sy>(ot::div, fd_check::fill_uniform(x_values), fd_check::fill_away_from_zero(y_values, 0.5, 2));
  }
  {
    INFO("tanh(add)");
    so::check_binary<Sx, Sy>([](auto a, auto b) { return tf::tanh(a + b); }, fd_check::fill_uniform(x_values),
                             fd_check::fill_uniform(y_values));
  }
}
}  // namespace

TEST_CASE("second derivatives of broadcasting binary ops: [dyn, 3] (fed [2, 3]) with [3]") {
  check_ops<shape<dyn, 3>, shape<3>>(xt::xtensor<double, 2>::from_shape({2, 3}), fd_check::value_t<shape<3>>{});
}

TEST_CASE("second derivatives of broadcasting binary ops: [dyn, 1] (fed [2, 1]) with [1, 3]") {
  check_ops<shape<dyn, 1>, shape<1, 3>>(xt::xtensor<double, 2>::from_shape({2, 1}), fd_check::value_t<shape<1, 3>>{});
}
