// tf.while_loop (control/while_loop.hpp), ported from TensorFlow 1.x's
// control_flow_ops_py_test.py: testWhile_1, testWhile_2, testWhileWithMaximumIterations,
// testWhileWithMaximumIterationsAndSingleArgument, testWhile_3, testWhile_4,
// testWhileGrad_BaseShape (a loop that runs zero times), testNestedWhile_2,
// testWhileGrad_Square, testWhileGrad_MultipleUses, testWhileGrad_LoopAdd,
// testWhileGrad_Mul, testWhileGrad_Variable, testWhileGrad_ys_xs, testWhileGrad_Dependency,
// testWhileGrad_StopGrad, testWhileGrad_StopGradInside, testWhileGrad_Shape, the loop of
// testWhileGradInCond, testNestedWhileGrad_Simple, testWhileGrad_NoDependency,
// testWhileCondGrad_Simple; a bool loop variable, and a loop's gradients against central
// differences. The values are the tests'. testWhileGrad_Shape is also kept as written (its
// variable grows from [1] to x's size in the first step): TensorFlow lets it grow, typeflow
// raises InvalidArgument naming the loop and the shapes. TensorFlow's constants whose gradient a test takes are named constants
// here (initial values: `tf::constant<"v">(2.0f)`, TensorFlow's name="v"), and fed
// placeholders where the body reads them (a gradient reaches the placeholders and
// variables a body reads, not its constants). TensorFlow's gradients of int32 tensors
// (None) are left out, and its None gradients (stop_gradient) are zeros here. Not ported:
// bodies that assign or enqueue (testWhileUpdateVariable_*, testWhileQueue_1,
// testWhileStack_1: a body is free of side effects), shape invariants that let a variable
// grow (testWhile_5, testWhileShape, testWhileGrad_Concat), SparseTensor and IndexedSlices
// variables, nested structures of loop variables (testWhile_NestedInput), control
// dependencies, devices, XLA contexts, and gradients taken inside a body
// (testWhileGradInWhile, testCallGradInLoop). parallel_iterations and back_prop have no
// counterpart. Last, a training step through a while loop allocates nothing once it has run
// its most steps.
#include <doctest/doctest.h>

#include <cstdint>
#include <tuple>
#include <type_traits>

#include <typeflow/control/cond.hpp>
#include <typeflow/control/while_loop.hpp>
#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"
#include "../support/allocation_counter.hpp"

namespace tf = typeflow;

namespace {

// isum(s, maximum_iterations) of control_flow_ops_py_test.py: i from 0 while i < 10,
// s + i at each step.
constexpr auto isum_cond = [](auto i, auto) { return tf::less(i, tf::constant<10>()); };
constexpr auto isum_body = [](auto i, auto s) { return std::tuple{tf::add(i, tf::constant<1>()), tf::add(i, s)}; };

template <class T, std::size_t N>
using fixed = xt::xtensor_fixed<T, xt::xshape<N>>;

}  // namespace

TEST_CASE("while_loop: testWhile_1, counting to 10000") {
  auto n = tf::constant<0>();
  auto r = tf::while_loop([](auto x) { return tf::less(x, tf::constant<10000>()); },
                          [](auto x) { return tf::add(x, tf::constant<1>()); }, n);
  static_assert(std::is_same_v<tf::value_type_of<decltype(r)>, std::int32_t>);
  static_assert(std::is_same_v<tf::shape_of<decltype(r)>, tf::shape<>>);
  tf::session s(r);
  CHECK(s.run(r) == 10000);
  CHECK(s.run(r) == 10000);  // a second run starts again from n
}

TEST_CASE("while_loop: testWhile_2, two variables (isum)") {
  auto i = tf::constant<"i">(0);
  auto s0 = tf::constant<0>();
  auto [ri, rs] = tf::while_loop(isum_cond, isum_body, std::tuple{i, s0});
  static_assert(std::is_same_v<tf::value_type_of<decltype(rs)>, std::int32_t>);
  tf::session s(ri, rs);
  const auto [a, b] = s.run(tf::fetch(ri, rs));
  CHECK(a == 10);
  CHECK(b == 45);
}

