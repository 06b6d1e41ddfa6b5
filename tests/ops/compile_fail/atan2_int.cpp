// Compile-fail: tf.atan2 of int32 tensors (TensorFlow's Atan2 accepts only floating types).
// The diagnostic names the element type: op_needs_a_floating_point_operand<int>.
#include <cstdint>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto y = tf::placeholder<"y", std::int32_t, tf::shape<3>>();
  auto x = tf::placeholder<"x", std::int32_t, tf::shape<3>>();
  auto a = tf::atan2(y, x);  // the mistake
  tf::session sess(a);
  return 0;
}
