// tf.gradients (autodiff/gradients.hpp), ported from TensorFlow 1.x's
// tensorflow/python/ops/gradients_test.py: GradientsTest, StopGradientTest and
// HessianVectorProductTest. Each case names the TensorFlow test it ports; the expected values
// are the test's literals, or its numpy reference computed here. TensorFlow's constants
// become fed placeholders (typeflow's literals are shared by value, DESIGN rule 1).
//
// Where TensorFlow returns None (an unconnected x, a stopped path, an integer x), typeflow
// gives zeros of x's shape (docs/reference/gradients.md): those cases check the zeros.
//
// Not ported:
// - testColocateGradients*, testColocateGradientsWithGateGradients: devices and colocation
//   groups; typeflow has one device.
// - testGradients' and testUnusedOutput's op-graph assertions (op type, _original_op,
//   transpose_a attrs): typeflow's gradient nodes are types; their values are checked instead.
// - testAggregationMethod{AccumulateN,AddN,Tree}: the aggregation method is not an option
//   (the sum is always left to right); the values are checked once, in one case.
// - testNoGradientForStringOutputs, testSingletonIndexedSlices' IndexedSlices grad_ys,
//   testNonDifferentiableSwitchInWhileLoop, TensorListGradientsTest, OnlyRealGradientsTest
//   (complex), testVariableRefGradient / testVariableAsGraphElementGradient (ref tensors and
//   graph elements): no string, complex, TensorArray, TensorList or ref dtypes in typeflow.
// - testPartialDerivatives' and testStopGradients' `stop_gradients=` argument and
//   testUnconnectedGradientsNoneUnconnectedGradients / testUnknownUnconnectedGradientsValueGiven
//   (`unconnected_gradients=`): gradients() takes neither (gradients.md, "Differences from
//   TensorFlow"); the partial derivatives are ported with stop_gradient in the graph.
// - testDependentYs' list of ys: gradients() takes one y; the case ports y + y2 (what
//   TensorFlow's list sums to) and the identity variants.
// - PreventGradientTest: no prevent_gradient op; an op without a gradient rule is the compile
//   error of tests/compile_fail/no_gradient_rule.cpp.
// - HessianTest (tf.hessians), FunctionGradientsTest (Defun), CustomGradientTest,
//   GetDependentVariablesTest, ResourceCondTest (cond), VariablesGradientTest (eager
//   recompute_grad), IndexedSlicesToTensorTest (no IndexedSlices values): no such API.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <type_traits>

#include <boost/mp11/list.hpp>
#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
using tf::shape;

namespace {
template <class T, std::size_t... D>
using fixed = xt::xtensor_fixed<T, xt::xshape<D...>>;

// TensorFlow's scalar constants x, as placeholders fed per run.
auto x = tf::placeholder<"x", double>();

template <class V>
void check_all_equal(const V& got, double want) {
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    CHECK(static_cast<double>(got.flat(i)) == want);
  }
}
}  // namespace

TEST_CASE("GradientsTest.testGradients: the gradient of matmul(in, w) + b with respect to w") {
  // inp = constant(1.0, shape=[32, 100]); w = constant(1.0, shape=[100, 10]);
  // b = constant(1.0, shape=[10]); h = bias_add(matmul(inp, w), b); gradients(h, w)
  auto inp = tf::placeholder<"in", double, shape<32, 100>>();
  auto w = tf::placeholder<"w", double, shape<100, 10>>();
  auto b = tf::placeholder<"b", double, shape<10>>();
  auto h = tf::matmul(inp, w) + b;
  auto [w_grad, b_grad] = tf::gradients(h, w, b);
  static_assert(std::is_same_v<tf::shape_of<decltype(w_grad)>, shape<100, 10>>);
  tf::session sess;
  const fixed<double, 32, 100> ones_in = xt::ones<double>({32, 100});
  const fixed<double, 100, 10> ones_w = xt::ones<double>({100, 10});
  const fixed<double, 10> ones_b = xt::ones<double>({10});
  // TensorFlow's MatMul(in, ones_like(h), transpose_a=True): each element sums 32 ones.
  const auto [gw, gb] = sess.run(tf::fetch(w_grad, b_grad), tf::feed(inp, ones_in), tf::feed(w, ones_w),
                                 tf::feed(b, ones_b));
  check_all_equal(gw, 32.0);
  check_all_equal(gb, 32.0);  // bias_add's gradient sums the 32 rows
}