TEST_CASE("while_loop: testWhileWithMaximumIterations") {
  // isum(s, maximum_iterations=3) of s = [1, 2, 3, 4, 5]: the loop stops after 3 steps,
  // with i < 10 still true; s + 0 + 1 + 2.
  auto i = tf::constant<"i">(0);
  auto s0 = tf::constant<"s">(fixed<std::int32_t, 5>{1, 2, 3, 4, 5});
  auto [ri, rs] = tf::while_loop(isum_cond, isum_body, std::tuple{i, s0}, tf::constant<3>());
  static_assert(std::is_same_v<tf::shape_of<decltype(rs)>, tf::shape<5>>);
  tf::session s(ri, rs);
  const auto [a, b] = s.run(tf::fetch(ri, rs));
  CHECK(a == 3);
  CHECK(b == fixed<std::int32_t, 5>{1 + 3, 2 + 3, 3 + 3, 4 + 3, 5 + 3});
}

TEST_CASE("while_loop: testWhileWithMaximumIterationsAndSingleArgument, and maximum_iterations <= 0") {
  // The original's maximum_iterations=1 is fed here, and so are the other bounds: 0 and a
  // negative bound run no step; a bound above cond's stops at cond.
  auto m = tf::placeholder<"maximum_iterations", std::int32_t>();
  auto r = tf::while_loop([](auto i) { return tf::less(i, tf::constant<3>()); },
                          [](auto i) { return i + tf::constant<1>(); }, tf::constant<0>(), m);
  tf::session s(r);
  CHECK(s.run(r, tf::feed(m, 1)) == 1);
  CHECK(s.run(r, tf::feed(m, 2)) == 2);
  CHECK(s.run(r, tf::feed(m, 0)) == 0);
  CHECK(s.run(r, tf::feed(m, -1)) == 0);
  CHECK(s.run(r, tf::feed(m, 3)) == 3);
  CHECK(s.run(r, tf::feed(m, 100)) == 3);
}

TEST_CASE("while_loop: testWhile_3, four variables") {
  auto compute = [](auto i, auto m, auto c, auto o) {
    auto m1 = tf::add(m, tf::constant<1>());
    auto c1 = tf::add(c, tf::constant<1>());
    auto o1 = tf::add(tf::add(o, m1), c1);
    return std::tuple{tf::add(i, tf::constant<1>()), m1, c1, o1};
  };
  auto d = tf::constant<100>();
  auto r = tf::while_loop([&](auto i, auto, auto, auto) { return tf::less(i, d); }, compute,
                          std::tuple{tf::constant<"i">(0), tf::constant<"m">(0), tf::constant<"c">(0), tf::constant<"o">(0)});
  auto o = std::get<3>(r);
  tf::session s(o);
  CHECK(s.run(o) == 10100);
}

TEST_CASE("while_loop: testWhile_4, gather at the counter, cond reads size(x)") {
  auto x = tf::constant<"x">(fixed<std::int32_t, 6>{1, 2, 3, 4, 5, 6});
  auto sz = tf::size(x);
  auto compute = [&](auto i, auto, auto, auto o) {
    auto m1 = tf::gather(x, i);
    auto c1 = tf::gather(x, i);
    auto o1 = tf::add(tf::add(o, m1), c1);
    return std::tuple{tf::add(i, tf::constant<1>()), m1, c1, o1};
  };
  auto r = tf::while_loop([&](auto i, auto, auto, auto) { return tf::less(i, sz); }, compute,
                          std::tuple{tf::constant<"i">(0), tf::constant<"m">(0), tf::constant<"c">(0), tf::constant<"o">(0)});
  auto [ri, rm, rc, ro] = r;
  tf::session s(ri, rm, rc, ro);
  const auto [a, b, c, d] = s.run(tf::fetch(ri, rm, rc, ro));
  CHECK(a == 6);
  CHECK(b == 6);
  CHECK(c == 6);
  CHECK(d == 42);
}

