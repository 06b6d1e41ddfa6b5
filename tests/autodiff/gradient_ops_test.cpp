// The ops that gradient graphs are made of have gradient rules too (so gradients can be
// differentiated again, DESIGN rule 8); checked here directly, first order, against
// central differences: sum_to (ops/broadcast_gradient.hpp) and its rule's op, the
// broadcast fn::first; ReluGrad and the Select of maximum/minimum; the BroadcastTo of
// reductions (reduce_gradient_node); reshape_like_node. Their shape-only inputs get no
// gradient (zeros), which the central differences agree with.
#include <doctest/doctest.h>

#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"
#include "op_testing.hpp"

namespace tf = typeflow;
using op_testing::check_binary;
using tf::dyn;
using tf::shape;

namespace {
// g summed to the shape of a (a's values do not matter).
constexpr auto sum_to = [](auto g, auto a) { return tf::sum_to_node<decltype(g), decltype(a)>{}; };
// g broadcast to the shape of both operands.
constexpr auto broadcast_like = [](auto g, auto a) { return tf::ew<tf::fn::first, decltype(g), decltype(a)>{}; };
constexpr auto relu_gradient = [](auto g, auto y) { return tf::ew<tf::fn::relu_gradient, decltype(g), decltype(y)>{}; };
template <class Kind, std::ptrdiff_t... Axes>
constexpr auto reduce_gradient = [](auto g, auto a) {
  return tf::reduce_gradient_node<Kind, decltype(g), decltype(a), Axes...>{};
};
constexpr auto reshape_like = [](auto g, auto a) { return tf::reshape_like_node<decltype(g), decltype(a)>{}; };
}  // namespace

TEST_CASE("sum_to: [2, 3] to [3], [2, 1], [1, 3], [], and [2, 3, 4] to [3, 1]") {
  check_binary<shape<2, 3>, shape<3>>(sum_to, fd_check::uniform<shape<2, 3>>(), fd_check::uniform<shape<3>>());
  check_binary<shape<2, 3>, shape<2, 1>>(sum_to, fd_check::uniform<shape<2, 3>>(), fd_check::uniform<shape<2, 1>>());
  check_binary<shape<2, 3>, shape<1, 3>>(sum_to, fd_check::uniform<shape<2, 3>>(), fd_check::uniform<shape<1, 3>>());
  check_binary<shape<2, 3>, shape<>>(sum_to, fd_check::uniform<shape<2, 3>>(), 0.5);
  check_binary<shape<2, 3, 4>, shape<3, 1>>(sum_to, fd_check::uniform<shape<2, 3, 4>>(),
                                            fd_check::uniform<shape<3, 1>>());
}

TEST_CASE("sum_to with dynamic dims: [dyn, 3] (fed [4, 3]) to [dyn, 1] (fed [1, 1])") {
  check_binary<shape<dyn, 3>, shape<dyn, 1>>(sum_to, fd_check::fill_uniform(xt::xtensor<double, 2>::from_shape({4, 3})),
                                             fd_check::fill_uniform(xt::xtensor<double, 2>::from_shape({1, 1})));
}

TEST_CASE("sum_to over all leading dims (a convolution's bias gradient): [2, 3, 4] and [dyn, 2, 4] (fed [3, 2, 4]) to [4]") {
  check_binary<shape<2, 3, 4>, shape<4>>(sum_to, fd_check::uniform<shape<2, 3, 4>>(), fd_check::uniform<shape<4>>());
  check_binary<shape<dyn, 2, 4>, shape<4>>(sum_to, fd_check::fill_uniform(xt::xtensor<double, 3>::from_shape({3, 2, 4})),
                                           fd_check::uniform<shape<4>>());
}