TEST_CASE("GradientsTest.testUnusedOutput: a split piece that y does not use gets no gradient") {
  // wx = matmul(w, x); split_wx = split(wx, 2, axis=0); c = reduce_sum(split_wx[1])
  auto w = tf::placeholder<"w", double, shape<2, 2>>();
  auto m = tf::placeholder<"m", double, shape<2, 2>>();
  auto pieces = tf::split<2, 0>(tf::matmul(w, m));
  auto c = tf::reduce_sum(std::get<1>(pieces));
  auto gw = tf::gradient(c, w);
  tf::session sess;
  const fixed<double, 2, 2> ones = xt::ones<double>({2, 2});
  const auto g = sess.run(gw, tf::feed(w, ones), tf::feed(m, ones));
  // d c / d w[i, k] = [i == 1] * sum_j x[k, j]
  CHECK(g == fixed<double, 2, 2>{{0, 0}, {2, 2}});
}

TEST_CASE("GradientsTest.testBoundaryStop / testBoundaryContinue: x a predecessor of y") {
  // testBoundaryStop: x = identity(c); y = x + 1.0; z = y + 1; gradients(z, [x]) is not None
  auto c = tf::identity(x);
  auto z_stop = (c + tf::constant<1.0>()) + tf::constant<1.0>();
  // testBoundaryContinue: y = x * 2.0; z = y * 3.0; gradients(z, [x, y]) == [6, 3]
  auto y = x * tf::constant<2.0>();
  auto z = y * tf::constant<3.0>();
  auto [gx, gy] = tf::gradients(z, x, y);
  tf::session sess;
  CHECK(sess.run(tf::gradient(z_stop, c), tf::feed(x, 1.0)) == 1.0);
  const auto [vx, vy] = sess.run(tf::fetch(gx, gy), tf::feed(x, 1.0));
  CHECK(vx == 6.0);
  CHECK(vy == 3.0);
}

TEST_CASE("GradientsTest.testAggregationMethod{AccumulateN,AddN,Tree}: a tensor used ten times") {
  // y = x * 2.0; z = y + y + ... + y (ten times); gradients(z, [x, y]) == [20, 10]
  auto y = x * tf::constant<2.0>();
  auto z = y + y + y + y + y + y + y + y + y + y;
  auto [gx, gy] = tf::gradients(z, x, y);
  tf::session sess;
  const auto [vx, vy] = sess.run(tf::fetch(gx, gy), tf::feed(x, 1.0));
  CHECK(vx == 20.0);
  CHECK(vy == 10.0);
}

TEST_CASE("GradientsTest.testDependentYs: gradients of y + y2, where y2 depends on y") {
  // x = 3; y = square(x); y1 = square(y); y2 = square(y1); gradients([y, y2], x) == 17502
  auto y = tf::square(x);
  auto y2 = tf::square(tf::square(y));
  tf::session sess;
  // numpy reference: d/dx (x^2 + x^8) = 2 x + 8 x^7
  const double want = 2 * 3.0 + 8 * std::pow(3.0, 7);
  CHECK(want == 17502.0);
  CHECK(sess.run(tf::gradient(y + y2, x), tf::feed(x, 3.0)) == want);
  // z = identity(y); z2 = identity(y2); gradients([z, z2], x)
  CHECK(sess.run(tf::gradient(tf::identity(y) + tf::identity(y2), x), tf::feed(x, 3.0)) == want);
}

TEST_CASE("GradientsTest.testPartialDerivatives: stop_gradient where TensorFlow takes stop_gradients=") {
  // x = 1; y = 2 * x; z = x + y: gradients(z, [x, y]) == [3, 1]
  auto y = tf::constant<2.0>() * x;
  auto z = x + y;
  auto [total_x, total_y] = tf::gradients(z, x, y);
  // gradients(z, [x, y], stop_gradients=[x, y]) == [1, 1]: the path from x through y is cut,
  // which typeflow spells in the graph: y = 2 * stop_gradient(x).
  auto y_stopped = tf::constant<2.0>() * tf::stop_gradient(x);
  auto z_partial = x + y_stopped;
  auto [partial_x, partial_y] = tf::gradients(z_partial, x, y_stopped);
  tf::session sess;
  const auto [tx, ty, px, py] = sess.run(tf::fetch(total_x, total_y, partial_x, partial_y), tf::feed(x, 1.0));
  CHECK(tx == 3.0);
  CHECK(ty == 1.0);
  CHECK(px == 1.0);
  CHECK(py == 1.0);
  CHECK(sess.run(z_partial, tf::feed(x, 1.0)) == sess.run(z, tf::feed(x, 1.0)));  // same value
}

