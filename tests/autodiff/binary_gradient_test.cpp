// Gradient rules of the binary elementwise ops (+ - * /, maximum, minimum) on operands of
// equal shape, [], [3], [2, 3] and [2, 3, 4], for each input slot; the same node in both
// slots; and literals. Broadcasting operands: broadcast_gradient_test.cpp.
#include <doctest/doctest.h>

#include <typeflow/typeflow.hpp>

#include "op_testing.hpp"
#include "fd_check.hpp"

namespace tf = typeflow;
using op_testing::check_all_binary_ops;
using op_testing::fusion;

// No operand is broadcast, so the op may be fused into the loss's product.
TEST_CASE("binary ops on scalars") { check_all_binary_ops<tf::shape<>, tf::shape<>, fusion::allowed>(); }
TEST_CASE("binary ops on [3]") { check_all_binary_ops<tf::shape<3>, tf::shape<3>, fusion::allowed>(); }
TEST_CASE("binary ops on [2, 3]") { check_all_binary_ops<tf::shape<2, 3>, tf::shape<2, 3>, fusion::allowed>(); }
TEST_CASE("binary ops on [2, 3, 4]") {
  check_all_binary_ops<tf::shape<2, 3, 4>, tf::shape<2, 3, 4>, fusion::allowed>();
}

TEST_CASE("the same node in both slots: x * x, x / x, x - x, maximum(x, x) sums both contributions") {
  using S = tf::shape<2, 3>;
  auto x = tf::placeholder<"x", double, S>();
  auto w = tf::placeholder<"w", double, S>();
  const auto w0 = fd_check::uniform<S>();
  const auto x0 = fd_check::away_from_zero<S>(0.5, 2.0);
  auto square = tf::reduce_sum(x * x * w);
  auto one = tf::reduce_sum(x / x * w);
  auto zero = tf::reduce_sum((x - x) * w);
  auto sum = tf::reduce_sum((x + x) * w);
  tf::session sess(square, one, zero, sum);
  fd_check::check_gradient(sess, square, x, x0, tf::feed(w, w0));
  fd_check::check_gradient(sess, one, x, x0, tf::feed(w, w0));
  fd_check::check_gradient(sess, zero, x, x0, tf::feed(w, w0));
  fd_check::check_gradient(sess, sum, x, x0, tf::feed(w, w0));
  const auto g = sess.run(tf::gradient(square, x), tf::feed(x, x0), tf::feed(w, w0));
  for (std::size_t i = 0; i < g.size(); ++i) CHECK(g.flat(i) == doctest::Approx(2 * x0.flat(i) * w0.flat(i)));
}

TEST_CASE("literals in either slot: x * 2, 3 / x, 1 - x, x + 1 (int literal), maximum(x, 0.1)") {
  using S = tf::shape<2, 3>;
  auto x = tf::placeholder<"x", double, S>();
  auto w = tf::placeholder<"w", double, S>();
  const auto w0 = fd_check::uniform<S>();
  const auto x0 = fd_check::away_from_zero<S>(0.5, 2.0);
  auto times = tf::reduce_sum(x * tf::constant<2.0>() * w);
  auto over = tf::reduce_sum(tf::constant<3.0>() / x * w);
  auto minus = tf::reduce_sum((tf::constant<1.0>() - x) * w);
  auto plus = tf::reduce_sum((x + tf::constant<1>()) * w);
  auto clipped = tf::reduce_sum(tf::maximum(x, tf::constant<0.1>()) * w);
  tf::session sess(times, over, minus, plus, clipped);
  fd_check::check_gradient(sess, times, x, x0, tf::feed(w, w0));
  fd_check::check_gradient(sess, over, x, x0, tf::feed(w, w0));
  fd_check::check_gradient(sess, minus, x, x0, tf::feed(w, w0));
  fd_check::check_gradient(sess, plus, x, x0, tf::feed(w, w0));
  fd_check::check_gradient(sess, clipped, x, x0, tf::feed(w, w0));
}
