// Compile-fail: squeeze<1> of a [2, 3, 1] tensor, whose dimension 1 has size 3. The
// diagnostic names the axis and the shape: squeeze_axis_is_not_of_size_1<1, typeflow::shape<2, 3, 1> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 3, 1>>();
  auto y = tf::squeeze<1>(x);  // the mistake
  tf::session sess(y);
  return 0;
}