TEST_CASE("while_loop: a bool loop variable, which cond returns") {
  // Not a TensorFlow case: a flag carried by the loop is its condition.
  auto [i, more] = tf::while_loop<"flag">(
      [](auto, auto more) { return more; },
      [](auto i, auto) {
        auto i1 = i + tf::constant<1>();
        return std::tuple{i1, tf::less(i1, tf::constant<4>())};
      },
      std::tuple{tf::constant<0>(), tf::constant<true>()});
  static_assert(std::is_same_v<tf::value_type_of<decltype(more)>, bool>);
  tf::session s(i, more);
  const auto [a, b] = s.run(tf::fetch(i, more));
  CHECK(a == 4);
  CHECK(b == false);
}

TEST_CASE("while_loop: testWhileGrad_BaseShape, a loop that runs zero times") {
  // cond is false from the start: r is v0, and reaches no x; the gradient of [r, y] is
  // y = x^2's: 2 x.
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn>>();
  auto v0 = tf::constant<"v">(fixed<float, 2>{2.0f, 2.0f});
  auto r = tf::while_loop([](auto) { return tf::constant<false>(); }, [&](auto v) { return tf::multiply(v, x); }, v0);
  static_assert(std::is_same_v<tf::shape_of<decltype(r)>, tf::shape<2>>);
  auto y = tf::square(x);
  auto g = tf::gradient(tf::reduce_sum(r) + tf::reduce_sum(y), x);
  tf::session s(r, g);
  const auto [rv, gv] = s.run(tf::fetch(r, g), tf::feed(x, xt::xtensor<float, 1>{1.0f, 2.0f}));
  CHECK(rv == fixed<float, 2>{2.0f, 2.0f});
  CHECK(gv == xt::xtensor<float, 1>{2.0f, 4.0f});
}

TEST_CASE("while_loop: testNestedWhile_2, a while_loop in the body of another") {
  // The inner loop doubles s while s < 20: 2 -> 32, squared 1024; the second time
  // 1024 >= 20 and the inner loop runs zero times; 1024^2 = 1048576 ends the outer loop.
  // (The original's Print in the body is left out: a body is free of side effects.)
  auto s0 = tf::constant<2.0f>();
  auto inner_loop = [](auto s) {
    return tf::while_loop<"inner">([](auto s) { return tf::less(s, tf::constant<20.0f>()); },
                                   [](auto s) { return tf::add(s, s); }, s);
  };
  auto r = tf::while_loop([](auto x) { return tf::less(x, tf::constant<3000.0f>()); },
                          [&](auto x) { return tf::square(inner_loop(x)); }, s0);
  tf::session s(r);
  CHECK(s.run(r) == 1048576.0f);
}

TEST_CASE("while_loop: testWhileGrad_Square, testWhileGrad_MultipleUses, testWhileGrad_LoopAdd") {
  // v = 2 squared while v < 100: 2, 4, 16, 256 = v^8; d/dv = 8 v^7 = 1024. (The original
  // passes r through cond(1 < 2, r, v) first, which changes nothing.)
  auto v = tf::constant<"v">(2.0f);
  auto r = tf::while_loop([](auto v) { return tf::less(v, tf::constant<100.0f>()); },
                          [](auto v) { return tf::square(v); }, v);
  auto g = tf::gradient(r, v);
  auto g_mul = tf::gradient(tf::multiply(r, r), v);  // testWhileGrad_MultipleUses
  auto g_add = tf::gradient(tf::add(r, r), v);       // testWhileGrad_LoopAdd
  tf::session s(r, g, g_mul, g_add);
  const auto [rv, gv, gm, ga] = s.run(tf::fetch(r, g, g_mul, g_add));
  CHECK(rv == 256.0f);
  CHECK(gv == doctest::Approx(1024.0f));
  CHECK(gm == doctest::Approx(524288.0f));
  CHECK(ga == doctest::Approx(2048.0f));
}