TEST_CASE("GradientsTest.testUnconnectedGradientsZeros{Unconnected,Connected}Gradients") {
  // x = constant(1.0, shape=[2, 2]); y = constant(3.0, shape=[3, 1]):
  // gradients([y], [x], unconnected_gradients="zero") == [[0, 0], [0, 0]]
  auto u = tf::placeholder<"u", double, shape<2, 2>>();
  auto v = tf::placeholder<"v", double, shape<3, 1>>();
  auto g = tf::gradient(v, u);
  static_assert(std::is_same_v<tf::shape_of<decltype(g)>, shape<2, 2>>);
  // the zeros read neither x nor y: nothing needs a feed
  using path = tf::graph::path_order<boost::mp11::mp_list<decltype(g)>, boost::mp11::mp_list<>>;
  static_assert(!tf::contains_v<path, decltype(u)> && !tf::contains_v<path, decltype(v)>);
  tf::session sess;
  CHECK(sess.run(g) == fixed<double, 2, 2>{{0, 0}, {0, 0}});
  // y = x * 3.0: gradients([y], [x], unconnected_gradients="zero") == 3
  CHECK(sess.run(tf::gradient(x * tf::constant<3.0>(), x), tf::feed(x, 1.0)) == 3.0);
}

TEST_CASE("GradientsTest.testVariableReadValueGradient / testVariableDefaultGrad (float32, float64)") {
  // var = Variable(100.0): gradients(var.read_value(), var) is not None (ones)
  auto var = tf::variable<"var", double>(tf::init::constant(100.0));
  auto var32 = tf::variable<"var32", float>(tf::init::constant(100.0));
  tf::session sess(var, var32);
  sess.initialize_all();
  CHECK(sess.run(tf::gradient(tf::identity(var), var)) == 1.0);
  // gradients(dummy_const, var, unconnected_gradients=ZERO): var's dtype, zeros
  auto dummy_const = tf::placeholder<"dummy_const", float>();
  auto g64 = tf::gradient(dummy_const, var);
  auto g32 = tf::gradient(dummy_const, var32);
  static_assert(std::is_same_v<tf::value_type_of<decltype(g64)>, double>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(g32)>, float>);
  CHECK(sess.run(g64) == 0.0);
  CHECK(sess.run(g32) == 0.0f);
}

TEST_CASE("StopGradientTest.testStopGradient: gradients(stop_gradient(inp), inp) is None: zeros") {
  auto inp = tf::placeholder<"in", double, shape<100, 32>>();
  auto out = tf::stop_gradient(inp);
  auto igrad = tf::gradient(out, inp);
  static_assert(std::is_same_v<tf::shape_of<decltype(igrad)>, shape<100, 32>>);
  tf::session sess;
  check_all_equal(sess.run(igrad), 0.0);  // without a feed: the zeros do not read inp
}

TEST_CASE("gradients of integer tensors: TensorFlow's backprop reaches no integer x (None): zeros") {
  // TensorFlow 1.x's gradients_util._MarkReachedOps only follows floating tensors from the xs,
  // so tf.gradients(reduce_sum(xi * xi), xi) is [None] for an int32 xi.
  auto xi = tf::placeholder<"xi", std::int32_t, shape<3>>();
  auto yi = tf::reduce_sum(xi * xi);
  auto gi = tf::gradient(yi, xi);
  static_assert(std::is_same_v<tf::value_type_of<decltype(gi)>, std::int32_t>);
  using path = tf::graph::path_order<boost::mp11::mp_list<decltype(gi)>, boost::mp11::mp_list<>>;
  static_assert(!tf::contains_v<path, decltype(xi)>, "the integer graph is not differentiated");
  tf::session sess;
  CHECK(sess.run(gi) == fixed<std::int32_t, 3>{0, 0, 0});
  // and an int64 x of a float y (through a cast, which lets no gradient through either)
  auto xl = tf::placeholder<"xl", std::int64_t>();
  auto yl = tf::square(tf::cast<double>(xl)) + x;
  auto [gl, gx] = tf::gradients(yl, xl, x);
  CHECK(sess.run(tf::fetch(gl, gx), tf::feed(xl, std::int64_t{3}), tf::feed(x, 2.0)) == std::tuple{std::int64_t{0}, 1.0});
}

