// Gradient rules of softmax and log_softmax over the last axis (ops/softmax.hpp), through
// reduce_sum(softmax(x) * w) with random w (with w = 1 the loss is constant and any rule
// whose rows sum to 0 would pass), on [3], [2, 3], [2, 3, 4] and a dynamic dim; and
// cross-entropy with one-hot labels.
#include <doctest/doctest.h>

#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"
#include "op_testing.hpp"

namespace tf = typeflow;
using op_testing::check_unary;
using tf::shape;

namespace {
constexpr auto softmax = [](auto a) { return tf::softmax(a); };
constexpr auto log_softmax = [](auto a) { return tf::log_softmax(a); };

template <class S>
void check_both() {
  const auto x0 = fd_check::uniform<S>(-3, 3);
  {
    INFO("softmax");
    check_unary<S>(softmax, x0);
  }
  {
    INFO("log_softmax");
    check_unary<S>(log_softmax, x0);
  }
}
}  // namespace

TEST_CASE("softmax and log_softmax of [3]") { check_both<shape<3>>(); }
TEST_CASE("softmax and log_softmax of [2, 3]") { check_both<shape<2, 3>>(); }
TEST_CASE("softmax and log_softmax of [2, 3, 4]") { check_both<shape<2, 3, 4>>(); }
TEST_CASE("softmax and log_softmax of [1, 1] (a single class: the gradient is 0)") { check_both<shape<1, 1>>(); }

TEST_CASE("softmax and log_softmax of large logits (the row maximum is subtracted)") {
  const auto x0 = fd_check::uniform<shape<2, 3>>(40, 45);
  check_unary<shape<2, 3>>(softmax, x0);
  check_unary<shape<2, 3>>(log_softmax, x0);
}

TEST_CASE("softmax and log_softmax of [dyn, 4] fed [3, 4]") {
  const auto x0 = fd_check::fill_uniform(xt::xtensor<double, 2>::from_shape({3, 4}), -3, 3);
  check_unary<shape<tf::dyn, 4>>(softmax, x0);
  check_unary<shape<tf::dyn, 4>>(log_softmax, x0);
}

TEST_CASE("cross-entropy -mean(sum(labels * log_softmax(logits), 1)): gradient (softmax - labels) / n") {
  auto logits = tf::placeholder<"logits", double, shape<2, 3>>();
  auto labels = tf::placeholder<"labels", double, shape<2, 3>>();
  auto loss = -tf::reduce_mean(tf::reduce_sum<1>(labels * tf::log_softmax(logits)));
  tf::session sess(loss);
  const fd_check::value_t<shape<2, 3>> y{{0, 1, 0}, {1, 0, 0}};
  const auto x0 = fd_check::uniform<shape<2, 3>>(-2, 2);
  fd_check::check_gradient(sess, loss, logits, x0, tf::feed(labels, y));
  const auto g = sess.run(tf::gradient(loss, logits), tf::feed(logits, x0), tf::feed(labels, y));
  const auto p = sess.run(tf::softmax(logits), tf::feed(logits, x0));
  for (std::size_t i = 0; i < g.size(); ++i) CHECK(g.flat(i) == doctest::Approx((p.flat(i) - y.flat(i)) / 2));
}
