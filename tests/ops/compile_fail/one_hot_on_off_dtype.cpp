// Compile-fail: one_hot_op_test.py testOnOffMismatchTypeError: on_value float64, off_value
// float32 (TensorFlow's TypeError). The diagnostic names the dtype and both values' types:
// one_hot_on_and_off_values_must_have_the_dtype<double, double, float>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto indices = tf::placeholder<"indices", std::int32_t, tf::shape<3>>();
  auto on = tf::placeholder<"on", double, tf::shape<>>();
  auto off = tf::placeholder<"off", float, tf::shape<>>();
  auto y = tf::one_hot<3, double>(indices, on, off);  // the mistake
  tf::session sess(y);
  return 0;
}
