// tf.cond (control/cond.hpp), ported from TensorFlow 1.x's control_flow_ops_py_test.py:
// testCondTrue, testCondFalse, testCond_1, testCond_2, testCond_3 (a cond in a branch),
// testCond_6, testCond_7 (several results), testCondGrad_1, testCondGrad_2, testCondGrad_3
// (a gradient inside a branch), testCondGrad_Gather, testNestedCond_Simple; cond_v2_test.py's
// testSecondDerivative; and cond's gradients against central differences. The values are
// the tests'. What only the taken branch computes is checked by a branch that would fail if
// it ran. Not ported: the cases whose branches assign (testCond_4, testCondRef: a branch is
// free of side effects here, compile_fail.cond_branch_assigns), SparseTensor and
// IndexedSlices results, devices and queues, and cond_v2_test.py's testSecondDerivative (a
// loop's gradient, and so cond's, is not differentiated again). TensorFlow's Python-list
// results are flat std::tuples here. Last, tf.case (control/case.hpp, a chain of conds):
// control_flow_ops_test.py's CaseTest (testCase_withDefault, testCase_multiple_matches_exclusive,
// testCase_multiple_matches_non_exclusive, testCase_withoutDefault,
// testCase_withoutDefault_oneCondition; testCase_dict has no counterpart: the pairs are
// ordered), and a gradient through the case taken.
#include <doctest/doctest.h>

#include <cstdint>
#include <tuple>
#include <type_traits>

#include <typeflow/control/case.hpp>
#include <typeflow/control/cond.hpp>
#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"

namespace tf = typeflow;

TEST_CASE("cond: testCondTrue, testCondFalse") {
  auto x = tf::placeholder<"x", std::int32_t>();
  auto y = tf::placeholder<"y", std::int32_t>();
  auto z = tf::cond(tf::less(x, y), [&] { return x * tf::constant<17>(); }, [&] { return y + tf::constant<23>(); });
  static_assert(std::is_same_v<tf::value_type_of<decltype(z)>, std::int32_t>);
  static_assert(std::is_same_v<tf::shape_of<decltype(z)>, tf::shape<>>);
  tf::session s(z);
  CHECK(s.run(z, tf::feed(x, 2), tf::feed(y, 5)) == 34);
  CHECK(s.run(z, tf::feed(x, 2), tf::feed(y, 1)) == 24);
}

TEST_CASE("cond: testCond_1, testCond_2: a constant pred") {
  auto x = tf::placeholder<"x", float>();
  auto r1 = tf::cond<"cond_1">(tf::less(tf::constant<1>(), tf::constant<2>()), [&] { return x + tf::constant<1.0f>(); },
                               [&] { return x - tf::constant<1.0f>(); });
  auto r2 = tf::cond<"cond_2">(tf::less(tf::constant<1>(), tf::constant<0>()), [&] { return x + tf::constant<1.0f>(); },
                               [&] { return x - tf::constant<1.0f>(); });
  tf::session s(r1, r2);
  const auto [a, b] = s.run(tf::fetch(r1, r2), tf::feed(x, 10.0f));
  CHECK(a == 11.0f);
  CHECK(b == 9.0f);
}

TEST_CASE("cond: testCond_3, a cond in a branch") {
  auto x = tf::placeholder<"x", float>();
  auto pred = tf::less(tf::constant<1>(), tf::constant<2>());
  const auto fn1 = [&] { return x + tf::constant<1.0f>(); };
  const auto fn2 = [&] { return x - tf::constant<1.0f>(); };
  const auto fn3 = [&] { return tf::cond<"inner">(pred, fn1, fn2) + tf::constant<1.0f>(); };
  auto r = tf::cond(pred, fn3, fn2);
  tf::session s(r);
  CHECK(s.run(r, tf::feed(x, 10.0f)) == 12.0f);
}

