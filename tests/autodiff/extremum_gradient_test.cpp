// Gradient rules of reduce_max and reduce_min (ops/reduce.hpp), TensorFlow's _MinOrMaxGrad:
// the gradient goes to the elements equal to the extremum, shared evenly among ties. Against
// finite differences away from ties (random values), over all, one, negative and several
// axes, keep_dims and a dynamic dim; ties by value; and the gradient of the gradient.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"
#include "op_testing.hpp"

namespace tf = typeflow;
using op_testing::check_unary;
using tf::keep_dims;

namespace {
template <class S, std::ptrdiff_t... Axes>
void check_extrema() {
  const auto x0 = fd_check::uniform<S>();
  {
    INFO("reduce_max");
    check_unary<S>([](auto a) { return tf::reduce_max<Axes...>(a); }, x0);
  }
  {
    INFO("reduce_min, keep_dims");
    check_unary<S>([](auto a) { return tf::reduce_min<Axes...>(a, keep_dims); }, x0);
  }
}
}  // namespace

TEST_CASE("reduce_max and reduce_min: over all axes of [], [3], [2, 3]") {
  check_extrema<tf::shape<>>();
  check_extrema<tf::shape<3>>();
  check_extrema<tf::shape<2, 3>>();
}

TEST_CASE("reduce_max and reduce_min of [2, 3, 4] over 1, -1 and (0, 2)") {
  check_extrema<tf::shape<2, 3, 4>, 1>();
  check_extrema<tf::shape<2, 3, 4>, -1>();
  check_extrema<tf::shape<2, 3, 4>, 0, 2>();
}

TEST_CASE("reduce_max with a dynamic dim: [dyn, 3] fed [4, 3] over axis 0 and 1") {
  using S = tf::shape<tf::dyn, 3>;
  const auto x0 = fd_check::fill_uniform(xt::xtensor<double, 2>::from_shape({4, 3}));
  check_unary<S>([](auto a) { return tf::reduce_max<0>(a); }, x0);
  check_unary<S>([](auto a) { return tf::reduce_min<1>(a, keep_dims); }, x0);
}

TEST_CASE("ties share the gradient evenly, as TensorFlow's _MinOrMaxGrad") {
  auto x = tf::placeholder<"x", double, tf::shape<2, 4>>();
  const xt::xtensor<double, 2> x0{{1, 3, 3, 2}, {5, 5, 5, 0}};
  {
    auto [g] = tf::gradients(tf::reduce_max(x), x);  // one maximum, 5, three times
    tf::session sess(g);
    const xt::xtensor<double, 2> got = sess.run(g, tf::feed(x, x0));
    const xt::xtensor<double, 2> want{{0, 0, 0, 0}, {1.0 / 3, 1.0 / 3, 1.0 / 3, 0}};
    CHECK(got == want);
  }
  {
    auto [g] = tf::gradients(tf::reduce_sum(tf::reduce_max<1>(x) * tf::constant<"w", double, tf::shape<2>>(xt::xtensor<double, 1>{2, 6})), x);
    tf::session sess(g);
    const xt::xtensor<double, 2> got = sess.run(g, tf::feed(x, x0));
    const xt::xtensor<double, 2> want{{0, 1, 1, 0}, {2, 2, 2, 0}};
    CHECK(got == want);
  }
  {
    auto [g] = tf::gradients(tf::reduce_sum(tf::reduce_min<0>(x)), x);  // column minima 1, 3, 3, 0
    tf::session sess(g);
    const xt::xtensor<double, 2> got = sess.run(g, tf::feed(x, x0));
    const xt::xtensor<double, 2> want{{1, 1, 1, 0}, {0, 0, 0, 1}};
    CHECK(got == want);
  }
}

TEST_CASE("a slice whose extremum is NaN gets a NaN gradient, as TensorFlow's 0 / 0; the others are untouched") {
  // No element equals NaN, so the indicator is all zeros and the count 0: TensorFlow's
  // _MinOrMaxGrad divides 0 by 0 for every element of that slice.
  auto x = tf::placeholder<"x", double, tf::shape<2, 3>>();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const xt::xtensor<double, 2> x0{{1, nan, 3}, {4, 6, 5}};
  auto [g] = tf::gradients(tf::reduce_sum(tf::reduce_max<1>(x)), x);
  tf::session sess(g);
  const xt::xtensor<double, 2> got = sess.run(g, tf::feed(x, x0));
  for (std::size_t j = 0; j < 3; ++j) CHECK(std::isnan(got(0, j)));
  CHECK(got(1, 0) == 0.0);
  CHECK(got(1, 1) == 1.0);
  CHECK(got(1, 2) == 0.0);
}