TEST_CASE("while_loop: testWhileGrad_Mul") {
  // v * a while v < 100: 2, 6, 18, 54, 162 = v a^4; d/da = 4 v a^3 = 216, d/dv = a^4 = 81.
  // The body reads a: a placeholder fed the original's constant 3.
  auto a = tf::placeholder<"a", float>();
  auto v = tf::constant<"v">(2.0f);
  auto r = tf::while_loop([](auto v) { return tf::less(v, tf::constant<100.0f>()); },
                          [&](auto v) { return tf::multiply(v, a); }, v);
  auto [grad_a, grad_v] = tf::gradients(r, a, v);
  tf::session s(r, grad_a, grad_v);
  const auto [rv, ga, gv] = s.run(tf::fetch(r, grad_a, grad_v), tf::feed(a, 3.0f));
  CHECK(rv == 162.0f);
  CHECK(ga == doctest::Approx(216.0f));
  CHECK(gv == doctest::Approx(81.0f));
}

TEST_CASE("while_loop: testWhileGrad_Variable") {
  auto a = tf::variable<"a", float, tf::shape<>, tf::init::constant(3.0)>();
  auto v = tf::constant<"v">(2.0f);
  auto r = tf::while_loop([](auto v) { return tf::less(v, tf::constant<100.0f>()); },
                          [&](auto v) { return tf::multiply(v, a); }, v);
  auto g = tf::gradient(r, a);
  tf::session s(r, g);
  s.initialize_all();
  const auto [rv, gv] = s.run(tf::fetch(r, g));
  CHECK(rv == 162.0f);
  CHECK(gv == doctest::Approx(216.0f));
}

TEST_CASE("while_loop: testWhileGrad_ys_xs, gradients of two variables") {
  // (x, y) = (3, 2) -> (15, 5) -> (300, 20).
  auto x = tf::constant<"x">(3.0f);
  auto y = tf::constant<"y">(2.0f);
  auto [rx, ry] = tf::while_loop([](auto x, auto) { return tf::less(x, tf::constant<100.0f>()); },
                                 [](auto x, auto y) {
                                   auto y1 = tf::add(x, y);
                                   auto x1 = tf::multiply(x, y1);
                                   return std::tuple{x1, y1};
                                 },
                                 std::tuple{x, y});
  auto [both_x, both_y] = tf::gradients(rx + ry, x, y);  // gradients([rx, ry], ...)
  auto [rx_x, rx_y] = tf::gradients(rx, x, y);
  tf::session s(rx, ry, both_x, both_y, rx_x, rx_y);
  const auto [a, b, g1, g2, g3, g4] = s.run(tf::fetch(rx, ry, both_x, both_y, rx_x, rx_y));
  CHECK(a == 300.0f);
  CHECK(b == 20.0f);
  CHECK(g1 == doctest::Approx(304.0f));
  CHECK(g2 == doctest::Approx(124.0f));
  CHECK(g3 == doctest::Approx(295.0f));
  CHECK(g4 == doctest::Approx(120.0f));
}

TEST_CASE("while_loop: testWhileGrad_Dependency, an int counter beside a float variable") {
  // x doubled 10 times: d/dx = 1024. The original's gradients([ri, rx], x) adds ri's,
  // which TensorFlow skips (int32): the gradient of rx.
  auto i = tf::constant<"i">(0);
  auto x = tf::constant<"x">(2.0f);
  auto [ri, rx] = tf::while_loop([](auto i, auto) { return tf::less(i, tf::constant<10>()); },
                                 [](auto i, auto x) {
                                   return std::tuple{tf::add(i, tf::constant<1>()), tf::multiply(x, tf::constant<2.0f>())};
                                 },
                                 std::tuple{i, x});
  static_assert(std::is_same_v<tf::value_type_of<decltype(ri)>, std::int32_t>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(rx)>, float>);
  auto g = tf::gradient(rx, x);
  tf::session s(ri, rx, g);
  const auto [a, b, gv] = s.run(tf::fetch(ri, rx, g));
  CHECK(a == 10);
  CHECK(b == 2048.0f);
  CHECK(gv == doctest::Approx(1024.0f));
}

