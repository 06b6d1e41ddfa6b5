// placeholder_with_default (ops/placeholder_with_default.hpp), ported from TensorFlow 1.x's
// array_ops_test.py / constant_op_test.py (PlaceholderWithDefaultTest), then typeflow's own
// cases: the default computed at each unfed run, a feed that replaces it and runs nothing
// behind it, dyn dims fed other sizes, rejected feeds, the gradient. Each TEST_CASE names
// the TensorFlow test it ports.
//
// Not ported as written, and why:
// - TensorFlow's ValueError for a feed of the wrong shape is tf::invalid_argument_error when
//   the value's type leaves its shape open (xt::xtensor, xt::xarray), as for a placeholder; a
//   value whose type fixes a wrong shape (xt::xtensor_fixed) does not compile.
// - testNoShape: shape=None (unknown rank) has no typeflow spelling, every node has a static
//   rank. The port takes shape<dyn> (any size): its [3, 37] feed passes; its rank-2 feed
//   [[3, 3], [3, 3]] is rejected (InvalidArgument) where TensorFlow takes it.
// - testGradient: compute_gradient_error in float32 < 1e-3 is fd_check's central differences
//   in double (tests/autodiff/fd_check.hpp), of a random weighting of the output; shape=None
//   is shape<dyn, dyn>.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include <xtensor/xarray.hpp>
#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"
#include "ops_testing.hpp"

namespace tf = typeflow;
using ops_testing::shape_vector;

namespace {
template <class T, std::size_t... D>
using fixed = xt::xtensor_fixed<T, xt::xshape<D...>>;
}  // namespace

// --- the node's type -----------------------------------------------------------------------

namespace {
using pwd_input = tf::placeholder_node<"pwd_in", float, tf::shape<2, 3>>;
using default_shaped = decltype(tf::placeholder_with_default<"p">(pwd_input{}));
using relaxed = decltype(tf::placeholder_with_default<"p", tf::shape<tf::dyn, 3>>(pwd_input{}));
static_assert(std::is_same_v<default_shaped, tf::placeholder_with_default_node<"p", tf::shape<2, 3>, pwd_input>>);
static_assert(std::is_same_v<tf::shape_of<relaxed>, tf::shape<tf::dyn, 3>>);
static_assert(std::is_same_v<tf::value_type_of<relaxed>, float>);
static_assert(tf::name_of<relaxed>() == "p");
static_assert(tf::op_name_of<relaxed>() == "PlaceholderWithDefault");
static_assert(tf::named_node<relaxed> && !tf::placeholder_node_type<relaxed>);  // no feed required
static_assert(tf::differentiable<relaxed>);
// The shape rule (TensorFlow's is_compatible_with): same rank, equal dims where both are static.
static_assert(tf::ops::detail::placeholder_shape_fits<tf::shape<tf::dyn, 3>, tf::shape<2, 3>>());
static_assert(tf::ops::detail::placeholder_shape_fits<tf::shape<2, 3>, tf::shape<tf::dyn, tf::dyn>>());
static_assert(tf::ops::detail::placeholder_shape_fits<tf::shape<>, tf::shape<>>());
static_assert(!tf::ops::detail::placeholder_shape_fits<tf::shape<2, 2>, tf::shape<2, 3>>());
static_assert(!tf::ops::detail::placeholder_shape_fits<tf::shape<tf::dyn>, tf::shape<2, 3>>());
static_assert(!tf::ops::detail::placeholder_shape_fits<tf::shape<>, tf::shape<1>>());
// The input must have a value of an element type (a group has none).
template <class N>
constexpr bool takes_a_default = requires(const N& n) { tf::placeholder_with_default<"p">(n); };
static_assert(takes_a_default<pwd_input>);
static_assert(!takes_a_default<tf::group_node<>>);
// The gradient rule: G itself when the node has its input's shape, else G reshaped back.
using grad_2x3 = tf::placeholder_node<"g", float, tf::shape<2, 3>>;
using grad_dyn = tf::placeholder_node<"g", float, tf::shape<tf::dyn, 3>>;
static_assert(std::is_same_v<tf::input_gradient<default_shaped, 0, grad_2x3>, grad_2x3>);
static_assert(std::is_same_v<tf::input_gradient<relaxed, 0, grad_dyn>, tf::reshape_node<grad_dyn, tf::shape<2, 3>>>);
}  // namespace

