// Compile-fail: tf.range(0, 5, 0) with static arguments (TensorFlow: InvalidArgument
// "Requires delta != 0"). The diagnostic names the arguments:
// range_requires_delta_nonzero_and_toward_limit<0, 5, 0>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto r = tf::range<0, 5, 0>();  // the mistake
  tf::session sess(r);
  return 0;
}