TEST_CASE("while_loop: testWhileGrad_StopGrad, testWhileGrad_StopGradInside") {
  // (x, y) = (3, 2) -> (13, 4) -> (185, 16): rx = (x^2 + y^2)^2 + y^4, ry = y^4.
  auto x = tf::constant<"x">(3.0f);
  auto y = tf::constant<"y">(2.0f);
  auto cond = [](auto x, auto) { return tf::less(x, tf::constant<100.0f>()); };
  auto [rx, ry] = tf::while_loop(
      cond,
      [](auto x, auto y) {
        auto y1 = tf::square(y);
        auto x1 = tf::add(tf::square(x), y1);
        return std::tuple{x1, y1};
      },
      std::tuple{x, y});
  auto g1 = tf::gradient(rx, y);
  auto g2 = tf::gradient(ry, y);
  auto g3 = tf::gradient(tf::stop_gradient(rx), y);  // TensorFlow: None
  auto g4 = tf::gradient(tf::stop_gradient(tf::add(rx, ry)), x);
  auto g5 = tf::gradient(tf::add(rx, ry), y);
  auto g6 = tf::gradient(tf::add(rx, tf::stop_gradient(ry)), y);
  auto g7 = tf::gradient(tf::add(tf::stop_gradient(rx), ry), y);
  // testWhileGrad_StopGradInside: y1 = stop_gradient(y^2) in the body.
  auto [ix, iy] = tf::while_loop<"inside">(
      cond,
      [](auto x, auto y) {
        auto y1 = tf::stop_gradient(tf::square(y));
        auto x1 = tf::add(tf::square(x), y1);
        return std::tuple{x1, y1};
      },
      std::tuple{x, y});
  auto g8 = tf::gradient(ix, y);
  auto g9 = tf::gradient(ix, x);
  tf::session s(rx, ry, g1, g2, g3, g4, g5, g6, g7, ix, iy, g8, g9);
  const auto [a, b, v1, v2, v3, v4, v5, v6, v7] = s.run(tf::fetch(rx, ry, g1, g2, g3, g4, g5, g6, g7));
  CHECK(a == 185.0f);
  CHECK(b == 16.0f);
  CHECK(v1 == doctest::Approx(136.0f));
  CHECK(v2 == doctest::Approx(32.0f));
  CHECK(v3 == 0.0f);
  CHECK(v4 == 0.0f);
  CHECK(v5 == doctest::Approx(168.0f));
  CHECK(v6 == doctest::Approx(136.0f));
  CHECK(v7 == doctest::Approx(32.0f));
  const auto [c, d, v8, v9] = s.run(tf::fetch(ix, iy, g8, g9));
  CHECK(c == 185.0f);
  CHECK(d == 16.0f);
  CHECK(v8 == doctest::Approx(0.0f));
  CHECK(v9 == doctest::Approx(156.0f));
}

TEST_CASE("while_loop: testWhileGrad_Shape, a body that reads a fed placeholder, of a dynamic first dim") {
  // v = x * v five times: x^5 v0; d/dx sum = 5 x^4 v0 = [810, 2560] at x = [3, 4], v0 = 2.
  // The original's v0 is [2.0] with an unknown shape invariant (it grows to x's size in the
  // first step); here v0 has x's size from the start: [2.0, 2.0], fed.
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn>>();
  auto v0 = tf::placeholder<"v0", float, tf::shape<tf::dyn>>();
  auto n = tf::constant<"n">(0);
  auto [ri, rv] = tf::while_loop([](auto i, auto) { return tf::less(i, tf::constant<5>()); },
                                 [&](auto i, auto v) { return std::tuple{i + tf::constant<1>(), tf::multiply(x, v)}; },
                                 std::tuple{n, v0});
  static_assert(std::is_same_v<tf::shape_of<decltype(rv)>, tf::shape<tf::dyn>>);
  auto [gx, gv0] = tf::gradients(rv, x, v0);
  static_assert(std::is_same_v<tf::shape_of<decltype(gx)>, tf::shape<tf::dyn>>);
  tf::session s(ri, rv, gx, gv0);
  using vec = xt::xtensor<float, 1>;
  const auto [a, b, g, h] =
      s.run(tf::fetch(ri, rv, gx, gv0), tf::feed(x, vec{3.0f, 4.0f}), tf::feed(v0, vec{2.0f, 2.0f}));
  CHECK(a == 5);
  CHECK(b == vec{486.0f, 2048.0f});
  CHECK(xt::allclose(g, vec{810.0f, 2560.0f}));
  CHECK(xt::allclose(h, vec{243.0f, 1024.0f}));
  // Another batch in the same session.
  const auto [b3, g3] = s.run(tf::fetch(rv, gx), tf::feed(x, vec{1.0f, -1.0f, 2.0f}), tf::feed(v0, vec{1.0f, 1.0f, 1.0f}));
  CHECK(b3 == vec{1.0f, -1.0f, 32.0f});
  CHECK(xt::allclose(g3, vec{5.0f, 5.0f, 80.0f}));
}

