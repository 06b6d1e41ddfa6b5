// Gradient rules of concat and stack (ops/concat.hpp), gather (ops/gather.hpp),
// reverse_sequence (ops/sequence.hpp) and where (ops/select.hpp) against central finite
// differences, for each input slot, over static and dyn shapes; the rules of the gradient
// nodes gather and where make (a gradient of a gradient); and the inputs that get none
// (indices, lengths, cond, sequence_mask).
#include <doctest/doctest.h>

#include <cstdint>
#include <type_traits>

#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"
#include "op_testing.hpp"

namespace tf = typeflow;
using op_testing::check_binary;
using op_testing::check_unary;
using op_testing::fusion;
using tf::dyn;
using tf::shape;

namespace {
// A dyn-shaped value with random entries.
template <std::size_t R>
xt::xtensor<double, R> random_of(std::array<std::size_t, R> dims) {
  return fd_check::fill_uniform(xt::xtensor<double, R>::from_shape(dims));
}
}  // namespace

// --- concat and stack ------------------------------------------------------------------------

TEST_CASE("concat: axis 0, 1 and -1 of two inputs, each slot") {
  check_binary<shape<2, 3>, shape<1, 3>>([](auto a, auto b) { return tf::concat<0>(a, b); },
                                         fd_check::uniform<shape<2, 3>>(), fd_check::uniform<shape<1, 3>>());
  check_binary<shape<2, 3>, shape<2, 2>>([](auto a, auto b) { return tf::concat<1>(a, b); },
                                         fd_check::uniform<shape<2, 3>>(), fd_check::uniform<shape<2, 2>>());
  check_binary<shape<2, 1, 2>, shape<2, 1, 3>>([](auto a, auto b) { return tf::concat<-1>(a, b); },
                                               fd_check::uniform<shape<2, 1, 2>>(), fd_check::uniform<shape<2, 1, 3>>());
  // The same node twice: both slices add up.
  check_unary<shape<2, 3>>([](auto a) { return tf::concat<1>(a, tf::square(a)); }, fd_check::uniform<shape<2, 3>>());
}

TEST_CASE("concat of three inputs along the middle axis: each input's own slice") {
  auto x = tf::placeholder<"x", double, shape<2, 1, 3>>();
  auto y = tf::placeholder<"y", double, shape<2, 2, 3>>();
  auto z = tf::placeholder<"z", double, shape<2, 3, 3>>();
  auto w = tf::placeholder<"w", double, shape<2, 6, 3>>();
  auto loss = tf::reduce_sum(tf::concat<1>(x, y, z) * w);
  tf::session sess(loss);
  const auto x0 = fd_check::uniform<shape<2, 1, 3>>();
  const auto y0 = fd_check::uniform<shape<2, 2, 3>>();
  const auto z0 = fd_check::uniform<shape<2, 3, 3>>();
  const auto w0 = fd_check::uniform<shape<2, 6, 3>>();
  fd_check::check_gradient(sess, loss, x, x0, tf::feed(y, y0), tf::feed(z, z0), tf::feed(w, w0));
  fd_check::check_gradient(sess, loss, y, y0, tf::feed(x, x0), tf::feed(z, z0), tf::feed(w, w0));
  fd_check::check_gradient(sess, loss, z, z0, tf::feed(x, x0), tf::feed(y, y0), tf::feed(w, w0));
  // The slices that concat's and stack's gradients are have no gradient rule of their own
  // (a second derivative through concat or stack does not compile).
  using C = decltype(tf::concat<1>(x, y, z));
  using S = decltype(tf::stack(x, x));
  static_assert(!tf::differentiable<tf::input_gradient<C, 1, C>>);
  static_assert(!tf::differentiable<tf::input_gradient<S, 1, S>>);
  static_assert(tf::op_name_of<tf::input_gradient<C, 1, C>>() == "Slice");
  static_assert(tf::op_name_of<tf::input_gradient<S, 1, S>>() == "Unpack");
}

TEST_CASE("concat of dyn dims: offsets from the inputs' run-time sizes along the axis") {
  check_binary<shape<dyn, 2>, shape<dyn, 2>>([](auto a, auto b) { return tf::concat<0>(a, b); }, random_of<2>({3, 2}),
                                             random_of<2>({2, 2}));
  check_binary<shape<2, dyn>, shape<2, dyn>>([](auto a, auto b) { return tf::concat<1>(a, b); }, random_of<2>({2, 1}),
                                             random_of<2>({2, 3}));
  // A dyn input against a static one: the gradient keeps each input's own shape.
  check_binary<shape<dyn, 3>, shape<2, 3>>([](auto a, auto b) { return tf::concat<1>(a, b); }, random_of<2>({2, 3}),
                                           fd_check::uniform<shape<2, 3>>());
}

