// optimizer_test.py's testNoGradients: cost = 5 * var0, minimized with var_list [var1], which
// no path joins to the cost. TensorFlow's minimize raises ValueError "No gradients provided
// for any variable"; here the diagnostic names the variables given,
// no_gradient_provided_for_any_variable<"var1">.
#include <typeflow/ops/arithmetic.hpp>
#include <typeflow/ops/constant.hpp>
#include <typeflow/ops/reduce.hpp>
#include <typeflow/ops/variable.hpp>
#include <typeflow/train/gradient_descent.hpp>

namespace tf = typeflow;

int main() {
  auto var0 = tf::variable<"var0", double, tf::shape<2>, tf::init::ones()>();
  auto var1 = tf::variable<"var1", double, tf::shape<2>, tf::init::ones()>();
  auto cost = tf::reduce_sum(tf::constant<5.0>() * var0);
  auto sgd_op = tf::train::gradient_descent(3.0).minimize(cost, tf::train::var_list(var1));  // the mistake
  (void)sgd_op;
}