TEST_CASE("cond: testCond_6, a variable's value through both branches") {
  auto v1 = tf::variable<"v1", std::int32_t, tf::shape<1>, tf::init::constant(7)>();
  auto age = tf::constant<3>();
  auto max_age = tf::constant<2>();
  auto r = tf::cond(tf::greater(age, max_age), [&] { return tf::identity(v1); }, [&] { return tf::identity(v1); });
  tf::session s(r);
  s.initialize_all();
  const xt::xtensor_fixed<std::int32_t, xt::xshape<1>> got = s.run(r);
  CHECK(got(0) == 7);
}

TEST_CASE("cond: testCond_7, several results") {
  auto x = tf::placeholder<"x", std::int32_t>();
  auto y = tf::placeholder<"y", std::int32_t>();
  auto pred = tf::placeholder<"pred", bool>();
  auto [r0, r1] = tf::cond(
      pred, [&] { return std::tuple{x + tf::constant<1>(), x + tf::constant<2>()}; }, [&] { return std::tuple{y, y}; });
  static_assert(std::is_same_v<tf::value_type_of<decltype(r1)>, std::int32_t>);
  tf::session s(r0, r1);
  const auto [a, b] = s.run(tf::fetch(r0, r1), tf::feed(x, 10), tf::feed(y, 200), tf::feed(pred, true));
  CHECK(a == 11);
  CHECK(b == 12);
  const auto [c, d] = s.run(tf::fetch(r0, r1), tf::feed(x, 10), tf::feed(y, 200), tf::feed(pred, false));
  CHECK(c == 200);
  CHECK(d == 200);
}

TEST_CASE("cond: several results of a shape") {
  auto x = tf::placeholder<"x", float, tf::shape<3, 2>>();
  auto pred = tf::placeholder<"pred", bool>();
  auto [sum, diff] = tf::cond(
      pred, [&] { return std::tuple{x + x, x - x}; }, [&] { return std::tuple{x * x, -x}; });
  static_assert(std::is_same_v<tf::shape_of<decltype(sum)>, tf::shape<3, 2>>);
  tf::session s(sum, diff);
  const xt::xtensor_fixed<float, xt::xshape<3, 2>> v = {{1, 2}, {3, 4}, {5, 6}};
  const auto [a, b] = s.run(tf::fetch(sum, diff), tf::feed(x, v), tf::feed(pred, true));
  CHECK(a == 2.0f * v);
  CHECK(b == xt::zeros<float>({3, 2}));
  const auto [c, d] = s.run(tf::fetch(sum, diff), tf::feed(x, v), tf::feed(pred, false));
  CHECK(c == v * v);
  CHECK(d == -v);
}

TEST_CASE("cond: results of different shapes and types, and their gradients") {
  auto pred = tf::placeholder<"pred", bool>();
  auto x = tf::placeholder<"x", double, tf::shape<3, 2>>();
  auto n = tf::placeholder<"n", std::int64_t>();
  auto [m, s, k, big] = tf::cond(
      pred,
      [&] {
        return std::tuple{x * tf::constant<2.0>(), tf::reduce_sum(x), n + tf::constant<std::int64_t{1}>(),
                          x > tf::constant<3.0>()};
      },
      [&] { return std::tuple{-x, tf::reduce_max(x), n, x < tf::constant<3.0>()}; });
  static_assert(std::is_same_v<tf::value_type_of<decltype(big)>, bool>);
  static_assert(std::is_same_v<tf::shape_of<decltype(s)>, tf::shape<>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(k)>, std::int64_t>);
  auto dx = tf::gradient(tf::reduce_sum(m) + s * s, x);
  tf::session sess(m, s, k, big, dx);
  using b32 = xt::xtensor_fixed<bool, xt::xshape<3, 2>>;
  const xt::xtensor_fixed<double, xt::xshape<3, 2>> v = {{1, 2}, {3, 4}, {5, 6}};
  const auto [m1, s1, k1, d1] = sess.run(tf::fetch(m, s, k, dx), tf::feed(x, v), tf::feed(n, std::int64_t{7}),
                                         tf::feed(pred, true));
  CHECK(m1 == 2.0 * v);
  CHECK(s1 == 21.0);
  CHECK(k1 == 8);
  CHECK(sess.run(big, tf::feed(x, v), tf::feed(n, std::int64_t{7}), tf::feed(pred, true)) ==
        b32{{false, false}, {false, true}, {true, true}});
  CHECK(d1 == xt::xtensor_fixed<double, xt::xshape<3, 2>>(2.0 + 2.0 * 21.0 + 0.0 * v));
  const auto [m0, s0, k0, d0] = sess.run(tf::fetch(m, s, k, dx), tf::feed(x, v), tf::feed(n, std::int64_t{7}),
                                         tf::feed(pred, false));
  CHECK(m0 == -v);
  CHECK(s0 == 6.0);
  CHECK(k0 == 7);
  CHECK(sess.run(big, tf::feed(x, v), tf::feed(n, std::int64_t{7}), tf::feed(pred, false)) ==
        b32{{true, true}, {false, false}, {false, false}});
  // d/dx (sum(-x) + max(x)^2): -1 everywhere, + 2 max at the maximum.
  CHECK(d0 == xt::xtensor_fixed<double, xt::xshape<3, 2>>{{-1, -1}, {-1, -1}, {-1, 11}});
}