TEST_CASE("the gradient of the gradient: linear in the incoming gradient, zero through the indicator") {
  // L = sum(reduce_max<1>(x) * w) has dL/dx = I * w / C; its derivative with respect to w,
  // through v: d/dw sum(dL/dx * v) = reduce_sum<1>(I * v) / C.
  auto x = tf::placeholder<"x", double, tf::shape<3, 4>>();
  auto w = tf::placeholder<"w", double, tf::shape<3>>();
  auto v = tf::placeholder<"v", double, tf::shape<3, 4>>();
  auto [gx] = tf::gradients(tf::reduce_sum(tf::reduce_max<1>(x) * w), x);
  auto l2 = tf::reduce_sum(gx * v);
  auto [gw] = tf::gradients(l2, w);
  tf::session sess(l2, gw);
  const auto x0 = fd_check::uniform<tf::shape<3, 4>>();
  const auto v0 = fd_check::uniform<tf::shape<3, 4>>();
  const auto w0 = fd_check::uniform<tf::shape<3>>();
  fd_check::check_gradient_node(sess, l2, gw, w, w0, tf::feed(x, x0), tf::feed(v, v0));
  // and nothing flows into x through the indicator: d l2 / dx is zero
  auto [gxx] = tf::gradients(l2, x);
  tf::session sess2(gxx);
  const xt::xtensor<double, 2> zero = sess2.run(gxx, tf::feed(x, x0), tf::feed(w, w0), tf::feed(v, v0));
  CHECK(zero == xt::zeros<double>({3, 4}));
}

TEST_CASE("clip_by_value: the gradient goes to t inside [lo, hi], to lo below, to hi above") {
  // t in [-1, 1] away from the bounds -0.5 and 0.5; lo and hi scalar and per column
  auto t = tf::placeholder<"t", double, tf::shape<3, 4>>();
  auto lo = tf::placeholder<"lo", double, tf::shape<>>();
  auto hi = tf::placeholder<"hi", double, tf::shape<4>>();
  auto w = tf::placeholder<"w", double, tf::shape<3, 4>>();
  auto loss = tf::reduce_sum(tf::clip_by_value(t, lo, hi) * w);
  tf::session sess(loss);
  auto t0 = fd_check::uniform<tf::shape<3, 4>>();
  for (auto& v : t0)
    if (std::abs(std::abs(v) - 0.5) < 0.05) v += 0.1;  // away from the kinks
  const double lo0 = -0.5;
  const xt::xtensor_fixed<double, xt::xshape<4>> hi0{0.5, 0.5, 0.5, 0.5};
  const auto w0 = fd_check::uniform<tf::shape<3, 4>>();
  fd_check::check_gradient(sess, loss, t, t0, tf::feed(lo, lo0), tf::feed(hi, hi0), tf::feed(w, w0));
  fd_check::check_gradient(sess, loss, lo, lo0, tf::feed(t, t0), tf::feed(hi, hi0), tf::feed(w, w0));
  fd_check::check_gradient(sess, loss, hi, hi0, tf::feed(t, t0), tf::feed(lo, lo0), tf::feed(w, w0));
  // At a bound the gradient still flows to t (ties go to t, as TensorFlow's min and max).
  auto [g] = tf::gradients(tf::reduce_sum(tf::clip_by_value(t, lo, hi)), t);
  tf::session sg(g);
  const xt::xtensor_fixed<double, xt::xshape<3, 4>> at{{-0.5, 0.5, 0, 1}, {-1, 0.25, 0.5, -0.5}, {2, -2, 0.5, 0}};
  const xt::xtensor_fixed<double, xt::xshape<3, 4>> want{{1, 1, 1, 0}, {0, 1, 1, 1}, {0, 0, 1, 1}};
  CHECK(sg.run(g, tf::feed(t, at), tf::feed(lo, lo0), tf::feed(hi, hi0)) == want);
}
