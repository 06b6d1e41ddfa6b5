// The semantics of gradients() (autodiff/gradients.hpp): stop_gradient, zeros where no
// path joins x to y, comparisons, grad_ys and non-scalar y, gradients with respect to
// variables and intermediate nodes, the tuple of gradients(y, x...), and DESIGN rule 2:
// a run fetching a loss and its gradients evaluates each forward node once.
#include <doctest/doctest.h>

#include <cmath>
#include <tuple>
#include <type_traits>

#include <boost/mp11/list.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "counting_differentiable.hpp"
#include "fd_check.hpp"

namespace tf = typeflow;
using fd_check::value_t;
using tf::shape;
using typeflow_test::counted_differentiable;
using typeflow_test::differentiable_evaluations;

namespace {
using S = shape<2, 3>;
auto x = tf::placeholder<"x", double, S>();
auto w = tf::placeholder<"w", double, S>();
}  // namespace

TEST_CASE("stop_gradient blocks the gradient: only the other paths count") {
  auto y = tf::reduce_sum(tf::stop_gradient(tf::square(x)) * x * w);
  auto blocked = tf::reduce_sum(tf::stop_gradient(tf::tanh(x)) * w);
  tf::session sess(y, blocked);
  const auto x0 = fd_check::uniform<S>();
  const auto w0 = fd_check::uniform<S>();
  // y = sum(x^2 x w) as a value, but its gradient is x^2 w, not 3 x^2 w.
  const auto g = sess.run(tf::gradient(y, x), tf::feed(x, x0), tf::feed(w, w0));
  for (std::size_t i = 0; i < g.size(); ++i) CHECK(g.flat(i) == doctest::Approx(x0.flat(i) * x0.flat(i) * w0.flat(i)));
  // Through stop_gradient only: zeros of x's shape (TensorFlow: None), but w's gradient flows.
  const auto [gx, gw] = sess.run(tf::fetch(tf::gradient(blocked, x), tf::gradient(blocked, w)), tf::feed(x, x0),
                                 tf::feed(w, w0));
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(gx)>, value_t<S>>);
  for (double v : gx) CHECK(v == 0.0);
  for (std::size_t i = 0; i < gw.size(); ++i) CHECK(gw.flat(i) == doctest::Approx(std::tanh(x0.flat(i))));
}

TEST_CASE("where no path joins x to y, the gradient is zeros of x's shape") {
  auto unrelated = tf::placeholder<"unrelated", double, shape<4, 5>>();
  auto y = tf::reduce_sum(tf::tanh(x) * w);
  auto [gx, gu] = tf::gradients(y, x, unrelated);
  static_assert(std::is_same_v<tf::shape_of<decltype(gu)>, shape<4, 5>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(gu)>, double>);
  tf::session sess(y);
  const value_t<shape<4, 5>> u0 = fd_check::uniform<shape<4, 5>>();
  const auto g = sess.run(gu, tf::feed(unrelated, u0));
  CHECK(g.size() == 20);
  for (double v : g) CHECK(v == 0.0);
  // y itself is not a path to x: the gradient of w with respect to x is zeros too.
  const auto gwx = sess.run(tf::gradient(w, x), tf::feed(x, fd_check::uniform<S>()));
  for (double v : gwx) CHECK(v == 0.0);
}

// As TensorFlow's zeros_like(x) of a fully defined shape, the zeros gradient of a
// static-shape x is a constant that does not read x: an unrelated placeholder need not be
// fed, an unrelated variable need not be initialized.
TEST_CASE("the zeros gradient of an unrelated static-shape x does not read x") {
  auto unrelated = tf::placeholder<"unrelated", double, shape<4, 5>>();
  auto y = tf::reduce_sum(tf::tanh(x) * w);
  using gu = decltype(tf::gradient(y, unrelated));
  using path = tf::graph::path_order<boost::mp11::mp_list<gu>, boost::mp11::mp_list<>>;
  CHECK_FALSE(tf::contains_v<path, decltype(unrelated)>);
}

TEST_CASE("comparisons have no gradient; a cast from bool neither") {
  auto y = tf::placeholder<"y", double, S>();
  auto loss = tf::reduce_sum((tf::cast<double>(x > y) + x) * w);
  tf::session sess(loss);
  const auto x0 = fd_check::grid<S>(0.0);
  const auto y0 = fd_check::grid<S>(0.125);
  const auto w0 = fd_check::uniform<S>();
  const auto [gx, gy] = sess.run(tf::fetch(tf::gradient(loss, x), tf::gradient(loss, y)), tf::feed(x, x0),
                                 tf::feed(y, y0), tf::feed(w, w0));
  for (std::size_t i = 0; i < gx.size(); ++i) CHECK(gx.flat(i) == w0.flat(i));
  for (double v : gy) CHECK(v == 0.0);
  // and central differences agree away from ties
  fd_check::check_gradient(sess, loss, x, x0, tf::feed(y, y0), tf::feed(w, w0));
  fd_check::check_gradient(sess, loss, y, y0, tf::feed(x, x0), tf::feed(w, w0));
}