TEST_CASE("cond: results of a dynamic batch, several runs of other batches") {
  // tf.cond(is_training, lambda: x * 2, lambda: -x) over x of shape [None, 2], and a second
  // cond with results of a dynamic batch beside a scalar.
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 2>>();
  auto training = tf::placeholder<"training", bool>();
  auto r = tf::cond(training, [&] { return x * tf::constant<2.0f>(); }, [&] { return -x; });
  static_assert(std::is_same_v<tf::shape_of<decltype(r)>, tf::shape<tf::dyn, 2>>);
  auto dx = tf::gradient(tf::reduce_sum(r), x);
  auto [sq, neg, total] = tf::cond<"mixed">(
      training, [&] { return std::tuple{x * x, -x, tf::reduce_sum(x)}; },
      [&] { return std::tuple{x, x + x, tf::constant<0.0f>()}; });
  auto dmixed = tf::gradient(tf::reduce_sum(sq) + tf::reduce_sum(neg) + total, x);
  tf::session s(r, dx, sq, neg, total, dmixed);
  using m2 = xt::xtensor<float, 2>;
  for (const std::size_t batch : {3u, 1u, 5u, 0u}) {
    CAPTURE(batch);
    m2 v = xt::zeros<float>({batch, std::size_t(2)});
    for (std::size_t i = 0; i < v.size(); ++i) v.flat(i) = float(i) - 2.5f;
    for (const bool p : {true, false}) {
      CAPTURE(p);
      const auto [got, g, a, b, c, gm] =
          s.run(tf::fetch(r, dx, sq, neg, total, dmixed), tf::feed(x, v), tf::feed(training, p));
      CHECK(got == (p ? m2(2.0f * v) : m2(-v)));
      CHECK(g == m2(xt::ones_like(v) * (p ? 2.0f : -1.0f)));
      CHECK(a == (p ? m2(v * v) : v));
      CHECK(b == (p ? m2(-v) : m2(v + v)));
      CHECK(c == (p ? float(xt::sum(v)()) : 0.0f));
      CHECK(gm == (p ? m2(2.0f * v - 1.0f + 1.0f) : m2(xt::ones_like(v) * 3.0f)));
    }
  }
}

TEST_CASE("cond: only the branch taken runs") {
  // The false branch reshapes its input to a shape it cannot have: it throws when it runs.
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn>>();
  auto pred = tf::placeholder<"pred", bool>();
  auto r = tf::cond(pred, [&] { return tf::reduce_sum(x); },
                    [&] { return tf::reduce_sum(tf::reshape<tf::shape<tf::dyn, 4>>(x)); });
  tf::session s(r);
  const xt::xtensor<float, 1> three = {1, 2, 3};
  CHECK(s.run(r, tf::feed(x, three), tf::feed(pred, true)) == 6.0f);
  CHECK_THROWS_AS(s.run(r, tf::feed(x, three), tf::feed(pred, false)), tf::invalid_argument_error);
  const xt::xtensor<float, 1> four = {1, 2, 3, 4};
  CHECK(s.run(r, tf::feed(x, four), tf::feed(pred, false)) == 10.0f);
}

