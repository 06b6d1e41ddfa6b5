// Compile-fail: random_uniform with a vector minval (random_ops_test.py
// testUniformIntsWithInvalidShape, TensorFlow's ValueError "Shape must be rank 0 but is rank
// 1"). The diagnostic names the dtype and the parameter's type and shape.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto minval = tf::placeholder<"minval", std::int32_t, tf::shape<2>>();
  auto r = tf::random_uniform<tf::shape<1000>, std::int32_t>(minval, tf::constant<3>());  // the mistake
  tf::session sess(r);
  return 0;
}