TEST_CASE("grad_ys: the gradient of a non-scalar y with an initial gradient gy is that of sum(y * gy)") {
  auto gy = tf::placeholder<"gy", double, S>();
  auto W = tf::placeholder<"W", double, shape<3, 3>>();
  auto y = tf::tanh(tf::matmul(x, W));
  auto weighted = tf::reduce_sum(y * gy);
  auto [gx, gW] = tf::gradients(tf::grad_ys(y, gy), x, W);
  tf::session sess(weighted);
  const auto x0 = fd_check::uniform<S>();
  const auto W0 = fd_check::uniform<shape<3, 3>>();
  const auto gy0 = fd_check::uniform<S>();
  fd_check::check_gradient_node(sess, weighted, gx, x, x0, tf::feed(W, W0), tf::feed(gy, gy0));
  fd_check::check_gradient_node(sess, weighted, gW, W, W0, tf::feed(x, x0), tf::feed(gy, gy0));
  // the initial gradient may be any node of y's shape, here a function of x
  auto gy_of_x = tf::square(x);
  fd_check::check_gradient_node(sess, tf::reduce_sum(y * tf::stop_gradient(gy_of_x)),
                                tf::gradient(tf::grad_ys(y, gy_of_x), W), W, W0, tf::feed(x, x0));
}

TEST_CASE("a non-scalar y alone is differentiated as the sum of its elements") {
  auto W = tf::placeholder<"W", double, shape<3, 4>>();
  auto y = tf::sigmoid(tf::matmul(x, W));
  tf::session sess(y);
  const auto x0 = fd_check::uniform<S>();
  const auto W0 = fd_check::uniform<shape<3, 4>>();
  fd_check::check_gradient_node(sess, tf::reduce_sum(y), tf::gradient(y, x), x, x0, tf::feed(W, W0));
  fd_check::check_gradient_node(sess, tf::reduce_sum(y), tf::gradient(y, W), W, W0, tf::feed(x, x0));
  // and the gradient of y with respect to itself is ones (1 for a scalar)
  const auto ones = sess.run(tf::gradient(y, y), tf::feed(x, x0), tf::feed(W, W0));
  for (double v : ones) CHECK(v == 1.0);
  auto s = tf::reduce_sum(y);
  CHECK(sess.run(tf::gradient(s, s)) == 1.0);
}

TEST_CASE("gradients(y, x1, x2) is a tuple of the gradients one by one, each of its x's shape") {
  auto b = tf::placeholder<"b", double, shape<3>>();
  auto y = tf::reduce_sum(tf::square(x * w) + tf::exp(x));
  auto both = tf::gradients(y, x, w);
  static_assert(std::is_same_v<decltype(both), std::tuple<decltype(tf::gradient(y, x)), decltype(tf::gradient(y, w))>>);
  auto [gx, gw] = both;
  static_assert(std::is_same_v<tf::shape_of<decltype(gx)>, S>);
  auto [gb] = tf::gradients(y, b);
  static_assert(std::is_same_v<tf::shape_of<decltype(gb)>, shape<3>>);
  tf::session sess(y);
  const auto x0 = fd_check::uniform<S>();
  const auto w0 = fd_check::uniform<S>();
  const auto [vx, vw] = sess.run(tf::fetch(gx, gw), tf::feed(x, x0), tf::feed(w, w0));
  CHECK(vx == sess.run(tf::gradient(y, x), tf::feed(x, x0), tf::feed(w, w0)));
  CHECK(vw == sess.run(tf::gradient(y, w), tf::feed(x, x0), tf::feed(w, w0)));
  fd_check::check_gradient(sess, y, x, x0, tf::feed(w, w0));
  fd_check::check_gradient(sess, y, w, w0, tf::feed(x, x0));
}

TEST_CASE("gradients with respect to a variable and to an intermediate node") {
  auto W = tf::variable<"W", double, shape<3, 4>>(tf::init::random_normal(0, 1, 7));
  auto h = tf::matmul(x, W);
  auto loss = tf::reduce_sum(tf::tanh(h) * tf::constant<0.5>() + tf::square(h));
  tf::session sess(loss);
  sess.initialize_all();
  const auto x0 = fd_check::uniform<S>();
  const value_t<shape<3, 4>> W0 = sess.run(W);
  // feeding a variable overrides its value for the run, as in TensorFlow
  fd_check::check_gradient(sess, loss, W, W0, tf::feed(x, x0));
  // an intermediate node: feeding h cuts the path above it
  const value_t<shape<2, 4>> h0 = sess.run(h, tf::feed(x, x0));
  fd_check::check_gradient(sess, loss, h, h0);
  // the gradient with respect to W with W not fed reads the variable
  CHECK(sess.run(tf::gradient(loss, W), tf::feed(x, x0)) == sess.run(tf::gradient(loss, W), tf::feed(x, x0), tf::feed(W, W0)));
}