TEST_CASE("cond: testCondGrad_1, testCondGrad_2") {
  auto x = tf::placeholder<"x", float>();
  auto r1 = tf::cond<"cond_1">(tf::less(tf::constant<1>(), tf::constant<2>()), [&] { return tf::identity(x); },
                               [&] { return tf::identity(x); });
  auto g1 = tf::gradient(r1, x);
  auto c = tf::placeholder<"c", std::int32_t>();
  auto r2 = tf::cond<"cond_2">(tf::less(c, tf::constant<2>()), [&] { return x * tf::constant<42.0f>(); },
                               [&] { return x * tf::constant<3.0f>(); });
  auto g2 = tf::gradient(r2, x);
  tf::session s(g1, g2);
  CHECK(s.run(g1, tf::feed(x, 10.0f)) == 1.0f);
  CHECK(s.run(g2, tf::feed(x, 10.0f), tf::feed(c, 1)) == 42.0f);
  CHECK(s.run(g2, tf::feed(x, 10.0f), tf::feed(c, 3)) == 3.0f);
}

TEST_CASE("cond: testCondGrad_3, a gradient computed inside a branch") {
  auto c = tf::placeholder<"c", std::int32_t>();
  auto ox = tf::placeholder<"ox", float>();
  auto y = tf::constant<7.0f>() * ox;
  auto r = tf::cond(
      tf::less(c, tf::constant<2>()), [&] { return tf::gradient(y * y, ox); }, [&] { return ox * tf::constant<3.0f>(); });
  tf::session s(r);
  CHECK(s.run(r, tf::feed(ox, 10.0f), tf::feed(c, 1)) == 980.0f);
  CHECK(s.run(r, tf::feed(ox, 10.0f), tf::feed(c, 3)) == 30.0f);
}

TEST_CASE("cond: testCondGrad_Gather, a variable's gradient from the branch taken") {
  auto v1 = tf::variable<"v1", float, tf::shape<2>, tf::init::constant(1.0)>();
  auto c = tf::placeholder<"c", std::int32_t>();
  auto r = tf::cond(tf::less(c, tf::constant<2>()), [&] { return tf::identity(v1); },
                    [&] { return tf::gather(v1, tf::constant<"idx">(xt::xtensor_fixed<std::int32_t, xt::xshape<2>>{1, 1})); });
  auto g = tf::gradient(tf::reduce_sum(r), v1);
  tf::session s(g);
  s.initialize_all();
  using v2 = xt::xtensor_fixed<float, xt::xshape<2>>;
  CHECK(s.run(g, tf::feed(c, 1)) == v2{1, 1});
  CHECK(s.run(g, tf::feed(c, 3)) == v2{0, 2});  // TensorFlow: IndexedSlices [1, 1] at [1, 1]
}

TEST_CASE("cond: testNestedCond_Simple") {
  auto x = tf::placeholder<"X", float>();
  auto inner = [&] { return tf::cond<"inner">(tf::less(x, tf::constant<1.0f>()), [&] { return tf::identity(x); },
                                              [&] { return tf::identity(x); }); };
  auto y = tf::cond<"y">(tf::constant<true>(), [&] { return tf::identity(x); }, inner);
  auto z = tf::cond<"z">(tf::constant<false>(), [&] { return tf::identity(x); }, inner);
  auto gy = tf::gradient(y, x);
  auto gz = tf::gradient(z, x);
  tf::session s(gy, gz);
  const auto [a, b] = s.run(tf::fetch(gy, gz), tf::feed(x, 0.0f));
  CHECK(a == 1.0f);
  CHECK(b == 1.0f);
}

