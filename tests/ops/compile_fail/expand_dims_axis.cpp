// Compile-fail: expand_dims<3> of a rank-1 tensor (axis in [-2, 1]). The diagnostic names the
// axis and the shape: expand_dims_axis_is_out_of_range_for_shape<3, typeflow::shape<2> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2>>();
  auto y = tf::expand_dims<3>(x);  // the mistake
  tf::session sess(y);
  return 0;
}
