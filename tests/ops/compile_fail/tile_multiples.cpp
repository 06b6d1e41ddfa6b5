// Compile-fail: tile<2> of a rank-2 tensor (one multiple per dimension). The diagnostic names
// the multiples and the shape:
// tile_needs_one_multiple_of_at_least_0_per_dimension<typeflow::ints<2>, typeflow::shape<2, 3> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 3>>();
  auto y = tf::tile<2>(x);  // the mistake
  tf::session sess(y);
  return 0;
}
