// Compile-fail: tf.is_nan of an int32 tensor (TensorFlow's IsNan accepts only float types).
// The diagnostic names the element type: is_nan_is_inf_is_finite_need_a_floating_point_operand<int>.
#include <cstdint>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", std::int32_t, tf::shape<3>>();
  auto n = tf::is_nan(x);  // the mistake
  tf::session sess(n);
  return 0;
}
