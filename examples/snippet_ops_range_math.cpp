// docs/reference/ops.md: range, linspace, eye; is_nan / is_inf / is_finite, floormod, floordiv;
// the special functions (atanh, lgamma, xlogy, atan2, digamma as lgamma's gradient).
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <type_traits>

#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  tf::session sess;

  // [snippet range]
  auto r = tf::range<0, 10, 2>();  // static arguments: int32 [5]
  static_assert(std::is_same_v<tf::shape_of<decltype(r)>, tf::shape<5>>);
  EXPECT(sess.run(r) == xt::xtensor<std::int32_t, 1>{0, 2, 4, 6, 8});
  auto q = tf::range<0.0, 1.0, 0.25, float>();  // float32 [4]
  EXPECT(sess.run(q) == xt::xtensor<float, 1>{0.0f, 0.25f, 0.5f, 0.75f});
  // Scalar nodes: a [?]; delta 0 or one walking away from limit fails the run (InvalidArgument).
  auto n = tf::placeholder<"n", std::int32_t, tf::scalar>();
  auto down = tf::range(n, tf::constant<0>(), tf::constant<-3>());
  static_assert(std::is_same_v<tf::shape_of<decltype(down)>, tf::shape<tf::dyn>>);
  EXPECT(sess.run(down, tf::feed(n, 7)) == xt::xtensor<std::int32_t, 1>{7, 4, 1});
  // [/snippet range]

  // [snippet linspace_eye]
  auto ls = tf::linspace<5>(tf::constant<0.0f>(), tf::constant<1.0f>());  // float [5]
  EXPECT(sess.run(ls) == xt::xtensor<float, 1>{0.0f, 0.25f, 0.5f, 0.75f, 1.0f});
  auto e = tf::eye<float, 2, 3>();  // tf.eye(2, 3)
  EXPECT(sess.run(e) == xt::xtensor<float, 2>{{1, 0, 0}, {0, 1, 0}});
  // [/snippet linspace_eye]

  // [snippet floormod]
  auto x = tf::placeholder<"x", std::int32_t, tf::shape<4>>();
  xt::xtensor<std::int32_t, 1> xv = {7, -7, 7, -7};
  xt::xtensor<std::int32_t, 1> yv = {3, 3, -3, -3};
  auto y = tf::placeholder<"y", std::int32_t, tf::shape<4>>();
  // The sign of the divisor, as Python's %; floordiv rounds toward -inf, as Python's //.
  EXPECT(sess.run(tf::floormod(x, y), tf::feed(x, xv), tf::feed(y, yv)) == xt::xtensor<std::int32_t, 1>{1, 2, -2, -1});
  EXPECT(sess.run(tf::floordiv(x, y), tf::feed(x, xv), tf::feed(y, yv)) == xt::xtensor<std::int32_t, 1>{2, -3, -3, 2});
  EXPECT(sess.run(tf::truncatemod(x, y), tf::feed(x, xv), tf::feed(y, yv)) == xt::xtensor<std::int32_t, 1>{1, -1, 1, -1});
  // [/snippet floormod]

  // [snippet is_nan]
  auto v = tf::placeholder<"v", float, tf::shape<3>>();
  xt::xtensor<float, 1> vv = {1.0f, std::numeric_limits<float>::infinity(), std::nanf("")};
  EXPECT(sess.run(tf::is_nan(v), tf::feed(v, vv)) == xt::xtensor<bool, 1>{false, false, true});
  EXPECT(sess.run(tf::is_inf(v), tf::feed(v, vv)) == xt::xtensor<bool, 1>{false, true, false});
  EXPECT(sess.run(tf::is_finite(v), tf::feed(v, vv)) == xt::xtensor<bool, 1>{true, false, false});
  // [/snippet is_nan]

  // [snippet math_special]
  auto a = tf::placeholder<"a", double, tf::shape<3>>();
  xt::xtensor<double, 1> av = {-1.0, 0.0, 1.0};
  constexpr double inf = std::numeric_limits<double>::infinity();
  // The edges of the domains: atanh(+-1) = +-inf; lgamma is +inf at 0 and the negative integers.
  EXPECT(sess.run(tf::atanh(a), tf::feed(a, av)) == xt::xtensor<double, 1>{-inf, 0.0, inf});
  EXPECT(sess.run(tf::lgamma(a), tf::feed(a, av)) == xt::xtensor<double, 1>{inf, inf, 0.0});
  // xlogy(x, y) is 0 where x == 0, whatever log(y); atan2(y, x) broadcasts as the binary ops do.
  EXPECT(sess.run(tf::xlogy(a, tf::constant<0.0>()), tf::feed(a, av)) == xt::xtensor<double, 1>{inf, 0.0, -inf});
  EXPECT(sess.run(tf::atan2(a, tf::constant<-1.0>()), tf::feed(a, av)) ==
         xt::xtensor<double, 1>{std::atan2(-1.0, -1.0), std::atan2(0.0, -1.0), std::atan2(1.0, -1.0)});
  // Gradients are math_grad.py's: lgamma's is digamma, -0.5772... (Euler's gamma) at 1.
  auto b = tf::placeholder<"b", double, tf::shape<2>>();
  auto db = sess.run(tf::gradient(tf::reduce_sum(tf::lgamma(b)), b), tf::feed(b, xt::xtensor<double, 1>{1.0, 2.0}));
  EXPECT(std::abs(db(0) + std::numbers::egamma) < 1e-12 && std::abs(db(1) - (1 - std::numbers::egamma)) < 1e-12);
  // [/snippet math_special]
  return 0;
}
