// Compile-fail: clip_by_value's bounds must broadcast to t's shape without changing it (as
// TensorFlow's ValueError in clip_ops_test.py testClipByValueBadShape): here hi of shape
// [2, 1] would make the [3] tensor t a [2, 3] result. The diagnostic names both shapes.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto t = tf::placeholder<"t", float, tf::shape<3>>();
  auto hi = tf::placeholder<"hi", float, tf::shape<2, 1>>();
  auto clipped = tf::clip_by_value(t, tf::constant<-1.0f>(), hi);  // the mistake
  (void)clipped;
  return 0;
}
