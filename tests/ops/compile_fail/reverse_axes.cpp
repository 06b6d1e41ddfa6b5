// Compile-fail: reverse<2> of a rank-2 tensor (axes in [-2, 2)). The diagnostic names the axes
// and the shape: axes_must_be_in_range_and_distinct_for_shape<typeflow::ints<2>, typeflow::shape<2, 3> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 3>>();
  auto y = tf::reverse<2>(x);  // the mistake
  tf::session sess(y);
  return 0;
}