TEST_CASE("stack: axis 0, 1, 2 and -1 of two [2, 3], each slot; scalars") {
  const auto a0 = fd_check::uniform<shape<2, 3>>();
  const auto b0 = fd_check::uniform<shape<2, 3>>();
  check_binary<shape<2, 3>, shape<2, 3>>([](auto a, auto b) { return tf::stack<0>(a, b); }, a0, b0);
  check_binary<shape<2, 3>, shape<2, 3>>([](auto a, auto b) { return tf::stack<1>(a, b); }, a0, b0);
  check_binary<shape<2, 3>, shape<2, 3>>([](auto a, auto b) { return tf::stack<2>(a, b); }, a0, b0);
  check_binary<shape<2, 3>, shape<2, 3>>([](auto a, auto b) { return tf::stack<-1>(b, a); }, a0, b0);
  check_binary<shape<>, shape<>>([](auto a, auto b) { return tf::stack(a, b, a); }, 0.5, -0.25);
}

TEST_CASE("stack of dyn dims") {
  check_binary<shape<dyn, 2>, shape<dyn, 2>>([](auto a, auto b) { return tf::stack<1>(a, b); }, random_of<2>({3, 2}),
                                             random_of<2>({3, 2}));
  check_binary<shape<dyn, 2>, shape<3, dyn>>([](auto a, auto b) { return tf::stack<0>(a, b); }, random_of<2>({3, 2}),
                                             random_of<2>({3, 2}));
}

// --- gather ----------------------------------------------------------------------------------

TEST_CASE("gather: rows scatter-added back, repeated indices accumulate; none to indices") {
  auto rows = tf::constant<"rows">(xt::xtensor_fixed<std::int32_t, xt::xshape<4>>{0, 4, 0, 2});
  check_unary<shape<5, 3>>([&](auto p) { return tf::gather(p, rows); }, fd_check::uniform<shape<5, 3>>());
  auto grid = tf::constant<"grid">(xt::xtensor_fixed<std::int64_t, xt::xshape<2, 2>>{{2, 0}, {1, 1}});
  check_unary<shape<3, 2, 2>>([&](auto p) { return tf::gather(p, grid); }, fd_check::uniform<shape<3, 2, 2>>());
  auto one = tf::constant<"one">(std::int32_t{3});
  check_unary<shape<4>>([&](auto p) { return tf::gather(p, one); }, fd_check::uniform<shape<4>>());
  check_unary<shape<dyn, 3>>([&](auto p) { return tf::gather(p, rows); }, random_of<2>({5, 3}));
  using G = decltype(tf::gather(tf::placeholder<"p", double, shape<5, 3>>(), rows));
  static_assert(tf::is_no_gradient<tf::input_gradient<G, 1, G>>);
}

TEST_CASE("gather's gradient node is differentiable: the gradient of the scatter-add gathers") {
  auto rows = tf::constant<"rows">(xt::xtensor_fixed<std::int32_t, xt::xshape<3>>{1, 1, 0});
  auto p = tf::placeholder<"p", double, shape<3, 2>>();
  auto w = tf::placeholder<"w", double, shape<3, 2>>();
  auto v = tf::placeholder<"v", double, shape<3, 2>>();
  auto loss = tf::reduce_sum(tf::gather(p, rows) * w);
  auto loss2 = tf::reduce_sum(tf::gradient(loss, p) * v);  // linear in w
  tf::session sess(loss2);
  fd_check::check_gradient(sess, loss2, w, fd_check::uniform<shape<3, 2>>(), tf::feed(p, fd_check::uniform<shape<3, 2>>()),
                           tf::feed(v, fd_check::uniform<shape<3, 2>>()));
}

TEST_CASE("gather's gradient checks the indices itself: a run may compute it without the gather") {
  auto p = tf::placeholder<"p", double, shape<2, 3>>();
  auto i = tf::placeholder<"i", std::int32_t, shape<2>>();
  auto w = tf::placeholder<"w", double, shape<2, 3>>();
  auto loss = tf::reduce_sum(tf::gather(p, i) * w);
  auto g = tf::gradient(loss, p);  // w scattered: the gather's value is not needed
  tf::session sess(g);
  const xt::xtensor_fixed<std::int32_t, xt::xshape<2>> bad{1, 2};
  CHECK_THROWS_WITH_AS(sess.run(g, tf::feed(p, fd_check::uniform<shape<2, 3>>()), tf::feed(i, bad),
                                tf::feed(w, fd_check::uniform<shape<2, 3>>())),
                       "InvalidArgument: indices[1] = 2 is not in [0, 2)", tf::invalid_argument_error);
}

// --- reverse_sequence --------------------------------------------------------------------------

