// Gradient rules of slice, strided_slice, split, unstack (ops/slice.hpp, ops/split.hpp) and
// expand_dims, squeeze, tile, reverse (ops/expand.hpp) against central differences, static
// and dyn shapes; and their second derivatives (the rules' own rules: the gradient of a
// scatter into zeros is the slice again, of a tile's sum the tile, of a reverse the reverse).
#include <doctest/doctest.h>

#include <tuple>

#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"
#include "op_testing.hpp"
#include "second_order_testing.hpp"

namespace tf = typeflow;
using op_testing::check_unary;
using tf::dyn;
using tf::ints;
using tf::shape;

namespace {
xt::xtensor<double, 2> dyn_value(std::size_t rows, std::size_t cols) {
  return fd_check::fill_uniform(xt::xtensor<double, 2>::from_shape({rows, cols}));
}
}  // namespace

TEST_CASE("slice: a block, size -1, a 1-D slice; dyn rows") {
  using S = shape<3, 4>;
  const auto x0 = fd_check::uniform<S>();
  check_unary<S>([](auto a) { return tf::slice<ints<1, 1>, ints<2, 2>>(a); }, x0);
  check_unary<S>([](auto a) { return tf::slice<ints<0, 2>, ints<-1, -1>>(a); }, x0);
  check_unary<shape<5>>([](auto a) { return tf::slice<ints<1>, ints<3>>(a); }, fd_check::uniform<shape<5>>());
  check_unary<shape<dyn, 4>>([](auto a) { return tf::slice<ints<1, 1>, ints<-1, 2>>(a); }, dyn_value(3, 4));
  check_unary<shape<dyn, 4>>([](auto a) { return tf::slice<ints<1, 0>, ints<2, 3>>(a); }, dyn_value(4, 4));
}

TEST_CASE("strided_slice: negative strides, shrink to a row and to a scalar; dyn rows") {
  using S = shape<3, 4>;
  const auto x0 = fd_check::uniform<S>();
  check_unary<S>([](auto a) { return tf::strided_slice<ints<0, 0>, ints<0, 0>, ints<-1, -2>, 3, 3>(a); }, x0);
  check_unary<S>([](auto a) { return tf::strided_slice<ints<1, 0>, ints<0, 3>, ints<1, 2>, 0, 1>(a); }, x0);
  check_unary<S>([](auto a) { return tf::strided_slice<ints<-1>, ints<0>, ints<>, 0, 0, 1>(a); }, x0);
  check_unary<S>([](auto a) { return tf::strided_slice<ints<1, 2>, ints<2, 3>, ints<>, 0, 0, 3>(a); }, x0);
  check_unary<shape<dyn, 4>>([](auto a) { return tf::strided_slice<ints<-2, 3>, ints<0, 0>, ints<1, -1>, 1, 1>(a); },
                             dyn_value(3, 4));
  check_unary<shape<dyn, 4>>([](auto a) { return tf::strided_slice<ints<1>, ints<2>, ints<>, 0, 0, 1>(a); },
                             dyn_value(2, 4));
}

TEST_CASE("split and unstack: one piece, and pieces combined (their gradients add up); dyn rows") {
  using S = shape<2, 6>;
  const auto x0 = fd_check::uniform<S>();
  check_unary<S>([](auto a) { return std::get<1>(tf::split<3, 1>(a)); }, x0);
  check_unary<S>([](auto a) {
    auto [p, q, r] = tf::split<3, 1>(a);
    return p * q + tf::square(r);
  }, x0);
  check_unary<S>([](auto a) {
    auto [p, q] = tf::split<ints<4, -1>, 1>(a);
    return tf::reduce_sum<1>(p) * tf::reduce_sum<1>(q);
  }, x0);
  check_unary<S>([](auto a) {
    auto [r0, r1] = tf::unstack(a);
    return r0 * r1;
  }, x0);
  check_unary<S>([](auto a) { return std::get<4>(tf::unstack<1>(a)); }, x0);
  check_unary<shape<dyn, 6>>([](auto a) {
    auto [p, q] = tf::split<2, -1>(a);
    return p - tf::square(q);
  }, dyn_value(3, 6));
  check_unary<shape<dyn, 3>>([](auto a) {
    auto [c0, c1, c2] = tf::unstack<1>(a);
    return c0 * c2 + c1;
  }, dyn_value(4, 3));
}

