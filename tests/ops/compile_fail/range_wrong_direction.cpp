// Compile-fail: tf.range(5, 0, 1) with static arguments (TensorFlow: InvalidArgument
// "Requires start <= limit when delta > 0"). The diagnostic names the arguments:
// range_requires_delta_nonzero_and_toward_limit<5, 0, 1>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto r = tf::range<5, 0, 1>();  // the mistake
  tf::session sess(r);
  return 0;
}
