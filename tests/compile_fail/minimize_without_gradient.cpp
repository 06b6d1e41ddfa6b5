// Compile-fail: minimize(loss) where no variable on the loss's path receives a gradient (the
// only path from w to the loss is cut by stop_gradient). The diagnostic must name the loss's
// op: no_variable_on_the_loss_path_receives_a_gradient<"mul">, and nothing else follows.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", double>();
  auto w = tf::variable<"w", double>();
  auto loss = tf::stop_gradient(w) * x;
  auto train_op = tf::train::gradient_descent(0.1).minimize(loss);  // the mistake
  tf::session sess(train_op);
  sess.initialize_all();
  sess.run(train_op, tf::feed(x, 1.0));
  return 0;
}