// --- TensorFlow's PlaceholderWithDefaultTest ---------------------------------------------------

TEST_CASE("PlaceholderWithDefaultTest.testFullShape: default [[2, 2], [2, 2]], shape [2, 2]") {
  auto p = tf::placeholder_with_default<"p", tf::shape<2, 2>>(
      tf::constant<"full_default">(fixed<std::int32_t, 2, 2>{{2, 2}, {2, 2}}));
  auto a = tf::identity(p);
  tf::session sess(a);
  CHECK(sess.run(a) == fixed<std::int32_t, 2, 2>{{2, 2}, {2, 2}});
  CHECK(sess.run(a, tf::feed(p, fixed<std::int32_t, 2, 2>{{3, 3}, {3, 3}})) == fixed<std::int32_t, 2, 2>{{3, 3}, {3, 3}});
  const xt::xtensor<std::int32_t, 2> wrong = {{6, 6, 6}, {6, 6, 6}};  // TensorFlow: ValueError
  CHECK_THROWS_WITH_AS(sess.run(a, tf::feed(p, wrong)),
                       "InvalidArgument: Cannot feed value of shape [2, 3] for node 'p', which has shape [2, 2]",
                       tf::invalid_argument_error);
  CHECK(sess.run(a) == fixed<std::int32_t, 2, 2>{{2, 2}, {2, 2}});
}

TEST_CASE("PlaceholderWithDefaultTest.testPartialShape: default [1, 2, 3], shape [None]") {
  auto p = tf::placeholder_with_default<"p", tf::shape<tf::dyn>>(
      tf::constant<"partial_default">(fixed<std::int32_t, 3>{1, 2, 3}));
  auto a = tf::identity(p);
  static_assert(std::is_same_v<tf::shape_of<decltype(a)>, tf::shape<tf::dyn>>);
  tf::session sess(a);
  CHECK(sess.run(a) == xt::xtensor<std::int32_t, 1>{1, 2, 3});
  CHECK(sess.run(a, tf::feed(p, xt::xtensor<std::int32_t, 1>{3, 37})) == xt::xtensor<std::int32_t, 1>{3, 37});
  const xt::xarray<std::int32_t> wrong = {{2, 2}, {2, 2}};  // TensorFlow: ValueError
  CHECK_THROWS_WITH_AS(sess.run(a, tf::feed(p, wrong)),
                       "InvalidArgument: Cannot feed value of shape [2, 2] for node 'p', which has shape [?]",
                       tf::invalid_argument_error);
}

TEST_CASE("PlaceholderWithDefaultTest.testNoShape: default [17], shape None (here [None])") {
  auto p = tf::placeholder_with_default<"p", tf::shape<tf::dyn>>(
      tf::constant<"no_shape_default">(fixed<std::int32_t, 1>{17}));
  auto a = tf::identity(p);
  tf::session sess(a);
  CHECK(sess.run(a) == xt::xtensor<std::int32_t, 1>{17});
  CHECK(sess.run(a, tf::feed(p, xt::xtensor<std::int32_t, 1>{3, 37})) == xt::xtensor<std::int32_t, 1>{3, 37});
  // TensorFlow takes [[3, 3], [3, 3]] for an unknown rank; a typeflow node has a static rank.
  const xt::xarray<std::int32_t> rank_2 = {{3, 3}, {3, 3}};
  CHECK_THROWS_AS(sess.run(a, tf::feed(p, rank_2)), tf::invalid_argument_error);
}

TEST_CASE("PlaceholderWithDefaultTest.testGradient: y = placeholder_with_default(x, None), x [5, 7]") {
  using S = tf::shape<5, 7>;
  auto x = tf::placeholder<"x", double, S>();
  auto y = tf::placeholder_with_default<"y", tf::shape<tf::dyn, tf::dyn>>(x);
  const auto w = tf::constant<"w">(fd_check::uniform<S>());
  const auto loss = tf::reduce_sum(y * w);
  // The gradient passes through to x (TensorFlow's _IdGrad), reshaped back to x's shape.
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::gradient(loss, x))>, S>);
  tf::session sess(loss);
  fd_check::check_gradient(sess, loss, x, fd_check::uniform<S>());
}

