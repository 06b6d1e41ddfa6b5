// Compile-fail: Adam's beta1 initializes the variable beta1_power, so it must be known when
// variables are initialized: a number or a literal, not a placeholder. The diagnostic must
// name the hyperparameter: hyperparameter_initializes_a_variable_give_a_number_or_a_literal<"beta1">.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto beta1 = tf::placeholder<"beta1", double>();
  auto w = tf::variable<"w", double>();
  auto train_op = tf::train::adam(0.001, beta1).minimize(w * w);  // the mistake
  tf::session sess(train_op);
  return 0;
}