TEST_CASE("shared subexpressions are one node, and its gradient sums its uses: tanh(x) + tanh(x)") {
  auto loss = tf::reduce_sum((tf::tanh(x) + tf::tanh(x)) * w);
  tf::session sess(loss);
  const auto x0 = fd_check::uniform<S>();
  const auto w0 = fd_check::uniform<S>();
  fd_check::check_gradient(sess, loss, x, x0, tf::feed(w, w0));
}

TEST_CASE("DESIGN rule 2: fetching a loss and its gradients evaluates each forward node once") {
  auto W = tf::variable<"rule2/W", double, shape<3, 4>>(tf::init::random_normal(0, 1, 11));
  auto h = counted_differentiable<1>(tf::matmul(x, W));
  auto a = counted_differentiable<2>(tf::tanh(h));      // tanh's rule reuses its output
  auto sq = counted_differentiable<3>(tf::square(a));  // square's rule reuses its input a
  auto loss = counted_differentiable<4>(tf::reduce_sum(sq));
  auto [gW, gx] = tf::gradients(loss, W, x);
  tf::session sess(loss);
  sess.initialize_all();
  const auto x0 = fd_check::uniform<S>();
  auto reset = [] {
    differentiable_evaluations<1> = differentiable_evaluations<2> = differentiable_evaluations<3> =
        differentiable_evaluations<4> = 0;
  };

  reset();
  const auto [l, vW, vx] = sess.run(tf::fetch(loss, gW, gx), tf::feed(x, x0));
  CHECK(std::isfinite(l));
  CHECK(differentiable_evaluations<1> == 1);
  CHECK(differentiable_evaluations<2> == 1);
  CHECK(differentiable_evaluations<3> == 1);
  CHECK(differentiable_evaluations<4> == 1);

  // Each run evaluates them again, once.
  sess.run(tf::fetch(loss, gW, gx), tf::feed(x, x0));
  CHECK(differentiable_evaluations<1> == 2);
  CHECK(differentiable_evaluations<4> == 2);

  // The gradients alone need h and a (their rules reuse them), not the loss. They do
  // evaluate sq: the reduction's gradient (reduce_gradient_node<g, sq>) takes sq as an
  // input for its shape, though the shape is static (TensorFlow's _SumGrad uses the
  // static shape then, and would not run sq). Still once.
  reset();
  const auto [vW2, vx2] = sess.run(tf::fetch(gW, gx), tf::feed(x, x0));
  CHECK(vW2 == vW);
  CHECK(vx2 == vx);
  CHECK(differentiable_evaluations<1> == 1);
  CHECK(differentiable_evaluations<2> == 1);
  CHECK(differentiable_evaluations<3> <= 1);
  CHECK(differentiable_evaluations<4> == 0);

  // A gradient of the gradient (Hessian-vector product) fetched with them: still once.
  auto v = tf::placeholder<"v", double, shape<3, 4>>();
  auto hvp = tf::gradient(tf::reduce_sum(gW * v), W);
  reset();
  sess.run(tf::fetch(loss, gW, hvp), tf::feed(x, x0), tf::feed(v, fd_check::uniform<shape<3, 4>>()));
  CHECK(differentiable_evaluations<1> == 1);
  CHECK(differentiable_evaluations<2> == 1);
  CHECK(differentiable_evaluations<3> == 1);
  CHECK(differentiable_evaluations<4> == 1);

  // and the counting op is the identity for gradients: central differences agree
  fd_check::check_gradient(sess, loss, x, x0);
}

// stop_gradient after an op without a gradient rule: no gradient reaches the op, so its
// missing rule does not matter (TensorFlow only looks a gradient function up for ops that
// receive a gradient).
#include "../support/counting.hpp"

TEST_CASE("stop_gradient after an op without a gradient rule compiles, and blocks the gradient") {
  auto loss = tf::reduce_sum(tf::stop_gradient(typeflow_test::counted<71>(tf::square(x))) * x * w);
  tf::session sess(loss);
  const auto x0 = fd_check::uniform<S>();
  const auto w0 = fd_check::uniform<S>();
  const auto g = sess.run(tf::gradient(loss, x), tf::feed(x, x0), tf::feed(w, w0));
  for (std::size_t i = 0; i < g.size(); ++i) CHECK(g.flat(i) == doctest::Approx(x0.flat(i) * x0.flat(i) * w0.flat(i)));
}