TEST_CASE("GradientsTest.testSingletonIndexedSlices (dense): the grad_ys of identity pass through") {
  // y = identity(x); dx = gradients(y, x, grad_ys=dy): dx == dy
  auto xv = tf::placeholder<"xv", double, shape<1>>();
  auto dy = tf::placeholder<"dy", double, shape<1>>();
  auto dx = tf::gradient(tf::grad_ys(tf::identity(xv), dy), xv);
  tf::session sess;
  const auto [vdx, vdy] = sess.run(tf::fetch(dx, dy), tf::feed(xv, fixed<double, 1>{1.0}), tf::feed(dy, fixed<double, 1>{2.0}));
  CHECK(vdx == vdy);
  CHECK(vdx == fixed<double, 1>{2.0});
}

TEST_CASE("HessianVectorProductTest.testHessianVectorProduct: the gradient of <gradient, v> is (A + A^T) v") {
  // f(x) = x^T A x, m = 4: H = A + A^T, and _hessian_vector_product(f, [x], [v]) == H v.
  // TensorFlow draws A, x and v from RandomState([1, 2, 3]); here they are fixed values, and
  // H v is computed by hand as the test's numpy does.
  constexpr std::size_t m = 4;
  const fixed<double, m, m> mat_value = {{0.5, -1.25, 2.0, 0.75}, {1.5, 0.25, -0.5, 1.0}, {-2.0, 0.125, 1.75, -0.375},
                                        {0.625, -1.5, 0.25, 2.25}};
  const fixed<double, m, 1> v_value = {{1.0}, {-2.0}, {0.5}, {3.0}};
  const fixed<double, m, 1> x_value = {{-0.5}, {1.5}, {2.0}, {-1.0}};
  auto mat = tf::placeholder<"mat", double, shape<m, m>>();
  auto v = tf::placeholder<"v", double, shape<m, 1>>();
  auto xm = tf::placeholder<"xm", double, shape<m, 1>>();
  auto mat_x = tf::matmul(mat, xm);
  auto x_mat_x = tf::matmul(tf::transpose(xm), mat_x);  // [1, 1]
  auto grad = tf::gradient(x_mat_x, xm);
  auto hess_v = tf::gradient(tf::reduce_sum(grad * tf::stop_gradient(v)), xm);
  tf::session sess;
  const auto got = sess.run(hess_v, tf::feed(mat, mat_value), tf::feed(v, v_value), tf::feed(xm, x_value));
  for (std::size_t i = 0; i < m; ++i) {
    double want = 0;
    for (std::size_t j = 0; j < m; ++j) want += (mat_value(i, j) + mat_value(j, i)) * v_value(j, 0);
    INFO("row " << i);
    CHECK(got(i, 0) == doctest::Approx(want).epsilon(1e-12));
  }
}

TEST_CASE("gradients through embedding_lookup: the gradient of a table read twice sums both reads") {
  // The sparse (IndexedSlices) gradient of gather, aggregated over two uses, as
  // tf.gradients(y, params) of two embedding_lookups: its dense value is numpy's add.at.
  auto params = tf::variable<"params", double, shape<4, 2>>(tf::init::ones());
  auto ids_a = tf::placeholder<"ids_a", std::int32_t, shape<3>>();
  auto ids_b = tf::placeholder<"ids_b", std::int32_t, shape<2>>();
  auto y = tf::reduce_sum(tf::embedding_lookup(params, ids_a)) +
           tf::reduce_sum(tf::embedding_lookup(params, ids_b) * tf::constant<2.0>());
  auto g = tf::gradient(y, params);
  static_assert(tf::indexed_slices<decltype(g)>, "two lookups: a sum of IndexedSlices");
  tf::session sess(y);
  sess.initialize_all();
  const fixed<std::int32_t, 3> a = {0, 2, 0};
  const fixed<std::int32_t, 2> b = {2, 3};
  fixed<double, 4, 2> want = xt::zeros<double>({4, 2});
  for (auto i : a) want(static_cast<std::size_t>(i), 0) += 1, want(static_cast<std::size_t>(i), 1) += 1;
  for (auto i : b) want(static_cast<std::size_t>(i), 0) += 2, want(static_cast<std::size_t>(i), 1) += 2;
  CHECK(sess.run(g, tf::feed(ids_a, a), tf::feed(ids_b, b)) == want);
}
