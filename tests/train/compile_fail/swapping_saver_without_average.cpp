// Compile-fail: a swapping saver over var0 alone, without its moving average, would break
// MovingAverageOptimizer's swap (TensorFlow: "Variable to swap var0 is not part of variables
// to save"). The diagnostic must name the variable:
// variable_to_swap_is_not_part_of_the_variables_to_save<"var0">.
#include <typeflow/typeflow.hpp>
#include <typeflow/train/moving_average_optimizer.hpp>

namespace tf = typeflow;

int main() {
  auto var0 = tf::variable<"var0", float, tf::shape<2>>();
  auto loss = tf::reduce_sum(tf::square(var0));
  auto opt = tf::train::moving_average_optimizer(tf::train::gradient_descent(2.0), 0.5);
  auto train_op = opt.minimize(loss);
  tf::session sess(train_op);
  auto saver = opt.swapping_saver(sess, tf::train::var_list(var0));  // the mistake
  (void)saver;
  return 0;
}
