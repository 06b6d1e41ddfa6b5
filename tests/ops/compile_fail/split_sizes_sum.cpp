// Compile-fail: split of a [2, 6] tensor into pieces of 2 and 2 along axis 1 (6 columns).
// The diagnostic names the sizes, the axis and the shape:
// split_sizes_must_add_up_to_the_dimension<typeflow::ints<2, 2>, 1, typeflow::shape<2, 6> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 6>>();
  auto pieces = tf::split<tf::ints<2, 2>, 1>(x);  // the mistake
  tf::session sess(std::get<0>(pieces));
  return 0;
}
