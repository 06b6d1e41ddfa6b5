// Compile-fail: tf.slice of a [2, 3] tensor from row 1 taking 2 rows (only 1 is left). The
// diagnostic names the axis, begin, size and the shape:
// slice_begin_and_size_must_fit_in_the_shape<0, typeflow::ints<1, 0>, typeflow::ints<2, 3>, typeflow::shape<2, 3> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 3>>();
  auto y = tf::slice<tf::ints<1, 0>, tf::ints<2, 3>>(x);  // the mistake
  tf::session sess(y);
  return 0;
}
