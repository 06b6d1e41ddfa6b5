// Compile-fail: x[::0] of a [4] tensor (a stride of 0). The diagnostic names the axis,
// begin, end, strides and the shape:
// strided_slice_is_invalid_at_axis<0, typeflow::ints<0>, typeflow::ints<4>, typeflow::ints<0>, typeflow::shape<4> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<4>>();
  auto y = tf::strided_slice<tf::ints<0>, tf::ints<4>, tf::ints<0>>(x);  // the mistake
  tf::session sess(y);
  return 0;
}
