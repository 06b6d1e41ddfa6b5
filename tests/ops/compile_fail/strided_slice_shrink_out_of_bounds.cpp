// Compile-fail: x[3] of a [3, 2] tensor (shrink_axis_mask on an index past the end). The
// diagnostic names the axis, begin, end, strides and the shape:
// strided_slice_is_invalid_at_axis<0, typeflow::ints<3>, typeflow::ints<4>, typeflow::ints<>, typeflow::shape<3, 2> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<3, 2>>();
  auto y = tf::strided_slice<tf::ints<3>, tf::ints<4>, tf::ints<>, 0, 0, 1>(x);  // the mistake
  tf::session sess(y);
  return 0;
}