TEST_CASE("expand_dims and squeeze: static, scalar and dyn shapes") {
  check_unary<shape<2, 3>>([](auto a) { return tf::expand_dims<1>(a); }, fd_check::uniform<shape<2, 3>>());
  check_unary<shape<>>([](auto a) { return tf::expand_dims<0>(a); }, fd_check::uniform<shape<>>());
  check_unary<shape<1, 3, 1>>([](auto a) { return tf::squeeze(a); }, fd_check::uniform<shape<1, 3, 1>>());
  check_unary<shape<1, 1>>([](auto a) { return tf::squeeze(a); }, fd_check::uniform<shape<1, 1>>());
  check_unary<shape<dyn, 3>>([](auto a) { return tf::expand_dims<-1>(a); }, dyn_value(2, 3));
  check_unary<shape<dyn, 3>>([](auto a) { return tf::squeeze<1>(tf::expand_dims<1>(tf::tanh(a))); }, dyn_value(2, 3));
}

TEST_CASE("tile: sums over the tiles; a rank-1, a rank-2 and a dyn input") {
  check_unary<shape<3>>([](auto a) { return tf::tile<3>(a); }, fd_check::uniform<shape<3>>());
  check_unary<shape<2, 3>>([](auto a) { return tf::tile<2, 2>(a); }, fd_check::uniform<shape<2, 3>>());
  check_unary<shape<2, 3>>([](auto a) { return tf::tile<1, 3>(a); }, fd_check::uniform<shape<2, 3>>());
  check_unary<shape<dyn, 2>>([](auto a) { return tf::tile<2, 3>(a); }, dyn_value(3, 2));
}

TEST_CASE("reverse: one axis, two axes, a dyn input") {
  check_unary<shape<2, 3>>([](auto a) { return tf::reverse<1>(a); }, fd_check::uniform<shape<2, 3>>());
  check_unary<shape<2, 3, 2>>([](auto a) { return tf::reverse<0, -1>(a); }, fd_check::uniform<shape<2, 3, 2>>());
  check_unary<shape<dyn, 3>>([](auto a) { return tf::reverse<0>(a); }, dyn_value(4, 3));
}

TEST_CASE("second derivatives: the gradient rules' own rules") {
  namespace so = second_order_testing;
  using S = shape<3, 4>;
  const auto x0 = fd_check::uniform<S>();
  so::check_unary<S>([](auto a) { return tf::square(tf::slice<ints<1, 1>, ints<2, -1>>(a)); }, x0);
  so::check_unary<S>([](auto a) { return tf::square(tf::strided_slice<ints<2>, ints<0>, ints<-2>, 0, 1>(a)); }, x0);
  so::check_unary<S>([](auto a) { return tf::square(std::get<0>(tf::unstack<1>(a))); }, x0);
  so::check_unary<S>([](auto a) { return tf::square(tf::tile<2, 1>(a)); }, x0);
  so::check_unary<S>([](auto a) { return tf::square(tf::reverse<0>(a)); }, x0);
  so::check_unary<S>([](auto a) { return tf::square(tf::squeeze(tf::expand_dims<0>(a))); }, x0);
  so::check_unary<shape<dyn, 4>>([](auto a) { return tf::square(tf::slice<ints<1, 0>, ints<-1, 3>>(a)); },
                                 dyn_value(3, 4));
}

TEST_CASE("the gradient nodes' op names, as graph exports show them") {
  auto x = tf::placeholder<"x", double, shape<2, 3>>();
  const auto grad_op = [&](auto y) { return tf::op_name_of<decltype(tf::gradient(tf::reduce_sum(y), x))>(); };
  CHECK(grad_op(tf::slice<ints<0, 1>, ints<2, 2>>(x)) == "Pad");
  CHECK(grad_op(tf::strided_slice<ints<1>, ints<2>>(x)) == "StridedSliceGrad");
  CHECK(grad_op(std::get<0>(tf::split<3, 1>(x))) == "Pad");
  CHECK(grad_op(std::get<1>(tf::unstack(x))) == "StridedSliceGrad");
  CHECK(grad_op(tf::expand_dims<0>(x)) == "Reshape");
  CHECK(grad_op(tf::squeeze(tf::expand_dims<0>(x))) == "Reshape");
  CHECK(grad_op(tf::tile<2, 1>(x)) == "Sum");
  CHECK(grad_op(tf::reverse<1>(x)) == "ReverseV2");
}
