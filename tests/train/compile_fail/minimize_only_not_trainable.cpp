// optimizer_test.py's testNoVariables: a loss over non-trainable variables only. TensorFlow's
// minimize raises ValueError "No variables to optimize"; here the diagnostic names the loss's
// op, no_variable_on_the_loss_path_receives_a_gradient<"add">, and says that a var_list trains
// such a variable.
#include <typeflow/ops/arithmetic.hpp>
#include <typeflow/ops/constant.hpp>
#include <typeflow/ops/variable.hpp>
#include <typeflow/train/gradient_descent.hpp>

namespace tf = typeflow;

int main() {
  auto var0 = tf::variable<"a", double, tf::shape<2>, tf::init::ones()>(tf::not_trainable);
  auto var1 = tf::variable<"b", double, tf::shape<2>, tf::init::ones()>(tf::not_trainable);
  auto loss = tf::constant<5.0>() * var0 + var1;
  auto sgd_op = tf::train::gradient_descent(3.0).minimize(loss);  // the mistake
  (void)sgd_op;
}
