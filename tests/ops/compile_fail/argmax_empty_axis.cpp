// Compile-fail: argmax_op_test.py testEmpty with a static shape: argmax along an axis of size
// 0 (TensorFlow: "Reduction axis 0 is empty in shape [0]"). The diagnostic names the axis and
// the shape: argmax_argmin_reduction_axis_is_empty<0, typeflow::shape<0> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<0>>();
  auto y = tf::argmax<0>(x);  // the mistake
  tf::session sess(y);
  return 0;
}