TEST_CASE("reverse_sequence: testFloatReverseSequenceGrad ([4, 2, 3, 1, 1], seq 0, batch 2, lengths [3, 0, 4])") {
  auto lengths = tf::constant<"lengths">(xt::xtensor_fixed<std::int64_t, xt::xshape<3>>{3, 0, 4});
  check_unary<shape<4, 2, 3, 1, 1>>([&](auto x) { return tf::reverse_sequence<0, 2>(x, lengths); },
                                    fd_check::uniform<shape<4, 2, 3, 1, 1>>());
  check_unary<shape<3, 2, 4>>([&](auto x) { return tf::reverse_sequence<2, 0>(x, lengths); },
                              fd_check::uniform<shape<3, 2, 4>>());
  check_unary<shape<dyn, dyn>>([&](auto x) { return tf::reverse_sequence<1, 0>(x, lengths); }, random_of<2>({3, 4}));
  using R = decltype(tf::reverse_sequence<1, 0>(tf::placeholder<"x", double, shape<3, 4>>(), lengths));
  static_assert(tf::is_no_gradient<tf::input_gradient<R, 1, R>>);
}

// --- where -----------------------------------------------------------------------------------

TEST_CASE("where: where(cond, g, 0) to x, where(cond, 0, g) to y; cond of x's shape, a vector, a scalar") {
  auto elems = tf::constant<"elems">(
      xt::xtensor_fixed<bool, xt::xshape<2, 3>>{{true, false, true}, {false, false, true}});
  auto per_row = tf::constant<"per_row">(xt::xtensor_fixed<bool, xt::xshape<2>>{false, true});
  auto all = tf::constant<"all">(true);
  const auto x0 = fd_check::uniform<shape<2, 3>>();
  const auto y0 = fd_check::uniform<shape<2, 3>>();
  check_binary<shape<2, 3>, shape<2, 3>>([&](auto a, auto b) { return tf::where(elems, a, b); }, x0, y0);
  check_binary<shape<2, 3>, shape<2, 3>>([&](auto a, auto b) { return tf::where(per_row, a, b); }, x0, y0);
  check_binary<shape<2, 3>, shape<2, 3>>([&](auto a, auto b) { return tf::where(all, a, b); }, x0, y0);
  // dyn dims, and an operand more static than the other (each gradient keeps its input's shape).
  check_binary<shape<dyn, 3>, shape<2, 3>>([&](auto a, auto b) { return tf::where(per_row, a, b); }, random_of<2>({2, 3}),
                                           y0);
  // cond from a comparison of the operands: the gradient of maximum where they differ.
  check_binary<shape<2, 3>, shape<2, 3>>([](auto a, auto b) { return tf::where(a > b, a, b); }, fd_check::grid<shape<2, 3>>(0.0),
                                         fd_check::grid<shape<2, 3>>(0.125));
}

TEST_CASE("where's gradient node is differentiable, and none flows to cond or through sequence_mask") {
  auto per_row = tf::constant<"per_row">(xt::xtensor_fixed<bool, xt::xshape<2>>{true, false});
  auto x = tf::placeholder<"x", double, shape<2, 3>>();
  auto y = tf::placeholder<"y", double, shape<2, 3>>();
  auto w = tf::placeholder<"w", double, shape<2, 3>>();
  auto v = tf::placeholder<"v", double, shape<2, 3>>();
  auto loss = tf::reduce_sum(tf::where(per_row, x, y) * w);
  auto loss2 = tf::reduce_sum((tf::gradient(loss, x) + tf::gradient(loss, y) * tf::constant<2.0>()) * v);
  tf::session sess(loss2);
  fd_check::check_gradient(sess, loss2, w, fd_check::uniform<shape<2, 3>>(), tf::feed(x, fd_check::uniform<shape<2, 3>>()),
                           tf::feed(y, fd_check::uniform<shape<2, 3>>()), tf::feed(v, fd_check::uniform<shape<2, 3>>()));
  using W = decltype(tf::where(per_row, x, y));
  static_assert(tf::is_no_gradient<tf::input_gradient<W, 0, W>>);

  // A mask multiplies the loss; it is off the path from x, so it needs no gradient rule.
  auto lengths = tf::constant<"lengths">(xt::xtensor_fixed<std::int32_t, xt::xshape<2>>{1, 3});
  auto mask = tf::sequence_mask<3, double>(lengths);
  static_assert(!tf::differentiable<decltype(mask)>);
  auto masked = tf::reduce_sum(tf::square(x) * mask);
  tf::session sess_m(masked);
  const auto x0 = fd_check::uniform<shape<2, 3>>();
  fd_check::check_gradient(sess_m, masked, x, x0);
  const auto g = sess_m.run(tf::gradient(masked, x), tf::feed(x, x0));
  CHECK(g(0, 1) == 0.0);
  CHECK(g(1, 2) == doctest::Approx(2 * x0(1, 2)));
}