TEST_CASE("while_loop: testWhileGrad_Shape as written, a variable that grows in the first step, and one that shrinks") {
  // v0 = [2.0] broadcasts against x = [3, 4] in the first step: the variable's dynamic first
  // dim changes between steps, which TensorFlow allows with shape_invariants and typeflow does
  // not (docs/reference/loops.md): the run fails naming the loop and the shapes, and the
  // session is usable after it. So does a variable that shrinks (a gather of fewer rows).
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn>>();
  auto v0 = tf::placeholder<"v0", float, tf::shape<tf::dyn>>();
  auto n = tf::constant<"n">(0);
  auto [ri, rv] = tf::while_loop([](auto i, auto) { return tf::less(i, tf::constant<5>()); },
                                 [&](auto i, auto v) { return std::tuple{i + tf::constant<1>(), tf::multiply(x, v)}; },
                                 std::tuple{n, v0});
  auto gx = tf::gradient(rv, x);
  tf::session s(rv, gx);
  using vec = xt::xtensor<float, 1>;
  CHECK_THROWS_WITH_AS(s.run(tf::fetch(rv, gx), tf::feed(x, vec{3.0f, 4.0f}), tf::feed(v0, vec{2.0f})),
                       "InvalidArgument: while: loop variable 1 has shape [1] before a step and [2] after it; a loop "
                       "variable keeps its shape in every step",
                       tf::invalid_argument_error);
  const auto [b, g] = s.run(tf::fetch(rv, gx), tf::feed(x, vec{3.0f, 4.0f}), tf::feed(v0, vec{2.0f, 2.0f}));
  CHECK(b == vec{486.0f, 2048.0f});
  CHECK(xt::allclose(g, vec{810.0f, 2560.0f}));

  auto idx = tf::placeholder<"idx", std::int32_t, tf::shape<tf::dyn>>();
  auto w0 = tf::placeholder<"w0", float, tf::shape<tf::dyn>>();
  auto shrunk = tf::while_loop<"shrink">([](auto) { return tf::constant<true>(); },
                                         [&](auto w) { return tf::gather(w, idx) * tf::constant<2.0f>(); }, w0,
                                         tf::constant<2>());
  tf::session s2(shrunk);
  CHECK_THROWS_WITH_AS(s2.run(shrunk, tf::feed(w0, vec{1.0f, 2.0f, 3.0f}), tf::feed(idx, xt::xtensor<std::int32_t, 1>{0})),
                       "InvalidArgument: shrink: loop variable 0 has shape [3] before a step and [1] after it; a loop "
                       "variable keeps its shape in every step",
                       tf::invalid_argument_error);
  CHECK(s2.run(shrunk, tf::feed(w0, vec{1.0f, 2.0f, 3.0f}), tf::feed(idx, xt::xtensor<std::int32_t, 1>{2, 1, 0})) ==
        vec{4.0f, 8.0f, 12.0f});
}

TEST_CASE("while_loop: the loop of testWhileGradInCond, a body that reads a fed scalar placeholder") {
  // n + x while n < 10, from n = 1: the gradient with respect to x is the number of steps.
  auto n = tf::constant<"n">(1.0f);
  auto x = tf::placeholder<"x", float>();
  auto r = tf::while_loop([](auto n) { return tf::less(n, tf::constant<10.0f>()); },
                          [&](auto n) { return tf::add(n, x); }, n);
  auto g = tf::gradient(r, x);
  tf::session s(r, g);
  const auto [r1, g1] = s.run(tf::fetch(r, g), tf::feed(x, 1.0f));
  CHECK(r1 == 10.0f);
  CHECK(g1 == doctest::Approx(9.0f));  // the original's value
  const auto [r3, g3] = s.run(tf::fetch(r, g), tf::feed(x, 3.0f));
  CHECK(r3 == 10.0f);
  CHECK(g3 == doctest::Approx(3.0f));
  const auto [r20, g20] = s.run(tf::fetch(r, g), tf::feed(x, 20.0f));
  CHECK(r20 == 21.0f);
  CHECK(g20 == doctest::Approx(1.0f));
}

