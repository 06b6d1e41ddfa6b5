// Gradient rules of reshape and transpose (ops/reshape.hpp, ops/transpose.hpp): the
// gradient is the gradient reshaped back, or transposed by the inverse permutation.
#include <doctest/doctest.h>

#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"
#include "op_testing.hpp"

namespace tf = typeflow;
using op_testing::check_unary;
using tf::dyn;
using tf::shape;

TEST_CASE("reshape: [2, 3] -> [3, 2], [2, 3, 4] -> [6, 4] and [4, dyn], [6] -> [2, 3], [1] -> []") {
  check_unary<shape<2, 3>>([](auto a) { return tf::reshape<shape<3, 2>>(a); }, fd_check::uniform<shape<2, 3>>());
  check_unary<shape<2, 3, 4>>([](auto a) { return tf::reshape<shape<6, 4>>(a); }, fd_check::uniform<shape<2, 3, 4>>());
  check_unary<shape<2, 3, 4>>([](auto a) { return tf::reshape<shape<4, dyn>>(a); }, fd_check::uniform<shape<2, 3, 4>>());
  check_unary<shape<6>>([](auto a) { return tf::reshape<shape<2, 3>>(a); }, fd_check::uniform<shape<6>>());
  check_unary<shape<1>>([](auto a) { return tf::reshape<shape<>>(a); }, fd_check::uniform<shape<1>>());
  check_unary<shape<>>([](auto a) { return tf::reshape<shape<1, 1>>(a); }, fd_check::uniform<shape<>>());
}

TEST_CASE("reshape of a dynamic shape: [dyn, 3] fed [4, 3] -> [dyn] and -> [2, dyn]") {
  const auto x0 = fd_check::fill_uniform(xt::xtensor<double, 2>::from_shape({4, 3}));
  check_unary<shape<dyn, 3>>([](auto a) { return tf::reshape<shape<dyn>>(a); }, x0);
  check_unary<shape<dyn, 3>>([](auto a) { return tf::reshape<shape<2, dyn>>(a); }, x0);
  // an op between the reshapes, so that the gradient of the inner one is a reshape_like
  check_unary<shape<dyn, 3>>([](auto a) { return tf::tanh(tf::reshape<shape<dyn, 2>>(tf::square(a))); }, x0);
}

TEST_CASE("transpose: reversed dims of [2, 3] and [2, 3, 4]") {
  check_unary<shape<2, 3>>([](auto a) { return tf::transpose(a); }, fd_check::uniform<shape<2, 3>>());
  check_unary<shape<2, 3, 4>>([](auto a) { return tf::transpose(a); }, fd_check::uniform<shape<2, 3, 4>>());
}

TEST_CASE("transpose with a permutation: <1, 0, 2>, <2, 0, 1>, <1, 2, 0>, <0, 2, 1> of [2, 3, 4]") {
  // <2, 0, 1> and <1, 2, 0> are each other's inverse: a rule that used perm instead of its
  // inverse would fail on them.
  const auto x0 = fd_check::uniform<shape<2, 3, 4>>();
  check_unary<shape<2, 3, 4>>([](auto a) { return tf::transpose<1, 0, 2>(a); }, x0);
  check_unary<shape<2, 3, 4>>([](auto a) { return tf::transpose<2, 0, 1>(a); }, x0);
  check_unary<shape<2, 3, 4>>([](auto a) { return tf::transpose<1, 2, 0>(a); }, x0);
  check_unary<shape<2, 3, 4>>([](auto a) { return tf::transpose<0, 2, 1>(a); }, x0);
}

TEST_CASE("transpose of a dynamic shape: [dyn, 3] fed [4, 3]") {
  const auto x0 = fd_check::fill_uniform(xt::xtensor<double, 2>::from_shape({4, 3}));
  check_unary<shape<dyn, 3>>([](auto a) { return tf::transpose(a); }, x0);
}
