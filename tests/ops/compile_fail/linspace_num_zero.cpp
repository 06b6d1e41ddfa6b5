// Compile-fail: tf.lin_space(1., 5., 0) with a static num (TensorFlow: InvalidArgument
// "Requires num > 0"). The diagnostic names num: linspace_requires_num_greater_than_0<0>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto r = tf::linspace<0>(tf::constant<1.0>(), tf::constant<5.0>());  // the mistake
  tf::session sess(r);
  return 0;
}
