// Compile-fail: an optimizer's learning rate must be a number or a scalar node; here it is a
// vector. The diagnostic must name the hyperparameter:
// hyperparameter_must_be_a_scalar_node_or_a_number<"learning_rate">.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto lr = tf::placeholder<"lr", double, tf::shape<2>>();
  auto w = tf::variable<"w", double>();
  auto train_op = tf::train::adam(lr).minimize(w * w);  // the mistake
  tf::session sess(train_op);
  return 0;
}