TEST_CASE("while_loop: testNestedWhileGrad_Simple") {
  // The inner loop doubles x while x < 4 (1 -> 4), the outer doubles that once more: 8 v.
  auto v = tf::constant<"v">(1.0f);
  auto inner_loop = [](auto s) {
    return tf::while_loop<"inner">([](auto x) { return tf::less(x, tf::constant<4.0f>()); },
                                   [](auto x) { return tf::multiply(x, tf::constant<2.0f>()); }, s);
  };
  auto r = tf::while_loop([](auto x) { return tf::less(x, tf::constant<2.0f>()); },
                          [&](auto x) { return tf::multiply(inner_loop(x), tf::constant<2.0f>()); }, v);
  auto g = tf::gradient(r, v);
  tf::session s(r, g);
  const auto [rv, gv] = s.run(tf::fetch(r, g));
  CHECK(rv == 8.0f);
  CHECK(gv == doctest::Approx(8.0f));
}

TEST_CASE("while_loop: testWhileGrad_NoDependency, a variable as two loop variables") {
  // body(duration, tensor, _) = (duration + 1, tensor, tensor): the last variable is the
  // variable after the first step; its sum's gradient is ones.
  auto variable = tf::variable<"variable", float, tf::shape<2, 3>, tf::init::constant(1.0)>();
  auto duration = tf::constant<0>();
  auto tensors = tf::while_loop([](auto duration, auto, auto) { return tf::less(duration, tf::constant<10>()); },
                                [](auto duration, auto tensor, auto) {
                                  return std::tuple{duration + tf::constant<1>(), tensor, tensor};
                                },
                                std::tuple{duration, variable, variable});
  auto cost = tf::reduce_sum(std::get<2>(tensors));
  auto grad = tf::gradient(cost, variable);
  tf::session s(cost, grad);
  s.initialize_all();
  const auto [c, g] = s.run(tf::fetch(cost, grad));
  CHECK(c == 6.0f);
  CHECK(g == xt::xtensor_fixed<float, xt::xshape<2, 3>>(xt::ones<float>({2, 3})));
}

TEST_CASE("while_loop: testWhileCondGrad_Simple, a cond in the body") {
  auto v = tf::constant<"v">(2.0f);
  auto n = tf::constant<"n">(100.0f);
  auto one = tf::constant<"one">(1.0f);
  auto r = tf::while_loop([&](auto x) { return tf::less(x, n); },
                          [&](auto x) {
                            return tf::cond(tf::constant<true>(), [&] { return tf::square(x); },
                                            [&] { return tf::subtract(x, one); });
                          },
                          v);
  auto g = tf::gradient(r, v);
  tf::session s(r, g);
  const auto [rv, gv] = s.run(tf::fetch(r, g));
  CHECK(rv == 256.0f);
  CHECK(gv == doctest::Approx(1024.0f));
}

TEST_CASE("while_loop: gradients against central differences, an int64 counter and a double accumulator") {
  // h = tanh(h w) for n steps (a fed int64 bound that cond reads), acc adds up sum(h^2):
  // loss = acc + sum(h). n = 0 runs no step.
  auto n = tf::placeholder<"n", std::int64_t>();
  auto w = tf::placeholder<"w", double, tf::shape<3, 3>>();
  auto h0 = tf::placeholder<"h0", double, tf::shape<1, 3>>();
  auto [i, h, acc] = tf::while_loop<"rnn">(
      [&](auto i, auto, auto) { return tf::less(i, n); },
      [&](auto i, auto h, auto acc) {
        auto h1 = tf::tanh(tf::matmul(h, w));
        return std::tuple{i + tf::constant<1L>(), h1, acc + tf::reduce_sum(h1 * h1)};
      },
      std::tuple{tf::constant<0L>(), h0, tf::constant<0.0>()});
  static_assert(std::is_same_v<tf::value_type_of<decltype(i)>, std::int64_t>);
  auto loss = acc + tf::reduce_sum(h);
  tf::session s(i, loss, tf::gradient(loss, w), tf::gradient(loss, h0));
  const auto w0 = fd_check::uniform<tf::shape<3, 3>>();
  const auto h00 = fd_check::uniform<tf::shape<1, 3>>();
  for (const std::int64_t steps : {0, 1, 3}) {
    CAPTURE(steps);
    CHECK(s.run(i, tf::feed(n, steps), tf::feed(w, w0), tf::feed(h0, h00)) == steps);
    fd_check::check_gradient(s, loss, w, w0, tf::feed(h0, h00), tf::feed(n, steps));
    fd_check::check_gradient(s, loss, h0, h00, tf::feed(w, w0), tf::feed(n, steps));
  }
}

