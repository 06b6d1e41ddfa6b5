// Second derivatives through the binary ops' gradient rules (+ - * /, maximum, minimum),
// over both operands of equal shapes: Hessian-vector products against finite differences
// of the gradient (second_order_testing.hpp). Broadcasting: second_order_broadcast_test.cpp.
#include <doctest/doctest.h>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"
#include "op_testing.hpp"
#include "second_order_testing.hpp"

namespace tf = typeflow;
namespace so = second_order_testing;
using second_order_testing::fusion;
using tf::shape;

namespace {
// Nonlinear in each operand, so that every second derivative is non-zero: op(x, y) under
// a tanh, times exp(x), plus the op alone.
template <class Op>
constexpr auto curved(Op op) {
  return [op](auto a, auto b) { return tf::tanh(op(a, b)) * tf::exp(a) + op(a, b); };
}

template <class Sx, class Sy, fusion F, class X0, class Y0>
void check_all_ops(const X0& x_values, const Y0& y_values) {
  namespace ot = op_testing;
  {
    INFO("add");
    so::check_binary<Sx, Sy, F>(curved(ot::add), fd_check::fill_uniform(x_values), fd_check::fill_uniform(y_values));
  }
  {
    INFO("sub");
    so::check_binary<Sx, Sy, F>(curved(ot::sub), fd_check::fill_uniform(x_values), fd_check::fill_uniform(y_values));
  }
  {
    INFO("mul");
    so::check_binary<Sx, Sy, F>(ot::mul, fd_check::fill_uniform(x_values), fd_check::fill_uniform(y_values));
    so::check_binary<Sx, Sy, F>(curved(ot::mul), fd_check::fill_uniform(x_values), fd_check::fill_uniform(y_values));
  }
  {
    INFO("div");
    so::check_binary<Sx, Sy, F>(ot::div, fd_check::fill_uniform(x_values), fd_check::fill_away_from_zero(y_values, 0.5, 2));
    so::check_binary<Sx, Sy, F>(curved(ot::div), fd_check::fill_uniform(x_values),
                            fd_check::fill_away_from_zero(y_values, 0.5, 2));
  }
  {
    INFO("maximum");
    so::check_binary<Sx, Sy, F>(curved(ot::maximum), fd_check::fill_grid(x_values, 0.0), fd_check::fill_grid(y_values, 0.125));
  }
  {
    INFO("minimum");
    so::check_binary<Sx, Sy, F>(curved(ot::minimum), fd_check::fill_grid(x_values, 0.0), fd_check::fill_grid(y_values, 0.125));
  }
}
}  // namespace

TEST_CASE("second derivatives of binary ops on equal shapes [2, 3]") {
  using S = shape<2, 3>;
  check_all_ops<S, S, fusion::allowed>(fd_check::value_t<S>{}, fd_check::value_t<S>{});
}

TEST_CASE("second derivatives of binary ops on scalars") {
  check_all_ops<shape<>, shape<>, fusion::allowed>(0.0, 0.0);
}