TEST_CASE("broadcast (fn::first, the rule of sum_to): [3] to [2, 3], [2, 1] to [2, 3], [] to [2, 3]") {
  check_binary<shape<3>, shape<2, 3>>(broadcast_like, fd_check::uniform<shape<3>>(), fd_check::uniform<shape<2, 3>>());
  check_binary<shape<2, 1>, shape<2, 3>>(broadcast_like, fd_check::uniform<shape<2, 1>>(),
                                         fd_check::uniform<shape<2, 3>>());
  check_binary<shape<>, shape<2, 3>>(broadcast_like, 0.25, fd_check::uniform<shape<2, 3>>());
  check_binary<shape<3, 1>, shape<2, 3, 4>>(broadcast_like, fd_check::uniform<shape<3, 1>>(),
                                            fd_check::uniform<shape<2, 3, 4>>());
}

TEST_CASE("ReluGrad(g, y): g where y > 0 (y away from 0)") {
  check_binary<shape<2, 3>, shape<2, 3>>(relu_gradient, fd_check::uniform<shape<2, 3>>(),
                                         fd_check::away_from_zero<shape<2, 3>>());
}

TEST_CASE("Select(g, a, b) of maximum's and minimum's gradients, away from ties") {
  using S = shape<2, 3>;
  auto g = tf::placeholder<"g", double, S>();
  auto a = tf::placeholder<"a", double, S>();
  auto b = tf::placeholder<"b", double, S>();
  auto w = tf::placeholder<"w", double, S>();
  auto ge = tf::reduce_sum(tf::ew<tf::fn::select_gradient<tf::fn::ge>, decltype(g), decltype(a), decltype(b)>{} * w);
  auto lt = tf::reduce_sum(tf::ew<tf::fn::select_gradient<tf::fn::lt>, decltype(g), decltype(a), decltype(b)>{} * w);
  tf::session sess(ge, lt);
  const auto g0 = fd_check::uniform<S>();
  const auto a0 = fd_check::grid<S>(0.0);
  const auto b0 = fd_check::grid<S>(0.125);
  const auto w0 = fd_check::uniform<S>();
  fd_check::check_gradient(sess, ge, g, g0, tf::feed(a, a0), tf::feed(b, b0), tf::feed(w, w0));
  fd_check::check_gradient(sess, ge, a, a0, tf::feed(g, g0), tf::feed(b, b0), tf::feed(w, w0));
  fd_check::check_gradient(sess, ge, b, b0, tf::feed(g, g0), tf::feed(a, a0), tf::feed(w, w0));
  fd_check::check_gradient(sess, lt, g, g0, tf::feed(a, a0), tf::feed(b, b0), tf::feed(w, w0));
}

TEST_CASE("the BroadcastTo of reductions' gradients: sum and mean, over all axes, an axis, kept dims") {
  using tf::ops::detail::mean_tag;
  using tf::ops::detail::sum_tag;
  check_binary<shape<>, shape<2, 3>>(reduce_gradient<sum_tag>, 0.5, fd_check::uniform<shape<2, 3>>());
  check_binary<shape<>, shape<2, 3>>(reduce_gradient<mean_tag>, 0.5, fd_check::uniform<shape<2, 3>>());
  check_binary<shape<3>, shape<2, 3>>(reduce_gradient<sum_tag, 0>, fd_check::uniform<shape<3>>(),
                                      fd_check::uniform<shape<2, 3>>());
  check_binary<shape<2>, shape<2, 3>>(reduce_gradient<mean_tag, 1>, fd_check::uniform<shape<2>>(),
                                      fd_check::uniform<shape<2, 3>>());
  check_binary<shape<2, 1, 4>, shape<2, 3, 4>>(reduce_gradient<mean_tag, 1>, fd_check::uniform<shape<2, 1, 4>>(),
                                               fd_check::uniform<shape<2, 3, 4>>());
  check_binary<shape<1, 1>, shape<2, 3>>(reduce_gradient<sum_tag>, fd_check::uniform<shape<1, 1>>(),
                                         fd_check::uniform<shape<2, 3>>());
}

TEST_CASE("reshape_like_node: [dyn] (fed [6]) to the run-time shape of [dyn, 3] (fed [2, 3])") {
  check_binary<shape<dyn>, shape<dyn, 3>>(reshape_like, fd_check::fill_uniform(xt::xtensor<double, 1>::from_shape({6})),
                                          fd_check::fill_uniform(xt::xtensor<double, 2>::from_shape({2, 3})));
}
