// Compile-fail: softmax along axis 2 of a rank-2 input (softmax_op_test.py testInvalidAxis,
// an InvalidArgumentError at run time in TensorFlow). The diagnostic names the axis and the
// rank: softmax_axis_is_out_of_range<2, 2>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto ones = tf::placeholder<"ones", float, tf::shape<2, 3>>();
  auto s = tf::softmax<2>(ones);  // the mistake
  tf::session sess(s);
  return 0;
}
