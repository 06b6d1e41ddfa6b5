// Compile-fail: fill<shape<2, -3>> (constant_op_test.py FillTest.testFillNegative, TensorFlow's
// ValueError for a negative static dim). The diagnostic names the shape.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto f = tf::fill<tf::shape<2, -3>>(tf::constant<7>());  // the mistake
  tf::session sess(f);
  return 0;
}