TEST_CASE("a while loop's training step allocates nothing after its run of the most steps") {
  // The loop's storage (the variables before each step, the values its gradient reads) grows
  // with the steps of a run and keeps its capacity: runs of as many steps or fewer allocate
  // nothing (the allocation rule of every loop, tests/rnn/rnn_allocation_test.cpp).
  auto x0 = tf::placeholder<"x0", float, tf::shape<tf::dyn, 3>>();
  auto n = tf::placeholder<"n", std::int32_t>();
  auto w = tf::variable<"w", float, tf::shape<3, 3>, tf::init::constant(0.1)>();
  auto [i, h] = tf::while_loop<"alloc">([&](auto i, auto) { return tf::less(i, n); },
                                       [&](auto i, auto h) { return std::tuple{i + tf::constant<1>(), tf::tanh(tf::matmul(h, w) + h)}; },
                                       std::tuple{tf::constant<0>(), x0});
  auto loss = tf::reduce_sum(tf::square(h));
  auto train = tf::train::gradient_descent(0.01).minimize(loss);
  tf::session sess(train, loss, i);
  sess.initialize_all();
  const xt::xtensor<float, 2> xv{{0.5f, -0.2f, 0.1f}, {0.3f, 0.3f, -0.4f}};
  auto step = [&](std::int32_t steps) {
    return sess.run(tf::fetch(train, loss, i), tf::feed(x0, xv), tf::feed(n, steps));
  };
  const float first = std::get<1>(step(12));
  const long before = typeflow_test::allocation_count();
  std::int32_t ran = 0;
  for (int k = 0; k < 10; ++k) ran += std::get<2>(step(12)) + std::get<2>(step(5)) + std::get<2>(step(0));
  CHECK(typeflow_test::allocation_count() - before == 0);
  CHECK(ran == 10 * 17);
  CHECK(std::get<1>(step(12)) < first);  // and it trains
}

TEST_CASE("a while loop without a gradient keeps nothing per step") {
  // A run that computes no gradient through the loop stores no state per step: after one run,
  // a run of ten thousand times as many steps allocates nothing.
  auto x0 = tf::placeholder<"x0", float, tf::shape<64>>();
  auto n = tf::placeholder<"n", std::int32_t>();
  auto [i, x] = tf::while_loop<"long">([&](auto i, auto) { return tf::less(i, n); },
                                      [](auto i, auto x) { return std::tuple{i + tf::constant<1>(), x * tf::constant<0.5f>() + tf::constant<1.0f>()}; },
                                      std::tuple{tf::constant<0>(), x0});
  tf::session sess(i, x);
  xt::xtensor_fixed<float, xt::xshape<64>> start;
  start.fill(0.0f);
  CHECK(std::get<0>(sess.run(tf::fetch(i, x), tf::feed(x0, start), tf::feed(n, 10))) == 10);
  const long before = typeflow_test::allocation_count();
  const auto [steps, last] = sess.run(tf::fetch(i, x), tf::feed(x0, start), tf::feed(n, 100000));
  CHECK(typeflow_test::allocation_count() - before == 0);
  CHECK(steps == 100000);
  CHECK(last(63) == doctest::Approx(2.0f));  // x -> 2, the fixed point of x / 2 + 1
}
