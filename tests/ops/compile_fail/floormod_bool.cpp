// Compile-fail: tf.floormod of bool tensors (TensorFlow's FloorMod has no bool kernel).
// The diagnostic names the element type: division_op_needs_a_number_operand<bool>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", bool, tf::shape<3>>();
  auto m = tf::floormod(x, x);  // the mistake
  tf::session sess(m);
  return 0;
}
