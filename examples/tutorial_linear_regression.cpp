// docs/getting-started.md, "Optimization": the tutorial's linear regression, ported.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  // [snippet regression]
  // ### build the graph
  auto m = tf::variable<"m", float>(tf::init::constant(0.));
  auto b = tf::variable<"b", float>(tf::init::constant(0.));
  auto init = tf::global_variables_initializer();
  auto input_placeholder = tf::placeholder<"input", float>();
  auto output_placeholder = tf::placeholder<"output", float>();
  auto x = input_placeholder;
  auto y = output_placeholder;
  auto y_guess = m * x + b;
  auto loss = tf::square(y - y_guess);
  auto train_op = tf::train::gradient_descent(1e-3).minimize(loss);

  // ### start the session
  tf::session sess(train_op, loss);
  sess.run(init);

  // ### perform the training loop
  std::mt19937 rng(0);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  const float true_m = uniform(rng), true_b = uniform(rng);
  for (int update_i = 0; update_i < 100000; ++update_i) {
    const float input_data = uniform(rng);
    const float output_data = true_m * input_data + true_b;
    auto [l, done] = sess.run(tf::fetch(loss, train_op), tf::feed(input_placeholder, input_data),
                              tf::feed(output_placeholder, output_data));
    (void)l;
    (void)done;
  }
  auto [m_value, b_value] = sess.run(tf::fetch(m, b));
  std::printf("true parameters: m=%.4f, b=%.4f\n", true_m, true_b);
  std::printf("learned parameters: m=%.4f, b=%.4f\n", m_value, b_value);
  // [/snippet regression]
  const bool ok = std::abs(m_value - true_m) < 5e-5f && std::abs(b_value - true_b) < 5e-5f;
  return ok ? 0 : 1;
}