// --- typeflow's own cases -----------------------------------------------------------------------

TEST_CASE("the gradient through an unfed placeholder_with_default of the input's shape is the input's") {
  auto x = tf::placeholder<"x", float, tf::shape<3>>();
  auto p = tf::placeholder_with_default<"p">(x * tf::constant<2>());
  auto w = tf::constant<"w">(fixed<float, 3>{1, 2, 3});
  auto loss = tf::reduce_sum(p * w);
  auto g = tf::gradient(loss, x);
  tf::session sess(loss, g);
  CHECK(sess.run(g, tf::feed(x, fixed<float, 3>{5, 5, 5})) == fixed<float, 3>{2, 4, 6});
}

TEST_CASE("an unfed placeholder_with_default computes its default at each run") {
  auto v = tf::variable<"pwd_v", float, tf::shape<2>>(tf::init::ones());
  auto p = tf::placeholder_with_default<"p">(v * tf::constant<10>());
  auto bump = tf::assign_add(v, tf::ones<tf::shape<2>>());
  tf::session sess(p, bump);
  sess.initialize_all();
  CHECK(sess.run(p) == fixed<float, 2>{10, 10});
  sess.run(bump);
  CHECK(sess.run(p) == fixed<float, 2>{20, 20});
  CHECK(sess.run(p, tf::feed(p, fixed<float, 2>{7, 8})) == fixed<float, 2>{7, 8});
  CHECK(sess.run(p) == fixed<float, 2>{20, 20});  // the feed was for one run only
}

TEST_CASE("a fed placeholder_with_default replaces its default: nothing behind it runs") {
  auto counter = tf::variable<"pwd_counter", float>(tf::init::zeros());
  auto x = tf::placeholder<"x", float>();
  // The default counts its runs and needs x.
  auto p = tf::placeholder_with_default<"p">(tf::assign_add(counter, tf::constant<1>()) + x);
  auto y = p * tf::constant<3>();
  tf::session sess(y);
  sess.initialize_all();
  CHECK(sess.run(y, tf::feed(p, 5.0f)) == 15.0f);  // x needs no feed
  CHECK(sess.run(counter) == 0.0f);                // the default did not run
  CHECK(sess.run(y, tf::feed(x, 1.0f)) == 6.0f);   // (0 + 1 + 1) * 3
  CHECK(sess.run(counter) == 1.0f);
}

TEST_CASE("feeding placeholder_with_default replaces its value only: the input's other consumers see the input") {
  auto c = tf::constant<"pwd_c">(fixed<float, 2>{1, 2});
  auto p = tf::placeholder_with_default<"p">(c);
  auto both = tf::fetch(p + tf::constant<0>(), c * tf::constant<10>());
  tf::session sess(p, c);
  auto [fed, other] = sess.run(both, tf::feed(p, fixed<float, 2>{5, 6}));
  CHECK(fed == fixed<float, 2>{5, 6});
  CHECK(other == fixed<float, 2>{10, 20});
  // Feeding the input itself instead changes every consumer of it, p included.
  auto [through, direct] = sess.run(both, tf::feed(c, fixed<float, 2>{3, 4}));
  CHECK(through == fixed<float, 2>{3, 4});
  CHECK(direct == fixed<float, 2>{30, 40});
}

TEST_CASE("placeholder_with_default over a default the graph rewrites (x * 1): fed and not fed") {
  auto x = tf::placeholder<"x", float, tf::shape<2>>();
  auto p = tf::placeholder_with_default<"p">(x * tf::constant<1>());
  auto y = p * p;
  tf::session sess(y);
  CHECK(sess.run(y, tf::feed(x, fixed<float, 2>{2, 3})) == fixed<float, 2>{4, 9});
  CHECK(sess.run(y, tf::feed(p, fixed<float, 2>{4, 5})) == fixed<float, 2>{16, 25});
}

