// Many models in one program: nothing is program-wide. One model function built twice with
// other initializers and learning rates gives two graphs of the same types, trained side by
// side, each session holding its own definitions.
#include <doctest/doctest.h>

#include <cmath>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

namespace {
// A linear regression y = x w + b, its initial weights and learning rate known at run time
// (read from a configuration, say).
struct regression_config {
  double initial_weight;
  double learning_rate;
};
auto regression(const regression_config& config) {
  auto x = tf::placeholder<"x", double, tf::shape<4, 2>>();
  auto y = tf::placeholder<"y", double, tf::shape<4, 1>>();
  auto w = tf::variable<"w", double, tf::shape<2, 1>>(tf::init::constant(config.initial_weight));
  auto b = tf::variable<"b", double, tf::shape<1>>(tf::init::zeros());
  auto loss = tf::reduce_mean(tf::square(tf::matmul(x, w) + b - y));
  auto train_op = tf::train::adam(config.learning_rate).minimize(loss);
  return std::make_tuple(x, y, w, loss, train_op);
}

const xt::xtensor_fixed<double, xt::xshape<4, 2>> xs{{0, 1}, {1, 0}, {1, 1}, {2, 1}};
const xt::xtensor_fixed<double, xt::xshape<4, 1>> ys{{1}, {2}, {3}, {5}};  // y = 2 x0 + x1
}  // namespace

TEST_CASE("one model function, two initializers and two learning rates, trained side by side") {
  auto [x1, y1, w1, loss1, train1] = regression({0.0, 0.1});
  auto [x2, y2, w2, loss2, train2] = regression({1.0, 0.01});
  static_assert(std::is_same_v<decltype(train1), decltype(train2)>);  // one graph type
  tf::session a(train1, loss1), b(train2, loss2);
  a.initialize_all();
  b.initialize_all();
  CHECK(a.run(w1) == xt::xtensor_fixed<double, xt::xshape<2, 1>>{{0}, {0}});
  CHECK(b.run(w2) == xt::xtensor_fixed<double, xt::xshape<2, 1>>{{1}, {1}});

  // Adam's first step moves each weight by about its learning rate, against the gradient.
  a.run(train1, tf::feed(x1, xs), tf::feed(y1, ys));
  b.run(train2, tf::feed(x2, xs), tf::feed(y2, ys));
  CHECK(a.run(w1)(0, 0) == doctest::Approx(0.1).epsilon(1e-6));   // gradient < 0 at w = 0
  CHECK(b.run(w2)(0, 0) == doctest::Approx(1.01).epsilon(1e-6));  // gradient < 0 at w = 1

  // Interleaved training equals each model trained alone: no state is shared.
  for (int i = 0; i < 200; ++i) {
    a.run(train1, tf::feed(x1, xs), tf::feed(y1, ys));
    b.run(train2, tf::feed(x2, xs), tf::feed(y2, ys));
  }
  auto [x3, y3, w3, loss3, train3] = regression({0.0, 0.1});
  tf::session alone(train3, loss3);
  alone.initialize_all();
  for (int i = 0; i < 201; ++i) alone.run(train3, tf::feed(x3, xs), tf::feed(y3, ys));
  CHECK(alone.run(w3) == a.run(w1));
  CHECK(a.run(loss1, tf::feed(x1, xs), tf::feed(y1, ys)) < 0.05);
  CHECK(b.run(loss2, tf::feed(x2, xs), tf::feed(y2, ys)) > a.run(loss1, tf::feed(x1, xs), tf::feed(y1, ys)));
}

TEST_CASE("two adam optimizers with different learning rates over one loss, in separate sessions") {
  auto w = tf::variable<"two_adam_w", double, tf::shape<2>>(tf::init::constant(1.0));
  auto loss = tf::reduce_sum(tf::square(w));
  auto fast = tf::train::adam(0.1).minimize(loss);
  auto slow = tf::train::adam(0.001).minimize(loss);
  tf::session a(fast), b(slow);
  a.initialize_all();
  b.initialize_all();
  a.run(fast);
  b.run(slow);
  CHECK(a.run(w)(0) == doctest::Approx(0.9).epsilon(1e-6));
  CHECK(b.run(w)(0) == doctest::Approx(0.999).epsilon(1e-6));
  // TensorFlow's names for the optimizer's variables, whatever its learning rate.
  static_assert(decltype(tf::train::non_slot<0>(tf::train::adam(0.5), w))::name == tf::fixed_string("beta1_power"));
  CHECK(a.run(tf::train::non_slot<0>(tf::train::adam(0.1), w)) == doctest::Approx(0.81));
}

TEST_CASE("learning rates as graph values: fed per run, held in a variable, an expression") {
  auto w = tf::variable<"lr_w", double, tf::shape<>, tf::init::ones()>();
  SUBCASE("a placeholder fed per run") {
    auto lr = tf::placeholder<"lr", double>();
    auto train_op = tf::train::gradient_descent(lr).minimize(w);  // d(w)/dw = 1
    tf::session sess(train_op);
    sess.initialize_all();
    sess.run(train_op, tf::feed(lr, 0.25));
    sess.run(train_op, tf::feed(lr, 0.5));
    CHECK(sess.run(w) == doctest::Approx(0.25));
  }
  SUBCASE("a variable, changed by an assign") {
    auto lr = tf::variable<"lr_var", double, tf::shape<>, tf::init::constant(0.125)>();
    auto train_op = tf::train::gradient_descent(lr).minimize(w, tf::train::var_list(w));
    auto halve = tf::assign(lr, lr * tf::constant<0.5>());
    tf::session sess(train_op, halve);
    sess.initialize_all();
    sess.run(train_op);
    sess.run(halve);
    sess.run(train_op);
    CHECK(sess.run(w) == doctest::Approx(1 - 0.125 - 0.0625));
  }
  SUBCASE("an expression of nodes, for momentum too") {
    auto base = tf::placeholder<"base_lr", double>();
    auto train_op = tf::train::momentum(base * tf::constant<2.0>(), tf::constant<0.0>()).minimize(w);
    tf::session sess(train_op);
    sess.initialize_all();
    sess.run(train_op, tf::feed(base, 0.25));
    CHECK(sess.run(w) == doctest::Approx(0.5));
  }
}

TEST_CASE("variables built with two initializers meet in one graph: the conflict is named") {
  auto zeros = tf::variable<"conflict_w", double, tf::shape<2>>(tf::init::zeros());
  auto ones = tf::variable<"conflict_w", double, tf::shape<2>>(tf::init::ones());
  CHECK_THROWS_WITH_AS(zeros + ones,
                       "AlreadyExists: Variable conflict_w is defined twice in one graph, with different "
                       "initializers; a node's name identifies it: build it once and use that node",
                       tf::already_exists_error);
  auto same = tf::variable<"conflict_w", double, tf::shape<2>>(tf::init::zeros());
  CHECK_NOTHROW(zeros + same);  // equal definitions are one node
  auto c1 = tf::constant<"conflict_c">(xt::xtensor_fixed<double, xt::xshape<2>>{1, 2});
  auto c2 = tf::constant<"conflict_c">(xt::xtensor_fixed<double, xt::xshape<2>>{1, 3});
  CHECK_THROWS_WITH_AS(tf::session(c1, c2), doctest::Contains("Constant conflict_c is defined twice"),
                       tf::already_exists_error);
}
