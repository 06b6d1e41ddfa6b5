// The tutorial's linear regression: m and b scalars, 100000 steps of SGD at 1e-3 on
// y = true_m x + true_b; the learned parameters match the true ones to 4 decimals.
#include <doctest/doctest.h>

#include <random>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

TEST_CASE("linear regression learns m and b to 4 decimals") {
  // ### build the graph
  // m = tf.get_variable("m", [], initializer=tf.constant_initializer(0.))
  // b = tf.get_variable("b", [], initializer=tf.constant_initializer(0.))
  // init = tf.global_variables_initializer()
  // input_placeholder = tf.placeholder(tf.float32); output_placeholder = tf.placeholder(tf.float32)
  // x = input_placeholder; y = output_placeholder; y_guess = m * x + b
  // loss = tf.square(y - y_guess)
  // optimizer = tf.train.GradientDescentOptimizer(1e-3); train_op = optimizer.minimize(loss)
  auto m = tf::variable<"m", float>(tf::init::constant(0.));
  auto b = tf::variable<"b", float>(tf::init::constant(0.));
  auto init = tf::global_variables_initializer();
  auto x = tf::placeholder<"input", float>();
  auto y = tf::placeholder<"output", float>();
  auto y_guess = m * x + b;
  auto loss = tf::square(y - y_guess);
  auto train_op = tf::train::gradient_descent(1e-3).minimize(loss);

  tf::session sess(train_op, loss);
  sess.run(init);
  std::mt19937 rng(0);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  const float true_m = uniform(rng), true_b = uniform(rng);
  for (int update_i = 0; update_i < 100000; ++update_i) {
    const float input_data = uniform(rng);
    const float output_data = true_m * input_data + true_b;
    auto [l, done] = sess.run(tf::fetch(loss, train_op), tf::feed(x, input_data), tf::feed(y, output_data));
    (void)l;
    (void)done;
  }
  auto [m_value, b_value] = sess.run(tf::fetch(m, b));
  MESSAGE("true parameters: m=" << true_m << " b=" << true_b << "; learned m=" << m_value << " b=" << b_value);
  CHECK(std::abs(m_value - true_m) < 5e-5f);
  CHECK(std::abs(b_value - true_b) < 5e-5f);
}