TEST_CASE("a scalar placeholder_with_default: a learning rate with a default") {
  auto lr = tf::placeholder_with_default<"learning_rate">(tf::constant<0.5f>());
  auto x = tf::placeholder<"x", float>();
  auto step = lr * x;
  tf::session sess(step);
  CHECK(sess.run(step, tf::feed(x, 4.0f)) == 2.0f);
  CHECK(sess.run(step, tf::feed(x, 4.0f), tf::feed(lr, 0.25)) == 1.0f);  // a number converts
}

TEST_CASE("a dyn dim of placeholder_with_default takes another size when fed, its default's when not") {
  auto p = tf::placeholder_with_default<"p", tf::shape<tf::dyn, 2>>(tf::constant<"rows">(fixed<float, 1, 2>{{1, 2}}));
  auto doubled = p * tf::constant<2>();
  tf::session sess(doubled);
  const xt::xtensor<float, 2> three_rows = {{1, 1}, {2, 2}, {3, 3}};
  const xt::xtensor<float, 2> got = sess.run(doubled, tf::feed(p, three_rows));
  CHECK(shape_vector(got) == std::vector<std::size_t>{3, 2});
  CHECK(got == xt::xtensor<float, 2>{{2, 2}, {4, 4}, {6, 6}});
  CHECK(sess.run(doubled) == xt::xtensor<float, 2>{{2, 4}});  // back to the default's one row
  CHECK(sess.run(p) == xt::xtensor<float, 2>{{1, 2}});
}

TEST_CASE("a rejected feed of placeholder_with_default changes nothing") {
  auto v = tf::variable<"pwd_total", float, tf::shape<2>>(tf::init::zeros());
  auto p = tf::placeholder_with_default<"p", tf::shape<tf::dyn, 2>>(tf::constant<"ones_row">(fixed<float, 1, 2>{{1, 1}}));
  auto step = tf::assign_add(v, tf::reduce_sum<0>(p));
  tf::session sess(step);
  sess.initialize_all();
  const xt::xtensor<float, 2> three_columns = {{1, 2, 3}};
  CHECK_THROWS_WITH_AS(sess.run(step, tf::feed(p, three_columns)),
                       "InvalidArgument: Cannot feed value of shape [1, 3] for node 'p', which has shape [?, 2]",
                       tf::invalid_argument_error);
  CHECK(sess.run(v) == fixed<float, 2>{0, 0});
  sess.run(step);
  CHECK(sess.run(v) == fixed<float, 2>{1, 1});
  sess.run(step, tf::feed(p, xt::xtensor<float, 2>{{1, 2}, {3, 4}}));
  CHECK(sess.run(v) == fixed<float, 2>{5, 7});
}

TEST_CASE("a shape that fixes the input's dyn dim: an input of another size fails the run") {
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn>>();
  auto p = tf::placeholder_with_default<"p", tf::shape<3>>(x);
  static_assert(std::is_same_v<tf::result_t<decltype(p)>, fixed<float, 3>>);
  tf::session sess(p);
  CHECK(sess.run(p, tf::feed(x, xt::xtensor<float, 1>{1, 2, 3})) == fixed<float, 3>{1, 2, 3});
  CHECK_THROWS_WITH_AS(sess.run(p, tf::feed(x, xt::xtensor<float, 1>{1, 2, 3, 4})),
                       "InvalidArgument: PlaceholderWithDefault 'p': the default value has shape [4], which is not "
                       "compatible with the node's shape [3]",
                       tf::invalid_argument_error);
  CHECK(sess.run(p, tf::feed(p, fixed<float, 3>{7, 8, 9})) == fixed<float, 3>{7, 8, 9});  // x not needed
}

TEST_CASE("placeholder_with_default in a graph export: its name, op PlaceholderWithDefault, its input") {
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 3>>();
  auto p = tf::placeholder_with_default<"p">(x);
  const auto g = tf::describe_graph(p);
  const auto* d = g.find("p");
  REQUIRE(d != nullptr);
  CHECK(d->op == "PlaceholderWithDefault");
  CHECK(d->shape == "[?, 3]");
  CHECK(d->inputs == std::vector<std::string>{"x"});
}
