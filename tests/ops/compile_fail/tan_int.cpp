// Compile-fail: tf.tan of an int32 tensor (TensorFlow's Tan accepts only floating types here).
// The diagnostic names the element type: op_needs_a_floating_point_operand<int>.
#include <cstdint>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", std::int32_t, tf::shape<3>>();
  auto t = tf::tan(x);  // the mistake
  tf::session sess(t);
  return 0;
}
