// Compile-fail: split of a [2, 6] tensor into 4 equal pieces along axis 1. The diagnostic
// names the count, the axis and the shape:
// split_count_must_divide_the_dimension<4, 1, typeflow::shape<2, 6> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 6>>();
  auto pieces = tf::split<4, 1>(x);  // the mistake
  tf::session sess(std::get<0>(pieces));
  return 0;
}