TEST_CASE("cond: gradients against central differences, through each branch") {
  auto pred = tf::placeholder<"pred", bool>();
  auto x = tf::placeholder<"x", double, tf::shape<3, 2>>();
  auto w = tf::placeholder<"w", double, tf::shape<2, 2>>();
  auto r = tf::cond(pred, [&] { return tf::tanh(tf::matmul(x, w)); }, [&] { return tf::square(x) * tf::constant<0.5>(); });
  auto loss = tf::reduce_sum(r * r);
  tf::session s(loss, tf::gradient(loss, x), tf::gradient(loss, w));
  const auto x0 = fd_check::uniform<tf::shape<3, 2>>();
  const auto w0 = fd_check::uniform<tf::shape<2, 2>>();
  for (const bool p : {true, false}) {
    CAPTURE(p);
    fd_check::check_gradient(s, loss, x, x0, tf::feed(w, w0), tf::feed(pred, p));
    fd_check::check_gradient(s, loss, w, w0, tf::feed(x, x0), tf::feed(pred, p));
  }
}

TEST_CASE("cond: a loop whose new state, not its output, reads a constant of run-time values") {
  // The loop node carries the definitions its new states read (the false branch's constant,
  // read by its state alone): it once carried only its output's, and read a null value.
  auto c = tf::placeholder<"c", std::int32_t>();
  auto r = tf::cond(
      tf::less(c, tf::constant<2>()), [&] { return tf::constant<"k">(xt::xtensor_fixed<float, xt::xshape<2>>{5, 6}); },
      [&] { return tf::constant<"k2">(xt::xtensor_fixed<float, xt::xshape<2>>{7, 8}); });
  tf::session s(r);
  using v2 = xt::xtensor_fixed<float, xt::xshape<2>>;
  CHECK(s.run(r, tf::feed(c, 1)) == v2{5, 6});
  CHECK(s.run(r, tf::feed(c, 3)) == v2{7, 8});
  auto xs = tf::placeholder<"xs", float, tf::shape<tf::dyn>>();
  auto loop = tf::control::dynamic_loop<"l">(
      [&](const auto& states, const auto& x) {
        return std::pair{x, std::tuple{std::get<0>(states) + tf::constant<"k3">(v2{1, 2})}};
      },
      xs, std::tuple{tf::zeros<tf::shape<2>, float>()});
  auto last = std::get<0>(loop.final_state);
  tf::session sl(last);
  CHECK(sl.run(last, tf::feed(xs, xt::xtensor<float, 1>{1, 1, 1})) == v2{3, 6});
}

namespace {

// CaseTest's predicates: x == 1, x == 2 (and x == 2 or x == 3 for a third pair).
template <int V>
auto x_is(const auto& x) {
  return tf::equal(x, tf::constant<V>());
}
template <int V>
auto returns() {
  return [] { return tf::constant<V>(); };
}

}  // namespace

TEST_CASE("case: testCase_withDefault, testCase_multiple_matches_non_exclusive") {
  auto x = tf::placeholder<"x", std::int32_t>();
  auto with_default = tf::case_<"case_1">(
      std::tuple{std::pair{x_is<1>(x), returns<2>()}, std::pair{x_is<2>(x), returns<4>()}}, returns<6>(), tf::exclusive);
  auto first_match = tf::case_<"case_2">(std::tuple{std::pair{x_is<1>(x), returns<2>()}, std::pair{x_is<2>(x), returns<4>()},
                                                    std::pair{x_is<2>(x), returns<6>()}},
                                         returns<8>());
  static_assert(std::is_same_v<tf::value_type_of<decltype(with_default)>, std::int32_t>);
  tf::session s(with_default, first_match);
  CHECK(s.run(with_default, tf::feed(x, 1)) == 2);
  CHECK(s.run(with_default, tf::feed(x, 2)) == 4);
  CHECK(s.run(with_default, tf::feed(x, 3)) == 6);
  CHECK(s.run(first_match, tf::feed(x, 1)) == 2);
  CHECK(s.run(first_match, tf::feed(x, 2)) == 4);  // not exclusive: the first of two matches
  CHECK(s.run(first_match, tf::feed(x, 3)) == 8);
}

TEST_CASE("case: testCase_multiple_matches_exclusive") {
  auto x = tf::placeholder<"x", std::int32_t>();
  auto out = tf::case_(std::tuple{std::pair{x_is<1>(x), returns<2>()}, std::pair{x_is<2>(x), returns<4>()},
                                  std::pair{x_is<2>(x), returns<6>()}},
                       returns<8>(), tf::exclusive);
  tf::session s(out);
  CHECK(s.run(out, tf::feed(x, 1)) == 2);
  CHECK(s.run(out, tf::feed(x, 3)) == 8);
  CHECK_THROWS_WITH_AS(s.run(out, tf::feed(x, 2)),
                       "InvalidArgument: case: Input error: exclusive=True and 2 of 3 conditions evaluated as True",
                       tf::invalid_argument_error);
}

TEST_CASE("case: testCase_withoutDefault, testCase_withoutDefault_oneCondition") {
  auto x = tf::placeholder<"x", std::int32_t>();
  auto three = tf::case_<"three">(std::tuple{std::pair{x_is<1>(x), returns<2>()}, std::pair{x_is<2>(x), returns<4>()},
                                             std::pair{x_is<3>(x), returns<6>()}},
                                  tf::exclusive);
  // One pair: std::tuple{std::pair{...}} deduces std::tuple<pred, fn>, taken as that pair.
  auto one = tf::case_<"one">(std::tuple{std::pair{x_is<1>(x), returns<2>()}}, tf::exclusive);
  tf::session s(three, one);
  CHECK(s.run(three, tf::feed(x, 1)) == 2);
  CHECK(s.run(three, tf::feed(x, 2)) == 4);
  CHECK(s.run(three, tf::feed(x, 3)) == 6);
  CHECK_THROWS_WITH_AS(s.run(three, tf::feed(x, 4)),
                       "InvalidArgument: three: Input error: None of conditions evaluated as True (no default)",
                       tf::invalid_argument_error);
  CHECK(s.run(one, tf::feed(x, 1)) == 2);
  CHECK_THROWS_WITH_AS(s.run(one, tf::feed(x, 4)),
                       "InvalidArgument: one: Input error: None of conditions evaluated as True (no default)",
                       tf::invalid_argument_error);
}

TEST_CASE("case: several results, and the gradient through the function taken") {
  auto x = tf::placeholder<"x", std::int32_t>();
  auto w = tf::variable<"w", double, tf::shape<2>, tf::init::constant(3.0)>();
  auto [r, n] = tf::case_<"grad">(
      std::tuple{std::pair{x_is<1>(x), [&] { return std::tuple{w * tf::constant<2.0>(), tf::constant<1>()}; }},
                 std::pair{x_is<2>(x), [&] { return std::tuple{w * w, tf::constant<2>()}; }}},
      [&] { return std::tuple{tf::zeros_like(w), tf::constant<0>()}; });
  auto dw = tf::gradient(tf::reduce_sum(r), w);
  tf::session s(r, n, dw);
  s.initialize_all();
  using vec = xt::xtensor_fixed<double, xt::xshape<2>>;
  const auto [r1, n1, g1] = s.run(tf::fetch(r, n, dw), tf::feed(x, 1));
  CHECK(r1 == vec{6, 6});
  CHECK(n1 == 1);
  CHECK(g1 == vec{2, 2});
  const auto [r2, n2, g2] = s.run(tf::fetch(r, n, dw), tf::feed(x, 2));
  CHECK(r2 == vec{9, 9});
  CHECK(n2 == 2);
  CHECK(g2 == vec{6, 6});
  const auto [r3, n3, g3] = s.run(tf::fetch(r, n, dw), tf::feed(x, 7));
  CHECK(r3 == vec{0, 0});
  CHECK(n3 == 0);
  CHECK(g3 == vec{0, 0});
}
